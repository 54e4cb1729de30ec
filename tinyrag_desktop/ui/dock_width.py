"""The knowledge panel's width when docked: a share of the window, or the width the user dragged it to.

The panel opened in a 700 px window gets about 300 px; widened to 1,280 px, the window gave all its new room
to the chat and the panel stayed as narrow, its Title column cut to "tiny…ting", and so it came back at the
next start: a width forced by a small window stuck as if chosen. Now only a drag of the panel's edge (the
main window's separator) chooses a width; until then the panel takes its share again each time the window
is resized, and a chosen width comes back when the window has room for it again. Also its title bar's
float and close buttons, drawn at full size.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QAbstractButton, QApplication, QDockWidget, QProxyStyle, QStyle

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow

DOCK_SHARE, DOCK_MOST = 0.3, 640  # the knowledge panel's width, as a share of a wide window, and at most


class DockWidth(QObject):
    """Keeps ``dock`` at its preferred width (see ``preferred``); ``chosen`` is the width the user dragged
    it to, 0 while they have not (kept in window.ini by window_layout)."""

    def __init__(self, win: "QMainWindow", dock: QDockWidget) -> None:
        super().__init__(dock)
        self._win, self._dock = win, dock
        self.chosen = 0
        self._pressed: int | None = None  # the panel's width when a mouse button went down on the window
        win.installEventFilter(self)  # its separators are the window's own: their drags come to it
        dock.visibilityChanged.connect(lambda visible: visible and self._soon())
        dock.topLevelChanged.connect(lambda _floating: self._soon())

    def preferred(self) -> int:
        """The chosen width; else the wider of the panel's own (room for its Title column, at most two
        fifths of a narrow window) and a share of the window (a third, at most DOCK_MOST)."""
        if self.chosen:
            return self.chosen
        return max(self._dock.sizeHint().width(), min(DOCK_MOST, int(self._win.width() * DOCK_SHARE)))

    def fit(self) -> None:
        """Size the docked panel to its preferred width, as far as the window has room for it."""
        dock = self._dock
        sides = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea)
        if not dock.isVisible() or dock.isFloating() or self._pressed is not None \
                or self._win.dockWidgetArea(dock) not in sides:  # above or below the chat: as wide as it
            return
        want = self.preferred()
        # a chosen width is only given back (the window squeezed it), never forced on a narrower window
        if abs(dock.width() - want) > 2 and not (self.chosen and dock.width() > want):
            self._win.resizeDocks([dock], [want], Qt.Orientation.Horizontal)

    def _soon(self) -> None:
        # once laid out: as the signal or the window's resize comes, the panel has not its new width yet
        QTimer.singleShot(0, self, self.fit)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        kind = event.type()
        if watched is self._win:
            if kind == QEvent.Type.Resize:
                self._soon()
            elif kind == QEvent.Type.MouseButtonPress and self._dock.isVisible():
                self._pressed = self._dock.width()
            elif kind == QEvent.Type.MouseButtonRelease and self._pressed is not None:
                # the window moves its separator on a zero timer: the last move lands after this event
                QTimer.singleShot(0, self, self._released)
        return False

    def _released(self) -> None:
        if self._pressed is not None and self._dock.isVisible() and not self._dock.isFloating() \
                and self._dock.width() != self._pressed:
            self.chosen = self._dock.width()  # its edge was dragged
        self._pressed = None


class _FullSizeButtons(QProxyStyle):
    """Fusion says its dock buttons have a frame, and Qt then draws their icons at 10 px at most: the float
    and close buttons were 8 px marks, pale grey once scaled down. Without the frame (the style sheet gives
    them a hover background instead) they get the small icon size, 16 px."""

    def styleHint(self, hint, option=None, widget=None, data=None) -> int:  # noqa: N802 - Qt's name
        if hint == QStyle.StyleHint.SH_DockWidget_ButtonsHaveFrame:
            return 0
        return super().styleHint(hint, option, widget, data)


def full_size_buttons(dock: QDockWidget) -> None:
    """Draw ``dock``'s float and close buttons with their whole icons (see _FullSizeButtons)."""
    # A new style of the application's kind (Fusion, see apply_theme) underneath: a proxy owns its base style.
    style = _FullSizeButtons(QApplication.style().name())
    style.setParent(dock)  # kept as long as the dock; a widget does not own the style it is given
    for button in dock.findChildren(QAbstractButton):
        if button.objectName() in ("qt_dockwidget_closebutton", "qt_dockwidget_floatbutton"):
            button.setStyle(style)
