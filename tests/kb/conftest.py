"""Fixtures for the knowledge-base tests: small documents of every supported type, made on the fly."""

from __future__ import annotations

import io
from pathlib import Path

import pytest


def make_pdf(lines: list[str]) -> bytes:
    """A minimal valid one-page PDF showing ``lines`` in Helvetica (built by hand: no PDF writer needed)."""
    text_ops = " ".join(f"({line}) Tj 0 -16 Td" for line in lines)
    stream = f"BT /F1 12 Tf 72 720 Td {text_ops} ET".encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(f"{number} 0 obj\n".encode() + body + b"\nendobj\n")
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    out.write(f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
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
