"""Where in Markdown a place of the text is, read from the text before it: shared by the parser and the think splitter.

Both read a stream, so they decide from what came before alone (``WINDOW`` characters of it at most), and any
cut of the stream decides the same. ``code_indent`` says, as CommonMark does, whether a line is a line of an
indented code block: four columns in, after a blank line or at the start of the text (not a paragraph's next
line), or four more than the content of the innermost list item it is in ("- a", a blank line, then "····x" is
the item's second paragraph, not code; "····- b" there is a nested item, whose text is further in still).
``construct`` says what a tool block starting at a place is written
inside, which spec rule 5 forbids ("the XML must not be wrapped in … any Markdown construct"):

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

WINDOW = 1024  # characters before a place that are read to decide it

# A list item's line: a bullet or a number, then a space (or nothing more on the line: an empty item).
_ITEM = re.compile(r"([ \t]*)([-*+]|\d{1,9}[.)])([ \t]+|$)")
# A block written in a list item's line: the marker's space comes before it ("-<tool …>" is a paragraph).
_ITEM_TEXT = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]")
# What ends a paragraph and starts a block, after the line's spaces: a heading, a fence, a quote, a thematic
# break or a heading's underline (a list item is read before it).
_INTERRUPTS = re.compile(r"#{1,6}(?:[ \t]|$)|`{3,}|~{3,}|>|([-*_])[ \t]*(?:\1[ \t]*){2,}$|=+[ \t]*$|-+[ \t]*$")
_BREAK = re.compile(r"([-*_])[ \t]*(?:\1[ \t]*){2,}$")  # a thematic break ("- - -" is no list item)
_FENCE_RUN = re.compile(r"`{3,}|~{3,}")
_MOST_LINES = 32  # lines read before the one decided, at most (past them, the items open are not known)
_FENCE_LINE = re.compile(r"[ \t]*(?:`{3,}|~{3,})")
_MARKER_START = frozenset("-*+0123456789")
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


def code_indent(before: str, indent: int, first: str = "", cut: bool = False) -> int | None:
    """The columns a line ``indent`` columns in, after ``before`` (the text before it, up to and with its line
    break; "" at the start of the text), must be in by to be a line of indented code; None when it is no code
    however far in: it continues a paragraph (a "lazy" line), or it is taken for a list item (see below).

    As CommonMark reads list items: the lines before are read in order, keeping the items still open (a line
    is in each whose content it is as far in as, or continues lazily a paragraph of); a line is code four
    columns past the content of the innermost item it is in, or past the margin in none ("- a", a blank line,
    "····x" is the item's second paragraph; "  1. a", a blank line, "····x" is code, the item closed).
    With ``cut`` the window began in the middle of its first line, so the items open before it are not known
    until a line at the margin closes them: a line in none of the items in view whose ``first`` character
    may begin a list marker ("····- b" after a list item's long paragraph) is taken for a nested item."""
    items, known, paragraph = _open_items(before.split("\n")[:-1], cut)
    if paragraph:
        return None
    k = _inside(items, indent)
    if not k and not known and first in _MARKER_START:
        return None
    return (items[k - 1] if k else 0) + 4


def _open_items(lines: list[str], cut: bool) -> tuple[list[int], bool, bool]:
    """After ``lines`` (the first one only the end of its line, if ``cut``): the content columns of the list
    items still open, outermost first; whether they are all known (a line at the margin closed those opened
    before the lines read); and whether the last line is a paragraph's, which the next one continues."""
    items: list[int] = []
    known = not cut
    paragraph = cut and bool(lines and lines[0].strip())
    fence = ""  # the run that opened the fenced code block the line is in
    start, fences = max(int(cut), len(lines) - _MOST_LINES), 0
    for k in range(len(lines) - 1, start, -1):  # read from the last line that closes all items: at the margin
        line = lines[k]  # after a blank line, out of fences (an even number of fence lines after it)
        if _FENCE_LINE.match(line):
            fences += 1
        elif line[:1] not in " \t" and line.strip() and not lines[k - 1].strip() and not fences % 2:
            start, known, paragraph = k, True, False
            break
    else:
        if start > int(cut):  # too far back: read as a window cut there
            known, paragraph = False, bool(lines[start - 1].strip())
    for line in lines[start:]:
        lead = len(line) - len(line.lstrip(" \t"))
        text = line[lead:].rstrip("\r")
        if not text.strip():
            paragraph = False
            continue
        at = cols(line[:lead])
        k = _inside(items, at)
        if fence:  # its closing line ends it; the lines in it are code, nothing else
            run = _FENCE_RUN.match(text)
            if run and run.group()[0] == fence[0] and len(run.group()) >= len(fence) and not text[run.end():].strip():
                fence = ""
            continue
        if at - (items[k - 1] if k else 0) >= 4:
            if paragraph:
                continue  # a paragraph's next line, however far in
            if known or k or text[0] not in _MARKER_START:
                del items[k:]  # indented code, in the items it is in
                continue
        item = _ITEM.match(line) if not _BREAK.match(text) else None
        if item is not None and paragraph and k == len(items) and (item.group(3) == "" or (
                item.group(2)[0].isdigit() and item.group(2)[:-1] != "1")):
            item = None  # in the paragraph's item, an empty item or a numbered one but from 1 does not interrupt it
        if item is None and paragraph and not _INTERRUPTS.match(text):
            continue  # a lazy line: the paragraph goes on, in the items it is in
        del items[k:]
        known = known or at < 2  # no item's content is so near the margin: all are closed
        if item is None and (run := _FENCE_RUN.match(text)) is not None:
            fence = run.group() if run.group()[0] == "~" or "`" not in text[run.end():] else ""
        paragraph = item is None and not fence and (not _INTERRUPTS.match(text) or text[0] == ">")  # a quote's too
        while item is not None:  # "- 1. a" opens two items
            gap = len(item.group(3).expandtabs(4))
            at += len(item.group(2)) + (gap if 1 <= gap <= 4 else 1)
            items.append(at)
            paragraph = bool(line[item.end():].strip())
            item = _ITEM.match(line, item.end()) if 1 <= gap <= 4 else None
    return items, known, paragraph


def _inside(items: list[int], at: int) -> int:
    """How many of the open list items (their content columns) a line ``at`` columns in is inside."""
    k = len(items)
    while k and items[k - 1] > at:
        k -= 1
    return k


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
