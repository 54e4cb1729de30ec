"""Context menus from the keyboard: Shift+F10 opens them as the Menu key does, everywhere in the app, and a
list's is for its current row.

Shift+F10 is the key many Linux programs and Windows open a menu with; Qt's X11 and Wayland backends leave it a
plain key, and only the lists answered it: in the message box, the search box, a question or an answer's text it
did nothing. :func:`shift_f10_as_menu_key` turns it, in the whole application, into what the Menu key sends: a
keyboard context-menu event to the window, which Qt hands to the focused widget at its cursor. It is one
shortcut that moves to the window the focus goes to (a dialog, the floating knowledge panel): an event filter on
the application did it before, and cost every event of the app about 1.7 µs in Python.

Qt hands the Menu key's context-menu event to the focused view itself, at the centre of the view's cursor
rectangle in the view's own coordinates; a right click reaches the view through its viewport, in the
viewport's. ``customContextMenuRequested`` passes both on as they are, and its slots read a viewport point:
below the sources list's header (19 px) the keyboard's menu was for the row under the current one, and
none for the last row. Here the keyboard's menu is asked at the current row's place in the viewport.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QEvent, QObject, QPoint
from PySide6.QtGui import QContextMenuEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QAbstractItemView, QApplication, QWidget

_menu_key: "_ShiftF10 | None" = None  # the application's, once made


class _ShiftF10(QObject):
    """Shift+F10 as a shortcut of the window that has the focus, moved along with the focus; pressed, the Menu
    key's event goes to that window. A window's own shortcut, so a modal dialog's is not blocked by it; one only,
    so no two windows' shortcuts make the key ambiguous (the floating panel's and the main window's both match)."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self._shortcut: QShortcut | None = None
        app.focusChanged.connect(self._follow)
        self._follow(None, QApplication.focusWidget())

    def _follow(self, _old: QWidget | None, now: QWidget | None) -> None:
        if now is None:
            return
        window = now.window()
        shortcut = self._shortcut
        if shortcut is None or not shiboken6.isValid(shortcut):  # none yet, or gone with a closed dialog
            shortcut = self._shortcut = QShortcut(QKeySequence("Shift+F10"), window)
            shortcut.setObjectName("shiftF10")
            shortcut.setAutoRepeat(False)  # held down, it opens one menu, not one after another
            shortcut.activated.connect(_open_menu)
        elif shortcut.parent() is not window:
            shortcut.setParent(window)


def _open_menu() -> None:
    """The Menu key's event, to the window with the focus: Qt hands it to the focused widget, at its cursor."""
    focus = QApplication.focusWidget()
    window = focus.window().windowHandle() if focus is not None else None
    if window is not None:
        QApplication.sendEvent(window, QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, QPoint(0, 0),
                                                         QPoint(0, 0)))


def shift_f10_as_menu_key() -> None:
    """Make Shift+F10 open context menus as the Menu key does, in the whole application (once)."""
    global _menu_key
    app = QApplication.instance()
    if _menu_key is None and app is not None:
        _menu_key = _ShiftF10(app)


class _KeyboardMenu(QObject):
    """An event filter on the view: the keyboard's context-menu event (the Menu key, Shift+F10) becomes a
    ``customContextMenuRequested`` at the current row, in viewport coordinates as a right click's are."""

    def __init__(self, view: QAbstractItemView) -> None:
        super().__init__(view)
        self._view = view

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is not self._view:
            return False
        kind = event.type()
        if kind == QEvent.Type.ContextMenu and event.reason() == QContextMenuEvent.Reason.Keyboard:
            self._ask()
            event.accept()
            return True
        return False

    def _ask(self) -> None:
        view = self._view
        index = view.currentIndex()
        if not index.isValid():
            return
        view.scrollTo(index)  # a current row scrolled out of sight: its menu opens where it is seen
        rect = view.visualRect(index)
        # A wide cell's centre can lie past the viewport's right edge: the menu stays over the list.
        x = min(max(rect.center().x(), 0), max(0, view.viewport().width() - 1))
        view.customContextMenuRequested.emit(QPoint(x, rect.center().y()))


def keyboard_menu_at_current_row(view: QAbstractItemView) -> None:
    """Make ``view`` (with a custom context menu) open its menu from the keyboard for its current row."""
    view.installEventFilter(_KeyboardMenu(view))
    shift_f10_as_menu_key()
