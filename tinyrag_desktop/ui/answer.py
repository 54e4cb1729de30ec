"""AnswerWidget: one assistant answer as a column of Markdown segments and tool cards, in stream order.

Here are its widgets, the engine's events it takes and the states it goes through. How its text is rendered
as it streams is in answer_rendering.py, its Sources line in answer_sources.py, and how it is rebuilt from
the chat history and copied in answer_stored.py: AnswerWidget mixes the three in.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from PySide6.QtCore import QElapsedTimer, Qt, QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ..engine.context import left_out_words
from ..engine.events import Done, Route, ToolFinished, ToolOutput, ToolStarted, ToolWriting
from ..engine.errors import NO_SUCH_MODEL
from ..tool_words import window_words
from .access import announce as tell_reader
from .answer_cuts import Run
from .answer_footer import FooterLabel, footer_text, spoken, waiting_words
from .answer_rendering import FRAME_MS, RenderingMixin
from .answer_sources import SourcesMixin
from .answer_stored import StoredFormMixin
from .error_box import (ENTER_ADDRESS, OPEN_SETTINGS, SERVER_HELP, ErrorBox, error_settings_field, error_settings_tab,
                        model_button_words, no_server)
from .focus_ring import ActionButton
from .key_text import key_text
from .markdown_render import LIGHT, Palette, inline_code_html
from .plain_text import plain_label
from .reading import Span, card_markdown
from .segments import MarkdownSegment, Seam, SettingsSource, ThinkingSection
from .sources_row import SourcesRow
from .theme import colors
from .toolcard import ToolCard, WritingSlot

STOPPED_EARLY = "Stopped before the model answered."  # where the answer would be, when nothing came
# The answer's state in its accessible name: a screen reader told a running answer from a finished one by
# nothing ("Assistant answer" both).
STATE_WORDS = {"answering": "still answering", "done": "finished", "stopped": "stopped", "failed": "failed",
               "ended": "ended"}


class AnswerWidget(RenderingMixin, SourcesMixin, StoredFormMixin, QFrame):
    """Renders one answer from engine events, or from a stored message when a chat is reopened."""

    retryRequested = Signal()
    settingsRequested = Signal(str)  # the Settings tab an error's remedy is on
    serverHelpRequested = Signal()  # "How to start a server…": the welcome page's steps, for no server
    modelMenuRequested = Signal(QWidget)  # "Choose a model…": the status bar's model menu, opened under it
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
            card, self.shown_tools(), live=self._state == "answering"), self.to_markdown)
        self._cards: dict[str, ToolCard] = {}
        self._positions: dict[str, int] = {}
        self._started: set[str] = set()  # calls the engine ran (a tool_start came), as Done.tools_run counts
        self._held: set[str] = set()  # started calls the user was asked about and did not allow (see hold)
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
        self._route_label = plain_label(QLabel(self))  # the question's words are in it
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

        self._error_box = ErrorBox(self)
        self._error_box.setObjectName("answerError")
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
        self.settings_button = QPushButton(OPEN_SETTINGS, self._error_box)  # when the error names one
        self.settings_button.setObjectName("errorOpenSettings")
        self.settings_button.clicked.connect(lambda: self.settingsRequested.emit(self._settings_tab or "Model"))
        self._settings_tab: str | None = None
        self.settings_field: str | None = None  # the field on that tab ("api_key"): Open Settings focuses it
        # the server lacks the model asked for: its models a click away, not only in Settings
        self.model_button = QPushButton("Choose a model…", self._error_box, objectName="errorChooseModel")
        self.model_button.clicked.connect(lambda: self.modelMenuRequested.emit(self.model_button))
        # no server answers: the welcome page's steps and built-in model, gone once a question was asked
        self.help_button = QPushButton(SERVER_HELP, self._error_box, objectName="errorServerHelp")
        self.help_button.clicked.connect(self.serverHelpRequested)
        self._error_box.lay_out(self._error_label, (self.model_button, self.help_button, self.settings_button,
                                                    self.retry_button))
        self._error_box.hide()
        self._layout.addWidget(self._error_box)

        self._sources: SourcesRow | None = None  # made at the first source: many answers have none

        foot = QHBoxLayout()
        foot.setSpacing(4)
        # Wraps in a narrow window: unwrapped, its one line set the answer's minimum width, wider than the
        # conversation, which has no horizontal scroll bar, so text, questions and Regenerate were cut off.
        self._footer = FooterLabel(self)
        self._footer.setObjectName("answerFooter")
        self._footer.setAccessibleName("Answer statistics")
        self._footer.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.copy_button = ActionButton(self)
        self.copy_button.setObjectName("copyAnswer")
        self.copy_button.setText("Copy")
        self.copy_button.setToolTip("Copy this answer as Markdown")
        self.copy_button.setAccessibleName("Copy answer as Markdown")
        self.copy_button.clicked.connect(self.copy_markdown)
        self.copy_button.setAutoRaise(True)
        self.regenerate_button = ActionButton(self)
        self.regenerate_button.setObjectName("regenerate")
        self.regenerate_button.setText("Regenerate")
        self.regenerate_button.setToolTip(f"Ask again for a new answer ({key_text('Ctrl+R')})")
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
        self._waiting = QLabel(waiting_words(0), self)
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

    def set_model(self, name: str) -> None:
        """The model writing the answer (the bridge's modelNamed): with none chosen, the one the server gave,
        which only Done said, and a stopped answer's footer read "2.1 s · stopped"."""
        self._model = name

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
        self._append_in_rounds(content[: len(content) - len(text)])

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
        if not self._streaming:  # live, the Sources line comes once the answer is complete (show_route_sources)
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

    def finish(self, ev: Done) -> None:
        self._writing.drop()
        self._arrived()
        self._settle_thinking()
        self.end_rendering()
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
                       **self.model_stat(), **({"left_out": ev.left_out, "window": ev.window} if ev.left_out else {}),
                       **({"shortened": ev.shortened, "window": ev.window} if ev.shortened else {}),
                       **self.round_stat()}
        self._count_stopped()
        self._show_footer()
        if self._error is None:  # a failed one said so already
            self._set_state("done", announce=True)

    def stop(self, elapsed_ms: int = 0) -> None:
        """The user stopped the answer: keep what arrived, mark running tools as stopped."""
        # A call still being written is kept as the text it is so far (its card, the answer's last text and the
        # stored message lost it), and shown as a card that says it was stopped while being written.
        written = self._writing.raw
        if (self._writing.drop() or self._waiting is not None) and not written and self._empty():
            self._say_stopped_early()
        if written:
            self._keep_written(written)
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
                       "outcome": "stopped", **self.model_stat(), **self.round_stat()}
        self._count_stopped()
        self._show_footer()
        self._set_state("stopped", announce=True)

    def model_stat(self) -> dict[str, str]:
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
        # "check the Server URL in Settings": a button to go there (also from the words stored, once reopened)
        self._settings_tab = error_settings_tab(message)
        self.settings_field = error_settings_field(message)
        message = model_button_words(message)  # "Choose one of those to use instead": the button beside it does
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
        self.settings_button.setVisible(self._settings_tab is not None)
        down = no_server(message)
        self.help_button.setVisible(down)
        self.settings_button.setText(ENTER_ADDRESS if down else OPEN_SETTINGS)
        self.model_button.setVisible(NO_SUCH_MODEL in message)
        self._error_box.show()
        self._error_box.fit()  # the buttons beside the message, or below it when they leave it too narrow
        self.regenerate_button.hide()  # Retry says the same thing here
        self._show_footer()
        self._set_state("failed", announce=True)

    def _show_footer(self) -> None:
        # An answer that is only an error has no rounds to count and nothing to copy: Retry is enough.
        only_error = bool(self._error) and not self.content().strip() and not self._cards
        text = "" if only_error or not self._stats else footer_text(self._stats)
        # In a narrow window the line wraps between its parts, never inside one ("0.1" / "s").
        self._footer.set_footer(text)
        left_out, shortened = (int(self._stats.get(k, 0)) for k in ("left_out", "shortened")) if self._stats else (0, 0)
        why = left_out_words(left_out, int(self._stats.get("window", 0)), shortened) if left_out or shortened else ""
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
        from Copy to the Thinking toggle above it, made when the reasoning came. An opened card's details
        come right after it (ToolCard.pin_details): Qt moves no child along with its card."""
        chain = self._tab_chain()
        for first, second in zip(chain, chain[1:]):
            QWidget.setTabOrder(first, second)
        for card in self.cards():
            card.pin_details()

    def _tab_chain(self, also: QWidget | None = None) -> list[QWidget]:
        """The answer's Tab stops in order (with ``also``, a segment the caret is in, in its place)."""
        top = [self._thinking.toggle, self._thinking.body] if self._thinking is not None else []
        chain = [w for w in (*top, *self.parts()) if w.focusPolicy() & Qt.FocusPolicy.TabFocus or w is also]
        if self._error is not None:
            chain += [b for b in (self.model_button, self.help_button, self.settings_button) if not b.isHidden()]
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
        tell_reader(self, said, urgent=state == "failed")

    def content(self) -> str:
        if len(self._content) > 1:
            self._content[:] = ["".join(self._content)]
        return self._content[0] if self._content else ""

    def hold(self, card: ToolCard, on: bool) -> None:
        """Count ``card``'s call as not run while ``on``: the user is asked whether it may run, denied it, or the
        answer was stopped while asking (see ran_tools)."""
        held = {call_id for call_id, c in self._cards.items() if c is card}
        self._held = self._held | held if on else self._held - held

    def cards(self) -> list[ToolCard]:
        return list(self._cards.values())

    def parts(self) -> list[QWidget]:
        """The column in display order: text segments with content, and tool cards."""
        widgets = [self._body.itemAt(i).widget() for i in range(self._body.count())]
        return [w for w in widgets if (isinstance(w, ToolCard) and w.folded_into is None)
                or (w is not None and not isinstance(w, ToolCard) and w.markdown().strip())]

    def segments(self) -> list[MarkdownSegment]:
        return list(self._segments)

    def refresh_run_links(self) -> None:
        """Render the segments with code again: ``allow_nanogo`` changed, so Run links come or go."""
        for seg in self._segments:
            if seg.code_blocks():
                seg.refresh()

    def runs_going(self) -> bool:
        """Whether a Go block of this answer is running now (Run)."""
        return any(seg.runs_going() for seg in self._segments)

    def cancel_runs(self) -> list[asyncio.Task[None]]:
        """Stop the Go runs of this answer's code blocks (it is being closed); the cancelled tasks."""
        return [task for seg in self._segments for task in seg.cancel_runs()]

    def reasoning(self) -> str:
        return self._thinking.text() if self._thinking else ""

    def thinking(self) -> ThinkingSection | None:
        return self._thinking

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
        return self._footer.full_text()

    def set_regenerate_visible(self, on: bool) -> None:
        self.regenerate_button.setVisible(on and self._error is None)
        self.retry_button.setVisible(on)

    def regenerate_offered(self) -> bool:
        """Whether Regenerate or Retry is shown (not hidden by set_regenerate_visible)."""
        return not self.regenerate_button.isHidden() or not self.retry_button.isHidden()

