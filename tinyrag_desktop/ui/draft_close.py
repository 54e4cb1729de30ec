"""Unsent text that could not be saved is not lost without a word when the window closes.

Drafts are written a second after typing stops, and once more as the window closes (composer.save_drafts).
On a full disk both writes failed, the log alone said so, and the window closed: a question typed meanwhile
was gone at the next start. Now the close asks first, naming the chat, with Keep the window open as the
default: the text is still in the window, to copy or to save once space is freed (the next close writes it).
Ctrl+C, SIGTERM and an --ask run close without asking: nobody is there to answer.
"""

from __future__ import annotations

import errno
from typing import TYPE_CHECKING

from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QMessageBox

from .confirm_dialog import open_question

if TYPE_CHECKING:
    from .main_window import MainWindow


class DraftsAtClose:
    """The window's close, held by a question while unsent text could not be saved."""

    def __init__(self, win: "MainWindow") -> None:
        self._win = win
        self.box: QMessageBox | None = None  # the question, while it is open
        self.let_go = False  # closing anyway: asked and answered, or nobody to ask

    def holds(self, event: QCloseEvent) -> bool:
        """Whether the window stays open (``event`` ignored): its drafts could not be saved, and the user is
        asked whether to close anyway."""
        win = self._win
        if self.let_go or win.scripted or win.waiting.closing:  # (closing: aclose has run already)
            return False
        error = win.composer.save_drafts()
        unsaved = win.composer.unsaved() if error is not None else []
        if not unsaved:
            return False
        event.ignore()
        if self.box is None:
            self._ask(unsaved, error)
        self.box.raise_()
        return True

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
        self.box = None
        box.deleteLater()
        if box.clickedButton() is self.close_button:
            self.let_go = True
            self._win.close()

    def _where(self, unsaved: list[str | None]) -> str:
        """“Plans”, a new chat, or “Plans” and 2 other chats."""
        chat = self._win.store.get_chat(unsaved[0]) if unsaved[0] and not self._win.store.closed else None
        first = f"“{chat.title}”" if chat else "a new chat"
        others = len(unsaved) - 1
        return first + (f" and {others} other chat{'s' if others > 1 else ''}" if others else "")


def _why(error: OSError) -> str:
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return "the disk is full"
    return (error.strerror or str(error)).rstrip(".")
