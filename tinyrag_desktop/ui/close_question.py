"""A question that holds the window's close until it is answered (see busy_close.py and draft_close.py).

Quit (Ctrl+Q), the window's close button and the system's Quit all come to the window's closeEvent: each
question is asked there, so all three ask alike. A close asked for again while the question is open brings
that question to the front; it never opens a second one. So does the system's Quit while a question is open
(_SystemQuitHeld). Ctrl+C, SIGTERM, an --ask run and the system ending the app close without asking: nobody is
there to answer.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QMessageBox, QPushButton

from .confirm_dialog import open_question

if TYPE_CHECKING:
    from .main_window import MainWindow

log = logging.getLogger(__name__)


class QuestionAtClose:
    """The window's close, held by one question while :meth:`_reason` finds something to ask about."""

    def __init__(self, win: "MainWindow") -> None:
        self._win = win
        self.box: QMessageBox | None = None  # the question, while it is open
        self.close_button: QPushButton | None = None  # its button that closes all the same
        self.let_go = False  # closing from now on without asking: nobody is there to answer
        # The user chose to close: not asked again as the close goes on to the window's next question, until
        # one is answered by keeping the window open (then each asks again at the next close)
        self.answered = False

    def holds(self, event: QCloseEvent) -> bool:
        """Whether the window stays open (``event`` ignored) while the user is asked. Whatever goes wrong in
        finding out whether to ask lets the window close: a window that cannot be closed is worse."""
        try:
            reason = None if self.let_go or self.answered or self._win.scripted else self._reason()
        except Exception:  # noqa: BLE001 (e.g. the chat history unreadable as its disk went away)
            log.exception("could not tell whether to ask before closing; closing")
            reason = None
        if not reason:
            self._withdraw()
            return False
        event.ignore()
        self._to_front()  # the window first: a question opened on a minimized window is out of sight
        if self.box is None:
            box, self.close_button, keep = self._question(reason)
            self.box = box
            self.close_button.setObjectName("questionRisky")
            _SystemQuitHeld(box, self._to_front)
            open_question(box, keep, keep, self._on_answer)
            self._to_front()
        return True

    def _to_front(self) -> None:
        """The window, and its question if open, in front and active."""
        win = self._win
        if win.isMinimized():  # a question on a minimized window is out of sight (a sheet on macOS)
            win.showNormal()
        win.raise_()  # the question is activated, not the window: Esc and Enter are the question's
        if self.box is not None:
            self.box.raise_()
            self.box.activateWindow()

    def let_close(self) -> None:
        """Close from now on without asking (the system ends the app: nobody is there to answer)."""
        self.let_go = True

    def _reason(self) -> Any:
        """What to ask about (anything true), or nothing when the window may close as it is."""
        raise NotImplementedError

    def _question(self, reason: Any) -> tuple[QMessageBox, QPushButton, QPushButton]:
        """The question about ``reason``, its button that closes, and the one that keeps the window (the
        default, and Esc's)."""
        raise NotImplementedError

    def _withdraw(self) -> None:
        """The question, if open, goes with the window (closed anyway: space freed, Ctrl+C, SIGTERM)."""
        if self.box is not None:
            box, self.box = self.box, None
            box.done(0)

    def _on_answer(self, box: QMessageBox) -> None:
        if self.box is not box:  # withdrawn: the window closed without it
            box.deleteLater()
            return
        self.box = None
        box.deleteLater()
        if box.clickedButton() is self.close_button:
            self.answered = True
            self._win.close()
        else:
            for question in self._win.close_questions:
                question.answered = False


class _SystemQuitHeld(QObject):
    """While ``box`` is open, the system's Quit (macOS: the Dock's Quit, logging out) brings it to the front and
    is refused, as a second Quit of the window's is. Qt closed the open question first, which counts as Esc
    ("Keep the window open"): the user's Quit to the question before it was forgotten, and that one asked again.
    On the application only while a question is open: it sees every event of the app then."""

    def __init__(self, box: QMessageBox, to_front: Callable[[], None]) -> None:
        super().__init__(box)  # goes with the question
        self._to_front = to_front
        self._app = QCoreApplication.instance()
        self._app.installEventFilter(self)
        box.finished.connect(self._release)

    def _release(self, _result: int = 0) -> None:
        self._app.removeEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if watched is not self._app or event.type() != QEvent.Type.Quit:
            return False
        self._to_front()
        event.ignore()  # the system is told the app does not quit (macOS cancels the logout)
        return True
