"""Unsent text that could not be saved is not lost without a word when the window closes.

Drafts are written a second after typing stops, and once more as the window closes (composer.save_drafts).
On a full disk both writes failed, the log alone said so, and the window closed: a question typed meanwhile
was gone at the next start. Now the close asks first, naming the chat, with Keep the window open as the
default: the text is still in the window, to copy or to save once space is freed (the next close writes it).
Ctrl+C, SIGTERM and an --ask run close without asking: nobody is there to answer.
"""

from __future__ import annotations

import errno
import logging
from typing import TYPE_CHECKING

from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QMessageBox, QPushButton

from .confirm_dialog import open_question

if TYPE_CHECKING:
    from .main_window import MainWindow

log = logging.getLogger(__name__)


class DraftsAtClose:
    """The window's close, held by a question while unsent text could not be saved."""

    def __init__(self, win: "MainWindow") -> None:
        self._win = win
        self.box: QMessageBox | None = None  # the question, while it is open
        self.close_button: QPushButton | None = None  # its Close anyway
        self.let_go = False  # closing anyway: asked and answered, or nobody to ask

    def holds(self, event: QCloseEvent) -> bool:
        """Whether the window stays open (``event`` ignored): its drafts could not be saved, and the user is
        asked whether to close anyway. Whatever goes wrong in finding that out lets the window close: a
        window that cannot be closed is worse than a draft lost."""
        try:
            unsaved = [] if self.let_go else self._unsaved()
        except Exception:  # noqa: BLE001 (e.g. the chat history unreadable as the drafts' disk went away)
            log.exception("could not tell whether unsent text was saved; closing")
            unsaved = []
        if not unsaved:
            self._withdraw()
            return False
        event.ignore()
        win = self._win
        if win.isMinimized():  # a question on a minimized window is out of sight (a sheet on macOS)
            win.showNormal()
        win.raise_()
        win.activateWindow()
        if self.box is None:
            self._ask(*unsaved)
        self.box.raise_()
        return True

    def let_close(self) -> None:
        """Close from now on without asking (the system ends the app: nobody is there to answer)."""
        self.let_go = True

    def _unsaved(self) -> list:
        """[] when the window may close as it is, else [the chats whose unsent text could not be saved (None:
        a new chat), the error]. A deleted chat's draft goes with it: not asked about."""
        win = self._win
        if win.scripted or win.waiting.closing:  # (closing: aclose has run already)
            return []
        error = win.composer.save_drafts()
        if error is None:
            return []
        chats = [chat for chat in win.composer.unsaved() if chat is None or self._kept(chat)]
        return [chats, error] if chats else []

    def _kept(self, chat_id: str) -> bool:
        win = self._win
        return chat_id not in win._deleted and not win.store.closed and win.store.get_chat(chat_id) is not None

    def _withdraw(self) -> None:
        """The question, if open, goes with the window (closed anyway: space freed, Ctrl+C, SIGTERM)."""
        if self.box is not None:
            box, self.box = self.box, None
            box.done(0)

    def _ask(self, unsaved: list[str | None], error: OSError) -> None:
        win = self._win
        box = QMessageBox(QMessageBox.Icon.Warning, "Unsent text not saved",
                          f"Your unsent text in {self._where(unsaved)} could not be saved: {_why(error)}. "
                          "Close anyway?", QMessageBox.StandardButton.NoButton, win)
        box.setObjectName("unsavedDrafts")
        box.setInformativeText("Closed now, the text is lost. Keep the window open to copy it elsewhere, or "
                               "free some space and close again: it is saved then.")
        self.close_button = box.addButton("&Close anyway", QMessageBox.ButtonRole.DestructiveRole)
        keep = box.addButton("&Keep the window open", QMessageBox.ButtonRole.RejectRole)
        self.box = box
        open_question(box, keep, keep, self._answered)

    def _answered(self, box: QMessageBox) -> None:
        if self.box is not box:  # withdrawn: the window closed without it
            box.deleteLater()
            return
        self.box = None
        box.deleteLater()
        if box.clickedButton() is self.close_button:
            self.let_go = True
            self._win.close()

    def _where(self, unsaved: list[str | None]) -> str:
        """“Plans”, a new chat, or “Plans” and 2 other chats."""
        chat = self._win.store.get_chat(unsaved[0]) if unsaved[0] else None  # (kept: _unsaved asked)
        first = f"“{chat.title}”" if chat else "a new chat"
        others = len(unsaved) - 1
        return first + (f" and {others} other chat{'s' if others > 1 else ''}" if others else "")


def _why(error: OSError) -> str:
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return "the disk is full"
    return (error.strerror or str(error)).rstrip(".")
