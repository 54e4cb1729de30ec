"""Keys that must do something seen from wherever they are pressed: Ctrl+L, Ctrl+K and Ctrl+F from the floating
knowledge panel, F10 for the menu bar, and Tab through the find bar in its place above the message box."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QShortcut
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu


@pytest.fixture
def floating(make_window, server, qtbot):
    """A window whose knowledge panel floats, a window of its own, active with the focus in it."""
    win = make_window(server.base_url)
    dock = win.kb_dock
    dock.setFloating(True)
    dock.show()
    qtbot.waitExposed(dock)
    with qtbot.waitActive(dock):
        dock.activateWindow()
    dock.widget().setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(lambda: dock.isAncestorOf(QApplication.focusWidget()))
    return win


@pytest.mark.parametrize("key, target", [(Qt.Key.Key_L, "composer"), (Qt.Key.Key_K, "search"),
                                         (Qt.Key.Key_F, "find")], ids=["ctrl_l", "ctrl_k", "ctrl_f"])
def test_a_ctrl_key_in_the_floating_panel_brings_the_window_forward_with_the_focus(floating, qtbot, key, target):
    # The focus moved inside the main window behind the panel, which stayed the active one: nothing was seen.
    win = floating
    QTest.keyClick(QApplication.focusWidget(), key, Qt.KeyboardModifier.ControlModifier)
    wanted = {"composer": win.composer, "search": win.sidebar.search, "find": win.find_bar.box}[target]
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is wanted)


def test_f10_opens_the_first_menu_of_the_menu_bar(make_window, server, qtbot):
    # Alt and Alt+letter reached the menus; F10, the key most desktop programs give the menu bar, did nothing.
    win = make_window(server.base_url)
    with qtbot.waitActive(win):
        win.activateWindow()
    win.composer.setFocus()
    QTest.keyClick(win.composer, Qt.Key.Key_F10)
    qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu))
    first = QApplication.activePopupWidget()
    assert first is win.menuBar().actions()[0].menu()
    first.close()
    assert win.composer.toPlainText() == ""  # nothing typed


def test_shift_f10_is_still_the_lists_context_menu_and_f10_is_listed(make_window, server):
    win = make_window(server.base_url)
    keys = [act.shortcut().toString() for act in win.menus.all]
    assert keys.count("F10") == 1 and "Shift+F10" not in keys


def test_tab_reaches_the_find_bar_before_the_message_box_it_sits_above(make_window, server, qtbot):
    # The find bar came after Send: Tab from the last answer went down to the message box, then back up.
    win = make_window(server.base_url)
    win.find_bar.open_bar()
    stops = win.tab_stops()
    assert stops.index(win.find_bar.box) < stops.index(win.composer) < stops.index(win.send_button)
    assert stops.index(win.find_bar.next_button) < stops.index(win.composer)


def _menu_of_shift_f10(qtbot, widget) -> QMenu:
    """The context menu Shift+F10 opens with the focus in ``widget``, closed again."""
    widget.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is widget)
    QTest.keyClick(widget, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu))
    menu = QApplication.activePopupWidget()
    menu.close()
    return menu


def _shift_f10_of(window) -> QShortcut | None:
    return window.findChild(QShortcut, "shiftF10")


def test_shift_f10_in_the_floating_panel_is_a_shortcut_of_its_window(floating, qtbot):
    # It was an event filter on the whole application: every event of the app went through it, about 1.7 µs each.
    win = floating
    box = win.kb_dock.widget().query_edit
    win.kb_dock.widget().tabs.setCurrentIndex(1)
    menu = _menu_of_shift_f10(qtbot, box)
    assert any(action.text().replace("&", "").startswith("Paste") for action in menu.actions())
    assert _shift_f10_of(win.kb_dock) is not None and win.composer.toPlainText() == ""


def test_shift_f10_in_a_dialog_and_back_in_the_window_after_it(make_window, server, qtbot):
    # Settings is modal: a shortcut of the main window, blocked by it, would do nothing there.
    win = make_window(server.base_url)
    with qtbot.waitActive(win):
        win.activateWindow()
    dialog = win.open_settings()
    qtbot.waitExposed(dialog)
    with qtbot.waitActive(dialog):
        dialog.activateWindow()
    menu = _menu_of_shift_f10(qtbot, dialog.field("base_url"))
    assert any(action.text().replace("&", "").startswith("Paste") for action in menu.actions())
    assert _shift_f10_of(dialog) is not None
    dialog.reject()  # and deleted, its shortcut with it
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    menu = _menu_of_shift_f10(qtbot, win.composer)
    assert any(action.text().replace("&", "").startswith("Copy") for action in menu.actions())
    assert _shift_f10_of(win) is not None
