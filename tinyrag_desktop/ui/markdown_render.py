"""Markdown to the HTML subset QTextBrowser renders, with Pygments colours (where a stream is cut: markdown_cuts).

Pure Python (no Qt), so it is cheap to test. :func:`render` turns Markdown into HTML for one text segment. Fenced
code becomes a shaded table (Qt's rich text draws table backgrounds reliably, ``<pre>`` backgrounds less so) with a
"Copy code" link whose ``copy-code:N`` address indexes :attr:`Rendered.code_blocks`; a Go block also gets a "Run"
link (``run-go:N``) when running is allowed, and the outcome of its last run (a :class:`RunView`) under it.
"""

from __future__ import annotations

import html
import re
import unicodedata
import xml.etree.ElementTree as etree
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Mapping

import markdown
from markdown.inlinepatterns import InlineProcessor, SimpleTagInlineProcessor
from markdown.treeprocessors import Treeprocessor
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import TextLexer, get_lexer_by_name
from pygments.util import ClassNotFound

from ..entities import unescape
from ..markdown_prep import (INVALID_MARK_RE, LONE_BRACKET, NOT_RUN, as_plain_text, blocks_apart, controls_as_written,
                             controls_shown, images_as_links, invalid_blocks, lift_fences, lone_brackets, nest_lists,
                             put_back_fences, register_task_boxes, without_terminal_codes)
from .long_text import (COPY_CODE, SHOW_ROWS, Cut, code_cut, cut_long, joins_previous, lines_noted, notes_shown,
                        shown_above)

_CODE_RE = re.compile(r'<pre><code(?: class="language-([\w+#.-]+)")?>(.*?)</code></pre>', re.S)
_TH_RE = re.compile(r"<th(?=[ >])([^>]*)>")
_THEAD_RE = re.compile(r"<thead>.*?</thead>\n?", re.S)
# A fence the renderer opens a code block with: at the start of a line, then at most a language or {attrs}
# (Python-Markdown's fenced_code); its block ends at a line of the same fence.
_OPENER_RE = re.compile(r"^(`{3,}|~{3,})[ ]*(\{[^\n]*\}|\.?[\w#.+-]*[ ]*)$")


@dataclass(frozen=True, slots=True)
class Rendered:
    html: str
    code_blocks: tuple[str, ...]
    cuts: tuple[Cut, ...] = ()  # what is left out of the text too long to lay out, and the notes shown instead


@dataclass(frozen=True, slots=True)
class Palette:
    """Colours of rendered text; one light and one dark instance."""

    code_bg: str
    code_border: str
    link: str
    muted: str
    pygments_style: str
    table_border: str
    output_bg: str = "#fafafa"
    error: str = "#b91c1c"
    quote_bar: str = "#c3cad4"


LIGHT = Palette("#f4f6f9", "#dde2ea", "#2563eb", "#5c6370", "friendly", "#c3cad4", "#fbfbfc", "#b91c1c", "#c3cad4")
DARK = Palette("#1b1f27", "#343a46", "#7aa2f7", "#a3abb9", "monokai", "#4a5160", "#15181e", "#f87171", "#5b6476")
GO_LANGS = frozenset({"go", "golang"})
# What a code block's link (COPY_CODE) says for a moment once clicked (MarkdownSegment.copy_code)
COPIED = "Copied ✓"
# The room above a code block, a table or a quote, as between two paragraphs (Qt's 12 px); the 2 px under it
# and the next paragraph's own 12 make the same gap below (a paragraph's line has a little room above its letters)
BLOCK_GAP = 12
OUTPUT_SHOWN = 10_000  # characters of a run's output shown under its block; a long flood is summarised


@dataclass(frozen=True, slots=True)
class RunView:
    """A Go block's last run as shown under it: ``running``, or ``status`` in words and the output.

    ``source`` is the code that ran: a view only shows under a block whose code is still exactly that.
    ``output`` is the program's stdout; ``error`` the compile error, panic or limit message after it.
    """

    source: str
    running: bool = False
    status: str = ""
    output: str = ""
    error: str = ""


class _BareUrl(InlineProcessor):
    """``https://example.org/x`` written as plain text becomes a link, as in every chat app.

    Trailing punctuation (the full stop after a URL ending a sentence) stays outside the link.
    """

    def handleMatch(self, m: re.Match[str], data: str):  # noqa: N802 - Markdown's name
        link = etree.Element("a")
        link.set("href", m.group(0))
        link.text = m.group(0)
        return link, m.start(0), m.end(0)


# Its words hold no "~~": read from each "~~" to the next only ("~~a " 20,000 times, each read to the paragraph's
# end, took 18 s), and "~~a ~~b~~" strikes "b" out, as on GitHub.
_STRIKE_RE = r"(~~)(?=[^\s~])((?:[^~]|~(?!~))+?)(?<=[^\s~])~~"
# It stops at a "[" as written, and at the LONE_BRACKET that stands for one here (a "[" that opens no link).
_BARE_URL_RE = rf"\bhttps?://[^\s<>\[\]()\"'`{LONE_BRACKET}]+[^\s<>\[\]()\"'`{LONE_BRACKET}.,;:!?]"


class _ImagesAsLinks(Treeprocessor):
    """An image becomes a link named by its alt text ("Image: architecture diagram"), to its address.

    The window never fetches what an answer points at (it is local-first, and a remote image would tell a
    server that the answer was read), so Qt drew each ``<img>`` as an empty "broken page" icon and its alt
    text was lost. An image inside a link (a badge) becomes that link's words: the link says where it goes.
    """

    def run(self, root: etree.Element) -> None:
        images_as_links(root)


# The window's own links, made by render (a code block's Copy code, Run and Stop) and a long table's note (Show all
# N rows, see long_text.fold_note): a segment acts on them
ACTION_SCHEMES = ("copy-code", "run-go", "stop-go", SHOW_ROWS)
_SCHEME_RE = re.compile(r"[\x00-\x20]*([A-Za-z][A-Za-z0-9+.-]*):")


class _NoActionLinks(Treeprocessor):
    """A link the model writes to one of the window's own actions ("[the install guide](copy-code:0)") is its
    words only: clicked, it copied a code block that was never chosen (a command planted for a later paste),
    or ran a Go block; its tooltip said nothing of where it went. Only render's own links may act."""

    def run(self, root: etree.Element) -> None:
        for link in root.iter("a"):
            scheme = _SCHEME_RE.match(unescape(link.get("href") or ""))
            if scheme is not None and scheme.group(1).lower() in ACTION_SCHEMES:
                link.tag = "span"
                link.attrib.clear()


@lru_cache(maxsize=4)
def _md() -> markdown.Markdown:
    md = markdown.Markdown(extensions=["fenced_code", "tables", "sane_lists"], output_format="html")
    # Raw HTML in model output is text: an invalid tool block must show as written (the spec says so),
    # and markup the model writes must not restyle or break the window.
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    # After code spans, links and <autolinks> (which stash what they match), so a URL inside them is left be.
    md.inlinePatterns.register(_BareUrl(_BARE_URL_RE, md), "bare_url", 100)
    # ~~struck out~~ (GitHub's Markdown, which models write): Qt's rich text draws <s>, not <del>.
    md.inlinePatterns.register(SimpleTagInlineProcessor(_STRIKE_RE, "s"), "strike", 70)
    md.treeprocessors.register(_ImagesAsLinks(md), "images_as_links", 15)  # after "inline" (20) made them
    md.treeprocessors.register(_NoActionLinks(md), "no_action_links", 14)  # after images became links
    register_task_boxes(md)  # after "inline" too: code keeps "[ ]"
    return md


_INLINE_CODE_RE = re.compile(r"`([^`\n]+)`")


def inline_code_html(text: str) -> str:
    """A message in plain words for a rich-text label: escaped, with `backticked` commands in monospace."""
    return _INLINE_CODE_RE.sub(lambda m: f"<code>{m.group(1)}</code>", html.escape(text, quote=False))


@lru_cache(maxsize=64)
def _lexer(lang: str):
    try:
        return get_lexer_by_name(lang, stripnl=False) if lang else TextLexer(stripnl=False)
    except ClassNotFound:
        return TextLexer(stripnl=False)


def _highlight(code: str, lang: str, palette: Palette) -> str:
    formatter = HtmlFormatter(noclasses=True, nowrap=True, style=palette.pygments_style)
    coloured = highlight(code, _lexer(lang.lower()), formatter)
    return coloured if code.isascii() else _ITALIC_SPAN.sub(_upright_if_no_italic, coloured)


_ITALIC_SPAN = re.compile(r'<span style="([^"]*?)(?:; )?font-style: italic([^"]*)">([^<]*)</span>')


def _upright_if_no_italic(span: re.Match[str]) -> str:
    """A comment (the styles draw comments in italic) in Arabic, Hebrew, Chinese or another script that has
    no italic is drawn upright: the italic monospace font has none of its letters, and Qt drew boxes."""
    text = span.group(3)
    if not any(char.isalpha() and ord(char) >= 0x590 and not 0x1E00 <= ord(char) <= 0x1FFF for char in text):
        return span.group(0)
    return f'<span style="{span.group(1)}{span.group(2)}">{text}</span>'


def render(text: str, palette: Palette = LIGHT, first_code_index: int = 0, *, run_go: bool = False,
           runs: Mapping[int, RunView] | None = None, partial: tuple[bool, bool] = (False, False),
           carried: str = "", headless: bool = False) -> Rendered:
    """Markdown → HTML for QTextBrowser; code blocks numbered from ``first_code_index``.

    With ``run_go``, each ```go block gets a Run link. The streaming view cuts a very long block in pieces
    (``partial``: the first block continues the previous segment, the last one goes on in the next); only
    the last piece gets the link, and ``carried`` is the code of the pieces before it, so Run runs the
    whole program. ``runs`` holds the outcome to show under a block, by its number. ``headless``: the text
    starts with a table's header row and rule that a previous segment showed (the streaming view cut a long
    table, see freeze_point); the table is drawn without them, as the rows that go on from there.
    """
    text, still_open = _closed(without_terminal_codes(text))
    if still_open:  # the block goes on (it is being streamed): no Run link on half a program
        partial = (partial[0], True)
    text = _tabs_marked(text)
    text, invalid = invalid_blocks(text)
    text, lifted, lifted_open = lift_fences(text)  # code fenced in a list item
    if lifted_open:
        partial = (partial[0], True)
    md = _md()
    md.reset()
    shown, cut = cut_long(nest_lists(blocks_apart(text)))  # a paragraph or table row too long to lay out: its start
    try:
        body = md.convert(lone_brackets(shown))
    except RecursionError:  # nested deeper than the caps of markdown_prep know: the text as written
        body = as_plain_text(text.replace(_TAB_MARK, "\t"))
        cut = []  # (all of it shown)
        _md.cache_clear()  # its parser was left inside the lists it was reading: every later list ran on
    body = put_back_fences(body.replace(LONE_BRACKET, "[") if LONE_BRACKET in body else body, lifted)
    if headless and body.startswith("<table>"):  # (a header Python-Markdown did not take as one stays)
        body = _THEAD_RE.sub(lambda head: shown_above(head.group(0), cut), body, count=1)
    body = body.replace('<a href="', f'<a style="color:{palette.link}" href="')
    body = _show_invalid_blocks(body, invalid, palette)
    body = notes_shown(body, cut, palette.muted)
    blocks: list[str] = []
    total = body.count("<pre><code") if run_go and partial[1] else 0

    def code(match: re.Match[str]) -> str:
        lang = match.group(1) or ""
        source = _code_unescaped(match.group(2)).replace(_TAB_MARK, "\t")
        index = first_code_index + len(blocks)
        # Copy code and Run take its tabs (a Makefile's recipe lines need them) and its form feeds as written
        blocks.append(controls_as_written(source))
        visible, notes = code_cut(source)  # its lines too long to lay out: their start
        cut.extend(notes.values())
        coloured = lines_noted(_highlight(visible.expandtabs(4), lang, palette).rstrip("\n"), notes, palette.muted)
        label = html.escape(lang) if lang else "code"
        continued = partial[0] and len(blocks) == 1
        whole = (carried or not continued) and not (partial[1] and len(blocks) == total)
        run = (runs or {}).get(index) if run_go and whole and lang.lower() in GO_LANGS else None
        if run is not None and run.source != (carried + source if continued else source):
            run = None  # the block changed since it ran: its old output no longer belongs to it
        link = f'style="font-size:small; color:{palette.link}"'
        actions = f'<a href="copy-code:{index}" {link}>{COPY_CODE}</a>'
        if run_go and whole and lang.lower() in GO_LANGS:
            actions += (f'&nbsp;&nbsp;<a href="stop-go:{index}" {link}>Stop</a>' if run and run.running
                        else f'&nbsp;&nbsp;<a href="run-go:{index}" {link}>Run</a>')
        return (
            f'<table width="100%" cellspacing="0" cellpadding="8" border="0" bgcolor="{palette.code_bg}" '
            f'style="margin-top:{BLOCK_GAP}px; margin-bottom:2px; border: 1px solid {palette.code_border}">'
            f'<tr><td><span style="color:{palette.muted}; font-size:small">{label}</span>&nbsp;&nbsp;{actions}'
            # dir="ltr": code runs left to right even when a line starts with an Arabic or Hebrew comment
            # or string (on the <pre>: on the table, Qt also turned the paragraph after it left to right).
            # white-space:pre: a code line is never wrapped; a block wider than the answer scrolls sideways
            # (MarkdownSegment). Wrapped at the answer's edge, a line broke at any letter.
            f'<pre dir="ltr" style="margin:0; white-space:pre; font-family:{MONO_FAMILY}">{coloured}</pre>'
            f"</td></tr>{_run_row(run, palette) if run else ''}</table>"
        )

    body = _CODE_RE.sub(code, body)
    # Only inline code is left; Qt draws a background on a span, not on <code> itself.
    body = body.replace("<code>", f'<code><span style="background-color:{palette.code_border}">')
    body = body.replace("</code>", "</span></code>")
    body = body.replace("<table>", '<table border="1" cellspacing="0" cellpadding="5" '
                                   f'style="border-color:{palette.table_border}; border-style:solid; '
                                   f'border-collapse:collapse; margin-top:{BLOCK_GAP}px; margin-bottom:0px">')
    body = _TH_RE.sub(lambda th: _header_cell(th, palette), body)
    body = _quotes(body, palette)
    return Rendered(_breakable(_rtl_blocks(controls_shown(body))), tuple(blocks), tuple(cut))


def _code_unescaped(code: str) -> str:
    """A code block's text from its HTML, where Python-Markdown escaped only "&", "<", ">" and '"' (and
    put_back_fences the first three), each "&" the start of one of these: as html.unescape reads it, at C speed
    (html.unescape called Python for each one: a minified script's 400,000 quotes took 0.3 s)."""
    if "&" not in code:
        return code
    return code.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")


def _header_cell(th: re.Match[str], palette: Palette) -> str:
    """A table's header cell, shaded, aligned as the cells of its column: Qt centres a <th>, its cells (and
    Markdown) start on the left (a right-to-left table's on the right, see _rtl_tables); a column the alignment
    row sets right or centre has its style already."""
    attributes = th.group(1)
    align = "" if "text-align" in attributes else ' align="left"'
    return f'<th bgcolor="{palette.code_bg}"{align}{attributes}>'


def _show_invalid_blocks(body: str, found: list[tuple[str, str]], palette: Palette) -> str:
    """Each mark of invalid_blocks as its block, in code, with why it was not run.

    In a heading they are set at the body's size and weight, as elsewhere: in the heading's, the block
    filled three lines of large bold code ("# Heading with <tool …></tool> inside")."""
    if not found:
        return body

    def shown(match: re.Match[str]) -> str:
        if int(match.group(1)) >= len(found):  # the model's own text, not a mark of ours
            return match.group(0)
        raw, reason = found[int(match.group(1))]
        return (f"<code>{html.escape(raw, quote=False)}</code> <span style=\"color:{palette.muted}; font-size:small\">"
                f"{html.escape(NOT_RUN.format(reason=reason), quote=False)}</span>")

    def in_heading(match: re.Match[str]) -> str:
        return f'<span style="font-size:medium; font-weight:normal">{shown(match)}</span>'

    body = _HEADING_RE.sub(lambda heading: INVALID_MARK_RE.sub(in_heading, heading.group(0)), body)
    return INVALID_MARK_RE.sub(shown, body)


_HEADING_RE = re.compile(r"<h([1-6])[ >].*?</h\1>", re.S)


def _quotes(body: str, palette: Palette) -> str:
    """Block quotes drawn as chat apps draw them: a coloured bar down the side their text starts from (the
    left, or the right for a quote in Arabic or Hebrew), the text beside it.

    Qt's rich text only indents a <blockquote> (no border on a block), so a quote read as a stray indented
    paragraph. A table of two cells, one a narrow bar, draws one, nested quotes each their own. Qt lays a
    table's cells out left to right whatever its direction: a right-to-left quote's bar is its last cell (it
    was drawn on the left, away from the text at the right edge)."""
    if "<blockquote>" not in body:
        return body
    bar = f'<td width="3" bgcolor="{palette.quote_bar}"></td>'
    tags = list(_QUOTE_TAG.finditer(body))
    rtl: dict[int, bool] = {}  # each opening tag's position: whether its quote's text runs right to left
    opened: list[re.Match[str]] = []
    for tag in tags:
        if not tag.group(1):
            opened.append(tag)
        elif opened:
            start = opened.pop()
            rtl[start.start()] = is_right_to_left(unescape(_TAG.sub(" ", body[start.end():tag.start()])))
    out: list[str] = []
    at, directions = 0, []  # each quote open: whether its bar is on the right; None: drawn as none (too deep)
    for tag in tags:
        out.append(body[at:tag.start()])
        at = tag.end()
        if tag.group(1):  # </blockquote>
            right = directions.pop() if directions else False
            # The bar last, empty, Qt lost the gap below the quote (the next paragraph touched it): a space too
            # small to widen the bar keeps it.
            out.append("" if right is None else
                       f'</td>{bar[:-5]}<span style="font-size:1px">&nbsp;</span></td></tr></table>' if right
                       else "</td></tr></table>")
            continue
        if len(directions) >= QUOTE_BARS:
            directions.append(None)  # its text goes on in the deepest bar's cell
            continue
        right = rtl.get(tag.start(), False)
        directions.append(right)
        # A paragraph's gap above it, as above a code block or a table (Qt leaves out the margin under the
        # paragraph or list before a table); a quote that opens another one's starts close under its top.
        gap = 6 if _IN_QUOTE.search(body, max(0, tag.start() - 64), tag.start()) else BLOCK_GAP
        out.append(f'<table width="100%" cellspacing="0" cellpadding="0" border="0" style="margin-top:{gap}px; '
                   f'margin-bottom:2px"><tr>{"" if right else bar}'
                   f'<td style="padding-{"right" if right else "left"}:10px; color:{palette.muted}">')
    out.append(body[at:])
    return "".join(out)


# Bars drawn for quotes in quotes at most: Qt lays out a table in a table twice over, so each level doubled the
# time (">" written 20 times froze the window 15 s, 22 times a minute); a quote deeper shows in the last bar.
QUOTE_BARS = 8
_QUOTE_TAG = re.compile(r"<(/?)blockquote>")
_IN_QUOTE = re.compile(r"<blockquote>\s*$")


# A tab inside a fenced code block, kept from Markdown, which turns every tab into spaces before it reads the
# block: a copied Makefile recipe or Go code lost its tabs. A private-use character no text has.
_TAB_MARK = "\ue0f1"


def _tabs_marked(text: str) -> str:
    """``text`` with the tabs inside its fenced code blocks as _TAB_MARK (render puts them back)."""
    if "\t" not in text:
        return text
    out, fence = [], ""
    for line in text.split("\n"):
        if fence:
            if line.rstrip(" ") == fence:
                fence = ""
            else:
                line = line.replace("\t", _TAB_MARK)
        elif m := _OPENER_RE.match(line):
            fence = m.group(1)
        out.append(line)
    return "\n".join(out)


def code_left_open(text: str) -> bool:
    """Whether ``text`` ends inside a fenced code block."""
    return _closed(text)[1]


def _closed(text: str) -> tuple[str, bool]:
    """``text`` with a code block left open at its end closed, and whether one was.

    The renderer shows an unclosed fence as text: while a block streamed in, it read "```python print(0)
    print(1)" as one paragraph, then jumped into its box when the closing fence came. CommonMark runs an
    unclosed block to the end of the text, which is also how a block being streamed should look.
    """
    fence = ""
    for line in text.split("\n"):
        if fence:
            if line.rstrip(" ") == fence:
                fence = ""
        elif m := _OPENER_RE.match(line):
            fence = m.group(1)
    if not fence:
        return text, False
    return text + ("" if text.endswith("\n") else "\n") + fence + "\n", True


_BLOCK_OPEN = re.compile(r"<(p|h[1-6]|li|td|th)(?=[ >])")
_TAG = re.compile(r"<[^>]*>")
RTL_CHAR = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]|[\U00010800-\U00010fff\U0001e800-\U0001efff]")


def _first_strong(text: str) -> str:
    """The direction of the first strong character of ``text``: "R" (Arabic, Hebrew…), "L" (Latin, Greek,
    CJK…), or "" when it has none (digits, punctuation, nothing)."""
    for char in text[:2000]:
        kind = unicodedata.bidirectional(char)
        if kind in ("R", "AL", "L"):
            return "L" if kind == "L" else "R"
    return ""


def is_right_to_left(text: str) -> bool:
    """True when the first strong character of ``text`` is Arabic, Hebrew or another right-to-left script."""
    return _first_strong(text) == "R"


def _starts_left_to_right(text: str) -> bool:
    """True when the first strong character of ``text`` is of a left-to-right script (Latin, Greek, CJK…)."""
    return _first_strong(text) == "L"


def _rtl_blocks(body: str) -> str:
    """Mark each paragraph, heading, list item and cell whose text starts in Arabic or Hebrew ``dir="rtl"``.

    Qt finds a paragraph's direction from its first letter by itself, but the <pre dir="ltr"> that keeps code
    left to right also turned the paragraph after the code block left to right; a stated direction holds.
    """
    if not RTL_CHAR.search(body):
        return body  # the usual case costs one regular-expression scan

    def mark(match: re.Match[str]) -> str:
        tag = match.group(1)
        end = body.find(f"</{tag}>", match.end())
        inner = body[match.end():end if end >= 0 else match.end() + 2000]
        text = unescape(_TAG.sub("", inner.split(">", 1)[1] if ">" in inner else inner))
        if is_right_to_left(text):
            return match.group(0) + ' dir="rtl"'
        # A paragraph in English right after a right-to-left table or quote: Qt ran it right to left too
        # (".English" at the right edge) unless told otherwise.
        return match.group(0) + ' dir="ltr"' if tag[0] in "ph" and _starts_left_to_right(text) else match.group(0)

    return _rtl_tables(_BLOCK_OPEN.sub(mark, body))


_MD_TABLE = re.compile(r'<table border="1"(.*?)</table>', re.S)
_ROW = re.compile(r"(<tr[^>]*>)(.*?)(</tr>)", re.S)
_CELL = re.compile(r"<(t[hd])(?=[ >]).*?</\1>", re.S)
_TH_LEFT = re.compile(r'(<th [^>]*?) align="left"')


def _rtl_tables(body: str) -> str:
    """A table whose text starts in Arabic or Hebrew runs right to left: its first column on the right, the
    table at the answer's right edge. Qt lays a table's columns out left to right whatever its direction, so
    each row's cells are put in the opposite order (a table too wide for the answer starts scrolled to its
    right end, see wide_blocks)."""

    def table(match: re.Match[str]) -> str:
        if not is_right_to_left(unescape(_TAG.sub(" ", match.group(1).split(">", 1)[-1]))):
            return match.group(0)
        rows = _ROW.sub(lambda row: row.group(1) + "".join(reversed([cell.group(0) for cell in
                                                                      _CELL.finditer(row.group(2))]))
                        + row.group(3), match.group(0))
        rows = _TH_LEFT.sub(r'\1 align="right"', rows)  # its headers on the side its cells start from
        return rows.replace('<table border="1"', '<table border="1" dir="rtl" align="right"', 1)

    return _MD_TABLE.sub(table, body)


_TEXT_NODE = re.compile(r">([^<]{200,})<")
_LONG_RUN = re.compile(r"[^\s<>&]{200,}")
# Text outside code: a word longer than this may not fit the narrowest answer (the view wraps between words
# only), so it gets break points too: an address, a path, a hash.
_PROSE_WORD = 32
_PROSE_NODE = re.compile(r">([^<]{%d,})<" % _PROSE_WORD)
_PROSE_RUN = re.compile(r"[^\s<>&]{%d,}" % _PROSE_WORD)
# Code keeps its words whole (it scrolls sideways), but runs too long to lay out quickly; tables: see _CELL_PIECE
_KEEP_WORDS = re.compile(r'<pre[ >].*?</pre>|<table border="1".*?</table>', re.S)
# Break points every so many characters: a line of such a word ends at most this many short of the edge.
# Every 80 left lines of 52 and 28 characters in turn where 52 fit (each piece longer than the line was
# broken anywhere, and the rest began a line of its own).
_BREAK_EVERY = 8
BREAK_POINT = "\u200b"  # a zero-width space: see _breakable


def _breakable(body: str) -> str:
    """Let Qt wrap words too long for a line (a base64 blob, a line of "=" signs): a zero-width space every
    _BREAK_EVERY characters of such a run, in text only (never inside a tag: links keep their address).

    Qt lays out a word it cannot break in time that grows with its square: a 200 KB one took 0.7 s, a
    1 MB one half a minute, the window frozen. Copying is unaffected: Copy and Copy code use the source,
    and a selection is copied without the break points (MarkdownSegment.createMimeDataFromSelection).
    """
    if len(body) < _PROSE_WORD:
        return body

    def node(match: re.Match[str]) -> str:
        return ">" + _LONG_RUN.sub(_with_breaks, match.group(1)) + "<"

    def words(whole: int) -> Callable[[re.Match[str]], str]:  # running text's, or a table cell's
        return lambda node: ">" + _PROSE_RUN.sub(lambda run: _prose_breaks(run, whole), node.group(1)) + "<"

    prose, cell = words(_WHOLE_PIECE), words(_CELL_PIECE)

    if "<pre" not in body and "<table" not in body:
        return _PROSE_NODE.sub(prose, body)
    out, at = [], 0
    for kept in _KEEP_WORDS.finditer(body):
        block = kept.group(0)
        out += [_PROSE_NODE.sub(prose, body[at:kept.start()]),
                _PROSE_NODE.sub(cell, block) if block.startswith("<table") else _TEXT_NODE.sub(node, block)]
        at = kept.end()
    out.append(_PROSE_NODE.sub(prose, body[at:]))
    return "".join(out)


# A long word of running text breaks after these, as a browser breaks an address: "…/tinyrag/|configuration/…"
_AFTER_SEPARATOR = re.compile(r"(?<=[/\\._\-?&=,;:#@+|])(?=.)")
# A piece between them longer than this cannot fit a narrow answer's line whole: it gets break points every
# _BREAK_EVERY. Shorter ones (a long German compound) go whole to the next line, unbroken.
_WHOLE_PIECE = 48
# A table's column is as wide as its longest piece when the table does not fit: a table with a dotted name
# and a hash in its cells was 1,300 px wide (a SHA-1, 40 characters, is some 300 px).
_CELL_PIECE = 24


def _prose_breaks(run: re.Match[str], whole: int = _WHOLE_PIECE) -> str:
    """Break points in a long word of running text or a table's cell (not code): after its separators, and every
    _BREAK_EVERY characters of a piece longer than ``whole`` (throughout, "/home/me/c|onfig" broke a name)."""
    word = run.group(0)
    if len(word) >= 200:  # the long runs Qt lays out slowly: as in code (see _breakable)
        return _with_breaks(run)
    pieces = _AFTER_SEPARATOR.split(word)
    return BREAK_POINT.join(_broken(piece) if len(piece) > whole else piece for piece in pieces)


def _with_breaks(run: re.Match[str]) -> str:
    return _broken(run.group(0))


def _broken(word: str) -> str:
    """``word`` with a break point every _BREAK_EVERY characters (never inside a letter and its accents)."""
    if word.isascii():
        return BREAK_POINT.join(word[i:i + _BREAK_EVERY] for i in range(0, len(word), _BREAK_EVERY))
    pieces, start, at = [], 0, _BREAK_EVERY
    while at < len(word):
        while at < len(word) and joins_previous(word[at - 1], word[at]):
            at += 1  # not between a letter and its accent, nor inside an emoji sequence
        pieces.append(word[start:at])
        start, at = at, at + _BREAK_EVERY
    pieces.append(word[start:])
    return BREAK_POINT.join(piece for piece in pieces if piece)


MONO_FAMILY = "'DejaVu Sans Mono',monospace"  # code blocks' font: also code passages' (kb_results)


def _run_row(run: RunView, palette: Palette) -> str:
    """The muted row under a Go block: "Running…", or the outcome in words, stdout, then the error."""
    head = "Running…" if run.running else f"Output · {html.escape(run.status)}"
    if run.running and not run.output:
        text = ""
    else:  # while it runs, what it has printed so far
        # The error (a panic, a limit) says why the program ended: it keeps its room, and a flood of output
        # is cut in the rest. Cutting is no failure: its note is muted, and only the error is red.
        err = _cut_at_line(run.error.rstrip(), OUTPUT_SHOWN // 4)
        out = _cut_at_line(run.output.rstrip("\n"), OUTPUT_SHOWN - len(err))
        parts = []
        for shown, whole, colour in ((out, run.output.rstrip("\n"), ""), (err, run.error.rstrip(), palette.error)):
            if not shown.strip():
                continue
            part = html.escape(shown)
            parts.append(f'<span style="color:{colour}">{part}</span>' if colour else part)
            if len(shown) < len(whole):
                more = len(whole) - len(shown)
                parts.append(f'<span style="color:{palette.muted}">… {more:,} more character'
                             f'{"s" if more != 1 else ""} not shown</span>')
        text = "\n".join(parts)
        if not text and not run.running:
            text = f'<span style="color:{palette.muted}">(no output)</span>'
    pre = (f'<pre dir="ltr" style="margin:0; white-space:pre-wrap; font-family:{MONO_FAMILY}">{text}</pre>'
           if text else "")
    # A second row of the code's own table: one box, the output set apart by its lighter shade.
    return (f'<tr><td bgcolor="{palette.output_bg}"><span style="color:{palette.muted}; font-size:small">{head}'
            f"</span>{pre}</td></tr>")


def _cut_at_line(text: str, limit: int) -> str:
    """``text`` up to ``limit`` characters, cut after the last whole line that fits (a line cut in the middle
    read as if the program had printed half of it); a first line longer than ``limit`` is cut where it must."""
    if len(text) <= limit:
        return text
    end = text.rfind("\n", 0, limit + 1)
    return text[:end] if end > 0 else text[:limit]


_warm = False


def warm_up() -> None:
    """Load Markdown's extensions and the common Pygments lexers once, at start-up, not at the first
    code block of the first answer (loading them costs ~100 ms, a visible stall mid-stream)."""
    global _warm
    if _warm:
        return
    _warm = True
    sample = "# h\n\n- a\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
    for lang in ("python", "go", "sh", "js", "json", ""):
        sample += f"```{lang}\nx = 1\n```\n\n"
    for palette in (LIGHT, DARK):
        render(sample, palette)
