"""When a dialog of the window closes, the window is active again with the focus where it was: with no
window manager to do it, nothing had the focus after the shell's Run / Deny question, and Esc did nothing."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

from tests.sse_server import Stream

from .conftest import tokens, wait_signal, wait_until


async def _active(win) -> None:
    win.activateWindow()
    await wait_until(lambda: QApplication.activeWindow() is win)


def test_after_the_command_question_esc_stops_the_answer(make_window, server, qloop):
    server.queue(Stream(tokens('Let me look. <tool name="shell"><query>ls -la</query></tool>')),
                 Stream(tokens("I was not allowed to look, so here is a long guess. " * 40), delay=0.02))
    win = make_window(server.base_url, allow_shell_exec=True)

    async def scenario() -> str:
        await _active(win)
        finished = wait_signal(win.answerFinished, timeout=20)
        win.composer.setPlainText("List the files")
        assert win.send()
        await wait_until(lambda: win.confirmer.current is not None and win.confirmer.current.isVisible())
        dialog = win.confirmer.current
        await wait_until(lambda: QApplication.activeWindow() is dialog)
        QTest.keyClick(dialog.deny_button, Qt.Key.Key_Escape)  # Esc in the question: Deny
        await wait_until(lambda: QApplication.activeWindow() is win)  # it was None, for good
        assert QApplication.focusWidget() is win.composer  # where the focus was as the question came
        await wait_until(lambda: "I was not" in win.view.answers()[-1].content())
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)  # and Esc stops the answer again
        return await finished

    assert qloop.run(scenario(), timeout=30) == "stopped"


def test_after_a_message_box_the_window_has_the_focus_back(make_window, server, qloop):
    win = make_window(server.base_url)

    async def scenario() -> None:
        await _active(win)
        win.sidebar.setFocus()  # not the message box, where a new window puts it
        focused = QApplication.focusWidget()
        box = QMessageBox(QMessageBox.Icon.Warning, "Could not save", "The disk is full.", parent=win)
        box.open()
        await wait_until(lambda: QApplication.activeWindow() is box)
        QTimer.singleShot(0, box.accept)
        await wait_until(lambda: not box.isVisible())
        await wait_until(lambda: QApplication.activeWindow() is win)
        assert QApplication.focusWidget() is focused
        await asyncio.sleep(0)

    qloop.run(scenario())


def _leave_settings_by_keyboard(win, qtbot, answer: str):
    """Ctrl+, → an edit → Esc → Tab to ``answer`` in the "Unsaved settings" question → Space."""
    QTest.keyClick(win.composer, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)
    dialog = win.findChild(QDialog, "settingsDialog")
    assert dialog is not None
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    QTest.keyClicks(dialog.field("temperature"), "1")
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: dialog.discard_question is not None
                    and QApplication.activeWindow() is dialog.discard_question)
    box = dialog.discard_question
    wanted = {"Save": box.button(QMessageBox.StandardButton.Save),
              "Discard": box.button(QMessageBox.StandardButton.Discard)}[answer]
    for _ in range(len(box.buttons())):
        if QApplication.focusWidget() is wanted:
            break
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is wanted
    QTest.keyClick(wanted, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: not dialog.isVisible())


@pytest.mark.parametrize("answer", ["Discard", "Save"])
def test_after_the_unsaved_settings_question_the_window_has_the_focus_back(make_window, server, qloop, qtbot,
                                                                           answer):
    # The question closed, and Settings under it in the same turn: the question's parent was no longer
    # shown, and nothing was activated. No window was active, and Esc, Ctrl+R and Ctrl+, did nothing.
    win = make_window(server.base_url)
    qloop.run(_active(win))
    win.composer.setFocus()
    _leave_settings_by_keyboard(win, qtbot, answer)
    qloop.run(wait_until(lambda: QApplication.activeWindow() is win))
    assert QApplication.focusWidget() is win.composer
