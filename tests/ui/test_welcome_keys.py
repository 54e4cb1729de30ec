"""The welcome panel by keyboard and screen reader: Tab goes through it as it reads, and each stop has a name."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.sse_server import free_port
from tinyrag_desktop.firstrun import ProbeResult

from .conftest import wait_until


def test_tab_goes_through_the_welcome_panel_in_reading_order_and_every_stop_is_named(make_window, qloop, qtbot):
    # "How to install the built-in model…", below the buttons, came before Try again (it was made first), and
    # the panel's scrolling page was a stop a screen reader said nothing for.
    async def probe():
        return ProbeResult(None, ())

    win = make_window(f"http://127.0.0.1:{free_port()}/v1", probe=probe)
    qloop.run(wait_until(win.welcome.visible))
    with qtbot.waitActive(win):
        win.activateWindow()
    panel = win.welcome.panel
    win.composer.setFocus(Qt.FocusReason.TabFocusReason)
    walked = []
    for _ in range(40):
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        if QApplication.focusWidget() is win.composer:
            break
        walked.append(QApplication.focusWidget())
    inside = [w for w in walked if panel.isAncestorOf(w)]
    assert [w for w in inside if w in (panel.retry_button, panel.settings_button, panel.builtin_more)] == \
        [panel.retry_button, panel.settings_button, panel.builtin_more]
    unnamed = [w for w in walked if not QAccessible.queryAccessibleInterface(w).text(QAccessible.Text.Name).strip()]
    assert unnamed == []
