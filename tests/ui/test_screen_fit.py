"""ux31's small-screen findings: the first window, the Keyboard shortcuts dialog and the settings' Test
connection button fit a small or scaled screen. The offscreen screen is 800×800: its free area is made
960×540, as a 1080p screen at 200 % has, where the app asks for it."""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QScrollArea

from tinyrag_desktop.ui import screen_fit
from tinyrag_desktop.ui.menus import shortcut_rows

SMALL = QRect(0, 0, 960, 540)  # 1920×1080 at 200 %


def _free() -> QRect:
    return SMALL


def test_the_first_window_fits_the_screen(qloop, server, tmp_path, monkeypatch):
    # It opened at 1180×780 whatever the screen: on 1366×768, or 960×540 at 200 %, the message box, Send and
    # the status bar were below the screen's edge.
    from tinyrag_desktop.settings import defaults
    from tinyrag_desktop.ui.main_window import MainWindow

    monkeypatch.setattr(screen_fit, "free_area", lambda _widget=None: SMALL)
    free = _free()
    win = MainWindow(tmp_path / "data", defaults().replace(base_url=server.base_url, network_tools=False))
    try:
        assert win.width() <= free.width() and win.height() <= free.height() - 40  # and room for a title bar
        assert win.width() >= 600 or win.width() == free.width() - 16
    finally:
        qloop.run(win.aclose())
        win.close()
        win.deleteLater()


def test_the_shortcuts_list_scrolls_and_its_close_button_is_on_the_screen(make_window, server, qloop, qtbot,
                                                                          monkeypatch):
    win = make_window(server.base_url)
    monkeypatch.setattr(screen_fit, "free_area", lambda _widget=None: SMALL)
    win.menus.shortcuts.trigger()
    dialog = win.findChild(QDialog, "shortcutsDialog")
    qtbot.waitExposed(dialog)
    free = _free()
    assert dialog.height() <= free.height() - 40, (dialog.size(), free)  # 604 px at 9 pt: past 540
    close = dialog.findChild(QDialogButtonBox)
    assert dialog.rect().contains(close.geometry())
    scroll = dialog.findChild(QScrollArea)
    assert scroll is not None and scroll.verticalScrollBar().maximum() > 0  # the rest is scrolled to
    assert dialog.focusWidget() is scroll  # the arrows and Page Down scroll it at once
    rows = dict(shortcut_rows(win.menus.all))
    assert rows["Bring back the chat just deleted, in the chats list"] == "Ctrl+Z"
    assert rows["Go to the start / end of the conversation"] == "Home / End"
    assert rows["Select all of the message you are reading"] == "Ctrl+A"
    dialog.reject()


def _ink_right(widget) -> int:
    """The x just right of the rightmost pixel drawn in ``widget`` other than its background colour."""
    image = widget.grab().toImage()
    background = image.pixel(0, 0)
    return max((x + 1 for x in range(image.width()) for y in range(0, image.height(), 2)
                if image.pixel(x, y) != background), default=0)


def test_the_shortcuts_show_every_group_without_scrolling_on_a_laptop_screen(make_window, server, qtbot,
                                                                             monkeypatch):
    # One column of 37 rows made the dialog 571×901: its list scrolled on a 1366×768 screen (and on the
    # 800-px review screen), the Window group out of sight, and "↑ in the empty message box" ended 7 px
    # from the scroll bar.
    win = make_window(server.base_url)
    monkeypatch.setattr(screen_fit, "free_area", lambda _widget=None: QRect(0, 0, 1366, 728))
    win.menus.shortcuts.trigger()
    dialog = win.findChild(QDialog, "shortcutsDialog")
    qtbot.waitExposed(dialog)
    scroll = dialog.findChild(QScrollArea)
    assert scroll.verticalScrollBar().maximum() == 0, dialog.size()  # every group in sight
    assert dialog.height() <= 728 - 48 and dialog.width() <= 1366 - 16
    assert scroll.widget().height() <= scroll.viewport().height()
    dialog.reject()
    monkeypatch.setattr(screen_fit, "free_area", lambda _widget=None: SMALL)  # too low: it scrolls
    win.menus.shortcuts.trigger()
    dialog = [d for d in win.findChildren(QDialog, "shortcutsDialog") if d.isVisible()][-1]
    qtbot.waitExposed(dialog)
    scroll = dialog.findChild(QScrollArea)
    assert scroll.verticalScrollBar().maximum() > 0 and dialog.width() <= SMALL.width() - 16
    assert _ink_right(scroll.widget()) <= scroll.viewport().width() - 12  # room before the scroll bar
    dialog.reject()


def test_test_connection_goes_under_the_model_box_rather_than_being_cut(make_window, server, qloop, qtbot):
    # With an 18 pt font on 1024×600 it was squeezed to "nnection & load r", cut on both sides.
    win = make_window(server.base_url)
    dialog = win.open_settings()
    big = QFont(dialog.font())
    big.setPointSize(18)
    dialog.setFont(big)
    dialog.resize(682, dialog.height())
    qtbot.waitExposed(dialog)
    button, model = dialog.test_button, dialog.field("chat_model")
    qtbot.waitUntil(lambda: button.width() >= button.sizeHint().width(), timeout=2000)
    assert button.geometry().top() >= model.geometry().bottom()  # under the box, whole
    dialog.resize(1600, dialog.height())  # room for both: side by side again
    qtbot.waitUntil(lambda: button.geometry().top() < model.geometry().bottom(), timeout=2000)
    dialog.reject()
