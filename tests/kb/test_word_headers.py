"""A Word document's headers and footers are read once (not once per section or page), after its body,
under a heading of their own; a footer that only numbers the page adds nothing."""

from __future__ import annotations

from docx.enum.section import WD_SECTION

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.readers import read_bytes


def _document(path) -> None:
    import docx

    document = docx.Document()
    document.add_heading("Harbour rules", level=1)
    document.add_paragraph("Moor at the east quay after dark.")
    first = document.sections[0]
    first.header.paragraphs[0].text = "Confidential: Quetzal Marine internal"
    first.footer.paragraphs[0].text = "Page 1 of 2"
    first.footer.add_paragraph("Printed for the jerboa crew")
    first.different_first_page_header_footer = True
    first.first_page_header.paragraphs[0].text = "Draft for the harbour board"
    document.add_section(WD_SECTION.NEW_PAGE)
    document.add_paragraph("Fuel is sold at the west pier.")
    second = document.sections[1]
    second.header.is_linked_to_previous = False
    second.header.paragraphs[0].text = "Confidential: Quetzal Marine internal"  # the same again: once
    document.save(path)


def test_headers_and_footers_are_read_once_after_the_body(tmp_path):
    path = tmp_path / "rules.docx"
    _document(path)
    doc = read_bytes(path.read_bytes(), "docx", "rules.docx")
    texts = [(b.kind, b.text) for b in doc.blocks]
    assert texts[:3] == [("heading", "Harbour rules"), ("text", "Moor at the east quay after dark."),
                         ("text", "Fuel is sold at the west pier.")]
    tail = texts[3:]
    assert tail[0] == ("heading", "Headers and footers")
    lines = [text for _, text in tail[1:]]
    assert sorted(lines) == sorted(["Confidential: Quetzal Marine internal", "Draft for the harbour board",
                                    "Printed for the jerboa crew"])
    assert "Page 1 of 2" not in " ".join(lines)


def test_header_words_are_found(tmp_path, data_dir):
    path = tmp_path / "rules.docx"
    _document(path)
    with open_store(data_dir) as kb:
        assert Importer(kb).run([str(path)]).added
    hit = search(data_dir, "quetzal", 1)[0]
    assert hit.heading.endswith("Headers and footers") and "Quetzal Marine" in hit.text


def test_a_document_without_headers_has_no_such_section(tmp_path):
    import docx

    document = docx.Document()
    document.add_paragraph("Only a body.")
    document.save(tmp_path / "plain.docx")
    doc = read_bytes((tmp_path / "plain.docx").read_bytes(), "docx", "plain.docx")
    assert [b.text for b in doc.blocks] == ["Only a body."]
