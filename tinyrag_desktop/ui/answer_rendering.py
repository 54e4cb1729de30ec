"""How an answer's streamed text reaches the screen: segments rendered a frame at a time, cut and joined again.

Streaming cost stays flat: text deltas are only appended to a list, and a single-shot timer renders them
at most ~30 times a second into the *active* segment only. When the active segment grows past a soft
limit it is closed at a paragraph boundary (or inside a long code block, see ``freeze_point``) and a new
one starts, so each render touches at most a few thousand characters, at the first token and the last.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer

from ..chats import StoredTool
from ..markdown_prep import left_open, round_cuts
from ..written_calls import ROUND_STARTS, stopped_call, written_tool
from . import answer_cuts
from .answer_cuts import Run, too_long
from .long_text import Cut, Fold, table_folds
from .markdown_render import Palette
from .reading import mark_reading_stop, step_caret, stop_beside, text_segments
from .segments import MarkdownSegment, Seam
from .table_pieces import Join, link_pieces
from .toolcard import ToolCard

FRAME_MS = 33  # at most ~30 renders a second: smooth to the eye, cheap for the CPU
# After a render that took long (a table of a thousand rows is drawn whole each time), the next waits this
# many times as long: the window answers the user at least four fifths of the time, whatever the text.
SLOW_RENDER_GAP = 4
# Marks that end or break a sentence: written right after a tool block ("see <tool …>…</tool>. Then"), they
# belong to the text before the card, not at the start of a line after it.
_TRAILING_MARKS = frozenset(".,;:!?…)]»”’")
MAX_CUTS = 1   # segments closed per render step: bounds the work one step may do
FINISH_BUDGET = 0.1  # seconds an ended answer's text renders at once; the rest as long each loop turn after
# Seconds the rows of a long table shown when asked (show_rows) render each loop turn (a piece at least): at
# FINISH_BUDGET, the pieces then laid out and drawn, the window did not answer for 0.17 to 0.3 s at a time (130
# columns); at this, for 0.1 s, and they take no longer in all.
ROWS_BUDGET = 0.02


class RenderingMixin:
    """AnswerWidget's column of text segments and the cards between them (mixed into it, see answer.py)."""

    _written: StoredTool | None = None  # the call being written when the answer was stopped (see _show_written)
    _round_starts: tuple[int, ...] = ()  # where in the content each round after the first began (see set_round)
    _seam_next = False  # the next segment starts a round: as far from the one above as one document has it
    _rows_asked: tuple[MarkdownSegment, ...] = ()  # notes whose rows were asked for before all above showed
    _folds: tuple[Fold, ...] | None = None  # a stored answer's long tables folded, in order (None: it streamed in)
    _folds_shown: frozenset[int] = frozenset()  # those whose rows were shown since (their numbers in _folds)
    _budget = FINISH_BUDGET  # seconds of its text rendered each loop turn while it builds by itself (see _on_frame)

    def set_round(self, number: int) -> None:
        """The request went on to round ``number`` (the bridge's roundStarted): a stopped answer's footer says
        how many began, and where it begins is kept (see round_stat). After a call the last round left open,
        its text starts a segment of its own (see _round_break)."""
        if number > max(self._rounds, 1):
            begun = self._round_starts[-1] if self._round_starts else 0
            self._round_starts += (self._content_len,)
            if left_open(self.content()[begun:]):
                self._round_break()
        self._rounds = max(self._rounds, number)

    def round_stat(self) -> dict[str, list[int]]:
        """Where each round after the first began in the text, for the stats it is stored with (Copy, Export
        and the chat opened again read each round's text on its own: written_calls.round_segments)."""
        return {ROUND_STARTS: list(self._round_starts)}

    def _round_break(self) -> None:
        """The text that comes now starts a segment of its own, parsed on its own as the engine parsed it: in
        one segment with the text before, a call the last round left open took in its words (invalid_blocks)."""
        if self._pending:  # the round's text is rendered in later steps, in its own segment
            self._close_pending()
        elif self._active is None:  # no text yet, or a card ended it: the next text starts a segment anyway
            return
        self._active, self._active_text, self._seam_next = None, "", True

    def _append_in_rounds(self, text: str) -> None:
        """Show ``text`` again from the start (part of it was taken back: see retract), cut where it was."""
        self._round_starts = tuple(s for s in self._round_starts if s <= len(text))
        at = 0
        for cut in round_cuts(text, self._round_starts):
            self.append_text(text[at:cut])
            self._round_break()
            at = cut
        self.append_text(text[at:])

    def append_stored(self, text: str) -> None:
        """Append a stored answer's ``text``, the rows of each long table after its first TABLE_CELLS_SHOWN
        cells left out, a note in their place with a link that shows them (see long_text.table_folds and
        show_rows). Its content has them all: Copy and Export keep them."""
        for part in table_folds(text):
            if isinstance(part, str):
                self.append_text(part)
                continue
            self._content.append(part.rows)
            self._content_len += len(part.rows)
            if self._pending:  # the table's rows shown, rendered before the note
                self._close_pending()
            self._new_segment("").show_fold(part)
            self._folds = (*(self._folds or ()), part)
            self._active, self._active_text = None, ""  # the text after the table starts a new segment

    def show_rows(self, note: MarkdownSegment) -> None:
        """Show the rows of a long table that ``note`` stands for (its "Show all N rows"), going on from the
        table's last piece, rendered ROWS_BUDGET a turn of the event loop."""
        if note.fold is None or note not in self._segments:
            return
        self._folds_shown |= {self._fold_number(note.fold)}  # opened even while it waits (see tables_opened)
        if self._building:  # the rows above it are still being rendered: these go on from them once they are
            self._rows_asked += (note,)
            return
        fold, note.fold = note.fold, None
        above = self._segments[self._segments.index(note) - 1]  # the table's last piece
        if above.shows_nothing():  # cut where the table ended: it has the table's header, and no row yet
            self._segments.remove(note)
            self._body.removeWidget(note)
            note.hide()
            note.deleteLater()
            note = above
        else:
            note.set_frame(fold.header, "")
            note.continues, above.continued_by = above, note
            self._seams[note] = Seam(self._body, note)
            link_pieces(above, note)
        self._closed.append(Run(note, fold.rows))
        self._building, self._budget = True, ROWS_BUDGET
        if not self._timer.isActive():
            self._timer.start(0)

    def tables_opened(self) -> frozenset[int] | None:
        """The long tables whose rows are shown (by "Show all N rows", or a find that went to them), by their
        number among the answer's tables folded; None when it streamed in, its every table whole."""
        return None if self._folds is None else self._folds_shown

    def open_tables(self, opened: frozenset[int] | None) -> None:
        """Show the rows of the tables ``opened`` (see tables_opened; None: all), as "Show all N rows" does: the
        answer was built again (the theme changed), and a table the user opened stays open."""
        for note in [seg for seg in self._segments if seg.fold is not None]:
            if opened is None or self._fold_number(note.fold) in opened:
                self.show_rows(note)

    def _fold_number(self, fold: Fold) -> int:
        return next(i for i, known in enumerate(self._folds or ()) if known is fold)

    def flush(self) -> None:
        """Render all waiting text now (the end of the answer, a stored answer, or a test needs it)."""
        self._timer.stop()
        while self._closed or self._pending:
            self._render_step()
        if self._active is not None and self._active.holds_back():  # its last table rows, held while it grew
            self._show_segment(self._active, self._active.markdown())
        if self._building:
            self._building = False
            self._join_cut_blocks()
            asked, self._rows_asked = self._rows_asked, ()
            for note in asked:
                self.show_rows(note)

    @property
    def building(self) -> bool:
        """True while a stored answer made with ``later`` has text still to render (see build_step)."""
        return self._building

    def build_step(self, budget: float) -> bool:
        """Render a stored answer's text for about ``budget`` seconds (one segment at least, a few thousand
        characters); True once all of it is shown. The window calls it once a turn of the event loop: a
        stored list of 10,000 items, rendered at once, froze the window for 2 s each time its chat opened."""
        deadline = time.perf_counter() + budget
        while self._closed or self._pending:
            started = time.perf_counter()
            self._render_step()
            now = time.perf_counter()
            # not past the deadline by the next piece, as dear as this one: an ended answer's 0.1 s and one piece
            # more of its code, some 50 ms, were a step of 0.15 s and more
            if now + (now - started) >= deadline:
                return False
        self.flush()  # what ends a render: the held rows, the cut blocks joined
        return True

    def end_rendering(self) -> None:
        """Render the text still waiting at the answer's end for FINISH_BUDGET, the rest as long each turn of
        the event loop, as a stored answer's (see _on_frame): a 470 KB answer that came faster than it was shown
        froze the window 12 s at its end. Its cut blocks are joined once all of it is shown."""
        if self.build_step(FINISH_BUDGET):
            self._join_cut_blocks()
        else:
            self._building = True
            self._timer.start(0)

    def _on_frame(self) -> None:
        if self._building:  # a stored answer's text (see build_alone), or an ended one's (see end_rendering)
            if not self.build_step(self._budget):  # a slice a turn: a step a turn, the window painted
                self._timer.start(0)  # between each, took four times as long
            return
        self._render_step()
        if self._closed or self._pending:  # a burst left work over: continue on the next loop turn (after a
            self._timer.start(0 if self._frame_ms == FRAME_MS else self._frame_ms)  # slow render, later)

    def build_alone(self) -> None:
        """Render a stored answer's text on by itself, FINISH_BUDGET each turn of the event loop, no longer in
        the window's loading slices (a question was asked below it: see MainWindow.finish_loading)."""
        if self._building and not self._timer.isActive():
            self._timer.start(0)

    def _render_step(self) -> None:
        """One bounded piece of rendering, so a burst of text or of cards never stalls the window.

        Text closed by a card is rendered first (its segments sit before that card), then the stream's
        active segment. Each step closes at most MAX_CUTS segments; the rest waits for the next step,
        and between steps Qt handles input and painting.
        """
        started = time.perf_counter()
        if self._closed:
            if self._render_run(self._closed[0]):
                self._closed.pop(0)
        elif self._pending:
            run = Run(self._active or self._round_segment(), self._active_text + "".join(self._pending))
            self._pending.clear()
            finished = self._render_run(run, growing=self._streaming)
            self._active, self._active_text = run.seg, run.text if finished else ""
            if not finished:
                self._pending.append(run.text)
        else:
            return
        self._last_render.restart()
        cost = time.perf_counter() - started
        self._frame_ms = max(FRAME_MS, int(cost * 1000 * SLOW_RENDER_GAP)) if self._streaming else FRAME_MS
        if self.render_times is not None:
            self.render_times.append(cost)
        self.rendered.emit()

    def _render_run(self, run: Run, growing: bool = False) -> bool:
        """Render ``run`` with at most MAX_CUTS cuts; True when all of its text is on screen (``growing``:
        the stream's active text, whose unsettled table rows wait, see segments.settled)."""
        cut = answer_cuts.cut(run)
        cuts = 0
        while cut is not None and cuts < MAX_CUTS:
            run.seg.set_frame(run.seg._render_prefix, cut.close)
            self._show_segment(run.seg, run.text[:cut.at])
            previous = run.seg
            run.seg, run.text = self._new_segment(cut.reopen, after=previous), run.text[cut.at:]
            if cut.reopen:  # a long code block (Run there runs all of it) or table goes on in the new segment
                run.seg.continues, previous.continued_by = previous, run.seg
            if not cut.reopen or cut.reopen.startswith("|"):
                # as far from the text above as in one document (a long list's items stay evenly apart, a
                # long table's rows go on under its border)
                self._seams[run.seg] = Seam(self._body, run.seg)
                if cut.reopen:  # its columns as wide as the rows above's, scrolled with them
                    link_pieces(previous, run.seg)
            cuts += 1
            cut = answer_cuts.cut(run)
        if cut is not None:
            return False
        self._show_segment(run.seg, run.text, growing=growing)
        return True

    def _join_cut_blocks(self) -> None:
        """One box for each long code block the streaming view cut into pieces (see freeze_point), once the
        answer is whole: the pieces each had their own header and gap, and scrolled sideways apart. A block
        with a Go run in one of its pieces, or too long to render again at once (JOIN_MOST), stays cut."""
        chains: list[list[MarkdownSegment]] = []
        for seg in self._segments:
            if seg.continues is not None and chains and seg.continues is chains[-1][-1]:
                chains[-1].append(seg)
            else:
                chains.append([seg])
        for first, *rest in chains:
            if not rest or any(s.has_runs() for s in (first, *rest)) or too_long(first, rest):
                continue
            join = Join(first, rest)  # the keyboard's place in a piece goes over to the first
            first.continued_by = None  # (its code is whole)
            first.set_frame(first._render_prefix, rest[-1]._render_suffix)
            cuts = tuple(cut for seg in (first, *rest) for cut in seg.cuts)  # (in the pieces' HTML joined)
            self._show_segment(first, "".join(s.markdown() for s in (first, *rest)), html=join.html, cuts=cuts)
            join.done()
            for seg in rest:
                if seg in self._seams:
                    self._seams.pop(seg).remove()
                self._segments.remove(seg)
                self._body.removeWidget(seg)
                if self._active is seg:
                    self._active = first
                seg.hide()
                seg.deleteLater()

    def _show_segment(self, seg: MarkdownSegment, text: str, growing: bool = False, html: str | None = None,
                      cuts: tuple[Cut, ...] = ()) -> None:
        seg.set_markdown(text, growing, html, cuts)
        seg.setVisible(bool(text.strip()) and not seg.shows_nothing())
        if seg in self._seams:
            self._seams[seg].fit()
        mark_reading_stop(text_segments(self.parts()), self._segments)  # Tab reads the answer from its first

    def _round_segment(self) -> MarkdownSegment:
        """A new segment for the text at the end, set apart from the segment above as in one document when a
        round begins there (see _round_break)."""
        seg = self._new_segment("")
        if self._seam_next:
            self._seams[seg], self._seam_next = Seam(self._body, seg), False
        return seg

    def _new_segment(self, prefix: str, after: MarkdownSegment | None = None) -> MarkdownSegment:
        seg = MarkdownSegment(self, self._palette, self._settings)
        seg.set_frame(prefix, "")
        seg.codeCopied.connect(lambda code: self.copied.emit(code))
        seg.linkHovered.connect(self.linkHovered)  # the status bar shows where a link goes while the mouse is on it
        seg.tabStopChanged.connect(self._order_tabs)  # a table wider than the answer is a Tab stop, in its place
        seg.caretOut.connect(lambda way, seg=seg: step_caret(text_segments(self.parts()), seg, way))
        seg.stop_beside = lambda forward, seg=seg: stop_beside(self._tab_chain(seg), seg, forward)
        seg.selectOut.connect(lambda way, seg=seg: self._span.on_key(seg, way))
        seg.span_text = lambda seg=seg: self._span.text(seg)
        seg.span = self._span  # a mouse drag into another segment selects on (drag_across.py)
        seg.selectionChanged.connect(self._span.mark_cards)  # the cards it copies with the text show it
        seg.rowsAsked.connect(lambda seg=seg: self.show_rows(seg))
        if after is None:  # at the end, but before the card of a call being written
            self._segments.append(seg)
            self._body.insertWidget(self._writing.index(), seg)
        else:  # a segment split off a run that a card already follows: it goes before that card
            self._segments.insert(self._segments.index(after) + 1, seg)
            self._body.insertWidget(self._body.indexOf(after) + 1, seg)
        return seg

    def _add_card(self, call_id: str, tool: str, query: str, param: str) -> ToolCard:
        self._text_before_card()
        card = self._writing.take(call_id, query, param)  # the card it was written in goes on running it
        if card is None:
            card = ToolCard(call_id, tool, query, param, self)
            self._body.addWidget(card)
        card.openFailed.connect(self.notice)  # a source in its details that could not be opened
        self._cards[call_id] = card
        self._positions[call_id] = self._content_len
        return card

    def _keep_written(self, raw: str) -> None:
        """Keep ``raw``, the block the model was writing when the answer was stopped, as the answer reopened
        shows it (written_calls.shown_segments): as a card when stopped_call finds the call in the text after
        the last card, else as text. A card for any block made the two differ ("…</source></tool")."""
        content = self.content()  # the text after the last card, or the round cut apart after it (round_segments)
        last = content[max([*self._positions.values(), *round_cuts(content, self._round_starts)], default=0):]
        if stopped_call(last + raw) == len(last):
            self._show_written(raw)
        else:
            self.append_text(raw)

    def _show_written(self, raw: str) -> None:
        """Show ``raw``, the call the model was writing when the answer was stopped, as a card that says so
        (written_calls.py); it stays in the answer's text, as written, but not shown as text."""
        self._content.append(raw)
        tool = written_tool(raw, self._content_len)
        self._content_len += len(raw)
        self._text_before_card()
        card = ToolCard(tool.call_id, tool.tool, tool.query, tool.param, self, status="skipped")
        self._body.addWidget(card)
        card.finish("skipped", error=tool.error, ran=False)
        self._written = tool

    def _text_before_card(self) -> None:
        """The text so far ends where a card comes: rendered before it, the text after it in a new segment."""
        self._arrived()
        if self._pending:  # the text before the card is rendered in later steps, in its place
            self._before_card = self._close_pending()
        elif self._active is not None:  # on screen already
            self._before_card = Run(self._active, self._active_text)
        elif not self._after_card:  # the first part of the answer
            self._before_card = None
        # (cards one after another: a mark after the last goes where one after the first would have)
        self._after_card, self._seam_next = True, False
        self._marks_attach = None  # decided at the first mark after the card
        self._active, self._active_text = None, ""  # text after the card starts a new segment

    def _close_pending(self) -> Run:
        """The text waiting to be rendered ends its segment, rendered in later steps in its place; the text that
        comes after it starts another."""
        run = Run(self._active or self._new_segment(""), self._active_text + "".join(self._pending))
        self._closed.append(run)
        self._pending.clear()
        if not self._timer.isActive():
            self._timer.start(0)
        return run

    def _attach_marks(self, text: str) -> str:
        """Show the sentence marks that open the text after a card at the end of the text before it
        ("see" ⟨card⟩ ". Then" reads "see." ⟨card⟩ "Then"); returns the rest of ``text``. The answer's
        content keeps them where they were streamed: only where they are shown changes."""
        lead = len(text) - len(text.lstrip("".join(_TRAILING_MARKS)))
        if lead < len(text):
            self._after_card = False  # the text after the card has begun
        if lead:
            before = self._before_card
            kept = before.text.rstrip(" \t") if before is not None else ""
            if self._marks_attach is None:
                # After a line break, a list, a colon or nothing at all, a mark has no sentence to end: the
                # card ended it. Shown alone at the start of the next line, it only looked like a stray.
                self._marks_attach = bool(kept) and kept[-1] not in "\n.,;:!?…"
            if self._marks_attach:
                assert before is not None
                before.text = kept + text[:lead]
                if not any(run is before for run in self._closed):  # on screen already: show it again
                    self._show_segment(before.seg, before.text)
        return text[lead:]

    def take_colours(self, palette: Palette) -> None:
        """A new theme while this answer streams (see recolour.py): the text shown so far is rendered again in
        its colours, a segment a turn of the event loop from the lowest (the one being written, its unsettled
        table rows still held back), and the text to come is rendered in them. Built again from the history,
        as the finished answers are, it would start over; all its segments at once, a long table's pieces,
        stalled the window a quarter of a second."""
        self._palette = palette
        self._recolour_step()

    def _recolour_step(self) -> None:
        for seg in reversed(self._segments):
            if seg.set_palette_colours(self._palette, growing=self._streaming and seg is self._active):
                QTimer.singleShot(1, self, self._recolour_step)
                return

    def has_pending(self) -> bool:
        """True while streamed text waits to be rendered."""
        return bool(self._pending or self._closed)
