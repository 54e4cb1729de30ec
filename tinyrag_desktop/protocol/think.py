"""ThinkSplitter: separates a model's inline ``<think>…</think>`` reasoning from its visible answer.

Reasoning models (DeepSeek-R1, Qwen3, …) served without a reasoning parser put their thoughts inline, at
the very start of their reply. That text is a separate channel: shown collapsed, never parsed for tool
blocks. Only a ``<think>`` that opens the reply (after blank space) starts it: one met later is the answer
talking about the tag (```` `<think>` ````, a Go string in a ``<source>``), and taking it for reasoning
would hide the rest of the answer and silence its tool blocks. Sans-I/O like the parser: text in,
``(channel, text)`` pairs out, holding back only a suffix that may still become a tag.

Some chat templates write the opening ``<think>`` into the prompt themselves (DeepSeek-R1's distills,
QwQ, Qwen3's thinking models): the reply starts inside its reasoning, and only its ``</think>`` shows
that. A ``</think>`` in a reply that opened none is read as that end ("a bare close"), at a line's start
or in its middle ("…so it is 4.</think>It is 4."), but not where an answer shows the tag: an inline code
span, a fenced or indented code block, a tool block. It is dropped, and ``(CLOSED, "")`` says that the text
before it was reasoning, which the caller already passed on as text. What decides it is read from the text
before it alone, so any cut of the stream finds it at the same place. A splitter made with ``presumed_open`` (the caller has seen this model
do so) starts in the reasoning instead; a ``<think>`` the reply opens with anyway is dropped as usual.
"""

from __future__ import annotations

import re

from .markdown_context import UNLISTED_MOST, ListState, cols

OPEN_TAG = "<think>"
CLOSE_TAG = "</think>"

TEXT = "text"
REASONING = "reasoning"
CLOSED = "closed"  # a bare </think>: the text passed on before it was the model's reasoning

_SPACE = " \t\r\n"
# A fence run opening or closing a fenced code block: at most three spaces before it (four make an indented
# code block, as in CommonMark). A line that starts so holds no bare close, whatever follows on it.
_FENCE_HEAD = re.compile(r" {0,3}(`{3,}|~{3,})")
# A line's start that may still become a fence run, or an indented code line, when more comes.
_MAY_BECOME = re.compile(r" {0,3}(?:`{0,2}|~{0,2})")
_INDENT = re.compile(r"[ \t]*")
TOOL_OPEN, TOOL_CLOSE = "<tool ", "</tool>"  # as the parser reads a block (protocol/parser.py)
# What a line of ordinary text is read for: code spans' backtick runs, the bare close, a tool block's start.
_TEXT_TOKEN = re.compile(r"`+|" + re.escape(CLOSE_TAG) + "|" + re.escape(TOOL_OPEN))
# What may still become one of those tags when more comes (each has one "<", its first character).
_TAGS = (CLOSE_TAG, TOOL_OPEN, TOOL_CLOSE)
_HEAD, _TEXT, _SKIP = "head", "text", "skip"  # what the current line is, once its head is read


def _undecided(text: str, start: int) -> int:
    """Where the end of ``text[start:]`` that may still grow into a token begins (a backtick run, a tag
    begun); ``len(text)`` if none."""
    if text.endswith("`"):
        return max(start, len(text.rstrip("`")))
    k = text.rfind("<", max(start, len(text) - len(CLOSE_TAG) + 1))
    if k >= 0 and any(len(text) - k < len(tag) and tag.startswith(text[k:]) for tag in _TAGS):
        return k
    return len(text)


class ThinkSplitter:
    """Split a stream into ``("text", s)`` and ``("reasoning", s)`` pieces, in order (and one ``CLOSED``
    marker where a bare ``</think>`` ends reasoning the reply never opened)."""

    def __init__(self, presumed_open: bool = False) -> None:
        self._in_think = presumed_open
        self.presumed = presumed_open  # started inside the reasoning, without a <think> of its own
        self._opening = True  # nothing but blank space so far: a <think> here opens the reasoning
        self._bare_close = not presumed_open  # a bare </think> may still end reasoning the reply never opened
        # While a bare close may come, what the text passed on so far is in (each known from the text before
        # it alone, so that no cut of the stream changes where the close is found):
        self._fence = ""  # the run that opened the fenced code block the text is in ("" outside one)
        self._line = _HEAD  # the current line: its head not read yet, ordinary text, or code (_SKIP)
        self._span = 0  # the length of the backtick run that opened the inline code span it is in (0: none)
        self._tool = False  # inside a tool block (a Go program may hold "</think>" in a string)
        self._code = 0  # in an indented code block: the columns its lines are in by at least (0: none)
        self._lists = ListState()  # what CommonMark knows of the lines passed on (markdown_context), read only
        self._unlisted: list[str] = []  # when a line four columns in asks: the text passed on before, not read yet
        self._listed = 0  # the characters of the text being read passed on to it
        self._batches = 0  # the first pieces of it, each joined from many
        self._hold = ""

    @property
    def in_reasoning(self) -> bool:
        return self._in_think

    def feed(self, chunk: str) -> list[tuple[str, str]]:
        s = self._hold + chunk
        self._hold = ""
        out: list[tuple[str, str]] = []
        i = 0
        if self._opening:
            rest = s.lstrip(_SPACE)
            i = len(s) - len(rest)
            if not self._in_think and not rest.startswith(OPEN_TAG):
                # Text, or blank so far: its current line's spaces are that line's indent, read with it (as
                # fed whole, "    - " after blank lines is indented code), and the blank lines are before it.
                i = s.rfind("\n", 0, i) + 1
                if OPEN_TAG.startswith(rest):  # blank so far, or a <think> begun
                    self._hold = s[i:]
                    self._unlisted.append(s[:i])
                    return [(TEXT, s[:i])] if i else []
                self._opening = False
                return self._text(s, 0)
            if i:
                out.append((REASONING if self._in_think else TEXT, s[:i]))
            if not rest:
                return out
            if rest.startswith(OPEN_TAG):
                self._in_think = True
                self._bare_close = False
                i += len(OPEN_TAG)
            elif OPEN_TAG.startswith(rest):
                self._hold = rest
                return out
            self._opening = False
        if not self._in_think:
            if self._bare_close:
                return out + self._text(s, i)
            if i < len(s):
                out.append((TEXT, s[i:]))
            return out
        j = s.find(CLOSE_TAG, i)
        if j >= 0:
            if j > i:
                out.append((REASONING, s[i:j]))
            self._in_think = False
            if j + len(CLOSE_TAG) < len(s):
                out.append((TEXT, s[j + len(CLOSE_TAG) :]))
            return out
        # Hold a suffix that may still become </think>.
        k = s.rfind("<", max(i, len(s) - len(CLOSE_TAG) + 1))
        if k >= 0 and CLOSE_TAG.startswith(s[k:]):
            if k > i:
                out.append((REASONING, s[i:k]))
            self._hold = s[k:]
        elif i < len(s):
            out.append((REASONING, s[i:]))
        return out

    def _text(self, s: str, i: int) -> list[tuple[str, str]]:
        """Text of a reply that opened no reasoning, read for a bare close: a ``</think>`` anywhere on a line
        of ordinary text ("so it is 4.</think>It is 4."), but not in a fenced or indented code block, an
        inline code span, a line starting with a fence run, or a tool block: there an answer shows the tag
        (a model's raw output, `</think>`, a Go string). Holds back only an end that may still grow into
        something read (a line's head, a backtick run, a tag begun)."""
        pos = i
        while pos < len(s):
            if self._tool:
                end = s.find(TOOL_CLOSE, pos)
                if end < 0:
                    pos = _undecided(s, pos)
                    break
                pos, self._tool, self._line, self._span = end + len(TOOL_CLOSE), False, _TEXT, 0
                continue
            newline = s.find("\n", pos)
            if self._line == _HEAD:
                head = _FENCE_HEAD.match(s, pos, newline if newline >= 0 else len(s))
                if head or (newline < 0 and _MAY_BECOME.fullmatch(s, pos)):
                    if newline < 0:
                        break  # a fence line not ended yet, or a head not read yet: held, read whole when it is
                    self._fence_line(head.group(1), s[head.end() : newline])  # type: ignore[union-attr]
                    pos, self._code = newline + 1, 0
                    continue
                indent = _INDENT.match(s, pos).end()  # type: ignore[union-attr]
                if newline < 0 and indent == len(s):
                    break  # spaces so far: a blank line (in code still) or one further in, when more comes
                if self._fence:
                    self._line = _SKIP
                else:
                    self._line = _SKIP if self._indented(s, pos, indent, newline) else _TEXT
            if self._line == _TEXT:
                stop = newline if newline >= 0 else _undecided(s, pos)
                for m in _TEXT_TOKEN.finditer(s, pos, stop):
                    token = m.group()
                    if token[0] == "`":  # a run opens a code span, and the next run as long closes it
                        # The first run still open is all that counts: while it is, a close may be in a span,
                        # whichever run opens it (the parser keeps them all, CommonMark's rule, as it holds
                        # blocks until it knows); once it is closed, so is every run before.
                        self._span = 0 if self._span == len(token) else self._span or len(token)
                    elif self._span:
                        continue
                    elif token == CLOSE_TAG:
                        self._bare_close = False
                        out = [(TEXT, s[i : m.start()])] if m.start() > i else []
                        out.append((CLOSED, ""))
                        return out + ([(TEXT, s[m.end() :])] if m.end() < len(s) else [])
                    else:
                        self._tool, stop = True, m.end()
                        break
                pos = stop
                if self._tool:
                    continue
                if newline < 0 or pos < newline:
                    break  # an end that may still grow into a run or a tag: held
            elif newline < 0:
                pos = len(s)
                break
            # (a code span ends with its line: a backtick left open does not hide the lines after it)
            pos, self._line, self._span = newline + 1, _HEAD, 0
        self._hold = s[pos:]
        self._unlisted.append(s[self._listed : pos])
        self._listed = 0
        if len(self._unlisted) > self._batches + 256:  # (joined in batches: a piece a token would take more room)
            self._unlisted[self._batches :] = ["".join(self._unlisted[self._batches :])]
            self._batches += 1
            if sum(map(len, self._unlisted)) > UNLISTED_MOST:  # (read anyway: an answer is not kept whole)
                self._read_unlisted()
        return [(TEXT, s[i:pos])] if pos > i else []

    def _indented(self, s: str, pos: int, first: int, newline: int) -> bool:
        """Whether the line starting at ``s[pos]``, its first character after its spaces ``s[first]`` (its line
        break ``s[newline]``, if it is blank), is a line of indented code."""
        indent, blank = cols(s[pos:first]), first == newline
        if self._code and (blank or indent >= self._code):
            return True
        self._code = 0
        if indent < 4 or blank:
            return False
        self._unlisted.append(s[self._listed : pos])
        self._read_unlisted()
        self._listed = pos
        need = self._lists.code_indent(indent)
        if need is None or indent < need:
            return False
        self._code = need
        return True

    def _read_unlisted(self) -> None:
        self._lists.read("".join(self._unlisted))
        self._unlisted, self._batches = [], 0

    def _fence_line(self, run: str, rest: str) -> None:
        """A whole line that starts with a fence run: it opens or closes a fenced code block, or neither."""
        if self._fence:  # closed by a run of its character, at least as long, and nothing after it
            if run[0] == self._fence[0] and len(run) >= len(self._fence) and not rest.strip():
                self._fence = ""
        elif run[0] == "~" or "`" not in rest:  # a backtick fence's info string holds no backtick
            self._fence = run

    def finish(self) -> list[tuple[str, str]]:
        held, self._hold = self._hold, ""
        if not held:
            return []
        return [(REASONING if self._in_think else TEXT, held)]
