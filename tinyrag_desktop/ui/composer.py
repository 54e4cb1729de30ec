"""The composer (`composer`): Enter sends, Shift+Enter adds a line; grows with its text up to a limit."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent, QResizeEvent, QTextCursor
from PySide6.QtWidgets import QFrame, QPlainTextEdit, QWidget

from .bidi import text_direction

_MIN_LINES, _MAX_LINES = 2, 10
# The hint in the empty box, and what it shrinks to where the whole of it would not fit in its lines.
PLACEHOLDER = "Ask anything…  (Enter sends, Shift+Enter for a new line)"
SHORT_PLACEHOLDER = "Ask anything…"


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
        self.setPlaceholderText(PLACEHOLDER)
        self.setTabChangesFocus(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.document().documentLayout().documentSizeChanged.connect(lambda _s: self._fit())
        self._fit()
        self.textChanged.connect(self._align)
        self._drafts: dict[str | None, str] = {}  # by chat (None: a new chat), the words typed, not sent

    def switch_draft(self, leaving: str | None, opening: str | None) -> None:
        """Keep what was typed and not sent in the chat being left, and bring back the one opened's: a draft
        went along to whichever chat was opened next, and was sent there."""
        text = self.toPlainText()
        if text.strip():
            self._drafts[leaving] = text
        else:
            self._drafts.pop(leaving, None)
        self.setPlainText(self._drafts.pop(opening, ""))
        self.moveCursor(QTextCursor.MoveOperation.End)

    def _align(self) -> None:
        """Align the text by its direction, as a line edit (the find box) does: Arabic or Hebrew typed here ran
        right to left but sat at the left edge (a plain text box aligns every paragraph left)."""
        option = self.document().defaultTextOption()
        side = Qt.AlignmentFlag.AlignRight if text_direction(self.toPlainText()) == Qt.LayoutDirection.RightToLeft \
            else Qt.AlignmentFlag.AlignLeft
        if option.alignment() != side | Qt.AlignmentFlag.AlignAbsolute:
            option.setAlignment(side | Qt.AlignmentFlag.AlignAbsolute)
            self.document().setDefaultTextOption(option)

    def _fit(self) -> None:
        line = self.fontMetrics().lineSpacing()
        lines = max(_MIN_LINES, min(_MAX_LINES, int(self.document().size().height())))
        margins = self.contentsMargins()
        doc_margin = 2 * self.document().documentMargin()
        self.setFixedHeight(int(lines * line + doc_margin + margins.top() + margins.bottom() + 4))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        # Wrapped, the long hint needs a little more than its width per line (words do not break); in a
        # narrow window its last words were cut off at the bottom of the box.
        room = (self.viewport().width() - 2 * self.document().documentMargin()) * _MIN_LINES * 0.8
        fits = self.fontMetrics().horizontalAdvance(PLACEHOLDER) <= room
        self.setPlaceholderText(PLACEHOLDER if fits else SHORT_PLACEHOLDER)

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
