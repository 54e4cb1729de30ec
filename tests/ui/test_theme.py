"""The chrome style sheets: every @colour filled in, every icon they name present."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tinyrag_desktop.ui.theme import style_sheet


@pytest.mark.parametrize("dark", [False, True])
def test_style_sheets_are_complete_and_their_icons_exist(dark):
    sheet = re.sub(r"/\*.*?\*/", "", style_sheet(dark), flags=re.S)  # comments may say "@names"
    assert re.findall(r"@\w+", sheet) == []
    icons = re.findall(r"url\(([^)]*)\)", sheet)
    assert icons and all(Path(icon).is_file() for icon in icons)
    assert all(("-dark." in icon) == dark for icon in icons)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_scroll_bars_of_the_chat_list_and_the_message_box_have_no_black_track(make_window, theme):
    from PySide6.QtGui import QColor

    win = make_window("http://127.0.0.1:9/v1", theme=theme)
    for i in range(80):
        win.store.new_chat(title=f"Chat {i}")
    win._refresh_chats()
    win.composer.setPlainText("a line\n" * 40)
    for area in (win.sidebar.list, win.composer):
        bar = area.verticalScrollBar()
        bar.setValue(bar.minimum())  # the handle at the top: the track is the rest of the bar
        win.repaint()
        image = win.grab().toImage()
        top_left = bar.mapTo(win, bar.rect().topLeft())
        x, y0 = top_left.x() + bar.width() // 2, top_left.y() + bar.height() // 2
        track = [QColor(image.pixel(x, y)) for y in range(y0, y0 + bar.height() // 3)]
        assert bar.isVisible() and all(c.lightness() > 20 for c in track), (area.objectName(), track[0].name())
