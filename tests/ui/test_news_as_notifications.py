"""News a screen reader user waits for away from the focus (a tool done, the answer finished or failed) is shown
as a notification where Qt speaks AT-SPI: Orca 43 (Debian 12) ignores Qt's announcements and said none of it."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QWidget

from tests.sse_server import Stream
from tinyrag_desktop.ui import access

from .conftest import ask_and_wait, tokens


@pytest.fixture
def at_spi(monkeypatch):
    """A screen reader listening through Qt's AT-SPI bridge (the tests run offscreen, where Qt has none)."""
    monkeypatch.setattr(access, "by_notification", lambda: True, raising=False)
    was = QAccessible.isActive()
    QAccessible.setActive(True)
    yield
    QAccessible.setActive(was)


def _notifications(win):
    """The names of the window's notifications, oldest first, as a screen reader finds them."""
    said = []
    for widget in win.findChildren(QWidget):
        face = QAccessible.queryAccessibleInterface(widget)
        if face is not None and face.role() == QAccessible.Role.Notification and widget.isVisible():
            said.append(face.text(QAccessible.Text.Name))
    return said


def test_a_tool_done_and_the_answer_finished_are_each_a_notification_of_their_own(make_window, server, qloop, at_spi):
    # One notice said again with new words: Orca read both events with the last words, the tool's went unsaid.
    server.queue(Stream(tokens('<tool name="calculate"><query>6 * 7</query></tool>')), Stream(tokens("It is 42.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "What is 6 * 7?")) == "done"
    assert _notifications(win) == ["Tool: Calculator, done", "Answer finished"]


def test_a_failed_answer_is_a_notification_and_old_ones_go(make_window, server, qloop, at_spi):
    server.queue(*[Stream(tokens("Fine.")) for _ in range(4)], Stream(tokens("Partial answer"), cut_after=1))
    win = make_window(server.base_url)
    for n in range(4):
        assert qloop.run(ask_and_wait(win, f"Question {n}")) == "done"
    assert qloop.run(ask_and_wait(win, "And now?")) == "error"
    said = _notifications(win)
    assert len(said) == 4 and said[:3] == ["Answer finished"] * 3
    assert said[-1].startswith("Answer failed: ") and "broke off" in said[-1]


def test_without_at_spi_the_answer_finished_is_qt_s_announcement(make_window, server, qloop, monkeypatch):
    # Windows and macOS say Qt's announcement: no notification there (it would be said twice).
    sent = []
    monkeypatch.setattr(access, "_send", sent.append)
    was = QAccessible.isActive()
    QAccessible.setActive(True)
    try:
        server.queue(Stream(tokens("Fine.")))
        win = make_window(server.base_url)
        assert qloop.run(ask_and_wait(win, "Hello")) == "done"
    finally:
        QAccessible.setActive(was)
    assert "Answer finished" in [e.message() for e in sent if hasattr(e, "message")] and _notifications(win) == []
