"""The Markdown the parser reads line by line: line starts, backtick and tilde runs, fences, indented code."""

from __future__ import annotations

import re
from collections import deque

from .events import ParseEvent, TextChunk
from .markdown_context import ATX, WINDOW, ListState
from .markdown_context import cols as _cols

# The parser's modes (explained in protocol/parser.py's header).
TEXT, FENCE, INDENT, COMMENT, INLINE, BLOCK = "TEXT", "FENCE", "INDENT", "COMMENT", "INLINE", "BLOCK"
# Where a FENCE is on its current line: in its body, on its opening line (the info string), or just past
# a run that closes it if nothing but spaces follows.
F_BODY, F_INFO, F_CLOSING = "BODY", "INFO", "CLOSING"
# A fence's closing line: a run of its character at least as long as the opening one, alone on its line.
_CLOSING_LINE = {
    c: re.compile(rf"\n([ \t]*)({re.escape(c)}{{3,}})[ \t\r]*(?=\n)") for c in "`~"
}
_WS = " \t\r\n"
_BARE_TICKS = re.compile(r"[ \t]*(`{3,})[ \t\r]*\Z")  # a fence line with no info string: ``` alone
_BLOCK_CHARS = frozenset(">#-+*_=~0123456789")  # what a line that starts a block (_BLOCK_START) starts with
# A line (at most three columns in) that starts a block, read up to and with the character that ends what is
# read of it: a quote, a heading, a list item, a ~~~ fence, a thematic break or a heading's underline. It ends a
# paragraph, as a blank line does: any other line continues it ("lazily"), in a list item or a quote too.
_BLOCK_START = re.compile(
    r"[ \t]*(?:>|#{1,6}(?:[ \t]|\r?\n)|(?:[-+*]|\d{1,9}[.)])[ \t]|(?P<tildes>~{3,})"
    r"|([-*_])[ \t]*(?:\2[ \t]*){2,}\r?\n|(?:=+|-+)[ \t\r]*\n)"
)
# The quote marks and list markers a line's block sits behind ("> - ## Title"): a heading there is one too.
_CONTAINER_MARKS = re.compile(r"(?:[ \t]*(?:>[ \t]?|(?:[-+*]|\d{1,9}[.)])[ \t]+))*")
RECENT_MOST = 4 * WINDOW  # characters kept in pieces before they are joined and cut to the window


class MarkdownLines:
    """The line-by-line Markdown state of ``XMLParseState``, for it to inherit; the state lives there."""

    _mode: str
    _line_start: bool
    _line_blank: bool
    _line_in_block: bool
    _line_open: bool
    _line_in_span: bool
    _ls_cols: int
    _run_char: str
    _run_len: int
    _run_at_line_start: bool
    _run_cols: int
    _fence_char: str
    _fence_len: int
    _fence_indent: int
    _fence_line: str
    _spans: tuple[tuple[int, int], ...]
    _code_cols: int
    _comment_line: bool
    _unclosed: tuple[str, int, str, int, int] | None
    _recent: list[str]
    _recent_len: int
    _lists: ListState
    _unlisted: deque[str]
    _unlisted_at: int
    _fresh: list[str]
    _taken: int
    _listed: int
    _pending: list[ParseEvent]
    _pending_span: int
    _settle_as: str

    def _in_block_line(self, s: str, since: int, j: int) -> bool:
        """Whether the line ``s[j]`` is on began inside a block that ended at ``s[since]``, or earlier."""
        if self._line_in_block and "\n" in s[since:j]:
            self._line_in_block = False
        return self._line_in_block

    def _remember(self, s: str, end: int) -> None:
        """The input up to ``s[end]`` has been read: keep its last WINDOW characters."""
        piece = s[end - WINDOW : end] if end > WINDOW else s[:end]
        self._recent.append(piece)
        self._recent_len += len(piece)
        if self._recent_len > RECENT_MOST:
            self._recent, self._recent_len = ["".join(self._recent)[-WINDOW:]], WINDOW

    def _before(self, s: str, j: int) -> str:
        """The last WINDOW characters of the input before ``s[j]``."""
        if len(self._recent) > 1:
            self._recent = ["".join(self._recent)[-WINDOW:]]
        return ((self._recent[0] if self._recent else "") + s[max(0, j - WINDOW) : j])[-WINDOW:]

    def _code_line(self, s: str, j: int, indent: int) -> bool:
        """Whether the line whose first character after its ``indent`` columns of spaces is ``s[j]``, in text, is
        indented code (and then the parser is in INDENT)."""
        if indent < 4:
            return False
        need = self._lists_at(s, j).code_indent(indent)
        if need is None or indent < need:
            return False
        self._mode, self._code_cols = INDENT, need
        return True

    def _no_fence(self, s: str, j: int, indent: int) -> bool:
        """Whether the line whose first character after its ``indent`` columns of spaces is ``s[j]``, in text, opens
        no fence whatever it holds: it is indented code (then the parser is in INDENT), or a paragraph's next
        line too far in ("text", then "·······~~~" is the paragraph's text)."""
        return self._code_line(s, j, indent) or indent > 3 and indent >= self._lists.margin(indent) + 4

    def _join_fresh(self) -> None:
        """The chunks taken (``_fresh``, as ``feed`` keeps them) are joined into one piece: the list state reads
        the input only when a line four columns in asks (an answer with none is never read for its lists), and
        a piece per token would take more room than its text."""
        self._unlisted.append("".join(self._fresh))
        self._fresh.clear()

    def _lists_at(self, s: str, j: int) -> ListState:
        """The list state before ``s[j]`` (its lines before s[j]'s read, and no more: the lines after it may still
        be read again, a block's text read as text). ``s`` ends where the stream taken so far does."""
        unlisted, need = self._unlisted, self._taken - len(s) + j - self._listed
        if self._fresh:
            self._join_fresh()
        self._listed += max(need, 0)
        while need > 0:  # (the first piece read from _unlisted_at on: a long one is not copied again each line)
            piece, at = unlisted[0], self._unlisted_at
            if len(piece) - at > need:
                self._lists.read(piece[at : at + need])
                self._unlisted_at += need
                break
            self._lists.read(piece[at:] if at else piece)
            unlisted.popleft()
            self._unlisted_at, need = 0, need - (len(piece) - at)
        return self._lists

    def _past_closing_line(self, s: str, i: int, char: str, length: int, indent: int) -> int:
        """In a fence of ``length`` ``char``s opened ``indent`` columns in, before the end of a line of its
        body: where the line that closes it ends (its newline), if that is in ``s``, the parser then back
        in text; else -1. A closing line is indented at most three columns more than the opening one (a
        fence line written inside the code, further in, is code).

        Lines before it change nothing (a shorter run, or a run with text after it, leaves the fence
        open), so the scan goes there at once, leaving the state as reading each line would."""
        unclosed = self._unclosed
        if unclosed is not None and unclosed[0] is s and i >= unclosed[1] and unclosed[2:] == (char, length, indent):
            return -1  # searched to the end of s already: looking again after each line would be quadratic
        pattern = _CLOSING_LINE[char]
        pos = i
        while (m := pattern.search(s, pos)) is not None:
            if m.end(2) - m.start(2) >= length and _cols(m.group(1)) <= indent + 3:
                self._mode, self._fence_line, self._line_blank = TEXT, F_BODY, False
                return m.end()
            pos = m.end()
        self._unclosed = (s, i, char, length, indent)
        return -1

    def _note_content(self, s: str, i: int, j: int) -> None:
        if self._line_blank and s[i:j].strip(_WS):
            self._line_blank = False

    def _ends_paragraph(self, s: str, j: int) -> bool:
        """In INLINE, at ``s[j]``, the first backtick, "<" or line break of a line: whether the line starts a
        block, which ends the paragraph and so the possible code span (its runs were literal), as a blank line
        does. Then the parser is in text, or in the fence the line opens."""
        line = self._line_before(s, j)
        block = _BLOCK_START.match(line + s[j]) if line is not None else None
        if block is None:
            return False
        if block.group("tildes"):
            self._end_span(FENCE)
            self._fence_char, self._fence_len = "~", len(block.group("tildes"))
            self._fence_indent, self._fence_line = self._ls_cols, F_BODY
        else:
            self._end_span()
        return True

    def _heading_ends(self, s: str, j: int) -> None:
        """In INLINE, at the line break ``s[j]`` of a line that did not begin in it: a heading is one line, so if
        this line is one (the span opened in it), its end is the possible span's too. (A line that began in the
        span is no heading: it would have ended the span, see _ends_paragraph.)"""
        line = self._line_before(s, j)
        if line is not None and ATX.match(line, _CONTAINER_MARKS.match(line).end()):
            self._end_span()

    def _bare_fence_closes(self, s: str, j: int) -> None:
        """In a fence line begun in a paragraph, at its line break ``s[j]``: a bare one (``` alone) as long as a
        run kept closes that run instead, as before fences ended paragraphs. CommonMark would open a fence here,
        but "Some text. ```" + a call + "```" is a fence the model wrote sloppily round a call, not a call to
        run (spec rule 5): read as a code span, the call stays text."""
        line = self._line_before(s, j)
        bare = _BARE_TICKS.match(line) if line is not None else None
        if bare is not None and len(bare.group(1)) == self._fence_len and any(
                opened == self._fence_len for opened, _ in self._spans):
            self._mode = INLINE
            self._inline_run(self._fence_len)

    def _line_before(self, s: str, j: int) -> str | None:
        """The line ``s[j]`` is on, up to it; None if it began more than WINDOW characters before."""
        start = s.rfind("\n", max(0, j - WINDOW), j) + 1
        if start or j >= WINDOW:
            return s[start:j] if start else None
        before = self._before(s, j)  # it began in an earlier piece of the stream, or with it
        start = before.rfind("\n") + 1
        return before[start:] if start or len(before) < WINDOW else None

    def _end_span(self, mode: str = TEXT) -> None:
        """The paragraph ended: the possible code span was none, the runs kept are literal; the parser is in ``mode``."""
        if self._pending_span:
            self._settle_as = "none"
        self._mode, self._spans = mode, ()

    def _newline(self) -> None:
        if self._line_blank and self._mode is INLINE:
            self._end_span()  # a blank line ends a paragraph: the span was none, its backticks are characters
        elif self._mode is FENCE and self._spans:
            self._end_span(FENCE)  # a fence opened in a paragraph (no backtick on its line): it ended the paragraph
        elif self._line_blank and self._mode is COMMENT and not self._comment_line:
            self._mode = TEXT  # and an unclosed comment
        self._line_start = True
        self._ls_cols = 0
        self._line_blank = True
        self._fence_line = F_BODY

    def _line_prefix(self, s: str, i: int) -> int:
        """At a line start: spaces or tabs, then perhaps a fence run, or in INLINE a line that may start a block."""
        n = len(s)
        j = i
        cols = self._ls_cols
        while j < n and s[j] in " \t":
            cols = cols + 1 if s[j] == " " else cols + 4 - cols % 4  # a tab to the next stop of four
            j += 1
        self._ls_cols = cols
        if j == n:
            return j
        self._line_start = False
        self._line_open = self._line_in_span = False
        c = s[j]
        if self._mode is INLINE and c not in "\r\n":
            self._line_in_span = True
            if 0 <= self._held_until <= self._fed - n + j:
                self._end_span()  # held long enough before this line: the span was none (as in the main loop)
            elif cols > 3:
                return j  # a paragraph's next line, however it starts
            elif c == "`":  # perhaps a fence (see _end_run)
                self._run_char, self._run_len, self._run_at_line_start, self._run_cols = c, 0, True, cols
                return j
            else:  # the main loop asks _ends_paragraph at its first stop, if the line may start a block
                self._line_open = c in _BLOCK_CHARS
                return j
        if self._mode is INDENT:
            if c in "\r\n" or cols >= self._code_cols:
                return j  # a blank line, or one as far in: still code
            self._mode = TEXT
        if self._mode is TEXT and c not in "\r\n" and self._no_fence(s, j, cols):
            return j
        if c in "`~" and (self._mode is TEXT or self._mode is FENCE):
            if self._mode is FENCE and c != self._fence_char:
                return j
            self._run_char, self._run_len, self._run_at_line_start = c, 0, True
            self._run_cols = cols
        return j

    def _continue_run(self, s: str, i: int) -> int:
        """Count a run of backticks or tildes; decide what it opens or closes when it ends."""
        c = self._run_char
        j = i
        n = len(s)
        while j < n and s[j] == c:
            j += 1
        if j > i:
            self._run_len += j - i
            self._line_blank = False
        if j < n:
            self._end_run()
        return j

    def _end_run(self) -> None:
        c, length, at_start = self._run_char, self._run_len, self._run_at_line_start
        self._run_char, self._run_len, self._run_at_line_start = "", 0, False
        mode = self._mode
        if mode is FENCE:
            if at_start and c == self._fence_char and length >= self._fence_len and (
                    self._run_cols <= self._fence_indent + 3):
                self._fence_line = F_CLOSING  # closes it if the line holds nothing more
        elif mode is TEXT:
            if at_start and length >= 3:
                self._mode, self._fence_char, self._fence_len, self._spans = FENCE, c, length, ()
                self._fence_indent = self._run_cols
                self._fence_line = F_INFO if c == "`" else F_BODY
            elif c == "`":
                self._mode, self._spans, self._line_in_span = INLINE, ((length, 0),), False
        elif mode is INLINE and c == "`" and at_start and length >= 3:
            # A fence, ending the paragraph, if no backtick follows on its line; else an inline run after all:
            # the runs kept wait in _spans till then (the main loop decides at the line's end or that backtick).
            self._mode, self._fence_char, self._fence_len = FENCE, c, length
            self._fence_indent, self._fence_line = self._run_cols, F_INFO
        elif mode is INLINE and c == "`":
            self._inline_run(length)

    def _inline_run(self, length: int) -> None:
        """A run of ``length`` backticks in INLINE: it closes the open run as long, or opens a span itself
        (CommonMark: a run no later run closes is literal, and the next run may open a span)."""
        for k, (opened, _) in enumerate(self._spans):
            if opened == length:
                self._close_span(k)
                return
        self._spans += ((length, len(self._pending)),)

    def _close_span(self, k: int) -> None:
        """The ``k``-th open run is closed: text since it was code, whichever earlier run turns out literal, and
        so are the runs opened after it. Held blocks written after it are text; if it opened before the first
        held block, all held is text."""
        held = self._spans[k][1]
        self._spans = self._spans[:k]
        if not self._spans:
            self._mode = TEXT
        if self._pending_span and not held:
            self._settle_as = "code"
        elif self._pending_span:
            self._pending[held:] = [TextChunk(e.raw) for e in self._pending[held:]]
