"""The chat list's context menu from the keyboard: for the current chat, over the list, Shift+F10 too."""

from __future__ import annotations

import time

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu

from tinyrag_desktop.chats import ChatInfo
from tinyrag_desktop.ui.sidebar import ChatsSidebar


def _sidebar(qtbot) -> ChatsSidebar:
    bar = ChatsSidebar()
    qtbot.add_widget(bar)
    now = time.time()
    bar.set_chats([ChatInfo(f"c{n}", f"Chat {n}", "", now - n, now - n) for n in range(40)], "c0")
    bar.resize(260, 320)
    bar.show()
    qtbot.waitExposed(bar)
    with qtbot.waitActive(bar):
        bar.activateWindow()
    bar.list.setFocus()
    assert QApplication.focusWidget() is bar.list
    return bar


def _menu(bar) -> QMenu:
    menus = [m for m in bar.findChildren(QMenu) if m.isVisible()]
    assert len(menus) == 1
    return menus[0]


def _deleted_by(qtbot, bar, menu) -> str:
    with qtbot.waitSignal(bar.deleteRequested) as asked:
        next(a for a in menu.actions() if a.text() == "Delete").trigger()
    return asked.args[0]


def test_the_menu_key_on_a_chat_scrolled_out_of_sight_opens_its_menu_over_the_list(qtbot):
    bar = _sidebar(qtbot)
    far = next(r for r in range(bar.list.count()) if bar.list.item(r).data(Qt.ItemDataRole.UserRole) == "c35")
    bar.list.setCurrentRow(far)
    bar.list.scrollToTop()  # the current chat out of sight, as after a scroll with the wheel
    event = QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, QPoint(0, 0), QPoint(0, 0))
    QApplication.sendEvent(bar.windowHandle(), event)
    menu = _menu(bar)
    # it opened below the list (at the row's place in the list's whole length), off the window
    assert bar.list.viewport().rect().contains(bar.list.viewport().mapFromGlobal(menu.pos()))
    assert _deleted_by(qtbot, bar, menu) == "c35"


def test_shift_f10_opens_the_current_chats_menu(qtbot):
    bar = _sidebar(qtbot)
    row = next(r for r in range(bar.list.count()) if bar.list.item(r).data(Qt.ItemDataRole.UserRole) == "c2")
    bar.list.setCurrentRow(row)
    QTest.keyClick(bar.list, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    assert _deleted_by(qtbot, bar, _menu(bar)) == "c2"
