"""The composer (`composer`): Enter sends, Shift+Enter adds a line; grows with its text up to a limit."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QFrame, QPlainTextEdit, QWidget

_MIN_LINES, _MAX_LINES = 2, 10


class Composer(QPlainTextEdit):
    """Where a question is typed. ``submitted`` carries the text; the owner decides whether to send it."""

    submitted = Signal(str)
    editLastRequested = Signal()  # Up in the empty box: put the last question back in, to edit it
    escaped = Signal()  # Esc while no answer streams (the window's Stop takes Esc while one does)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("composer")
        self.setAccessibleName("Message")
        self.setAccessibleDescription("Type a question. Enter sends, Shift+Enter starts a new line.")
        self.setPlaceholderText("Ask anything…  (Enter sends, Shift+Enter for a new line)")
        self.setTabChangesFocus(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.document().documentLayout().documentSizeChanged.connect(lambda _s: self._fit())
        self._fit()

    def _fit(self) -> None:
        line = self.fontMetrics().lineSpacing()
        lines = max(_MIN_LINES, min(_MAX_LINES, int(self.document().size().height())))
        margins = self.contentsMargins()
        doc_margin = 2 * self.document().documentMargin()
        self.setFixedHeight(int(lines * line + doc_margin + margins.top() + margins.bottom() + 4))

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Up and not event.modifiers() and not self.toPlainText():
            self.editLastRequested.emit()
            event.accept()
            return
        if event.key() == Qt.Key.Key_Escape:
            self.escaped.emit()
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            mods = event.modifiers()
            if mods & Qt.KeyboardModifier.ShiftModifier:
                self.insertPlainText("\n")
                event.accept()
                return
            if not (mods & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)):
                text = self.toPlainText()
                if text.strip():
                    self.submitted.emit(text)
                event.accept()
                return
        super().keyPressEvent(event)
