"""Enter (and Return) press a focused button of the window, as Space does.

Qt's push buttons take Enter only in a dialog, and tool buttons never: Enter on a focused "Choose a model…"
did nothing while Space opened its menu, though Enter pressed the welcome page's "Try again" (its default
button). Watched here: the buttons of an answer's error and the window's menu buttons (the status bar's
model, the knowledge panel's Add).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractButton

_ENTER = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


class _EnterPresses(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.KeyPress and event.key() in _ENTER and not event.isAutoRepeat() \
                and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            watched.click()  # a menu button's menu opens, as with Space
            return True
        return False


def enter_presses(*buttons: QAbstractButton) -> None:
    """Enter on any of ``buttons``, focused, presses it."""
    for button in buttons:
        button.installEventFilter(_EnterPresses(button))
