"""Give the focus back to the window a dialog was opened over, when the dialog closes.

A window manager does this: it activates the parent again, and Qt then puts the focus back on the widget
that had it there. With none (a kiosk session, Xvfb, some tiling setups) no window was active after the shell
tool's Run / Deny question closed: no widget had the focus, so Esc (stop) and Ctrl+R did nothing until the
window was clicked. Watching the application's focus covers every dialog at once: the command's question,
Settings, the file dialogs, message boxes and the questions of the knowledge base panel. A question that
closes the dialog under it as well (Settings' "Unsaved settings") gives the focus to the main window.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget

_INSTALLED = "tinyragDialogFocus"  # the application's property: installed once, however many windows


class _DialogFocus(QObject):
    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        app.focusChanged.connect(self._changed)

    def _changed(self, old: QWidget | None, now: QWidget | None) -> None:
        if now is not None or old is None:
            return
        dialog = old.window()
        # Every window under it, nearest first, found now: by the next turn of the loop they may be deleted
        windows = _windows_under(dialog)
        if not windows:  # a main window whose focus went to another application
            return
        # The focus leaves as the dialog hides (it still counts as shown then); after this turn of the loop,
        # a dialog still open lost it to another application, and a window manager has activated the parent.
        QTimer.singleShot(0, self, lambda: self._activate(dialog, windows))

    @staticmethod
    def _activate(dialog: QWidget, windows: list[QWidget]) -> None:
        if shiboken6.isValid(dialog) and dialog.isVisible():
            return
        if QApplication.activeWindow() is not None:
            return
        # The nearest one still shown: a question that closes Settings with it ("Unsaved settings": Save or
        # Discard) gives the focus to the main window, not to Settings, gone in the same turn.
        shown = next((w for w in windows if shiboken6.isValid(w) and w.isVisible()), None)
        if shown is not None:
            shown.activateWindow()  # Qt gives the focus back to the widget that had it in that window


def _windows_under(dialog: QWidget) -> list[QWidget]:
    """The windows ``dialog`` was opened over: its parent's, that one's parent's, up to the main window."""
    windows = []
    parent = dialog.parentWidget()
    while parent is not None:
        window = parent.window()
        windows.append(window)
        parent = window.parentWidget()
    return windows


def give_focus_back_after_dialogs(app: QApplication) -> None:
    """Watch ``app``: when a dialog closes and no window is active after it, activate the one under it."""
    if not app.property(_INSTALLED):
        app.setProperty(_INSTALLED, True)
        _DialogFocus(app)
