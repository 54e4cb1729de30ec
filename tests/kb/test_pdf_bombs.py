"""A PDF whose pages unpack to more memory than a PDF may take is refused with that reason, read in a helper
process whose memory is capped (pdf_apart.py); the import goes on with the next file, and ordinary PDFs
read as before. The cap is lowered to 32 MB here so that a bomb of 128 MB (128 KB on disk) passes it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.pdf_bomb import pdf_bomb
from tinyrag_desktop.kb import Importer, open_store, pdf_apart, search
from tinyrag_desktop.kb.errors import ReadError
from tinyrag_desktop.kb.readers import read_bytes

from .conftest import make_pdf

pytestmark = pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="the memory cap is Linux's")
TOO_LARGE = pdf_apart.TOO_LARGE.format(mb=32)


@pytest.fixture(autouse=True)
def small_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdf_apart, "MOST_MB", 32)


def test_a_pdf_that_unpacks_past_the_cap_is_refused_with_the_reason() -> None:
    with pytest.raises(ReadError) as info:
        read_bytes(pdf_bomb(128), "pdf", "bomb.pdf")
    assert str(info.value) == TOO_LARGE
    assert str(info.value).startswith("the PDF unpacks to more than 32 MB when read")


def test_a_pdf_under_the_cap_reads_and_the_next_pdf_after_a_bomb_too() -> None:
    assert "hello bomb" in read_bytes(pdf_bomb(8), "pdf", "small.pdf").blocks[1].text
    with pytest.raises(ReadError, match="unpacks to more than 32 MB"):
        read_bytes(pdf_bomb(128), "pdf", "bomb.pdf")
    doc = read_bytes(make_pdf(["The lighthouse keeper lights the lamp at dusk."], title="Keeper"), "pdf", "k.pdf")
    assert doc.title == "Keeper" and "lights the lamp at dusk" in doc.blocks[1].text


def test_an_import_goes_on_past_a_pdf_bomb(tmp_path: Path, data_dir: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a-bomb.pdf").write_bytes(pdf_bomb(128))
    (folder / "b-keeper.pdf").write_bytes(make_pdf(["The lighthouse keeper lights the lamp at dusk."]))
    (folder / "c-note.md").write_text("# Note\n\nThe ferry leaves at six.\n")
    with open_store(data_dir) as kb:
        report = Importer(kb).run([str(folder)])
    assert [(Path(f.location).name, f.reason) for f in report.failed] == [("a-bomb.pdf", TOO_LARGE)]
    assert sorted(Path(p).name for p in report.added) == ["b-keeper.pdf", "c-note.md"]
    assert search(data_dir, "lighthouse keeper", 1)[0].location == str(folder / "b-keeper.pdf")


def test_where_no_helper_works_pdfs_are_read_here_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    pdf_apart._stop()
    monkeypatch.setattr(pdf_apart, "_CANNOT", [])
    monkeypatch.setattr(pdf_apart, "_WORKED", [])  # no helper was ever ready in this process
    monkeypatch.setattr(pdf_apart, "_command", lambda: [sys.executable, "-c", "import sys; sys.exit(3)"])
    doc = read_bytes(make_pdf(["The lighthouse keeper lights the lamp at dusk."]), "pdf", "k.pdf")
    assert "lights the lamp at dusk" in doc.blocks[1].text
    assert pdf_apart._CANNOT == ["it exited with status 3 before reading anything"]
