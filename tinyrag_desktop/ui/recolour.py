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
from PySide6.QtWidgets import QApplication

if TYPE_CHECKING:
    from .main_window import MainWindow


def recolour_chat(win: "MainWindow") -> None:
    """Build the open chat again in the new colours. An answer streaming keeps its colours while it is written
    (built again it would start over): its chat is built again once it ends, if it is the one open then.
    Before, it never was, and its code boxes stayed light under light text."""
    streaming = win._stream_chat
    if streaming is not None and not win._recolour_due:
        win._recolour_due = True
        win._after_stream.append(lambda: _after_answer(win, streaming))
    if win.chat_id and win.chat_id != streaming:
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

    win.chatOpened.connect(opened)
    win.open_chat(chat, rebuild=True, in_place=True)
    if finding:
        bar.shown_again()
    if focus is not None and shiboken6.isValid(focus) and focus.isVisible():
        focus.setFocus()
    elif focus is not None and win.isActiveWindow():  # in a message built again: the conversation has it
        win.view.setFocus()
