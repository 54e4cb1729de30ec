"""ux31's contrast findings, measured on the drawn pixels: white on Send and New chat, the message box's
placeholder and the chats list's day headings reach 4.5:1; so do the grey words found under the open chat's
title and a code block's language label, in both themes."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from tests.sse_server import Stream
from tinyrag_desktop.ui import theme as themes
from tinyrag_desktop.ui.markdown_render import DARK, LIGHT

from .conftest import ask_and_wait, tokens
from .test_focus import contrast


def _darkest(image, rect) -> QColor:
    """The pixel in ``rect`` furthest from its top-left one (the ink of the text drawn there)."""
    back = image.pixelColor(rect.left(), rect.top())
    best, far = back, -1
    for y in range(rect.top(), rect.bottom()):
        for x in range(rect.left(), rect.right()):
            c = image.pixelColor(x, y)
            d = abs(c.red() - back.red()) + abs(c.green() - back.green()) + abs(c.blue() - back.blue())
            if d > far:
                best, far = c, d
    return best


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_white_on_send_and_new_chat_reads_at_4_5_to_1(make_window, server, theme):
    # Dark theme: white on #3b82f6 was 3.68:1.
    win = make_window(server.base_url, theme=theme)
    for button in (win.send_button, win.sidebar.new_button):
        image = button.grab().toImage()
        fill = image.pixelColor(int(6 * image.devicePixelRatio()), image.height() // 2)
        assert contrast(QColor("white"), fill) >= 4.5, (button.objectName(), fill.name())


def test_the_light_placeholder_and_day_headings_read_at_4_5_to_1(make_window, server, qloop):
    # The placeholder ("Enter sends, Shift+Enter for a new line") was about 3.2:1, "Today" 4.47:1.
    server.queue(Stream(tokens("ok")))
    win = make_window(server.base_url, theme="light")
    assert qloop.run(ask_and_wait(win, "Hello")) == "done"
    win.composer.clear()
    win.composer.setCursorWidth(0)  # its caret is black: not the placeholder's ink
    image = win.composer.viewport().grab().toImage()
    rect = image.rect().adjusted(0, 0, 0, -image.height() // 3)
    ink = _darkest(image, rect)
    assert contrast(ink, image.pixelColor(0, 0)) >= 4.5, ink.name()
    heading = win.sidebar.list.item(0)
    assert heading.text() == "Today"
    area = win.sidebar.list.visualItemRect(heading)
    shot = win.sidebar.list.viewport().grab(area).toImage()
    ink = _darkest(shot, shot.rect())
    assert contrast(ink, shot.pixelColor(0, 0)) >= 4.5, (ink.name(), shot.pixelColor(0, 0).name())


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_words_found_under_the_open_chats_title_stand_out_from_its_row(dark):
    # Drawn in the muted colour on the selected row: 4.28:1 in the light theme, 4.43:1 in the dark one.
    selected = QColor(themes._variables("dark" if dark else "light")["@select"])
    for background in (selected, themes._colors(dark).bg):
        assert contrast(themes._colors(dark).muted, background) >= 4.5, background.name()


@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
def test_a_code_blocks_language_label_and_output_notes_stand_out_from_their_block(palette):
    # The label was #6b7280 on #f4f6f9 in the light theme: 4.47:1.
    for background in (palette.code_bg, palette.output_bg):
        assert contrast(QColor(palette.muted), QColor(background)) >= 4.5, background
