"""Retry (and Regenerate) pressed at the end of a long chat: the focus was on the button as its answer went, so
Qt gave it to the next Tab stop, the chat's first question, and the view jumped to the top of the chat; End then
moved a caret inside that question. The view stays at the end now, and the focus goes to the message box."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.sse_server import Status, Stream

from .conftest import ask_and_wait, tokens, wait_signal, wait_until

LONG = "A line of an answer long enough to fill the view. " * 40


def _long_chat(make_window, server, qloop, qtbot, last_fails: bool):
    """A chat of four questions, longer than the view, whose last answer failed (or not)."""
    last = Status(500, {"error": {"message": "boom"}}) if last_fails else Stream(tokens(LONG, 40))
    server.queue(*(Stream(tokens(LONG, 40)) for _ in range(3)), last)
    win = make_window(server.base_url)
    for n in range(4):
        qloop.run(ask_and_wait(win, f"Question {n}?"))
    assert bool(win.view.answers()[-1].error) == last_fails
    with qtbot.waitActive(win):
        win.activateWindow()
    return win


def _at_the_end(win) -> bool:
    bar = win.view.verticalScrollBar()
    return bar.maximum() > 0 and bar.value() == bar.maximum()


@pytest.mark.parametrize("how", ["space", "click"])
def test_retry_keeps_the_view_at_the_end_and_the_focus_in_the_message_box(make_window, server, qloop, qtbot, how):
    win = _long_chat(make_window, server, qloop, qtbot, last_fails=True)
    retry = win.view.answers()[-1].retry_button
    retry.setFocus(Qt.FocusReason.BacktabFocusReason)  # Shift+Tab from the message box comes to it
    qloop.run(wait_until(lambda: retry.hasFocus() and _at_the_end(win)))
    server.queue(Stream(tokens("Now it works.")))
    finished = wait_signal(win.answerFinished)
    if how == "space":
        QTest.keyClick(retry, Qt.Key.Key_Space)
    else:
        QTest.mouseClick(retry, Qt.MouseButton.LeftButton)
    # it was at the top, the first question in sight, with the focus in that question's text
    at_once = _at_the_end(win), QApplication.focusWidget() is win.composer
    assert qloop.run(finished) == "done"
    assert at_once == (True, True)
    assert win.view.answers()[-1].content() == "Now it works." and len(win.view.answers()) == 4
    assert _at_the_end(win) and QApplication.focusWidget() is win.composer


def test_regenerate_by_key_keeps_the_view_at_the_end_too(make_window, server, qloop, qtbot):
    win = _long_chat(make_window, server, qloop, qtbot, last_fails=False)
    regenerate = win.view.answers()[-1].regenerate_button
    regenerate.setFocus(Qt.FocusReason.BacktabFocusReason)
    qloop.run(wait_until(lambda: regenerate.hasFocus() and _at_the_end(win)))
    server.queue(Stream(tokens("Another answer.")))
    finished = wait_signal(win.answerFinished)
    QTest.keyClick(regenerate, Qt.Key.Key_Space)
    at_once = _at_the_end(win), QApplication.focusWidget() is win.composer
    assert qloop.run(finished) == "done"
    assert at_once == (True, True)
    assert win.view.answers()[-1].content() == "Another answer." and _at_the_end(win)
