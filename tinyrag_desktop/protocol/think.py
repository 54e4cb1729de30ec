"""ThinkSplitter: separates a model's inline ``<think>…</think>`` reasoning from its visible answer.

Reasoning models (DeepSeek-R1, Qwen3, …) served without a reasoning parser put their thoughts inline, at
the very start of their reply. That text is a separate channel: shown collapsed, never parsed for tool
blocks. Only a ``<think>`` that opens the reply (after blank space) starts it: one met later is the answer
talking about the tag (```` `<think>` ````, a Go string in a ``<source>``), and taking it for reasoning
would hide the rest of the answer and silence its tool blocks. Sans-I/O like the parser: text in,
``(channel, text)`` pairs out, holding back only a suffix that may still become a tag.

Some chat templates write the opening ``<think>`` into the prompt themselves (DeepSeek-R1's distills,
QwQ, Qwen3's thinking models): the reply starts inside its reasoning, and only its ``</think>`` shows
that. A ``</think>`` at the start of a line of a reply that opened none is read as that end ("a bare
close"): it is dropped, and ``(CLOSED, "")`` says that the text before it was reasoning, which the
caller already passed on as text. A splitter made with ``presumed_open`` (the caller has seen this model
do so) starts in the reasoning instead; a ``<think>`` the reply opens with anyway is dropped as usual.
"""

from __future__ import annotations

import re

OPEN_TAG = "<think>"
CLOSE_TAG = "</think>"

TEXT = "text"
REASONING = "reasoning"
CLOSED = "closed"  # a bare </think>: the text passed on before it was the model's reasoning

_SPACE = " \t\r\n"
# What a line of a reply that opened no reasoning may start with: a fence run, or a bare close, after at most
# three spaces (four make an indented code block, as in CommonMark).
_LINE_HEAD = re.compile(r"^ {0,3}(`{3,}|~{3,}|</think>)", re.M)
# A last line still open that may become one of them: a start of a fence run or of the tag, or a fence
# line whose end has not come (its info string, or a longer run, may follow).
_MAY_BECOME = re.compile(r" {0,3}(?:`{0,2}|~{0,2}|`{3,}[^\n]*|~{3,}[^\n]*|" + "|".join(
    re.escape(CLOSE_TAG[:n]) for n in range(1, len(CLOSE_TAG))) + ")")


class ThinkSplitter:
    """Split a stream into ``("text", s)`` and ``("reasoning", s)`` pieces, in order (and one ``CLOSED``
    marker where a bare ``</think>`` ends reasoning the reply never opened)."""

    def __init__(self, presumed_open: bool = False) -> None:
        self._in_think = presumed_open
        self.presumed = presumed_open  # started inside the reasoning, without a <think> of its own
        self._opening = True  # nothing but blank space so far: a <think> here opens the reasoning
        self._bare_close = not presumed_open  # a bare </think> may still end reasoning the reply never opened
        self._line_start = True  # the text passed on so far ends a line (or there is none)
        self._fence = ""  # the run that opened the fenced code block the text is in ("" outside one)
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
        """Text of a reply that opened no reasoning, with a bare close looked for at each line's start (not
        inside a fenced or indented code block: an answer may show a model's raw output)."""
        text = s[i:]
        line_start = self._line_start or (i > 0 and s[i - 1] == "\n")
        newline = text.find("\n")
        first = 0 if line_start else (newline + 1 if newline >= 0 else len(text))
        for m in _LINE_HEAD.finditer(text, first):
            run = m.group(1)
            if run == CLOSE_TAG:
                if not self._fence:
                    self._bare_close = False
                    out = [(TEXT, text[: m.start()])] if m.start() else []
                    out.append((CLOSED, ""))
                    return out + ([(TEXT, text[m.end():])] if m.end() < len(text) else [])
                continue
            end = text.find("\n", m.end())
            if end < 0:
                break  # a fence line not ended yet: held below, and read whole when it is
            rest = text[m.end():end]
            if self._fence:  # closed by a run of its character, at least as long, and nothing after it
                if run[0] == self._fence[0] and len(run) >= len(self._fence) and not rest.strip():
                    self._fence = ""
            elif run[0] == "~" or "`" not in rest:  # a backtick fence's info string holds no backtick
                self._fence = run
        # Hold a last line that may still become a fence or a bare close (its line is looked at again then).
        last = text.rfind("\n") + 1
        if (last or line_start) and _MAY_BECOME.fullmatch(text, last):
            self._hold, text = text[last:], text[:last]
        if text:
            self._line_start = text.endswith("\n")
            return [(TEXT, text)]
        return []

    def finish(self) -> list[tuple[str, str]]:
        held, self._hold = self._hold, ""
        if not held:
            return []
        return [(REASONING if self._in_think else TEXT, held)]
