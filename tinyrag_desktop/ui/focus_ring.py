"""FocusRing: an accent-coloured frame drawn over a widget while it (or the widget it watches) has the focus.

For widgets whose own look cannot show the focus: the conversation (a scroll area with no frame) and the
message box (its rounded box is the chrome's style sheet, which has no "focus within" rule).
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent, QObject, QRect, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QWidget

from .theme import draw_ring


class FocusRing(QWidget):
    """A child of ``host`` covering ``area()``, shown while ``watched`` has the focus; lets the mouse through.

    It follows focus and size through an event filter, so the widgets it rings need no overrides.
    """

    def __init__(self, host: QWidget, watched: QWidget, area: Callable[[], QRect] | None = None,
                 radius: float = 6.0) -> None:
        super().__init__(host)
        self._host = host
        self._watched = watched
        self._area = area or host.rect
        self._radius = radius
        self.setObjectName("focusRing")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.hide()
        watched.installEventFilter(self)
        if host is not watched:
            host.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        kind = event.type()
        if watched is self._watched and kind == QEvent.Type.FocusIn:
            self.setGeometry(self._area())
            self.raise_()
            self.show()
        elif watched is self._watched and kind == QEvent.Type.FocusOut:
            self.hide()
        elif kind == QEvent.Type.Resize and self.isVisible():
            self.setGeometry(self._area())
        return False

    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QPainter(self)
        draw_ring(painter, self.rect(), self._radius)
        painter.end()
