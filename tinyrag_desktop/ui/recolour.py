"""The open chat built again in the theme's colours (Settings → Theme, or the system's dark mode with the
theme "system"): its answers' code boxes and tables take their colours as they are built.

The theme can change by itself (the system's dark mode at dusk), so the user keeps their place: the same
messages built, the message at the top of the view where it was, the message box as it was (a question being
edited, a draft), the find bar open with its words, and the focus. Built again as a chat opened afresh, the
view went to the end, the edit was cancelled and its words lost, the find bar closed, the focus went to the
status bar."""

from __future__ import annotations

from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtWidgets import QApplication, QWidget

if TYPE_CHECKING:
    from .main_window import MainWindow


def recolour_chat(win: "MainWindow") -> None:
    """Build the open chat again in the new colours, now, even while an answer streams in it.

    The answer streaming is not built again (from the history it would start over): the view keeps it as it
    keeps it for a chat left and opened again (ChatView.clear, then attach), so its text, cards, Stop and
    place go on. Its text takes the new colours at once (AnswerWidget.take_colours); the rest of it (cards'
    details, reasoning) once it ends, when its chat is built again. Until then the whole chat waited for
    that end, and the finished answers' code boxes and tables stayed light under light text."""
    streaming = win._stream_chat
    if win._answer is not None:
        win._answer.take_colours(win.view.palette_colours)
    if streaming is not None and not win._recolour_due:
        win._recolour_due = True
        win._after_stream.append(lambda: _after_answer(win, streaming))
    if win.chat_id:
        rebuild_in_place(win)


def _after_answer(win: "MainWindow", streamed: str) -> None:
    win._recolour_due = False
    if win.chat_id == streamed:
        rebuild_in_place(win)


def rebuild_in_place(win: "MainWindow") -> None:
    """Build the open chat again where the user is in it (see the module's docstring)."""
    chat, place = win.chat_id, win.view.place()
    bar = win.find_bar
    finding, current = bar.isVisible(), bar.current
    focus = QApplication.focusWidget()

    def opened(chat_id: str) -> None:
        win.chatOpened.disconnect(opened)
        if chat_id != chat:
            return  # another chat opened meanwhile
        win.view.go_to_place(place)
        bar.search_again(current)
        if QApplication.focusWidget() is win.view:  # in the answer streaming, shown again only now
            _focus_back(focus)

    win.chatOpened.connect(opened)
    win.open_chat(chat, rebuild=True, in_place=True)
    if finding:
        bar.shown_again()
    if not _focus_back(focus) and focus is not None and win.isActiveWindow():
        win.view.setFocus()  # in a message built again: the conversation has it


def _focus_back(focus: QWidget | None) -> bool:
    """Give the focus back to ``focus``, if it is still there and shown."""
    if focus is not None and shiboken6.isValid(focus) and focus.isVisible():
        focus.setFocus()
        return True
    return False
