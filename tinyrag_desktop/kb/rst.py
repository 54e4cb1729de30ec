"""The reStructuredText reader, and plain text read the same way: titles underlined (or over- and
underlined), paragraphs, literal blocks, grid, simple and list tables, footnotes, links; Sphinx's
directives and roles as Sphinx shows them (a note's text, "New in version 3.2.", :pep:`8` as "PEP 8"),
what shows nothing (a table of contents, comments, targets) left out.

Plain text goes through the same reader with the markup off (``read_rst_or_text``): a README's or a
manual page's underlined and capital headings are found, and AsciiDoc (git's manuals, .adoc files) is
read as rendered: its listings, tables, attributes, block titles and links.

Split from readers.py, which picks the reader and refuses what is not text; what reStructuredText's inline
markup and directives show: rst_markup.py.
"""

from __future__ import annotations

import itertools
import re
from typing import Callable, Iterator

from .decoding import decode_text
from .inline import EMPHASIS, Found, code_bounds, emphasis_off, inside, links_in, outside, spliced
from .links import Link
from .models import Block, Document
from .rst_markup import (
    RST_CODE, RST_DIRECTIVE, RST_DOC_FIELD, RST_EXPLICIT, RST_FOOTNOTE, RST_HIDDEN, RST_SHOWS_ARGUMENTS, rst_shown,
    rst_substitutions, shown_rst, unlink_rst,
)


# ---- reStructuredText ---------------------------------------------------------------------------------

_RST_RULE = re.compile(r"^([=\-`:'\"~^_*+#<>.])\1{2,}\s*$")
# A named hyperlink target: ".. _name: href" alone on its line.
_RST_TARGET = re.compile(r"^\.\.\s+_`?([^:`]+)`?:\s+(\S+)\s*$")
# A literal, ``x``: shown as `x`, once links are read.
_RST_LITERAL = re.compile(r"``([^`]+?)``(?!`)")


def _dedented(lines: list[str]) -> str:
    """A paragraph's lines without the indent they share: a note's text under ".. note::", a manual page's
    paragraph under its heading, read as the page shows it, flush with the text around."""
    indent = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return "\n".join(line[indent:] for line in lines) if indent else "\n".join(lines)


def _skip_block(lines: list[str], i: int) -> int:
    """The index after the explicit markup block starting at line ``i``: its line and the blank or more
    deeply indented lines beneath it."""
    indent = len(lines[i]) - len(lines[i].lstrip())
    i += 1
    while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent):
        i += 1
    return i


def read_rst(data: bytes, name: str) -> Document:
    return read_rst_or_text(data, name, markup=True)


def read_rst_or_text(data: bytes, name: str, markup: bool) -> Document:
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
    substitutions = rst_substitutions(lines) if markup else {}
    attributes: dict[str, str] = {}
    delimiters: set[str] = set()  # AsciiDoc's blocks open at this line ("===="), whose same line closes them
    asciidoc = not markup and (name.lower().removesuffix(".gz").endswith((".adoc", ".asciidoc"))
                               or _is_asciidoc("\n".join(lines)))
    if asciidoc:  # <<id>> shows the title of the section anchored "[[id]]"
        attributes.update({f"<<{m.group(1)}>>": title.group(2) for n, line in enumerate(lines[:-1])
                           if line.startswith("[[") and (m := re.match(r"\[\[([^\[\],]+)[^\]]*\]\]\s*$", line))
                           and (title := _ASCIIDOC_TITLE.match(lines[n + 1]))})

    def inline(text: str) -> tuple[str, list[Found]]:
        if asciidoc:
            return _shown_asciidoc(text, attributes)
        if not markup:
            return unlink_rst(text, targets)
        text, found = unlink_rst(shown_rst(text, substitutions), targets)
        if "``" in text:  # ``literal`` as `literal`, once links are read (`x`_ is a link, ``x`` is not)
            ends = [m.end() for m in _RST_LITERAL.finditer(text)]
            found = [(at - 2 * sum(end <= at for end in ends), anchor, href) for at, anchor, href in found]
            text = _RST_LITERAL.sub(r"`\1`", text)
        return text, found

    def flush(kind: str = "text") -> None:
        nonlocal para
        if asciidoc and kind == "text" and para and _ASCIIDOC_TERM.match(para[0]):
            # a description list's terms ("-u[<mode>]::", one per line), then its text, flush as shown
            count = next((n for n, line in enumerate(para) if not _ASCIIDOC_TERM.match(line)), len(para))
            terms, para = para[:count], para[count:]
            for term in terms:
                shown, found = inline(_ASCIIDOC_TERM.match(term).group(1))
                links_in(shown, found, heading, links)
                blocks.append(Block("term", shown))
        table = para if kind == "table" else _rst_table(para) if kind == "text" and para and \
            para[0].lstrip()[:1] in "+=*" else None
        if table is not None:
            rows = []
            for row in table:
                plain, found = inline(row)
                links_in(plain, found, heading, links)
                rows.append(plain)
            blocks.append(Block("table", "\n".join(rows)))
            para = []
            return
        text = "\n".join(para).strip("\n")
        if kind == "text":
            text = _dedented(rst_shown(para)).strip("\n")
        if text.strip() and kind == "text" and not _RST_TARGET.match(text.strip()) and not (
                markup and _RST_RULE.match(text.strip())):  # a transition, shown as a rule
            text, found = inline(text.strip())
            links_in(text, found, heading, links)
            directive = RST_DIRECTIVE.match(para[0])
            term = directive is not None and directive.group(1).lower() in RST_SHOWS_ARGUMENTS and "\n" not in text
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
        directive = RST_DIRECTIVE.match(line) if line.lstrip().startswith("..") else None
        if not markup and not para and _CAPS_HEADING.match(line) and _indented_below(lines, i):
            # a manual page's or a plain README's "DESCRIPTION", its text indented beneath it
            heading = " ".join(line.split())
            blocks.append(Block("heading", heading, 1))
            caps_headings.add(len(blocks) - 1)
            i += 1
            continue
        if not line.strip():
            flush()
        elif (directive is not None and directive.group(1).lower() in RST_HIDDEN) or (
                markup and not para and directive is None and RST_EXPLICIT.match(line)
                and not RST_FOOTNOTE.match(line)) or (markup and not para and RST_DOC_FIELD.match(line)):
            flush()  # shows nothing: a table of contents, a comment, a target, the page's metadata
            i = _skip_block(lines, i)
            continue
        else:
            para.append(line)
            code = directive is not None and directive.group(1).lower() in RST_CODE
            # "Paragraph::" opens a literal block in reStructuredText; in AsciiDoc "term::" starts a
            # description whose text is indented beneath it (git's manuals), text and not code
            if code or (directive is None and line.rstrip().endswith("::") and not asciidoc):
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
# A description list's term: "--amend::", "Ctrl+C;;" (the text it describes follows, often indented).
_ASCIIDOC_TERM = re.compile(r"^(\S.*?)(?::{2,4}|;;)\s*$")
_ASCIIDOC_ADMONITION = re.compile(r"^(NOTE|TIP|IMPORTANT|WARNING|CAUTION): ")
# The attributes every document has: characters AsciiDoc cannot write as themselves ("{caret}", "{litdd}").
_ASCIIDOC_BUILTIN = {"caret": "^", "litdd": "--", "asterisk": "*", "tilde": "~", "startsb": "[", "endsb": "]",
                     "plus": "+", "nbsp": "\xa0", "sp": " ", "empty": "", "amp": "&", "lt": "<", "gt": ">",
                     "apos": "'", "quot": '"', "vbar": "|", "brvbar": "|", "backslash": "\\", "backtick": "`",
                     "two-colons": "::", "two-semicolons": ";;", "cpp": "C++", "zwsp": "\u200b", "deg": "°",
                     "pp": "++", "wj": "\u2060"}
_ASCIIDOC_ATTRIBUTE = re.compile(r"\{([\w-]+)\}")
# +literal+ and addresses, shown as written as code is (`--jobs`: outside's code=True); an address's
# "[text]" is read as a link.
_ASCIIDOC_VERBATIM = re.compile(r"(?<![\w+])\+[^+\s](?:[^+]*[^+\s])?\+(?![\w+])|"
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


def _shown_asciidoc(text: str, attributes: dict[str, str]) -> tuple[str, list[Found]]:
    """AsciiDoc's inline markup as the rendered page shows it: emphasis without its marks, attributes
    ("{version}") replaced, links and macros as their text, and each link's (position, anchor, href)."""
    if "*" in text or "_" in text or "{" in text:
        text = outside(_ASCIIDOC_VERBATIM, text, lambda plain: _ASCIIDOC_ATTRIBUTE.sub(
            lambda m: attributes.get(m.group(1).lower(), _ASCIIDOC_BUILTIN.get(m.group(1), m.group(0))),
            emphasis_off(EMPHASIS, plain)), code=True)
    if (admonition := _ASCIIDOC_ADMONITION.match(text)) is not None:
        text = admonition.group(1).capitalize() + text[len(admonition.group(1)) :]
    if "[" not in text and "<<" not in text:
        return text, []
    return spliced(text, _asciidoc_links(text, attributes))


def _asciidoc_links(text: str, attributes: dict[str, str]) -> Iterator[tuple[re.Match[str], str, str]]:
    code = code_bounds(text)
    for match in _ASCIIDOC_LINK.finditer(text):
        if code and inside(code, match.start()):
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
        yield match, anchor, href
