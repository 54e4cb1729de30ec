"""focus41's findings: every Tab stop of the window, the knowledge panel, Settings, F1's list and the welcome
panel looks different with the focus, by a 3:1 ring, in both themes (tabs, plain buttons in the dark, combo
boxes, check boxes, the default button, a selected list row, empty lists and scroll areas showed none)."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QScrollArea, QTabWidget, QWidget

from tests.sse_server import Stream, free_port

from .conftest import ask_and_wait, tokens, wait_until
from .test_window import TWO_TOOLS

RINGED = 40  # pixels changed by 3:1 or more: a 2-px ring round the smallest button is over 150; a caret is 14


def _luminance(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format.Format_RGB888)
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    rgb = rows[:, :image.width() * 3].reshape(image.height(), image.width(), 3) / 255.0
    linear = np.where(rgb <= 0.03928, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return linear @ np.array([0.2126, 0.7152, 0.0722])


def focus_shows(top: QWidget, widget: QWidget) -> int:
    """How many pixels in and around ``widget`` change by 3:1 or more when it loses the focus."""
    corner = widget.mapTo(top, widget.rect().topLeft())
    rect = QRect(corner, widget.size()).adjusted(-16, -16, 16, 16).intersected(top.rect())
    focused = _luminance(top.grab(rect).toImage())
    widget.clearFocus()
    unfocused = _luminance(top.grab(rect).toImage())
    widget.setFocus(Qt.FocusReason.TabFocusReason)
    hi, lo = np.maximum(focused, unfocused), np.minimum(focused, unfocused)
    return int(((hi + 0.05) / (lo + 0.05) >= 3.0).sum())


def unseen_stops(qloop, qtbot, top: QWidget, first: QWidget) -> tuple[list[str], list[str]]:
    """Tab from ``first`` round ``top`` once: the stops visited, and those whose focus did not show."""
    with qtbot.waitActive(top):
        top.activateWindow()
    first.setFocus(Qt.FocusReason.TabFocusReason)
    qloop.run(wait_until(first.hasFocus))
    visited: list[str] = []
    unseen: list[str] = []
    seen_widgets: list[QWidget] = []
    for _ in range(60):
        widget = QApplication.focusWidget()
        if widget in seen_widgets:
            break
        seen_widgets.append(widget)
        name = f"{type(widget).__name__} {widget.objectName() or widget.accessibleName()}"
        visited.append(name)
        if (shown := focus_shows(top, widget)) < RINGED:
            unseen.append(f"{name}: {shown}")
        qloop.run(wait_until(widget.hasFocus))
        qtbot.keyClick(widget, Qt.Key.Key_Tab)
    return visited, unseen


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_stop_of_the_window_and_the_knowledge_panel_shows_its_focus(make_window, server, qloop, qtbot,
                                                                           theme):
    server.queue(Stream(tokens(TWO_TOOLS)), Stream(tokens("See [the site](https://example.com) for more.")))
    win = make_window(server.base_url, theme=theme, warnings=["Something to notice here."])
    assert qloop.run(ask_and_wait(win, "Two sums")) == "done"
    win.kb_dock.show()
    qloop.run(wait_until(win.kb_dock.isVisible))
    visited, unseen = unseen_stops(qloop, qtbot, win, win.sidebar.search)
    # The knowledge panel's tabs, its empty list, and (dark) Persona, Dismiss and Add showed 1.6 to 1.8:1 or
    # nothing at all.
    assert {"QTabBar qt_tabwidget_tabbar", "SourcesView kbSources", "QPushButton dismissNotice",
            "ToolCard Tool: Calculator, done"} <= set(visited), visited
    assert unseen == []


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_stop_of_each_settings_tab_shows_its_focus(make_window, server, qloop, qtbot, theme):
    win = make_window(server.base_url, theme=theme)
    dialog = win.open_settings()
    qloop.run(wait_until(dialog.isVisible))
    tabs = dialog.findChild(QTabWidget)
    unseen: list[str] = []
    for index in range(tabs.count()):
        tabs.setCurrentIndex(index)
        first = QApplication.focusWidget() if dialog.isAncestorOf(QApplication.focusWidget()) else tabs.tabBar()
        unseen += [f"{tabs.tabText(index)}: {stop}" for stop in unseen_stops(qloop, qtbot, dialog, first)[1]]
    dialog.reject()
    # The tabs, plain and default buttons, check boxes, the Theme box and the selected persona showed their
    # focus by 1.1 to 2.2:1, or not at all (Save, Theme, Allow shell commands).
    assert unseen == []


def test_the_welcome_panel_the_empty_chat_list_and_the_shortcuts_list_show_their_focus(make_window, qloop,
                                                                                       qtbot):
    from tinyrag_desktop.firstrun import ProbeResult
    from tinyrag_desktop.ui.menus import show_shortcuts

    async def probe():
        return ProbeResult(None, ())

    win = make_window(f"http://127.0.0.1:{free_port()}/v1", probe=probe, theme="dark")
    qloop.run(wait_until(win.welcome.visible))
    win.resize(800, 400)  # the page scrolls, so it is a stop (test_welcome_keys: only then)
    page = win.welcome.panel.findChild(QScrollArea)
    qloop.run(wait_until(lambda: page.verticalScrollBar().maximum() > 0))
    visited, unseen = unseen_stops(qloop, qtbot, win, win.welcome.panel.retry_button)
    # The panel's scrolling page and the list with no chats yet changed not one pixel.
    assert {"QScrollArea Welcome: no model server found", "ChatList chatList"} <= set(visited), visited
    assert unseen == []
    shortcuts = show_shortcuts(win, win.menus.all)
    qloop.run(wait_until(shortcuts.isVisible))
    visited, unseen = unseen_stops(qloop, qtbot, shortcuts, QApplication.focusWidget())
    shortcuts.reject()
    assert "QScrollArea shortcutsList" in visited and unseen == []


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_stop_of_the_command_question_shows_its_focus(make_window, server, qloop, qtbot, theme):
    from tinyrag_desktop.ui.confirm_dialog import ConfirmDialog

    win = make_window(server.base_url, theme=theme)
    dialog = ConfirmDialog("shell", "ls -la", win)
    dialog.show()
    qtbot.waitExposed(dialog)
    visited, unseen = unseen_stops(qloop, qtbot, dialog, dialog.deny_button)
    dialog.reject()
    # The command's box changed not one pixel with the focus.
    assert "QPlainTextEdit confirmCommand" in visited, visited
    assert unseen == []


def test_the_answers_text_is_ringed_outside_its_letters_while_the_keyboard_is_in_it(make_window, server, qloop,
                                                                                     qtbot):
    # At the answer's Tab stop only the caret and a faint band (1.2:1) on its line showed. The ring goes round
    # the text, outside it (nothing to read under it), with the keyboard's focus only: a click to select shows
    # none.
    from tinyrag_desktop.ui.focus_ring import RingAround

    server.queue(Stream(tokens("Some words of the answer.\n\nAnd a second paragraph of them.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Tell me")) == "done"
    with qtbot.waitActive(win):
        win.activateWindow()
    [text] = [s for s in win.view.answers()[-1].segments() if s in win.tab_stops()]

    def ring():
        rings = [r for r in win.findChildren(RingAround) if r.isVisible()]
        return rings[0] if rings else None

    qtbot.mouseClick(text.viewport(), Qt.MouseButton.LeftButton, pos=text.viewport().rect().center())
    qloop.run(wait_until(text.hasFocus))
    assert ring() is None
    win.view.answers()[-1].copy_button.setFocus(Qt.FocusReason.MouseFocusReason)
    text.setFocus(Qt.FocusReason.TabFocusReason)
    qloop.run(wait_until(lambda: ring() is not None))
    around = QRect(text.mapTo(ring().parentWidget(), text.rect().topLeft()), text.size())
    assert ring().geometry().contains(around.adjusted(-3, -3, 3, 3)), (ring().geometry(), around)
    text.setFixedHeight(text.height() + 40)  # as while an answer streams in
    qloop.run(wait_until(lambda: ring().height() == text.height() + 8))
    win.sidebar.search.setFocus(Qt.FocusReason.TabFocusReason)
    qloop.run(wait_until(lambda: ring() is None))
