"""A button that is off while its work runs keeps the keyboard focus: Space on Test connection left it in the
Embedding model box, and Space on Try again left it on "Enter a server address…", where a second Space
opened Settings. It waits off the other controls, and comes back to the button when the work is done."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QApplication, QComboBox, QLineEdit

from tinyrag_desktop.firstrun import ProbeResult
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui.settings_dialog import SettingsDialog
from tinyrag_desktop.ui.welcome_panel import WelcomePanel

from .conftest import wait_until


def _on_nothing_that_acts() -> bool:
    """No control has the focus, so a key pressed meanwhile acts on none."""
    return not isinstance(QApplication.focusWidget(), (QAbstractButton, QComboBox, QLineEdit))


def _settings(qtbot, qloop, answer: asyncio.Event) -> SettingsDialog:
    async def slow_server(url: str, key: str) -> list[str]:
        await answer.wait()
        return ["llama3.2", "nomic-embed-text"]

    dialog = SettingsDialog(defaults(), slow_server)
    qtbot.addWidget(dialog)
    dialog.show()
    with qtbot.waitActive(dialog):
        dialog.activateWindow()
    dialog.test_button.setFocus()
    qloop.run(wait_until(dialog.test_button.hasFocus))
    return dialog


def test_space_on_test_connection_keeps_the_focus_on_it_unless_the_user_moves_it(qloop, qtbot):
    answer = asyncio.Event()
    dialog = _settings(qtbot, qloop, answer)
    qtbot.keyClick(dialog.test_button, Qt.Key.Key_Space)
    assert not dialog.test_button.isEnabled() and _on_nothing_that_acts()
    answer.set()
    qloop.run(dialog._test_task)
    assert dialog.test_button.isEnabled() and QApplication.focusWidget() is dialog.test_button
    # Moved elsewhere while the test runs, the focus stays where the user put it.
    answer.clear()
    qtbot.keyClick(dialog.test_button, Qt.Key.Key_Space)
    key = dialog.field("api_key")
    key.setFocus()
    qloop.run(wait_until(key.hasFocus))
    answer.set()
    qloop.run(dialog._test_task)
    assert dialog.test_button.isEnabled() and QApplication.focusWidget() is key


def test_space_on_try_again_keeps_the_focus_on_it(qloop, qtbot):
    answer = asyncio.Event()

    async def probe():
        await answer.wait()
        return ProbeResult(None, ())

    panel = WelcomePanel(probe=probe)
    qtbot.addWidget(panel)
    panel.resize(800, 600)
    panel.show()
    with qtbot.waitActive(panel):
        panel.activateWindow()
    panel.retry_button.setFocus()
    qloop.run(wait_until(panel.retry_button.hasFocus))
    qtbot.keyClick(panel.retry_button, Qt.Key.Key_Space)
    try:
        assert panel.busy and _on_nothing_that_acts()  # a second Space opened Settings
    finally:
        answer.set()
        qloop.run(panel._task)
    assert QApplication.focusWidget() is panel.retry_button
