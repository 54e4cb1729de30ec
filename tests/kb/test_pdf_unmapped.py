"""A PDF whose fonts do not say which letters they show (no ToUnicode map) is not imported as gibberish such as
"$HGH$HGH": said in plain words, as a scanned PDF is; text in other scripts that a font does map stays."""

from __future__ import annotations

import pytest

from tinyrag_desktop.kb import Importer, open_store
from tinyrag_desktop.kb.chunking import chunk_document
from tinyrag_desktop.kb.errors import NoText
from tinyrag_desktop.kb.readers import read_bytes

from .conftest import make_pdf, write_pdf

# A Type0 font writing two-byte glyph numbers (Identity-H), as XeTeX and many PDF printers embed one; without
# a ToUnicode map PDFium shows each glyph's number as a character ("$HGH$HGH").
_TYPE0 = (b"<< /Type /Font /Subtype /Type0 /BaseFont /Bar /Encoding /Identity-H /DescendantFonts [<< /Type /Font "
          b"/Subtype /CIDFontType2 /BaseFont /Bar /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) "
          b"/Supplement 0 >> >>]%s >>")
_HELVETICA = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def _stream(data: bytes) -> bytes:
    return b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


def _pdf(pages: list[tuple[str, str]], mapped: bool = False) -> bytes:
    """A PDF of one page for each (font, text): "helvetica" shows the text as it is, "type0" as glyph numbers
    (the n-th distinct character of all the type0 text is glyph n), mapped to it by a ToUnicode map when
    ``mapped``."""
    glyphs = list(dict.fromkeys("".join(text for font, text in pages if font == "type0")))
    n = len(pages)
    helvetica, type0, cmap = 3 + 2 * n, 4 + 2 * n, 5 + 2 * n
    objects = {1: b"<< /Type /Catalog /Pages 2 0 R >>",
               2: b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % (3 + 2 * i) for i in range(n)), n),
               helvetica: _HELVETICA,
               type0: _TYPE0 % (b" /ToUnicode %d 0 R" % cmap if mapped else b"")}
    pairs = "\n".join(f"<{i + 1:04X}> <{ord(c):04X}>" for i, c in enumerate(glyphs))
    objects[cmap] = _stream(f"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /T def "
                            f"1 begincodespacerange <0000> <FFFF> endcodespacerange {len(glyphs)} beginbfchar\n"
                            f"{pairs}\nendbfchar endcmap CMapName currentdict /CMap defineresource pop end end".encode())
    for i, (font, text) in enumerate(pages):
        shown = f"({text})" if font == "helvetica" else "<" + "".join(f"{glyphs.index(c) + 1:04X}" for c in text) + ">"
        objects[3 + 2 * i] = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
                              b"/Resources << /Font << /F1 %d 0 R >> >> >>" % (4 + 2 * i, helvetica if font == "helvetica" else type0))
        objects[4 + 2 * i] = _stream(f"BT /F1 12 Tf 72 720 Td {shown} Tj ET".encode("latin-1"))
    return write_pdf(objects)


HARBOUR = "Harbour lights are lit at dusk and put out at dawn by the keeper."


def test_a_pdf_without_a_unicode_map_is_refused_in_plain_words():
    with pytest.raises(NoText) as caught:
        read_bytes(_pdf([("type0", HARBOUR), ("type0", HARBOUR)]), "pdf", "printed.pdf")
    assert str(caught.value).startswith("no readable text found (the fonts there do not say which letters they show")
    assert "OCR" in str(caught.value)


def test_the_readable_pages_are_kept_and_the_others_said(tmp_path, data_dir):
    path = tmp_path / "mixed.pdf"
    path.write_bytes(_pdf([("helvetica", "Tide tables for the harbour."), ("type0", HARBOUR)]))
    with open_store(data_dir) as kb:
        report = Importer(kb).run([str(path)])
        assert report.added == [str(path)]
        assert [n.reason for n in report.notes] == [
            'the text of page 2 was left out (the fonts there do not say which letters they show, so the text '
            'read from them would be gibberish like "$HGH$HGH")']
        assert [c.text for c in kb.chunks(kb.sources()[0].id)] == ["Tide tables for the harbour."]


@pytest.mark.parametrize("text", ["Привет, мир: съешь же ещё этих мягких французских булок",
                                  "Η γρήγορη καφέ αλεπού πηδάει πάνω από τον τεμπέλη σκύλο",
                                  "東京の天気は晴れです。明日は雨が降るでしょう。"])
def test_text_in_other_scripts_that_a_font_maps_stays(text):
    doc = read_bytes(_pdf([("type0", text)], mapped=True), "pdf", "other.pdf")
    assert "".join(chunk_document(doc)[0].text.split()) == "".join(text.split())
    assert doc.notes == ()


def test_a_code_listing_stays():
    code = "for \\(i = 0; i < n; i++\\) { x[i] = y[i] * 2; } if err != nil { return err }"
    doc = read_bytes(_pdf([("helvetica", code)]), "pdf", "code.pdf")
    assert chunk_document(doc)[0].text == code.replace("\\", "") and doc.notes == ()
