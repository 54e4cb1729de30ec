"""ThinkSplitter: separates a model's inline ``<think>…</think>`` reasoning from its visible answer.

Reasoning models (DeepSeek-R1, Qwen3, …) served without a reasoning parser put their thoughts inline.
That text is a separate channel: shown collapsed, never parsed for tool blocks. Sans-I/O like the parser:
text in, ``(channel, text)`` pairs out, holding back only a suffix that may still become a tag.
"""

from __future__ import annotations

OPEN_TAG = "<think>"
CLOSE_TAG = "</think>"

TEXT = "text"
REASONING = "reasoning"


class ThinkSplitter:
    """Split a stream into ``("text", s)`` and ``("reasoning", s)`` pieces, in order."""

    def __init__(self) -> None:
        self._in_think = False
        self._hold = ""

    @property
    def in_reasoning(self) -> bool:
        return self._in_think

    def feed(self, chunk: str) -> list[tuple[str, str]]:
        s = self._hold + chunk
        self._hold = ""
        out: list[tuple[str, str]] = []
        i = 0
        while i < len(s):
            tag = CLOSE_TAG if self._in_think else OPEN_TAG
            channel = REASONING if self._in_think else TEXT
            j = s.find(tag, i)
            if j >= 0:
                if j > i:
                    out.append((channel, s[i:j]))
                self._in_think = not self._in_think
                i = j + len(tag)
                continue
            # Hold a suffix that is a prefix of the tag we wait for.
            k = s.rfind("<", max(i, len(s) - len(tag) + 1))
            if k >= 0 and tag.startswith(s[k:]):
                if k > i:
                    out.append((channel, s[i:k]))
                self._hold = s[k:]
            else:
                out.append((channel, s[i:]))
            break
        return out

    def finish(self) -> list[tuple[str, str]]:
        held, self._hold = self._hold, ""
        if not held:
            return []
        return [(REASONING if self._in_think else TEXT, held)]
