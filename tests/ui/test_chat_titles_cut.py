"""Chat titles too long for the list: two that would be cut to the same words are cut in their middle, so that
their ends tell them apart; the rest keep their beginning; every row's tooltip has the whole title."""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent
from PySide6.QtGui import QHelpEvent, QImage
from PySide6.QtWidgets import QApplication

from tinyrag_desktop.chats import ChatInfo
from tinyrag_desktop.ui.sidebar import ChatsSidebar

TWINS = ("Summarise the quarterly sales report for the board, first half",
         "Summarise the quarterly sales report for the board, second half")
LONG = "Explain how Python decorators work, with a small example of one that times a function"


def _sidebar(qtbot, titles, search: str = "") -> ChatsSidebar:
    side = ChatsSidebar()
    qtbot.add_widget(side)
    side.resize(240, 400)
    side.show()
    now = time.time()
    snippet = "…the words found" if search else ""
    side.set_chats([ChatInfo(str(n), title, "", now - n, now - n, snippet) for n, title in enumerate(titles)],
                   None, search)
    qtbot.waitExposed(side)
    return side


def _row(side: ChatsSidebar, chat_id: str) -> QImage:
    """A row as drawn, its title's line only."""
    rect = side.list.visualItemRect(side.item_for(chat_id))
    if "\n" in side.item_for(chat_id).text():  # a search hit: its title above the words found
        rect.setHeight(rect.height() // 2)
    rect.setWidth(min(rect.width(), side.list.viewport().width() - rect.left()))  # a row is as wide as its text
    return side.list.viewport().grab(rect).toImage()


def _ends_differ(a: QImage, b: QImage) -> tuple[bool, bool]:
    """Whether the left quarters of two row pictures differ, and whether the right quarters do."""
    part = a.width() // 4
    return a.copy(0, 0, part, a.height()) != b.copy(0, 0, part, b.height()), \
        a.copy(a.width() - part, 0, part, a.height()) != b.copy(b.width() - part, 0, part, b.height())


def test_titles_that_would_be_cut_alike_show_their_ends(qtbot, tmp_path) -> None:
    # "question number 24 about to…" : two titles differing only at their end were cut the same way.
    side = _sidebar(qtbot, [*TWINS, LONG])
    side.grab().save(str(tmp_path / "titles.png"))
    first, second = _row(side, "0"), _row(side, "1")
    assert first != second  # they read differently
    assert _ends_differ(first, second) == (False, True)  # the same start, different ends


def test_a_long_title_of_its_own_keeps_its_beginning(qtbot) -> None:
    alone = _sidebar(qtbot, [LONG, "Tea"])
    start = _row(alone, "0")
    # the same title beside the twins: it is cut as before, at its end
    beside = _sidebar(qtbot, [LONG, *TWINS])
    assert _row(beside, "0") == start
    metrics, width = alone.list.fontMetrics(), alone.list.viewport().width()
    assert metrics.horizontalAdvance(LONG) > width  # cut indeed


def test_search_hits_cut_their_titles_so_too(qtbot) -> None:
    side = _sidebar(qtbot, TWINS, search="summarise")
    assert _ends_differ(_row(side, "0"), _row(side, "1")) == (False, True)


def test_every_row_tells_its_whole_title_in_its_tooltip(qtbot) -> None:
    side = _sidebar(qtbot, TWINS)
    for chat_id, title in zip(("0", "1"), TWINS):
        item = side.item_for(chat_id)
        spot = side.list.visualItemRect(item).center()
        QApplication.sendEvent(side.list.viewport(),
                               QHelpEvent(QEvent.Type.ToolTip, spot, side.list.viewport().mapToGlobal(spot)))
        assert item.toolTip().split("\n")[0] == title
