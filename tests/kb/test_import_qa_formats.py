"""Import QA: files as people have them (DocBook and TEI prose, Word tables inside tables, JSON Lines
exports, Hugo notes, pages whose <meta charset> lies), read without lost words or markup debris."""

from __future__ import annotations

from pathlib import Path

import pytest

from tinyrag_desktop.kb.errors import ReadError
from tinyrag_desktop.kb.readers import file_type, read_bytes


def _text(doc) -> str:
    return "\n".join(b.text for b in doc.blocks)


# ---- XML -----------------------------------------------------------------------------------------------

def test_xml_prose_keeps_the_words_after_an_inline_element():
    doc = read_bytes(b"<doc><para>The <b>quokka</b> smiles at every visitor.</para><para>Next.</para></doc>",
                     "xml", "prose.xml")
    assert [b.text for b in doc.blocks] == ["para: The quokka smiles at every visitor.", "para: Next."]


def test_xml_fields_stay_a_line_each():
    doc = read_bytes(b"<r><person><name>Ann</name><age>3</age></person></r>", "xml", "people.xml")
    assert _text(doc) == "name: Ann\nage: 3"


def test_xml_entities_are_their_text():
    data = (b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY co "Example &amp; &in; Co"><!ENTITY in "inner">]>'
            b"<r><item>Made by &co; for the iguana &#233;tude.</item></r>")
    assert _text(read_bytes(data, "xml", "ents.xml")) == "item: Made by Example & inner Co for the iguana étude."


def test_docbook_entities_from_its_unread_dtd_are_characters_or_nothing():
    data = (b'<?xml version="1.0"?><!DOCTYPE book PUBLIC "-//OASIS//DTD DocBook XML V4.5//EN" '
            b'"http://www.oasis-open.org/docbook/xml/4.5/docbookx.dtd"><book><chapter><para>A '
            b"<emphasis>tidy</emphasis> &mdash; numbat &version; pen.</para></chapter></book>")
    assert _text(read_bytes(data, "xml", "book.xml")) == "para: A tidy \u2014 numbat pen."


# ---- Word ----------------------------------------------------------------------------------------------

def _docx_with_a_table_in_a_cell() -> bytes:
    import io

    import docx

    document = docx.Document()
    document.add_heading("Field guide", 1)
    table = document.add_table(rows=2, cols=2)
    for (row, col), text in {(0, 0): "Animal", (0, 1): "Notes", (1, 0): "Pangolin"}.items():
        table.cell(row, col).text = text
    cell = table.cell(1, 1)
    cell.text = "Scaly."
    inner = cell.add_table(rows=1, cols=2)
    inner.cell(0, 0).text = "Diet"
    inner.cell(0, 1).text = "ants and termites"
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_a_word_table_inside_a_cell_keeps_its_text():
    doc = read_bytes(_docx_with_a_table_in_a_cell(), "docx", "guide.docx")
    table = next(b for b in doc.blocks if b.kind == "table")
    assert table.text == "Animal | Notes\nPangolin | Scaly. Diet ants and termites"


# ---- JSON ----------------------------------------------------------------------------------------------

def test_json_null_and_booleans_read_as_the_file_writes_them():
    doc = read_bytes(b'{"a": null, "b": true, "c": false}', "json", "flags.json")
    assert _text(doc) == "a: null\nb: true\nc: false"


def test_a_json_lines_export_is_read_line_by_line():
    data = b'{"id": 1, "note": "the axolotl regrows limbs"}\n\n{"id": 2, "note": "the olm lives a century"}\n'
    for name in ("export.json", "export.jsonl", "export.ndjson"):
        doc = read_bytes(data, file_type(Path(name)), name)
        assert _text(doc) == "0.id: 1\n0.note: the axolotl regrows limbs\n1.id: 2\n1.note: the olm lives a century"


def test_json_that_is_neither_one_value_nor_lines_still_says_what_is_wrong():
    with pytest.raises(ReadError, match="not valid JSON"):
        read_bytes(b'{"a": 1}\n{"b": ', "json", "cut.json")


def test_a_json_mistake_is_said_in_words_with_its_line_and_column():
    # It said "not valid JSON (Expecting value: line 1 column 14 (char 13))", Python's own words.
    with pytest.raises(ReadError) as raised:
        read_bytes(b'{"name": "x",\n "size": }', "json", "bad.json")
    assert str(raised.value) == "not valid JSON: expecting value at line 2, column 10"
    with pytest.raises(ReadError) as raised:  # Python's words that end in "at" got a second one
        read_bytes(b'{"name": "unfinished', "json", "cut.json")
    assert str(raised.value) == "not valid JSON: unterminated string starting at line 1, column 10"


# ---- HTML ----------------------------------------------------------------------------------------------

def test_a_utf8_page_whose_meta_names_latin1_reads_as_utf8():
    for meta in ('<meta charset="iso-8859-1">', '<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">',
                 '<meta charset="utf-16">'):
        page = f"<html><head>{meta}<title>Menu</title></head><body><p>Caf\u00e9 cr\u00e8me \u2014 na\u00efve.</p></body></html>"
        doc = read_bytes(page.encode("utf-8"), "html", "menu.html")
        assert _text(doc) == "Caf\u00e9 cr\u00e8me \u2014 na\u00efve."


def test_a_latin1_page_that_says_so_still_reads_as_latin1():
    page = '<html><head><meta charset="iso-8859-1"></head><body><p>Caf\xe9 \x93quoted\x94</p></body></html>'
    assert _text(read_bytes(page.encode("latin-1"), "html", "old.html")) == "Caf\u00e9 \u201cquoted\u201d"


# ---- Markdown ------------------------------------------------------------------------------------------

def test_hugo_toml_front_matter_gives_the_title_and_shows_no_markup():
    data = (b'+++\ntitle = "Sourdough"\ndate = 2024-01-01\ntags = ["baking", "bread"]\n+++\n\n'
            b"## Starter\n\nFeed the starter daily.\n")
    doc = read_bytes(data, "markdown", "sourdough.md")
    assert doc.title == "Sourdough"
    assert [b.text for b in doc.blocks] == ["Tags: baking, bread", "Starter", "Feed the starter daily."]


def test_markdown_rules_leave_no_dashes_or_stars_in_the_text():
    data = b"# Notes\n\nFirst thought.\n\n---\n\nSecond thought.\n\n* * *\n\nThird.\n- - -\nFourth.\n\n___\n"
    doc = read_bytes(data, "markdown", "notes.md")
    assert [b.text for b in doc.blocks] == ["Notes", "First thought.", "Second thought.", "Third.", "Fourth."]


def test_a_paragraph_of_two_lines_underlined_is_a_heading():
    doc = read_bytes(b"Care of the\nrock garden\n===========\n\nWater weekly.\n\n- moss\n- fern\n---\nEnd.",
                     "markdown", "garden.md")
    assert [(b.kind, b.text) for b in doc.blocks] == [
        ("heading", "Care of the rock garden"), ("text", "Water weekly."), ("text", "- moss\n- fern"), ("text", "End.")]


# ---- logs and binary -------------------------------------------------------------------------------------

def test_a_log_with_a_block_of_nuls_from_a_power_cut_is_read():
    data = b"09:00 backup started\n" * 40 + bytes(4096) + b"09:05 wombat service restarted after the power cut\n"
    doc = read_bytes(data, "log", "syslog.log")
    assert "\x00" not in _text(doc) and _text(doc).rstrip().endswith("09:05 wombat service restarted after the power cut")


def test_a_tar_of_text_files_is_still_refused():
    import io
    import tarfile

    packed = io.BytesIO()
    with tarfile.open(fileobj=packed, mode="w") as tar:
        body = b"plain text inside an archive\n" * 20
        member = tarfile.TarInfo("notes.txt")
        member.size = len(body)
        tar.addfile(member, io.BytesIO(body))
    with pytest.raises(ReadError, match="tar archive"):
        read_bytes(packed.getvalue(), "text", "backup.txt")
    with pytest.raises(ReadError, match="binary"):
        read_bytes(bytes(5000), "log", "zeroed.log")


_W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
_MC_NS = 'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"'


def _docx_with_controls_and_a_text_box() -> bytes:
    """A Word file as templates and forms make them: a cover page in a content control, a field (an
    inline control) in a sentence, and a text box, stored twice as Word does (mc:Choice and mc:Fallback)."""
    import io

    import docx
    from docx.oxml import parse_xml

    document = docx.Document()
    document.add_paragraph("Opening line.")
    document.element.body.insert(1, parse_xml(
        f"<w:sdt {_W_NS}><w:sdtPr/><w:sdtContent><w:p><w:r><w:t>Cover page about the okapi</w:t></w:r></w:p>"
        "</w:sdtContent></w:sdt>"))
    sentence = document.add_paragraph("Owner: ")
    sentence._p.append(parse_xml(f"<w:sdt {_W_NS}><w:sdtContent><w:r><w:t>Dr Tapir</w:t></w:r></w:sdtContent></w:sdt>"))
    sentence._p.append(parse_xml(f'<w:r {_W_NS}><w:t xml:space="preserve"> signed.</w:t></w:r>'))
    box = "<w:txbxContent><w:p><w:r><w:t>Boxed note on the bongo</w:t></w:r></w:p></w:txbxContent>"
    anchor = document.add_paragraph("Flyer.")
    anchor._p.append(parse_xml(
        f"<w:r {_W_NS} {_MC_NS}><mc:AlternateContent><mc:Choice Requires=\"wps\"><w:drawing>{box}</w:drawing>"
        f"</mc:Choice><mc:Fallback><w:pict>{box}</w:pict></mc:Fallback></mc:AlternateContent></w:r>"))
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_word_content_controls_and_text_boxes_keep_their_text():
    doc = read_bytes(_docx_with_controls_and_a_text_box(), "docx", "form.docx")
    assert [b.text for b in doc.blocks] == [
        "Opening line.", "Cover page about the okapi", "Owner: Dr Tapir signed.", "Flyer.", "Boxed note on the bongo"]


def _zip(*names: str) -> bytes:
    import io
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name in names:
            archive.writestr(name, "<x/>")
    return out.getvalue()


@pytest.mark.parametrize("names, reason", [
    (("notes.txt",), "a ZIP archive, not a Word document"),
    (("[Content_Types].xml", "xl/workbook.xml"), "an Excel workbook (save it as CSV to import it), not a Word document"),
    (("mimetype", "content.xml"), "an OpenDocument file (save it as Word .docx to import it), not a Word document"),
])
def test_a_docx_that_is_another_zip_says_what_it_is(names, reason):
    with pytest.raises(ReadError) as info:
        read_bytes(_zip(*names), "docx", "report.docx")
    assert str(info.value) == reason


def test_a_docx_whose_body_is_not_in_words_namespace_says_so():
    # word/document.xml in a namespace Word never writes: "unexpected error: AttributeError: 'lxml.etree._Element'
    # object has no attribute 'body'" (the fuzzing review's case)
    import io
    import zipfile

    import docx

    out = io.BytesIO()
    made = docx.Document()
    made.add_paragraph("Hello")
    made.save(out)
    mangled = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(out.getvalue())) as source, zipfile.ZipFile(mangled, "w") as target:
        for item in source.infolist():
            part = source.read(item)
            if item.filename == "word/document.xml":
                part = part.replace(b"openxmlformats.org/wordprocessingml", b"openxmlfoo.org/wordprocessingml")
            target.writestr(item, part)
    with pytest.raises(ReadError) as info:
        read_bytes(mangled.getvalue(), "docx", "report.docx")
    assert str(info.value) == "a damaged Word document (its main part is not a Word document body)"


# ---- CSV -----------------------------------------------------------------------------------------------

def test_excels_sep_line_names_the_delimiter_and_is_no_row():
    doc = read_bytes(b"\xef\xbb\xbfsep=;\r\nname;city\r\nAnn;Paris\r\n", "csv", "excel.csv")
    assert _text(doc) == "name: Ann; city: Paris"


def test_a_csv_row_longer_than_its_header_keeps_its_extra_cells():
    doc = read_bytes(b"name,city\nAnn,Paris,speaks French,likes capybaras\nBob\n", "csv", "ragged.csv")
    assert _text(doc) == "name: Ann; city: Paris; column 3: speaks French; column 4: likes capybaras\nname: Bob"


def test_a_csv_of_one_row_is_that_row_once():
    assert _text(read_bytes(b"wombat,quokka,numbat\n", "csv", "one.csv")) == "wombat; quokka; numbat"


# ---- wrongly named -------------------------------------------------------------------------------------

_SAVED_PAGE = (b"<!-- saved from url=(0014)about:internet -->\n<!DOCTYPE html><html><head><title>Otters</title>"
               b"</head><body><nav>Home</nav><main><h1>Otters</h1><p>Sea otters hold hands asleep.</p></main></body></html>")


@pytest.mark.parametrize("kind, name", [("text", "page.txt"), ("markdown", "page.md"), ("json", "page.json")])
def test_a_web_page_saved_under_a_text_name_is_read_as_a_page(kind, name):
    doc = read_bytes(_SAVED_PAGE, kind, name)
    assert doc.type == "html" and _text(doc) == "Otters\nSea otters hold hands asleep."


@pytest.mark.parametrize("kind", ["pdf", "docx"])
def test_a_web_page_saved_as_a_pdf_or_word_file_says_so(kind):
    with pytest.raises(ReadError, match=f"^an HTML page .*, not a {kind.upper()} file$"):
        read_bytes(_SAVED_PAGE, kind, f"report.{kind}")


# ---- PDF -----------------------------------------------------------------------------------------------

def _pdf_without_pages() -> bytes:
    import io

    from pypdf import PdfWriter

    out = io.BytesIO()
    PdfWriter().write(out)
    return out.getvalue()


def test_a_pdf_without_pages_says_so_after_a_damaged_one():
    from tinyrag_desktop.kb.errors import NoText

    with pytest.raises(ReadError, match="damaged"):
        read_bytes(b"%PDF-1.4\n1 0 obj <</Type /Catalog>>\nbroken", "pdf", "broken.pdf")
    with pytest.raises(NoText) as info:
        read_bytes(_pdf_without_pages(), "pdf", "empty.pdf")
    assert str(info.value) == "no readable text found (the PDF has no pages)"


# ---- reStructuredText ----------------------------------------------------------------------------------

_RST_TABLES = b"""Habitats
========

+--------+------------+
| Animal | Habitat    |
+========+============+
| Okapi  | Rain       |
|        | forest     |
+--------+------------+
| Tapir  | Jungle     |
+--------+------------+

=====  ============
Name   Sleeps
=====  ============
Sloth  in the trees
Koala  22 hours
=====  ============

After the tables.
"""


def test_rst_grid_and_simple_tables_are_tables_without_their_borders():
    doc = read_bytes(_RST_TABLES, "rst", "habitats.rst")
    assert [(b.kind, b.text) for b in doc.blocks] == [
        ("heading", "Habitats"),
        ("table", "Animal | Habitat\nOkapi | Rain forest\nTapir | Jungle"),
        ("table", "Name | Sleeps\nSloth | in the trees\nKoala | 22 hours"),
        ("text", "After the tables."),
    ]


def test_a_windows_1252_page_that_claims_utf8_or_nothing_keeps_its_accents_and_quotes():
    body = "<title>Menu</title></head><body><p>Caf\u00e9 na\u00efve \u201cquoted\u201d \u2013 done</p></body></html>"
    for head in ('<html><head><meta charset="utf-8">', "<html><head>"):
        doc = read_bytes((head + body).encode("cp1252"), "html", "menu.html")
        assert _text(doc) == "Caf\u00e9 na\u00efve \u201cquoted\u201d \u2013 done"


@pytest.mark.parametrize("data, kind, reason", [
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(3000), "docx",
     "an older Word or Office (97-2003) file, not a DOCX file: save it as .docx in a word processor to import it"),
    (b"{\\rtf1\\ansi\\deff0 {\\fonttbl {\\f0 Times;}} Notes on the wombat\\par }", "docx",
     "a Rich Text (RTF) file, not a DOCX file: save it as .docx in a word processor to import it"),
    (b"{\\rtf1\\ansi\\deff0 {\\fonttbl {\\f0 Times;}} Notes on the wombat\\par }", "text",
     "a Rich Text (RTF) file, not text: save it as .docx in a word processor to import it"),
])
def test_older_word_processor_formats_say_how_to_import_them(data, kind, reason):
    with pytest.raises(ReadError) as info:
        read_bytes(data, kind, "notes")
    assert str(info.value) == reason


def test_an_indented_code_block_is_code_without_its_indent():
    data = b"# Setup\n\nRun this:\n\n    pip install wombat\n        --upgrade\n\n    wombat serve\n\nThen open it.\n\n- a list item\n\n    its second paragraph\n"
    doc = read_bytes(data, "markdown", "setup.md")
    assert [(b.kind, b.text) for b in doc.blocks] == [
        ("heading", "Setup"), ("text", "Run this:"), ("code", "pip install wombat\n    --upgrade\n\nwombat serve"),
        ("text", "Then open it."), ("text", "- a list item"), ("text", "its second paragraph")]


def test_markdown_footnotes_keep_their_text():
    data = b"# Moss\n\nMoss grows north[^1].\n\n[^1]: Mostly, in the northern hemisphere.\n"
    doc = read_bytes(data, "markdown", "moss.md")
    assert _text(doc) == "Moss\nMoss grows north[1].\n[1] Mostly, in the northern hemisphere."


def test_word_tracked_insertions_fields_and_smart_tags_keep_their_text_and_deletions_stay_out():
    import io

    import docx
    from docx.oxml import parse_xml

    document = docx.Document()
    edited = document.add_paragraph("The ")
    for xml in ('<w:ins {ns} w:id="1" w:author="Ann"><w:r><w:t xml:space="preserve">quick </w:t></w:r></w:ins>',
                '<w:del {ns} w:id="2" w:author="Ann"><w:r><w:delText>slow </w:delText></w:r></w:del>',
                '<w:r {ns}><w:t>bandicoot.</w:t></w:r>'):
        edited._p.append(parse_xml(xml.format(ns=_W_NS)))
    dated = document.add_paragraph("Printed ")
    dated._p.append(parse_xml(f'<w:fldSimple {_W_NS} w:instr="DATE"><w:r><w:t>2024-05-01</w:t></w:r></w:fldSimple>'))
    place = document.add_paragraph()
    place._p.append(parse_xml(f'<w:smartTag {_W_NS} w:uri="x" w:element="place"><w:r><w:t>Alice Springs</w:t></w:r></w:smartTag>'))
    out = io.BytesIO()
    document.save(out)
    doc = read_bytes(out.getvalue(), "docx", "edited.docx")
    assert [b.text for b in doc.blocks] == ["The quick bandicoot.", "Printed 2024-05-01", "Alice Springs"]


def test_an_rss_feed_is_a_block_per_item_with_its_html_as_text():
    feed = (b'<?xml version="1.0"?><rss version="2.0"><channel><title>Field notes</title>'
            b"<item><title>Wombats</title><description>&lt;p&gt;Wombats dig &lt;b&gt;burrows&lt;/b&gt;.&lt;/p&gt;"
            b"</description></item><item><title>Quolls</title><description><![CDATA[<p>Quolls <i>hunt</i> at night.</p>]]>"
            b"</description></item></channel></rss>")
    doc = read_bytes(feed, "xml", "feed.xml")
    assert [b.text for b in doc.blocks] == [
        "title: Field notes", "title: Wombats\ndescription: Wombats dig burrows.",
        "title: Quolls\ndescription: Quolls hunt at night."]


def test_a_classic_mac_csv_with_cr_line_ends_is_read():
    doc = read_bytes(b'name,note\rAnn,"likes\rbilbies"\rBob,digs\r', "csv", "mac.csv")
    assert _text(doc) == "name: Ann; note: likes\nbilbies\nname: Bob; note: digs"


def _docx_with_footnotes() -> bytes:
    """A Word file with two footnotes and Word's separator notes, written into the package as Word does
    (python-docx cannot add notes)."""
    import io
    import zipfile

    import docx

    document = docx.Document()
    document.add_paragraph("Echidnas lay eggs.")
    plain = io.BytesIO()
    document.save(plain)
    notes = (f'<w:footnotes {_W_NS}>'
             '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
             '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>'
             '<w:footnote w:id="1"><w:p><w:r><w:t>One egg at a time, kept in a pouch.</w:t></w:r></w:p></w:footnote>'
             '<w:footnote w:id="2"><w:p><w:r><w:t>See the monotreme survey.</w:t></w:r></w:p></w:footnote>'
             "</w:footnotes>")
    out = io.BytesIO()
    with zipfile.ZipFile(plain) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "[Content_Types].xml":
                data = data.replace(b"</Types>", b'<Override PartName="/word/footnotes.xml" ContentType="application/'
                                    b'vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/></Types>')
            elif item.filename == "word/_rels/document.xml.rels":
                data = data.replace(b"</Relationships>", b'<Relationship Id="rIdNotes" Type="http://schemas.openxmlformats'
                                    b'.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/></Relationships>')
            dst.writestr(item, data)
        dst.writestr("word/footnotes.xml", notes)
    return out.getvalue()


def test_word_footnotes_are_read_under_their_own_heading():
    doc = read_bytes(_docx_with_footnotes(), "docx", "echidna.docx")
    assert doc.title == "echidna.docx"
    assert [(b.kind, b.text) for b in doc.blocks] == [
        ("text", "Echidnas lay eggs."), ("heading", "Footnotes"),
        ("text", "[1] One egg at a time, kept in a pouch."), ("text", "[2] See the monotreme survey.")]
