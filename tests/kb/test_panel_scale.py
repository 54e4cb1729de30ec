"""The knowledge panel's sources list with many sources: what it reads to show them, widths, selection."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.kb.test_panel import _count, _select, _text
from tinyrag_desktop.kb import Chunk, open_store


def _fill(data_dir, titles, type="text", chunks=1):
    with open_store(data_dir) as kb:
        for title in titles:
            kb.replace_source(title=title, location=str(data_dir / f"{title}.txt"), type=type, size=10,
                              content_hash=title, chunks=[Chunk(title, f"{title} about herons")] * chunks,
                              load_id="test")


def _listed(qtbot, panel, width: int = 500, height: int = 300):
    """The panel shown ``width`` by ``height`` pixels, its list read again (after _fill); its sources view."""
    panel.resize(width, height)
    panel.show()
    qtbot.waitExposed(panel)
    panel.refresh()
    return panel.sources_view


def test_listing_thousands_of_sources_reads_only_the_rows_in_sight(qtbot, panel, data_dir, monkeypatch):
    # A QTreeWidget made an item per source, and the header measured 1,000 rows for its column widths:
    # 10,000 sources took a fifth of a second of the GUI thread to list and as long again to sort.
    from tinyrag_desktop.ui import kb_sources_view

    _fill(data_dir, [f"note {n:04d}" for n in range(3_000)])
    asked = set()
    data = kb_sources_view.SourcesModel.data
    monkeypatch.setattr(kb_sources_view.SourcesModel, "data", lambda self, index, role=0: (
        asked.add(index.row()), data(self, index, role))[1])
    panel.resize(500, 300)
    panel.show()
    qtbot.waitExposed(panel)
    panel.refresh()
    panel.sources_view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    panel.sources_view.viewport().repaint()
    assert _count(panel.sources_view) == 3_000
    assert 0 < len(asked) < 100, len(asked)


def test_a_long_type_scrolled_out_of_sight_still_fits_its_column(qtbot, panel, data_dir):
    _fill(data_dir, ["an article"], type="wikipedia")  # the oldest: at the bottom of the list
    _fill(data_dir, [f"note {n:02d}" for n in range(60)])
    panel.resize(500, 300)
    panel.show()
    qtbot.waitExposed(panel)
    panel.refresh()
    view = panel.sources_view
    assert _text(view, _count(view) - 1, 1) == "Wikipedia"
    assert not view.visualRect(view.model().index(_count(view) - 1, 1)).intersects(view.viewport().rect())
    qtbot.waitUntil(lambda: view.columnWidth(1) >= view.fontMetrics().horizontalAdvance("Wikipedia"))


def test_the_selection_follows_its_sources_through_a_sort_and_delete_takes_them(qtbot, panel, data_dir):
    _fill(data_dir, ["banana", "apple", "cherry", "date"])
    panel.refresh()
    view = panel.sources_view
    view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    _select(view, 1)  # banana
    _select(view, 2)  # cherry
    view.sortByColumn(0, Qt.SortOrder.DescendingOrder)
    picked = sorted(_text(view, index.row()) for index in view.selectionModel().selectedRows())
    assert picked == ["banana", "cherry"]
    with qtbot.waitSignal(panel.deleteFinished) as deleted:
        assert panel.delete_selected(confirm=False) == 2
    assert deleted.args == [2]
    assert sorted(_text(view, row) for row in range(_count(view))) == ["apple", "date"]


def test_an_invalid_index_reads_as_nothing(qtbot, panel, data_dir):
    from PySide6.QtCore import QModelIndex

    _fill(data_dir, ["banana"])
    panel.refresh()
    assert panel.sources_view.model().data(QModelIndex()) is None  # not the last row's title
