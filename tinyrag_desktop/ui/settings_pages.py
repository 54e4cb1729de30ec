"""A settings tab's page in a scroll area that scrolls only on a screen too small for it.

At 18 pt on a 1,024×600 screen the dialog opened 682 px wide while its fields needed 811: a fixed minimum width
of 560 replaced the one Qt takes from the layout, and Qt opens a window at most two thirds of the screen wide.
"Test connection & load models" was cut on both sides and the Temperature box ran past the page's edge. Now the
dialog takes the width its fields need, as far as the screen's free area goes; past that, the page scrolls.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtWidgets import QDialog, QFrame, QScrollArea, QStyle, QTabWidget, QWidget

UNBOUNDED = QSize(16777215, 16777215)  # Qt's QWIDGETSIZE_MAX


class ScrollPage(QScrollArea):
    """Holds ``page``; asks the dialog for the page's whole size (a plain scroll area asks for little, and
    the dialog would shrink to it), up to ``room``: the screen's free area less the dialog round the page."""

    def __init__(self, page: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("settingsPage")
        self.setFrameShape(QFrame.Shape.NoFrame)
        # Not a Tab stop itself (an empty stop without a name): its fields are, and Tab to one out of sight
        # scrolls it into view.
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setWidgetResizable(True)
        self.setWidget(page)
        # The tab's own background shows through, as without the scroll area (setWidget fills the page)
        page.setAutoFillBackground(False)
        self.viewport().setAutoFillBackground(False)
        self.room = UNBOUNDED

    def set_room(self, room: QSize) -> None:
        if room != self.room:
            self.room = room
            self.updateGeometry()

    def wanted(self, width: int | None = None) -> QSize:
        """The page's whole minimum size; its height at ``width`` when it wraps text to that width."""
        page = self.widget()
        want = page.minimumSizeHint()
        layout = page.layout()
        if width is not None and layout is not None and layout.hasHeightForWidth():
            want.setHeight(max(want.height(), layout.totalHeightForWidth(max(width, want.width()))))
        return want

    def _fitted(self, want: QSize) -> QSize:
        """``want`` within ``room``, with a scroll bar's width or height added where one will show."""
        bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, self)
        width, height = want.width(), want.height()
        if height > self.room.height():
            width += bar
        if width > self.room.width():
            height += bar
        return QSize(min(width, self.room.width()), min(height, self.room.height()))

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return self._fitted(self.wanted())

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return self._fitted(self.widget().sizeHint().expandedTo(self.wanted()))


def around_page(dialog: QDialog, tabs: QTabWidget, pages: list[ScrollPage]) -> QSize:
    """The dialog round its current page: its margins, the tab bar, the line above Save, the buttons."""
    if dialog.isVisible():
        chrome = dialog.size() - tabs.currentWidget().size()
    else:  # not laid out yet: its minimum less the widest page's
        widest = QSize(0, 0)
        for page in pages:
            widest = widest.expandedTo(page.minimumSizeHint())
        chrome = dialog.layout().totalMinimumSize() - widest
    return chrome.expandedTo(QSize(0, 0))


def keep_within(window: QWidget, free: QRect) -> None:
    """Move ``window`` back inside ``free`` when growing took it past an edge: placed over the main window at
    its first size, the dialog grew for 18 pt text down past the screen's bottom, Save out of reach."""
    frame = window.frameGeometry()
    x = max(free.left(), min(frame.x(), free.right() + 1 - frame.width()))
    y = max(free.top(), min(frame.y(), free.bottom() + 1 - frame.height()))
    if (x, y) != (frame.x(), frame.y()):
        window.move(x, y)
