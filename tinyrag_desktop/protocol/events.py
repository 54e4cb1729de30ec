"""The parser's events: frozen values that together reproduce the streamed text exactly."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TextChunk:
    """Visible text."""

    text: str

    @property
    def raw(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A complete, valid block. ``param`` is the inner element (query, url or source); ``content`` is
    its decoded, stripped text; ``raw`` is the block exactly as streamed."""

    name: str
    param: str
    content: str
    raw: str


@dataclass(frozen=True, slots=True)
class InvalidBlock:
    """Something that started as a tool block but is not a valid one; it is shown as text."""

    raw: str
    reason: str

    @property
    def text(self) -> str:
        return self.raw


ParseEvent = TextChunk | ToolCall | InvalidBlock
