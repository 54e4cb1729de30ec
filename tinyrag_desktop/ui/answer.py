"""AnswerWidget: one assistant answer as a column of Markdown segments and tool cards, in stream order.

Streaming cost stays flat: text deltas are only appended to a list, and a single-shot timer renders them
at most ~30 times a second into the *active* segment only. When the active segment grows past a soft
limit it is closed at a paragraph boundary (or inside a long code block, see ``freeze_point``) and a new
one starts, so each render touches at most a few thousand characters, at the first token and the last.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from PySide6.QtCore import QElapsedTimer, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent, QGuiApplication, QPainter, QPalette, QPen
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QVBoxLayout, QWidget

from ..chat_export import answer_markdown
from ..chats import StoredMessage, StoredTool
from ..engine.context import left_out_words
from ..engine.events import Done, Route, ToolFinished, ToolOutput, ToolStarted, ToolWriting
from ..tools.rag import cited_numbers
from ..tool_words import settings_tab, window_words
from . import answer_cuts
from .answer_cuts import Run, too_long
from .answer_footer import footer_text, spoken, waiting_words
from .markdown_render import LIGHT, Palette, inline_code_html
from .reading import Span, card_markdown, mark_reading_stop, step_caret, stop_beside, text_segments
from .segments import MarkdownSegment, Seam, SettingsSource, ThinkingSection
from .sources import (OFFERED_CAPTION, SOURCE_TOOLS, SourceEntry, SourceSet, SourcesRow, arrange, cited_as,
                      split_sources)
from .table_pieces import Join, link_pieces
from .theme import colors, paint_focus_ring
from .toolcard import STOPPED, ToolCard, WritingSlot

FRAME_MS = 33  # at most ~30 renders a second: smooth to the eye, cheap for the CPU
# After a render that took long (a table of a thousand rows is drawn whole each time), the next waits this
# many times as long: the window answers the user at least four fifths of the time, whatever the text.
SLOW_RENDER_GAP = 4
# Marks that end or break a sentence: written right after a tool block ("see <tool …>…</tool>. Then"), they
# belong to the text before the card, not at the start of a line after it.
_TRAILING_MARKS = frozenset(".,;:!?…)]»”’")
MAX_CUTS = 1   # segments closed per render step: bounds the work one step may do
STOPPED_EARLY = "Stopped before the model answered."  # where the answer would be, when nothing came
# The answer's state in its accessible name: a screen reader told a running answer from a finished one by
# nothing ("Assistant answer" both).
STATE_WORDS = {"answering": "still answering", "done": "finished", "stopped": "stopped", "failed": "failed",
               "ended": "ended"}


class _ErrorBox(QFrame):
    """The inline error's red box, painted (no style sheet in the conversation, see theme.py)."""

    def paintEvent(self, event) -> None:  # noqa: N802
        c = colors()
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(c.error, 1))
        painter.setBrush(c.errorbg)
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), 8, 8)
        painter.end()


class _ActionButton(QToolButton):
    """A flat action under the answer (Copy, Regenerate) whose keyboard focus is plain to see."""

    def paintEvent(self, event) -> None:  # noqa: N802
        super().paintEvent(event)
        paint_focus_ring(self)


class AnswerWidget(QFrame):
    """Renders one answer from engine events, or from a stored message when a chat is reopened."""

    retryRequested = Signal()
    settingsRequested = Signal(str)  # the Settings tab an error's remedy is on
    regenerateRequested = Signal()
    copied = Signal(str)
    notice = Signal(str)  # a short message for the status bar (a source that could not be opened)
    linkHovered = Signal(str)  # the address of the link under the mouse ("" once it leaves it)
    rendered = Signal()  # after each coalesced render (tests and the benchmark wait on it)

    def __init__(self, parent: QWidget | None = None, palette: Palette = LIGHT, show_route: bool = False,
                 settings: SettingsSource | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("answer")
        self.setAccessibleName("Assistant answer")
        self._state = ""  # answering, done, stopped or failed (see _set_state); "" before it began
        self.announced: list[str] = []  # what was announced to a screen reader about this answer
        self._palette = palette
        self._settings = settings  # the window's current settings: Go blocks get Run links when allowed
        self._content: list[str] = []      # every visible text delta, joined on demand
        self._content_len = 0
        self._pending: list[str] = []      # deltas not yet rendered
        self._closed: list[Run] = []      # text that a card closed, still to be rendered before it
        self._active: MarkdownSegment | None = None
        self._active_text = ""
        self._segments: list[MarkdownSegment] = []
        self._seams: dict[MarkdownSegment, Seam] = {}  # by the segment below each cut (see Seam)
        self._span = Span(self.parts, lambda card: card_markdown(  # Ctrl+A, Shift+Down
            card, self.stored_tools(), live=self._state == "answering"))
        self._cards: dict[str, ToolCard] = {}
        self._positions: dict[str, int] = {}
        self._started: set[str] = set()  # calls the engine ran (a tool_start came), as Done.tools_run counts
        self._anchors: dict[str, tuple[str | None, ...]] = {}  # a call's anchors, by its id (see ToolResult)
        self._call_rounds: dict[str, int] = {}  # the engine's round each call came in: history splits the answer by it
        self._after_card = False  # no text since the last card: marks that come now attach before it
        self._before_card: Run | None = None  # the text just before the last card (None: nothing to attach to)
        self._marks_attach: bool | None = None  # whether the marks after the last card go before it
        self._route: dict[str, Any] | None = None
        self._route_shown = False  # the route's sources are on the Sources line (see show_route_sources)
        self._stats: dict[str, Any] | None = None
        self._model = ""  # set by begin
        self._error: str | None = None
        self._rounds = 1  # rounds begun so far: a stopped answer's footer says how many
        self._thinking: ThinkingSection | None = None
        # reasoning of blank lines only, held until words come: Qwen3 with thinking off sends "<think>\n\n
        # </think>", which left an empty "Thought for a moment" section
        self._blank_reasoning = ""
        self._first_text_at: float | None = None  # when the first text came (time.monotonic)
        self._retracted_since: float | None = None  # the reasoning next appended began then (see retract)
        self._last_render = QElapsedTimer()
        self._last_render.start()
        self._frame_ms = FRAME_MS  # the least time between two renders (longer after a slow one)
        self.render_times: list[float] | None = None  # set to a list to record render costs (benchmark)
        self._waiting: QLabel | None = None
        self._note: QLabel | None = None  # STOPPED_EARLY, in the waiting label's place
        self._streaming = False
        self._building = False  # a stored answer's text waits for build_step

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._on_frame)

        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(6)
        self._route_label = QLabel(self)
        self._route_label.setObjectName("routeInfo")
        self._route_label.setWordWrap(True)
        self._route_label.hide()
        self._route_label.setAccessibleName("Routing decision")
        self._route_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self._show_route = show_route
        self._layout.addWidget(self._route_label)
        self._body = QVBoxLayout()
        self._body.setSpacing(6)
        self._layout.addLayout(self._body)
        self._writing = WritingSlot(self._body, self)  # the card of a call still being written

        self._error_box = _ErrorBox(self)
        self._error_box.setObjectName("answerError")
        err_row = QHBoxLayout(self._error_box)
        err_row.setContentsMargins(10, 8, 10, 8)
        self._error_label = QLabel(self._error_box)
        self._error_label.setWordWrap(True)
        self._error_label.setTextFormat(Qt.TextFormat.RichText)  # escaped, with `commands` in monospace
        self._error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        pal = self._error_label.palette()
        pal.setColor(QPalette.ColorRole.WindowText, colors().errortext)
        self._error_label.setPalette(pal)
        self.retry_button = QPushButton("Retry", self._error_box)
        self.retry_button.setObjectName("retry")
        self.retry_button.setAccessibleName("Retry this question")
        self.retry_button.clicked.connect(self.retryRequested)
        self.settings_button = QPushButton("Open Settings", self._error_box)  # when the error names one
        self.settings_button.setObjectName("errorOpenSettings")
        self.settings_button.clicked.connect(lambda: self.settingsRequested.emit(self._settings_tab or "Model"))
        self._settings_tab: str | None = None
        err_row.addWidget(self._error_label, 1)
        err_row.addWidget(self.settings_button, 0, Qt.AlignmentFlag.AlignTop)
        err_row.addWidget(self.retry_button, 0, Qt.AlignmentFlag.AlignTop)
        self._error_box.hide()
        self._layout.addWidget(self._error_box)

        self._sources: SourcesRow | None = None  # made at the first source: many answers have none

        foot = QHBoxLayout()
        foot.setSpacing(4)
        self._footer = QLabel(self)
        self._footer.setObjectName("answerFooter")
        self._footer.setAccessibleName("Answer statistics")
        self._footer.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        # Wraps in a narrow window: unwrapped, its one line set the answer's minimum width, wider than the
        # conversation, which has no horizontal scroll bar, so text, questions and Regenerate were cut off.
        self._footer.setWordWrap(True)
        self.copy_button = _ActionButton(self)
        self.copy_button.setObjectName("copyAnswer")
        self.copy_button.setText("Copy")
        self.copy_button.setToolTip("Copy this answer as Markdown")
        self.copy_button.setAccessibleName("Copy answer as Markdown")
        self.copy_button.clicked.connect(self.copy_markdown)
        self.copy_button.setAutoRaise(True)
        self.regenerate_button = _ActionButton(self)
        self.regenerate_button.setObjectName("regenerate")
        self.regenerate_button.setText("Regenerate")
        self.regenerate_button.setToolTip("Ask again for a new answer (Ctrl+R)")
        self.regenerate_button.setAccessibleName("Regenerate answer")
        self.regenerate_button.clicked.connect(self.regenerateRequested)
        self.regenerate_button.setAutoRaise(True)
        foot.addWidget(self._footer, 1)
        foot.addWidget(self.copy_button)
        foot.addWidget(self.regenerate_button)
        self._footer_row = QWidget(self)
        self._footer_row.setLayout(foot)
        foot.setContentsMargins(0, 0, 0, 0)
        self._footer_row.hide()
        self._layout.addWidget(self._footer_row)

    # stream events --------------------------------------------------------------------------------
    def begin(self) -> None:
        """The request has started: say so until the first text, reasoning or card arrives."""
        self._streaming = True
        self._set_state("answering")
        # the model asked (the footer names it: the setting applies to every chat, so one chat can hold the
        # answers of several); none when the server's default answers
        self._model = str(self._settings().get("chat_model") or "") if self._settings is not None else ""
        self._waiting = QLabel("Waiting for the model…", self)
        self._waiting.setObjectName("waiting")
        self._waiting.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self._waiting.setAccessibleName("Waiting for the model")
        self._body.addWidget(self._waiting)
        # a model the server loads first takes a minute or more: the seconds say the wait is going on
        clock = QTimer(self._waiting)
        clock.setInterval(1000)
        began = time.monotonic()
        clock.timeout.connect(lambda: self._waiting is not None and self._waiting.setText(
            waiting_words(time.monotonic() - began)))
        clock.start()

    def _arrived(self) -> None:
        if self._waiting is not None:
            self._body.removeWidget(self._waiting)
            self._waiting.hide()  # deleted only when the loop next runs: until then it was drawn over the text
            self._waiting.deleteLater()
            self._waiting = None

    def on_route(self, ev: Route) -> None:
        # The route is stored as JSON with the answer, so its sources come back when the chat is reopened.
        # The passages put into the prompt are only offered: the answer shows the sources it drew on once
        # it is complete (Done.sources); an answer stopped or failed halfway shows all that were offered.
        # The prompt numbers the passages by document, in the order of ev.sources ([1] is the first): the
        # numbers are stored with them, as the answer's sources are only those it used (see finish).
        self._route = {"mode": ev.mode, "reason": ev.reason, "hints": list(ev.hints)}
        if ev.sources:
            self._route["sources"] = list(ev.sources)
            self._route["numbers"] = list(range(1, len(ev.sources) + 1))
            if any(ev.anchors):  # where each page opens: at its best passage (stored with the route)
                self._route["anchors"] = list(ev.anchors)
        hints = f" · hints: {', '.join(ev.hints)}" if ev.hints else ""
        # a guess from the question's words, made before the model answers: the model may still call a tool
        self._route_label.setText(f"Route, guessed from the question: {ev.mode} — {ev.reason}{hints}")
        self._route_label.setVisible(self._show_route)

    def set_round(self, number: int) -> None:
        """The request went on to round ``number`` (the bridge's roundStarted)."""
        self._rounds = max(self._rounds, number)

    def set_show_route(self, on: bool) -> None:
        self._show_route = on
        self._route_label.setVisible(on and self._route is not None)

    def append_text(self, text: str) -> None:
        if not text:
            return
        if self._waiting is not None:
            self._arrived()
        self._settle_thinking()  # the answer began: the reasoning is over
        if self._first_text_at is None:
            self._first_text_at = time.monotonic()
        self._content.append(text)
        self._content_len += len(text)
        if self._after_card:
            text = self._attach_marks(text)
            if not text:
                return
        self._pending.append(text)
        if not self._timer.isActive():
            self._timer.start(max(0, self._frame_ms - self._last_render.elapsed()))

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

    def append_reasoning(self, text: str, live: bool = True) -> None:
        self._arrived()
        if self._thinking is None:
            if not (self._blank_reasoning + text).strip():
                self._blank_reasoning += text
                return
            text, self._blank_reasoning = self._blank_reasoning + text, ""
            self._thinking = ThinkingSection(self)
            self._layout.insertWidget(1, self._thinking)
        # reasoning taken back from the answer's text began with that text
        self._thinking.append(text, live, since=self._retracted_since)
        self._retracted_since = None

    def retract(self, text: str, channel: str) -> None:
        """Take back the last ``text`` shown on ``channel``: it comes again on the other one (engine.events.
        Retract). The engine takes answer text back only before any card, so the text is all there is."""
        if channel == "reasoning":
            if self._thinking is None and self._blank_reasoning.endswith(text):
                self._blank_reasoning = self._blank_reasoning[:len(self._blank_reasoning) - len(text)]
                return
            if self._thinking is not None and self._thinking.take_back(text) == "":
                self._thinking.hide()
                self._thinking.deleteLater()
                self._thinking = None
            return
        content = self.content()
        if self._cards or not content.endswith(text):
            return
        self._retracted_since = self._first_text_at
        self._timer.stop()
        for seg in self._segments:
            seg.hide()
            seg.deleteLater()
        self._segments.clear()
        self._content, self._content_len, self._pending, self._closed = [], 0, [], []
        self._active, self._active_text = None, ""
        self.append_text(content[: len(content) - len(text)])

    def _settle_thinking(self) -> None:
        if self._thinking is not None:
            self._thinking.settle()

    def tool_writing(self, ev: ToolWriting) -> None:
        """A call the model is writing: its card shows so until it is whole (see _add_card) or dropped."""
        if self._writing.show(ev):
            self._arrived()

    def tool_started(self, ev: ToolStarted) -> ToolCard:
        self._started.add(ev.id)
        self._call_rounds[ev.id] = ev.round
        return self._add_card(ev.id, ev.tool, ev.query, ev.param)

    def tool_output(self, ev: ToolOutput) -> None:
        """More of what a running call printed: its card keeps it, for a stop before its result."""
        card = self._cards.get(ev.id)
        if card is not None:
            card.add_output(ev.text)

    def tool_finished(self, ev: ToolFinished) -> ToolCard:
        card = self._cards.get(ev.id) or self._add_card(ev.id, ev.tool, ev.query, ev.param)
        self._call_rounds.setdefault(ev.id, ev.round)
        card.finish(ev.status, source=ev.source, error=ev.error, result=ev.result,
                    result_bytes=ev.result_bytes, elapsed_ms=ev.elapsed_ms, ran=ev.id in self._started)
        if any(ev.anchors):
            self._anchors[ev.id] = tuple(ev.anchors)
        self._fold(card)
        self._update_sources()
        return card

    def _fold(self, card: ToolCard) -> None:
        """Show ``card`` as part of the card before it when both were skipped for one reason with nothing
        written between them: eight calls in a round with a limit of three showed five identical "Limit
        reached" cards one under another. The cards stay (stored one by one); one stands for the run."""
        ids = list(self._cards)
        at = ids.index(card.call_id)
        if not card.foldable or at == 0 or at != len(ids) - 1:
            return
        before = self._cards[ids[at - 1]]
        head = before.folded_into or before
        between = self.content()[self._positions[before.call_id]:self._positions[card.call_id]]
        if before.foldable and before.error == card.error and not between.strip():
            head.fold(card)

    def _source_sets(self) -> list[SourceSet]:
        """The sources, as the route and each reading tool gave them (see sources.arrange): the route's
        first (they were in the prompt before any tool ran), then the cards' in the answer's order."""
        sets: list[SourceSet] = []
        route = self._route or {}
        if self._route_shown and route.get("sources"):
            numbers = route.get("numbers")
            if not (isinstance(numbers, list) and len(numbers) == len(route["sources"])
                    and all(isinstance(n, int) for n in numbers)):
                numbers = [None] * len(route["sources"])  # stored before the numbers were: not known
            pairs = [(str(loc), (n,) if n else ()) for loc, n in zip(route["sources"], numbers)]
            sets.append(("Found for your question:", pairs))  # before the model answered, in the prompt
        for card in self._cards.values():
            # Only tools that read documents name sources worth opening; a failed call read nothing.
            if card.tool_name not in SOURCE_TOOLS or card.status != "done" or not card.source:
                continue
            locations = split_sources(card.source)
            if card.tool_name == "rag_knowledge":
                numbers = cited_numbers(card.result, locations)
                query = card.query_preview
                query = query if len(query) <= 30 else query[:29] + "…"
                sets.append((f"Search “{query}”:", [(loc, numbers.get(loc, ())) for loc in locations]))
            else:
                sets.append(("", [(loc, ()) for loc in locations]))
        return sets

    def _source_anchors(self) -> dict[str, str | None]:
        """Where each source's page opens: at the best passage the route or a search found in it."""
        route = self._route or {}
        found: dict[str, str | None] = {}
        pairs = [zip(route.get("sources") or (), route.get("anchors") or ())]
        pairs += [zip(split_sources(self._cards[call_id].source), anchors)
                  for call_id, anchors in self._anchors.items() if call_id in self._cards]
        for location, anchor in (pair for group in pairs for pair in group):
            if isinstance(anchor, str) and anchor:
                found.setdefault(str(location), anchor)
        return found

    def _update_sources(self) -> None:
        entries = arrange(self._source_sets(), self._source_anchors())
        if entries or self._sources is not None:  # many answers have none: no row for them
            self.sources_row.set_entries(entries)
            self._caption_sources()

    def _caption_sources(self) -> None:
        """An answer that did not finish lists every passage put into its prompt, as it cannot say which it
        drew on: "Given to the model", not "Sources" (a stopped answer's four unrelated guide pages read as
        the files it came from)."""
        if self._sources is not None:
            self.sources_row.set_offered(self._sources_offered())

    def _sources_offered(self) -> bool:
        return self._state in ("stopped", "failed", "ended") and bool((self._route or {}).get("sources"))

    def finish(self, ev: Done) -> None:
        self._writing.drop()
        self._arrived()
        self._settle_thinking()
        self.flush()
        self._join_cut_blocks()
        self._streaming = False
        # Failed, it keeps all it was given, or none when the server refused the question (Done.sources)
        if self._route is not None and self._route.get("sources"):
            offered = dict(zip(self._route["sources"], self._route.get("numbers") or ()))
            self._route["sources"] = list(ev.sources)
            self._route["numbers"] = [offered.get(loc, 0) for loc in ev.sources]
            if any(ev.anchors):
                self._route["anchors"] = list(ev.anchors)
            else:
                self._route.pop("anchors", None)
        self.show_route_sources()
        self._model = ev.model or self._model  # with no model chosen, the one the server gave
        # Done.tools_run counts the calls that ran; the stats count every call started, denied commands too
        # (as answers stored before did, and a stopped answer does), and the footer takes those out itself.
        denied = sum(1 for c in self._cards.values() if c.denied)
        self._stats = {"rounds": ev.rounds, "tools_run": ev.tools_run + denied, "elapsed_ms": ev.elapsed_ms,
                       **self._model_stat(), **({"left_out": ev.left_out, "window": ev.window} if ev.left_out else {})}
        self._count_stopped()
        self._show_footer()
        if self._error is None:  # a failed one said so already
            self._set_state("done", announce=True)

    def show_route_sources(self) -> None:
        """Show the rag route's sources: after Done, those the answer used; else all that were offered."""
        self._route_shown = True
        self._update_sources()

    def stop(self, elapsed_ms: int = 0) -> None:
        """The user stopped the answer: keep what arrived, mark running tools as stopped."""
        # A call still being written is kept as the text it is so far, shown as a block never closed (as when
        # a stream ends inside one): its card, the answer's last text and the stored message lost it.
        written = self._writing.raw
        if (self._writing.drop() or self._waiting is not None) and not written and self._empty():
            self._say_stopped_early()
        self.append_text(written)
        self._arrived()
        self._settle_thinking()
        if not self._building:  # (a stored answer's text comes by build_step)
            self.flush()
            self._join_cut_blocks()
        self._streaming = False
        for card in self._cards.values():
            card.mark_stopped()
        self.show_route_sources()
        # No Done comes: count as the engine does, every call it started (a stopped one too), not the cards
        # it refused (an unknown tool's card is an error, but nothing ran).
        self._stats = {"rounds": self._rounds, "tools_run": len(self._started), "elapsed_ms": elapsed_ms,
                       "outcome": "stopped", **self._model_stat()}
        self._count_stopped()
        self._show_footer()
        self._set_state("stopped", announce=True)

    def _model_stat(self) -> dict[str, str]:
        return {"model": self._model} if self._model else {}

    def _empty(self) -> bool:
        """Nothing came: no text, card or reasoning."""
        return not self.content().strip() and not self._cards and self._thinking is None

    def _say_stopped_early(self) -> None:
        """Stopped before anything came: say so where the answer would be (only the footer was left, with a
        Copy that copied nothing)."""
        self._arrived()
        self._note = QLabel(STOPPED_EARLY, self)
        self._note.setObjectName("stoppedEarly")
        self._note.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self._note.setAccessibleName(STOPPED_EARLY)
        self._layout.insertWidget(self._layout.indexOf(self._error_box), self._note)  # not a part of the body

    def note(self) -> str:
        """The line said in place of an answer that never came ("" when there is none)."""
        return self._note.text() if self._note is not None else ""

    def _count_stopped(self) -> None:
        """Count the started calls that did not run to their end: stopped ones, and commands denied."""
        assert self._stats is not None
        stopped = sum(1 for c in self._cards.values() if c.stopped)
        if stopped:
            self._stats["tools_stopped"] = stopped
        denied = sum(1 for c in self._cards.values() if c.denied)
        if denied:
            self._stats["tools_denied"] = denied

    def fail(self, message: str) -> None:
        """Show an error inline, in plain words, with a Retry button."""
        message = window_words(message)  # "Set it in Settings", without "(or pass --api-key)"
        self._writing.drop()
        self._arrived()
        self._settle_thinking()
        self.flush()
        self._join_cut_blocks()
        self._streaming = False
        for card in self._cards.values():
            card.mark_stopped()
        self._error = message
        self.show_route_sources()
        self._error_label.setText(inline_code_html(message))
        self._error_box.setAccessibleName("Error")
        self._error_box.setAccessibleDescription(message)
        self._settings_tab = settings_tab(message)  # "check the Server URL in Settings": a button to go there
        self.settings_button.setVisible(self._settings_tab is not None)
        self._error_box.show()
        self.regenerate_button.hide()  # Retry says the same thing here
        self._show_footer()
        self._set_state("failed", announce=True)

    # rendering ------------------------------------------------------------------------------------
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
            self._render_step()
            if time.perf_counter() >= deadline:
                return False
        self.flush()  # what ends a render: the held rows, the cut blocks joined
        return True

    def _on_frame(self) -> None:
        self._render_step()
        if self._closed or self._pending:  # a burst left work over: continue on the next loop turn (after a
            self._timer.start(0 if self._frame_ms == FRAME_MS else self._frame_ms)  # slow render, later)
        elif self._building:
            self.flush()  # a stored answer's text is all shown (see build_alone)

    def build_alone(self) -> None:
        """Render a stored answer's text on by itself, a segment a turn of the event loop, no longer a slice
        of the window's loading (a question was asked below it: see MainWindow.finish_loading)."""
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
            run = Run(self._active or self._new_segment(""), self._active_text + "".join(self._pending))
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
            self._show_segment(first, "".join(s.markdown() for s in (first, *rest)), html=join.html)
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

    def _show_segment(self, seg: MarkdownSegment, text: str, growing: bool = False, html: str | None = None) -> None:
        seg.set_markdown(text, growing, html)
        seg.setVisible(bool(text.strip()) and not seg.shows_nothing())
        if seg in self._seams:
            self._seams[seg].fit()
        mark_reading_stop(text_segments(self.parts()), self._segments)  # Tab reads the answer from its first

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
        if after is None:  # at the end, but before the card of a call being written
            self._segments.append(seg)
            self._body.insertWidget(self._writing.index(), seg)
        else:  # a segment split off a run that a card already follows: it goes before that card
            self._segments.insert(self._segments.index(after) + 1, seg)
            self._body.insertWidget(self._body.indexOf(after) + 1, seg)
        return seg

    def _add_card(self, call_id: str, tool: str, query: str, param: str) -> ToolCard:
        self._arrived()
        if self._pending:  # the text before the card is rendered in later steps, in its place
            self._before_card = Run(self._active or self._new_segment(""),
                                     self._active_text + "".join(self._pending))
            self._closed.append(self._before_card)
            self._pending.clear()
            if not self._timer.isActive():
                self._timer.start(0)
        elif self._active is not None:  # on screen already
            self._before_card = Run(self._active, self._active_text)
        elif not self._after_card:  # the first part of the answer
            self._before_card = None
        # (cards one after another: a mark after the last goes where one after the first would have)
        self._after_card = True
        self._marks_attach = None  # decided at the first mark after the card
        self._active, self._active_text = None, ""  # text after the card starts a new segment
        card = self._writing.take(call_id, query, param)  # the card it was written in goes on running it
        if card is None:
            card = ToolCard(call_id, tool, query, param, self)
            self._body.addWidget(card)
        card.openFailed.connect(self.notice)  # a source in its details that could not be opened
        self._cards[call_id] = card
        self._positions[call_id] = self._content_len
        return card

    def _show_footer(self) -> None:
        # An answer that is only an error has no rounds to count and nothing to copy: Retry is enough.
        only_error = bool(self._error) and not self.content().strip() and not self._cards
        text = "" if only_error or not self._stats else footer_text(self._stats)
        # In a narrow window the line wraps between its parts, never inside one ("0.1" / "s").
        self._footer.setText(" · ".join(part.replace(" ", "\u00a0") for part in text.split(" · ")) if text else "")
        left_out = int(self._stats.get("left_out", 0)) if self._stats else 0
        why = left_out_words(left_out, int(self._stats.get("window", 0))) if left_out else ""
        self._footer.setToolTip(why)
        self._footer.setAccessibleDescription(why)  # a screen reader says it too, not only a mouse hover
        # its figures, said as words: the name alone ("Answer statistics") hid them from a screen reader
        self._footer.setAccessibleName(f"Answer statistics: {spoken(text)}" if text else "Answer statistics")
        self.copy_button.setVisible(not only_error and not self._empty())  # nothing to copy
        # Only an error: nothing is left in the row (Regenerate is the error's Retry), and shown empty it
        # left a gap between the error and the next question.
        self._footer_row.setVisible(not only_error)
        self._order_tabs()

    def _order_tabs(self) -> None:
        """Tab walks the answer top to bottom: Thinking (and its text, shown), cards and code links, Retry,
        sources, then Copy, Regenerate.

        The footer's buttons are made with the answer, before any card, and Qt tabs in the order widgets
        were made: Tab went from Send to Copy and Regenerate, and only then up to the answer's cards; and
        from Copy to the Thinking toggle above it, made when the reasoning came.
        """
        chain = self._tab_chain()
        for first, second in zip(chain, chain[1:]):
            QWidget.setTabOrder(first, second)

    def _tab_chain(self, also: QWidget | None = None) -> list[QWidget]:
        """The answer's Tab stops in order (with ``also``, a segment the caret is in, in its place)."""
        top = [self._thinking.toggle, self._thinking.body] if self._thinking is not None else []
        chain = [w for w in (*top, *self.parts()) if w.focusPolicy() & Qt.FocusPolicy.TabFocus or w is also]
        if self._error is not None:
            chain += [self.settings_button] if self._settings_tab else []
            chain.append(self.retry_button)
        if self._sources is not None:
            chain += self._sources.links()
        return chain + [self.copy_button, self.regenerate_button]

    # state ----------------------------------------------------------------------------------------
    @property
    def streaming(self) -> bool:
        """True from ``begin`` until the answer is finished, stopped or failed."""
        return self._streaming

    @streaming.setter
    def streaming(self, on: bool) -> None:
        ended = self._streaming and not on
        self._streaming = on
        if ended:
            self._join_cut_blocks()
        if ended and self._state == "answering":  # the stream ended without Done or an error (the window)
            self._set_state("ended", announce=True)

    @property
    def state(self) -> str:
        """answering, done, stopped, failed or ended (the stream ended without a word why); "" before it began."""
        return self._state

    def _set_state(self, state: str, announce: bool = False) -> None:
        """Say the answer's state in its accessible name, its figures or error in its description, and, for
        an answer that just ended in view, announce it to a screen reader (Qt 6.8's announcement event)."""
        self._state = state
        self._caption_sources()
        self.setAccessibleName(f"Assistant answer, {STATE_WORDS.get(state, state)}")
        detail = self._error or spoken(self.footer())
        self.setAccessibleDescription(detail if state != "answering" else "")
        if not announce or not self.isVisible():  # an answer that ended out of sight: its chat's row says so
            return
        said = {"done": "Answer finished", "stopped": "Answer stopped", "failed": "Answer failed",
                "ended": "Answer ended"}[state]
        if state == "failed" and self._error:
            said += f": {self._error}"
        self.announced.append(said)
        event = QAccessibleAnnouncementEvent(self, said)
        if state == "failed":
            event.setPoliteness(QAccessible.AnnouncementPoliteness.Assertive)
        QAccessible.updateAccessibility(event)

    def has_pending(self) -> bool:
        """True while streamed text waits to be rendered."""
        return bool(self._pending or self._closed)

    def content(self) -> str:
        if len(self._content) > 1:
            self._content[:] = ["".join(self._content)]
        return self._content[0] if self._content else ""

    def cards(self) -> list[ToolCard]:
        return list(self._cards.values())

    def parts(self) -> list[QWidget]:
        """The column in display order: text segments with content, and tool cards."""
        widgets = [self._body.itemAt(i).widget() for i in range(self._body.count())]
        return [w for w in widgets if (isinstance(w, ToolCard) and w.folded_into is None)
                or (w is not None and not isinstance(w, ToolCard) and w.markdown().strip())]

    def segments(self) -> list[MarkdownSegment]:
        return list(self._segments)

    def sources(self) -> list[str]:
        """The locations this answer used, in the order they came (the "Sources" line's links)."""
        return self._sources.locations() if self._sources else []

    def source_entries(self) -> list[SourceEntry]:
        """The "Sources" line's entries: each location with the numbers the model cited it by."""
        return self._sources.entries() if self._sources else []

    @property
    def sources_row(self) -> SourcesRow:
        """The "Sources" line above the footer (hidden while it has no link)."""
        if self._sources is None:
            self._sources = SourcesRow(self, self._palette.link)
            self._sources.openFailed.connect(self.notice)
            self._layout.insertWidget(self._layout.indexOf(self._footer_row), self._sources)
        return self._sources

    def refresh_run_links(self) -> None:
        """Render the segments with code again: ``allow_nanogo`` changed, so Run links come or go."""
        for seg in self._segments:
            if seg.code_blocks():
                seg.refresh()

    def cancel_runs(self) -> list[asyncio.Task[None]]:
        """Stop the Go runs of this answer's code blocks (it is being closed); the cancelled tasks."""
        return [task for seg in self._segments for task in seg.cancel_runs()]

    def reasoning(self) -> str:
        return self._thinking.text() if self._thinking else ""

    @property
    def route(self) -> dict[str, Any] | None:
        return self._route

    @property
    def stats(self) -> dict[str, Any] | None:
        return self._stats

    @property
    def error(self) -> str | None:
        return self._error

    def footer(self) -> str:
        return self._footer.text().replace("\u00a0", " ")

    def stored_tools(self) -> list[StoredTool]:
        out = []
        for call_id, card in self._cards.items():
            # A tool stopped mid-run is stored as it was left, "running" (chats reads that as stopped).
            status = "running" if card.stopped else card.status
            # a call refused before it ran is stored with the time -1, so that it shows none when reopened
            elapsed = card._elapsed_ms if call_id in self._started or card.status == "running" else -1
            out.append(StoredTool(call_id, card.tool_name, card.query, status, card._param, card._source,
                                  card.error, card._result, card._result_bytes, elapsed, self._positions[call_id],
                                  self._anchors.get(call_id, ()), self._call_rounds.get(call_id, 0)))
        return out

    def transcript(self, raws: dict[str, str]) -> str:
        """The text the model wrote, rebuilt when no Done came: the text shown with each tool block's raw
        XML (``raws``, by call id) put back where it was."""
        content, out, at = self.content(), [], 0
        for tool in sorted(self.stored_tools(), key=lambda t: t.position):
            out.append(content[at:tool.position])
            out.append(raws.get(tool.call_id, ""))
            at = tool.position
        out.append(content[at:])
        return "".join(out)

    def to_markdown(self) -> str:
        # with how it ended, as the window shows it ("stopped", its error): a stopped answer's text just ended;
        # or that it is still being written, its calls without an end running
        status = {"stopped": "stopped", "failed": "error", "answering": "answering"}.get(self._state, "done")
        text = answer_markdown(StoredMessage(0, "assistant", self.content(), reasoning=self.reasoning(),
                                             stats=self._stats, status=status, error=self._error,
                                             tools=tuple(self.stored_tools())))
        entries = self.source_entries()
        if entries:  # a copied answer keeps what it was based on, with the numbers its text cites
            text += f"\n{OFFERED_CAPTION if self._sources_offered() else 'Sources'}:\n"  # the row's caption
            group = None
            for entry in entries:
                if entry.group != group or group is None:
                    group = entry.group
                    text += f"\n{group}\n\n" if group else "\n"
                text += f"- {cited_as(entry.numbers)} {entry.location}".replace("-  ", "- ") + "\n"
        return text

    def copy_markdown(self) -> str:
        text = self.to_markdown()
        QGuiApplication.clipboard().setText(text)
        self.copied.emit(text)
        return text

    def set_regenerate_visible(self, on: bool) -> None:
        self.regenerate_button.setVisible(on and self._error is None)
        self.retry_button.setVisible(on)

    def regenerate_offered(self) -> bool:
        """Whether Regenerate or Retry is shown (not hidden by set_regenerate_visible)."""
        return not self.regenerate_button.isHidden() or not self.retry_button.isHidden()

    @classmethod
    def from_stored(cls, message: StoredMessage, parent: QWidget | None = None, palette: Palette = LIGHT,
                    show_route: bool = False, settings: SettingsSource | None = None,
                    later: bool = False) -> "AnswerWidget":
        """Rebuild an answer as it was: text, cards with their final state, reasoning, route, sources, footer.
        With ``later`` its text is only cut and rendered by ``build_step`` (or ``flush``): its cards, footer and
        state are there at once, its text segments come in its place a few at a time."""
        self = cls(parent, palette, show_route, settings)
        self._building = later
        if message.route:
            sources = message.route.get("sources") or ()  # absent in answers stored before sources existed
            self.on_route(Route(str(message.route.get("mode", "")), str(message.route.get("reason", "")),
                                tuple(message.route.get("hints", ())),
                                tuple(str(s) for s in sources) if isinstance(sources, list) else ()))
            if self._route is not None and "sources" in self._route:
                # as stored: the used ones' numbers, or none in answers stored before they were
                self._route["numbers"] = message.route.get("numbers") or []
                if isinstance(message.route.get("anchors"), list):
                    self._route["anchors"] = message.route["anchors"]
            self._route_shown = True  # stored as they were shown
        if message.reasoning:
            self.append_reasoning(message.reasoning, live=False)
        for seg in message.segments():
            if isinstance(seg, str):
                self.append_text(seg)
                continue
            if not later:  # (later, the text before the card renders before it: see _add_card)
                self.flush()
            card = self._add_card(seg.call_id, seg.tool, seg.query, seg.param)
            status = "skipped" if seg.status == "running" else seg.status  # stored mid-run: it was stopped
            if seg.elapsed_ms >= 0:  # stored as -1: refused before it ran (an unknown tool), no time shown
                self._started.add(seg.call_id)
            if any(seg.anchors):
                self._anchors[seg.call_id] = seg.anchors
            self._call_rounds[seg.call_id] = seg.round
            card.finish(status, source=seg.source, error=seg.error or (
                STOPPED if seg.status == "running" else None), result=seg.result,
                result_bytes=seg.result_bytes, elapsed_ms=max(0, seg.elapsed_ms), ran=seg.elapsed_ms >= 0)
            self._fold(card)  # as it was shown
        self._update_sources()
        if later:
            self._timer.stop()  # the window calls build_step
            self._building = self.has_pending()
        else:
            self.flush()
            self._join_cut_blocks()
        if message.error:
            self.fail(message.error)
        if message.stats:
            self._stats = dict(message.stats)
            self._count_stopped()  # answers stored before denied commands were counted apart
            if self._stats.get("outcome") == "stopped" and self._empty() and not message.error:
                self._say_stopped_early()
        self._show_footer()
        stopped = bool(self._stats and self._stats.get("outcome") == "stopped")
        self._set_state("failed" if message.error else "stopped" if stopped else "done")
        return self
