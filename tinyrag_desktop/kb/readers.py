"""Readers: one function per file type, each turning bytes into a :class:`Document` of blocks.

The extension picks the reader, but the bytes have the last word: a PDF or Word file saved under another
name is read as what it is, and a binary file named ``.txt`` is refused with a reason, never indexed as
garbage. Every failure is a :class:`ReadError` whose message says what is wrong with the file.
"""

from __future__ import annotations

import bisect
import functools
import gzip
import html
import io
import itertools
import mimetypes
import re
import zipfile
import zlib
from pathlib import Path
from typing import Callable, Sequence, TypeVar

from .errors import NoText, ReadError, UnsupportedFile
from .html_reader import bom_codec, parse_html
from .links import MAX_LINKS, Link, context
from .models import Block, Document
from .data_formats import read_csv, read_json, read_xml
from .pdf import read_pdf
from .word import read_docx

TEXT_TYPES = {".txt": "text", ".text": "text", ".adoc": "text", ".asciidoc": "text", ".log": "log",
              ".md": "markdown", ".markdown": "markdown",
              ".rst": "rst", ".csv": "csv", ".json": "json", ".jsonl": "json",
              ".ndjson": "json", ".xml": "xml", ".html": "html", ".htm": "html",
              ".xhtml": "html"}
BINARY_TYPES = {".pdf": "pdf", ".docx": "docx"}
SUPPORTED = {**TEXT_TYPES, **BINARY_TYPES}
_Text = TypeVar("_Text", str, bytes)

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


def decode_text(data: bytes) -> str:
    """Bytes to text: by the byte order mark (UTF-8, UTF-16 or UTF-32) when there is one, else UTF-8;
    lines that are not UTF-8 are read as Windows-1252 (see _decode_mixed). NUL bytes are dropped."""
    codec = bom_codec(data)
    if codec in ("utf-16", "utf-32"):
        text = data.decode(codec, errors="replace")
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = _decode_mixed(data.removeprefix(b"\xef\xbb\xbf"))
    return _without_nul(text) if "\x00" in text else text


_NULS_IN_A_WORD = re.compile(r"(?<=[^\s\x00])\x00+(?=[^\s\x00])")
_NULS_IN_A_WORD_BYTES = re.compile(_NULS_IN_A_WORD.pattern.encode())


def _without_nul(text: _Text) -> _Text:
    """``text`` without NUL characters, which are never text (a crashed program's padding, a C string's
    end) and only break the search index and what shows a passage. Those between two words part them.
    Bytes must be in an ASCII-based encoding (not UTF-16 or UTF-32)."""
    if isinstance(text, bytes):
        return _NULS_IN_A_WORD_BYTES.sub(b" ", text).replace(b"\x00", b"")
    return _NULS_IN_A_WORD.sub(" ", text).replace("\x00", "")


def _decode_mixed(data: bytes) -> str:
    """Text that is not valid UTF-8 throughout: Windows-1252 when no part of it is UTF-8, else line by line.

    A line that is valid UTF-8 is read as such. Any other line is read as UTF-8 too when it holds at least
    as many well-formed UTF-8 characters as bad bytes (a damaged UTF-8 line: the bad bytes become U+FFFD),
    else as Windows-1252 (a Latin-1 or Windows line). So one bad byte in a UTF-8 file spoils one character,
    not every accent in the file ("CafÃ©"); a Latin-1 file, or UTF-8 and Latin-1 files joined, read right.
    """
    if _utf8_tally(data)[0] == 0:  # not one UTF-8 character: Latin-1 or Windows-1252 throughout
        return data.decode("cp1252", errors="replace")
    lines = data.split(b"\n")
    for n, line in enumerate(lines):
        try:
            lines[n] = line.decode("utf-8")
        except UnicodeDecodeError:
            good, bad = _utf8_tally(line)
            lines[n] = line.decode("utf-8" if good >= bad else "cp1252", errors="replace")
    return "\n".join(lines)


def _utf8_tally(data: bytes) -> tuple[int, int]:
    """How many well-formed UTF-8 characters beyond ASCII ``data`` holds, and how many bad bytes."""
    text = data.decode("utf-8", errors="replace")
    bad = text.count("\ufffd") - data.count("\ufffd".encode())
    return len(text) - len(text.encode("ascii", errors="ignore")) - bad, bad


def read_text(data: bytes, name: str) -> Document:
    # Plain text often underlines its headings (README, AsciiDoc, RFC-like notes): the reStructuredText
    # reader finds those and reads everything else as paragraphs, as a plain reader would. A Sphinx
    # site's copy of its sources ("intro.rst.txt") is reStructuredText, comments and all.
    doc = _read_rst(data, name, markup=name.lower().endswith(".rst.txt"))
    return Document(doc.title, "text", doc.blocks, doc.links)


def read_log(data: bytes, name: str) -> Document:
    text = decode_text(data)
    return Document(name, "log", (Block("code", text),) if text.strip() else ())


# ---- Markdown -----------------------------------------------------------------------------------------

_ATX = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```+|~~~+)")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)\s*$")
# A thematic break, shown as a line across the page: three or more of "-", "*" or "_", spaces between.
_MD_RULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_MD_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])(?:\s|$)")
# [text](href "title"), ![alt](src), [text][label], [label][] and [label]; a link's text may hold one level of
# brackets ("[see [RFC]](rfc.md)").
_MD_LINK = re.compile(
    # Wiki links of note-taking apps (Obsidian, Foam, Logseq): [[Note]], [[Note#Part|shown text]], ![[embed]]
    r"(?P<wimage>!?)\[\[(?P<wiki>[^\[\]|#\n]+)(?:#[^\[\]|\n]*)?(?:\|(?P<alias>[^\[\]\n]+))?\]\]|"
    r"(?P<image>!?)(?<!\\)\[(?P<text>(?:[^\[\]]|\[[^\[\]]*\])*)\]"
    r"(?:\(\s*<?(?P<href>[^)\s>]*)>?(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)|\[(?P<label>[^\]]*)\])?"
)
# A reference definition: "[label]: href" alone on its line (a footnote's, "[^1]: text", is text).
_MD_REFERENCE = re.compile(r"^ {0,3}\[([^\]^][^\]]*)\]:\s*<?(\S+?)>?(?:\s+.*)?$")
_MD_FOOTNOTE = re.compile(r"\[\^([^\]\s]+)\]:?")


def _opens_indented_code(lines: list[str], i: int) -> bool:
    """Whether the indented line ``i`` starts a code block: it follows a blank line, and the text above
    that is neither a list item nor indented (an item's second paragraph is indented too)."""
    if i == 0:
        return True
    if lines[i - 1].strip():
        return False
    above = next((line for line in reversed(lines[:i]) if line.strip()), "")
    return not above[:1].isspace() and not _MD_LIST_ITEM.match(above)


def _dedent_code(line: str) -> str:
    return line[1:] if line.startswith("\t") else line[4:] if line.startswith("    ") else line.strip()


def _unlink_markdown(text: str, references: dict[str, str]) -> tuple[str, list[tuple[int, str, str]]]:
    """``text`` with its links and images replaced by their text, and each link's (position in the new
    text, anchor text, href); backslash escapes ("\\*") outside code spans are read as their characters."""
    out: list[str] = []
    found: list[tuple[int, str, str]] = []
    length = last = 0
    # "[" and "]" inside a code span (`a[0](x)`) make no link
    code = [span.span() for span in _CODE_SPAN.finditer(text)] if "`" in text else []
    for match in _MD_LINK.finditer(text) if "[" in text else ():
        if code and (_inside(code, match.start()) or _inside(code, match.end())):
            continue
        if match.group("wiki") is not None:
            # A note is named without its extension, beside the linking note (or by a path from it).
            name = match.group("wiki").strip()
            anchor = (match.group("alias") or name).strip()
            href = "" if match.group("wimage") else name + ("" if "." in name.rsplit("/", 1)[-1] else ".md")
        else:
            anchor, href = match.group("text"), match.group("href")
            if "[" in anchor:  # a linked picture, a README's badge: [![Build status](badge.svg)](ci-url)
                anchor = _unlink_markdown(anchor, references)[0]
            if href is None:
                href = references.get(" ".join((match.group("label") or anchor).split()).casefold())
                if href is None:  # "[x][y]" without a definition is just brackets
                    continue
        before, anchor = _md_unescape(text[last : match.start()]), _md_unescape(anchor)
        out += (before, anchor)
        length += len(before)
        if not match.group("image") and href:  # an image is not a link
            found.append((length, anchor, href))
        length += len(anchor)
        last = match.end()
    out.append(_md_unescape(text[last:]))
    return "".join(out), found


def _inside(spans: list[tuple[int, int]], at: int) -> bool:
    """Whether position ``at`` falls inside one of ``spans`` (in order, not overlapping), not at its ends."""
    n = bisect.bisect_right(spans, (at, at)) - 1
    return n >= 0 and spans[n][0] < at < spans[n][1]


# A backslash escape: "\\*" is a star, not emphasis; "\\|" a bar in a table's cell.
_MD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def _md_unescape(text: str) -> str:
    """``text`` with its backslash escapes read as the characters they escape, except in code spans."""
    if "\\" not in text:
        return text
    out, last = [], 0
    for span in _CODE_SPAN.finditer(text) if "`" in text else ():
        out += (_MD_ESCAPE.sub(r"\1", text[last : span.start()]), span.group(0))
        last = span.end()
    out.append(_MD_ESCAPE.sub(r"\1", text[last:]))
    return "".join(out)


# HTML written into Markdown, which a Markdown viewer shows as what it is: an anchor, a line break, a
# picture, a collapsed section. Only the tags of HTML that READMEs use: "<file>", "<key>" or "<NAME>" in
# prose are placeholders, and stay. A tag that breaks the line ("a<br>b", "<td>a</td><td>b</td>") leaves
# a space, one that marks words ("<b>x</b>y") nothing.
_MD_HTML = re.compile(
    r"<!--.*?-->|</?(?:(?P<inline>a|img|span|sup|sub|kbd|b|i|em|strong|u|s|del|ins|mark|small|big|font|abbr|"
    r"tt|nobr)|br|hr|p|div|details|summary|center|picture|video|table|thead|tbody|tr|td|th|ul|ol|li|dl|dt|"
    r"dd|blockquote|h[1-6])(?:\s+[^<>]*)?/?>",
    re.I | re.S,
)
# A character reference: "&amp;", "&nbsp;", "&#42;".
_MD_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
# A MyST (Sphinx Markdown) role: {term}`source distribution <Source Distribution>` shows its text.
_MYST_ROLE = re.compile(r"(?<!`)\{[\w:.+-]+\}`([^`<]*?)\s*(?:<[^`]*>)?`")
_CODE_SPAN = re.compile(r"(`+)(?:.+?)\1", re.S)
# What is shown as written, marks and all: a code span, an autolink (<https://…>), a bare address
# ("https://x.org/my_page_name"), a link's target ("](docs/__init__.md)").
_MD_VERBATIM = re.compile(r"(`+).+?\1|<[A-Za-z][\w+.-]*:[^\s<>]*>|\b(?:[A-Za-z][\w+.-]*://|www\.)[^\s<>`*]+"
                          r"|\]\([^()\s]*", re.S)
# Emphasis: *it*, **bold**, ***both***, _it_, __bold__, its marks not shown. Not emphasis, and left as
# written: a star or underscore inside a word or number ("snake_case_name", "2*3*4"), one with a space
# after it ("a * b", a list's "* item"), a glob ("*.txt", "src/**/*.py"), a part of a path or a file's
# name ("__pycache__/", "__init__.py"), one right after code or an address ("https://x.org/a_*b*", see
# _outside). Inside, no run of the same marks that could close it ("__init__.py __a__" is not emphasis
# from "__init"). Emphasis is a few words, so a stray star costs a short look ahead.
_KEPT = "\U000F0000-\U000FFFFD"  # the characters _outside keeps code and addresses in
_STAR_EMPHASIS = (rf"(?<![A-Za-z0-9*\\/{_KEPT}])(?P<star>\*{{1,3}})(?=[^\s*./])"
                  rf"(?P<s>(?:(?!(?<=\S)(?P=star)).){{1,400}}?)(?<=[^\s*/\\])(?P=star)(?![A-Za-z0-9*/]|\.[\w{_KEPT}])")
_MD_EMPHASIS = re.compile(
    _STAR_EMPHASIS + rf"|(?<![\w\\/{_KEPT}])(?P<line>_{{1,3}})(?=[^\s_])(?P<u>(?:(?!(?<=\S)(?P=line)).){{1,400}}?)"
    rf"(?<=[^\s_/\\])(?P=line)(?![\w/]|\.[\w{_KEPT}])",
    re.S,
)
# Python's special names, which READMEs and changelogs write without backticks ("on __getstate__").
_DUNDER = re.compile(r"[a-z][a-z0-9_]*")
_DUNDERS = frozenset(
    "init new del repr str bytes format hash bool getattr getattribute setattr delattr dir get set delete slots "
    "call len getitem setitem delitem missing iter next reversed contains add sub mul truediv floordiv mod pow "
    "and or xor lt le eq ne gt ge enter exit aenter aexit await aiter anext name main file doc dict module "
    "qualname all version author path package spec loader builtins future getstate setstate reduce copy "
    "deepcopy index int float round abs neg invert class mro bases annotations weakref subclasshook "
    "instancecheck fspath sizeof import pycache".split())
# Where emphasis could start, a quick test before the work of reading it (see _MD_EMPHASIS).
_MD_EMPHASIS_START = re.compile(r"(?<![A-Za-z0-9*\\/])\*{1,3}[^\s*./]|(?<![\w\\/])_{1,3}[^\s_]")
# While the text around them is read, each verbatim part waits as one character of a private-use plane.
_SLOT, _SLOTS = 0xF0000, 0xFFFE
_SLOT_CHAR = re.compile(f"[{_KEPT}]")


# A MyST target, "(editable-installs)=" on a line of its own: an anchor, not shown.
_MYST_TARGET = re.compile(r"^\([^()\s]+\)=\s*$")
_QUOTE_MARK = re.compile(r"^ {0,3}> ?", re.M)
_LINE_END_SPACES = re.compile(r"[ \t]+\n")
_BLANK_LINES = re.compile(r"\n{3,}")


def _shown_markdown(text: str) -> str:
    """``text`` as a Markdown viewer shows it, links aside (_unlink_markdown reads those): without the
    HTML tags and comments written into it, with character references as their characters, MyST roles
    as their text and emphasis without its marks. Code spans and addresses are left as written."""
    if "{" in text:
        text = _MYST_ROLE.sub(lambda m: m.group(1), text)
    if "<" not in text and "&" not in text and (
            ("*" not in text and "_" not in text) or _MD_EMPHASIS_START.search(text) is None):
        return text  # most paragraphs: no markup but links (or emphasis only in a code span, read as it is)
    return _outside(_MD_VERBATIM, text, _markdown_marks_off)


def _markdown_marks_off(text: str) -> str:
    if "<" in text:
        text = _MD_HTML.sub(lambda m: "" if m.group("inline") or m.group(0).startswith("<!") else " ", text)
    if "*" in text or "_" in text:
        text = _emphasis_off(_MD_EMPHASIS, text)
    if "&" in text:
        text = _MD_ENTITY.sub(lambda m: html.unescape(m.group(0)), text)
    return text


def _outside(verbatim: re.Pattern[str], text: str, shown: Callable[[str], str]) -> str:
    """``shown(text)`` but for the parts of ``text`` that ``verbatim`` matches (code, addresses), which stay
    as written. Each of them waits as one character of a private-use plane while the rest is read, so
    markup around it (emphasis over a code span: **`--force`**) is read whole."""
    if _SLOT_CHAR.search(text) is not None:
        return text  # the plane is in use (a font's icons?): the text is left as written
    kept: list[str] = []

    def keep(match: re.Match[str]) -> str:
        kept.append(match.group(0))
        return chr(_SLOT + len(kept) - 1)

    plain = verbatim.sub(keep, text, count=_SLOTS)
    if len(kept) == _SLOTS:
        return text
    plain = shown(plain)
    return _SLOT_CHAR.sub(lambda m: kept[ord(m.group(0)) - _SLOT], plain) if kept else plain


def _emphasis_off(emphasis: re.Pattern[str], text: str) -> str:
    for _ in range(3):  # emphasis in emphasis of the same marks, "*a **b** c*": the inner first
        text, count = emphasis.subn(_unemphasized, text)
        if not count:
            break
    return text


def _unemphasized(match: re.Match[str]) -> str:
    inner = match.group("s") or match.group("u")
    if match.group(0)[:3] == "__" + inner[:1] and (inner in _DUNDERS or (_DUNDER.fullmatch(inner) and "_" in inner)):
        return match.group(0)  # Python's __getstate__ or __init_subclass__ written without backticks: a name
    return match.re.sub(_unemphasized, inner) if "*" in inner or "_" in inner else inner


# A table's row: "| a | b |", or without the outer bars "a | b"; and the rule under its header, "|---|:-:|".
_MD_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
_MD_CELL_BAR = re.compile(r"(?<!\\)\|")


def _md_row(line: str) -> str:
    """A table's row as its cells read, "a | b": without the outer bars, each cell as shown; a bar
    escaped in a cell ("\\|", in code too, as GitHub reads it) is a bar."""
    row = line.strip()
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") and not row.endswith("\\|") else row
    cells = [_shown_markdown(cell.replace("\\|", "|")).strip() for cell in _MD_CELL_BAR.split(row)]
    while cells and not cells[-1]:
        cells.pop()
    return " | ".join(cells)


def _norm_space(text: str) -> str:
    return " ".join(text.split())


def _links_in(text: str, found: list[tuple[int, str, str]], heading: str, links: list[Link]) -> None:
    for at, anchor, href in found:
        if len(links) >= MAX_LINKS:
            return
        link = context(text, anchor, href, heading, at)
        if link is not None:
            links.append(Link(link.href, _norm_space(link.text)))


def read_markdown(data: bytes, name: str) -> Document:
    lines = decode_text(data).splitlines()
    front: dict[str, str] = {}
    if lines and lines[0].strip() in ("---", "+++"):  # YAML front matter, or Hugo's TOML
        toml = lines[0].strip() == "+++"
        for end in range(1, min(len(lines), 200)):
            if lines[end].strip() in (("+++",) if toml else ("---", "...")):
                front = _front_matter(lines[1:end], _FRONT_KEY_TOML if toml else _FRONT_KEY)
                lines = lines[end + 1:]
                break
    references: dict[str, str] = {}
    for line in lines:
        if line.lstrip().startswith("[") and (ref := _MD_REFERENCE.match(line)) is not None:
            references.setdefault(" ".join(ref.group(1).split()).casefold(), ref.group(2))
    blocks: list[Block] = []
    links: list[Link] = []
    para: list[str] = []
    kind = "text"
    heading = ""

    def flush() -> None:
        nonlocal para, kind
        text = "\n".join(para).strip()
        if kind == "text":
            if text.startswith(">") and all(line.lstrip().startswith(">") for line in para):
                text = _QUOTE_MARK.sub("", text)  # a block quote, without its "> " marks
            text = _shown_markdown(text).strip()
            if " \n" in text or "\n\n\n" in text:  # "a <br>", "a  " (a line break), lines of HTML alone
                text = _BLANK_LINES.sub("\n\n", _LINE_END_SPACES.sub("\n", text))
        if text and kind == "text":
            if "[^" in text:  # footnotes, "[^1]" in the text and "[^1]: …" below, as rendered: "[1]"
                text = _MD_FOOTNOTE.sub(r"[\1]", text)
            text, found = _unlink_markdown(text, references)
            _links_in(text, found, heading, links)
        elif text and kind == "table":
            rows = []
            for row in para:  # a table's row is its links' sentence
                plain, found = _unlink_markdown(_md_row(row), references)
                _links_in(plain, found, heading, links)
                if plain.strip(" |"):
                    rows.append(plain)
            text = "\n".join(rows)
        if text:
            blocks.append(Block(kind, text))
        para, kind = [], "text"

    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        if not para and line.startswith(("    ", "\t")) and line.strip() and _opens_indented_code(lines, i):
            # an indented code block: its lines, and the blank ones between them, four spaces less indented
            end = i
            while end < len(lines) and (not lines[end].strip() or lines[end].startswith(("    ", "\t"))):
                end += 1
            body = [_dedent_code(row) for row in lines[i:end]]
            while body and not body[-1].strip():
                body.pop()
            blocks.append(Block("code", "\n".join(body)))
            i = end
            continue
        if fence:
            flush()
            marker = fence.group(1)
            body = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(marker):
                body.append(lines[i])
                i += 1
            if any(b.strip() for b in body):
                blocks.append(Block("code", "\n".join(body)))
        elif line.lstrip().startswith("<!--") and "-->" not in line:
            flush()  # a comment over several lines: not shown
            while i + 1 < len(lines) and "-->" not in lines[i + 1]:
                i += 1
            i += 1
        elif (m := _ATX.match(line)) is not None:
            flush()
            heading = _norm_space(_unlink_markdown(_shown_markdown(m.group(2)), references)[0])
            blocks.append(Block("heading", heading, len(m.group(1))))
        elif para and kind == "text" and line.lstrip()[:1] in ("=", "-") and _SETEXT.match(line) and \
                not _MD_LIST_ITEM.match(para[0]):
            # a paragraph underlined, on one line or several (CommonMark), is a heading
            heading = _norm_space(_unlink_markdown(_shown_markdown(" ".join(para)), references)[0])
            blocks.append(Block("heading", heading, 1 if line.lstrip()[0] == "=" else 2))
            para = []
        elif not line.strip() or (line.lstrip().startswith("[") and _MD_REFERENCE.match(line)) or (
                line.startswith("(") and _MYST_TARGET.match(line)) or (
                line.lstrip()[:1] in ("-", "*", "_") and _MD_RULE.match(line)):
            flush()  # a blank line, a reference definition, a target, a rule ("---", "* * *"): no text
        else:
            # a table: rows of cells between bars, its header's bars perhaps not at the ends of the line
            # ("a | b") but then a rule beneath it ("--- | ---")
            is_table = line.lstrip().startswith("|") or ("|" in line and (kind == "table" or (
                i + 1 < len(lines) and "|" in lines[i + 1] and _MD_TABLE_RULE.match(lines[i + 1]) is not None)))
            if para and (kind == "table") != is_table:
                flush()
            kind = "table" if is_table else kind
            if not (is_table and _MD_TABLE_RULE.match(line)):  # the rule under the header: no text
                para.append(line)
        i += 1
    flush()
    lead = [Block("text", front[key]) for key in ("description", "summary") if front.get(key)]
    if front.get("tags"):
        lead.append(Block("text", f"Tags: {front['tags']}"))
    blocks[:0] = lead
    title = front.get("title") or next((b.text for b in blocks if b.kind == "heading" and b.level == 1), name)
    return Document(title, "markdown", tuple(blocks), tuple(links))


_FRONT_KEY = re.compile(r"^(title|description|summary|tags|keywords)\s*:\s*(.*)$", re.I)
_FRONT_KEY_TOML = re.compile(r"^(title|description|summary|tags|keywords)\s*=\s*(.*)$", re.I)
_FRONT_ITEM = re.compile(r"^\s+-\s+(.+)$")


def _front_matter(lines: Sequence[str], keys: re.Pattern[str] = _FRONT_KEY) -> dict[str, str]:
    """What a note's front matter (Jekyll, Hugo, Obsidian) says about it that people search for: its
    title, description and tags (``tags: [a, b]``, ``tags: a, b`` or one ``- a`` line each; in TOML,
    ``keys`` is _FRONT_KEY_TOML: ``title = "…"``, ``tags = ["a", "b"]``). Only these simple forms are
    read; a value written any other way is left out, never misread as another."""
    found: dict[str, str] = {}
    key = ""
    for line in lines:
        if (m := keys.match(line)) is not None:
            key, value = m.group(1).lower(), m.group(2).strip()
            key = "tags" if key == "keywords" else key
            if value.startswith("[") and value.endswith("]"):
                value = ", ".join(_unquote(v) for v in value[1:-1].split(",") if v.strip())
            value = _unquote(value)
            if key == "tags":
                value = ", ".join(t.strip().lstrip("#") for t in value.split(",") if t.strip().lstrip("#"))
            if value and value not in ("|", ">"):
                found[key] = (found[key] + ", " + value) if key == "tags" and key in found else value
        elif key == "tags" and (m := _FRONT_ITEM.match(line)) is not None:
            item = _unquote(m.group(1)).lstrip("#")  # Obsidian writes "#bread" as often as "bread"
            found["tags"] = f"{found['tags']}, {item}" if found.get("tags") else item
        elif line[:1].strip():
            key = ""  # another key: the list of tags, if one was open, has ended
    return found


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1]
    return value.strip()


# ---- reStructuredText ---------------------------------------------------------------------------------

_RST_RULE = re.compile(r"^([=\-`:'\"~^_*+#<>.])\1{2,}\s*$")
# `text <href>`_ (or __), `name`_ (a named target), :role:`text <target>` and :role:`target`.
_RST_LINK = re.compile(
    r"(?::(?P<role>[\w.+-]+(?::[\w.+-]+)?):)?`(?P<text>[^`<]*?)\s*(?:<(?P<target>[^<>`]+)>)?`(?P<under>__?)?(?!\w)"
)
# A named hyperlink target: ".. _name: href" alone on its line.
_RST_TARGET = re.compile(r"^\.\.\s+_`?([^:`]+)`?:\s+(\S+)\s*$")


# What reStructuredText shows as written: a literal (``x``, shown as `x`), interpreted text and roles
# (read by _unlink_roles), an address.
_RST_VERBATIM = re.compile(r"``.+?``(?!`)|(?::[\w.+-]+(?::[\w.+-]+)?:)?`[^`]+`(?:__?)?|"
                           r"\b[A-Za-z][\w+.-]*://[^\s<>`*]+", re.S)
_RST_EMPHASIS = re.compile(_STAR_EMPHASIS, re.S)
# A backslash escape of a mark ("\\*"), or an escaped space, which joins markup to a word ("*x*\\ s").
_RST_ESCAPE = re.compile(r"\\([^\w\s])|\\ ")
_RST_LITERAL = re.compile(r"``([^`]+?)``(?!`)")
# A substitution, "|name|" (with ".. |name| replace:: text"), and its definition.
_RST_SUBSTITUTION = re.compile(r"\|([^|\s](?:[^|]*[^|\s])?)\|(?:__?)?")
_RST_SUBSTITUTION_DEF = re.compile(r"^\.\.\s+\|([^|]+)\|\s+([\w-]+)::\s*(.*?)\s*$")
# A footnote's or a citation's reference, "[1]_", "[#note]_", "[CIT2002]_", shown as "[1]", "[note]".
_RST_NOTE_REF = re.compile(r"\[#?([\w.-]*|\*)\]_")


def _shown_rst(text: str, substitutions: dict[str, str]) -> str:
    """reStructuredText's inline markup as the rendered page shows it, links and roles aside (see
    _unlink_rst): substitutions replaced, footnote references, emphasis and escapes without their marks;
    literals and roles as written."""
    if "*" in text or "\\" in text or "]_" in text or (substitutions and "|" in text):
        text = _outside(_RST_VERBATIM, text, lambda plain: _rst_marks_off(plain, substitutions))
    return text


def _rst_marks_off(text: str, substitutions: dict[str, str]) -> str:
    if substitutions and "|" in text:
        text = _RST_SUBSTITUTION.sub(lambda m: substitutions.get(m.group(1).casefold(), m.group(0)), text)
    if "]_" in text:
        text = _RST_NOTE_REF.sub(lambda m: f"[{m.group(1) or '#'}]", text)
    if "*" in text:
        text = _emphasis_off(_RST_EMPHASIS, text)
    return _RST_ESCAPE.sub(lambda m: m.group(1) or "", text) if "\\" in text else text


def _rst_substitutions(lines: list[str]) -> dict[str, str]:
    """What each "|name|" of a document stands for: a replacement text, or a character by its code; a
    picture (".. |logo| image:: logo.png") shows no words."""
    found = {}
    for line in lines:
        if line.startswith("..") and (m := _RST_SUBSTITUTION_DEF.match(line)) is not None:
            kind, value = m.group(2).lower(), m.group(3)
            if kind == "unicode":
                value = "".join(_code_char(code) for code in value.split())
            found[" ".join(m.group(1).split()).casefold()] = value if kind in ("replace", "unicode") else ""
    return found


def _code_char(code: str) -> str:
    """A character by its code as reStructuredText's "unicode" writes it: "U+2122", "0x2122", "x2122",
    "&#x2122;" (hexadecimal) or "8482" (decimal); anything else is text."""
    digits = re.fullmatch(r"(?:0x|x|\\x|U\+|u|\\u|&#x)([0-9A-Fa-f]{1,6});?|([0-9]{1,7})", code, re.I)
    value = -1 if digits is None else int(digits.group(1), 16) if digits.group(1) else int(digits.group(2))
    return chr(value) if 0 <= value < 0x110000 and not 0xD800 <= value < 0xE000 else code


# A reference by a single word to a named target: "Jansson_ is a C library" (with ".. _Jansson: url").
_RST_WORD_LINK = re.compile(r"(?<![\w`])([A-Za-z0-9][\w.+-]*?)__?(?![\w`])")


def _unlink_rst(text: str, targets: dict[str, str]) -> tuple[str, list[tuple[int, str, str]]]:
    """``text`` with its references by a single word ("Jansson_") read as the word, then as _unlink_roles."""
    if "_" in text and targets:
        text = _RST_WORD_LINK.sub(
            lambda m: m.group(1) if m.group(1).casefold() in targets else m.group(0), text)
    return _unlink_roles(text, targets)


def _unlink_roles(text: str, targets: dict[str, str]) -> tuple[str, list[tuple[int, str, str]]]:
    """``text`` with its hyperlinks and roles replaced by their text, and each link's (position in the new
    text, anchor text, href). A Sphinx ``:doc:`` names a document without its extension: ``.rst``."""
    out: list[str] = []
    found: list[tuple[int, str, str]] = []
    length = last = 0
    for match in _RST_LINK.finditer(text):
        role, anchor, target, under = match.group("role", "text", "target", "under")
        if (role is None and under is None) or not (anchor or target):
            continue  # `interpreted text` without a role or link, or the "``" of a ``literal``: as written
        anchor = anchor or (target or "")
        name = (role or "").rpartition(":")[2]
        if name in ("pep", "rfc") and target is None:
            anchor = f"{name.upper()} {anchor}"  # :pep:`8` shows "PEP 8"
        elif role is not None and anchor[:1] in ("!", "~") and name not in _RST_LITERAL_ROLES:
            # Sphinx: "!name" is not linked, "~mod.Class.method" shows its last part, "method"
            anchor = anchor[1:] if anchor[0] == "!" else anchor[1:].rpartition(".")[2]
        href = ""
        if role is None:
            href = target or targets.get(" ".join(anchor.split()).casefold(), "")
        elif name == "doc" and not (target or anchor).startswith("/"):
            href = (target or anchor).strip()
            href += "" if "." in href.rsplit("/", 1)[-1] else ".rst"
        before = text[last : match.start()]
        out += (before, anchor)
        length += len(before)
        if href:
            found.append((length, anchor, href))
        length += len(anchor)
        last = match.end()
    out.append(text[last:])
    return "".join(out), found


# Roles whose text is shown as written, a leading "~" or "!" included (:file:`~/.bashrc`).
_RST_LITERAL_ROLES = frozenset({"file", "samp", "kbd", "command", "program", "code", "literal", "math", "regexp",
                                "mimetype", "makevar", "guilabel", "menuselection", "dfn", "abbr", "manpage"})


# An explicit markup line: ".. name:: arguments" (a directive), ".. [1] text" (a footnote), or anything
# else after ".." (a comment, a hyperlink target, a substitution), which is not shown.
_RST_EXPLICIT = re.compile(r"^\s*\.\.(?:\s|$)")
_RST_DIRECTIVE = re.compile(r"^\s*\.\.\s+(?:[\w-]+:)?([\w-]+)::(?:\s+(.*?))?\s*$")
_RST_FOOTNOTE = re.compile(r"^\s*\.\.\s+(\[[^\]\s]+\])\s+(.*)$")
# Directives that show nothing of their own, with the lines indented beneath them: tables of contents,
# index entries, page metadata, pictures, text included from elsewhere.
_RST_HIDDEN = frozenset({"toctree", "index", "meta", "raw", "contents", "image", "include", "literalinclude",
                         "highlight", "highlightlang", "tabularcolumns", "sectionauthor", "moduleauthor",
                         "codeauthor", "currentmodule", "program", "sectnum", "default-role", "role",
                         "autosummary", "kernel-doc", "kernel-abi", "kernel-feat", "kernel-include"})
# Directives whose indented lines are code.
_RST_CODE = frozenset({"code", "code-block", "sourcecode", "doctest", "testcode", "testoutput", "parsed-literal"})
# What a directive shows before its content, as Sphinx renders it.
_RST_SHOWN = {"versionadded": "New in version {}.", "versionchanged": "Changed in version {}:",
              "deprecated": "Deprecated since version {}:", "seealso": "See also: {}"}
# Directives that show their arguments as a term or a title (".. function:: open(file)" shows
# "open(file)", ".. tab:: Windows" shows "Windows"); any other's arguments are for the program that
# builds the page (a module's name, a picture's file, an extension's parameters), not for the reader.
_RST_SHOWS_ARGUMENTS = frozenset({
    "function", "method", "class", "attribute", "data", "exception", "option", "cmdoption", "envvar",
    "describe", "object", "decorator", "decoratormethod", "classmethod", "staticmethod", "property",
    "abstractmethod", "coroutinefunction", "coroutinemethod", "opcode", "pdbcommand", "confval", "macro",
    "member", "type", "var", "enum", "enumerator", "struct", "union", "tab", "tab-item", "rubric", "topic",
    "sidebar", "admonition", "glossary", "table", "csv-table", "list-table", "figure", "math",
})
# Fields of a whole document (":orphan:", ":tocdepth: 2"), not shown.
_RST_DOC_FIELD = re.compile(r"^:(orphan|nocomments|nosearch|tocdepth|og:[\w:-]+)(:.*)?$")


def _rst_shown(para: list[str]) -> list[str]:
    """The lines of a paragraph as a reader of the rendered page sees them: a directive line as what it
    shows, a footnote without its "..", the options beneath a directive left out, and a paragraph's
    "::" (which announces a code block) as Sphinx shows it: "Example::" is "Example:"."""
    out: list[str] = []
    below = None  # the indent of the directive above: the lines beneath it are its options, then its content
    hidden = False  # whether those lines are for the program that builds the page (a picture's file name)
    option = None  # the indent of the option above, whose value may run on over the lines beneath it
    joins = False  # whether the next line of content completes the directive's line ("Note:", "Note: text")
    for line in para:
        indent = len(line) - len(line.lstrip())
        if below is not None and indent > below:
            if option is not None and indent > option:
                continue
            option = indent if _RST_OPTION.match(line) else None
            if option is None and not hidden:  # a note's text, a function's second signature
                if joins:
                    out[-1] += " " + line.strip()
                else:
                    out.append(line.strip())
                joins = False
            continue
        below = option = None
        if (directive := _RST_DIRECTIVE.match(line)) is not None:
            below = indent
            name, args = directive.group(1).lower(), directive.group(2) or ""
            hidden = not (name in _ADMONITIONS_RST or name in _RST_SHOWN or name in _RST_SHOWS_ARGUMENTS) or \
                name in ("figure", "math")
            if name in _ADMONITIONS_RST:
                shown = f"{name.capitalize()}: {args}".rstrip()
            elif name in _RST_SHOWN:
                shown = _RST_SHOWN[name].format(args) if args else ""
            else:
                shown = args if name in _RST_SHOWS_ARGUMENTS and name not in ("figure", "math") else ""
            if shown:
                out.append(shown)
            joins = shown.endswith(":")
        elif (footnote := _RST_FOOTNOTE.match(line)) is not None:
            out.append(f"{footnote.group(1).replace('[#', '[')} {footnote.group(2)}")  # "[#note]" shows "[note]"
        else:
            out.append(line)
    if out and out[-1].rstrip().endswith("::"):
        last = out[-1].rstrip()[:-2]
        out[-1] = last.rstrip() if not last.strip() or last[-1:].isspace() else last + ":"
    return out


# A directive's option beneath it: ":maxdepth: 2", ":noindex:".
_RST_OPTION = re.compile(r"^\s*:[\w-]+:(?:\s|$)")
def _dedented(lines: list[str]) -> str:
    """A paragraph's lines without the indent they share: a note's text under ".. note::", a manual page's
    paragraph under its heading, read as the page shows it, flush with the text around."""
    indent = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return "\n".join(line[indent:] for line in lines) if indent else "\n".join(lines)


_ADMONITIONS_RST = frozenset({"note", "tip", "warning", "caution", "important", "hint", "danger", "attention",
                              "error", "admonition", "todo"})


def _skip_block(lines: list[str], i: int) -> int:
    """The index after the explicit markup block starting at line ``i``: its line and the blank or more
    deeply indented lines beneath it."""
    indent = len(lines[i]) - len(lines[i].lstrip())
    i += 1
    while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent):
        i += 1
    return i


def read_rst(data: bytes, name: str) -> Document:
    return _read_rst(data, name, markup=True)


def _read_rst(data: bytes, name: str, markup: bool) -> Document:
    """reStructuredText, or with ``markup`` False plain text read the same way: there a line starting
    with ".." is text unless it is a directive, where in reStructuredText it is a comment."""
    lines = decode_text(data).splitlines()
    targets = {" ".join(t.group(1).split()).casefold(): t.group(2)
               for line in lines if line.startswith("..") and (t := _RST_TARGET.match(line)) is not None}
    blocks: list[Block] = []
    links: list[Link] = []
    styles: list[str] = []  # underline characters in order of first use: that order is the level
    para: list[str] = []
    code_indent: int | None = None
    heading = ""
    caps_headings: set[int] = set()
    substitutions = _rst_substitutions(lines) if markup else {}
    attributes: dict[str, str] = {}
    delimiters: set[str] = set()  # AsciiDoc's blocks open at this line ("===="), whose same line closes them
    asciidoc = not markup and (name.lower().removesuffix(".gz").endswith((".adoc", ".asciidoc"))
                               or _is_asciidoc("\n".join(lines)))
    if asciidoc:  # <<id>> shows the title of the section anchored "[[id]]"
        attributes.update({f"<<{m.group(1)}>>": title.group(2) for n, line in enumerate(lines[:-1])
                           if line.startswith("[[") and (m := re.match(r"\[\[([^\[\],]+)[^\]]*\]\]\s*$", line))
                           and (title := _ASCIIDOC_TITLE.match(lines[n + 1]))})

    def inline(text: str) -> tuple[str, list[tuple[int, str, str]]]:
        if asciidoc:
            return _shown_asciidoc(text, attributes)
        if not markup:
            return _unlink_rst(text, targets)
        text, found = _unlink_rst(_shown_rst(text, substitutions), targets)
        if "``" in text:  # ``literal`` as `literal`, once links are read (`x`_ is a link, ``x`` is not)
            ends = [m.end() for m in _RST_LITERAL.finditer(text)]
            found = [(at - 2 * sum(end <= at for end in ends), anchor, href) for at, anchor, href in found]
            text = _RST_LITERAL.sub(r"`\1`", text)
        return text, found

    def flush(kind: str = "text") -> None:
        nonlocal para
        table = para if kind == "table" else _rst_table(para) if kind == "text" and para and \
            para[0].lstrip()[:1] in "+=*" else None
        if table is not None:
            rows = []
            for row in table:
                plain, found = inline(row)
                _links_in(plain, found, heading, links)
                rows.append(plain)
            blocks.append(Block("table", "\n".join(rows)))
            para = []
            return
        text = "\n".join(para).strip("\n")
        if kind == "text":
            text = _dedented(_rst_shown(para)).strip("\n")
        if text.strip() and kind == "text" and not _RST_TARGET.match(text.strip()) and not (
                markup and _RST_RULE.match(text.strip())):  # a transition, shown as a rule
            text, found = inline(text.strip())
            _links_in(text, found, heading, links)
            directive = _RST_DIRECTIVE.match(para[0])
            term = directive is not None and directive.group(1).lower() in _RST_SHOWS_ARGUMENTS and "\n" not in text
            blocks.append(Block("term" if term else kind, text))
        elif text.strip() and kind == "code":
            blocks.append(Block(kind, text))
        para = []

    i = 0
    while i < len(lines):
        line = lines[i]
        if code_indent is not None:
            if line.strip() and len(line) - len(line.lstrip()) < code_indent:
                flush("code")
                code_indent = None
                continue
            para.append(line)
            i += 1
            continue
        if asciidoc and (block := _asciidoc_block(lines, i, attributes, not para)) is not None:
            if _ASCIIDOC_DELIMITER.fullmatch(line.rstrip()):  # an example, sidebar, quote: opened or closed
                delimiters ^= {line.rstrip()}
            i, kind, text = block
            if kind != "comment":
                flush()  # a comment's lines are not there, even in a paragraph
            if kind == "code" and text.strip():
                blocks.append(Block("code", text))
            elif kind in ("table", "text") and text.strip():
                para = text.splitlines()
                flush(kind)
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if not markup and all(_ASCIIDOC_ATTRIBUTES.match(p) for p in para) and (
                titled := _ASCIIDOC_TITLE.match(line)) is not None:
            # AsciiDoc, as git's manuals are shipped: "= Git User Manual", "== Introduction"; the anchor
            # or style lines above a title ("[[branches]]", "[preface]") show nothing
            para = []
            heading = _heading_text(titled.group(2), inline, markup)
            blocks.append(Block("heading", heading, len(titled.group(1))))
            i += 1
            continue
        if _RST_RULE.match(line) and i + 2 < len(lines) and _over_and_under(line, lines[i + 1], lines[i + 2],
                                                                             hugs=not markup):
            flush()  # an over- and underlined title
            style = "o" + line[0]
            if style not in styles:
                styles.append(style)
            heading = _heading_text(lines[i + 1], inline, markup)
            blocks.append(Block("heading", heading, styles.index(style) + 1))
            i += 3
            continue
        if _titled(line) and _RST_RULE.match(nxt) and len(nxt.rstrip()) >= len(line.rstrip()) - 2 and not para \
                and nxt.rstrip() not in delimiters:  # "x" then "====" closing an example block: no title
            style = nxt[0]
            if style not in styles:
                styles.append(style)
            heading = _heading_text(line, inline, markup)
            blocks.append(Block("heading", heading, styles.index(style) + 1))
            i += 2
            continue
        directive = _RST_DIRECTIVE.match(line) if line.lstrip().startswith("..") else None
        if not markup and not para and _CAPS_HEADING.match(line) and _indented_below(lines, i):
            # a manual page's or a plain README's "DESCRIPTION", its text indented beneath it
            heading = " ".join(line.split())
            blocks.append(Block("heading", heading, 1))
            caps_headings.add(len(blocks) - 1)
            i += 1
            continue
        if not line.strip():
            flush()
        elif (directive is not None and directive.group(1).lower() in _RST_HIDDEN) or (
                markup and not para and directive is None and _RST_EXPLICIT.match(line)
                and not _RST_FOOTNOTE.match(line)) or (markup and not para and _RST_DOC_FIELD.match(line)):
            flush()  # shows nothing: a table of contents, a comment, a target, the page's metadata
            i = _skip_block(lines, i)
            continue
        else:
            para.append(line)
            code = directive is not None and directive.group(1).lower() in _RST_CODE
            if code or (directive is None and line.rstrip().endswith("::")):
                flush()
                j = i + 1
                while j < len(lines) and not lines[j].strip():
                    j += 1
                if j < len(lines) and lines[j][:1].isspace():
                    code_indent = len(lines[j]) - len(lines[j].lstrip())
                    i = j
                    continue
        i += 1
    flush("code" if code_indent is not None else "text")
    # A heading in capitals names a part ("NAME", "DESCRIPTION"), not the document.
    title = next((b.text for n, b in enumerate(blocks) if b.kind == "heading" and n not in caps_headings), name)
    return Document(title, "rst", tuple(blocks), tuple(links))


_GRID_BORDER = re.compile(r"^\+(?:[-=]+\+)+$")
_SIMPLE_BORDER = re.compile(r"^=+(?: +=+)+$")


def _rst_table(lines: list[str]) -> list[str] | None:
    """A grid or simple table's rows as "cell | cell" lines, without its borders; None when ``lines``
    are no table. A grid table's row may run over several lines: each cell's lines are joined."""
    rows = [line.strip() for line in lines if line.strip()]
    if len(rows) >= 3 and _GRID_BORDER.match(rows[0]) and _GRID_BORDER.match(rows[-1]) and all(
            r[0] in "+|" for r in rows):
        out: list[str] = []
        cells: list[list[str]] = []
        for row in rows[1:]:
            if _GRID_BORDER.match(row):
                if cells:
                    out.append(" | ".join(" ".join(" ".join(c).split()) for c in cells))
                cells = []
                continue
            parts = [p.strip() for p in row.strip("|").split("|")]
            if cells and len(parts) != len(cells):  # cells spanning columns: each line a row of its own
                out.append(" | ".join(" ".join(" ".join(c).split()) for c in cells))
                cells = []
            cells = cells or [[] for _ in parts]
            for cell, part in zip(cells, parts):
                cell.append(part)
        return [r for r in out if r.strip(" |")]
    if rows and rows[0].startswith("* - "):  # a list-table's body: "* - a" starts a row, "- b" a cell
        table: list[list[str]] = []
        for row in rows:
            if row.startswith("* - "):
                table.append([row[4:]])
            elif row.startswith("- ") or row == "-":
                table[-1].append(row[2:])
            else:
                table[-1][-1] += " " + row
        return [" | ".join(" ".join(cell.split()) for cell in cells) for cells in table]
    if len(rows) >= 3 and _SIMPLE_BORDER.match(rows[0]) and _SIMPLE_BORDER.match(rows[-1]):
        border = lines[next(n for n, line in enumerate(lines) if line.strip())]
        starts = [m.start() for m in re.finditer(r"=+", border)]
        out = []
        for line in lines:
            if not line.strip() or _SIMPLE_BORDER.match(line.strip()) or re.fullmatch(r"[\s=-]+", line):
                continue
            bounds = starts[1:] + [len(line)]
            cells = [line[a:b].strip() for a, b in zip(starts, bounds)]
            out.append(" | ".join(c for c in cells))
        return [r for r in out if r.strip(" |")]
    return None


def _heading_text(line: str, inline: Callable[[str], tuple[str, list]], markup: bool) -> str:
    """A title's words: its inline markup read; in plain text, AsciiDoc's anchors dropped ("GIT URLS[[URLS]]")."""
    text = inline(line.strip())[0]
    return text if markup else _ASCIIDOC_ANCHOR.sub("", text).strip() or text


def _over_and_under(over: str, text: str, under: str, hugs: bool = False) -> bool:
    """Whether ``text`` is a title between rules: the same rule above and below, about as long as the title.
    AsciiDoc's listings ("----", a line of code, "...") are no titles. With ``hugs`` (plain text, where a
    one-line listing between two long rules is common: "$ man git-clone"), the rules may not be much
    longer than the title either."""
    over, under = over.rstrip(), under.rstrip()
    if hugs and len(over) > len(text.rstrip()) + 4:
        return False
    return _titled(text) and over == under and len(over) >= len(text.strip()) - 2


def _titled(line: str) -> bool:
    """Whether ``line`` could be a heading's text: it has a letter or a digit (AsciiDoc's "+" joining a list
    item to the listing below it, "+" then "-----", is none)."""
    return any(ch.isalnum() for ch in line)


# An AsciiDoc section title: "= Document", "== Section" (to level 6), optionally closed by the same marks.
_ASCIIDOC_TITLE = re.compile(r"^(={1,6})[ \t]+(?=\S)(.*?[^\W\d_].*?)(?:[ \t]+=+)?[ \t]*$")
# What AsciiDoc writes above a title: an anchor ("[[id]]") or the block's style ("[preface]").
_ASCIIDOC_ATTRIBUTES = re.compile(r"^\[\[?[^\[\]]+\]\]?\s*$")
_ASCIIDOC_ANCHOR = re.compile(r"\[\[[^\[\]]*\]\]")
# A heading of plain text in capitals: at the start of its line, short, with letters and no lower case.
_CAPS_HEADING = re.compile(r"^[A-Z][A-Z0-9 &/,'()-]{1,48}[A-Z0-9)]\s*$")


def _indented_below(lines: list[str], i: int) -> bool:
    """Whether the first line with text after line ``i`` is indented (the heading's section body)."""
    for line in lines[i + 1 : i + 3]:
        if line.strip():
            return line[:1].isspace()
    return False


# ---- AsciiDoc, in plain text ----------------------------------------------------------------------------

# Lines only AsciiDoc writes: titles ("== Options"), attribute entries (":toc: left"), block attributes
# ("[source,bash]", "[[anchor]]"), tables ("|==="), block macros ("include::x[]"); and its inline links
# ("linkgit:git-log[1]", "link:x.html[text]", "<<ref,text>>"). Two of them and a text file is AsciiDoc.
_ASCIIDOC_LINE_SIGNS = re.compile(
    r"^(?:={1,6} \S|:[\w-]+:(?: |$)|\[(?:verse|source|listing|literal|quote|NOTE|TIP|IMPORTANT|WARNING|CAUTION|"
    r"cols|options|horizontal|glossary|appendix|preface|abstract|discrete|example|sidebar|subs)\b[^\]]*\]$|"
    r"\[\[[\w:.-]+(?:,[^\]]*)?\]\]$|\|===$|(?:include|image|ifdef|ifndef|ifeval|endif|toc)::\S*\[.*\]$)", re.M)
_ASCIIDOC_INLINE_SIGNS = re.compile(r"linkgit:[\w-]+\[\d\]|<<[\w:.-]+(?:,[^>\n]*)?>>|link:\S+\[")


def _is_asciidoc(text: str) -> bool:
    signs = itertools.chain(_ASCIIDOC_LINE_SIGNS.finditer(text, 0, 200_000),
                            _ASCIIDOC_INLINE_SIGNS.finditer(text, 0, 200_000))
    return len(list(itertools.islice(signs, 2))) == 2


# A listing ("----"), a literal block ("...."), a passthrough ("++++"): code, closed by the same line.
_ASCIIDOC_CODE = re.compile(r"-{4,}|\.{4,}|\+{4,}")
# What shows nothing of its own: an attribute entry, a block's attributes or anchor, a block macro
# (text included from another file, a condition, a picture), the delimiters of an example, sidebar,
# quote or open block, the "+" that joins a list item to the block below it.
_ASCIIDOC_MARKS = frozenset("-./|:[=*_+")  # the first characters of those lines, but for block macros ("x::")
_ASCIIDOC_ENTRY = re.compile(r"^:([\w-]+)!?:[ \t]*(.*?)\s*$")
_ASCIIDOC_HIDDEN = re.compile(r"^(?:\[[^\[\]]*\]|\[\[[^\[\]]+\]\]|[\w-]+::\S*\[.*\]|={4,}|\*{4,}|_{4,}|--|\+)\s*$")
# A block's title, ".Options by name"; not a path starting a line (".git/objects/").
_ASCIIDOC_DELIMITER = re.compile(r"={4,}|\*{4,}|_{4,}|--")
_ASCIIDOC_BLOCK_TITLE = re.compile(r"^\.(?![\w.-]*/)([^\s.].*)$")
_ASCIIDOC_CELL = re.compile(r"(?:^|(?<=\s))(?:\d*(?:\.\d+)?[*+])?[<^>]?(?:\.[<^>])?[adehlmsv]?(?<!\\)\|")
_ASCIIDOC_ADMONITION = re.compile(r"^(NOTE|TIP|IMPORTANT|WARNING|CAUTION): ")
# The attributes every document has: characters AsciiDoc cannot write as themselves ("{caret}", "{litdd}").
_ASCIIDOC_BUILTIN = {"caret": "^", "litdd": "--", "asterisk": "*", "tilde": "~", "startsb": "[", "endsb": "]",
                     "plus": "+", "nbsp": "\xa0", "sp": " ", "empty": "", "amp": "&", "lt": "<", "gt": ">",
                     "apos": "'", "quot": '"', "vbar": "|", "brvbar": "|", "backslash": "\\", "backtick": "`",
                     "two-colons": "::", "two-semicolons": ";;", "cpp": "C++", "zwsp": "\u200b", "deg": "°",
                     "pp": "++", "wj": "\u2060"}
_ASCIIDOC_ATTRIBUTE = re.compile(r"\{([\w-]+)\}")
# Code (`--jobs`, +literal+) and addresses, shown as written; an address's "[text]" is read as a link.
_ASCIIDOC_VERBATIM = re.compile(r"(`+).+?\1|(?<![\w+])\+[^+\s](?:[^+]*[^+\s])?\+(?![\w+])|"
                                r"\b(?:https?|ftp|file|irc)://[^\s\[\]<>]+", re.S)
# Links and the macros that show text: <<ref,text>>, link:target[text], linkgit:git-log[1],
# https://x.org[text], kbd:[Ctrl+C], image:logo.png[alt], footnote:[text].
_ASCIIDOC_LINK = re.compile(
    r"<<(?P<ref>[^,>\s]+)(?:,\s*(?P<reftext>[^>]*))?>>|"
    r"\b(?P<macro>linkgit|link|xref|mailto|kbd|btn|image|icon|pass|footnote|indexterm2?|anchor):"
    r"(?P<target>[^\s\[\]]*)\[(?P<text>[^\]]*)\]|"
    r"\b(?P<url>(?:https?|ftp|file|irc)://[^\s\[\]<>]+)\[(?P<urltext>[^\]]*)\]")


def _asciidoc_block(lines: list[str], i: int, attributes: dict[str, str], starts: bool) -> tuple[int, str, str] | None:
    """When line ``i`` is AsciiDoc's block markup: the line after it, the kind of block it makes ("code",
    "table", "text" for a block's title; "comment", or "" for markup that shows nothing) and its text.
    Attribute entries go to ``attributes``. ``starts``: whether the line starts a block (a title may)."""
    line = lines[i].rstrip()
    if line[:1] not in _ASCIIDOC_MARKS and "::" not in line:
        return None  # most lines: text
    if _ASCIIDOC_CODE.fullmatch(line) or (line.startswith("////") and not line.strip("/")):
        end = next((j for j in range(i + 1, len(lines)) if lines[j].rstrip() == line), len(lines))
        return end + 1, "comment" if line[0] == "/" else "code", "\n".join(lines[i + 1 : end])
    if line.startswith("//") and not line.startswith("///"):
        return i + 1, "comment", ""
    if line == "|===":
        end = next((j for j in range(i + 1, len(lines)) if lines[j].rstrip() == "|==="), len(lines))
        above = lines[i - 1] if i else ""
        return end + 1, "table", "\n".join(_asciidoc_table(lines[i + 1 : end], above))
    if (entry := _ASCIIDOC_ENTRY.match(line)) is not None:
        attributes[entry.group(1).lower()] = entry.group(2)
        return i + 1, "", ""
    if _ASCIIDOC_HIDDEN.match(line):
        return i + 1, "", ""
    if starts and (title := _ASCIIDOC_BLOCK_TITLE.match(line)) is not None:
        return i + 1, "text", title.group(1)
    return None


def _asciidoc_table(lines: list[str], above: str) -> list[str]:
    """A table's rows as "cell | cell": as many cells a row as its "cols" says, or as its first line holds."""
    cells: list[str] = []
    columns = 0
    for line in lines:
        parts = _ASCIIDOC_CELL.split(line)
        if cells and parts[0].strip():
            cells[-1] += " " + parts[0].strip()  # a cell's text on more than one line
        cells += [" ".join(part.replace("\\|", "|").split()) for part in parts[1:]]
        columns = columns or len(parts) - 1
    if (spec := re.search(r"cols=\"?([^\"\]]*)", above)) is not None:
        columns = sum(int(c.split("*")[0]) if re.match(r"\d+\*", c) else 1 for c in spec.group(1).split(",")) or columns
    columns = max(columns, 1)
    return [" | ".join(cells[n : n + columns]) for n in range(0, len(cells), columns)]


def _shown_asciidoc(text: str, attributes: dict[str, str]) -> tuple[str, list[tuple[int, str, str]]]:
    """AsciiDoc's inline markup as the rendered page shows it: emphasis without its marks, attributes
    ("{version}") replaced, links and macros as their text, and each link's (position, anchor, href)."""
    if "*" in text or "_" in text or "{" in text:
        text = _outside(_ASCIIDOC_VERBATIM, text, lambda plain: _ASCIIDOC_ATTRIBUTE.sub(
            lambda m: attributes.get(m.group(1).lower(), _ASCIIDOC_BUILTIN.get(m.group(1), m.group(0))),
            _emphasis_off(_MD_EMPHASIS, plain)))
    if (admonition := _ASCIIDOC_ADMONITION.match(text)) is not None:
        text = admonition.group(1).capitalize() + text[len(admonition.group(1)) :]
    if "[" not in text and "<<" not in text:
        return text, []
    out: list[str] = []
    found: list[tuple[int, str, str]] = []
    length = last = 0
    code = [span.span() for span in _CODE_SPAN.finditer(text)] if "`" in text else []
    for match in _ASCIIDOC_LINK.finditer(text):
        if code and _inside(code, match.start()):
            continue
        macro, target, href = match.group("macro"), match.group("target"), ""
        if match.group("ref") is not None:  # a reference in the page, or to another: <<other.adoc#part,text>>
            anchor = match.group("reftext") or attributes.get(f"<<{match.group('ref')}>>", match.group("ref"))
            href = match.group("ref").split("#")[0] if "#" in match.group("ref") else ""
        elif match.group("url") is not None:
            anchor, href = match.group("urltext") or match.group("url"), match.group("url")
        elif macro == "linkgit":  # git's manual pages: linkgit:git-log[1] is git-log(1), beside this one
            anchor, href = f"{target}({match.group('text')})", f"{target}.txt"
        elif macro in ("link", "xref", "mailto"):
            anchor, href = match.group("text") or target, target if macro != "mailto" else ""
        else:
            anchor = "" if macro in ("anchor", "indexterm") else match.group("text")
            anchor = f"[{anchor}]" if macro == "footnote" else anchor
        before = text[last : match.start()]
        out += (before, anchor)
        length += len(before)
        if href:
            found.append((length, anchor, href))
        length += len(anchor)
        last = match.end()
    out.append(text[last:])
    return "".join(out), found


# What a reader reads, as the user would say it: "looks like binary data, not Markdown text".
_KIND_NAMES = {"text": "text", "log": "a log file", "markdown": "Markdown text", "rst": "reStructuredText",
               "csv": "CSV text", "json": "JSON text", "xml": "XML text", "html": "HTML text"}

_READERS: dict[str, Callable[[bytes, str], Document]] = {
    "text": read_text, "log": read_log, "markdown": read_markdown, "rst": read_rst, "csv": read_csv,
    "json": read_json, "xml": read_xml, "html": lambda d, n: parse_html(d, n), "pdf": read_pdf,
    "docx": read_docx,
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
    kind = SUPPORTED.get(inner.suffix.lower())
    if kind is not None:
        return kind
    if not inner.suffix or _VERSIONED.search(inner.name) or (
            inner.name.split(".")[0].lower() in _PLAIN_NAMES and not _names_a_format(inner.suffix)):
        return "text"
    shown = inner.suffix + (".gz" if is_compressed(path) else "")
    raise UnsupportedFile(f"{shown} is not a supported type")


@functools.cache
def _known_types() -> mimetypes.MimeTypes:
    return mimetypes.MimeTypes()  # Python's own table, not the machine's: the same answer everywhere


def _names_a_format(suffix: str) -> bool:
    """Whether ``suffix`` is a file format's ("notes.py", "install.sh", "notes.rtf"), not a qualifier of a
    plain name ("NEWS.Debian", "README.source"): those files are their format, not a note to read as text."""
    return _known_types().guess_type("x" + suffix.lower(), strict=False)[0] is not None


def gunzip(data: bytes, limit: int) -> bytes:
    """The file inside gzip ``data``, refused (ReadError) when damaged or larger than ``limit`` bytes once
    uncompressed: a few kilobytes can unpack to gigabytes."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as packed:
            plain = packed.read(limit + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise ReadError("a damaged or incomplete gzip file") from exc
    if len(plain) > limit:
        raise ReadError(f"too large once uncompressed (over {limit / 2**20:.0f} MB, the limit)")
    return plain


# What a ZIP archive that is no Word document is, by the part that names its kind: an Office file saved
# under the wrong name says which, so the user knows what to do with it.
_ZIP_KINDS = (("xl/workbook.xml", "an Excel workbook (save it as CSV to import it)"),
              ("ppt/presentation.xml", "a PowerPoint presentation"),
              ("content.xml", "an OpenDocument file (save it as Word .docx to import it)"),
              ("META-INF/container.xml", "an EPUB e-book"))


def _zip_kind(names: set[str]) -> str:
    return next((kind for part, kind in _ZIP_KINDS if part in names), "a ZIP archive")


# The start of an HTML page, after any comments ("<!-- saved from url=… -->", as browsers save pages).
_HTML_PAGE_START = re.compile(r"\A\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html)[\s>]", re.I | re.S)


def _is_html_page(data: bytes) -> bool:
    """Whether ``data`` (text) is a whole HTML page: it opens with <!DOCTYPE html> or <html>."""
    head = data[:2048].decode(bom_codec(data) or "utf-8", errors="ignore").lstrip("\ufeff")
    return _HTML_PAGE_START.match(head) is not None


def read_bytes(data: bytes, kind: str, name: str, cancelled: Callable[[], bool] | None = None) -> Document:
    """Read ``data`` claimed to be ``kind``; the content's own signature wins over the name.
    ``cancelled`` lets a long read (a PDF or Word document) stop early by raising Cancelled."""
    if not data.strip():
        raise ReadError("the file is empty")
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
            raise ReadError(_zip_kind(names) + (", not a Word document" if kind == "docx" else ", not a document"))
        kind = "docx"
    elif kind in ("pdf", "docx") and actual is None and _is_html_page(data):
        # a link that gave a sign-in or error page, saved under the document's name
        raise ReadError(f"an HTML page (perhaps a web page saved in place of the document), not a {kind.upper()} file")
    elif actual in ("Office 97-2003", "RTF"):
        # the formats a word processor saves in besides .docx, often renamed to it
        raise ReadError(f"{'an older Word or Office (97-2003)' if actual != 'RTF' else 'a Rich Text (RTF)'} file, "
                        f"not {'a DOCX file' if kind == 'docx' else _KIND_NAMES.get(kind, kind.upper())}: "
                        "save it as .docx in a word processor to import it")
    elif kind in ("pdf", "docx"):
        raise ReadError(f"not a {kind.upper()} file ({actual or 'text'} content)")
    elif actual is not None:
        raise ReadError(f"looks like {actual} data, not {_KIND_NAMES.get(kind, kind)}")
    elif kind not in ("html", "xml") and _is_html_page(data):
        kind = "html"  # a web page saved as "page.txt" or "notes.md": read as the page it is, not as its tags
    if kind in ("html", "xml") and b"\x00" in data and bom_codec(data) not in ("utf-16", "utf-32"):
        # Read by lxml from their bytes: a NUL is dropped here as decode_text drops it from text (HTML
        # would show U+FFFD for it, XML refuses the file).
        data = _without_nul(data)
    if kind in ("pdf", "docx"):
        doc = (read_pdf if kind == "pdf" else read_docx)(data, name, cancelled)
    else:
        doc = _READERS[kind](data, name)
    if not any(b.kind != "heading" and b.text.strip() for b in doc.blocks):
        if kind == "rst" or (kind == "text" and name.lower().endswith(".rst.txt")):
            raise NoText("no readable text found (only " + ("headings, and " if doc.blocks else "") +
                         "markup that shows none of its own: a table of contents, or text taken from other files)")
        raise NoText("no readable text found" + (" (only headings)" if doc.blocks else ""))
    return doc
