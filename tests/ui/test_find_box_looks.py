"""The find-in-chat box looks like the Search chats box: rounded, its words in from the left border."""

from __future__ import annotations

import pytest


def _corner_and_edge(box):
    """The box's top-left pixel and the middle of its top edge, as drawn."""
    image = box.grab().toImage()
    return image.pixelColor(0, 0), image.pixelColor(image.width() // 2, 0)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_find_in_chat_is_rounded_and_padded_as_search_chats(make_window, server, qtbot, theme):
    # It was square, with "needle3" against its left border, beside the rounded, padded Search chats box.
    win = make_window(server.base_url, theme=theme)
    win.find_bar.open_bar()
    find, search = win.find_bar.box, win.sidebar.search
    qtbot.waitUntil(find.isVisible)
    assert find.cursorRect().left() == search.cursorRect().left()  # where the words start
    assert find.height() == search.height()
    for box in (find, search):
        corner, edge = _corner_and_edge(box)
        assert corner != edge, (box.objectName(), corner.name(), edge.name())  # a rounded corner, no border
