"""A one-line label that shortens its text with "…" instead of widening the window to fit it."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget

from .bidi import set_text_direction
from .plain_text import plain_tip


class ElidedLabel(QLabel):
    """``text()`` stays the whole text; only the painting is cut, and the tooltip then shows it all.

    A plain QLabel's minimum width is its text's width, so a long chat title set the window's minimum
    width: the window could not be made narrower than the first question.
    """

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # As written: the text (a chat's title, a model's or a server's name) is painted plainly, but Qt's size
        # hint read it as rich text, and <img src=…> in it was loaded as a picture (plain_text).
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(text)
        self.setMinimumWidth(40)

    def minimumSizeHint(self) -> QSize:
        return QSize(self.minimumWidth(), super().minimumSizeHint().height())

    def is_elided(self) -> bool:
        return self.fontMetrics().horizontalAdvance(self.text()) > self.contentsRect().width()

    textChanged = Signal(str)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        changed = text != self.text()
        super().setText(text)
        self._update_tooltip()
        if changed:
            self.textChanged.emit(text)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._update_tooltip()

    def _update_tooltip(self) -> None:
        self.setToolTip(plain_tip(self.text()) if self.is_elided() else "")

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        rect = self.contentsRect()
        shown = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, rect.width())
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        align = set_text_direction(painter, shown, self.alignment() | Qt.AlignmentFlag.AlignVCenter,
                                   self.layoutDirection())
        painter.drawText(rect, int(align), shown)
        painter.end()
