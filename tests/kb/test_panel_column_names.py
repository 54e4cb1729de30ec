"""The sources list's column names are never cut to a lone letter: "P…" was all of Passages at the default
window (1200 x 750, a 384 px panel) beside a long title."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QStyle

from tests.kb.test_panel_columns import _LONG
from tests.kb.test_panel_scale import _fill

SHOTS = Path("/tmp/kbpanel36")


def _stem_room(header, name: str) -> int:
    """What the header needs to draw ``name`` cut to its first four letters ("Pass…"), or whole if shorter."""
    margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    metrics = header.fontMetrics()
    return min(metrics.horizontalAdvance(name), metrics.horizontalAdvance(name[:4] + "…")) + 2 * margin


@pytest.mark.parametrize("kind", ["text", "markdown"])  # Markdown: the Type column as wide as its cells
def test_beside_a_long_title_each_name_keeps_its_first_letters(qtbot, panel, data_dir, kind):
    _fill(data_dir, [_LONG, "short note", "Team Handbook"], type=kind, chunks=42)
    panel.resize(384, 400)
    panel.show()
    qtbot.waitExposed(panel)
    panel.refresh()
    view, header = panel.sources_view, panel.sources_view.header()
    qtbot.waitUntil(lambda: view.layouts > 0 and view.sizeHintForColumn(0) > view.viewport().width())
    header.resizeSections()  # as the rows' layout does
    if SHOTS.is_dir():
        panel.grab().save(str(SHOTS / f"column_names_{kind}.png"))
    for column in (1, 2, 3):
        name = panel.sources_model.HEADERS[column]
        assert header.sectionSize(column) >= _stem_room(header, name), name
    # the titles still keep much of the list: a name is cut before a title is
    from tinyrag_desktop.ui.kb_sources_view import TITLES_LEAST

    assert header.sectionSize(0) >= int(view.viewport().width() * TITLES_LEAST)


def test_the_column_sorted_by_gives_up_its_whole_name_before_the_titles_are_cut(qtbot, panel, data_dir):
    # 30 titles of one length: "Shipping h…ook part 9" beside "Pass…", while Imported, sorted by, kept about
    # 90 px for its whole name and arrow over "22:14"
    _fill(data_dir, [f"Shipping handbook part {n}" for n in range(1, 31)], type="markdown", chunks=57)
    panel.resize(384, 760)
    panel.show()
    qtbot.waitExposed(panel)
    panel.refresh()
    view, header = panel.sources_view, panel.sources_view.header()
    qtbot.waitUntil(lambda: view.layouts > 0 and view.model().rowCount() == 30)
    header.resizeSections()
    if SHOTS.is_dir():
        panel.grab().save(str(SHOTS / "sorted_column_gives_way.png"))
    assert header.sortIndicatorSection() == 3
    wanted = view.sizeHintForColumn(0)
    assert header.sectionSize(0) >= wanted  # "Shipping handbook part 30" whole
