"""The parser's events: frozen values that together reproduce the streamed text exactly."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


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


class OpenBlock(NamedTuple):
    """No event but the parser's view of the block it is collecting (``XMLParseState.open_block``): its start
    tag ``<tool name="…">`` has come, its ``</tool>`` not yet, and nothing in it so far makes it invalid.
    ``param`` is the inner element's name ("" before it comes); ``chars`` counts the block's raw text so far,
    ``lines`` the lines it has begun (1 + its line breaks). A named tuple, not a frozen dataclass: it is
    made each time it is asked for, after each chunk, at half the cost."""

    name: str
    param: str
    chars: int
    lines: int
    # Of the call's input (the inner element's content, what a person reads: the program, the query) so
    # far: its characters, and its lines (a line break it starts with makes none); 0 before it comes.
    input_chars: int = 0
    input_lines: int = 0


def merge_text(events: list[ParseEvent]) -> list[ParseEvent]:
    """Join adjacent TextChunks, so a chunk yields few events."""
    merged: list[ParseEvent] = []
    pending: list[str] = []
    for ev in events:
        if type(ev) is TextChunk:
            if ev.text:
                pending.append(ev.text)
            continue
        if pending:
            merged.append(TextChunk("".join(pending)))
            pending = []
        merged.append(ev)
    if pending:
        merged.append(TextChunk("".join(pending)))
    return merged
