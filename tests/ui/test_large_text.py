"""A large desktop font (18 pt): icons grow with the text, and the window and Settings stay on the screen."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QRect, Qt
from PySide6.QtGui import QFont, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel

from tests.sse_server import Stream

from .conftest import ask_and_wait, keep_picture, tokens


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


def _text_at(qapp, points: int):
    """The application's font at ``points``, as a user with large text sets it; the usual one back after."""
    before = QFont(qapp.font())
    font = QFont(before)
    font.setPointSize(points)
    qapp.setFont(font)
    yield
    qapp.setFont(before)


@pytest.fixture
def big_text(qapp):
    yield from _text_at(qapp, 18)


@pytest.fixture
def text_20pt(qapp):
    yield from _text_at(qapp, 20)


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
    keep_picture(win, "panel-18pt.png")
    # and the window has settled: no layout request that makes another (a first fix spun the CPU so)
    requests = []
    watcher = _Counter(requests, QEvent.Type.LayoutRequest)
    win.installEventFilter(watcher)
    for _ in range(5):
        QCoreApplication.processEvents()
    win.removeEventFilter(watcher)
    assert len(requests) < 5


def test_at_20_pt_the_chat_and_the_knowledge_panel_fit_a_1024_px_window(text_20pt, make_window, server, qtbot):
    # The empty chat's hint, two lines never wrapped, made the chat at least 709 px wide: with the panel's 364
    # the window widened to 1,083 px, past a 1,024 px screen. And the chats list kept beside them squeezed the chat.
    win = make_window(server.base_url)
    win.resize(1024, 740)
    qtbot.waitUntil(lambda: win.width() == 1024)
    win.kb_dock.show()
    chat = win.splitter.widget(1)
    beside = win.kb_dock.minimumSizeHint().width() + chat.minimumSizeHint().width()
    qtbot.waitUntil(lambda: win.kb_dock.isVisible() and win.minimumWidth() >= beside)  # the panel counted
    qtbot.waitUntil(lambda: win.kb_dock.width() >= win.kb_dock.minimumSizeHint().width()
                    and not win.sidebar.isVisible())
    assert win.width() == 1024 and win.minimumWidth() <= 1024 - 200  # and room to spare
    assert chat.width() >= win.fontMetrics().averageCharWidth() * 40  # the chat, not the list, has the room
    hint = win.view.findChild(QLabel, "emptyHint")
    assert hint.isVisible() and hint.height() >= hint.heightForWidth(hint.width())  # all its lines in sight


class _Counter(QObject):
    """Counts the events of one type its watched objects receive."""

    def __init__(self, seen: list, kind: QEvent.Type) -> None:
        super().__init__()
        self._seen, self._kind = seen, kind

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == self._kind:
            self._seen.append(watched)
        return False


def _settings_on(monkeypatch, make_window, server, qtbot, free: QRect):
    """The settings dialog, opened at 18 pt on a screen whose free area is ``free``."""
    from tinyrag_desktop.ui import settings_dialog

    monkeypatch.setattr(settings_dialog, "free_area", lambda _widget=None: free)
    win = make_window(server.base_url)
    dialog = win.open_settings()
    qtbot.waitExposed(dialog)
    return dialog


def test_settings_at_18_pt_open_as_wide_as_their_fields_need(big_text, make_window, server, qtbot, monkeypatch):
    # On 1,024×600 it opened 682 px wide for fields that needed 811: "connection & load mo" cut on both sides,
    # the Temperature box past the page's edge, the Personas tab behind the tab bar's arrows.
    dialog = _settings_on(monkeypatch, make_window, server, qtbot, QRect(0, 0, 1024, 600))
    assert dialog.width() <= 1024 - 16 and dialog.height() <= 600 - 48
    bar = dialog._tabs.tabBar()
    assert bar.width() >= bar.sizeHint().width()  # every tab in sight, no scroll arrows
    for index in range(dialog._tabs.count()):
        dialog._tabs.setCurrentIndex(index)
        page = dialog._tabs.currentWidget()
        qtbot.waitUntil(lambda p=page: p.widget().width() >= p.wanted().width()  # whole, and nothing to scroll
                        and not p.horizontalScrollBar().isVisible() and not p.verticalScrollBar().isVisible())
        keep_picture(dialog, f"settings-18pt-{index}.png")
    button = dialog.test_button
    assert button.width() >= button.sizeHint().width()
    temperature = dialog.field("temperature")
    page = temperature.parentWidget()
    assert temperature.mapTo(page, temperature.rect().topRight()).x() < page.width()
    dialog.reject()


def test_on_a_screen_too_small_for_them_the_settings_scroll_rather_than_cut(big_text, make_window, server, qtbot,
                                                                          monkeypatch):
    dialog = _settings_on(monkeypatch, make_window, server, qtbot, QRect(0, 0, 640, 400))
    assert dialog.width() <= 640 - 16 and dialog.height() <= 400 - 48
    page = dialog._tabs.currentWidget()
    qtbot.waitUntil(lambda: page.horizontalScrollBar().maximum() > 0)  # the fields scroll into sight
    assert page.widget().width() >= page.wanted().width()  # whole, not squeezed
    assert dialog.test_button.width() >= dialog.test_button.sizeHint().width()
    temperature = dialog.field("temperature")  # below the page's bottom: Tab to it scrolls it into sight
    dialog.field("base_url").setFocus()
    for _ in range(12):
        if dialog.focusWidget() is temperature:
            break
        QTest.keyClick(dialog.focusWidget(), Qt.Key.Key_Tab)
    assert dialog.focusWidget() is temperature
    viewport = page.viewport()
    qtbot.waitUntil(lambda: viewport.rect().contains(temperature.mapTo(viewport, temperature.rect().bottomLeft())))
    keep_picture(dialog, "settings-18pt-small.png")
    dialog.reject()


def test_settings_grown_for_long_reasons_stay_on_the_screen(big_text, make_window, server, qtbot, monkeypatch):
    # Placed over the window at its first size, the dialog grew down for eight reasons past the screen's bottom.
    free = QRect(0, 0, 1024, 600)
    dialog = _settings_on(monkeypatch, make_window, server, qtbot, free)
    dialog.move(300, 200)
    dialog.show_tab("Limits")
    for name in ("max_tools_total", "max_tools_per_round", "max_continuations", "tool_timeout", "connect_timeout",
                 "first_token_timeout", "result_max_chars", "context_tokens"):
        dialog.field(name).setText("-5")
    qtbot.waitUntil(lambda: dialog.width() > 900 and not dialog._fit_timer.isActive())
    qtbot.waitUntil(lambda: free.contains(dialog.frameGeometry()))
    page = dialog._tabs.currentWidget()
    assert page.verticalScrollBar().isVisible()  # the rest scrolls into sight
    keep_picture(dialog, "settings-18pt-limits.png")
    dialog.reject()


def test_ctrl_b_beside_the_docked_panel_closes_the_panel_rather_than_widen_the_window_past_the_screen(
        text_20pt, make_window, server, qtbot):
    # At 200 % the window grew from 1,500 to 1,640 px on a 1,600 px screen: the panel's Delete button and
    # columns past its edge. At 20 pt the list, the chat and the panel need more than the 800 px screen here.
    win = make_window(server.base_url)
    screen = win.screen().availableGeometry()
    win.resize(750, 700)
    qtbot.waitUntil(lambda: win.width() == 750)
    win.kb_dock.show()
    qtbot.waitUntil(lambda: win.kb_dock.isVisible() and not win.sidebar.isVisible())
    win.menus.show_sidebar.trigger()  # Ctrl+B
    qtbot.waitUntil(lambda: win.sidebar.isVisible() and not win.kb_dock.isVisible())
    qtbot.waitUntil(lambda: win.minimumWidth() < 750)  # the panel's room no longer asked for
    assert screen.contains(win.frameGeometry()), (win.frameGeometry(), screen)
    assert win.menus.show_sidebar.isChecked()
    assert win.statusBar().currentMessage() == "The knowledge base panel was closed to make room for the chats list."
    keep_picture(win, "ctrl_b_no_room_20pt.png")
    qtbot.waitUntil(lambda: win.view.width() >= win.view.minimumSizeHint().width())  # the chat has its room
    win.kb_dock.toggleViewAction().trigger()  # View → Knowledge base again: now the list folds
    qtbot.waitUntil(lambda: win.kb_dock.isVisible() and not win.sidebar.isVisible())
    assert screen.contains(win.frameGeometry())
