"""The sources list's columns in a wide dock, and the list once every source is deleted."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from tests.kb.test_panel_scale import _fill

SHOTS = Path("/tmp/kb32b")


def _shot(widget, name: str) -> None:
    if SHOTS.is_dir():
        widget.grab().save(str(SHOTS / name))


_LONG = ("Quarterly Operations Review of the Northern Distribution Centre Including Warehouse Staffing, Forklift "
         "Maintenance Schedules")


@pytest.mark.parametrize("width", [500, 700])
def test_a_long_title_does_not_cut_the_column_names_in_a_wide_dock(qtbot, panel, data_dir, width):
    _fill(data_dir, [_LONG, "short note", "a" * 200 + ".txt"])
    panel.resize(width, 400)
    panel.show()
    qtbot.waitExposed(panel)
    panel.refresh()
    view, header = panel.sources_view, panel.sources_view.header()
    names = panel.sources_model.HEADERS
    qtbot.waitUntil(lambda: view.layouts > 0 and view.sizeHintForColumn(0) > view.viewport().width())
    header.resizeSections()  # as the rows' layout does; waited on, the names were whole before it
    _shot(panel, f"test_columns_{width}.png")
    # "Pas…" at 700 pixels: the titles took all they wanted
    for column in (1, 2, 3):
        assert header.sectionSize(column) >= header.fontMetrics().horizontalAdvance(names[column]) + 8
    assert header.sectionSize(0) >= view.viewport().width() // 2  # the titles keep half the list
    assert header.sectionSize(0) == view.viewport().width() - sum(header.sectionSize(c) for c in (1, 2, 3))


def test_in_a_narrow_dock_the_titles_still_come_first(qtbot, panel, data_dir):
    _fill(data_dir, [_LONG, "short note"])
    panel.resize(384, 400)
    panel.show()
    qtbot.waitExposed(panel)
    panel.refresh()
    view, header = panel.sources_view, panel.sources_view.header()
    # a column is left out (see test_panel_column_names) before a title is cut to less than TITLES_LEAST
    from tinyrag_desktop.ui.kb_sources_view import TITLES_LEAST

    qtbot.waitUntil(lambda: view.layouts > 0 and header.sectionSize(0) >= view.viewport().width() * TITLES_LEAST)


def test_the_list_emptied_by_delete_is_shown_without_its_scroll_bar(qtbot, panel, data_dir):
    _fill(data_dir, [f"note {n:04d}" for n in range(3_000)])
    panel.resize(420, 500)
    panel.show()
    qtbot.waitExposed(panel)
    panel.refresh()
    view = panel.sources_view
    bar = view.verticalScrollBar()
    qtbot.waitUntil(bar.isVisible)
    view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    view.selectAll()
    with qtbot.waitSignal(panel.deleteFinished, timeout=60_000):
        panel.delete_selected(confirm=False)
    assert panel.source_count() == 0
    # At once, as the emptied list is first painted: Qt hides a bar whose range went to nothing in a queued
    # call, and the list was painted (and grabbed) with its bar before it ran
    view.executeDelayedItemsLayout()  # what its next paint does first
    assert not bar.isVisible()
    _shot(panel, "test_empty_after_delete.png")
    assert view.empty_text == view.EMPTY_TEXT
