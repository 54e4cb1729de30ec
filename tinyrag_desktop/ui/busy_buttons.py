"""Buttons that are off while their own work runs, and keep the keyboard focus for when it is done.

Qt hands the focus of a widget being turned off to the next one in the Tab order. Space on Settings' "Test
connection & load models" left it in the Embedding model box; Space on the welcome panel's "Try again" left
it on "Enter a server address…", where a second Space opened Settings. Here the focus waits on the button's
parent while the work runs (keys there act on nothing), and comes back to the button when it is on again,
unless the user moved it meanwhile.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QWidget

_WAITING = "focusWaits"  # the button gave its focus to its parent when it was turned off


def set_working(button: QAbstractButton, working: bool) -> None:
    """Turn ``button`` off while its work runs (``working``), and on again after, its focus kept."""
    holder = button.parentWidget()
    if working:
        # the window's focus, active or not: a test left running in the background comes back as well
        if holder is not None and button.window().focusWidget() is button:
            holder.setFocus(Qt.FocusReason.OtherFocusReason)  # before turning off: Qt would move it along
            button.setProperty(_WAITING, True)
        button.setEnabled(False)
        return
    button.setEnabled(True)
    if _waited(button):
        button.setFocus(Qt.FocusReason.OtherFocusReason)


def pass_focus(button: QAbstractButton, other: QWidget) -> None:
    """``button`` stays off when its work is done (it has nothing to act on now, as Delete with no source
    left): a focus it kept goes to ``other``."""
    if not button.isEnabled() and _waited(button):
        other.setFocus(Qt.FocusReason.OtherFocusReason)


def _waited(button: QAbstractButton) -> bool:
    """Whether the focus waited for ``button`` (and is still there: nobody moved it meanwhile); forgotten."""
    if not button.property(_WAITING):
        return False
    button.setProperty(_WAITING, False)
    holder = button.parentWidget()
    return holder is not None and button.window().focusWidget() is holder
