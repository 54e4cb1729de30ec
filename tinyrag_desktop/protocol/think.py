"""ThinkSplitter: separates a model's inline ``<think>…</think>`` reasoning from its visible answer.

Reasoning models (DeepSeek-R1, Qwen3, …) served without a reasoning parser put their thoughts inline, at
the very start of their reply. That text is a separate channel: shown collapsed, never parsed for tool
blocks. Only a ``<think>`` that opens the reply (after blank space) starts it: one met later is the answer
talking about the tag (```` `<think>` ````, a Go string in a ``<source>``), and taking it for reasoning
would hide the rest of the answer and silence its tool blocks. Sans-I/O like the parser: text in,
``(channel, text)`` pairs out, holding back only a suffix that may still become a tag.
"""

from __future__ import annotations

OPEN_TAG = "<think>"
CLOSE_TAG = "</think>"

TEXT = "text"
REASONING = "reasoning"

_SPACE = " \t\r\n"


class ThinkSplitter:
    """Split a stream into ``("text", s)`` and ``("reasoning", s)`` pieces, in order."""

    def __init__(self) -> None:
        self._in_think = False
        self._opening = True  # nothing but blank space so far: a <think> here opens the reasoning
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
                out.append((TEXT, s[:i]))
            if not rest:
                return out
            if rest.startswith(OPEN_TAG):
                self._in_think = True
                i += len(OPEN_TAG)
            elif OPEN_TAG.startswith(rest):
                self._hold = rest
                return out
            self._opening = False
        if not self._in_think:
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

    def finish(self) -> list[tuple[str, str]]:
        held, self._hold = self._hold, ""
        if not held:
            return []
        return [(REASONING if self._in_think else TEXT, held)]
