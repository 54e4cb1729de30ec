"""An answer's stored form: rebuilt from a StoredMessage, and given back as stored tools, transcript, Markdown."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

from ..chat_export import answer_markdown
from ..chats import StoredMessage, StoredTool
from ..engine.events import Route
from ..source_list import sources_markdown
from ..written_calls import WRITTEN_ID, shown_segments
from .markdown_render import LIGHT, Palette
from .segments import SettingsSource
from .toolcard import STOPPED

if TYPE_CHECKING:
    from .answer import AnswerWidget


class StoredFormMixin:
    """AnswerWidget as it is stored and copied (mixed into it, see answer.py)."""

    # The transcript and status its row in the chat history holds (see keep_stored); "" until it is stored
    _stored_as: tuple[str, str] = ("", "")

    def keep_stored(self, transcript: str, status: str) -> None:
        """Keep the transcript and status this answer is stored with: the tool blocks' raw XML is nowhere
        else on it, and its status is how it ended, which the state shown does not tell (an answer stored
        "stopped" with a note shows as failed). A chat purged while open is stored again with them."""
        self._stored_as = (transcript, status)

    def as_stored(self) -> StoredMessage:
        """The answer as its row in the chat history holds it (a chat purged while open is stored again with
        it: see chat_anew): the transcript and status it was stored with, its text, tools, reasoning, route,
        footer and error as shown. One never stored has no transcript (its tool blocks are given back to the
        model as text then), and the status its state shows."""
        transcript, status = self._stored_as
        stats = self.stats if self.stats is not None else self.round_stat()  # (still answering: its rounds so far)
        return StoredMessage(0, "assistant", self.content(), transcript, self.reasoning(), self.route, stats,
                             status or {"stopped": "stopped", "failed": "error"}.get(self._state, "done"),
                             self.error, tuple(self.stored_tools()))

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

    def ran_tools(self) -> list[StoredTool]:
        """The stored tools that ran: the engine started them (not a call it refused) and the user did not hold
        them back (a command denied, waiting to be allowed, or stopped while waiting; see AnswerWidget.hold)."""
        return [t for t in self.stored_tools() if t.call_id in self._started and t.call_id not in self._held]

    def shown_tools(self) -> list[StoredTool]:
        """The stored tools, and the call the answer was stopped in while the model wrote it (as Copy shows it)."""
        return self.stored_tools() + ([self._written] if self._written is not None else [])

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
        stored = self.as_stored()
        text = answer_markdown(replace(stored, status="answering") if self._state == "answering" else stored)
        entries = self.source_entries()
        if entries:  # a copied answer keeps what it was based on, with the numbers its text cites
            text += "\n" + sources_markdown(entries, self._sources_offered(), self.unknown_citations())
        return text

    def copy_markdown(self) -> str:
        text = self.to_markdown()
        QGuiApplication.clipboard().setText(text)
        self.copied.emit(text)
        return text

    @classmethod
    def from_stored(cls, message: StoredMessage, parent: QWidget | None = None, palette: Palette = LIGHT,
                    show_route: bool = False, settings: SettingsSource | None = None,
                    later: bool = False) -> "AnswerWidget":
        """Rebuild an answer as it was: text, cards with their final state, reasoning, route, sources, footer.
        With ``later`` its text is only cut and rendered by ``build_step`` (or ``flush``): its cards, footer and
        state are there at once, its text segments come in its place a few at a time."""
        self = cls(parent, palette, show_route, settings)
        self._building = later
        self.keep_stored(message.transcript, message.status)
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
        segments = shown_segments(message)
        for before, seg in zip([None, *segments], segments):
            if isinstance(seg, str):
                if isinstance(before, str):  # the text of a round after the first: in its own segment, as shown
                    self._round_break()
                self.append_stored(seg)
                continue
            if seg.call_id == WRITTEN_ID:  # stopped while the model wrote it: the text it is, as a card
                self._show_written(message.content[seg.position:])
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
