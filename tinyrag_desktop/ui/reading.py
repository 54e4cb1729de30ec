"""An answer's text read by keyboard as one read-only document: one Tab stop, a caret that walks every line.

The streaming view cuts a long answer into segments (see answer.py), and tool cards stand between them. Tab
stops once in an answer's text, at its first segment (as chat apps that a screen reader reads well make each
message one stop and its lines a matter of the arrows, not of Tab); the arrows move a caret there as in a
read-only document, and Down on the last line of a segment goes on at the start of the next one (Up on the
first line, to the last line of the one before; Ctrl+Home and Ctrl+End to the answer's start and end). Qt's
own text accessibility says each line the caret comes to; nothing here talks to a screen reader itself.
"""

from __future__ import annotations

from typing import Iterable

from PySide6.QtWidgets import QWidget

from .segments import MarkdownSegment


def text_segments(parts: Iterable[QWidget]) -> list[MarkdownSegment]:
    """The answer's segments with text, top to bottom (``parts``: its column in display order)."""
    return [part for part in parts if isinstance(part, MarkdownSegment)]


def mark_reading_stop(segments: list[MarkdownSegment], every: Iterable[MarkdownSegment]) -> None:
    """Make the first of ``segments`` the answer's Tab stop for its text, and no other of ``every`` one."""
    first = segments[0] if segments else None
    for seg in every:
        seg.set_reading_stop(seg is first)


def step_caret(segments: list[MarkdownSegment], seg: MarkdownSegment, way: str) -> MarkdownSegment | None:
    """Put the caret, going ``way`` out of ``seg`` (see MarkdownSegment.caretOut), in the segment it goes on
    in; that segment, or None at the answer's first or last line (the caret stays)."""
    if seg not in segments:
        return None
    at = segments.index(seg)
    target, where = {"down": (at + 1, "start"), "up": (at - 1, "last"), "start": (0, "start"),
                     "end": (len(segments) - 1, "end")}[way]
    if not 0 <= target < len(segments):
        return None
    segments[target].enter_caret(where)
    return segments[target]


def stop_beside(chain: list[QWidget], seg: MarkdownSegment, forward: bool) -> QWidget | None:
    """The Tab stop after (before) ``seg`` in the answer's ``chain`` (``seg`` is in it, though no stop itself: the
    caret went on into it), shown and enabled; None when there is none in the answer."""
    if seg not in chain:
        return None
    at = chain.index(seg)
    around = chain[at + 1:] if forward else reversed(chain[:at])
    return next((w for w in around if w.isVisible() and w.isEnabled()), None)
