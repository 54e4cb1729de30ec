"""Turn a downloaded body into readable plain text: HTML articles, plain text, JSON, XML and PDFs.

Never raw HTML: pages go through trafilatura (the article, without navigation, ads and scripts), with a
cleaned-markup fallback when it finds no article. The character set is decided as ``kb add`` decides a
page's (kb/html_encoding.web_text). Everything else (images, archives, programs) is refused
with a reason, since bytes the model cannot read would only waste its context.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from ..entities import unescape
from ..kb.html_encoding import bom_codec, web_text
from ..kb.pdf import UNREADABLE_FONTS
from .errors import ToolError

if TYPE_CHECKING:
    from lxml.html import HtmlElement

_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_MAGIC = ((b"%PDF-", "PDF document"), (b"\x89PNG\r\n\x1a\n", "PNG image"), (b"\xff\xd8\xff", "JPEG image"),
          (b"GIF87a", "GIF image"), (b"GIF89a", "GIF image"), (b"PK\x03\x04", "ZIP archive"),
          (b"\x1f\x8b", "gzip archive"), (b"\x7fELF", "program (ELF)"), (b"MZ", "Windows program"),
          (b"OggS", "Ogg media file"), (b"ID3", "MP3 audio file"), (b"RIFF", "RIFF media file (WAV, AVI or WebP)"),
          (b"7z\xbc\xaf\x27\x1c", "7-Zip archive"), (b"\x00asm", "WebAssembly module"))
# Zero-width joiner and non-joiner: trafilatura drops characters that do not print, and these two are part
# of what they join (the family emoji 👨‍👩‍👧 came back as three people, Persian "می‌خواهم" lost a letter form).
# They are stood in for by letters no page is likely to hold while it reads the page, then put back.
_JOINERS = {"\u200d": re.compile(r"\u200d|&zwj;|&#0*8205;|&#x0*200d;", re.I),
            "\u200c": re.compile(r"\u200c|&zwnj;|&#0*8204;|&#x0*200c;", re.I)}
MAX_HTML_CHARS = 1_000_000
_XML_DECLARATION = re.compile(r"\s*<\?xml(?![\w.:-])", re.I)
_INVISIBLE_OPEN = re.compile(r"<(script|style|svg|noscript|template|!--)")
_TEXT_APPLICATION = frozenset({
    "application/javascript", "application/ecmascript", "application/x-javascript", "application/x-sh",
    "application/x-yaml", "application/yaml", "application/toml", "application/sql", "application/x-tex",
    "application/x-python", "application/x-httpd-php", "application/csv", "application/x-ndjson",
})


class UnreadableContent(ToolError):
    """The body is not something url_fetch turns into text (an image, an archive, a broken PDF)."""


@dataclass(frozen=True, slots=True)
class ContentType:
    """A parsed Content-Type header: ``mime`` lower-cased (``""`` when absent or malformed), its parameters."""

    mime: str = ""
    params: dict[str, str] = field(default_factory=dict)

    @property
    def charset(self) -> str | None:
        return self.params.get("charset") or None


@dataclass(frozen=True, slots=True)
class Readable:
    """Text ready for the model: ``kind`` is html, text, json, xml or pdf."""

    title: str
    text: str
    kind: str
    note: str = ""


def parse_content_type(header: str | None) -> ContentType:
    """Parse ``type/subtype; name=value; name="quoted \\" value"``; never raises on odd input."""
    if not header:
        return ContentType()
    parts = _split_params(header)
    mime = parts[0].strip().lower()
    if mime.count("/") != 1 or not all(_TOKEN.fullmatch(p) for p in mime.split("/")):
        mime = ""
    params: dict[str, str] = {}
    for part in parts[1:]:
        name, sep, value = part.partition("=")
        name = name.strip().lower()
        if not sep or not _TOKEN.fullmatch(name):
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == '"' and value[-1] == '"':
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        params.setdefault(name, value)
    return ContentType(mime, params)


def _split_params(header: str) -> list[str]:
    """Split at semicolons that are not inside a quoted string."""
    parts, current, quoted, escaped = [], [], False, False
    for ch in header:
        if escaped:
            escaped = False
        elif ch == "\\" and quoted:
            escaped = True
        elif ch == '"':
            quoted = not quoted
        elif ch == ";" and not quoted:
            parts.append("".join(current))
            current = []
            continue
        current.append(ch)
    parts.append("".join(current))
    return parts


def decode(body: bytes, declared: str | None, mime: str) -> str:
    """``body`` as text, its charset decided as the knowledge base decides a page's (html_encoding.web_text):
    a server that names UTF-8 but sends Windows-1252 gives "Café", not "Caf\ufffd"."""
    text = web_text(body, declared, page="html" in mime or not mime)
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")


def magic_kind(body: bytes) -> str | None:
    """What the first bytes say the body is (``"PDF document"``, ``"PNG image"``…), if they say."""
    if body[4:8] == b"ftyp":
        return "MP4 or QuickTime media file"
    for prefix, name in _MAGIC:
        if body.startswith(prefix):
            return name
    return None


def classify(ctype: ContentType, body: bytes) -> str:
    """html, text, json, xml, pdf, or binary: the header's word, checked against the bytes."""
    magic = magic_kind(body)
    mime = ctype.mime
    if magic == "PDF document" or mime == "application/pdf":
        return "pdf"
    if magic is not None and not (magic == "Windows program" and mime.startswith("text/")):
        return "binary"  # "MZ" begins plenty of text too; everything else is unambiguous
    if mime in ("text/html", "application/xhtml+xml"):
        return "html"
    if mime in ("application/json", "text/json") or mime.endswith("+json"):
        return "json"
    if mime in ("application/xml", "text/xml") or mime.endswith("+xml"):
        return "xml"
    start = body[:8192].removeprefix(b"\xef\xbb\xbf").lstrip()[:200].lower()
    if mime.startswith("text/") or mime in _TEXT_APPLICATION:
        # A web page served as plain text (raw.githubusercontent.com serves .html files so) is read as one:
        # the model was given its markup, scripts and all.
        return "html" if start.startswith((b"<!doctype html", b"<html")) else "text"
    if mime and mime not in ("application/octet-stream", "binary/octet-stream", "application/unknown"):
        return "binary"
    head = body[:8192]
    if b"\x00" in head and bom_codec(head) is None:
        return "binary"
    if start.startswith((b"<!doctype html", b"<html")) or b"<head" in start:
        return "html"
    if start[:1] in (b"{", b"["):
        return "json"
    return "text"


def _human_size(size: int) -> str:
    for unit in ("bytes", "KB", "MB"):
        if size < 1024 or unit == "MB":
            return f"{size} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024  # type: ignore[assignment]
    return f"{size} bytes"


def _squeeze(text: str) -> str:
    lines = [" ".join(line.split()) for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def strip_invisible(html: str) -> str:
    """``html`` without scripts, styles, SVG, templates and comments, which hold no readable text and
    make up most of a heavy modern page. One pass with ``str.find``: an unclosed ``<script`` in hostile
    markup cannot make it quadratic."""
    lower = html.lower()
    parts: list[str] = []
    pos = 0
    for match in _INVISIBLE_OPEN.finditer(lower):
        start = match.start()
        if start < pos:
            continue  # inside a block already removed
        name = match.group(1)
        closer = "-->" if name == "!--" else f"</{name}"
        end = lower.find(closer, match.end())
        if end < 0:
            end = len(html)
        else:
            end = lower.find(">", end) + 1 or len(html)
        parts.append(html[pos:start])
        pos = end
    parts.append(html[pos:])
    return "".join(parts)


def _stand_ins(html: str) -> dict[str, str]:
    """A printable letter for each joiner, one the page does not contain (CJK Extension B ideographs)."""
    # Not written in the page either as an entity ("&#x20001;"), which is decoded in the extraction.
    decoded = unescape(html) if "&" in html else html
    free = (chr(code) for code in range(0x20001, 0x20100) if chr(code) not in html and chr(code) not in decoded)
    return {joiner: next(free) for joiner in _JOINERS}


def html_to_text(html: str, url: str) -> tuple[str, str, str]:
    """(title, article text, note) of an HTML page: the article via trafilatura, else the cleaned body.

    trafilatura takes about two seconds per megabyte of markup, in a thread that cannot be stopped, so
    markup past ``MAX_HTML_CHARS`` (after dropping scripts and styles) is not read; the note says so.
    """
    import trafilatura

    html = strip_invisible(html)
    note = ""
    if len(html) > MAX_HTML_CHARS:
        cut = html.rfind("<", 0, MAX_HTML_CHARS)
        html = html[: cut if cut > MAX_HTML_CHARS // 2 else MAX_HTML_CHARS]
        note = f"[The page is very large; only its first {MAX_HTML_CHARS // 1_000_000} MB of markup was read.]"
    stand_ins = _stand_ins(html) if "\u200c" in html or "\u200d" in html or "&" in html else {}
    for joiner, stand_in in stand_ins.items():
        html = _JOINERS[joiner].sub(stand_in, html)
    # Parsed once, for trafilatura and for the cleaned body both (it was parsed three times)
    tree = trafilatura.load_html(_without_xml_declaration(html))
    doc = None if tree is None else trafilatura.bare_extraction(
        tree, url=url or None, with_metadata=True, include_comments=False, include_tables=True, fast=True)
    title = (getattr(doc, "title", None) or "").strip() if doc is not None else ""
    text = (getattr(doc, "text", None) or "").strip() if doc is not None else ""
    if not title or not text:
        fallback_title, fallback_text = _cleaned_body(_without_xml_declaration(html) if tree is None else tree)
        title = title or fallback_title
        text = text or fallback_text
    for joiner, stand_in in stand_ins.items():
        title, text = title.replace(stand_in, joiner), text.replace(stand_in, joiner)
    return title, text, note


def _without_xml_declaration(html: str) -> str:
    """``html`` without an XML declaration at its start (``<?xml version="1.0"?>``), which says nothing of
    a page decoded already. lxml looks for an encoding in one with a regular expression that takes time
    quadratic in its spaces: one left open with 60,000 line ends in it took 16 s to read."""
    start = _XML_DECLARATION.match(html)
    if start is None:
        return html
    end = html.find(">", start.end())  # where an HTML parser ends it: at the first ">", or at the end
    return html[end + 1:] if end >= 0 else ""


def _cleaned_body(page: str | HtmlElement) -> tuple[str, str]:
    """Title and visible text of the whole page (its markup, or the tree parsed from it), scripts, styles
    and forms removed (no article found)."""
    import lxml.html
    from lxml.etree import ParserError
    from lxml_html_clean import Cleaner

    try:
        doc = lxml.html.document_fromstring(page) if isinstance(page, str) else page
    except (ParserError, ValueError):
        return "", ""
    title = " ".join((doc.findtext(".//title") or "").split())
    cleaner = Cleaner(scripts=True, javascript=True, style=True, comments=True, forms=True,
                      embedded=True, frames=True, meta=True, page_structure=False)
    try:
        body = cleaner.clean_html(doc)
    except (ParserError, ValueError):
        return title, ""
    for el in list(body.iter("nav", "header", "footer", "aside", "title")):
        if el.getparent() is not None:  # page chrome, not content; the root itself cannot be dropped
            el.drop_tree()
    return title, _squeeze(body.text_content())


def xml_to_text(body: bytes) -> tuple[str, str]:
    """Title and text of an XML document (feeds, sitemaps); no entity expansion, no network access."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, recover=True)
    try:
        root = etree.fromstring(body, parser)
    except etree.XMLSyntaxError:
        root = None
    if root is None:
        raise UnreadableContent("The XML document could not be parsed.")
    title = ""
    for el in root.iter():
        if isinstance(el.tag, str) and _local_name(el.tag) == "title" and (el.text or "").strip():
            title = el.text.strip()
            break
    return title, _squeeze("\n".join(t for t in root.itertext()))


def _local_name(tag: str) -> str:
    """An element's name without its namespace: "{http://…}title", and "w:title" whose prefix is declared
    nowhere (lxml's recovering parser keeps it in the name, where etree.QName refuses it with a ValueError)."""
    return tag.rpartition("}")[2].rpartition(":")[2]


def pdf_to_text(body: bytes, max_chars: int, cancelled: Callable[[], bool] | None = None) -> Readable:
    """Title and text of a PDF, page by page, stopping once ``max_chars`` of text are in hand, with a note
    naming the pages whose text could not be read; kb's Cancelled as soon as ``cancelled()`` turns true (the
    helper reading it is killed then)."""
    from ..kb.errors import ReadError
    from ..kb.pdf_apart import pdf_pages  # in a helper process whose memory is capped: a PDF can be a bomb

    try:
        pdf = pdf_pages(body, max_chars, cancelled)
    except ReadError as exc:
        raise UnreadableContent(f"The PDF could not be read: {exc}.") from None
    if not pdf.pages and pdf.unreadable:
        raise UnreadableContent(f"The PDF's text cannot be read: {UNREADABLE_FONTS}. Text recognition (OCR) "
                                "would read it.")
    if not pdf.pages:
        raise UnreadableContent("The PDF has no text layer (it may be scanned images).")
    return Readable(pdf.title, "\n\n".join(pdf.pages), "pdf", _left_out(pdf.unreadable, pdf.count, pdf.read))


_PAGES_NAMED = 10  # a note names at most so many of the pages left out


def _left_out(pages: tuple[int, ...], count: int, read: int) -> str:
    """The note that the PDF's ``pages`` (numbers from 1, of the ``read`` first of its ``count``) were left out
    as unreadable; "" for none. Of a PDF whose reading stopped with the text wanted in hand, the pages are
    counted among those read: "2 of the 100 pages" said of 5 pages read made the rest seem read and kept."""
    if not pages:
        return ""
    pages_read = f"the {read} pages read (of {count})" if read < count else ""
    if len(pages) == 1:
        return (f"[Page {pages[0]} of {pages_read or count} was left out: {UNREADABLE_FONTS}. It is not in the "
                "text above.]")
    named = ", ".join(map(str, pages[:_PAGES_NAMED]))
    more = f" and {len(pages) - _PAGES_NAMED} more" if len(pages) > _PAGES_NAMED else ""
    return (f"[{len(pages)} of {pages_read or f'the {count} pages'} were left out (pages {named}{more}): "
            f"{UNREADABLE_FONTS}. They are not in the text above.]")


def to_readable(body: bytes, content_type: str, url: str, *, truncated: bool, max_chars: int,
                cut: str = "size", cancelled: Callable[[], bool] | None = None) -> Readable:
    """The body as text for the model, or UnreadableContent saying why it is not text; ``cut`` says why a
    truncated body stopped (see fetch.Fetched). ``cancelled`` stops a PDF's reading (url_fetch runs this in
    a thread, which its Stop or timeout does not end)."""
    ctype = parse_content_type(content_type)
    kind = classify(ctype, body)
    if kind == "binary":
        # The content type is named in the brackets: as the fallback too, it was said twice
        # ("is application/octet-stream (application/octet-stream, 25.0 KB)").
        what = magic_kind(body)
        what = f"{'an' if what[0] in 'AEIOU' or what.startswith('MP') else 'a'} {what}" if what else "binary data"
        # The reason first, the address last: the card's one line showed the address and cut the reason off.
        raise UnreadableContent(
            f"This is {what} ({ctype.mime or 'no content type'}, {_human_size(len(body))}"
            f"{' or more' if truncated else ''}); url_fetch reads web pages, text, JSON, XML and "
            f"PDFs only: {url}")
    if kind == "pdf":
        if truncated:
            why = "is larger than the download limit" if cut == "size" else "did not arrive whole"
            raise UnreadableContent(f"This PDF {why}, and a PDF cannot be read in part: {url}")
        return pdf_to_text(body, max_chars, cancelled)
    if kind == "xml":
        title, text = xml_to_text(body)
        return Readable(title, text, kind)
    text = decode(body, ctype.charset, ctype.mime)
    if kind == "html":
        title, article, note = html_to_text(text, url)
        return Readable(title, article, kind, note)
    if kind == "json":
        try:
            return Readable("", json.dumps(json.loads(text), indent=2, ensure_ascii=False), kind)
        except (ValueError, RecursionError):
            kind = "text"  # not valid JSON (or cut by the cap): show it as it came
    return Readable("", text.strip(), kind)
