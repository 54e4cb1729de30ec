"""Unsent text that could not be saved is not lost without a word when the window closes.

Drafts are written a second after typing stops, and once more as the window closes (composer.save_drafts).
On a full disk both writes failed, the log alone said so, and the window closed: a question typed meanwhile
was gone at the next start. Now the close asks first, naming the chat, with Keep the window open as the
default: the text is still in the window, to copy or to save once space is freed (the next close writes it).
Ctrl+C, SIGTERM and an --ask run close without asking: nobody is there to answer.
"""

from __future__ import annotations

import errno

from PySide6.QtWidgets import QMessageBox, QPushButton

from .close_question import QuestionAtClose


class DraftsAtClose(QuestionAtClose):
    """The window's close, held by a question while unsent text could not be saved."""

    def _reason(self) -> list:
        """[] when the window may close as it is, else [the chats whose unsent text could not be saved (None:
        a new chat), the error]. A deleted chat's draft goes with it: not asked about."""
        win = self._win
        if win.waiting.closing:  # aclose has run already
            return []
        error = win.composer.save_drafts()
        if error is None:
            return []
        chats = [chat for chat in win.composer.unsaved() if chat is None or self._kept(chat)]
        return [chats, error] if chats else []

    def _kept(self, chat_id: str) -> bool:
        win = self._win
        return chat_id not in win._deleted and not win.store.closed and win.store.get_chat(chat_id) is not None

    def _question(self, reason: list) -> tuple[QMessageBox, QPushButton, QPushButton]:
        unsaved, error = reason
        box = QMessageBox(QMessageBox.Icon.Warning, "Unsent text not saved",
                          f"Your unsent text in {self._where(unsaved)} could not be saved: {_why(error)}. "
                          "Close anyway?", QMessageBox.StandardButton.NoButton, self._win)
        box.setObjectName("unsavedDrafts")
        box.setInformativeText("Closed now, the text is lost. Keep the window open to copy it elsewhere, or "
                               "free some space and close again: it is saved then.")
        close = box.addButton("&Close anyway", QMessageBox.ButtonRole.DestructiveRole)
        keep = box.addButton("&Keep the window open", QMessageBox.ButtonRole.RejectRole)
        return box, close, keep

    def _where(self, unsaved: list[str | None]) -> str:
        """“Plans”, a new chat, or “Plans” and 2 other chats."""
        chat = self._win.store.get_chat(unsaved[0]) if unsaved[0] else None  # (kept: _reason asked)
        first = f"“{chat.title}”" if chat else "a new chat"
        others = len(unsaved) - 1
        return first + (f" and {others} other chat{'s' if others > 1 else ''}" if others else "")


def _why(error: OSError) -> str:
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return "the disk is full"
    return (error.strerror or str(error)).rstrip(".")
