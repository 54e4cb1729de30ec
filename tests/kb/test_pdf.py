"""PDFs read through PDFium: sections from the outline (bookmarks), pages, titles, and files that cannot be read."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.chunking import chunk_document
from tinyrag_desktop.kb.errors import NoText, ReadError
from tinyrag_desktop.kb.readers import read_bytes, read_pdf
from tinyrag_desktop.tools.readable import UnreadableContent, pdf_to_text

from .conftest import make_pdf

PUMP = dict(
    pages=[["Read this manual before use.", "1 Setup", "Bolt the pump to a level floor."],
           ["Leave room for the hoses.", "1.1 Wiring", "The red wire goes to the red terminal."],
           ["2 Care", "Rinse the filter every month."]],
    title="Pump Manual",
    outline=[("Setup", 0, 0), ("Wiring", 1, 1), ("Care", 2, 0)],
)


def test_sections_come_from_the_outline_and_start_at_their_title_line():
    doc = read_pdf(make_pdf([], **PUMP), "pump.pdf")
    assert doc.title == "Pump Manual"
    chunks = {c.text: c.heading for c in chunk_document(doc, 1200)}
    assert chunks == {
        "Read this manual before use.": "Pump Manual",
        # the top of page 2 still belongs to Setup: Wiring starts at its title's line
        "Bolt the pump to a level floor.\n\nLeave room for the hoses.": "Pump Manual > Setup",
        "The red wire goes to the red terminal.": "Pump Manual > Setup > Wiring",
        "Rinse the filter every month.": "Pump Manual > Care",
    }


def test_a_bookmark_whose_title_is_not_on_its_page_starts_at_the_top_of_the_page():
    pdf = make_pdf([], pages=[["Intro words."], ["Words about valves.", "More valve words."]],
                   outline=[("Valves and seals", 1, 0)])
    chunks = chunk_document(read_pdf(pdf, "valves.pdf"), 1200)
    assert [(c.heading, c.text) for c in chunks] == [
        ("valves.pdf", "Intro words."),
        ("valves.pdf > Valves and seals", "Words about valves.\nMore valve words."),
    ]


ORCHARD = dict(
    pages=[["Orchard Guide", "Apple trees are pruned in late winter, before the buds swell."],
           ["Pears ripen off the tree: pick them when the stalk lifts with a gentle twist.",
            "Codling moth traps are hung in May."],
           ["Cherries need netting against starlings from June."],
           ["3.1 Plums:", "Plums are thinned in June."]],
    outline=[("Apples", 0, 0), ("Pears", 1, 0), ("Cherries", 2, 0), ("Plums", 3, 0)],
)


def test_a_line_that_only_mentions_a_bookmarks_title_stays_text():
    # Before, the first line holding the title was taken for the title's own line and dropped: "Pears ripen
    # …" and the whole third page were not in the knowledge base, and nothing said so.
    chunks = chunk_document(read_pdf(make_pdf([], **ORCHARD), "orchard.pdf"), 1200)
    text = "\n".join(c.text for c in chunks)
    for page in ORCHARD["pages"][:3]:
        for sentence in page:
            assert sentence in text
    assert "Plums are thinned in June." in text
    assert [(c.heading, c.text) for c in chunks] == [
        # "Apples" is not on its page ("Apple trees" is not the word): the section starts at the page's top
        ("orchard.pdf > Apples", "Orchard Guide\nApple trees are pruned in late winter, before the buds swell."),
        ("orchard.pdf > Pears", "Pears ripen off the tree: pick them when the stalk lifts with a gentle twist.\n"
                                "Codling moth traps are hung in May."),
        ("orchard.pdf > Cherries", "Cherries need netting against starlings from June."),
        # the title's own line, with its number and a colon, is the heading, not text
        ("orchard.pdf > Plums", "Plums are thinned in June."),
    ]


def test_without_an_outline_each_page_is_a_section():
    pdf = make_pdf([], pages=[["Tide tables."], [], ["Harbour lights."]])
    chunks = chunk_document(read_pdf(pdf, "harbour.pdf"), 1200)
    assert [(c.heading, c.text) for c in chunks] == [
        ("harbour.pdf > Page 1", "Tide tables."),
        ("harbour.pdf > Page 3", "Harbour lights."),  # a page without text adds nothing
    ]


def test_a_pdf_without_text_says_it_needs_text_recognition():
    with pytest.raises(NoText, match="OCR"):
        read_bytes(make_pdf([], pages=[[], []]), "pdf", "scan.pdf")


@pytest.mark.parametrize("data", [b"%PDF-1.4\n1 0 obj garbage", make_pdf(["Cut short."])[:300]])
def test_a_damaged_pdf_is_a_read_error_in_words(data):
    with pytest.raises(ReadError, match="damaged or unreadable PDF"):
        read_bytes(data, "pdf", "broken.pdf")


def test_a_password_protected_pdf_says_so(data_dir, tmp_path):
    pypdf = pytest.importorskip("pypdf")  # a test dependency only, to encrypt a file
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(make_pdf(["Secret plans."]))))
    writer.encrypt("open sesame")
    locked = tmp_path / "locked.pdf"
    with locked.open("wb") as out:
        writer.write(out)
    with pytest.raises(ReadError, match="password-protected"):
        read_bytes(locked.read_bytes(), "pdf", "locked.pdf")
    with pytest.raises(UnreadableContent, match="password-protected"):  # the url_fetch tool says the same
        pdf_to_text(locked.read_bytes(), 10_000)


def test_an_imported_pdf_is_found_under_its_section(data_dir, tmp_path):
    path = tmp_path / "pump.pdf"
    path.write_bytes(make_pdf([], **PUMP))
    kb = open_store(data_dir)
    report = Importer(kb).run([str(path)])
    kb.close()
    assert report.added == [str(path)]
    (hit,) = search(data_dir, "red terminal wire", 1)
    assert (hit.title, hit.heading) == ("Pump Manual", "Pump Manual > Setup > Wiring")


def test_the_url_fetch_tool_reads_pages_until_it_has_enough():
    pdf = make_pdf([], pages=[["First page words."], ["Second page words."], ["Third page words."]], title="Three")
    read = pdf_to_text(pdf, max_chars=20)
    assert read.title == "Three"
    assert read.text == "[page 1]\nFirst page words.\n\n[page 2]\nSecond page words."


def test_with_bookmarks_for_chapters_only_passages_also_name_their_page():
    pdf = make_pdf([], pages=[["Preface words."], ["1 Boats", "Hulls are wooden."], ["Sails are cotton."],
                              ["Masts are tall.", "2 Knots", "A bowline holds."], ["A hitch slips."],
                              ["The end."], ["Index words."]],
                   outline=[("Boats", 1, 0), ("Knots", 3, 0)])  # 2 bookmarks for 7 pages
    chunks = chunk_document(read_pdf(pdf, "sailing.pdf"), 1200)
    assert [(c.heading, c.text) for c in chunks] == [
        ("sailing.pdf > Page 1", "Preface words."),
        ("sailing.pdf > Boats > Page 2", "Hulls are wooden."),
        ("sailing.pdf > Boats > Page 3", "Sails are cotton."),
        ("sailing.pdf > Boats > Page 4", "Masts are tall."),
        ("sailing.pdf > Knots > Page 4", "A bowline holds."),
        ("sailing.pdf > Knots > Page 5", "A hitch slips."),
        ("sailing.pdf > Knots > Page 6", "The end."),
        ("sailing.pdf > Knots > Page 7", "Index words."),
    ]


def test_words_hyphenated_at_a_line_end_are_whole_again(data_dir, tmp_path):
    # PDFium marks such a hyphen with U+FFFE and drops the line break: "con\ufffenection".
    lines = ["The pipe makes a con-", "nection between two command-", "line tools; a command-line",
             "tool reads a stream."]
    text = "\n".join(b.text for b in read_pdf(make_pdf(lines), "pipes.pdf").blocks)
    assert "connection" in text and "\ufffe" not in text
    assert text.count("command-line") == 2  # written with a hyphen elsewhere on the page: a real one
    assert "connection" in pdf_to_text(make_pdf(lines), 10_000).text  # the url_fetch tool reads PDFs the same way
    (tmp_path / "pipes.pdf").write_bytes(make_pdf(lines))
    with open_store(data_dir) as kb:
        Importer(kb).run([str(tmp_path / "pipes.pdf")])
    assert search(data_dir, "connection", 1)


_TITLE_WORDS = ["pears", "Pears", "ripen", "apples", "trees"]
_WORDS = [*_TITLE_WORDS, "1.2", "Chapter", "3", ":", "A."]  # and what may number a title


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=5).map(" ".join), max_size=8),
       titles=st.lists(st.lists(st.sampled_from(_TITLE_WORDS), min_size=1, max_size=2).map(" ".join),
                       min_size=1, max_size=3))
def test_no_line_of_a_page_is_lost_under_its_bookmarks(lines, titles):
    from tinyrag_desktop.kb.pdf import Section, _page_blocks

    blocks = _page_blocks("\n".join(lines), [Section(0, 0, title) for title in titles], None, 0)
    kept = [line for block in blocks if block.kind == "text" for line in block.text.split("\n")]
    headings = [block.text for block in blocks if block.kind == "heading"]
    assert headings == titles
    for line in lines:
        if line.strip() not in kept:  # only a title's own line may become its heading
            assert any(line.casefold().rstrip(" .:").endswith(title.casefold()) for title in titles), line
