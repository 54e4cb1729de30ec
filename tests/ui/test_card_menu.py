"""A focused tool card opened nothing with Shift+F10 or the Menu key (on the answer's text and the message box
they opened a menu), and a right click on it offered nothing either: it has a menu of its own now."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QContextMenuEvent, QGuiApplication
from PySide6.QtWidgets import QApplication, QMenu

from tests.sse_server import Stream

from .conftest import ask_and_wait, tokens


def _texts(menu: QMenu) -> list[str]:
    return [action.text() for action in menu.actions() if action.text()]


def _trigger(menu: QMenu, text: str) -> None:
    next(action for action in menu.actions() if action.text() == text).trigger()
    menu.close()


def test_shift_f10_and_the_menu_key_open_a_focused_cards_menu(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens('Let me count. <tool name="calculate"><query>6*7</query></tool>', 6)),
                 Stream(tokens("It is 42.")))
    win = make_window(server.base_url)
    with qtbot.waitActive(win):
        win.activateWindow()
    assert qloop.run(ask_and_wait(win, "6 times 7?")) == "done"
    [card] = win.view.answers()[-1].cards()
    card.setFocus(Qt.FocusReason.TabFocusReason)
    assert QApplication.focusWidget() is card

    qtbot.keyClick(card, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu)
    assert _texts(menu) == ["Open details", "Copy input", "Copy result", "Copy all details"]
    assert card.rect().contains(card.mapFromGlobal(menu.pos()))  # under the card's header, not the window's corner
    _trigger(menu, "Copy result")
    assert QGuiApplication.clipboard().text() == card.result and "42" in card.result

    # the Menu key: the platform sends the window a keyboard context-menu event (offscreen has no such key)
    QApplication.sendEvent(win.windowHandle(), QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, QPoint(0, 0),
                                                                QPoint(0, 0)))
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu) and _texts(menu)[0] == "Open details"
    _trigger(menu, "Open details")
    assert card.expanded

    # a right click on its header offers the same, now to close it
    QApplication.sendEvent(card, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, QPoint(20, 10),
                                                   card.mapToGlobal(QPoint(20, 10))))
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu) and _texts(menu)[0] == "Close details"
    _trigger(menu, "Copy input")
    assert QGuiApplication.clipboard().text() == "6*7"
