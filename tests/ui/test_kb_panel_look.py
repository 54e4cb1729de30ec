"""The knowledge panel as drawn: whole column names beside short titles, rows with room around their text, the
dock's float and close buttons at full size and dark enough to see, and an empty Search tab that says what it
is for. Each measured on the laid-out widgets or their pixels."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QAbstractButton

from tests.ui.conftest import wait_until
from tinyrag_desktop.kb import Importer, open_store

from .test_focus import contrast


@pytest.fixture
def panel_window(make_window, server, qloop, tmp_path):
    """A window over twelve short-titled notes ("Note 0" to "Note 11"), its panel open and listed."""
    data, docs = tmp_path / "data", tmp_path / "docs"
    docs.mkdir()
    for n in range(12):
        (docs / f"note-{n}.md").write_text(f"# Note {n}\n\nThe engine streams tokens.\n", encoding="utf-8")
    with open_store(data) as kb:
        assert not Importer(kb).run([str(p) for p in sorted(docs.iterdir())]).failed
    win = make_window(server.base_url, data_dir=data)
    win.resize(1200, 820)
    win.kb_dock.show()
    panel = win.kb_dock.widget()
    qloop.run(wait_until(lambda: panel.isVisible() and panel.source_count() == 12))
    return win, panel


def test_column_names_are_whole_beside_short_titles(panel_window, qloop):
    # The titles kept half the list whatever they needed: "Note 11" beside "Pass…" (and "P" at 800 px).
    win, panel = panel_window
    view = panel.sources_view
    header = view.header()
    for width in (1200, 800):
        win.resize(width, 600)
        qloop.run(wait_until(lambda: win.width() == width and view.viewport().width() > 0))
        header.resizeSections()
        for column in range(1, header.count()):
            if column != 4:  # Vectors: no embedding model set
                assert not header.isSectionHidden(column)  # short titles leave room for every column
                name = str(view.model().headerData(column, header.orientation()))
                whole = header.sectionSizeFromContents(column).width()
                assert header.sectionSize(column) >= whole, (width, name, header.sectionSize(column), whole)
        assert header.sectionSize(0) >= view.widest_title()  # and every title whole too


def test_rows_have_room_above_and_below_their_text(panel_window):
    # Rows were as tall as their letters, 14 px: the list read as one block of text.
    _win, panel = panel_window
    view = panel.sources_view
    assert view.rowHeight(view.model().index(0, 0)) >= view.fontMetrics().height() + 6


def test_the_docks_buttons_are_full_size_and_dark_enough_to_see(panel_window):
    # Fusion drew their icons at 10 px at most: 8-px marks in pale grey, 18x10 buttons.
    win, _panel = panel_window
    buttons = [b for b in win.kb_dock.findChildren(QAbstractButton)
               if b.objectName() in ("qt_dockwidget_closebutton", "qt_dockwidget_floatbutton")]
    assert len(buttons) == 2
    background = win.kb_dock.palette().color(QPalette.ColorRole.Window)
    for button in buttons:
        assert button.height() >= 16 and button.width() >= 16, (button.objectName(), button.size())
        image = button.grab().toImage()
        inked = [QColor(image.pixel(x, y)) for x in range(image.width()) for y in range(image.height())]
        strong = [c for c in inked if contrast(c, background) >= 4.5]
        assert len(strong) >= 12, (button.objectName(), len(strong))  # a mark, not a few grey specks


def test_the_empty_search_tab_says_what_it_is_for(panel_window, qloop):
    # A blank box under the question line; the Sources tab says how to add sources.
    _win, panel = panel_window
    panel.tabs.setCurrentIndex(1)
    results = panel.results
    qloop.run(wait_until(lambda: results.isVisible() and results.viewport().height() > 0))
    assert results.count() == 0
    image = results.viewport().grab().toImage()
    hint = results.palette().color(QPalette.ColorRole.PlaceholderText)
    base = results.palette().color(QPalette.ColorRole.Base)
    written = sum(1 for x in range(image.width()) for y in range(min(image.height(), 60))
                  if contrast(QColor(image.pixel(x, y)), base) >= 2.5)
    assert written > 200, written  # some words in the hint's colour at the top
    assert contrast(hint, base) >= 4.5
    assert "Type a question above" in panel._search_hint()
