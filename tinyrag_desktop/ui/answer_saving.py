"""AnswerSaver: the answer being written is kept in the chat history as it arrives, not only at its end.

Answers used to be stored once, when they ended: a crash, a kill or a power cut while one streamed lost
all of it, and after Regenerate the answer it was replacing too (that was deleted first). Now a new answer
is stored as soon as it starts, and what has arrived is written over it (first within FIRST_SAVE_MS of its
first words, then every SAVE_EVERY_MS), as a stopped
answer that says the app closed before it was finished (shown so, with Retry, when the chat is opened
again); its end writes it as it ended. Regenerate's old answer stays until the new one has as much text as
it or has run a tool (or ends), and goes in the same transaction as the save that replaces it: a crash leaves
one of them, never neither, and never the first words of a new answer in place of a whole old one. A new
answer stopped or failed while it is shorter than the old one and has run no tool is not stored: the old one
stays, and the window shows it again (Stop pressed two seconds into a Regenerate threw away a whole answer for
its first eleven words).
"""

from __future__ import annotations

import logging
import sqlite3
import time
from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import QObject, QTimer, Signal

from ..chats import ChatStore, ChatStoreError, StoredMessage
from .key_text import key_text

if TYPE_CHECKING:
    from .answer import AnswerWidget
    from .main_window import MainWindow

log = logging.getLogger(__name__)

SAVE_EVERY_MS = 2000
# the first words are kept sooner: a kill in an answer's first two seconds left the question with no text
FIRST_SAVE_MS = 400
# s a save while the answer streams waits for another program's lock on the history: a backup tool holding it
# froze the window for seconds at every save; the next save tries again, and the last one waits as usual
PROGRESS_WAIT = 0.05
NOT_SAVED = "The last answer could not be saved."


def not_saved_words(why: Exception | str) -> str:
    return (f"{NOT_SAVED} {why} It is saved at the next question, when another chat is opened or when the "
            "window closes, if the history can be written by then; until another chat is opened it stays on "
            f"screen: copy it ({key_text('Ctrl+Shift+C')}) to keep it.")


INTERRUPTED = ("The app closed before this answer was finished; what had arrived is kept. "
               "Press Retry to ask again.")


class AnswerSaver(QObject):
    """Stores the one answer being written, while it streams and when it ends."""

    storedLate = Signal()  # an answer whose end could not be stored is stored now (retry_pending)

    def __init__(self, store: Callable[[], ChatStore], parent: QObject | None = None,
                 enabled: Callable[[], bool] = lambda: True) -> None:
        super().__init__(parent)
        self._store = store
        # off in a scripted run (--ask): its answer, kept as "cut short", looked to the window beside it like
        # one a crash had left, with a Retry that stored a second answer
        self._enabled = enabled
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.save_progress)
        self._answer: AnswerWidget | None = None
        self._chat_id: str | None = None
        self._raws: dict[str, str] = {}
        self._message_id: int | None = None
        self._replacing: int | None = None
        self._saved: object = None  # what the last save held, so an unchanged answer is not written again
        self._old_length = 0  # the text of the answer Regenerate replaces, which a shorter new one leaves stored
        self._pending: dict | None = None  # an answer as it ended, whose storing failed
        self._failed = False
        self.kept_earlier = False  # the last finish kept Regenerate's old answer: the new one brought nothing

    def begin(self, answer: "AnswerWidget", chat_id: str, raws: dict[str, str], replacing: int | None = None) -> None:
        """Start keeping ``answer`` of ``chat_id`` (``raws``: its tool blocks as the model wrote them, filled
        in as they come). ``replacing``: the stored answer it is to replace (Regenerate)."""
        self._answer, self._chat_id, self._raws = answer, chat_id, raws
        self.retry_pending()  # an earlier answer whose end could not be stored: once more, then it goes
        self._pending = None
        self._message_id, self._replacing, self._saved, self._failed = None, replacing, None, False
        self._started = time.monotonic()
        if not self._enabled():
            return
        self._old_length = self._stored_length(chat_id, replacing) if replacing is not None else 0
        if replacing is None:  # a question with no answer yet: after a crash it says so, with Retry
            self._write(answer, "stopped", INTERRUPTED, {"outcome": "stopped"})
        self._timer.start(FIRST_SAVE_MS)

    @property
    def kept_id(self) -> int | None:
        """The row standing for the answer that last ended (or is streaming): what a Regenerate replaces."""
        return self._message_id if self._message_id is not None else self._replacing

    def live_ids(self) -> set[int]:
        """The stored rows the live answer stands for: its own, and the answer it replaces (not shown twice
        when its chat is opened again while it streams)."""
        return {i for i in (self._message_id, self._replacing) if i is not None} if self._answer else set()

    def save_progress(self) -> None:
        """Write what has arrived, when it changed since the last save."""
        answer = self._answer
        if answer is None or not self._enabled():
            return
        content, tools, reasoning = answer.content(), answer.stored_tools(), answer.reasoning()
        if not (content.strip() or tools or reasoning):
            return  # nothing to keep yet (a regenerated answer's old one stays meanwhile)
        if self._replacing is not None and not answer.ran_tools() and len(content) < self._old_length:
            return  # a kill now would leave these first words where a whole answer was: the old one stays
        state = (content, len(reasoning), tuple((t.call_id, t.status) for t in tools))
        if state == self._saved:
            return
        stats = {**(answer.stats or {**answer.model_stat(), **answer.round_stat()}), "outcome": "stopped",
                 "elapsed_ms": int((time.monotonic() - self._started) * 1000)}
        if self._write(answer, "stopped", INTERRUPTED, stats, content=content, tools=tools, reasoning=reasoning,
                       wait=PROGRESS_WAIT):
            self._saved = state
            if self._timer.interval() != SAVE_EVERY_MS:
                self._timer.setInterval(SAVE_EVERY_MS)

    def finish(self, answer: "AnswerWidget", chat_id: str, outcome: str, transcript: str) -> StoredMessage:
        """Store ``answer`` of ``chat_id`` as it ended, over what was kept of it; raises ChatStoreError."""
        self._timer.stop()
        self.kept_earlier = False
        mine = answer is self._answer
        self._answer = None
        if mine and self._replacing is not None and self._message_id is None and self._shorter(answer, outcome):
            # Regenerate, then Stop or a server error before the new answer was as long: the old answer stays
            # stored (the window shows it again, see kept_earlier)
            self.kept_earlier = True
            return StoredMessage(self._replacing, "assistant", "")
        ended = dict(chat_id=chat_id, content=answer.content(), transcript=transcript, reasoning=answer.reasoning(),
                     route=answer.route, stats=answer.stats, status=outcome, error=answer.error,
                     tools=answer.stored_tools(), message_id=self._message_id if mine else None,
                     replacing=self._replacing if mine else None)
        try:
            message = self._store().add_assistant_message(**ended)
        except ChatStoreError:
            self._pending = ended  # tried again before the next question (retry_pending)
            raise
        self._message_id, self._replacing, self._pending = message.id, None, None
        return message

    def stop_keeps_earlier(self) -> bool:
        """Whether the answer being written, stopped now (Stop, Quit), would leave Regenerate's old answer stored
        in its place: it is still shorter (see finish)."""
        answer = self._answer
        return (answer is not None and self._replacing is not None and self._message_id is None
                and self._shorter(answer, "stopped"))

    def _shorter(self, answer: "AnswerWidget", outcome: str) -> bool:
        """Whether Regenerate's new ``answer``, ended so, is worth less than the old one it was to replace:
        nothing came, or it was stopped or failed with less text than the old one and ran no tool (what its
        tools found, a search or a program's run, was thrown away for its short text)."""
        if answer.ran_tools():
            return False
        if not (answer.content().strip() or answer.reasoning()):
            return True
        return outcome != "done" and len(answer.content()) < self._old_length

    def retry_pending(self) -> StoredMessage | None:
        """Store the answer whose end could not be stored (a full disk, a lock), as it ended: the message box
        sends the next question after it, and it was left as the empty row kept while it streamed, "the app
        closed before this answer was finished". None when there is none, or it still cannot be stored."""
        if self._pending is None:
            return None
        try:
            message = self._store().add_assistant_message(**self._pending)
        except ChatStoreError as exc:
            log.warning("the answer that could not be stored still cannot be: %s", exc)
            return None
        self._pending = None
        self.storedLate.emit()
        return message

    def _stored_length(self, chat_id: str, message_id: int) -> int:
        try:
            rows = self._store().messages(chat_id, first=message_id, before=message_id + 1)
        except (ChatStoreError, sqlite3.Error):
            return 0  # read before the new answer is stored: it is then kept at once, as before
        return len(rows[0].content) if rows else 0

    def _write(self, answer: "AnswerWidget", status: str, error: str, stats: dict, *, content: str | None = None,
               tools: list | None = None, reasoning: str | None = None, wait: float | None = None) -> bool:
        assert self._chat_id is not None
        try:
            message = self._store().add_assistant_message(
                self._chat_id, answer.content() if content is None else content,
                transcript=answer.transcript(self._raws),
                reasoning=answer.reasoning() if reasoning is None else reasoning, route=answer.route,
                stats=stats, status=status, error=error,
                tools=answer.stored_tools() if tools is None else tools,
                message_id=self._message_id, replacing=self._replacing, wait=wait)
        except ChatStoreError as exc:  # the end tries again, and says so if it fails too
            if not self._failed:
                log.warning("could not keep the answer so far: %s", exc)
            self._failed = True
            return False
        self._message_id, self._replacing = message.id, None
        return True


def show_earlier_answer(win: "MainWindow", answer: "AnswerWidget", chat_id: str, message_id: int,
                        outcome: str) -> None:
    """A Regenerate stopped or failed before it was as long (AnswerSaver.kept_earlier): the earlier answer, still
    stored as ``message_id``, takes the new one's place in ``win``, and the status bar says what happened
    (the stop or the error showed until the chat was opened again, which then showed the earlier answer)."""
    if chat_id != win.chat_id:
        return
    # Its chat being opened again: the rest built first, the earlier answer (left out as the one being replaced)
    # then shown below it. Else the new answer, not stored, was attached there once the chat was built.
    win.finish_loading()
    earlier = win.store.messages(chat_id, first=message_id, before=message_id + 1)
    if not earlier:
        return
    why = (f"Could not answer again: {answer.error.rstrip('.')}." if outcome == "error" and answer.error
           else "Stopped while the new answer was shorter." if answer.content().strip()
           else "Stopped before the new answer began.")
    win.message_ids.pop(id(answer), None)
    answer.setProperty("replaced", True)  # not attached again as an answer whose chat was being opened
    if answer in win.view.answers():
        win.view.remove(answer)
    else:  # kept out of sight as its chat was opened again (ChatView.clear)
        answer.deleteLater()
    shown = win.view.add_stored(earlier[0])
    win.wire_answer(shown)
    win.message_ids[id(shown)] = message_id
    win.statusBar().showMessage(f"{why} The earlier answer is kept.", 10000)
