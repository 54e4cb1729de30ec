"""The welcome panel by keyboard and screen reader: Tab goes through it as it reads, and each stop has a name; so
does every stop of the window and of Settings."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QTabWidget, QWidget

from tests.sse_server import Stream, free_port
from tinyrag_desktop.firstrun import ProbeResult
from tinyrag_desktop.ui.settings_dialog import SettingsDialog

from .conftest import ask_and_wait, tokens, wait_until


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
    assert _unnamed(walked) == []


def _unnamed(widgets):
    return [w for w in widgets if not QAccessible.queryAccessibleInterface(w).text(QAccessible.Text.Name).strip()]


def test_every_tab_stop_of_the_window_and_of_settings_has_a_name(make_window, server, qloop, qtbot):
    # A guard over the whole window (an answer with a card, the knowledge panel, the find bar) and every page
    # of Settings: a stop a screen reader says nothing for is a place a blind user cannot tell where they are.
    server.queue(Stream(tokens('<tool name="calculate"><query>6 * 7</query></tool>')),
                 Stream(tokens("It is **42**.\n\n```python\nprint(42)\n```\n\nSee [the guide](https://example.com).")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "What is 6 * 7?")) == "done"
    win.kb_dock.show()
    win.find_bar.open_bar()
    stops = win.tab_stops()
    assert win.view.answers()[-1].cards()[0] in stops and win.find_bar.box in stops
    assert _unnamed(stops) == []
    dialog = SettingsDialog(win.settings)
    qtbot.add_widget(dialog)
    dialog.show()
    tabs = dialog.findChild(QTabWidget)
    for page in range(tabs.count()):
        tabs.setCurrentIndex(page)
        shown = [w for w in dialog.findChildren(QWidget) if w.isVisible() and w.focusProxy() is None
                 and w.focusPolicy() & Qt.FocusPolicy.TabFocus and w.isEnabled()]
        assert shown and _unnamed(shown) == [], tabs.tabText(page)


def test_the_welcome_page_is_a_tab_stop_only_while_it_scrolls(make_window, qloop, qtbot):
    # With nothing to scroll, Tab stopped on the page itself, drawn as a ring round the whole panel, doing nothing.
    from PySide6.QtWidgets import QScrollArea

    async def probe():
        return ProbeResult(None, ())

    win = make_window(f"http://127.0.0.1:{free_port()}/v1", probe=probe)
    win.resize(1180, 900)
    qloop.run(wait_until(win.welcome.visible))
    panel = win.welcome.panel
    scroll = panel.findChild(QScrollArea)
    qloop.run(wait_until(lambda: win.height() == 900 and scroll.verticalScrollBar().maximum() == 0))
    assert not scroll.focusPolicy() & Qt.FocusPolicy.TabFocus
    assert scroll not in win.tab_stops()
    win.resize(800, 400)  # now the steps run below the window: the page is a stop, to scroll them into sight
    qloop.run(wait_until(lambda: scroll.verticalScrollBar().maximum() > 0))
    assert scroll.focusPolicy() & Qt.FocusPolicy.TabFocus and scroll in win.tab_stops()
    scroll.setFocus()
    qloop.run(wait_until(scroll.hasFocus))
    win.resize(1180, 900)  # nothing to scroll again: the focus goes on to Try again, not left on a ring that does nothing
    qloop.run(wait_until(lambda: scroll.verticalScrollBar().maximum() == 0))
    assert not scroll.hasFocus() and panel.retry_button.hasFocus()
