"""The Markdown reader: headings, paragraphs, lists, code (fenced or indented), tables as "a | b" rows,
block quotes, front matter (title, description, tags), links, wiki links and footnotes, each passage as a
Markdown viewer shows it: emphasis, escapes, HTML tags and character references read, not kept as marks.

Split from readers.py, which picks the reader and refuses what is not text.
"""

from __future__ import annotations

import html
import re
from typing import Iterator, Sequence

from .decoding import decode_text
from .errors import ReadError
from .html_encoding import bom_codec
from .inline import (
    EMPHASIS, Found, code_bounds, emphasis_off, inside, links_in, norm_space, outside, spliced,
)
from .links import Link
from .models import Block, Document


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
    above = i - 2  # the nearest line above that is not blank (not lines[:i] copied: a large file has a million)
    while above >= 0 and not lines[above].strip():
        above -= 1
    above = lines[above] if above >= 0 else ""
    return not above[:1].isspace() and not _MD_LIST_ITEM.match(above)


def _dedent_code(line: str) -> str:
    return line[1:] if line.startswith("\t") else line[4:] if line.startswith("    ") else line.strip()


def _unlink_markdown(text: str, references: dict[str, str]) -> tuple[str, list[Found]]:
    """``text`` with its links and images replaced by their text, and each link's (position in the new
    text, anchor text, href); backslash escapes ("\\*") outside code spans are read as their characters."""
    return spliced(text, _markdown_links(text, references), _md_unescape)


def _markdown_links(text: str, references: dict[str, str]) -> Iterator[tuple[re.Match[str], str, str]]:
    # "[" and "]" inside a code span (`a[0](x)`) make no link
    code = code_bounds(text)
    for match in _MD_LINK.finditer(text) if "[" in text else ():
        if code and (inside(code, match.start()) or inside(code, match.end())):
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
        yield match, _md_unescape(anchor), "" if match.group("image") else href  # an image is not a link


# A backslash escape: "\\*" is a star, not emphasis; "\\|" a bar in a table's cell.
_MD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def _md_unescape(text: str) -> str:
    """``text`` with its backslash escapes read as the characters they escape, except in code spans."""
    if "\\" not in text:
        return text
    out, last = [], 0
    for start, end in code_bounds(text):
        out += (_MD_ESCAPE.sub(r"\1", text[last:start]), text[start:end])
        last = end
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
# What is shown as written, marks and all, besides code spans (outside's code=True): an autolink
# (<https://…>), a bare address ("https://x.org/my_page_name"), a link's target ("](docs/__init__.md)").
_MD_VERBATIM = re.compile(r"<[A-Za-z][\w+.-]*:[^\s<>]*>|\b(?:[A-Za-z][\w+.-]*://|www\.)[^\s<>`*]+"
                          r"|\]\([^()\s]*", re.S)
# Where emphasis could start, a quick test before the work of reading it (see EMPHASIS).
_MD_EMPHASIS_START = re.compile(r"(?<![A-Za-z0-9*\\/])\*{1,3}[^\s*./]|(?<![\w\\/])_{1,3}[^\s_]")


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
    return outside(_MD_VERBATIM, text, _markdown_marks_off, code=True)


def _markdown_marks_off(text: str) -> str:
    if "<" in text:
        text = _MD_HTML.sub(lambda m: "" if m.group("inline") or m.group(0).startswith("<!") else " ", text)
    if "*" in text or "_" in text:
        text = emphasis_off(EMPHASIS, text)
    if "&" in text:
        text = _MD_ENTITY.sub(lambda m: html.unescape(m.group(0)), text)
    return text


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


def read_markdown(data: bytes, name: str) -> Document:
    pieces = _read_in_pieces(data) if len(data) >= PIECES_FROM_BYTES else None
    if pieces is not None:
        front, blocks, links = pieces
    else:
        lines = decode_text(data).splitlines()
        front, skip = _front_of(lines)
        lines = lines[skip:] if skip else lines
        references: dict[str, str] = {}
        _gather_references(lines, references)
        blocks, links = [], []
        _read_lines(lines, references, blocks, links, "")
    lead = [Block("text", front[key]) for key in ("description", "summary") if front.get(key)]
    if front.get("tags"):
        lead.append(Block("text", f"Tags: {front['tags']}"))
    blocks[:0] = lead
    title = front.get("title") or next((b.text for b in blocks if b.kind == "heading" and b.level == 1), name)
    return Document(title, "markdown", tuple(blocks), tuple(links))


# A Markdown file this large is read a piece at a time (_read_in_pieces), not as one text and a list of all
# its lines: a 64 MB file's million lines took more memory than its blocks.
PIECES_FROM_BYTES = 4 * 1024 * 1024
_PIECE_BYTES = 1024 * 1024  # about how much of the file is decoded and cut into lines at a time
# The front matter is looked for in a file's first lines, this many (see _front_of).
_FRONT_LINES = 200


def _front_of(lines: Sequence[str]) -> tuple[dict[str, str], int]:
    """The front matter at the start of ``lines`` (YAML, or Hugo's TOML), and how many lines it takes."""
    if lines and lines[0].strip() in ("---", "+++"):
        toml = lines[0].strip() == "+++"
        for end in range(1, min(len(lines), _FRONT_LINES)):
            if lines[end].strip() in (("+++",) if toml else ("---", "...")):
                return _front_matter(lines[1:end], _FRONT_KEY_TOML if toml else _FRONT_KEY), end + 1
    return {}, 0


def _gather_references(lines: Sequence[str], references: dict[str, str]) -> None:
    """Add the reference definitions ("[label]: href") in ``lines`` to ``references``, the first of a label
    kept: anywhere in the file, even below its use."""
    for line in lines:
        if line.lstrip().startswith("[") and (ref := _MD_REFERENCE.match(line)) is not None:
            references.setdefault(" ".join(ref.group(1).split()).casefold(), ref.group(2))


def _line_pieces(data: bytes) -> Iterator[list[str]]:
    """``data``'s lines, about _PIECE_BYTES of them at a time, as ``decode_text(data).splitlines()`` would
    cut them: each piece but the last ends after a line feed, so no line (nor a CR LF) is cut in two.
    Raises UnicodeDecodeError when ``data`` is not UTF-8 (its encoding is then guessed from all of it)."""
    at = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    while at < len(data):
        end = data.find(b"\n", at + _PIECE_BYTES) + 1 or len(data)
        yield str(data[at:end], "utf-8").splitlines()
        at = end


def _read_in_pieces(data: bytes) -> tuple[dict[str, str], list[Block], list[Link]] | None:
    """What read_markdown reads of ``data`` (its front matter, blocks and links), read a piece at a time
    (_line_pieces): only a piece's lines are held at once, and the blocks read from them. Twice: first for
    the reference definitions, which links above them use, then for the blocks. Each piece is read up to the
    last heading or paragraph it starts (see _read_lines), and the lines after it are read again with the
    next piece. None for a file that is not UTF-8, or holds NULs or a UTF-16 or UTF-32 byte order mark:
    such a file is decoded whole."""
    if bom_codec(data) in ("utf-16", "utf-32") or b"\x00" in data:
        return None
    references: dict[str, str] = {}
    head: list[str] = []  # the first lines, until there are enough to find the front matter in
    front, skip = None, 0
    try:
        for lines in _line_pieces(data):
            if front is None:
                head += lines
                if len(head) < _FRONT_LINES:
                    continue
                front, skip = _front_of(head)
                lines, head = head[skip:], []
            _gather_references(lines, references)
    except UnicodeDecodeError:
        return None
    if front is None:
        front, skip = _front_of(head)
        _gather_references(head[skip:], references)
    blocks: list[Block] = []
    links: list[Link] = []
    heading = ""
    waiting: list[str] = []  # lines not yet read for good
    due = 0  # when reading could stop nowhere in them (all in code), they are read again once twice as many wait
    for lines in _line_pieces(data):
        if skip:
            lines, skip = lines[skip:], max(skip - len(lines), 0)
        waiting += lines
        if len(waiting) >= due:
            done, heading = _read_lines(waiting, references, blocks, links, heading, more=True)
            del waiting[:done]
            due = 2 * len(waiting)
    _read_lines(waiting, references, blocks, links, heading)
    return front, blocks, links


def _read_lines(lines: list[str], references: dict[str, str], blocks: list[Block], links: list[Link],
                heading: str, more: bool = False) -> tuple[int, str]:
    """Read ``lines`` into ``blocks`` and ``links``, under ``heading``; how many lines were read, and the
    heading the next ones are under.

    With ``more``, lines follow these ones: what is read is kept only up to the last place where what stood
    before has ended and nothing after reads the lines above: an ATX heading ("## …") or a line that starts
    in its first column after a blank one (not inside code or a comment: they are read whole, and lines
    that merely look so are not reached). What comes after it may still change with the lines that follow (a
    fence or a comment closed further on): it is taken back, and the count returned is that line's, where
    reading goes on."""
    para: list[str] = []
    kind = "text"
    kept = (0, len(blocks), len(links), heading)

    def flush() -> None:
        nonlocal para, kind
        text = "\n".join(para).strip()
        if kind == "text" and text.startswith("<") and "<table" in text.lower() and (
                found_blocks := _html_table(text, heading, links)) is not None:
            blocks.extend(found_blocks)
            para, kind = [], "text"
            return
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
            links_in(text, found, heading, links)
        elif text and kind == "table":
            rows = []
            for row in para:  # a table's row is its links' sentence
                plain, found = _unlink_markdown(_md_row(row), references)
                links_in(plain, found, heading, links)
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
            if more:  # what stood before it is read for good
                kept = (i, len(blocks), len(links), heading)
            heading = norm_space(_unlink_markdown(_shown_markdown(m.group(2)), references)[0])
            blocks.append(Block("heading", heading, len(m.group(1))))
        elif para and kind == "text" and line.lstrip()[:1] in ("=", "-") and _SETEXT.match(line) and \
                not _MD_LIST_ITEM.match(para[0]):
            # a paragraph underlined, on one line or several (CommonMark), is a heading
            heading = norm_space(_unlink_markdown(_shown_markdown(" ".join(para)), references)[0])
            blocks.append(Block("heading", heading, 1 if line.lstrip()[0] == "=" else 2))
            para = []
        elif not line.strip() or (line.lstrip().startswith("[") and _MD_REFERENCE.match(line)) or (
                line.startswith("(") and _MYST_TARGET.match(line)) or (
                line.lstrip()[:1] in ("-", "*", "_") and _MD_RULE.match(line)):
            flush()  # a blank line, a reference definition, a target, a rule ("---", "* * *"): no text
            if more and i + 1 < len(lines) and lines[i + 1][:1].strip() and not line.strip():
                kept = (i + 1, len(blocks), len(links), heading)  # nothing after reads lines above the blank
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
    if more:
        done, n_blocks, n_links, heading = kept
        del blocks[n_blocks:], links[n_links:]
        return done, heading
    flush()
    return len(lines), heading


def _html_table(text: str, heading: str, links: list[Link]) -> list[Block] | None:
    """A table written in HTML into Markdown (READMEs do, for cells of several lines), read as the HTML
    reader reads one: a row a line, its cells "a | b", and its links with their row as their sentence.
    None when the HTML holds no text (then it is read as any paragraph)."""
    from .html_reader import parse_html  # lxml: only for the Markdown that holds HTML tables

    try:
        page = parse_html(text, "")
    except ReadError:
        return None
    links.extend(Link(link.href, f"{heading}: {link.text}" if heading else link.text) for link in page.links)
    return list(page.blocks)


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
