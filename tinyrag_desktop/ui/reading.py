"""An answer's text read by keyboard as one read-only document: one Tab stop, a caret that walks every line.

The streaming view cuts a long answer into segments (see answer_rendering.py), and tool cards stand between them. Tab
stops once in an answer's text, at its first segment (as chat apps that a screen reader reads well make each
message one stop and its lines a matter of the arrows, not of Tab); the arrows move a caret there as in a
read-only document, and Down on the last line of a segment goes on at the start of the next one (Up on the
first line, to the last line of the one before; Ctrl+Home and Ctrl+End to the answer's start and end). Qt's
own text accessibility says each line the caret comes to; nothing here talks to a screen reader itself.

A selection goes on across the segments as the caret does (:class:`Span`): Ctrl+A selects the whole answer, and
Shift+Down at a segment's end selects on into the next, and so does a mouse drag into another segment (see
drag_across.py); Copy copies all of it, a card between as the answer's Copy button writes it. All of the answer
is copied as its Copy button copies it: the cards before its first text and after its last too.
"""

from __future__ import annotations

from typing import Callable, Iterable

from PySide6.QtWidgets import QWidget

from ..chat_export import text_markdown, tool_markdown
from ..chats import StoredTool
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


def card_markdown(card, tools: Iterable[StoredTool], live: bool = False) -> str:
    """A tool card as the answer's Copy button writes it (a quote), with the skipped calls folded into it;
    ``live``: the answer is still being written (its card without an end runs)."""
    by_id = {tool.call_id: tool for tool in tools}
    run = [by_id[c.call_id] for c in (card, *card.folded()) if c.call_id in by_id]
    return tool_markdown(run if len(run) > 1 else run[0], live=live) if run else ""


def _run_text(run: str, written: bool) -> str:
    """A run of text between cards as copied: Markdown as Copy writes it (the tool blocks not run in code, with
    why) when it is as the answer wrote it; the words as shown (those blocks with why already) when not."""
    return text_markdown(run) if written else run.strip()


class Span:
    """A selection across an answer's segments. The segment it began in keeps its anchor, the focused one has
    the caret, and those between are selected whole; each shows its own part, and Copy in any of them copies
    all of it (see text). ``parts``: the answer's column in display order; ``card_text``: a card as copied;
    ``whole``: all of the answer as its Copy button copies it."""

    def __init__(self, parts: Callable[[], list[QWidget]], card_text: Callable[[QWidget], str],
                 whole: Callable[[], str]) -> None:
        self._parts, self._card_text, self._whole = parts, card_text, whole
        self._anchor: tuple[MarkdownSegment, int] | None = None  # where it began: a segment, a position in it
        self._all = False  # Ctrl+A (or the menu's Select All): the whole answer, its cards around the text too

    def on_key(self, seg: MarkdownSegment, way: str) -> None:
        """``seg`` asked (see MarkdownSegment.selectOut): "all", "down", "up" or "drop"."""
        if way == "drop":
            self.drop(seg)
        elif way == "all":
            self.select_all()
        else:
            self.extend(seg, way)

    def segments(self) -> list[MarkdownSegment]:
        return text_segments(self._parts())

    def active(self) -> bool:
        """Whether a selection goes on across segments now."""
        return self._anchor is not None

    def select_all(self) -> None:
        segments = text_segments(self._parts())
        if segments:
            self._anchor, self._all = (segments[0], 0), True
            self._place(segments, segments[-1], segments[-1].document().characterCount() - 1)

    def extend(self, seg: MarkdownSegment, way: str) -> None:
        """Shift+Down at the end of ``seg`` (Shift+Up at its start): the caret goes on in the next segment at its
        start (the previous one, at the start of its last line), the selection with it."""
        segments = text_segments(self._parts())
        at = segments.index(seg) + (1 if way == "down" else -1) if seg in segments else -1
        if not 0 <= at < len(segments):
            return
        if self._anchor is None or self._anchor[0] not in segments:
            self._anchor = (seg, seg.textCursor().anchor())
        self._all = False
        target = segments[at]
        self._place(segments, target, 0 if way == "down" else target.last_line_start())
        if self._anchor[0] is target:
            self._anchor = None  # back in one segment: its own selection, as any other

    def drag(self, began: MarkdownSegment, anchor: int, seg: MarkdownSegment, position: int) -> None:
        """A mouse drag pressed at ``anchor`` in ``began`` is at ``position`` in ``seg``, another segment (see
        drag_across.py): the selection goes from one to the other. The focus stays where the mouse is held."""
        segments = text_segments(self._parts())
        if began in segments and seg in segments and seg is not began:
            self._anchor, self._all = (began, anchor), False
            self._place(segments, seg, position, focused=False)

    def clear(self) -> None:
        """A click elsewhere: no segment keeps a part of the selection."""
        if self._anchor is None:
            return
        self._anchor, self._all = None, False
        self.mark_cards()
        for seg in text_segments(self._parts()):
            if seg.textCursor().hasSelection():
                where = seg.textCursor().position()
                seg.place_selection(where, where)

    def drop(self, seg: MarkdownSegment) -> None:
        """The caret moves on its own in ``seg``: the other segments' parts of the selection go."""
        if self._anchor is None:
            return
        self._anchor, self._all = None, False
        self.mark_cards()
        for other in text_segments(self._parts()):
            if other is not seg and other.textCursor().hasSelection():
                where = other.textCursor().position()
                other.place_selection(where, where)

    def _place(self, segments: list[MarkdownSegment], focus: MarkdownSegment, caret: int, *,
               focused: bool = True) -> None:
        began, anchor = self._anchor
        a, f = segments.index(began), segments.index(focus)
        for i, seg in enumerate(segments):
            end = seg.document().characterCount() - 1
            if i == f:
                seg.place_selection(anchor if a == f else 0 if a < f else end, caret)
            elif i == a:
                seg.place_selection(anchor, end if a < f else 0)
            elif min(a, f) < i < max(a, f):
                seg.place_selection(0, end)
            elif seg.textCursor().hasSelection():
                seg.place_selection(seg.textCursor().position(), seg.textCursor().position())
        self.mark_cards()
        if focused:
            focus.place_selection(focus.textCursor().anchor(), caret, focus=True)

    def mark_cards(self) -> None:
        """Show the cards Copy copies with the text as selected: every one with Ctrl+A, else those between the
        selected segments (none without a selection across segments). Each segment's selectionChanged asks."""
        parts = self._parts()
        chosen = [i for i, part in enumerate(parts) if isinstance(part, MarkdownSegment)
                  and part.textCursor().hasSelection()] if self._anchor is not None else []
        everything = self._all and all(seg.selected_whole() for seg in text_segments(parts))  # as text() copies
        for i, part in enumerate(parts):
            if hasattr(part, "set_selected"):  # a card
                part.set_selected(everything or bool(chosen) and chosen[0] < i < chosen[-1])

    def text(self, seg: MarkdownSegment) -> str | None:
        """What Copy in ``seg`` copies: the selected text of each segment in order, a card between them as the
        Copy button writes it; all of the answer (every segment selected whole) as Copy writes its text. None
        when ``seg`` is in no selection across segments (it copies its own)."""
        parts = self._parts()
        segments = text_segments(parts)
        if self._anchor is None or seg not in segments:
            return None
        chosen = [i for i, part in enumerate(parts) if part in segments and part.textCursor().hasSelection()]
        if parts.index(seg) not in chosen:
            return None
        whole = all(s.selected_whole() for s in segments)
        if self._all and whole:  # from the first segment to the last left out the cards before and after them
            return self._whole()
        runs, run = [], ""  # the text between two cards, one segment after the other
        written = True  # every segment of the run selected whole: it is Markdown as the answer wrote it
        for part in parts[chosen[0]:chosen[-1] + 1]:
            if part in segments:
                # a segment selected whole as the answer wrote it (a code block cut in two joins up again)
                words = part.markdown() if part.selected_whole() else part.selected_words() \
                    if part.textCursor().hasSelection() else ""
                written = written and part.selected_whole()
                run += ("\n" if run and not run.endswith("\n") else "") + words
            else:
                runs += [_run_text(run, written), self._card_text(part)]
                run, written = "", True
        runs.append(_run_text(run, written))
        return "\n\n".join(r for r in runs if r) + ("\n" if whole else "")
