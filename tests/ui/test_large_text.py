"""A large desktop font (18 pt): icons grow with the text, and the window and Settings stay on the screen."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QFont, QImage

from tests.sse_server import Stream

from .conftest import ask_and_wait, tokens


def _inked(image: QImage, area: QRect) -> QRect:
    """The box round the pixels in ``area`` (logical pixels) that differ clearly from its top-left one."""
    ratio = image.devicePixelRatio()
    back = image.pixelColor(int(area.left() * ratio), int(area.top() * ratio))
    box = QRect()
    for y in range(int(area.top() * ratio), int(area.bottom() * ratio)):
        for x in range(int(area.left() * ratio), int(area.right() * ratio)):
            c = image.pixelColor(x, y)
            if abs(c.red() - back.red()) + abs(c.green() - back.green()) + abs(c.blue() - back.blue()) > 150:
                box = box.united(QRect(int(x / ratio), int(y / ratio), 1, 1))
    return box


@pytest.fixture
def big_text(qapp):
    """The application's font at 18 pt, as a user with large text sets it; the usual one back after."""
    before = QFont(qapp.font())
    font = QFont(before)
    font.setPointSize(18)
    qapp.setFont(font)
    yield
    qapp.setFont(before)


def test_the_find_bars_arrows_are_as_large_as_its_text(big_text, make_window, server, qtbot):
    # At 18 pt the up and down arrows stayed 6 to 8 pixels: Fusion draws Qt's arrows no larger.
    win = make_window(server.base_url)
    win.find_bar.open_bar()
    qtbot.waitUntil(lambda: win.find_bar.prev_button.isVisible())
    text = win.find_bar.box.fontMetrics().height()
    for button in (win.find_bar.prev_button, win.find_bar.next_button):
        qtbot.waitUntil(lambda b=button: b.height() >= text)
        ink = _inked(button.grab().toImage(), button.rect().adjusted(1, 1, -1, -1))
        assert ink.width() >= text * 0.4, (button.objectName(), ink, text)


def test_a_cards_icon_and_badge_grow_with_a_large_font(big_text, make_window, server, qloop):
    # They stayed 16 and 18 pixels in a header row grown for 18 pt letters.
    server.queue(Stream(tokens('Let me see. <tool name="nanogo"><source>fmt.Println(1)</source></tool>')),
                 Stream(tokens("That tool is off here.")))
    win = make_window(server.base_url, allow_nanogo=False)
    assert qloop.run(ask_and_wait(win, "Try it")) == "done"
    [card] = win.view.answers()[-1].cards()
    row = card._row()
    assert row > 30  # the row has grown with the letters
    image = card.grab().toImage()
    icon = _inked(image, QRect(8, 7, row, row))
    badge = _inked(image, QRect(card.width() - 12 - row, 7, row, row))
    assert icon.height() >= row * 0.45 and badge.height() >= row * 0.7, (icon, badge, row)


def test_the_status_dot_grows_with_a_large_font(big_text, make_window, server):
    # 10 pixels beside 18 pt words: a speck.
    win = make_window(server.base_url)
    dot = win.status.dot.pixmap()
    assert dot.width() / dot.devicePixelRatio() >= win.status.dot.fontMetrics().height() * 0.5


def test_opening_the_knowledge_panel_folds_the_chats_list_rather_than_widening_the_window(big_text, make_window,
                                                                                        server, qtbot):
    # On a 1,024 px screen at 18 pt the window widened from 1,008 to 1,155 px, 131 past the screen's edge: the
    # list folded for the panel was still counted in the window's minimum, and came back in the width it made.
    win = make_window(server.base_url)
    width = win.width()
    assert win.sidebar.isVisible()
    win.kb_dock.show()
    beside = win.kb_dock.minimumSizeHint().width() + win.splitter.widget(1).minimumSizeHint().width()
    qtbot.waitUntil(lambda: win.kb_dock.isVisible() and win.minimumWidth() >= beside)  # the panel counted
    assert win.width() <= width and not win.sidebar.isVisible()
    qtbot.waitUntil(lambda: win.kb_dock.width() >= win.kb_dock.minimumSizeHint().width())
    assert win.width() <= width and not win.sidebar.isVisible()
    win.grab().save("/tmp/scale44/panel-18pt.png")
