"""The window's one request at a time: a question sent (or edited, or asked again), its answer streamed and stored."""

from __future__ import annotations

import logging
import sqlite3
import time
from typing import Awaitable, Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication

from ..chats import ChatStoreError
from ..engine.events import Done, EngineError, ToolFinished, ToolStarted
from ..tool_words import window_words
from .answer import AnswerWidget
from .answer_saving import NOT_SAVED, not_saved_words, show_earlier_answer
from .chat_anew import kept_or_saved_anew, saved_anew
from .chat_trim import trim_live_chat

Confirm = Callable[[str, str], Awaitable[bool]]  # ToolContext.confirm: (tool, its text) -> allowed

log = logging.getLogger(__name__)

UNEXPECTED = "Something unexpected went wrong while saving it; the details are in the log (Help → Open log folder)."
# The steps after an answer's end that failed (see _say_end_failed): said once, with each one's reason,
# whatever else the notice says
END_FAILED = ("Something went wrong as the answer ended; the answer and the chat stay as they are on screen. "
              "{why}The details are in the log (Help → Open log folder).")


class AskingMixin:
    """MainWindow's questions and answers (mixed into it, see main_window.py: it uses the window's store,
    bridge, view and composer)."""

    def _connect_bridge(self) -> None:
        b = self.bridge
        self.status.follow(b)  # what the answer is doing, in the status bar
        b.routed.connect(lambda ev: self._answer and self._answer.on_route(ev))
        # a damaged or locked knowledge base is left out of the answer: said, not passed over in silence
        b.routed.connect(lambda ev: ev.problem and self.statusBar().showMessage(
            f"{window_words(ev.problem)} Answering without it.", 15000))
        b.text.connect(lambda t: self._answer and self._answer.append_text(t))
        b.reasoning.connect(lambda t: self._answer and self._answer.append_reasoning(t))
        b.retracted.connect(lambda t, channel: self._answer and self._answer.retract(t, channel))
        b.roundStarted.connect(lambda n: self._answer and self._answer.set_round(n))
        b.modelNamed.connect(lambda name: self._answer and self._answer.set_model(name))
        b.toolWriting.connect(lambda ev: self._answer and self._answer.tool_writing(ev))  # its card, being written
        b.toolStarted.connect(self._on_tool_started)
        b.toolOutput.connect(lambda ev: self._answer and self._answer.tool_output(ev))  # kept if it is stopped
        b.toolFinished.connect(self._on_tool_finished)
        b.done.connect(self._on_done)
        b.failed.connect(self._on_failed)
        b.finished.connect(self._on_finished)

    def edit_last_question(self) -> bool:
        """Put the chat's last question in the message box; sending it replaces that question and its answer
        (while another chat's answer is written, once that one ends: see waiting.py)."""
        if self.chat_id is None or self.waiting.refused():
            return False
        self.finish_loading()
        questions = self.view.questions()
        if not questions:
            return False
        self._editing = True
        self.composer.edit(self.chat_id, self._last_question_id(self.chat_id))  # kept with the draft
        self.composer.setPlainText(questions[-1].text())
        self.composer.moveCursor(QTextCursor.MoveOperation.End)
        self.composer.setFocus()
        self.show_edit_hint(True)
        return True

    def show_edit_hint(self, on: bool) -> None:
        """Show (or hide) the hint over the message box that the last question is being edited, and tell a
        screen reader as the hint comes, what Enter and Esc do now (see Composer.set_editing)."""
        self.edit_hint.setVisible(on)
        self.composer.set_editing(self.edit_hint.text().replace(" · ", ". ") if on else "")

    def cancel_edit(self) -> bool:
        """Leave editing the last question: the box is emptied, the question and its answer stay."""
        if not self._editing:
            return False
        self._end_edit()
        self.composer.clear()
        return True

    def _end_edit(self) -> None:
        """The last question is no longer being edited: sent in its place, or the edit left with Esc."""
        self._editing = False
        self.show_edit_hint(False)
        if self.chat_id is not None:
            self.composer.edit(self.chat_id, None)

    def _drop_last_exchange(self) -> bool:
        """Remove the last question and what came after it, from the chat and the conversation."""
        self._end_edit()
        questions = self.view.questions()
        last = next((m for m in reversed(self.store.messages(self.chat_id)) if m.role == "user"), None)
        if not questions:
            return False
        try:
            if last is not None:  # (none: the chat was purged elsewhere, and is saved anew as it is sent)
                self.store.delete_from(self.chat_id, last.id)
        except ChatStoreError as exc:
            self.problem("Chat history", str(exc))
            return False
        for widget in self.view.remove_from(questions[-1]):
            self.message_ids.pop(id(widget), None)
        return True

    def send(self, text: str | None = None) -> bool:
        """Send the composer's text (or ``text``) as a new question; False if nothing was sent. While the
        last question is being edited, the text replaces it and its answer. While another chat's answer is
        written, it waits for it (see waiting.py)."""
        text = self.composer.toPlainText() if text is None else text
        if not text.strip():
            return False
        if self.bridge.is_running():
            return self.waiting.send(text)
        self.finish_loading()
        if self._editing and self.chat_id is not None and not self._drop_last_exchange():
            return False
        try:
            if self.chat_id is None:
                self.chat_id = self.store.new_chat(persona=self.persona.currentText()).id
            saved_anew(self, lambda: self.store.add_user_message(self.chat_id, text))  # (purged: see chat_anew)
        except ChatStoreError as exc:  # the question stays in the box, to send again
            self.problem("Chat history", f"{exc}\n\nYour question is still in the message box.")
            return False
        self.question_sent(text)  # only now that it is kept
        self._start_answer()
        return True

    def question_sent(self, text: str) -> None:
        """The open chat's question ``text``, stored: out of the box, into the conversation and the title."""
        self.composer.clear()
        self.composer.sent(self.chat_id)
        self.welcome.hide()
        chat = self.store.get_chat(self.chat_id)
        self.title_label.setText(chat.title if chat else "")
        self.view.add_question(text)
        self._chat_used(chat)

    def ask(self, question: str) -> bool:
        self.composer.setPlainText(question)
        return self.send()

    def _start_answer(self, replacing: int | None = None, chat_id: str | None = None) -> None:
        """Answer ``chat_id``'s last question (the open chat's, or out of sight, as one left while it streams)."""
        chat_id = chat_id or self.chat_id
        assert chat_id is not None
        unsaved, messages = None, []
        try:  # a chat purged while open is stored again first (Regenerate, Retry): else no conversation was sent
            if not kept_or_saved_anew(self, chat_id):
                replacing = None  # that row went with the chat (its id may now be one of the rows saved anew)
            messages = self.store.history(chat_id, leave_out=replacing)
        except ChatStoreError as exc:  # it could not be (a full disk): said on the answer, which has Retry
            unsaved = str(exc)
        except sqlite3.Error as exc:  # the history could not be read (a disk error, another program's lock)
            unsaved = f"Could not read this chat from the chat history ({exc}). Try again in a moment."
        answer = self.view.add_answer(shown=chat_id == self.chat_id)
        self.wire_answer(answer)
        answer.begin()
        self._answer, self._stream_chat, self._done = answer, chat_id, None
        self._raw = {}
        self._saver.begin(answer, chat_id, self._raw, replacing)
        self._stream_started = time.monotonic()
        self._set_streaming(True)
        self.sidebar.set_answering(chat_id)
        self._update_last_answer()
        if unsaved is not None:
            log.warning("the answer could not start: %s", unsaved)
            self._cannot_start(unsaved)
            return
        try:
            # An --ask run asks no one (a question would wait for good): as `ask`, commands run only with
            # --allow-shell-exec, unasked (app.py holds the saved setting back without it).
            confirm = None if self.scripted else self._said_while_asking(self.confirmer.for_chat(chat_id))
            engine = self._engine_factory(self.settings, confirm)
            events = engine.run(messages, system=self.system_prompt(chat_id), chat_id=chat_id)
        except Exception as exc:  # e.g. the engine could not be built from these settings
            log.exception("could not start the engine")
            self._cannot_start(f"Could not start answering: {exc}")
            return
        self.bridge.start(events)

    def _cannot_start(self, why: str) -> None:
        """The answer just begun fails at once, saying ``why``, and ends as an error (with Retry)."""
        self._on_failed(EngineError(why, kind="internal"))
        self._on_finished("error")

    def _said_while_asking(self, confirm: Confirm) -> Confirm:
        """``confirm``, with the status bar saying the answer waits for the user while it asks (it said
        "Running a shell command…" beside the card's "waiting for you")."""

        async def asking(tool: str, text: str) -> bool:
            self.status.asking(True)
            try:
                return await confirm(tool, text)
            finally:
                self.status.asking(False)

        return asking

    def _open_settings_at(self, tab: str, field: str | None) -> None:
        """An error's Open Settings: its tab, with the keyboard in the field to fix (the API key for a refused
        one), not in the Server URL whatever the error was."""
        dialog = self.open_settings()
        dialog.show_tab(tab)
        dialog.show_field(field)

    def wire_answer(self, answer: AnswerWidget) -> None:
        """Connect an answer shown in the chat view to the window (Retry, Regenerate, Copy, links)."""
        answer.retryRequested.connect(lambda a=answer: self.regenerate(a))
        answer.settingsRequested.connect(lambda tab, a=answer: self._open_settings_at(tab, a.settings_field))
        answer.modelMenuRequested.connect(lambda button: self.status.show_model_menu(button))
        answer.serverHelpRequested.connect(lambda: self.welcome.show_help())
        answer.regenerateRequested.connect(lambda a=answer: self.regenerate(a))
        answer.copied.connect(lambda _t: self.statusBar().showMessage("Copied to the clipboard", 3000))
        answer.notice.connect(lambda text: self.say_about_chat(text, 8000))
        # a lambda: a plain object's method connected leaves PySide a weak reference per answer, for good
        answer.linkHovered.connect(lambda url: self.status.show_link(url))

    def _on_tool_started(self, ev: ToolStarted) -> None:
        self._raw[ev.id] = ev.raw
        self._answer and self._answer.tool_started(ev)

    def _on_tool_finished(self, ev: ToolFinished) -> None:
        self._raw.setdefault(ev.id, ev.raw)
        if self._answer:
            self._answer.tool_finished(ev)

    def _on_done(self, ev: Done) -> None:
        self._done = ev
        if self._answer:
            self._answer.finish(ev)

    def _on_failed(self, ev: EngineError) -> None:
        if self._answer:
            self._answer.fail(ev.message)

    def _on_finished(self, outcome: str) -> None:
        answer, chat_id = self._answer, self._stream_chat
        self._answer = self._stream_chat = None
        self._set_streaming(False)
        self.sidebar.set_answering(None)
        self.last_outcome = outcome
        ended = answer is not None and chat_id is not None
        failed = [self._end_step(self._end_answer, answer, chat_id, outcome)] if ended else []
        failed += [self._end_step(self._update_last_answer), self._end_step(trim_live_chat, self),
                   self._end_step(self._recheck_server, outcome)]
        pending, self._after_stream = self._after_stream, []
        failed += [self._end_step(action) for action in pending]  # each on its own too
        self._say_end_failed([why for why in failed if why is not None])
        if not self.isActiveWindow():  # the taskbar entry asks for attention: the answer is ready
            QApplication.alert(self)
        self.answerFinished.emit(outcome)

    def _end_step(self, step: Callable[..., object], *args: object) -> str | None:
        """Run one step of an answer's end on its own; None, or when it failed (the chat history unreadable,
        a bug) why, in words for the notice ("" for a bug), its traceback in the log. The others still run:
        an exception here went to the console only (Qt prints a slot's and goes on), and the rest of the end
        was skipped: no answerFinished, so a question waiting in another chat waited for good and an --ask
        run never ended."""
        try:
            step(*args)
        except Exception as exc:
            log.exception("a step of the answer's end failed: %s", getattr(step, "__name__", step))
            return (f"{exc} " if isinstance(exc, ChatStoreError) else  # in words already
                    f"The chat history could not be read ({exc}). " if isinstance(exc, sqlite3.Error) else "")
        return None

    def _say_end_failed(self, whys: list[str]) -> None:
        """Say that steps of the answer's end failed (``whys``: what _end_step gave for each), in one line
        with each reason once, in place of an earlier end's (two such lines read as one failure said twice)."""
        if whys:
            self.notice_bar.withdraw(END_FAILED[:END_FAILED.index(";")], starting=True)
            self.notice_bar.add(END_FAILED.format(why="".join(dict.fromkeys(whys))))

    def _end_answer(self, answer: AnswerWidget, chat_id: str, outcome: str) -> None:
        """The answer of ``chat_id`` has ended as ``outcome``: settled, stored (or said not to be), and shown
        where it belongs."""
        if outcome == "stopped":
            answer.stop(int((time.monotonic() - self._stream_started) * 1000))
        elif answer.streaming:  # the stream ended without done or error
            answer.flush()
            answer.streaming = False
            answer.show_route_sources()
        stored = self._store_answer(answer, chat_id, outcome)
        if chat_id != self.chat_id:  # it ended out of sight, its chat left for another
            self._answered_elsewhere(answer, chat_id, outcome)
        elif answer not in self.view.answers() and not answer.property("replaced"):
            # as its chat was being opened again: shown after it (not one the earlier answer replaced)
            self.finish_loading()
            self.view.attach(answer)
        if stored and not self._saver.kept_earlier:  # else the chat, and so its row, is unchanged
            self._chat_used(self.store.get_chat(chat_id))

    def _answered_elsewhere(self, answer: AnswerWidget, chat_id: str, outcome: str) -> None:
        """The answer of a chat left while it streamed has ended: stored (or not) already, it is deleted, and
        the status bar says so; its chat shows it from the history when opened again."""
        self.message_ids.pop(id(answer), None)
        answer.deleteLater()
        chat = self.store.get_chat(chat_id)
        title = f"“{chat.title}”" if chat and chat.title else "the other chat"
        done = {"done": "is ready", "stopped": "was stopped"}.get(outcome, "could not be finished")
        kept = " The earlier answer is kept." if self._saver.kept_earlier else ""
        self.statusBar().showMessage(f"The answer in {title} {done}.{kept}", 8000)

    def _recheck_server(self, outcome: str) -> None:
        """Check the server again when the answer contradicts the status bar ("unreachable" beside a good
        answer, "reachable" beside a failed one): it was only checked at the start and after Settings."""
        state = self.status.state
        if (outcome == "done" and state in ("down", "warn")) or (outcome == "error" and state in ("ok", "warn")):
            self.check_server()

    def _store_answer(self, answer: AnswerWidget, chat_id: str, outcome: str) -> bool:
        """Store the answer as it ended; False (and a message says why) when it could not be. Never raises:
        the answer stays on screen whatever went wrong."""
        try:
            transcript = (self._done.transcript if self._done and self._done.transcript
                          else answer.transcript(self._raw))
            answer.keep_stored(transcript, outcome)  # its raw tool blocks: a chat saved anew keeps them
            message = saved_anew(self, lambda: self._saver.finish(answer, chat_id, outcome, transcript), answer)
        except Exception as exc:  # said until dismissed, not in a box that stops the window
            if isinstance(exc, ChatStoreError):  # a full disk, a lock, a deleted folder: said in words already
                log.warning("the answer could not be saved: %s", exc)
                why = str(exc)
            else:  # a bug, or a failure the history did not put in words: its traceback goes to the log
                log.exception("the answer could not be saved")
                why = UNEXPECTED
            self.say_unstored(why)
            self.show_notices([not_saved_words(why)])
            self.message_ids[id(answer)] = self._saver.kept_id  # what Regenerate replaces: the row kept meanwhile
            return False
        self.message_ids[id(answer)] = message.id
        if self._saver.kept_earlier:
            show_earlier_answer(self, answer, chat_id, message.id, outcome)
        self.notice_bar.withdraw(NOT_SAVED, starting=True)  # saved now: the notice no longer holds
        self.stored_again()
        return True

    def stop(self) -> bool:  # Esc, Stop or Cancel: the open chat's answer, or its waiting question
        return self.waiting.stop()

    def regenerate(self, answer: AnswerWidget | None = None) -> bool:
        """Drop the last answer and ask the same question again (Retry on an error does the same); while
        another chat's answer is written, once that one ends (see waiting.py)."""
        self.finish_loading()
        answers = self.view.answers()
        if self.chat_id is None or self.waiting.refused() or not answers:
            return False
        answer = answer or answers[-1]
        if answer is not answers[-1]:
            return False
        message_id = self.message_ids.pop(id(answer), None)  # stays stored until the new answer replaces it
        if answer.isAncestorOf(self.focusWidget()):  # Retry or Regenerate pressed by key (or Retry clicked)
            # Hidden with the answer, the focus went on to the first Tab stop after it, the first question:
            # the view jumped to the top of the chat.
            self.composer.setFocus(Qt.FocusReason.OtherFocusReason)
        self.view.remove(answer)
        if self.bridge.is_running():
            return self.waiting.again(message_id)
        self._start_answer(replacing=message_id)
        return True

    def copy_last_answer(self) -> str:
        self.finish_loading()
        answers = self.view.answers()
        return answers[-1].copy_markdown() if answers else ""

    def _update_last_answer(self) -> None:
        # only the last answer has Regenerate (set on every answer, it cost more as the chat grew)
        answers = self.view.answers()
        # offered while another chat's answer is written: it then waits its turn (see waiting.py)
        busy = (self._stream_chat is not None and self._stream_chat == self.chat_id) or self.waiting.has(self.chat_id)
        last = answers[-1] if answers and not busy else None
        for a in answers:
            if a is last or a.regenerate_offered():
                a.set_regenerate_visible(a is last)

    def _set_streaming(self, on: bool) -> None:
        self.waiting.update_buttons()  # Stop in the answering chat only
        self.status.set_busy(on)
