"""PDF pages read as a person reads them, from defects found importing /usr/share/doc: the running heads
and feet a book repeats on every page ("Chapter 6: Bash Features 93", "GNU Bash 5.2 2022 September 19
52"), its page numbers and its printed table of contents are not part of the text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.chunking import chunk_document
from tinyrag_desktop.kb.pdf import _without_running_lines
from tinyrag_desktop.kb.readers import read_pdf

from .conftest import make_pdf

_BOOK = dict(
    pages=[["Garden Handbook", "Contents", "1 Watering . . . . . . . . . . 1", "2 Pruning . . . . . . . . . . 4", "i"],
           ["Chapter 1: Watering 1", "1 Watering", "Tomatoes need deep watering twice a", "Garden Handbook 2024 1"],
           ["Chapter 1: Watering 2", "week in dry summers.", "Garden Handbook 2024 2"],
           ["Chapter 1: Watering 3", "Water early, before the heat of the day.", "Garden Handbook 2024 3"],
           ["Chapter 2: Pruning 4", "2 Pruning", "Prune roses in late winter.", "Garden Handbook 2024 4"],
           ["Chapter 2: Pruning 5", "Cut above an outward-facing bud (see page 4).", "Garden Handbook 2024 5"],
           ["Chapter 2: Pruning 6", "Burn diseased wood.", "Garden Handbook 2024 6"]],
    title="Garden Handbook",
    outline=[("Watering", 1, 0), ("Pruning", 4, 0)],
)


def test_running_heads_feet_page_numbers_and_the_contents_are_left_out():
    chunks = chunk_document(read_pdf(make_pdf([], **_BOOK), "garden.pdf"), 1200)
    text = "\n".join(c.text for c in chunks)
    for furniture in ("Chapter 1", "Chapter 2", "Garden Handbook 2024", ". . .", "\ni\n"):
        assert furniture not in f"\n{text}\n", (furniture, text)
    for line in ("Tomatoes need deep watering twice a", "week in dry summers.", "Burn diseased wood.",
                 "Cut above an outward-facing bud (see page 4).", "Garden Handbook\nContents"):
        assert line in text, (line, text)
    assert [c.heading for c in chunks if "Prune roses" in c.text] == ["Garden Handbook > Pruning > Page 5"]


def test_a_search_finds_the_sentence_not_the_running_head(data_dir, tmp_path):
    (tmp_path / "garden.pdf").write_bytes(make_pdf([], **_BOOK))
    with open_store(data_dir) as kb:
        Importer(kb).run([str(tmp_path / "garden.pdf")])
    hits = search(data_dir, "when to prune roses", 1)
    assert hits and hits[0].text.startswith("Prune roses in late winter.") and "Chapter" not in hits[0].text


def test_a_page_left_blank_holds_no_text_not_even_its_running_head():
    # a report's blank pages (only its head and foot) gave their running head as their text, a passage of it
    birds = {1: "herons", 2: "egrets", 4: "bitterns", 6: "storks"}
    pages = [["Confidential - Acme Corp", *([f"The count of {birds[n]} rose.", f"Nests of {birds[n]} were found."]
                                            if n in birds else []), f"Page {n} of 6"] for n in range(1, 7)]
    chunks = chunk_document(read_pdf(make_pdf([], pages=pages), "report.pdf"), 1200)
    text = "\n".join(c.text for c in chunks)
    assert "Confidential" not in text and "of 6" not in text, text
    assert all(f"Nests of {bird} were found." in text for bird in birds.values()), text


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.text(alphabet="ab 1.", max_size=6), max_size=6).map("\n".join), max_size=8))
def test_only_lines_at_the_edges_of_a_page_are_ever_left_out(pages):
    out = _without_running_lines(pages)
    assert len(out) == len(pages)
    for before, after in zip(pages, out):
        lines = before.split("\n")
        filled = [n for n, line in enumerate(lines) if line.strip()]
        edges = set(filled[:2] + filled[-2:])
        kept = after.split("\n")
        middle = [line for n, line in enumerate(lines) if n not in edges and not _leaders(line)]
        assert all(line in kept for line in middle)


def _leaders(line: str) -> bool:
    import re

    return re.search(r"(\.\s?){5,}\s*([\divxlc]+)\s*$", line) is not None


def test_a_pdf_without_a_title_in_its_properties_is_named_by_its_title_page(data_dir, tmp_path):
    # Bash's reference manual has no Title property: every passage was filed under "bashref.pdf"
    lines = ["Garden Handbook", "Watering tomatoes twice a week keeps the fruit from splitting."]
    assert read_pdf(make_pdf(lines, headline_size=28), "garden.pdf").title == "Garden Handbook"
    assert read_pdf(make_pdf(lines), "garden.pdf").title == "garden.pdf"  # nothing stands out
    assert read_pdf(make_pdf(lines, headline_size=28, title="The Book"), "garden.pdf").title == "The Book"
    (tmp_path / "garden.pdf").write_bytes(make_pdf(lines, headline_size=28))
    with open_store(data_dir) as kb:
        Importer(kb).run([str(tmp_path / "garden.pdf")])
    assert search(data_dir, "tomatoes splitting", 1)[0].title == "Garden Handbook"


def test_pages_of_one_line_alike_but_for_their_numbers_are_the_text_not_running_heads(data_dir, tmp_path):
    # a PDF of receipts, a page each: seen as running heads on every page, all of it was left out and
    # the import said the PDF was a scan to run through OCR
    pages = [[f"Receipt {n}: paid {n * 3}.00 for lawn mowing", str(n)] for n in range(1, 13)]
    (tmp_path / "receipts.pdf").write_bytes(make_pdf([], pages=pages))
    with open_store(data_dir) as kb:
        report = Importer(kb).run([str(tmp_path / "receipts.pdf")])
    assert len(report.added) == 1 and not report.skipped, report
    text = "\n".join(hit.text for hit in search(data_dir, "receipt 7 lawn mowing", 50))
    assert "Receipt 7: paid 21.00 for lawn mowing" in text, text
    assert "\n7\n" not in f"\n{text}\n"  # a page number is still no text
