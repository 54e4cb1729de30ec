"""A chat deleted for good from the history while it is open here is saved anew from what the window shows.

Any window's or ``--ask`` run's closing purges chats deleted a day before, and another program may delete
one; a chat open here since went on being shown, and the next question or answer saved into it failed with
SQLite's own words, "FOREIGN KEY constraint failed", again at every try: the question could not be sent in
that chat at all, and the answer was lost at the next chat opened. Now the chat is stored again, under its
own id, with every question and answer it shows, the question or answer being saved goes after them, and the
notice says what happened.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, TypeVar

from PySide6.QtWidgets import QWidget

from ..chats import ChatGone, StoredMessage
from .answer import AnswerWidget
from .chat_view import UserBubble

if TYPE_CHECKING:
    from .main_window import MainWindow

T = TypeVar("T")

SAVED_ANEW = "It is saved again, as it is shown here."
EARLIER_LOST = " The earlier messages not shown could not be kept: they were deleted with it."
# a chat left while its answer was written: only that answer is in the window
AWAY = ("The chat “{title}” was deleted for good from the chat history elsewhere (by another window or program) "
        "while its answer was being written; it is saved again with that answer.")
# a chat left while its question waited for another chat's answer: only that question is known here
WAITED_AWAY = ("The chat “{title}” was deleted for good from the chat history elsewhere (by another window or "
               "program) while its question waited; it is saved again with that question, which is asked now.")


def saved_anew(win: "MainWindow", write: Callable[[], T], leave_out: QWidget | None = None) -> T:
    """``write()`` (a question or an answer, into its chat); when that chat was purged, it is stored again
    with what ``win`` shows of it (``leave_out``: the answer ``write`` stores, not stored twice) and ``write``
    runs once more. Raises ChatStoreError as ``write`` does (a full disk: said as before)."""
    try:
        return write()
    except ChatGone as gone:
        win.notice_bar.add(_save_anew(win, gone, leave_out))
    return write()


def kept_or_saved_anew(win: "MainWindow", chat_id: str) -> bool:
    """Whether ``chat_id`` is still in the history; when it was purged, it is stored again first, as
    saved_anew does, and False (an answer asked again then reads the chat from the history: read while it
    was gone, the model got no conversation at all, only the system prompt)."""
    try:
        win.store.require_chat(chat_id)
        return True
    except ChatGone as gone:
        win.notice_bar.add(_save_anew(win, gone, None))
    return False


def question_saved_anew(win: "MainWindow", chat_id: str, title: str, persona: str, question: str,
                        earlier: bool = True) -> None:
    """A question that waited, out of sight, for another chat's answer while its chat was purged: the chat is
    stored again under ``title`` with that question, all that is known of it here, and the notice says so.
    ``earlier``: it had messages before the question (lost with it). Raises ChatStoreError as saving does."""
    win.store.save_anew(chat_id, title, persona, [StoredMessage(0, "user", question)])
    win._refresh_chats()
    win.notice_bar.add(WAITED_AWAY.format(title=title or "New chat") + (EARLIER_LOST if earlier else ""))


def _save_anew(win: "MainWindow", gone: ChatGone, leave_out: QWidget | None) -> str:
    """Store the chat ``gone`` again with the questions and answers shown of it (none when another chat is
    open); what the notice says of it."""
    chat_id = gone.chat_id
    shown = chat_id == win.chat_id
    if shown:
        win.finish_loading()
        items = [w for w in win.view._widgets() if w is not leave_out]
        title, persona = win.title_label.text(), win.persona.currentText()
    else:  # an answer that ended out of sight: its row in the list still has the title
        row = win.sidebar.item_for(chat_id)
        items, title, persona = [], row.text().split("\n")[0] if row is not None else "", ""
    kept = [(w, m) for w in items if (m := _as_stored(w)) is not None]
    ids = win.store.save_anew(chat_id, title, persona, [m for _w, m in kept])
    for (widget, _message), message_id in zip(kept, ids):
        if isinstance(widget, AnswerWidget):  # what Regenerate replaces
            win.message_ids[id(widget)] = message_id
    win._refresh_chats()
    if not shown:
        return AWAY.format(title=title or "New chat")
    earlier = win.first_shown is not None
    win._earlier = None
    win.view.set_has_earlier(False)
    return f"{gone} {SAVED_ANEW}{EARLIER_LOST if earlier else ''}"


def _as_stored(item: QWidget) -> StoredMessage | None:
    """A question or an answer of the conversation as it is stored (None for anything else shown there)."""
    if isinstance(item, AnswerWidget):  # with its tool blocks as the model wrote them: given back with results
        return item.as_stored()
    bubbles = item.findChildren(UserBubble)
    return StoredMessage(0, "user", bubbles[0].text()) if bubbles else None
