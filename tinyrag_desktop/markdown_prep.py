"""Markdown as models write it, made ready for Python-Markdown, which the window and the HTML export both
render with: a list or table right under a line of text set apart from it, nested lists re-indented
by the 4 spaces Python-Markdown nests by, code fenced in a list item lifted out for the converter and put
back as a code block, task list items ("- [ ] a task") shown with their box, the tool blocks the engine
did not run found with why (invalid_blocks), and what would hold the converter up for seconds or show as
boxes set aside: lists nested too deep, brackets that open no link, a terminal's escape codes. No Qt here:
chat_export.py's Copy and Export use it too."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as etree
from collections.abc import Iterable
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

if TYPE_CHECKING:
    from .protocol import ParseEvent

# A fenced code block's opening or closing line: its marker, and what follows it (the language).
FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
LIST_ITEM_RE = re.compile(r"^( *)([-*+]|\d{1,9}[.)])( +|$)")
QUOTE_RE = re.compile(r"^(?: {0,3}> ?)+")  # a quote's line: what Python-Markdown takes away from it, each level


# What CommonMark lets start right under a line of text: a bullet item, or an ordered list from 1.
_INTERRUPTS_RE = re.compile(r"^([-*+]|1[.)]) +\S")
TABLE_DELIMITER_RE = re.compile(r"^ {0,3}\|? *:?-+:? *(\| *:?-+:? *)*\|? *$")


# A fence at the left margin, which Python-Markdown's fenced_code reads; and one it does not: indented, or
# on a list item's line ("1. ```bash"), with its language.
_LEFT_FENCE_RE = re.compile(r"^(`{3,}|~{3,})")
_INDENTED_FENCE_RE = re.compile(r"^( +|(?: *(?:[-*+]|\d{1,9}[.)]) +))(`{3,}|~{3,})[ ]*\{?\.?([\w#.+-]*)[^`\n]*$")
_FENCE_MARK = "TINYRAGFENCE{}X"
_FENCE_MARK_RE = re.compile(r"(?:<p>)?TINYRAGFENCE(\d+)X(?:</p>)?")


_TICK_RUN_RE = re.compile(r"`+")


def fence_after(fence: str, line: str) -> str:
    """The code fence open after ``line`` ("" if none), ``fence`` being the one open before it: a fence of the
    same kind, as long or longer, with nothing after it closes a block; outside code, any fence opens one."""
    m = FENCE_RE.match(line)
    if not fence:
        return m.group(1) if m else ""
    closes = m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not m.group(2).strip()
    return "" if closes else fence


def code_spans(text: str) -> list[tuple[int, int, int]]:
    """The code spans in Markdown ``text``, as (start, end, backticks): a run of backticks closed by the
    next run of as many (CommonMark); a run that no such run follows is backticks as written. One pass
    over the runs: the regular expression it replaces took 19 s on a run of 8,000 backticks."""
    runs = [match.span() for match in _TICK_RUN_RE.finditer(text)] if "`" in text else []
    closer = [-1] * len(runs)  # each run's next run of the same length
    last: dict[int, int] = {}
    for i in range(len(runs) - 1, -1, -1):
        ticks = runs[i][1] - runs[i][0]
        closer[i], last[ticks] = last.get(ticks, -1), i
    spans, i = [], 0
    while i < len(runs):
        j = closer[i]
        if j < 0:
            i += 1
            continue
        spans.append((runs[i][0], runs[j][1], runs[i][1] - runs[i][0]))
        i = j + 1
    return spans


# A terminal's escape codes, as a program's output holds them: colours and cursor moves ("\\x1b[31m"), a window
# title ("\\x1b]0;title\\x07"); and the other control characters, which show as no letter.
TERMINAL_CODE_RE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b\n]*(?:\x07|\x1b\\)|[@-Z\\-_])")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


# A control character's stand-in while Markdown is converted (Python-Markdown keeps its own marks in "\\x02" and
# "\\x03"): the character's code in plane 15's private use, which no text has.
_STAND_IN = 0xF0000
_STAND_IN_RE = re.compile("[\U000f0000-\U000f001f\U000f007f]")


def without_terminal_codes(text: str) -> str:
    """``text`` without a terminal's escape codes, each other control character as its stand-in: on screen its
    picture (controls_shown, NUL as "␀"), in Copy code itself (controls_as_written).

    A log or a command's output quoted in an answer read "□[31merror□[0m" (Qt draws a box for ESC), a NUL a box."""
    if _CONTROL_RE.search(text) is None:
        return text
    text = TERMINAL_CODE_RE.sub("", text)
    return _CONTROL_RE.sub(lambda m: chr(_STAND_IN + ord(m.group())), text)


def controls_shown(text: str) -> str:
    """``text`` with the stand-ins of without_terminal_codes as the control characters' pictures."""
    if _STAND_IN_RE.search(text) is None:
        return text
    return _STAND_IN_RE.sub(lambda m: chr(0x2400 + min(ord(m.group()) - _STAND_IN, 0x21)), text)  # DEL: "␡"


def controls_as_written(text: str) -> str:
    """``text`` with the stand-ins of without_terminal_codes as the control characters they stand for."""
    if _STAND_IN_RE.search(text) is None:
        return text
    return _STAND_IN_RE.sub(lambda m: chr(ord(m.group()) - _STAND_IN), text)


# Stands for a "[" that opens no link while Markdown is converted (see lone_brackets); a private-use character.
LONE_BRACKET = "\ue0f2"
# A paragraph's brackets, a character escaped ("\\[" opens nothing), a blank line, which ends a paragraph, and a
# code fence, in which brackets are code.
_BRACKET_RE = re.compile(r"\\.|[\[\]]|\n[ \t]*(?=\n)|^ {0,3}(`{3,}|~{3,})", re.M)
BRACKET_LEVELS = 8  # brackets in brackets read as a link's words at most


def lone_brackets(text: str) -> str:
    """``text`` with each "[" that no "]" in its paragraph closes, or that is more than BRACKET_LEVELS deep in
    others, as LONE_BRACKET (the renderer shows it as "[" again).

    Python-Markdown reads from each "[" to the "]" that closes it, to the paragraph's end when none does, several
    times over: a line of terminal colours ("\\x1b[31m", 40,000 characters) took 12 s, 50,000 "[" minutes. Only
    the brackets that can start a link are left to it, each read to its own "]"."""
    if text.count("[") < 2:
        return text
    lone: list[int] = []
    brackets: list[int] = []  # the paragraph's, from ``start``
    fence, start = "", 0  # the code block's fence while in one
    for found in _BRACKET_RE.finditer(text):
        char, marker = found.group(), found.group(1)
        if marker and (not fence or marker[0] == fence[0] and len(marker) >= len(fence)):
            if not fence:  # a code block ends the paragraph before it
                lone += _lone_in(text, start, found.start(), brackets)
                brackets = []
            fence, start = "" if fence else marker, found.end()
        elif fence or marker:
            continue
        elif char in "[]":
            brackets.append(found.start())
        elif char[0] == "\n":  # a paragraph ends: what it left open opens nothing
            lone += _lone_in(text, start, found.start(), brackets)
            brackets, start = [], found.end()
    lone += _lone_in(text, start, len(text), brackets)
    if not lone:
        return text
    chars = list(text)
    for at in lone:
        chars[at] = LONE_BRACKET
    return "".join(chars)


def _lone_in(text: str, start: int, end: int, brackets: list[int]) -> list[int]:
    """Of the ``brackets`` of the paragraph ``text[start:end]``, the "[" that open no link: those no "]" closes,
    those too deep, and those in inline code. Python-Markdown sets code aside before it reads links: the
    brackets in "[the `[` key](…)" and "[`a[0`](…)" are code, and the link is whole."""
    spans = code_spans(text[start:end]) if brackets and text.find("`", start, end) >= 0 else []
    lone: list[int] = []
    opened: list[int] = []
    span = 0
    for at in brackets:
        while span < len(spans) and start + spans[span][1] <= at:
            span += 1
        if span < len(spans) and start + spans[span][0] <= at:  # in code: opens nothing, closes nothing
            if text[at] == "[":
                lone.append(at)
        elif text[at] == "[":
            (lone if len(opened) >= BRACKET_LEVELS else opened).append(at)
        elif opened:
            opened.pop()
    return lone + opened


def lift_fences(text: str) -> tuple[str, list[tuple[str, str]], bool]:
    """``text`` with each code block fenced in a list item (or indented) replaced by a mark in its place,
    the blocks (language, code) and whether the last one is still open at the end (being streamed).

    fenced_code reads a fence only at the left margin: the steps models write ("1. Install it:\n   ```bash
    \n   pip install foo\n   ```") showed as one line of inline code starting with "bash", with no box and
    no Copy code. Each mark is its own paragraph of the item; :func:`put_back_fences` makes it the code
    block fenced_code would have made. A block never closed runs to the end, as CommonMark has it."""
    if "``" not in text and "~~" not in text:
        return text, [], False
    lines = text.split("\n")
    out: list[str] = []
    found: list[tuple[str, str]] = []
    fence, i, still_open = "", 0, False
    while i < len(lines):
        line = lines[i]
        i += 1
        if fence:
            fence = "" if line.rstrip(" ") == fence else fence
        elif m := _LEFT_FENCE_RE.match(line):
            fence = m.group(1)
        elif m := _INDENTED_FENCE_RE.match(line):
            lead, marker, language = m.groups()
            width, body, still_open = len(lead), [], True
            while i < len(lines):
                inner = lines[i]
                i += 1
                bare = inner.strip()
                if bare and set(bare) == {marker[0]} and len(bare) >= len(marker):
                    still_open = False
                    break
                body.append(inner[min(width, len(inner) - len(inner.lstrip(" "))):])
            item = lead.strip() != ""
            out += [*([] if item else [""]), lead + _FENCE_MARK.format(len(found)), ""]
            found.append((language, "\n".join(body)))
            continue
        out.append(line)
    return "\n".join(out), found, still_open and bool(found)


def put_back_fences(body: str, found: list[tuple[str, str]]) -> str:
    """The converter's HTML with each mark of :func:`lift_fences` as the code block fenced_code makes."""
    if not found:
        return body

    def block(match: re.Match[str]) -> str:
        if int(match.group(1)) >= len(found):  # the model's own text, not a mark of ours
            return match.group(0)
        language, code = found[int(match.group(1))]
        named = f' class="language-{language}"' if language else ""
        return f"<pre><code{named}>{html.escape(code, quote=False)}\n</code></pre>"

    return _FENCE_MARK_RE.sub(block, body)


def blocks_apart(text: str) -> str:
    """Put a blank line between a line of text and a list or table written right under it, and between a
    table and a list item written right under its last row.

    Python-Markdown starts a list or a table only after a blank line; CommonMark and GitHub do not need one,
    and models rarely write it. "To install it:\n1. Download\n2. Run" ran together into one paragraph,
    "To install it: 1. Download 2. Run", and a table into a line of pipes. A table under a list item's
    text ("1. Compare:\n   | a | b |") is set apart too, so it renders in the item; and a table ends at
    the next item, as on GitHub (it was read as one more row: "2. next" in a cell). Other lines in a list
    (a lazy continuation line), in a table or in fenced code are left as they are.
    """
    lines = text.split("\n")
    out: list[str] = []
    fence = ""
    after_text = in_list = in_table = False  # since the last blank line
    for i, line in enumerate(lines):
        was, fence = fence, fence_after(fence, line)
        if was or fence:  # code, or the fence that opens it
            after_text = False
            out.append(line)
            continue
        if not line.strip():
            after_text = in_list = in_table = False
            out.append(line)
            continue
        table = not in_table and _table_starts(lines, i, in_list)
        item = LIST_ITEM_RE.match(line)
        if after_text and (table or not in_list and _INTERRUPTS_RE.match(line)) or in_table and item:
            out.append("")
            in_table = False
        if table:
            in_table = True
        elif item:
            in_list = True
        after_text = not in_table
        out.append(line)
    return "\n".join(out)


def _table_starts(lines: list[str], i: int, in_list: bool) -> bool:
    """Whether line ``i`` is a table's header row: a delimiter row ("|---|---|") comes under it. In a list
    the table may be indented under its item's text, by as much as the item's text is."""
    if "|" not in lines[i] or i + 1 >= len(lines) or "|" not in lines[i + 1]:
        return False
    return bool(TABLE_DELIMITER_RE.match(lines[i + 1].lstrip(" ") if in_list else lines[i + 1]))


# Levels of lists in lists shown at most; an item deeper is shown beside the deepest. Python-Markdown reads
# nested lists in time that grows with the cube of their depth: 400 levels took 2 s, 2,000 minutes.
LIST_LEVELS = 8


def nest_lists(text: str) -> str:
    """Re-indent nested list items by 4 spaces a level, the only indent Python-Markdown nests by, LIST_LEVELS
    levels at most.

    Models often nest by 2 or 3 spaces (CommonMark's rule: under the item's text); rendered as written,
    "  1. step" ran into the line above it. Text under an item moves with it; fenced code keeps its shape.
    A tab indents to the next multiple of 4 (as CommonMark and Python-Markdown read it), and a quote's lists
    are nested so too ("> - a"): a list 300 deep in either made Python-Markdown run out of stack.
    """
    out: list[str] = []
    levels: list[tuple[int, int]] = []  # open items: (indent as written, indent as rendered)
    fence, shift = "", 0  # inside fenced code: its marker, and how far its lines move
    after_blank = False
    quoted: list[tuple[str, str]] = []  # the lines of a quote: their ">" marks, and the text after them
    for line in text.split("\n"):
        stripped = line.lstrip(" \t")
        indent = len(line) - len(stripped)
        if fence:
            if stripped.startswith(fence):
                fence = ""
            out.append(_shifted(line, shift))
            continue
        quote = QUOTE_RE.match(line) if not levels or line[:1] == ">" else None
        if quoted and (quote is None or quote.group().count(">") != quoted[0][0].count(">")):
            out += _in_quote(quoted)
            quoted = []
        if quote:
            if after_blank:  # a quote after a blank line ends the list, as a paragraph does
                levels.clear()
            quoted.append((quote.group(), line[quote.end():]))
            after_blank = False
            continue
        if "\t" in line[:indent]:
            indent = len(line[:indent].expandtabs(4))
        item = LIST_ITEM_RE.match(stripped)
        if item and (levels or indent < 4):
            while levels and indent <= levels[-1][0]:
                levels.pop()
            if len(levels) < LIST_LEVELS:
                new = levels[-1][1] + 4 if levels else 0
                levels.append((indent, new))
            else:  # as deep as lists are shown: beside the deepest item
                new = levels[-1][1]
        elif levels and stripped and indent > levels[0][0]:
            # text under an item: under the deepest item it is indented past
            new = next(rendered + 4 for written, rendered in reversed(levels) if indent > written)
        else:
            new = 0 if levels else indent  # no deeper than the first item: moves left with it
            if stripped and after_blank:
                levels.clear()
        opening = FENCE_RE.match(" " * min(new, 3) + stripped) if not item else None
        if opening:
            fence, shift = opening.group(1), new - indent
        out.append(" " * new + stripped)
        after_blank = not stripped
    return "\n".join(out + _in_quote(quoted))


def _in_quote(quoted: list[tuple[str, str]]) -> list[str]:
    """The lines of a quote (their ">" marks, and the text after them) with their lists nested by nest_lists."""
    if not quoted:
        return []
    nested = nest_lists("\n".join(text for _, text in quoted)).split("\n")
    return [marks + text for (marks, _), text in zip(quoted, nested)]


def as_plain_text(text: str) -> str:
    """``text`` as HTML of its letters as written, its line breaks kept: what is shown of a text that Python-Markdown
    cannot read (nested deeper than its stack allows), rather than an error and an answer that stops."""
    return f'<p style="white-space:pre-wrap">{html.escape(text, quote=False)}</p>'


def _shifted(line: str, shift: int) -> str:
    if shift >= 0:
        return " " * shift + line
    return line[min(-shift, len(line) - len(line.lstrip(" "))):]


# A task list item's box as GitHub writes it, and the character it is shown as.
_TASK_RE = re.compile(r"^\[([ xX])\][ \t]+")
TASK_BOXES = {" ": "\u2610", "x": "\u2611", "X": "\u2611"}  # ☐ and ☑


def task_boxes(root: etree.Element) -> None:
    """Show each task list item's box in the tree Python-Markdown parsed: "- [ ] a task" as "☐ a task",
    "- [x] done" as "☑ done"; a bullet list all of tasks loses its bullets.

    Python-Markdown has no task lists, and an item read "• [ ] a task". Run on the tree after the inline
    patterns (a Treeprocessor below priority 20), a box written as code ("`[ ]`", a fenced block) stays as
    written; the source (Copy as Markdown, the stored chat) keeps its brackets.
    """
    for listing in root.iter():
        if listing.tag not in ("ul", "ol"):
            continue
        items = [child for child in listing if child.tag == "li"]
        boxed = [_box(item) for item in items]
        if items and all(boxed) and listing.tag == "ul":
            listing.set("style", "list-style-type:none")


def _box(item: etree.Element) -> bool:
    """Put the box of a task item in place of its brackets; whether ``item`` is one."""
    holder = item
    if not (item.text or "").strip() and len(item) and item[0].tag == "p":  # a loose list's item
        holder = item[0]
    m = _TASK_RE.match(holder.text or "")
    if m is None or not (holder.text[m.end():].strip() or len(holder)):
        return False
    holder.text = f"{TASK_BOXES[m.group(1)]} {holder.text[m.end():]}"
    return True


def images_as_links(root: etree.Element) -> None:
    """Each image in ``root`` (a Python-Markdown tree) as a link named by its alt text ("Image: architecture
    diagram"), to its address; inside a link (a badge), as that link's words. Neither the window nor an
    exported chat loads what an answer points at: a remote image would tell its server that the answer was
    read, with whatever the model put in its address."""
    if next(root.iter("img"), None) is None:
        return  # the usual case: one scan at C speed
    parents = {child: parent for parent in root.iter() for child in parent}
    for img in list(root.iter("img")):
        parent = parents[img]
        src = (img.get("src") or "").strip()
        in_link, up = False, parent
        while up is not None and not in_link:
            in_link, up = up.tag == "a", parents.get(up)
        shown = etree.Element("a" if src and not in_link else "span")
        if shown.tag == "a":
            shown.set("href", src)
        shown.text = image_label(img.get("alt") or "", src)
        shown.tail = img.tail
        parent[list(parent).index(img)] = shown


def image_label(alt: str, src: str) -> str:
    """The words an image is shown as: its alt text, or else the name of its file."""
    name = " ".join(alt.split())
    if not name:
        try:
            parts = urlsplit(src)
        except ValueError:
            parts = None
        # A path or a web or file address has a file name; a data: or other address has none worth showing.
        if parts is not None and (parts.scheme.lower() in ("", "http", "https", "file") or len(parts.scheme) == 1):
            name = unquote(re.split(r"[/\\]", src if len(parts.scheme) == 1 else parts.path)[-1]).strip()
    return f"Image: {name}" if name else "Image"


def register_images_as_links(md) -> None:
    """Have the Python-Markdown converter ``md`` write each image as a link (images_as_links), after its
    inline patterns (priority 20) made them."""
    from markdown.treeprocessors import Treeprocessor

    class ImagesAsLinks(Treeprocessor):
        def run(self, root: etree.Element) -> None:
            images_as_links(root)

    md.treeprocessors.register(ImagesAsLinks(md), "images_as_links", 15)


def register_task_boxes(md) -> None:
    """Have the Python-Markdown converter ``md`` show task list items with their boxes (task_boxes), after
    its inline patterns (priority 20), so a box written as code stays as written."""
    from markdown.treeprocessors import Treeprocessor

    class TaskItems(Treeprocessor):
        def run(self, root: etree.Element) -> None:
            task_boxes(root)

    md.treeprocessors.register(TaskItems(md), "task_items", 16)


_INVALID_MARK = "TINYRAGINVALIDBLOCK{}X"  # stands for an invalid tool block while Markdown is converted
INVALID_MARK_RE = re.compile(r"TINYRAGINVALIDBLOCK(\d+)X")
# What is said after such a block, in the window and in a copy or an export of the answer.
NOT_RUN = "(a tool call not run: {reason})"


def invalid_blocks(text: str) -> tuple[str, list[tuple[str, str]]]:
    """``text`` with each complete invalid tool block (shown as text, as the spec says) replaced by a mark,
    and the blocks with the parser's reason. The model's broken call read as stray markup in the sentence
    (``<tool name="shell_exec"><command>ls</command></tool>``), with nothing to say it was a call not run.
    Lines that only wrap or close a call ("<tools>", a second "</tool>") are left out.

    ``text`` is one round's text, as the engine parsed it: a block a round left open would take in the next
    round's words (see round_pieces)."""
    if "<tool" not in text and "</tool" not in text:
        return text, []
    if "<tool" not in text:
        return _without_call_wrappers(text), []
    from .protocol import InvalidBlock, XMLParseState, cut_at_limit, parse_all

    state = XMLParseState()
    out: list[str] = []
    found: list[tuple[str, str]] = []
    events = _with_their_tails([*state.feed(text), *state.finish()])
    ended: list[object] = []  # blocks never closed that the answer went on after
    while events and isinstance(events[-1], InvalidBlock) and not_closed(events[-1].reason):
        last = events[-1]
        cut = _unclosed_end(last.raw)
        if cut >= len(last.raw):
            break
        head = InvalidBlock(last.raw[:cut], last.reason)
        ended.append(head)
        events[-1:] = [head, *parse_all(last.raw[cut:])]
    for n, event in enumerate(events):
        # a block never closed counts at the text's end only: the model stopped in it (a reply cut at its
        # length limit); the engine holds a block being written until it is whole. Or where the parser ended it,
        # its element closed, for the text or the block after it ("<query>x</query> then …"): a call not run.
        if isinstance(event, InvalidBlock) and (_ENDS_CLOSED.search(event.raw) or n == len(events) - 1
                                                or any(event is e for e in ended)
                                                or not_closed(event.reason) or cut_at_limit(event)):
            out.append(_INVALID_MARK.format(len(found)))
            found.append((event.raw.strip(), event.reason))
        else:
            out.append(getattr(event, "text", None) or getattr(event, "raw", ""))
    return _without_call_wrappers("".join(out)), found


# A line of only "<tools>", "</tools>" or "</tool>": the wrapper some models put around their calls, or a
# second end tag after one, left as loose markup around the call's card when the call is taken out.
# (At most 3 spaces before it, as a fence: with 4, or a tab, the line is in an indented code block.)
_WRAPPER_LINE_RE = re.compile(r"^ {0,3}(?:</?tools|</tool)[ \t]*>[ \t]*(?:\n|\Z)", re.MULTILINE)


def _without_call_wrappers(text: str) -> str:
    """``text`` without the lines that only wrap or close a tool call (outside fenced code: a program or an
    example may print them). A model's text after a block, not part of its answer; `ask` prints it as written."""
    if not _WRAPPER_LINE_RE.search(text):
        return text
    out: list[str] = []
    fence = ""
    for line in text.splitlines(keepends=True):
        marker = FENCE_RE.match(line)
        if fence:
            if marker and marker.group(1)[0] == fence[0] and len(marker.group(1)) >= len(fence) \
                    and not marker.group(2).strip():
                fence = ""
        elif marker:
            fence = marker.group(1)
        elif _WRAPPER_LINE_RE.match(line):
            continue
        out.append(line)
    return "".join(out)


_NOT_CLOSED = "the block was not closed"
_ENDS_CLOSED = re.compile(r"</tool\s*>\s*\Z")  # its end tag, or one written "</tool >", which is none


def _with_their_tails(events: list[ParseEvent]) -> list[ParseEvent]:
    """``events`` with each block the parser cut at its length limit given the rest of it, up to its </tool>,
    that came after it as text: a call not run, set in code whole, not one cut off with its end in the prose."""
    from .protocol import InvalidBlock, TextChunk, cut_at_limit, rest_ends

    out: list[ParseEvent] = []
    n = 0
    while n < len(events):
        event, n = events[n], n + 1
        if isinstance(event, InvalidBlock) and cut_at_limit(event):
            start = n
            while n < len(events) and isinstance(events[n], TextChunk):
                n += 1
            tail = "".join(e.text for e in events[start:n])
            end = rest_ends(tail)
            if end >= 0:
                event, tail = InvalidBlock(event.raw + tail[:end], event.reason), tail[end:]
            out.append(event)
            if tail:
                out.append(TextChunk(tail))
        else:
            out.append(event)
    return out


def not_closed(reason: str) -> bool:
    """True for the parser's reasons for a block never closed (at the end, or before other text or a block)."""
    return reason.startswith(_NOT_CLOSED)


def invalid_mark(number: int) -> str:
    """The mark invalid_blocks puts in the text for its block ``number``."""
    return _INVALID_MARK.format(number)


_INNER_OPEN_RE = re.compile(r"<tool\s[^>]*>\s*<(query|url|source)>")
_SPACED_CLOSE_RE = re.compile(r"[ \t]*</tool\s*>")


def _unclosed_end(raw: str) -> int:
    """Where a block never closed ends when the model wrote on after it in its round: after its inner element
    and an end tag written wrong ("</tool >"). ``len(raw)`` when there is no such place."""
    m = _INNER_OPEN_RE.match(raw)
    if m is None:
        return len(raw)
    param = m.group(1)
    close = raw.find(f"</{param}>", m.end())
    if close < 0:
        return len(raw)
    end = close + len(param) + 3
    if (spaced := _SPACED_CLOSE_RE.match(raw, end)) is not None:
        end = spaced.end()
    return end if raw[end:].strip() else len(raw)


def round_pieces(text: str, starts: Iterable[int]) -> list[str]:
    """``text`` cut where each of the engine's rounds after the first starts in it (``starts``, offsets in
    ``text``; those outside it are passed over): each piece is parsed on its own, as the engine parsed it."""
    cuts = [0, *sorted({s for s in starts if 0 < s < len(text)}), len(text)]
    return [text[a:b] for a, b in zip(cuts, cuts[1:])]


def round_cuts(text: str, starts: Iterable[int]) -> list[int]:
    """Of the rounds' ``starts`` in ``text``, those where the round before ends in a call it left open: there
    the text is cut, so that the next round's words are not taken into the call (parsed as one text, its
    "</tool>" closed the call, with a reason the engine never gave). Elsewhere the rounds' text stays one
    piece, shown as it always was."""
    cuts: list[int] = []
    begun = 0
    for start in sorted(starts):
        if begun < start <= len(text) and left_open(text[begun:start]):
            cuts.append(start)
        begun = max(begun, start)
    return cuts


def left_open(text: str) -> bool:
    """Whether ``text`` ends in a tool block never closed."""
    if "<tool" not in text:
        return False
    from .protocol import InvalidBlock, parse_all

    events = parse_all(text)
    return bool(events) and isinstance(events[-1], InvalidBlock) and not_closed(events[-1].reason)


def guessed_round_starts(text: str) -> list[int]:
    """Where rounds after the first start in ``text``, guessed for an answer stored before they were kept:
    after a call whose one-line <query> or <url> a round left open, at the blank line the engine put before
    the next round's words. A <source> may hold blank lines of its own: there, at the first blank line before a
    sentence (see _SENTENCE_RE). (A call of one round with a blank line in its <query> is cut there too, and
    said to be not closed: there is no telling.)"""
    if "<tool" not in text:
        return []
    from .protocol import InvalidBlock, parse_all

    starts: list[int] = []
    at, events = 0, parse_all(text)
    while events:
        event = events.pop(0)
        raw = getattr(event, "text", None) or getattr(event, "raw", "")
        if isinstance(event, InvalidBlock) and (cut := _round_end(raw)) < len(raw):
            starts.append(at + cut)
            at, events = at + cut, parse_all(text[at + cut:])
            continue
        at += len(raw)
    return starts


def _round_end(raw: str) -> int:
    """Where the round that wrote the invalid block ``raw`` may have ended inside it (see
    guessed_round_starts): at the blank line in its <query> or <url> left open, or in its <source> before a
    sentence; else ``len(raw)``."""
    m = _INNER_OPEN_RE.match(raw)
    if m is None or (blank := raw.find("\n\n", m.end())) < 0:
        return len(raw)
    close = raw.find(f"</{m.group(1)}>", m.end())
    if m.group(1) == "source":
        blank = _before_sentence(raw, m.end(), len(raw) if close < 0 else close)
    return blank if close < 0 or blank < close else len(raw)


_GO_WORDS = ("break|case|chan|const|continue|default|defer|else|fallthrough|for|func|go|goto|if|import|"
             "interface|map|package|range|return|select|struct|switch|type|var")
# A sentence's start at a line's start after a blank line: a word (none of Go's keywords), then two more with a
# space before each ("Oops, I forgot the closing tag"). No line of Go starts so: two names in a row follow a
# keyword ("var x int"), and a label before a statement ("outer: for i := …") has a keyword after its colon.
# Matched from the sentence's first letter, looked for behind it: matched from the blank line, the pattern was
# tried again at each of a run of newlines, each time reading to the run's end (20,000 newlines took seconds).
_SENTENCE_RE = re.compile(rf"(?<=\n\n)(?!(?:{_GO_WORDS})\b)[^\W\d_][\w'’]*(?:[,;]|:(?! (?:{_GO_WORDS})\b))? "
                          r"[^\W\d_][\w'’]* [^\W\d_]")
# What may hold a backtick or "/*" that opens nothing in Go code: a line comment, a string, a rune literal (each
# ends at its line's end at the latest); and what opens a raw string or a block comment.
_GO_TOKEN_RE = re.compile(r"""//[^\n]*|"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?|/\*|`""")
_GO_CLOSE = {"`": "`", "/*": "*/"}


def _before_sentence(raw: str, start: int, end: int) -> int:
    """Where in a <source> (``raw[start:end]``) the first blank line before a sentence is, the round that
    wrote the program having ended there; ``len(raw)`` when there is none. A sentence in a raw string or a
    block comment is the program's own."""
    opened, at = "", start  # read on from ``at``: a long program is read once
    for found in _SENTENCE_RE.finditer(raw, start, end):
        blank = found.start() - 2
        while blank > start and raw[blank - 1] == "\n":  # back to the blank line's start
            blank -= 1
        opened, at = _go_read(raw, at, blank, opened), blank
        if not opened:
            return blank
    return len(raw)


def _go_read(raw: str, at: int, end: int, opened: str) -> str:
    """Of a raw string or block comment, the one still open at ``end`` (its opening "`" or "/*"), reading Go
    code from ``at`` where ``opened`` was open; "" when none is."""
    while at < end:
        if opened:
            close = raw.find(_GO_CLOSE[opened], at, end)
            if close < 0:
                return opened
            opened, at = "", close + len(_GO_CLOSE[opened])
        elif (token := _GO_TOKEN_RE.search(raw, at, end)) is None:
            return ""
        else:
            opened, at = token.group() if token.group() in _GO_CLOSE else "", token.end()
    return opened
