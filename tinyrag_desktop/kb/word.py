"""The Word (.docx) reader: paragraphs, headings, tables (nested ones too), text boxes, content controls,
tracked insertions, field results, footnotes and endnotes, in reading order; then headers and footers.

Split from readers.py, which picks the reader; failures are :class:`ReadError` with a reason a person reads.
"""

from __future__ import annotations

import io
import re
import zipfile
from typing import Callable, Iterator, Sequence

from .errors import Cancelled, ReadError
from .models import Block, Document



# ---- PDF and Word -----------------------------------------------------------------------------------------

def _spanned_once(cells: Sequence) -> list:
    """A Word table row's cells, a cell merged across several columns once (python-docx gives it for
    each column it spans: "Week one | Week one | Week one")."""
    out = []
    for cell in cells:
        if not out or cell._tc is not out[-1]._tc:
            out.append(cell)
    return out


def _cell_text(cell: object) -> str:
    """A Word table cell's text on one line, with that of the tables inside it (python-docx's ``text``
    holds only the cell's own paragraphs): every paragraph within, in order, however deep."""
    from docx.text.paragraph import Paragraph

    tc = cell._tc
    if not tc.xpath("./w:tbl"):
        return " ".join(cell.text.split())
    return " ".join(" ".join(Paragraph(p, cell).text for p in tc.xpath(".//w:p")).split())


_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
# Word writes a text box twice: for itself (mc:Choice) and for older programs (mc:Fallback, VML).
_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
_RUN_TEXT = {_W + "t": None, _W + "tab": "\t", _W + "br": "\n", _W + "cr": "\n"}


def _body_items(document: object) -> Iterator[object]:
    """The document's paragraphs and tables in order, with those inside content controls (w:sdt: a
    template's cover page, a form's fields, a table of contents), which python-docx's
    ``iter_inner_content`` passes over."""
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    parent = document._body
    stack = list(reversed(document.element.body))
    while stack:
        el = stack.pop()
        if el.tag == _W + "p":
            yield Paragraph(el, parent)
        elif el.tag == _W + "tbl":
            yield Table(el, parent)
        elif el.tag == _W + "sdt" and (content := el.find(_W + "sdtContent")) is not None:
            stack.extend(reversed(content))


# What a paragraph holds besides its runs and links that python-docx's ``text`` does read or that shows
# no text (marks of bookmarks, comments, proofing; deleted text).
_PLAIN_PARAGRAPH_PARTS = frozenset(_W + tag for tag in (
    "r", "hyperlink", "pPr", "bookmarkStart", "bookmarkEnd", "proofErr", "commentRangeStart", "commentRangeEnd",
    "permStart", "permEnd", "del", "moveFromRangeStart", "moveFromRangeEnd", "moveToRangeStart", "moveToRangeEnd"))
# Where text is not the paragraph's own: a text box (see _text_boxes), Word's second copy of it, text
# deleted or moved away with changes tracked.
_NOT_OWN_TEXT = frozenset((_W + "txbxContent", _MC_FALLBACK, _W + "del", _W + "moveFrom"))


def _paragraph_text(paragraph: object) -> str:
    """A paragraph's text, with that of content controls, tracked insertions, fields and smart tags
    within it (python-docx's ``text`` reads only its runs and links); a text box's text is not the
    paragraph's (see _text_boxes)."""
    p = paragraph._p
    if all(child.tag in _PLAIN_PARAGRAPH_PARTS for child in p):
        return paragraph.text
    return _runs_text(p)


def _runs_text(p: object) -> str:
    """The text of the runs within paragraph element ``p``, however deep, but in _NOT_OWN_TEXT."""
    out = []
    for el in p.iter(*_RUN_TEXT):
        if any(a.tag in _NOT_OWN_TEXT for a in el.iterancestors()):
            continue
        out.append(el.text or "" if _RUN_TEXT[el.tag] is None else _RUN_TEXT[el.tag])
    return "".join(out)


def _text_boxes(p: object) -> list[str]:
    """The text of the text boxes anchored in paragraph ``p`` (a flyer's or a form's words), a paragraph
    each; each box once, though Word stores it twice."""
    from docx.text.paragraph import Paragraph

    out = []
    for box in p.iter(_W + "txbxContent"):
        if any(a.tag in (_W + "txbxContent", _MC_FALLBACK) for a in box.iterancestors()):
            continue
        for inner in box.iter(_W + "p"):
            text = _paragraph_text(Paragraph(inner, None)).strip()
            if text:
                out.append(text)
    return out


_NOTE_PARTS = (("/footnotes", "footnote", "Footnotes"), ("/endnotes", "endnote", "Endnotes"))


def _parts(document: object, kind: str) -> Iterator[object]:
    """The parsed XML of the document's parts whose relationship type ends in ``kind`` ("/footnotes",
    "/header"), in the order the document names them; a damaged one is passed over (the document
    itself is still worth reading)."""
    import lxml.etree

    for rel in document.part.rels.values():
        if not rel.reltype.endswith(kind) or rel.is_external:
            continue
        try:
            yield lxml.etree.fromstring(rel.target_part.blob, lxml.etree.XMLParser(resolve_entities=False,
                                                                                    no_network=True))
        except (lxml.etree.XMLSyntaxError, ValueError):
            continue


# A header's or footer's line that only numbers the page ("Page 3 of 12", "- 3 -"): no words to find.
_PAGE_NUMBER = re.compile(r"(?i)^\W*(?:page|p\.|seite|pagina|página)?\s*\d*\s*(?:(?:of|/|von|de|di)\s*\d*)?\W*$")


def _headers_and_footers(document: object) -> list[Block]:
    """The text of the document's headers and footers (python-docx reads them per section), each line
    once however many sections or pages repeat it, under a heading of their own; lines that only number
    the page are left out."""
    lines: list[str] = []
    for kind in ("/header", "/footer"):
        for root in _parts(document, kind):
            for p in root.iter(_W + "p"):
                text = " ".join(_runs_text(p).split())
                if text and text not in lines and not _PAGE_NUMBER.match(text):
                    lines.append(text)
    if not lines:
        return []
    return [Block("heading", "Headers and footers", 2), *(Block("text", line) for line in lines)]


def _notes(document: object) -> list[Block]:
    """The document's footnotes and endnotes (python-docx reads neither), each "[n] text" under a
    heading of their own; Word's separator lines are no notes."""
    blocks: list[Block] = []
    for kind in _NOTE_PARTS:
        for root in _parts(document, kind[0]):
            blocks.extend(_notes_of(root, kind))
    return blocks


def _notes_of(root: object, kind: tuple[str, str, str]) -> list[Block]:
    """The notes of one footnotes or endnotes part (``kind``: see _NOTE_PARTS) under their heading."""
    notes = []
    for note in root.iter(_W + kind[1]):
        if note.get(_W + "type") in ("separator", "continuationSeparator", "continuationNotice"):
            continue
        text = " ".join(" ".join(_runs_text(p).split()) for p in note.iter(_W + "p")).strip()
        if text:
            notes.append(f"[{len(notes) + 1}] {text}")
    return [Block("heading", kind[2], 2), *(Block("text", note) for note in notes)] if notes else []


# The most a Word document may hold once uncompressed: as much text and layout (its XML parts), and as
# much of pictures and other parts. A .docx is a ZIP archive, and a megabyte of it can unpack to gigabytes
# of XML, which python-docx would parse whole (280 MB of short paragraphs: minutes, and gigabytes of
# memory). The same as the file size limit (ingest.MAX_FILE_BYTES) and the one on a gzip file's content;
# 64 MB of the shortest paragraphs still reads in about a minute and a half, in under a gigabyte, and can
# be cancelled. A picture hardly compresses, so what a file within the size limit holds of those fits.
MAX_UNPACKED_BYTES = 64 * 1024 * 1024
# A part this large that unpacks to more than this many times its packed size is no real document's (Word's
# XML packs about ten to one, a generated document of one paragraph repeated to 130 to one): it is refused
# at once rather than parsed for a minute.
_BOMB_PART_BYTES = 16 * 1024 * 1024
_BOMB_RATIO = 200
# What python-docx parses as XML; the other parts (pictures, fonts, embedded files) it only holds.
_XML_SUFFIXES = (".xml", ".rels")


def _check_unpacked_size(data: bytes) -> None:
    """Refuse (ReadError) a Word document whose parts would unpack to more than the limits, from the sizes
    its ZIP archive gives, before a byte is uncompressed. zipfile never unpacks a part past the size given
    for it (a part that holds more fails its checksum, as damaged), so these sizes bound the memory."""
    try:
        parts = zipfile.ZipFile(io.BytesIO(data)).infolist()
    except (zipfile.BadZipFile, ValueError) as exc:
        raise ReadError("a damaged or incomplete Word document (its ZIP archive cannot be opened)") from exc
    limit = f"{MAX_UNPACKED_BYTES / 2**20:.0f} MB, the limit"
    text = sum(p.file_size for p in parts if p.filename.lower().endswith(_XML_SUFFIXES))
    if text > MAX_UNPACKED_BYTES:
        raise ReadError(f"too large once uncompressed: its text and layout come to {_megabytes(text)} "
                        f"(over {limit})")
    other = sum(p.file_size for p in parts) - text
    if other > MAX_UNPACKED_BYTES:
        raise ReadError(f"too large once uncompressed: its pictures and other parts come to {_megabytes(other)} "
                        f"(over {limit})")
    for part in parts:
        if part.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            # bzip2 and LZMA, which Word never uses, unpack a whole piece at once, past the size given
            raise ReadError(f"a Word document that cannot be read: its part {part.filename} is compressed "
                            "in a way Word never uses")
        if part.file_size > _BOMB_PART_BYTES and part.file_size > _BOMB_RATIO * max(1, part.compress_size):
            raise ReadError(f"not read, for safety: {_megabytes(part.file_size)} of it are packed into "
                            f"{part.compress_size / 1024:,.0f} KB, far tighter than in any real Word document "
                            "(a \"zip bomb\")")


def _megabytes(size: int) -> str:
    return f"{size / 2**20:,.0f} MB"


def _xml_problem(exc: Exception) -> str:
    """What is wrong with a Word document whose XML libxml2 refused, in words, not in its option names
    ("Resource limit exceeded: Text node too long, try XML_PARSE_HUGE")."""
    import lxml.etree

    message = getattr(exc, "msg", "") or str(exc)
    if getattr(exc, "code", None) == lxml.etree.ErrorTypes.ERR_RESOURCE_LIMIT or "XML_PARSE_HUGE" in message:
        if "depth" in message.lower():
            return "a Word document that cannot be read: its parts are nested more than 256 deep"
        return "a Word document that cannot be read: a single stretch of text in it is over 10 MB long"
    line = getattr(exc, "lineno", None)
    return "a damaged Word document (its XML is not well-formed" + (f", line {line})" if line else ")")


def read_docx(data: bytes, name: str, cancelled: Callable[[], bool] | None = None) -> Document:
    """A Word document's paragraphs and tables, its Title and Heading styles as headings. ``cancelled``
    is asked every few hundred paragraphs, as a long document takes seconds. One that would unpack to
    more than MAX_UNPACKED_BYTES is refused (ReadError) before any of it is."""
    import docx
    import lxml.etree
    from docx.oxml.document import CT_Document
    from docx.table import Table

    _check_unpacked_size(data)
    try:
        document = docx.Document(io.BytesIO(data))
        # python-docx looks a paragraph's style up among all the styles each time it is asked (about a
        # millisecond: a minute for a 60,000-paragraph document); one table of names does it once.
        style_names = {style.style_id: style.name or "" for style in document.styles}
    except zipfile.BadZipFile as exc:  # "Bad CRC-32 for file 'word/document.xml'": a part holds other bytes
        raise ReadError("a damaged Word document (a part of its ZIP archive is damaged)") from exc
    except (KeyError, ValueError) as exc:
        if "no relationship of type" in str(exc):  # python-docx's words for a ZIP without its main part
            raise ReadError("a damaged Word document (it holds no main document part)") from exc
        raise ReadError(f"a damaged or unreadable Word document ({exc})") from exc
    except lxml.etree.XMLSyntaxError as exc:
        raise ReadError(_xml_problem(exc)) from exc
    except Exception as exc:  # python-docx raises its own and lxml's errors on broken parts
        raise ReadError(f"a damaged or unreadable Word document ({exc.__class__.__name__}: {exc})") from exc
    if not isinstance(document.element, CT_Document):  # its root is in no namespace Word writes: not Word's XML
        raise ReadError("a damaged Word document (its main part is not a Word document body)")
    blocks: list[Block] = []
    title = (document.core_properties.title or "").strip()
    body = document.element.body
    boxed = next(body.iter(_W + "txbxContent"), None) is not None  # text boxes: looked for in each paragraph
    for n, item in enumerate(_body_items(document)):
        if cancelled is not None and n % 256 == 255 and cancelled():
            raise Cancelled("the import was cancelled")
        if isinstance(item, Table):
            rows = [" | ".join(_cell_text(c) for c in _spanned_once(row.cells)) for row in item.rows]
            text = "\n".join(r for r in rows if r.strip(" |"))
            if text:
                blocks.append(Block("table", text))
            continue
        text = _paragraph_text(item).strip()
        style = style_names.get(item._p.style or "", "")  # the paragraph's own style id (None: Normal)
        if not text:
            pass
        elif style == "Title":
            blocks.append(Block("heading", text, 1))
        elif (m := re.match(r"Heading (\d)", style)) is not None:
            blocks.append(Block("heading", text, int(m.group(1)) + 1))
        else:
            blocks.append(Block("text", text))
        if boxed:
            blocks.extend(Block("text", t) for t in _text_boxes(item._p))
    title = title or next((b.text for b in blocks if b.kind == "heading"), name)
    blocks.extend(_notes(document))
    blocks.extend(_headers_and_footers(document))
    return Document(title, "docx", tuple(blocks))
