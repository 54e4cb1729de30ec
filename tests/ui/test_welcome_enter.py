"""Enter on a focused button of the welcome panel presses it, as Space does (Try again already did, as the
panel's default button)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tinyrag_desktop.ui.welcome_panel import WelcomePanel


async def _no_server():  # never asked: the test presses no Try again
    raise AssertionError("probed")


def test_enter_presses_each_button_of_the_welcome_panel(qtbot):
    panel = WelcomePanel(probe=_no_server)
    qtbot.addWidget(panel)
    panel.set_builtin_available(True)  # without a way to start it: the button only says it was pressed
    panel.back_button.show()
    panel.show()
    qtbot.waitExposed(panel)
    for button, signal in ((panel.settings_button, panel.openSettingsRequested),
                           (panel.back_button, panel.backRequested),
                           (panel.builtin_button, panel.useBuiltinRequested)):
        button.setFocus()
        with qtbot.waitSignal(signal, timeout=2000):
            qtbot.keyClick(button, Qt.Key.Key_Return)
    panel.set_builtin_available(False, "pip install llama-cpp-python")  # how to install it, folded
    assert panel.builtin_more.isVisible() and not panel.builtin_label.isVisible()
    panel.builtin_more.setFocus()
    qtbot.keyClick(panel.builtin_more, Qt.Key.Key_Enter, Qt.KeyboardModifier.KeypadModifier)
    assert panel.builtin_more.isChecked() and panel.builtin_label.isVisible()
