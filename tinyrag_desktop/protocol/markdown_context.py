"""Where in Markdown a place of the text is, read from the text before it: shared by the parser and the think splitter.

Both read a stream, so they decide from what came before alone, and any cut of the stream decides the same.
``ListState`` says, as CommonMark does, whether a line is a line of an indented code block: four columns in,
after a blank line or at the start of the text (not a paragraph's next line), or four more than the content of
the innermost list item it is in ("- a", a blank line, then "····x" is the item's second paragraph, not code;
"····- b" there is a nested item, whose text is further in still). It keeps the items open as the lines come,
each line read once, so a list item's marker however far up counts. ``construct`` says what a tool block
starting at a place is written inside, which spec rule 5 forbids ("the XML must not be wrapped in … any
Markdown construct"):

- a quote: the block's line starts with ">" (after at most three spaces);
- a list item: the block's line starts with a list marker ("-", "*", "+", "1.", "1)") and a space, however
  far in (with no space there is no marker: "-<tool …>" and "1.<tool …>" are a paragraph's text, and run);
  a block on a later line of the item, indented under it or not ("- a", then "<tool …>": models often put a
  call on the line after a list), is not in it by this rule, and runs;
- a table row: the block's line starts with "|" (after at most three spaces), "| <tool …> | x |";
- a heading: the block's line starts with one to six "#" and a space (after at most three spaces);
- emphasis: a run of one to three "*" or "_" just before "<tool ", at the start of the text or after a space
  or a punctuation mark ("**<tool …", "_<tool …"), as Markdown opens emphasis; nothing is waited for after
  "</tool>" (rule 2: the call's fate is known when it closes); so strikethrough, "~~" just before it;
- a link's text or an image's alt text: "[" or "![" just before "<tool ", spaces aside (whether "](…)"
  follows is not waited for either);
- an HTML element: an HTML start tag just before "<tool ", spaces and line breaks aside ("<details><tool …",
  "<div>" on the line before), of an element of HTML that holds text (not "<br>", "<img …>", nor "<tools>",
  which HTML does not have: some models wrap their calls in it).

A line whose start is in an earlier block's text (its "<tool \n>" broken over lines) is not read for a quote
or a list marker. A comment, ``<!-- … -->``, and code are the parser's own modes: no block is read in them at all.
"""

from __future__ import annotations

import re
from bisect import bisect_right

WINDOW = 1024  # characters before a place that are read to decide what it is inside (``construct``)
# The text kept unread for a ListState, read only when a line four columns in asks, is read anyway past this
# many characters: an answer with no such line is not kept whole.
UNLISTED_MOST = 65536

# A list item's line: a bullet or a number, then a space (or nothing more on the line: an empty item).
_ITEM = re.compile(r"([ \t]*)([-*+]|\d{1,9}[.)])([ \t]+|$)")
# A block written in a list item's line: the marker's space comes before it ("-<tool …>" is a paragraph).
_ITEM_TEXT = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]")
# What ends a paragraph and starts a block, after the line's spaces: a heading, a fence, a quote, a thematic
# break or a heading's underline (a list item is read before it).
_INTERRUPTS = re.compile(r"#{1,6}(?:[ \t]|$)|`{3,}|~{3,}|>|([-*_])[ \t]*(?:\1[ \t]*){2,}$")
_UNDERLINE = re.compile(r"(?:=+|-+)[ \t]*$")  # a heading's underline, only under a paragraph ("===" alone is text)
_BREAK = re.compile(r"([-*_])[ \t]*(?:\1[ \t]*){2,}$")  # a thematic break ("- - -" is no list item)
_FENCE_RUN = re.compile(r"`{3,}|~{3,}")
_MOST_ITEMS = 100  # list items open at most, as Markdown readers bound nesting: a marker past them is text
# Whole lines that change nothing but whether a paragraph is open: in a fenced block, those that cannot close it
# (no space, ` or ~ first); in a paragraph, its next lines at the margin that can start nothing else.
_IN_FENCE = re.compile(r"(?:(?:[^ \t`~\n][^\n]*)?\n)*")
_IN_PARAGRAPH = re.compile(r"(?:[^ \t\r\n#>*+\-=_`~0-9][^\n]*\n)*")
_OUT_OF_LISTS = re.compile(r"(?:(?:[^ \t\r\n#>*+\-=_`~0-9][^\n]*)?\n)*")  # and blank lines, in no item
_LINE_HEAD = WINDOW  # characters of a line read, at most (a list marker, a fence run or a break is at its start)
_MAY_START = frozenset("-*+0123456789#`~>_=")  # what a line that is more than a paragraph's text starts with
_QUOTE = re.compile(r" {0,3}>")
_TABLE = re.compile(r" {0,3}\|")
ATX = re.compile(r" {0,3}#{1,6}[ \t]")  # a heading's line: its text follows the #s after a space
_LINK = re.compile(r"\[[ \t]*\Z")
# A run of * or _ that opens emphasis: at the start of the text, after a space or a punctuation mark.
_EMPHASIS = re.compile(r"(?:\A|(?<=[\s!-/:-@\[-`{-~]))(?:(?<![*_])[*_]{1,3}|(?<!~)(~~))\Z")
_START_TAG = re.compile(r"<([A-Za-z][A-Za-z0-9-]*)(?:[ \t\r\n][^<>]*)?>[ \t\r\n]*\Z")
# HTML's elements that hold text: not "<br>" or "<img>", and no tag HTML does not have ("<tools>", "<tool_call>":
# what some models wrap their calls in, taken off around the call, which runs).
_HTML = frozenset("""a abbr address article aside b big blockquote body button center cite code dd del details dfn
div dl dt em fieldset figcaption figure font footer form h1 h2 h3 h4 h5 h6 header html i ins kbd label legend li
main mark nav noscript ol p pre q s samp section small span strike strong sub summary sup table tbody td template
textarea tfoot th thead tr tt u ul var xmp""".split())

QUOTE = "a quote, its line starting with >"
ITEM = "a list item, its line starting with a list marker (- or 1.)"
EMPHASIS = "emphasis, * or _ just before it"
STRIKE = "strikethrough, ~~ just before it"
TABLE = "a table row, its line starting with |"
HEADING = "a heading, its line starting with #"
LINK = "a link's text or an image's alt text, [ just before it"


def cols(indent: str) -> int:
    """The columns a line's leading spaces and tabs take, a tab to the next stop of four."""
    n = 0
    for c in indent:
        n = n + 1 if c == " " else n + 4 - n % 4
    return n


def code_indent(before: str, indent: int) -> int | None:
    """The columns a line ``indent`` columns in, after ``before`` (all the text before it, up to and with its
    line break; "" at the start of the text), must be in by to be a line of indented code; None when it is
    no code however far in: it continues a paragraph (a "lazy" line). See ``ListState``."""
    state = ListState()
    state.read(before)
    return state.code_indent(indent)


class ListState:
    """What CommonMark knows of the text read so far, kept line by line as the text comes (each line is read
    once, whole, however the stream is cut): the list items still open, whether the last line is a
    paragraph's, and the fenced code block it is in.

    A line is in each open item whose content it is as far in as, or continues lazily a paragraph of; a line
    is code four columns past the content of the innermost item it is in, or past the margin in none ("- a",
    a blank line, "····x" is the item's second paragraph; "  1. a", a blank line, "····x" is code, the item
    closed; "····- b" after "- a" is a nested item, its text further in still)."""

    def __init__(self) -> None:
        self._items: list[int] = []  # the content columns of the list items open, outermost first (rising)
        self._paragraph = False  # the last line read is a paragraph's, which the next one continues
        self._fence = ""  # the run that opened the fenced code block the text is in
        self._fence_cols = 0  # the content column of the item it is in (a closing run is less than 4 past it)
        self._empty = False  # the innermost item has no text yet ("-" alone): a blank line ends it
        self._line = ""  # the current line so far, its first LINE_HEAD characters
        self._more = False  # and something but spaces past them

    def code_indent(self, indent: int) -> int | None:
        """The columns a line ``indent`` columns in, after the lines read, must be in by to be indented code;
        None when it continues a paragraph, however far in."""
        return None if self._paragraph else self.margin(indent) + 4

    def margin(self, indent: int) -> int:
        """The content column of the innermost open item a line ``indent`` columns in is in (0: none)."""
        k = bisect_right(self._items, indent)
        return self._items[k - 1] if k else 0

    def read(self, text: str) -> None:
        """Read ``text``, the stream's next characters: each line whose end is in it changes the state."""
        start = 0
        while (end := text.find("\n", start := start if self._line else self._pass_over(text, start))) >= 0:
            if self._line or end - start > _LINE_HEAD:
                self._add(text, start, end)
                line, self._line, self._more = self._line + ("x" if self._more else ""), "", False
            else:
                line = text[start:end]  # (a whole line in text: the common case, not copied twice)
            self._end_line(line)
            start = end + 1
        if start < len(text):
            self._add(text, start, len(text))

    def _pass_over(self, text: str, start: int) -> int:
        """Where in ``text``, from a line's start, the first line that may change the state starts (the lines
        before read at once: no Python runs for each line of prose or of a fence's code)."""
        if self._fence:
            return _IN_FENCE.match(text, start).end()
        if not self._items:
            end = _OUT_OF_LISTS.match(text, start).end()
            if end > start:  # the last line a paragraph's, or blank
                self._paragraph, self._empty = end - 2 >= start and text[end - 2] != "\n", False
            return end
        return _IN_PARAGRAPH.match(text, start).end() if self._paragraph else start

    def _add(self, text: str, start: int, end: int) -> None:
        room = _LINE_HEAD - len(self._line)
        if room > 0:
            self._line += text[start : end if end - start <= room else start + room]
        if end - start > room and not self._more:
            self._more = not text[max(start, start + room) : end].isspace()

    def _end_line(self, line: str) -> None:
        """A whole line (its start, if it is long: "x" at its end for the rest) changes the state."""
        items = self._items
        text = line.lstrip(" \t")
        if not text or text.isspace():
            if self._empty and not self._fence:  # an item begins with at most one blank line
                items.pop()
            self._paragraph = self._empty = False
            return
        self._empty = False
        if line[0] not in " \t" and text[0] not in _MAY_START and not self._fence:
            if not self._paragraph:  # at the margin, plain text: a paragraph, out of every item
                items.clear()
                self._paragraph = True
            return  # or a paragraph's next line, in the items it is in
        text = text.rstrip("\r")
        lead = len(line) - len(line.lstrip(" \t"))
        at = cols(line[:lead]) if "\t" in line[:lead] else lead
        k = bisect_right(items, at)
        if self._fence:  # its closing line ends it; the lines in it are code, nothing else
            run = _FENCE_RUN.match(text)
            if run and run.group()[0] == self._fence[0] and len(run.group()) >= len(self._fence) and (
                    not text[run.end() :].strip()) and at < self._fence_cols + 4:
                self._fence = ""
            return
        paragraph = self._paragraph
        if at - (items[k - 1] if k else 0) >= 4:
            if not paragraph:
                del items[k:]  # indented code, in the items it is in
            return  # or a paragraph's next line, however far in
        underline = paragraph and k == len(items) and _UNDERLINE.match(text) is not None
        item = _ITEM.match(line) if not underline and not _BREAK.match(text) else None
        if item is not None and paragraph and k == len(items) and (item.group(3) == "" or (
                item.group(2)[0].isdigit() and item.group(2)[:-1] != "1")):
            item = None  # in the paragraph's item, an empty item or a numbered one but from 1 does not interrupt it
        interrupts = underline or _INTERRUPTS.match(text) is not None
        if item is None and paragraph and not interrupts:
            return  # a lazy line: the paragraph goes on, in the items it is in
        del items[k:]
        if item is None and (run := _FENCE_RUN.match(text)) is not None:
            self._fence = run.group() if run.group()[0] == "~" or "`" not in text[run.end() :] else ""
            self._fence_cols = items[-1] if items else 0
        self._paragraph = item is None and not self._fence and (not interrupts or text[0] == ">")  # a quote's too
        if item is None:
            return
        while item is not None:  # "- 1. a" opens two items
            gap = len(item.group(3).expandtabs(4))
            at += len(item.group(2)) + (gap if 1 <= gap <= 4 else 1)
            items.append(at)
            end = item.end()
            item = _ITEM.match(line, end) if 1 <= gap <= 4 and len(items) < _MOST_ITEMS else None
        self._paragraph = not line[end:].isspace() and end < len(line)  # the innermost item's text begins
        self._empty = not self._paragraph


def construct(before: str, line: bool = True) -> str:
    """What a tool block starting right after ``before`` is written inside, in plain words ("" for none).
    Without ``line`` its line's start is not read (it is in another block's text, not the answer's)."""
    start = before.rfind("\n") + 1
    if line and _QUOTE.match(before, start):
        return QUOTE
    if line and _ITEM_TEXT.match(before, start):
        return ITEM
    if line and _TABLE.match(before, start):
        return TABLE
    if line and ATX.match(before, start):
        return HEADING
    if (emphasis := _EMPHASIS.search(before, max(0, len(before) - 4))) is not None:
        return STRIKE if emphasis.group(1) else EMPHASIS
    if _LINK.search(before, max(0, len(before) - 64)):
        return LINK
    end = len(before)
    while end and before[end - 1] in " \t\r\n":
        end -= 1
    if end and before[end - 1] == ">" and (tag := _START_TAG.search(before, max(0, end - 300))) is not None:
        if tag.group(1).lower() in _HTML:
            return f"an HTML element, <{tag.group(1)}> just before it"
    return ""
