"""XMLParseState: the sans-I/O streaming parser for inline ``<tool name="X"><query>…</query></tool>`` blocks.

Text goes in with ``feed(chunk)``; frozen events come out (``TextChunk``, ``ToolCall``, ``InvalidBlock``).
No sockets, clocks or threads: the engine owns all I/O.

States
------
The parser is in one of four modes:

``TEXT``
    Ordinary Markdown text. ``<tool `` (with its trailing space) starts a block. Everything that cannot
    begin ``<tool `` is released at once; only a suffix such as ``<to`` is held until the next chunk.
``FENCE``
    Inside a fenced code block (a line starting with three or more backticks or tildes, indented or not:
    CommonMark allows three spaces, but a fence in a list item is indented by the item's marker, four
    spaces or more under "1." or a nested item, and was read as text, its blocks run). Blocks here are
    text. As in CommonMark, a line holding only a run of the same character, at least as long (and
    spaces), closes it, indented at most three columns more than the opening line (a fence line the code
    writes, further in, is code): `````go`` inside a fence is code, not its end. A backtick "fence"
    whose info string holds a backtick (```` ```x``` ````) is no fence but an inline code span.
``INDENT``
    Inside an indented code block (CommonMark: a line four columns in, after a blank line or at the start, or
    four more than the content of the innermost list item it is in; protocol/markdown_context.py decides, for
    the think splitter too). Blocks here are text. It goes on over blank lines and lines as far in, and ends at
    the first line that is not. A line four columns in that continues a paragraph, or a list item's text
    ("- a", a blank line, "····<tool …>": the item's second paragraph; "····- b", a nested item, and
    "······<tool …>" in it), is no code: its blocks run.
``COMMENT``
    Inside an HTML comment, ``<!--`` to ``-->``: the reader never sees it (a Markdown viewer hides it), so
    its blocks are text. One that does not start its line ends at a blank line too, as its paragraph does.
``INLINE``
    Inside an inline code span (a run of N backticks, closed by the next run of exactly N). Blocks here are
    text. The paragraph's end ends the span, as in Markdown: a blank line, or a line (at most three columns
    in) that starts a block, a list item, a quote, a heading, a fence (```` ```x` ```` is none, but runs), a
    thematic break or a heading's underline; a heading's own line ends there too. Any other line continues
    the paragraph ("lazily"), after a list item or a quote too. But a run never closed is no
    span at all (CommonMark: its backticks are literal, "Let`s compute <tool …>"), and a later run of another
    length may open one ("Here`s the syntax: ``<tool …>``"): every run not closed yet is kept, in order
    (``_spans``), as what may open the span. Which is known only from what comes after: a "<tool " met then
    starts a block all the same, held ("tentative") with the text after it. A run as long as one kept closes
    it, and the runs kept after it, whichever earlier one turns out literal: the blocks held since it came
    are text (all held, if it came before the first), and what follows that run is read again, in a span
    still if runs kept before it remain. Such a run on the line a block still open started on closes the span
    at once ("``<tool > `` is how a call starts"), as a span closed on its line is passed over when the line
    comes whole: the text after it is not held till the block ends. The paragraph's end or the stream's shows
    the runs left were none: the blocks are released as they were read, and a valid call runs, late but run
    (rule 2 holds: never before its </tool>). No block being written is shown meanwhile. Nor is the text after
    it, so that is held no further than ``max_held_chars`` past the first held block's end (see
    DEFAULT_MAX_HELD_CHARS): a span not closed by then was none, its call runs, and the text streams again,
    read from there as text (the runs kept are forgotten).
``BLOCK``
    Between ``<tool `` and its ``</tool>``. The block's own phases (protocol/block.py: start tag, inner element, content,
    closing tag) are checked as text arrives, so prose that merely mentions ``<tool `` is released as soon
    as it can no longer be a block, instead of being held until the end of the stream. A block written
    inside a Markdown construct (spec rule 5: a quote, a list item, a table row, a heading, emphasis, a link,
    an HTML element, as protocol/markdown_context.py reads the text before it, where "inside" is defined) is
    an ``InvalidBlock`` that says so ("it is inside a quote, …"), however well it is written.

Markdown state (line starts, backtick runs: protocol/markdown_lines.py) is tracked across chunk boundaries, so
the events never depend on how the stream was cut, apart from where adjacent ``TextChunk``s split.

Guarantees: joining ``raw`` of all events reproduces the input exactly; the parser never raises on model
output (bad blocks become ``InvalidBlock``); cost is linear in the input.
"""

from __future__ import annotations

import re
from collections import deque

from .errors import ParserFinished
from .events import InvalidBlock, OpenBlock, ParseEvent, TextChunk, ToolCall
from .events import merge_text as _merge_text
from .block import CLOSE, NOT_CLOSED, OPEN, P_CDATA, P_CONTENT, P_FAILED, P_HELD, P_TAG, PARAMS, BlockPhases
from .markdown_context import UNLISTED_MOST, WINDOW, ListState, construct
from .markdown_context import cols as _cols
from .markdown_lines import BLOCK as _BLOCK, COMMENT as _COMMENT, FENCE as _FENCE, INDENT as _INDENT
from .markdown_lines import INLINE as _INLINE, TEXT as _TEXT, RECENT_MOST as _RECENT_MOST
from .markdown_lines import F_BODY as _F_BODY, F_CLOSING as _F_CLOSING, F_INFO as _F_INFO, MarkdownLines

__all__ = ["CLOSE", "OPEN", "PARAMS", "XMLParseState", "cut_at_limit", "inside_at", "parse_all", "rest_ends"]

DEFAULT_MAX_BLOCK_CHARS = 200_000
_TOO_LONG = "no </tool> within {limit} characters"  # an InvalidBlock's reason when the limit cut it
_TOO_LONG_RE = re.compile(r"no </tool> within \d+ characters\Z")
_CLOSE_TAG_RE = re.compile(r"</tool\s*>")
# How far past a call held in what may be an inline code span ("Let`s compute <tool …>…</tool> and …") the
# span must close to make the call code. CommonMark bounds a span only by its paragraph, but a span is a
# name, an expression, a command or a call's syntax shown as written: tens of characters, and a line break
# in it is rendered as a space, so a span going on for lines past a call is no span a writer means. 400
# characters is five lines of 80 columns, about 100 tokens: a few seconds of a local model's output,
# well within the spec's 30-second tool timeout, against a paragraph that may go on for thousands.
# A closing run must start before the bound; one at it or later opens a new span, read as text.
DEFAULT_MAX_HELD_CHARS = 400
_WINDOW = 8192  # a block is scanned in windows of this many characters, keeping the cost linear

_INSIDE = {_FENCE: "a fenced code block", _INDENT: "an indented code block (lines four spaces in)",
           _INLINE: "an inline code span (between backticks)", _COMMENT: "an HTML comment (<!-- … -->)"}
COMMENT_OPEN, COMMENT_CLOSE = "<!--", "-->"

# Where scanning must stop in each mode. A newline matters only when the next line may start a fence
# (spaces or tabs, then ` or ~) or indented code (four columns in), or when the chunk ends before that can be known.
# A "<" stops the scan only where "<tool " starts, or where the text ends in a part of it ("<to").
_TEXT_STOP = re.compile(r"<(?=tool |!--|(?:t|to|too|tool|!|!-)?\Z)|`|\n(?=[ \t]*(?:[`~]|\Z)| {4}| {0,3}\t)")
_NEWLINE = re.compile(r"\n")
_COMMENT_STOP = re.compile(r"-->|\n|--?\Z")  # a "-" at the end may begin its close: held
_FENCE_STOP_TICK = re.compile(r"\n(?=[ \t]*(?:`|\Z))")
_FENCE_STOP_TILDE = re.compile(r"\n(?=[ \t]*(?:~|\Z))")
_INFO_STOP = re.compile(r"[`\n]")  # on a backtick fence's opening line, a backtick unmakes the fence
_CLOSING_STOP = re.compile(r"[^ \t\r]")  # after a closing run, only spaces may follow on its line
_SIMPLE_BLOCK = re.compile(
    r'<tool name="([^"<>&]*)">[ \t\r\n]*<(query|url|source)>([^<&]*)</\2>[ \t\r\n]*</tool>'
)
_INLINE_STOP = re.compile(r"[`\n]|<(?=tool |(?:t|to|too|tool)?\Z)")
_RUN = re.compile(r"`+")
_BLANK_LINE = re.compile(r"\n[ \t\r]*\n")
# A run of backticks, then perhaps the rest of an inline code span on its line and the run that may
# close it (with a character after that run, so that the run is known to be whole).
_SPAN = re.compile(r"(`+)(?:[^`\n]*(`+)(?=[^`]))?")
# A line that opens a fence, whole (from the newline before it to the one ending it).
_FENCE_LINE = re.compile(r"\n([ \t]*)(?:(`{3,})[^`\n]*|(~{3,})[^\n]*)(?=\n)")


class XMLParseState(MarkdownLines, BlockPhases):
    """Incremental parser of one stream. ``feed`` returns the events each chunk completes."""

    def __init__(self, *, max_block_chars: int = DEFAULT_MAX_BLOCK_CHARS,
                 max_held_chars: int = DEFAULT_MAX_HELD_CHARS) -> None:
        self.max_block_chars = max_block_chars
        self.max_held_chars = max_held_chars
        # Characters fed by the chunks scanned (not those the fast path in feed passes, which it never does
        # while text is held): where in the stream held text is, as a text scanned ends there (s[j] is at
        # _fed - len(s) + j). Only the distances between such places are used.
        self._fed = 0
        self._mode = _TEXT
        # Input read again with the next chunk: a suffix that may still become "<tool ", "<!--" or "-->". Its first
        # _shown characters are out already: only a part of "<tool " is held back (see _keep).
        self._hold, self._shown = "", 0
        # (text, position, fence character, run length, indent): no line closes that fence in the text after it
        self._unclosed: tuple[str, int, str, int, int] | None = None
        self._finished = False
        # Markdown state.
        self._line_start = True  # the next char begins a line (so may begin a fence)
        self._run_char = ""  # a run of ` or ~ in progress
        self._run_len = 0
        self._run_at_line_start = False
        self._fence_char = ""
        self._fence_len = 0
        self._fence_indent = 0  # columns before the opening run: a closing one may have up to 3 more
        self._ls_cols = 0  # columns of spaces and tabs so far at the start of the current line
        self._run_cols = 0  # those before the run in progress, if it began its line
        self._fence_line = _F_BODY
        # In INLINE: the runs of backticks that may open the code span it is in, in order, each with its length
        # and the number of events held when it came (held blocks after it are in its span, if it is one).
        self._spans: tuple[tuple[int, int], ...] = ()
        self._line_blank = True  # the current line holds only whitespace so far
        self._code_cols = 0  # in INDENT: the columns its lines are in by at least
        self._comment_line = False  # in COMMENT: it started its line (so a blank line does not end it)
        self._wrapped = ""  # the Markdown construct the block being collected is written inside
        # The current line began inside a block: its start is no quote's or item's. Read from the text itself
        # (a line break since the block's end), not from the newlines scanned, which depend on the cut.
        self._line_in_block = False
        self._line_open = False  # in INLINE: the current line may start a block, read at its first stop
        self._line_in_span = False  # in INLINE: the current line began in it (so is no heading a span opened in)
        # Held while a code span is not known to be one (see INLINE): the events since its first block, the
        # length of its opening run, and, once known, whether it was "code" or "none".
        self._pending: list[ParseEvent] = []
        self._pending_span = 0
        self._settle_as = ""
        self._tentative: tuple[tuple[int, int], ...] = ()  # the block being collected is in such a span: _spans
        self._block_at = 0  # where in the stream that block starts
        self._held_until = -1  # where the held text ends at the latest (-1: until the first held block ends)
        # The input before the text being scanned, its last WINDOW characters at least, in pieces (joined only
        # when read: a chunk of a few characters is not worth copying a window for).
        self._recent: list[str] = []
        self._recent_len = 0
        # What CommonMark knows of the lines read (see _lists_at); the input not read for it yet (the latest
        # chunks in _fresh), from _unlisted_at in its first piece; the characters it has read and taken.
        self._lists = ListState()
        self._unlisted: deque[str] = deque()
        self._fresh: list[str] = []
        self._listed = self._taken = self._unlisted_at = 0
        self._block_before = ""  # those before the block being collected
        # Block state.
        self._buf = ""
        self._pos = 0
        self._phase = P_TAG
        self._name = ""
        self._param = ""
        self._content_start = 0
        self._content_parts: list[str] = []
        self._error = ""
        self._depth = 0
        self._spaced_at = -1
        self._ending = False  # the stream has ended: a failed block waits on no more text
        self._newlines = 0  # line breaks in the block so far (see open_block)

    # -- public API -------------------------------------------------------------------------------

    def feed(self, chunk: str) -> list[ParseEvent]:
        """Events completed by ``chunk``, in stream order."""
        if self._finished:
            raise ParserFinished("feed() after finish()")
        if not chunk:
            return []
        self._taken += len(chunk)  # kept for the list state (see MarkdownLines._lists_at)
        self._fresh.append(chunk)
        if len(self._fresh) > 256:
            self._join_fresh()
            if self._taken - self._listed > UNLISTED_MOST and self._mode is not _BLOCK and not self._pending_span:
                self._lists_at(self._hold + chunk, 0)  # the text before the held text is never read again
        if not self._hold and not self._line_start and not self._run_char:
            # The common cases: plain prose, or a code block's body, in the middle of a line.
            mode = self._mode
            if mode is _TEXT:
                stop = _TEXT_STOP
            elif mode is _FENCE and self._fence_line is _F_BODY:
                stop = _FENCE_STOP_TICK if self._fence_char == "`" else _FENCE_STOP_TILDE
            elif mode is _INDENT:
                stop = _NEWLINE
            elif mode is _COMMENT:
                stop = _COMMENT_STOP
            else:
                stop = None
            if stop is not None and stop.search(chunk) is None:
                self._recent.append(chunk)  # (as _remember does)
                self._recent_len += len(chunk)
                if self._recent_len > _RECENT_MOST:
                    self._recent, self._recent_len = ["".join(self._recent)[-WINDOW:]], WINDOW
                self._line_in_block = self._line_in_block and "\n" not in chunk
                return [TextChunk(chunk)]
        out: list[ParseEvent] = []
        self._fed += len(chunk)
        self._process(self._hold + chunk, out, self._shown)
        return out if len(out) < 2 else _merge_text(out)

    def finish(self) -> list[ParseEvent]:
        """End of stream: flush held text; an unterminated block becomes an ``InvalidBlock``."""
        if self._finished:
            return []
        self._finished = True
        result: list[ParseEvent] = []
        self._ending = True
        spaced = self._phase in (P_CONTENT, P_CDATA) and self._spaced_at >= 0
        if self._mode is _BLOCK and (self._phase in (P_FAILED, P_HELD) or spaced):
            # it ends where it failed (or at the "</tool >" in its element never closed), and the rest
            # is read again: a block held in it, never shown nested, is one of its own
            resume = self._feed_block("", 0, 0, self._pending if self._pending_span else result)
            if isinstance(resume, str):
                self._process(resume, result)
        while self._mode is _BLOCK and self._tentative:  # a block never closed, in a span closed inside it
            raw = self._raw(len(self._buf))
            closed, k = _span_close(raw, self._tentative, self._close_before(len(raw)))
            if closed < 0:
                break
            self._pending.append(TextChunk(raw[:closed]))
            self._close_block_span(k)
            self._recent, self._recent_len = [self._block_before, raw[:closed]], WINDOW  # (see _remember)
            self._process(raw[closed:], result)  # read again as text, as in a stream cut otherwise
        if self._run_char:  # a run at the very end: it may close the span a block was held in
            self._end_run()
        out = result + (self._settle(self._settle_as or "none") if self._pending_span else [])
        if self._mode is _BLOCK:
            out.append(InvalidBlock(self._raw(len(self._buf)), NOT_CLOSED))
            self._reset_block()
        if self._hold[self._shown :]:
            out.append(TextChunk(self._hold[self._shown :]))
        self._hold = ""
        return _merge_text(out)

    @property
    def open_block(self) -> OpenBlock | None:
        """The block being collected: its start tag ``<tool name="…">`` has come, its ``</tool>`` not yet, and
        nothing in it so far makes it invalid. None otherwise: in text, before the start tag is whole, or in
        a block that will be shown as text. It changes only inside ``feed`` and ``finish``, and is cheap to
        ask after each chunk: the engine shows a call as being written with it."""
        if self._mode is not _BLOCK or self._phase == P_TAG or self._error or self._wrapped or self._tentative:
            return None
        chars = self._base + len(self._buf)
        end, newlines = (self._input_end, self._input_end_newlines) if self._input_end >= 0 else (chars, self._newlines)
        if self._phase == P_CONTENT:  # a "</sou" it ends in may be its close: not counted yet (nor ever, then)
            begun = self._close_begun()
            end -= len(self._buf) - begun
            newlines -= self._buf.count("\n", begun)
        written = lines = 0
        if self._input_at >= 0 and end > self._input_at:
            written = end - self._input_at
            if not self._input_first:  # read once: it may have moved out of the working buffer since
                at = self._input_at - self._base
                self._input_first = self._buf[at] if at >= 0 else "".join(self._parts)[self._input_at]
            # a program written from the line after <source> starts with a line break: no line of its own
            lines = newlines - self._input_newlines + (self._input_first != "\n")
        return OpenBlock(self._name, self._param, chars, self._newlines + 1, written, lines)

    @property
    def inside(self) -> str:
        """The code the text read so far ends in, in plain words ("" in text or in a block): where a block
        would be shown as text, as the engine tells the model and the reader."""
        return _INSIDE.get(self._mode, "")

    def open_raw(self) -> str:
        """The raw text of the block being collected so far, start tag and all ("" in text): what would be
        shown as text if the stream ended here. Joined each time it is asked for: ask when it is needed."""
        return self._raw(len(self._buf)) if self._mode is _BLOCK else ""

    # -- the main loop ----------------------------------------------------------------------------

    def _process(self, s: str, result: list[ParseEvent], flushed: int = 0) -> None:
        """Scan ``s``, its first ``flushed`` characters out already (s[flushed:i] is text not yet emitted); text
        is emitted lazily as whole spans, only blocks interrupt it."""
        self._hold, self._shown = "", 0
        self._unclosed = None
        i = 0
        n = len(s)
        out = self._pending if self._pending_span else result  # where events go: held, while a span is unknown
        since = 0  # where in s the last block ended (see _in_block_line)
        while i < n:
            if self._settle_as:  # the span is known now: what was held goes out
                if i > flushed:
                    out.append(TextChunk(s[flushed:i]))
                    flushed = i
                result += self._settle(self._settle_as)
                out = result
            mode = self._mode
            if mode is _BLOCK:
                if i > flushed:
                    out.append(TextChunk(s[flushed:i]))
                resume = self._feed_block(s, i, min(n, i + _WINDOW), out)
                if isinstance(resume, str):
                    s, i, n = resume, 0, len(resume)
                else:
                    i = resume
                flushed = since = i
                if self._mode is _INLINE and self._pending_span and self._held_until < 0:
                    self._held_until = self._fed - n + i + self.max_held_chars  # the first held block ended
                continue
            if self._run_char:
                i = self._continue_run(s, i)
                continue
            if self._line_start:
                i = self._line_prefix(s, i)
                continue
            if mode is _TEXT:
                m = _TEXT_STOP.search(s, i)
            elif mode is _INDENT:
                m = _NEWLINE.search(s, i)
            elif mode is _COMMENT:
                m = _COMMENT_STOP.search(s, i)
            elif mode is _INLINE:
                m = _INLINE_STOP.search(s, i)
                cap = self._held_until - self._fed + n  # where in s the held text must end, if it is held
                if self._held_until >= 0 and cap <= (n if m is None else m.start()):
                    at = max(i, cap)  # held long enough, with no closing run: the span was none
                    self._note_content(s, i, at)
                    self._mode, self._settle_as, self._line_open = _TEXT, "none", False
                    i = at
                    continue
            elif self._fence_line is _F_INFO:
                m = _INFO_STOP.search(s, i)
            elif self._fence_line is _F_CLOSING:
                m = _CLOSING_STOP.search(s, i)
            else:
                end = self._past_closing_line(s, i, self._fence_char, self._fence_len, self._fence_indent)
                if end >= 0:
                    i = end
                    continue
                m = (_FENCE_STOP_TICK if self._fence_char == "`" else _FENCE_STOP_TILDE).search(s, i)
            if m is None:
                if mode is _INLINE or mode is _COMMENT:
                    self._note_content(s, i, n)
                break
            j = m.start()
            c = s[j]
            if (mode is _INLINE or mode is _COMMENT) and j > i:
                self._note_content(s, i, j)
            if mode is _INLINE and self._line_open and (c != "<" or s.startswith(OPEN, j)):  # ("<to" at the end: later)
                self._line_open = False
                if self._ends_paragraph(s, j):
                    i = j
                    continue
            if mode is _COMMENT and c == "-":
                if s.startswith(COMMENT_CLOSE, j):
                    self._mode, self._line_blank = _TEXT, False
                    i = j + len(COMMENT_CLOSE)
                    continue
                self._keep(s, j, flushed, since, out, True)  # "-" or "--": its close, perhaps, when more comes
                return
            if mode is _INLINE and c == "<":
                if s.startswith(OPEN, j):  # a block in what may be a code span: held until that is known
                    if not self._pending_span:
                        if j > flushed:
                            out.append(TextChunk(s[flushed:j]))
                            flushed = j
                        self._pending_span, out = self._spans[0][0], self._pending
                    spans = self._spans
                    self._block_before = self._before(s, j)
                    self._start_block()
                    self._tentative, self._block_at = spans, self._fed - n + j
                    self._wrapped = construct(self._block_before, line=not self._in_block_line(s, since, j))
                    i = j
                    continue
                if n - j < len(OPEN) and OPEN.startswith(s[j:]):  # "<to" at the end (s[j:] alone copied the rest)
                    self._keep(s, j, flushed, since, out)
                    return
                i = j + 1
                continue
            if mode is _FENCE and (self._fence_line is _F_CLOSING or self._fence_line is _F_INFO and c == "`"):
                if self._fence_line is _F_INFO:  # ```x` : an inline run of three backticks after all
                    self._mode = _INLINE
                    self._inline_run(self._fence_len)
                elif c == "\n":  # the closing run stood alone on its line
                    self._mode = _TEXT
                self._fence_line = _F_BODY
                i = j
                continue
            if c == "\n":
                if mode is _TEXT and (fence := _FENCE_LINE.match(s, j)) is not None and not self._no_fence(
                        s, fence.end(1), indent := _cols(fence.group(1))):
                    # A whole fenced block: when its closing line is here too, skip to its end.
                    run = fence.group(2) or fence.group(3)
                    end = self._past_closing_line(s, fence.end(), run[0], len(run), indent)
                    if end >= 0:  # as reading it would leave them:
                        self._fence_char, self._fence_len, self._fence_indent = run[0], len(run), indent
                        i = end
                        continue
                if mode is _INLINE and not self._line_in_span:
                    self._heading_ends(s, j)
                elif mode is _FENCE and self._fence_line is _F_INFO and self._spans:
                    self._bare_fence_closes(s, j)
                self._newline()
                i = j + 1
            elif c == "`":
                span = _SPAN.match(s, j)
                e = span.end(1)
                if e < n:  # the whole run is here: decide at once
                    self._line_blank = False
                    if mode is _TEXT:
                        closing = span.group(2)
                        # A span closed on its line, passed over (as reading it would) unless a block in it may
                        # be held past the bound: only a span longer than it can close too late.
                        if closing is not None and len(closing) == e - j and (
                                span.start(2) - e <= self.max_held_chars or s.find(OPEN, e, span.start(2)) < 0):
                            i = span.end()
                            continue
                        self._mode, self._spans, self._line_in_span = _INLINE, ((e - j, 0),), False
                    else:
                        self._inline_run(e - j)
                    i = e
                else:
                    self._run_char, self._run_len, self._run_at_line_start = "`", 0, False
                    i = j
            elif s.startswith(OPEN, j):  # "<" in TEXT mode
                before = self._before(s, j)
                wrapped = construct(before, line=not self._in_block_line(s, since, j))
                call = self._simple_block(s, j)
                if call is not None:  # the common case, a whole block with no entities or CDATA
                    if j > flushed:
                        out.append(TextChunk(s[flushed:j]))
                    out.append(InvalidBlock(call.raw, f"it is inside {wrapped}") if wrapped else call)
                    self._line_in_block = self._line_in_block or "\n" in call.raw
                    i = flushed = since = j + len(call.raw)
                    continue
                self._block_before = before
                self._start_block()
                self._wrapped = wrapped
                i = j
            elif s.startswith(COMMENT_OPEN, j):
                line = self._before(s, j)
                self._comment_line = not line[line.rfind("\n") + 1 :].strip()
                self._mode, self._line_blank = _COMMENT, False
                i = j + len(COMMENT_OPEN)
            elif n - j < len(OPEN) and (OPEN.startswith(s[j:]) or COMMENT_OPEN.startswith(s[j:])):
                # "<to", "<!-" at the end: read again (by length first: s[j:] copies the rest of s, at every "<")
                self._keep(s, j, flushed, since, out, not OPEN.startswith(s[j:]))
                return
            else:
                i = j + 1
        if n > flushed:
            out.append(TextChunk(s[flushed:]))
        if self._settle_as:
            result += self._settle(self._settle_as)
        self._in_block_line(s, since, n)
        self._remember(s, n)

    def _settle(self, known: str) -> list[ParseEvent]:
        """The held events, now that their span is known to be "code" (all text) or "none" (as read)."""
        held = self._pending
        self._pending, self._pending_span, self._settle_as, self._held_until = [], 0, "", -1
        return [TextChunk(e.raw) for e in held] if known == "code" else held

    def _keep(self, s: str, j: int, flushed: int, since: int, out: list[ParseEvent], release: bool = False) -> None:
        """Read ``s[j:]``, which may begin "<tool ", "<!--" or "-->" when more comes, again with the next chunk.
        Held back from the reader only if it may begin "<tool " (a block's text is its event's); else
        (``release``) it is out at once, and only where a comment starts or ends waits for more."""
        end = len(s) if release else j
        if end > flushed:
            out.append(TextChunk(s[flushed:end]))
        self._hold, self._shown = s[j:], len(s) - j if release else 0
        self._in_block_line(s, since, j)
        self._remember(s, j)

    def _simple_block(self, s: str, j: int) -> ToolCall | None:
        """The block starting at ``s[j]`` when it is whole and simple (no entities, CDATA or stray "<")."""
        m = _SIMPLE_BLOCK.match(s, j)
        if m is None or m.end() - j > self.max_block_chars:
            return None
        name, content = m.group(1).strip(), m.group(3).strip()
        if not name or not content:
            return None
        self._line_blank = False
        return ToolCall(name, m.group(2), content, m.group(0))

    # -- blocks -----------------------------------------------------------------------------------

    def _start_block(self) -> None:
        self._mode = _BLOCK
        self._buf = ""
        self._parts: list[str] = []
        self._base = 0
        self._pos = len(OPEN)
        self._phase = P_TAG
        self._name = ""
        self._param = ""
        self._content_parts = []
        self._error = ""
        self._wrapped = ""
        self._tentative = ()
        self._line_ticks = 0  # held in a possible span: the backticks ending its first line so far
        self._fail_at = 0  # in P_FAILED: where in _buf the block ends if no </tool> follows
        self._depth = 1
        self._newlines = 0
        self._input_at = -1  # where the inner element's content starts in the raw block (-1: not yet)
        self._input_newlines = 0  # the block's line breaks before it
        self._input_first = ""  # its first character, once it has come
        self._input_end = -1  # where it ends (its element closed), and the line breaks before that
        self._input_end_newlines = 0

    def _code_before(self, end: int) -> bool:
        """The block being collected is in a possible code span that a run before ``_buf[end]`` closes: no block
        opened after that run is nested in it ("`<tool name="x">` means: <tool …>")."""
        if not self._tentative:
            return False
        raw = self._raw(end)
        return _span_close(raw, self._tentative, self._close_before(len(raw)))[0] >= 0

    def _close_before(self, size: int) -> int:
        """How far into the held block being collected (``size`` characters so far) a run may close its span."""
        return self._held_until - self._block_at if self._held_until >= 0 else size

    def _reset_block(self) -> None:
        self._mode = _TEXT
        self._buf = ""
        self._parts = []
        self._base = 0
        self._content_parts = []

    def _close_block_span(self, run: int) -> None:
        """The held block being collected was code up to a run that closes its ``run``-th possible span."""
        spans = self._tentative
        self._reset_block()
        self._mode, self._spans, self._line_blank = _INLINE, spans, False
        self._close_span(run)

    def _closed_on_line(self, new: str, at: int) -> tuple[int, int]:
        """In a held block still open on its first line, ``new`` its text from ``raw[at]`` on: where a whole run
        of backticks on that line closes a span the block may be in, and which (as ``_span_close`` says once the
        block ends), so that the block is code as soon as it would be, fed whole, passed over with its span;
        (-1, -1) if none does yet. A run ending ``new`` may go on: its length so far is kept (``_line_ticks``)."""
        line = new.find("\n")
        new = new[: line + 1] if line >= 0 else new
        lengths = [length for length, _ in self._tentative]
        if self._held_until < 0 and self._phase not in (P_CONTENT, P_CDATA):
            # the first held block, which may yet end where it failed (or before its start tag's error): the text
            # held after it would end this far past there, and a run at or after that would close no span
            before = self._base + self._fail_at + self.max_held_chars
        else:
            before = self._close_before(at + len(new))
        runs = [(at + m.start(), at + m.end()) for m in _RUN.finditer(new)]
        if self._line_ticks:  # the run the text before ended in: it goes on here, or it is whole
            if runs and runs[0][0] == at:
                runs[0] = (at - self._line_ticks, runs[0][1])
            else:
                runs.insert(0, (at - self._line_ticks, at))
            self._line_ticks = 0
        for start, end in runs:
            if end == at + len(new):  # it may go on
                self._line_ticks = end - start
                break
            if start >= before:
                break
            if end - start in lengths:
                return end, lengths.index(end - start)
        return -1, -1

    def _feed_block(self, s: str, i: int, k: int, out: list[ParseEvent]) -> int | str:
        """Add s[i:k] to the open block and advance its phases.

        Returns the index in ``s`` where text resumes (``k`` while the block is still open), or, in the
        rare case that the block ended inside text carried from an earlier chunk, that text as a string.
        """
        old = len(self._buf)
        base, limit = self._base, self.max_block_chars
        first_line = self._newlines == 0
        self._buf += s[i:k]
        self._newlines += s.count("\n", i, k)
        past = self._buf[limit - base:]  # read up to the limit only, as a stream cut finer reaches it
        self._buf = self._buf[:limit - base] if past else self._buf
        end = self._scan_block()  # index in _buf just past the block, -1 (need more), or -(k+2) failed
        self._buf += past
        failed = -end - 2 if end < -1 else -1  # where an early failure ends the block
        if end == -1:
            if self._tentative and first_line and (self._line_ticks or s.find("`", i, k) >= 0):
                # a span closed on the block's line: code, as the pass over it reads
                closed, run = self._closed_on_line(s[i : min(k, i + limit - base - old)], base + old)
                if closed >= 0:
                    out.append(TextChunk(self._raw(closed - base)))
                    self._close_block_span(run)
                    return i + closed - base - old  # what follows that run is read again
            if base + len(self._buf) <= limit:
                self._compact()
                return k
            if self._phase in (P_CONTENT, P_CDATA) and self._spaced_at >= 0:  # never closed: ends at "</tool >"
                end = self._spaced_close()
                event: ParseEvent = InvalidBlock(self._raw(end), self._error)
            else:
                end = limit - base
                event = InvalidBlock(self._raw(end), _TOO_LONG.format(limit=limit))
        elif failed >= 0 and base + failed <= limit:
            end = failed  # early failure: the block is the text before it, the rest is text again
            event = InvalidBlock(self._raw(end), self._error)
        elif base + max(end, failed) > limit:  # ended past the limit: cut finer, the stream reached it first
            end = limit - base
            event = InvalidBlock(self._raw(end), _TOO_LONG.format(limit=limit))
        else:
            event = self._finish_block(self._raw(end))
        spans = self._tentative
        closed, run = _span_close(event.raw, spans, self._close_before(len(event.raw))) if spans else (-1, 0)
        if closed >= 0:
            # a span closed inside the block: code up to its closing run, and what follows is read again
            raw = event.raw
            after = self._buf[end:] + s[k:] if end < old else s[i + end - old :]
            out.append(TextChunk(raw[:closed]))
            self._close_block_span(run)
            self._recent, self._recent_len = [self._block_before, raw[:closed]], WINDOW
            return raw[closed:] + after
        out.append(event)
        self._line_in_block = self._line_in_block or "\n" in event.raw
        carried = self._buf[end:] if end < old else ""  # from an earlier chunk, then all of this one's
        self._reset_block()
        self._line_blank = False
        if spans:  # still in what may be a span, unless a blank line in the block ended its paragraph, or it
            # ended where the held text must end
            if _BLANK_LINE.search(event.raw) or 0 <= self._held_until <= self._block_at + len(event.raw):
                self._settle_as = "none"
            else:
                self._mode, self._spans = _INLINE, spans
        if carried:
            self._recent, self._recent_len = [self._block_before, event.raw], WINDOW  # the input before what follows
            return carried + s[k:]
        return i + (end - old)


def _span_close(raw: str, spans: tuple[tuple[int, int], ...], before: int) -> tuple[int, int]:
    """Where in a block read in a possible code span (``spans``: its possible opening runs) a span closes: just
    past the first run as long as one of them, starting before ``raw[before]``, and which of them it closes;
    (-1, -1): none does, or a blank line before it ended the paragraph."""
    blank = _BLANK_LINE.search(raw)
    lengths = [length for length, _ in spans]
    for run in _RUN.finditer(raw, 0, blank.start() if blank else len(raw)):
        if run.start() >= before:
            break
        if run.end() - run.start() in lengths:
            return run.end(), lengths.index(run.end() - run.start())
    return -1, -1


def inside_at(text: str, at: int) -> str:
    """The code ``text[at]`` is in (``XMLParseState.inside``): "" when it is in text."""
    state = XMLParseState()
    state.feed(text[: at + 1])
    return state.inside


def cut_at_limit(block: InvalidBlock) -> bool:
    """Whether the parser cut ``block`` at its length limit: the rest of it, its </tool> too, comes as text."""
    return _TOO_LONG_RE.match(block.reason) is not None


def rest_ends(text: str) -> int:
    """Where the rest of a block cut at the length limit, ``text`` on, ends: just past its </tool> (or a
    "</tool >" meant as it); -1 when that is not in ``text``."""
    close = _CLOSE_TAG_RE.search(text)
    return close.end() if close is not None else -1


def parse_all(text: str, **kwargs: int) -> list[ParseEvent]:
    """Parse a whole text at once (for tests, stored transcripts and the CLI)."""
    state = XMLParseState(**kwargs)
    return _merge_text(state.feed(text) + state.finish())

