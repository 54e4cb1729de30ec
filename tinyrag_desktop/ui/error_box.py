"""The red box an answer's inline error is shown in."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import QFrame

from .theme import colors


class ErrorBox(QFrame):
    """The inline error's red box, painted (no style sheet in the conversation, see theme.py)."""

    def paintEvent(self, event) -> None:  # noqa: N802
        c = colors()
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(c.error, 1))
        painter.setBrush(c.errorbg)
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), 8, 8)
        painter.end()
