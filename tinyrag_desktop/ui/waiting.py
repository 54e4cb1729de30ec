"""Questions sent in one chat while another chat's answer is being written: they wait their turn.

One answer is written at a time. A question sent in a second chat meanwhile was refused: it stayed in the
box, the status bar said "Another chat is still answering: press Esc to stop it", and the idle chat showed a
red Stop button that stopped the other chat's answer. Now it waits in its own chat, shown there as the
question with a note under it ("Waits for the answer in “…”…"), and is asked by itself when that answer
ends (done, stopped or failed); several wait in the order they were sent. Esc, or the Cancel button that
takes Send's place in that chat only, takes it back into the message box; the Stop button shows only in the
chat whose answer is being written.

A waiting question is stored at once, as sent questions are, with a stand-in answer saying it was not asked
(WAITED, with Retry): if the app is closed or crashes before its turn (or the chat is deleted, then brought
back with Undo), the chat shows it so, and Retry asks it. Kept as a draft instead, it would have been lost in a crash (drafts are only written in the app's own
runs, once a second), gone from the chat it was asked in, and sent again only by hand. When its turn comes,
the stand-in is deleted and the answer is written as any other.

Retry, Regenerate and an edited question sent again (↑, then Enter) were refused the same way ("Another chat is
still answering"), and the last answer offered no Regenerate or Retry while any chat answered. They wait as a
question does, one thing per chat. An edited question is a question: the old one and its answer go at once, as
when it is sent with no other answer being written, and it waits stored with its stand-in. A Regenerate (or
Retry) takes the last answer out of sight and waits with the same note and Cancel; the answer stays stored
until the new one replaces it (see answer_saving), so closing the app before its turn leaves the chat as it
was, with Regenerate, and Cancel shows the answer again.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel

from ..chats import ChatGone, ChatStoreError
from .chat_anew import question_saved_anew, saved_anew
from .plain_text import plain_label

if TYPE_CHECKING:
    from .main_window import MainWindow

log = logging.getLogger(__name__)

WAITED = ("This question waited for the answer in another chat and was not asked (the app closed, or this "
          "chat was deleted meanwhile). Press Retry to ask it.")
PURGED = ("The chat “{title}” was deleted for good from the chat history elsewhere (by another window or "
          "program) while {what} waited in it")


@dataclass
class _Waiting:
    chat_id: str
    question_id: int | None  # the question stored to wait; None for a Regenerate (its question is there)
    stand_in_id: int | None  # the stored row in the new answer's place: a WAITED stand-in, or the old answer
    text: str  # the question, back into the message box on Cancel ("" for a Regenerate)
    again: bool = False  # a Regenerate or Retry: the old answer (stand_in_id) is replaced when the new one comes
    began: bool = False  # the question made its chat: taken back, the chat goes with it
    title: str = ""  # the chat's, and its persona: it is saved anew with them if purged meanwhile
    persona: str = ""


class WaitingQuestions(QObject):
    """The questions waiting for the answer being written, first sent first; the window's Send/Stop/Cancel."""

    def __init__(self, win: "MainWindow") -> None:
        super().__init__(win)
        self._win = win
        self._queue: list[_Waiting] = []
        self._note: QLabel | None = None  # under the open chat's waiting question
        self._refusal = ""  # what refused() said in the status bar: of the open chat only
        self.closing = False  # the window is closing: nothing more is asked
        win.view.cleared.connect(self._chat_left)
        win.chatOpened.connect(lambda _chat: self._chat_shown())
        # after the window's own handlers: the next question is asked once the last answer is stored
        win.answerFinished.connect(lambda _outcome: QTimer.singleShot(0, self, self.ask_next))

    # state ----------------------------------------------------------------------------------------
    def chats(self) -> list[str]:
        """The chats with a question waiting, in the order they will be answered."""
        return [w.chat_id for w in self._queue]

    def counts(self) -> tuple[int, int]:
        """How many questions wait (edited ones too), and how many new answers (a Regenerate or a Retry)."""
        again = sum(w.again for w in self._queue)
        return len(self._queue) - again, again

    def has(self, chat_id: str | None) -> bool:
        return chat_id is not None and any(w.chat_id == chat_id for w in self._queue)

    def stand_ins(self) -> set[int]:
        """The stored rows standing for the waiting questions' answers (not shown while they wait)."""
        return {w.stand_in_id for w in self._queue}

    def unasked(self) -> set[int]:
        """The WAITED stand-ins of the questions waiting now: no answer yet, and none failed (an export said
        "Error: … was not asked… Press Retry" of a question asked moments later)."""
        return {w.stand_in_id for w in self._queue if not w.again and w.stand_in_id is not None}

    def answering_title(self) -> str:
        chat = self._win.store.get_chat(self._win._stream_chat) if self._win._stream_chat else None
        return chat.title if chat and chat.title else "another chat"

    def _turn_words(self, chat_id: str | None) -> str:
        """After what ``chat_id``'s question is asked: "the answer in “Story”", and the questions ahead of it
        (the second of two waiting chats said it waited for the answer in “Story” alone)."""
        words = f"the answer in “{self.answering_title()}”"
        ahead = [w.chat_id for w in self._queue[:next((i for i, w in enumerate(self._queue)
                                                       if w.chat_id == chat_id), len(self._queue))]]
        if len(ahead) == 1:
            chat = self._win.store.get_chat(ahead[0])
            words += f" and the one waiting in “{chat.title if chat else 'another chat'}”"
        elif ahead:
            words += f" and {len(ahead)} waiting before it"
        return words

    def chat_deleted(self, chat_id: str) -> None:
        """A chat deleted: what the status bar said of its waiting question holds no more."""
        if self.has(chat_id):
            self._win.statusBar().showMessage("Its waiting question will not be asked (Undo before its turn, "
                                              "and it still is).", 6000)

    def _of(self, chat_id: str | None) -> _Waiting | None:
        return next((w for w in self._queue if w.chat_id == chat_id), None)

    # asking -----------------------------------------------------------------------------------------
    def refused(self) -> bool:
        """Whether the open chat can ask nothing now (its answer is being written, or something of it waits
        its turn); the status bar then says why: Enter, Ctrl+R or ↑ seemed broken when nothing was said."""
        win = self._win
        if win._stream_chat is not None and win._stream_chat == win.chat_id:
            self._refusal = "Still answering: press Esc to stop, or wait until it is done."
        elif self.has(win.chat_id):
            self._refusal = "A question of this chat is already waiting its turn: press Esc to take it back."
        else:
            return False
        win.statusBar().showMessage(self._refusal, 6000)
        return True

    def send(self, text: str) -> bool:
        """The message box's ``text`` was sent while an answer is written: refused, with the reason in the
        status bar, in the chat of that answer or one with a question waiting; else stored to wait (an edited
        last question in place of the old one and its answer)."""
        win = self._win
        if self.refused():
            return False
        win.finish_loading()
        if win._editing and win.chat_id is not None and not win._drop_last_exchange():
            return False
        began, question = win.chat_id is None, None
        try:
            if win.chat_id is None:
                win.chat_id = win.store.new_chat(persona=win.persona.currentText()).id
            question = saved_anew(win, lambda: win.store.add_user_message(win.chat_id, text))
            stand_in = win.store.add_assistant_message(win.chat_id, "", status="stopped", error=WAITED,
                                                       stats={"outcome": "stopped"})
        except ChatStoreError as exc:  # the question stays in the box, to send again
            if question is not None:  # not stored twice when it is sent again
                win._stored(win.store.delete_message, question.id)
            if began and win.chat_id is not None:  # nor an empty chat left in the list
                win._stored(self._forget, win.chat_id)
                win.chat_id = None
            win.problem("Chat history", f"{exc}\n\nYour question is still in the message box.")
            return False
        self._queue.append(_Waiting(win.chat_id, question.id, stand_in.id, text, began=began, **self._named()))
        win.question_sent(text)
        self._chat_shown()
        win._update_last_answer()  # the answer above it is no longer the last one
        win.statusBar().showMessage(f"Your question will be asked after {self._turn_words(win.chat_id)}.", 6000)
        return True

    def again(self, message_id: int | None) -> bool:
        """Regenerate or Retry of the open chat's last answer (stored as ``message_id``, taken out of sight
        by the window) while another chat's answer is written: it waits, and the answer is asked again when
        that one ends. The window has checked ``refused`` first."""
        win = self._win
        assert win.chat_id is not None
        self._queue.append(_Waiting(win.chat_id, None, message_id, "", again=True, **self._named()))
        self._chat_shown()
        win._update_last_answer()
        win.statusBar().showMessage(f"A new answer will be written after {self._turn_words(win.chat_id)}.", 6000)
        return True

    def _named(self) -> dict[str, str]:
        chat = self._win.store.get_chat(self._win.chat_id) if self._win.chat_id else None
        return {"title": chat.title, "persona": chat.persona} if chat else {}

    def ask_next(self) -> None:
        """Ask the first waiting question whose chat is still there, once no answer is being written."""
        win = self._win
        while self._queue and not (self.closing or win.store.closed or win.bridge.is_running()):
            waiting = self._queue.pop(0)
            if not self._to_ask(waiting):
                continue
            replacing = waiting.stand_in_id if waiting.again else None
            try:
                if not waiting.again and waiting.stand_in_id is not None:
                    win.store.delete_message(waiting.stand_in_id)
            except ChatStoreError as exc:  # replaced by the answer instead, as a Regenerate replaces one
                log.warning("could not remove a waiting question's stand-in: %s", exc)
                replacing = waiting.stand_in_id
            if waiting.chat_id == win.chat_id:
                win.finish_loading()
                self._drop_note()
            win._start_answer(replacing, chat_id=waiting.chat_id)
            self._chat_shown()  # the next one waits for this answer now
            return

    def _to_ask(self, waiting: _Waiting) -> bool:
        """Whether ``waiting`` is asked now. Not when its chat was deleted, here or by another window (Undo
        shows it with Retry). A chat purged elsewhere meanwhile is saved anew, as when a question is sent in
        it: as shown (by _start_answer), or out of sight with the question (before, it was skipped as deleted,
        and the question was lost without a word)."""
        win, chat_id = self._win, waiting.chat_id
        if win.store.get_chat(chat_id) is not None:
            return True
        try:
            win.store.require_chat(chat_id)
            return False  # deleted, not yet purged
        except ChatGone:
            if chat_id in win._deleted:  # deleted here, then purged: as the user chose
                return False
        if not waiting.again:
            waiting.stand_in_id = None  # it went with the chat (its id may come to a row saved anew)
        if chat_id == win.chat_id:
            return True
        said = PURGED.format(title=waiting.title or "New chat", what="a new answer" if waiting.again else
                             "your question")
        if waiting.again:  # nothing of the chat is known here to write it from
            win.notice_bar.add(f"{said}; the new answer could not be written.")
            return False
        try:
            question_saved_anew(win, chat_id, waiting.title, waiting.persona, waiting.text, not waiting.began)
        except ChatStoreError as exc:
            win.notice_bar.add(f"{said}, and it could not be saved again: {exc} Your question was: "
                               f"“{waiting.text}”")
            return False
        return True

    def cancel(self, chat_id: str) -> bool:
        """Take back ``chat_id``'s waiting question: out of the chat, and into the message box; or its
        waiting Regenerate: the answer it was to replace shown again."""
        win = self._win
        waiting = self._of(chat_id)
        if waiting is None:
            return False
        if waiting.again:
            self._queue.remove(waiting)
            if chat_id == win.chat_id:
                self._drop_note()
                self._show_again(waiting.stand_in_id)
            win.statusBar().showMessage("The answer was not written again: it stays as it was.", 6000)
            self.update_buttons()
            return True
        if waiting.question_id is None or not win._stored(win.store.delete_from, chat_id, waiting.question_id):
            return False
        self._queue.remove(waiting)
        # A chat this question began is forgotten with it, as a new chat is until its first question is sent:
        # it stayed in the list as an empty "New chat", also after a restart.
        # (An edited question emptied its chat too, of the exchange it replaced: that chat stays.)
        begun = waiting.began and win.store.is_empty(chat_id) and win._stored(self._forget, chat_id)
        if chat_id == win.chat_id:
            questions = win.view.questions()
            if questions:
                win.view.remove_from(questions[-1])
            self._drop_note()
            typed = win.composer.toPlainText()
            if begun:  # the window is at a new chat again, the question in its box
                win.composer.clear()
                win.composer.switch_draft(chat_id, None)
                win.chat_id = None
                win.sidebar.mark_current(None)
            win.composer.setPlainText(waiting.text + (f"\n{typed}" if typed.strip() else ""))
            win.composer.setFocus()
            chat = win.store.get_chat(chat_id) if not begun else None
            win.title_label.setText(chat.title if chat else "New chat")
        win._refresh_chats()
        win._update_last_answer()
        win.statusBar().showMessage("The waiting question was taken back into the message box.", 6000)
        self.update_buttons()
        return True

    def _forget(self, chat_id: str) -> None:
        self._win.store.delete(chat_id)
        self._win.store.purge_deleted(chats=[chat_id])
        self._win.forget_purged()

    def _show_again(self, message_id: int | None) -> None:
        """The open chat's last answer, out of sight while its Regenerate waited, shown again from the store."""
        win = self._win
        win.finish_loading()  # (it skips that answer: it was left out when the chat was opened)
        rows = win.store.messages(win.chat_id, first=message_id, before=message_id + 1) \
            if message_id is not None and win.chat_id is not None else []
        if rows:
            answer = win.view.add_stored(rows[0])
            win.wire_answer(answer)  # type: ignore[arg-type]
            win.message_ids[id(answer)] = rows[0].id
        win._update_last_answer()

    def stop(self) -> bool:
        """Esc, Stop or Cancel in the open chat: its waiting question is taken back, or its answer stopped.
        Another chat's answer is not stopped from here (its button showed Stop and stopped it)."""
        win = self._win
        if self.has(win.chat_id):
            return self.cancel(win.chat_id)  # type: ignore[arg-type]
        if win._stream_chat is not None and win._stream_chat == win.chat_id:
            return win.bridge.stop()
        return False

    # showing ----------------------------------------------------------------------------------------
    def _chat_left(self) -> None:
        self._note = None  # the view deletes it with the chat's other widgets
        # "Still answering: press Esc to stop" stayed its 6 s in the next chat, where Esc stopped nothing
        if self._refusal and self._win.statusBar().currentMessage() == self._refusal:
            self._win.statusBar().clearMessage()
        self._refusal = ""
        self.update_buttons()

    def _drop_note(self) -> None:
        if self._note is not None:
            self._win.view.remove(self._note)
            self._note = None

    def _chat_shown(self) -> None:
        """The open chat shown whole (or its question just sent): its waiting note, and the buttons."""
        win = self._win
        waiting = self._of(win.chat_id)
        if waiting is not None:
            text = (f"Waits for {self._turn_words(win.chat_id)}… · "
                    + ("Esc cancels" if waiting.again else "Esc takes it back"))
            if self._note is None:
                self._note = plain_label(QLabel())  # chats' titles are in it: as written (plain_text)
                self._note.setObjectName("waitingNote")
                self._note.setForegroundRole(QPalette.ColorRole.PlaceholderText)
                self._note.setAlignment(Qt.AlignmentFlag.AlignRight)
                self._note.setWordWrap(True)
                win.view.add_note(self._note)
            self._note.setText(text)
            self._note.setAccessibleName(("A new answer " if waiting.again else "Your question ")
                                         + text[0].lower() + text[1:])
        else:
            self._drop_note()
        self.update_buttons()

    def update_buttons(self) -> None:
        """Send, or in its place Stop (this chat's answer is being written) or Cancel (its question waits);
        Esc (Edit → Stop answer) acts on this chat only."""
        win = self._win
        answering = win._stream_chat is not None and win._stream_chat == win.chat_id  # set before it starts
        waiting = self.has(win.chat_id)
        button, menu = win.stop_button, win.menus.stop
        if waiting:
            again = self._of(win.chat_id).again  # type: ignore[union-attr]
            button.setText("Cancel")
            button.setAccessibleName("Cancel waiting answer" if again else "Cancel waiting question")
            button.setToolTip("Keep the answer as it is: do not write it again (Esc)" if again else
                              "Take the waiting question back into the message box (Esc)")
        else:
            button.setText("Stop")
            button.setAccessibleName("Stop answer")
            button.setToolTip("Stop the answer and running tools (Esc)")
        on = answering or waiting
        # The focus goes to the button taking the pressed one's place: hidden with the focus on it, Qt gave
        # the focus to the status bar's model button, where the next Space opened the model menu.
        gone, shown = (win.send_button, button) if on else (button, win.send_button)
        had_focus = gone.hasFocus() or win.focusWidget() is gone  # the window's focus, active or not
        shown.setVisible(True)
        if had_focus:
            shown.setFocus(Qt.FocusReason.OtherFocusReason)
        gone.setVisible(False)
        menu.setEnabled(on)
