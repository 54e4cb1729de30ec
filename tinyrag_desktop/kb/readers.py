"""Readers: one function per file type, each turning bytes into a :class:`Document` of blocks.

The extension picks the reader, but the bytes have the last word: a PDF or Word file saved under another
name is read as what it is, and a binary file named ``.txt`` is refused with a reason, never indexed as
garbage. Every failure is a :class:`ReadError` whose message says what is wrong with the file.

Plain text and logs are read here; each other format in a module of its own: programs and configuration
files (code_files.py), Markdown (markdown.py),
reStructuredText and AsciiDoc (rst.py), HTML (html_reader.py), CSV, JSON and XML (data_formats.py), PDF
(pdf.py) and Word (word.py).
"""

from __future__ import annotations

import functools
import gzip
import io
import mimetypes
import re
import zipfile
import zlib
from dataclasses import replace
from pathlib import Path
from typing import Callable

from .code_files import (
    CODE_LANGUAGES, CODE_TYPES, CONFIG_LANGUAGES, code_kind, read_code, script_language, source_language,
)
from .data_formats import read_csv, read_json, read_xml
from .decoding import decode_text, note, without_nul
from .errors import LeftOut, NoText, ReadError, UnsupportedFile
from .html_encoding import bom_codec
from .html_reader import parse_html
from .markdown import read_markdown
from .models import Block, Document
from .pdf_apart import read_pdf  # in a helper process whose memory is capped: its pages may unpack to gigabytes
from .rst import read_rst, read_rst_or_text
from .secret_values import document_without_secrets
from .word import read_docx

TEXT_TYPES = {".txt": "text", ".text": "text", ".adoc": "text", ".asciidoc": "text", ".log": "log",
              ".md": "markdown", ".markdown": "markdown",
              ".rst": "rst", ".csv": "csv", ".json": "json", ".jsonl": "json",
              ".ndjson": "json", ".xml": "xml", ".html": "html", ".htm": "html",
              ".xhtml": "html"}
TEXT_TYPES.update({ext: "code" for ext in CODE_LANGUAGES})
TEXT_TYPES.update({ext: "config" for ext in CONFIG_LANGUAGES})
BINARY_TYPES = {".pdf": "pdf", ".docx": "docx"}
SUPPORTED = {**TEXT_TYPES, **BINARY_TYPES}

# A stored source's type in the words a person uses for it (the sources list's Type column): the types of
# SUPPORTED, and those of web pages ("url") and Wikipedia articles. Short: in a narrow dock each letter of
# the column is taken from the titles ("reStructuredText" and "Word document" left "Sph…ide" of them).
TYPE_NAMES = {"text": "Text", "log": "Log", "markdown": "Markdown", "rst": "RST", "csv": "CSV", "json": "JSON",
              "xml": "XML", "html": "HTML", "pdf": "PDF", "docx": "Word", "code": "Code", "config": "Config",
              "url": "Web page", "wikipedia": "Wikipedia"}


def type_name(kind: str) -> str:
    """``kind`` (a source's stored type: "url", "docx") as people call it ("Web page", "Word"); a type it
    does not know (stored by a later version) as it is."""
    return TYPE_NAMES.get(kind, kind)

GZIP_MAGIC = b"\x1f\x8b"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # Word, Excel and PowerPoint files before 2007
_MAGIC = ((b"%PDF-", "pdf"), (b"PK\x03\x04", "zip"), (b"\x89PNG", "PNG image"), (b"\xff\xd8\xff", "JPEG image"),
          (b"GIF8", "GIF image"), (b"\x7fELF", "program"), (b"MZ", "Windows program"),
          (GZIP_MAGIC, "gzip archive"), (b"SQLite format 3", "SQLite database"), (b"OggS", "audio"),
          (b"ID3", "MP3 audio"), (b"Rar!", "RAR archive"), (b"7z\xbc\xaf", "7-Zip archive"),
          (OLE_MAGIC, "Office 97-2003"))


# How much of a file looks_binary reads: enough for a steady share, little enough to cost nothing.
SAMPLE_BYTES = 8192
# Bytes that text does not hold: the C0 control codes and DEL, except tab, line feed, vertical tab, form
# feed, carriage return, escape (the colour codes in logs) and backspace (``man`` output overstrikes bold
# letters with it). Random bytes hold about 10 % of these; text in any ASCII-based encoding (UTF-8,
# Latin-1, Windows-1252, Shift-JIS, GBK, KOI8-R …) none, or a stray few.
_CONTROL_BYTES = bytes(b for b in range(32) if b not in b"\t\n\v\f\r\x1b\x08") + b"\x7f"
# The same in decoded text, with what random bytes become in UTF-16 or UTF-32: characters that could not
# be decoded (U+FFFD, unpaired surrogates) and private-use characters (one random UTF-16 unit in ten).
_ODD_CHARS = re.compile("[" + "".join(f"\\x{b:02x}" for b in _CONTROL_BYTES) + "\ufffd\ue000-\uf8ff]")
_BINARY_SHARE = 0.05


def looks_binary(data: bytes) -> bool:
    """Whether ``data`` is binary (a program, an image, compressed or random bytes) rather than text.

    Decided from the first 8 KB: binary when more than one character in twenty is a control code that
    text does not use, or (after a UTF-16 or UTF-32 byte order mark) undecodable. Text in any common
    encoding, with or without a byte order mark, in any script, is never binary; a stray NUL or two is
    not enough either.
    """
    codec = bom_codec(data)
    if codec in ("utf-16", "utf-32"):
        sample = data[: SAMPLE_BYTES].decode(codec, errors="replace")
        # a character cut at the end of the sample is not the file's fault
        sample = sample[:-1] if len(data) > SAMPLE_BYTES else sample
        return len(_ODD_CHARS.findall(sample)) > _BINARY_SHARE * len(sample)
    sample = data[: SAMPLE_BYTES]
    if _NUL_RUN in sample:
        # A log written when the machine lost power holds a block of NULs where its last lines were
        # (space the file system gave it, never written): the text around the block decides.
        sample = _NUL_RUNS.sub(b"", sample)
        if not sample.strip():
            return True
    controls = len(sample) - len(sample.translate(None, _CONTROL_BYTES))
    return controls > _BINARY_SHARE * len(sample)


# A run of NULs this long is padding, not part of a binary format's numbers.
_NUL_RUN = b"\x00" * 64
_NUL_RUNS = re.compile(b"\x00{64,}")


def with_utf16_bom(data: bytes) -> bytes:
    """``data`` with a UTF-16 byte order mark put back when it is UTF-16 text saved without one.

    Windows tools write "Unicode" text as UTF-16 and not all of them mark it; in Latin scripts every
    other byte of such text is a zero, which would make it look binary. Bytes that do not show that
    pattern, or do not decode into text, come back unchanged.
    """
    if bom_codec(data) is not None:
        return data
    sample = data[: SAMPLE_BYTES & ~1]
    if len(sample) < 4:
        return data
    halves = sample[0::2].count(0) / (len(sample) // 2), sample[1::2].count(0) / (len(sample) // 2)
    for codec, bom, zeros, other in (("utf-16-le", b"\xff\xfe", halves[1], halves[0]),
                                     ("utf-16-be", b"\xfe\xff", halves[0], halves[1])):
        if zeros >= _UTF16_ZEROS and other <= _BINARY_SHARE / 2:
            text = sample.decode(codec, errors="replace")
            if len(_ODD_CHARS.findall(text)) <= _BINARY_SHARE * len(text):
                return bom + data
    return data


# The share of high (or low) bytes that are zero for text to be taken for BOM-less UTF-16: a third is
# far above what binary formats have in one half and none in the other, far below Latin-script text's 90%+.
_UTF16_ZEROS = 0.3


def sniff(data: bytes) -> str | None:
    """The kind of file the first bytes say this is, or None for (probably) text."""
    binary = looks_binary(data)
    for magic, kind in _MAGIC:
        # A signature of letters is a weak sign: text starts with "MZ", "ID3" or "GIF89a" too ("ID3 tags
        # explained"); such a file is that kind only if it looks binary as well.
        weak = kind != "pdf" and magic.isascii() and magic.decode().isprintable()
        if data.startswith(magic) and (binary or not weak):
            return kind
    if data[257:262] == b"ustar":  # a tar archive: text files between headers of names and NULs
        return "tar archive"
    if data.startswith(b"{\\rtf1"):  # Rich Text: text, but its words hidden among control words
        return "RTF"
    return "binary" if binary else None


def read_text(data: bytes, name: str) -> Document:
    # Plain text often underlines its headings (README, AsciiDoc, RFC-like notes): the reStructuredText
    # reader finds those and reads everything else as paragraphs, as a plain reader would. A Sphinx
    # site's copy of its sources ("intro.rst.txt") is reStructuredText, comments and all.
    doc = read_rst_or_text(data, name, markup=name.lower().endswith(".rst.txt"))
    return Document(doc.title, "text", doc.blocks, doc.links)


def read_log(data: bytes, name: str) -> Document:
    text = decode_text(data)
    return Document(name, "log", (Block("code", text),) if text.strip() else ())


# What a reader reads, as the user would say it: "looks like binary data, not Markdown text".
_KIND_NAMES = {"text": "text", "log": "a log file", "markdown": "Markdown text", "rst": "reStructuredText",
               "csv": "CSV text", "json": "JSON text", "xml": "XML text", "html": "HTML text", "code": "source code",
               "config": "a configuration file"}

_READERS: dict[str, Callable[[bytes, str], Document]] = {
    "text": read_text, "log": read_log, "markdown": read_markdown, "rst": read_rst, "csv": read_csv,
    "json": read_json, "xml": read_xml, "html": lambda d, n: parse_html(d, n), "pdf": read_pdf,
    "docx": read_docx, "code": read_code, "config": read_code,
}


# Files kept beside documents under names that say what they hold but not their format ("README",
# "COPYING", "NEWS.Debian"): read as plain text, as any file without an extension is, when the bytes are text.
_PLAIN_NAMES = frozenset({"readme", "license", "licence", "copying", "copyright", "news", "changes", "changelog",
                          "authors", "install", "todo", "notice", "history", "contributing", "thanks", "bugs",
                          "faq", "credits", "notes"})


# A name ending in a version number ("Apache-2.0", "LGPL-2.1", as /usr/share/common-licenses has them) has no
# extension: ".0" names no format. A year or a number alone after a word ("release.2024") still does not pass.
_VERSIONED = re.compile(r"\d\.\d+$")


def is_compressed(path: Path) -> bool:
    """Whether ``path`` names a gzip-compressed file ("guide.html.gz"), read as the file inside it."""
    return path.name.lower().endswith(".gz") and len(path.name) > 3


def file_type(path: Path) -> str:
    """The reader for ``path``, by its extension (the inner one for ``.gz``); raises UnsupportedFile for a
    type no reader takes. A name without an extension, or one of _PLAIN_NAMES, is read as text."""
    inner = Path(path.name[:-3]) if is_compressed(path) else Path(path.name)
    kind = SUPPORTED.get(inner.suffix.lower()) or code_kind(inner.name)  # "Makefile", "Dockerfile"
    if kind is not None:
        return kind
    if not inner.suffix or _VERSIONED.search(inner.name) or (
            inner.name.split(".")[0].lower() in _PLAIN_NAMES and not _names_a_format(inner.suffix)):
        return "text"
    shown = inner.suffix + (".gz" if is_compressed(path) else "")
    raise UnsupportedFile(f"{shown} is not a supported type")


def is_code_location(location: str) -> bool:
    """Whether the file at ``location`` is read as a program or configuration file (file_type), for a text that
    names its passages' sources by location only (a rag_knowledge result, whose passages of code are shown in
    the code font); where the source is at hand, its type says (Hit.type). A web address is a page:
    https://rustup.rs/ is no Rust file."""
    if "://" in location:
        return False
    try:
        return file_type(Path(location)) in CODE_TYPES
    except UnsupportedFile:
        return False


@functools.cache
def _known_types() -> mimetypes.MimeTypes:
    return mimetypes.MimeTypes()  # Python's own table, not the machine's: the same answer everywhere


def _names_a_format(suffix: str) -> bool:
    """Whether ``suffix`` is a file format's ("notes.py", "install.sh", "notes.rtf"), not a qualifier of a
    plain name ("NEWS.Debian", "README.source"): those files are their format, not a note to read as text."""
    return _known_types().guess_type("x" + suffix.lower(), strict=False)[0] is not None


def gunzip(data: bytes, limit: int) -> bytes:
    """The file inside gzip ``data``, refused (ReadError) when damaged, or left out (LeftOut: skipped in a
    folder, as a too-large plain file is) when larger than ``limit`` bytes once uncompressed: a few kilobytes
    can unpack to gigabytes."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as packed:
            plain = packed.read(limit + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise ReadError("a damaged or incomplete gzip file") from exc
    if len(plain) > limit:
        raise LeftOut(f"too large once uncompressed (over {limit / 2**20:.0f} MB, the limit)")
    return plain


# What a ZIP archive that is no Word document is, by the part that names its kind: an Office file saved
# under the wrong name says which, so the user knows what to do with it.
_ZIP_KINDS = (("xl/workbook.xml", "an Excel workbook (save it as CSV to import it)"),
              ("ppt/presentation.xml", "a PowerPoint presentation"),
              ("content.xml", "an OpenDocument file (save it as Word .docx to import it)"),
              ("META-INF/container.xml", "an EPUB e-book"))


def _zip_kind(names: set[str]) -> str:
    return next((kind for part, kind in _ZIP_KINDS if part in names), "a ZIP archive")


def _zip_refused(what: str, kind: str) -> str:
    """Why a ZIP archive that is ``what`` (see _zip_kind) is not read, claimed to be ``kind``."""
    if kind == "docx":
        return f"{what}, not a Word document"
    if what == "a ZIP archive":
        return "a ZIP archive, which is not read (unpack it and import the files in it)"
    return f"{what}, not a document"


# The start of an HTML page, after any comments ("<!-- saved from url=… -->", as browsers save pages).
_HTML_PAGE_START = re.compile(r"\A\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html)[\s>]", re.I | re.S)


def is_html_page(data: bytes) -> bool:
    """Whether ``data`` (text) is a whole HTML page: it opens with <!DOCTYPE html> or <html>."""
    head = data[:2048].decode(bom_codec(data) or "utf-8", errors="ignore").lstrip("\ufeff")
    return _HTML_PAGE_START.match(head) is not None


# A manual page's source: it opens with a roff comment, its title request or an include of another page,
# perhaps after blank lines and empty requests (".", as ronn writes them).
# Named "deb822.5.gz" or "lit-14.1.gz", it passed for a name ending in a version ("LGPL-2.1"), and its
# requests and font codes (".SH", "\\fB") were imported as text, where every other manual page is skipped.
_MANUAL_PAGE = re.compile(rb"\A(?:[ \t]*+(?:\.[ \t]*+)?\r?\n)*+[ \t]*+(?:[.']\\\"|\.(?:TH|Dd|so)[ \t])")


def read_bytes(data: bytes, kind: str, name: str, cancelled: Callable[[], bool] | None = None) -> Document:
    """Read ``data`` claimed to be ``kind``; the content's own signature wins over the name.
    ``cancelled`` lets a long read (a PDF or Word document) stop early by raising Cancelled."""
    if not data.strip():  # nothing to read, as a scanned PDF: skipped, not failed (errors.NoText)
        raise NoText("the file is empty" if not data else "the file is empty (only spaces and blank lines)")
    data = with_utf16_bom(data)
    actual = sniff(data)
    if actual == "pdf":
        kind = "pdf"
    elif actual == "zip":
        try:
            names = set(zipfile.ZipFile(io.BytesIO(data)).namelist())
        except zipfile.BadZipFile as exc:
            raise ReadError("a damaged ZIP archive" if kind != "docx" else
                            "a damaged or incomplete Word document (its ZIP archive cannot be opened)") from exc
        if "word/document.xml" not in names:
            raise ReadError(_zip_refused(_zip_kind(names), kind))
        kind = "docx"
    elif kind in ("pdf", "docx") and actual is None and is_html_page(data):
        # a link that gave a sign-in or error page, saved under the document's name
        raise ReadError(f"an HTML page (perhaps a web page saved in place of the document), not a {kind.upper()} file")
    elif actual in ("Office 97-2003", "RTF"):
        # the formats a word processor saves in besides .docx, often renamed to it
        raise ReadError(f"{'an older Word or Office (97-2003)' if actual != 'RTF' else 'a Rich Text (RTF)'} file, "
                        f"not {'a DOCX file' if kind == 'docx' else _KIND_NAMES.get(kind, kind.upper())}: "
                        "save it as .docx in a word processor to import it")
    elif kind in ("pdf", "docx"):  # it said "not a DOCX file (text content)"
        if actual is None:
            raise ReadError(f"plain text, not a {kind.upper()} file: rename it to .txt to import it")
        raise ReadError(f"looks like {actual} data, not a {kind.upper()} file")
    elif actual is not None:
        refused = f"looks like {actual} data, not {_KIND_NAMES.get(kind, kind)}"
        # a video named .ts (an MPEG transport stream), a compiled file beside the sources: in a folder, left out
        raise (LeftOut if kind in ("code", "config") else ReadError)(refused)
    elif kind not in ("html", "xml") and is_html_page(data):
        kind = "html"  # a web page saved as "page.txt" or "notes.md": read as the page it is, not as its tags
    elif kind == "text" and _MANUAL_PAGE.match(data[:SAMPLE_BYTES]):
        raise NoText("a manual page (the roff source the man command shows), which is not read")
    elif kind == "text" and not Path(name).suffix and script_language(data):
        kind = "code"  # a script named without an extension: bin/deploy, "#!/usr/bin/env bash"
    if kind in ("html", "xml") and b"\x00" in data and bom_codec(data) not in ("utf-16", "utf-32"):
        # Read by lxml from their bytes: a NUL is dropped here as decode_text drops it from text (HTML
        # would show U+FFFD for it, XML refuses the file).
        data = without_nul(data)
    if kind in ("pdf", "docx"):
        doc = (read_pdf if kind == "pdf" else read_docx)(data, name, cancelled)
        for text in doc.notes:  # read in a helper process, outside this import's collecting_notes
            note(text)
    else:
        doc = _READERS[kind](data, name)
    doc = document_without_secrets(doc, source_language(data, name) or "")
    if not any(b.kind != "heading" and b.text.strip() for b in doc.blocks):
        if kind == "rst" or (kind == "text" and name.lower().endswith(".rst.txt")):
            raise NoText("no readable text found (only " + ("headings, and " if doc.blocks else "") +
                         "markup that shows none of its own: a table of contents, or text taken from other files)")
        return headings_as_text(doc)
    return doc


def headings_as_text(doc: Document) -> Document:
    """``doc``, which holds headings and no other text, with its headings as its text: a note that is only a
    heading ("# Call the dentist on Tuesday about the crown") says all it has to say in it. NoText when
    it holds no heading either."""
    blocks = tuple(Block("text", b.text) for b in doc.blocks if b.text.strip())
    if not blocks:
        raise NoText("no readable text found")
    return replace(doc, blocks=blocks)


# Invisible characters inside words: a soft hyphen (HTML's &shy;, a hyphenation hint in German or Dutch
# text: "Donau&shy;dampf&shy;schiff"), a word joiner, a zero-width no-break space (a byte order mark left
# inside text joined from files). The index splits words at them: "Donaudampfschiff" found nothing.
_INVISIBLE = re.compile("[\u00ad\u2060\ufeff]")


def _visible(text: str) -> str:
    return text if text.isascii() or not _INVISIBLE.search(text) else _INVISIBLE.sub("", text)


def without_invisible(doc: Document) -> Document:
    """``doc`` with its title and blocks free of the invisible characters that split words in the index."""
    blocks = tuple(b if b.text.isascii() else replace(b, text=_visible(b.text)) for b in doc.blocks)
    return replace(doc, title=_visible(doc.title), blocks=blocks)
