"""A chat opened, or a page of its earlier messages, built a slice per turn of the event loop.

A long 30,000-character answer takes ~50 ms to lay out; a chat of fifty of them would freeze the window for
seconds if built at once, so it is built in slices and the window keeps responding. The messages are placed
first, each answer with its cards and footer but not its text; then the answers' text is rendered, the lowest
answer first (the one in view: the chat opens at its end, and a page built above keeps its last answer next to
what the user reads), a few segments a slice (AnswerWidget.build_step). A stored list of 10,000 items rendered
at once froze the window for 2 to 3 s each time its chat was opened, a 1.2 MB one for 9 s.

The window's ``loading`` stays true until the last answer's text is shown, or until a question is asked
meanwhile (``finish_loading``): then the messages left are placed at once, and each answer's text goes on
rendering by itself, a slice a turn (see AnswerWidget.build_alone).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Iterator

import shiboken6
from PySide6.QtCore import QTimer

from ..chats import StoredMessage
from .answer import AnswerWidget

if TYPE_CHECKING:
    from .main_window import MainWindow


def load_slice(win: "MainWindow", batch: Iterator[StoredMessage], budget: float) -> None:
    """Place ``batch``'s messages, then render their answers' text, for up to ``budget`` seconds; the rest on
    the next loop turn. Stops when another chat (or page) is being loaded instead."""
    if batch is not win._loading:
        return  # another chat was opened meanwhile
    deadline = time.perf_counter() + budget
    placing = False  # (each slice places a message or renders a segment at least, however short its budget)
    for message in batch:
        placing = True
        if message.id in win._live_rows:
            continue  # the answer streaming (attached below), or the one it replaces
        widget = win.view.add_stored(message, win._insert_at, later=True)
        if win._insert_at is not None:
            win._insert_at += 1
        if isinstance(widget, AnswerWidget):
            win.wire_answer(widget)
            win.message_ids[id(widget)] = message.id
            if widget.building:
                win._unbuilt.append(widget)
        if time.perf_counter() > deadline:
            _next_slice(win, batch, budget)
            return
    if win._placed is None:
        win._placed = _all_placed(win)
    if budget == float("inf"):  # finish_loading: a question goes below; the answers render on by themselves
        for answer in reversed(win._unbuilt):
            if shiboken6.isValid(answer):
                answer.build_alone()
        win._unbuilt = []
    if placing and win._unbuilt and time.perf_counter() > deadline:
        _next_slice(win, batch, budget)  # their text from the next turn on
        return
    while win._unbuilt:
        answer = win._unbuilt[-1]
        if not shiboken6.isValid(answer) or answer.build_step(deadline - time.perf_counter()):
            win._unbuilt.pop()  # (an answer deleted meanwhile is not built)
        if win._unbuilt and time.perf_counter() > deadline:
            _next_slice(win, batch, budget)
            return
    placed, win._loading, win._placed = win._placed, None, None
    if placed == "chat":
        win.chatOpened.emit(win.chat_id)


def _next_slice(win: "MainWindow", batch: Iterator[StoredMessage], budget: float) -> None:
    # a timer, not singleShot(0)'s queued call, which Qt would run before the timers and input waiting: the
    # next slice waits its turn behind them
    QTimer.singleShot(1, win, lambda: win._load_step(batch, budget))


def _all_placed(win: "MainWindow") -> str:
    """Every message being loaded is in the conversation (answers' text maybe still to render): "page" for
    an earlier page, above what the user is reading, "chat" for a chat opened."""
    if win._insert_at is not None:  # an earlier page, above what the user is reading
        win._insert_at = None
        win.view.set_has_earlier(win._earlier is not None)
        win._update_last_answer()  # its answers offer no Regenerate: only the last one can be asked again
        return "page"
    if win._answer is not None and win._stream_chat == win.chat_id:
        win.view.attach(win._answer)  # the answer went on streaming while another chat was open
    win._update_last_answer()
    win.places.arrive()  # at its end, or where it was being read
    return "chat"
