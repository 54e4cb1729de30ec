"""Fixtures for the knowledge-base tests: small documents of every supported type, made on the fly."""

from __future__ import annotations

import io
from pathlib import Path

import pytest


def make_pdf(lines: list[str], *, pages: list[list[str]] | None = None, title: str = "",
             outline: list[tuple[str, int, int]] = (), headline_size: int = 0) -> bytes:
    """A minimal valid PDF in Helvetica, built by hand (no PDF writer needed): one page showing ``lines``,
    or one page per list in ``pages``; ``title`` goes in its properties; ``outline`` holds bookmarks as
    (title, page from 0, depth 0 or 1), in reading order; with ``headline_size``, the first page's first
    line is shown in type of that size (a title page), the rest in 12-point type."""
    pages = pages if pages is not None else [lines]
    first_page = 3
    font = first_page + 2 * len(pages)
    objects: dict[int, bytes] = {
        1: b"<< /Type /Catalog /Pages 2 0 R" + (b" /Outlines %d 0 R" % (font + 1) if outline else b"") + b" >>",
        2: b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % (first_page + 2 * n) for n in range(len(pages)))
           + b"] /Count %d >>" % len(pages),
        font: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    }
    for n, page_lines in enumerate(pages):
        ops = " ".join(f"({line}) Tj 0 -16 Td" for line in page_lines)
        if headline_size and n == 0 and page_lines:
            rest = " ".join(f"({line}) Tj 0 -16 Td" for line in page_lines[1:])
            ops = f"/F1 {headline_size} Tf ({page_lines[0]}) Tj /F1 12 Tf 0 -{headline_size + 8} Td {rest}"
        stream = f"BT /F1 12 Tf 72 720 Td {ops} ET".encode("latin-1")
        objects[first_page + 2 * n] = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
                                       b"/Resources << /Font << /F1 %d 0 R >> >> >>" % (first_page + 2 * n + 1, font))
        objects[first_page + 2 * n + 1] = b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream"
    if outline:
        root = font + 1
        numbers = [root + 1 + n for n in range(len(outline))]
        parents = []
        for n, (_, _, depth) in enumerate(outline):
            parents.append(root if depth == 0 else max(m for m, (_, _, d) in zip(numbers[:n], outline) if d == 0))
        children: dict[int, list[int]] = {}
        for number, parent in zip(numbers, parents):
            children.setdefault(parent, []).append(number)
        for number, parent, (name, page, _) in zip(numbers, parents, outline):
            kin = children[parent]
            at = kin.index(number)
            fields = [f"/Title ({name})", f"/Parent {parent} 0 R", f"/Dest [{first_page + 2 * page} 0 R /Fit]"]
            if at:
                fields.append(f"/Prev {kin[at - 1]} 0 R")
            if at + 1 < len(kin):
                fields.append(f"/Next {kin[at + 1]} 0 R")
            if number in children:
                fields.append(f"/First {children[number][0]} 0 R /Last {children[number][-1]} 0 R "
                              f"/Count {len(children[number])}")
            objects[number] = ("<< " + " ".join(fields) + " >>").encode("latin-1")
        top = children[root]
        objects[root] = b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>" % (top[0], top[-1], len(top))
    info = max(objects) + 1 if title else None
    if info:
        objects[info] = f"<< /Title ({title}) >>".encode("latin-1")
    return write_pdf(objects, info)


def write_pdf(objects: dict[int, bytes], info: int | None = None) -> bytes:
    """A PDF file of ``objects`` (numbered from 1, the catalog first), with its cross-reference table."""
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number in range(1, max(objects) + 1):
        offsets.append(out.tell())
        out.write(f"{number} 0 obj\n".encode() + objects[number] + b"\nendobj\n")
    xref = out.tell()
    out.write(f"xref\n0 {len(offsets) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    trailer = f"/Size {len(offsets) + 1} /Root 1 0 R" + (f" /Info {info} 0 R" if info else "")
    out.write(f"trailer\n<< {trailer} >>\nstartxref\n{xref}\n%%EOF\n".encode())
    return out.getvalue()


def make_docx(path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_heading("Garden Handbook", level=0)
    document.add_heading("Watering", level=1)
    document.add_paragraph("Tomatoes need deep watering twice a week in dry summers.")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text = "plant"
    table.cell(0, 1).text = "litres"
    table.cell(1, 0).text = "tomato"
    table.cell(1, 1).text = "4"
    document.save(str(path))


SAMPLES = {
    "notes.txt": "The lighthouse keeper logs the weather every morning.\n\nFog horns sound in thick fog.",
    "guide.md": "# Bread Guide\n\nIntro text.\n\n## Sourdough\n\nFeed the starter with rye flour daily.\n\n"
                "```\nmix(flour, water)\n```\n\n| step | time |\n|---|---|\n| proof | 12h |\n",
    "manual.rst": "Bicycle Manual\n==============\n\nBrakes\n------\n\nAdjust the brake cable tension with "
                  "the barrel adjuster.\n\nExample::\n\n    turn left twice\n\nDone.\n",
    "page.html": "<html><head><title>Volcano Facts</title></head><body><nav>Home | About | Menu</nav>"
                 "<main><h1>Volcanoes</h1><p>Magma chambers feed eruptions.</p><h2>Types</h2>"
                 "<dl><dt>Shield volcano</dt><dd>Broad, gentle slopes of basalt lava.</dd></dl>"
                 "<table><tr><th>name</th><th>height</th></tr><tr><td>Etna</td><td>3357</td></tr></table>"
                 "</main><footer>copyright footer text</footer></body></html>",
    "data.csv": "city,river\nParis,Seine\nLondon,Thames\n",
    "data.json": '{"planets": [{"name": "Mars", "moons": 2}], "star": "Sun"}',
    "data.xml": "<catalog><book><title>Moby Dick</title><author>Melville</author></book></catalog>",
    "server.log": "2024-01-01 12:00 started\n2024-01-01 12:01 disk quota exceeded on volume seven\n",
}


@pytest.fixture
def sample_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, text in SAMPLES.items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "report.pdf").write_bytes(make_pdf(["Quarterly revenue grew by eleven percent.", "Costs fell."]))
    make_docx(folder / "garden.docx")
    return folder


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    path = tmp_path / "data"
    path.mkdir()
    return path


@pytest.fixture
def panel(qtbot, data_dir: Path):
    """The knowledge panel on ``data_dir``, with the default settings; shut down at the end."""
    from tinyrag_desktop.settings import defaults
    from tinyrag_desktop.ui.kb_panel import KnowledgePanel

    widget = KnowledgePanel(data_dir, lambda: defaults())
    qtbot.add_widget(widget)
    yield widget
    widget.shutdown()
