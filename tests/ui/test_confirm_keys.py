"""The shell command's question, answered from the keyboard alone."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tinyrag_desktop.ui.confirm_dialog import ConfirmDialog


@pytest.mark.parametrize(("keys", "accepted", "allow_chat"), [
    ([(Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier)], False, False),
    ([(Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier)], False, False),  # Deny is the default button
    ([(Qt.Key.Key_D, Qt.KeyboardModifier.AltModifier)], False, False),
    ([(Qt.Key.Key_R, Qt.KeyboardModifier.AltModifier)], True, False),
    ([(Qt.Key.Key_A, Qt.KeyboardModifier.AltModifier), (Qt.Key.Key_R, Qt.KeyboardModifier.AltModifier)], True, True),
])
def test_run_deny_and_allow_for_this_chat_have_keys(qtbot, keys, accepted, allow_chat):
    # Run and "allow for the rest of this chat" were reached only by Tab, three and two presses away.
    dialog = ConfirmDialog("shell", "ls -la")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)
    with qtbot.waitSignal(dialog.finished, timeout=2000) as finished:
        for key, modifier in keys:
            QTest.keyClick(dialog.focusWidget() or dialog, key, modifier)
    assert (finished.args[0] == ConfirmDialog.DialogCode.Accepted.value) == accepted
    assert dialog.allow_chat.isChecked() == allow_chat
