"""FocusRing: an accent-coloured frame drawn over a widget while it (or the widget it watches) has the focus.

For widgets whose own look cannot show the focus: the conversation (a scroll area with no frame) and the
message box (its rounded box is the chrome's style sheet, which has no "focus within" rule). RingAround: the
same ring just outside a widget whose text runs to its edges (an answer's text), shown when its owner says.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QAbstractScrollArea, QToolButton, QWidget

from .theme import draw_ring, paint_focus_ring


class ActionButton(QToolButton):
    """A flat action under a message (Copy, Regenerate, Show all) whose keyboard focus is plain to see."""

    def paintEvent(self, event) -> None:  # noqa: N802
        super().paintEvent(event)
        paint_focus_ring(self)


class FocusRing(QWidget):
    """A child of ``host`` covering ``area()``, shown while ``watched`` has the focus; lets the mouse through.

    It follows focus and size through an event filter, so the widgets it rings need no overrides.
    """

    # None once the ring's attributes are cleared: a window collected as a reference cycle (the interpreter's
    # teardown collects the last ones) loses them before its widgets' destruction sends their Hide and FocusOut.
    _watched: QWidget | None = None

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
        if self._watched is None:  # being destroyed, attributes gone (see _watched)
            return False
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


class RingAround(QWidget):
    """The focus ring ``room`` px outside ``widget``, drawn over the page it scrolls in (the conversation), so it
    crosses none of its letters; lets the mouse through. Shown and hidden by :meth:`set_shown`."""

    _widget: QWidget | None = None  # None once the ring's attributes are cleared (see FocusRing._watched)

    def __init__(self, widget: QWidget, room: int = 4, radius: float = 6.0) -> None:
        super().__init__(_page_of(widget))
        self._widget, self._room, self._radius = widget, room, radius
        self.setObjectName("focusRing")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.hide()
        widget.installEventFilter(self)
        if widget.parentWidget() is not None:
            widget.parentWidget().installEventFilter(self)  # the answer moves in the conversation
        widget.destroyed.connect(self.deleteLater)

    def set_shown(self, on: bool) -> None:
        if on:
            self._place()
            self.raise_()
        self.setVisible(on)

    def _place(self) -> None:
        w = self._widget
        if self.parentWidget() is not _page_of(w):  # the widget went to another page
            self.setParent(_page_of(w))
        r = self._room
        self.setGeometry(QRect(w.mapTo(self.parentWidget(), QPoint(0, 0)), w.size()).adjusted(-r, -r, r, r))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if self._widget is None:  # being destroyed, attributes gone (see FocusRing._watched)
            return False
        kind = event.type()
        if kind == QEvent.Type.Hide and watched is self._widget:
            self.hide()
        elif kind in (QEvent.Type.Move, QEvent.Type.Resize) and self.isVisible():
            self._place()
        return False

    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QPainter(self)
        draw_ring(painter, self.rect(), self._radius)
        painter.end()


def _page_of(widget: QWidget) -> QWidget:
    """The widget a scroll area scrolls that holds ``widget`` (else its window): room round it to draw in."""
    page = widget.parentWidget() or widget
    while page.parentWidget() is not None:
        view = page.parentWidget().parentWidget()
        if isinstance(view, QAbstractScrollArea) and view.viewport() is page.parentWidget():
            return page
        page = page.parentWidget()
    return page
