"""Give the focus back to the window a dialog was opened over, when the dialog closes.

A window manager does this: it activates the parent again, and Qt then puts the focus back on the widget
that had it there. With none (a kiosk session, Xvfb, some tiling setups) no window was active after the shell
tool's Run / Deny question closed: no widget had the focus, so Esc (stop) and Ctrl+R did nothing until the
window was clicked. Watching the application's focus covers every dialog at once: the command's question,
Settings, the file dialogs, message boxes and the questions of the knowledge base panel.
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
        parent = dialog.parentWidget()
        if parent is None:  # a main window whose focus went to another application
            return
        window = parent.window()  # now: by the next turn of the loop the parent may be deleted
        # The focus leaves as the dialog hides (it still counts as shown then); after this turn of the loop,
        # a dialog still open lost it to another application, and a window manager has activated the parent.
        QTimer.singleShot(0, self, lambda: self._activate(dialog, window))

    @staticmethod
    def _activate(dialog: QWidget, window: QWidget) -> None:
        if shiboken6.isValid(dialog) and dialog.isVisible():
            return
        if shiboken6.isValid(window) and window.isVisible() and QApplication.activeWindow() is None:
            window.activateWindow()  # Qt gives the focus back to the widget that had it in that window


def give_focus_back_after_dialogs(app: QApplication) -> None:
    """Watch ``app``: when a dialog closes and no window is active after it, activate the one under it."""
    if not app.property(_INSTALLED):
        app.setProperty(_INSTALLED, True)
        _DialogFocus(app)
