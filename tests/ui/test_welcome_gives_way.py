"""The welcome page giving way to the chat (Try again found a server, or an address was saved): the focus was
left on the empty conversation, so typing went nowhere until Ctrl+L, and the message box went on showing the
keys under the empty chat's hint saying them (its words were changed, but Qt did not paint them)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QWidget

from tests.sse_server import free_port
from tinyrag_desktop.firstrun import Found, ProbeResult
from tinyrag_desktop.ui.composer import SHORT_PLACEHOLDER

from .conftest import wait_until


def _welcome(make_window, server, qloop, qtbot, found_on_retry: list[bool]):
    async def probe():
        return ProbeResult(Found(server.base_url, "scripted", "Test server") if found_on_retry else None, ())

    win = make_window(f"http://127.0.0.1:{free_port()}/v1", probe=probe)
    win.resize(1180, 780)  # the box's whole hint fits
    qloop.run(wait_until(win.welcome.visible))
    with qtbot.waitActive(win):
        win.activateWindow()
    return win


def _shown_as_painted(widget: QWidget) -> bool:
    """Whether the screen (the window's backing store) shows ``widget`` as painted now (grab() paints afresh)."""
    win = widget.window()
    at = widget.mapTo(win, widget.rect().topLeft())
    seen = win.windowHandle().screen().grabWindow(win.winId(), at.x(), at.y(), widget.width(), widget.height())
    rgb = QImage.Format.Format_RGB32
    return seen.toImage().convertToFormat(rgb) == widget.grab().toImage().convertToFormat(rgb)


def _gone(win, qloop) -> None:
    async def checked():
        await wait_until(lambda: not win.welcome.visible())
        await wait_until(lambda: win.status.state == "ok")

    qloop.run(checked())


@pytest.mark.parametrize("how", ["space", "click"])
def test_try_again_finding_a_server_leaves_the_focus_in_the_message_box(make_window, server, qloop, qtbot, how):
    found: list[bool] = []
    win = _welcome(make_window, server, qloop, qtbot, found)
    retry = win.welcome.panel.retry_button
    retry.setFocus(Qt.FocusReason.TabFocusReason)
    found.append(True)
    if how == "space":
        QTest.keyClick(retry, Qt.Key.Key_Space)
    else:
        QTest.mouseClick(retry, Qt.MouseButton.LeftButton)
    _gone(win, qloop)
    assert QApplication.focusWidget() is win.composer  # it was the conversation
    QTest.keyClicks(QApplication.focusWidget(), "hello")
    assert win.composer.toPlainText() == "hello"


def test_an_address_saved_from_the_welcome_page_leaves_the_focus_in_the_message_box(make_window, server, qloop,
                                                                                     qtbot):
    win = _welcome(make_window, server, qloop, qtbot, [])
    button = win.welcome.panel.settings_button
    button.setFocus(Qt.FocusReason.TabFocusReason)
    QTest.keyClick(button, Qt.Key.Key_Space)
    dialog = win.findChild(QDialog, "settingsDialog")
    dialog.field("base_url").setText(server.base_url)
    dialog.save_button.click()
    _gone(win, qloop)
    assert win.focusWidget() is win.composer


def test_the_chat_after_the_welcome_page_shows_the_short_hint_in_the_box(make_window, server, qloop, qtbot):
    found: list[bool] = []
    win = _welcome(make_window, server, qloop, qtbot, found)
    box = win.composer.viewport()
    qloop.run(wait_until(lambda: _shown_as_painted(box)))
    found.append(True)
    win.welcome.panel.retry_button.click()
    _gone(win, qloop)
    assert win.composer.placeholderText() == SHORT_PLACEHOLDER and win.view.findChild(QWidget, "emptyHint").isVisible()
    # what the screen shows is the box painted now: it still said "(Enter sends, Shift+Enter for a new line)"
    qloop.run(wait_until(lambda: _shown_as_painted(box), timeout=3.0))
