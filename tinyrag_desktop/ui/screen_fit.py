"""Sizes that fit the screen: the window's first size and a dialog's, within the screen's free area.

At 200 % on a 1080p screen (960×540 logical), on a 1024×600 netbook, or with an 18 pt font, a window of
1180×780 and the Keyboard shortcuts dialog ran off the bottom of the screen, their last rows and buttons
out of reach.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

# Room left around a window for its title bar and frame, which the window manager adds outside its size.
FRAME = QSize(16, 48)


def free_area(widget: QWidget | None = None) -> QRect:
    """The free area (without panels and docks) of the screen ``widget`` is on, else of the main screen."""
    screen = widget.screen() if widget is not None else None
    screen = screen or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1180, 780)


def fitted(want: QSize, widget: QWidget | None = None) -> QSize:
    """``want``, made no larger than the free area of ``widget``'s screen less a window frame."""
    room = free_area(widget).size() - FRAME
    return QSize(max(1, min(want.width(), room.width())), max(1, min(want.height(), room.height())))

