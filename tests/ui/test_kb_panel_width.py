"""The knowledge panel's width: a share of the window until the user drags its edge, not what a small
window forced on it.

Opened in a 700 px window (about 300 px), then widened to 1,280 px, the panel stayed as narrow, its Title
column cut to "tiny…ting", and so it came back at the next start: a width the user never chose stuck.
"""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import QTreeView

from tinyrag_desktop.ui.dock_width import DOCK_MOST, DOCK_SHARE

from .conftest import drag_dock_edge, keep_picture, wait_until


def _share(width: int) -> int:
    return min(DOCK_MOST, int(width * DOCK_SHARE))


def _open_in(win, qloop, width: int):
    win.resize(width, 700)
    qloop.run(wait_until(lambda: win.width() == width))
    win.kb_dock.show()
    qloop.run(wait_until(lambda: win.kb_dock.isVisible()))
    qloop.run(asyncio.sleep(0.05))  # at its first width
    return win.kb_dock


def _title_column(dock) -> int:
    view = next(v for v in dock.findChildren(QTreeView) if v.isVisible())
    return view.header().sectionSize(0)


def test_the_panel_opened_in_a_narrow_window_grows_back_when_the_window_is_widened(make_window, server, qloop):
    win = make_window(server.base_url)
    dock = _open_in(win, qloop, 700)
    narrow = dock.width()
    assert narrow < _share(1280)
    win.resize(1280, 800)
    qloop.run(wait_until(lambda: win.width() == 1280 and dock.width() >= _share(1280) - 4))
    assert win.view.width() > 500  # the chat keeps its room
    qloop.run(wait_until(lambda: _title_column(dock) > 100))  # "tiny…ting" had 60 px
    keep_picture(win, "kb_700_to_1280.png")
    win.resize(700, 600)  # narrow again (as narrow as the chats list lets it): the panel gives way
    qloop.run(wait_until(lambda: win.width() < 800 and dock.width() <= narrow + 4))


def test_a_forced_width_is_not_kept_for_the_next_start_but_a_dragged_one_is(make_window, server, qloop, tmp_path):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    _open_in(win, qloop, 700)
    win.close()
    again = make_window(server.base_url, data_dir=data)
    again.resize(1280, 800)
    qloop.run(wait_until(lambda: again.kb_dock.isVisible() and again.width() == 1280))
    qloop.run(wait_until(lambda: again.kb_dock.width() >= _share(1280) - 4))
    assert again.kb_dock.width_keeper.chosen == 0

    qloop.run(drag_dock_edge(again, again.kb_dock, again.kb_dock.width() - 300))  # the user makes it 300 px
    qloop.run(wait_until(lambda: abs(again.kb_dock.width() - 300) <= 2))
    assert abs(again.kb_dock.width_keeper.chosen - 300) <= 2
    again.resize(1900, 800)  # a width chosen stays as the window grows
    qloop.run(wait_until(lambda: again.width() == 1900))
    qloop.run(asyncio.sleep(0.05))
    assert abs(again.kb_dock.width() - 300) <= 2
    again.close()
    third = make_window(server.base_url, data_dir=tmp_path / "data")
    third.resize(1900, 800)
    qloop.run(wait_until(lambda: third.kb_dock.isVisible() and third.width() == 1900))
    qloop.run(asyncio.sleep(0.05))
    assert abs(third.kb_dock.width() - 300) <= 2 and third.kb_dock.width_keeper.chosen


def test_a_dragged_width_squeezed_by_a_narrow_window_comes_back_when_it_is_wide_again(make_window, server, qloop):
    win = make_window(server.base_url)
    dock = _open_in(win, qloop, 1400)
    qloop.run(drag_dock_edge(win, dock, dock.width() - 560))  # wider than a small window can give it
    qloop.run(wait_until(lambda: abs(dock.width() - 560) <= 2))
    win.resize(800, 600)
    qloop.run(wait_until(lambda: win.width() == 800 and dock.width() < 500))
    win.resize(1400, 800)
    qloop.run(wait_until(lambda: win.width() == 1400 and abs(dock.width() - 560) <= 2))
