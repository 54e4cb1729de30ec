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


def _shown(qtbot, command: str) -> ConfirmDialog:
    dialog = ConfirmDialog("shell", command)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def test_the_command_box_is_as_tall_as_the_command(qtbot):
    # "ls" sat at the top of a box seven lines tall, the rest of it empty.
    short = _shown(qtbot, "ls -la")
    line = short.command.fontMetrics().lineSpacing()
    qtbot.waitUntil(lambda: short.command.height() < 4 * line)
    three = _shown(qtbot, "cd build\nmake -j4\nmake test")
    qtbot.waitUntil(lambda: three.command.height() > short.command.height())
    assert three.command.verticalScrollBar().maximum() == 0  # all three lines in view
    long = _shown(qtbot, "\n".join(f"echo line {n}" for n in range(40)))
    qtbot.waitUntil(lambda: long.command.height() <= 140)
    assert long.command.verticalScrollBar().maximum() > 0  # the rest scrolls
