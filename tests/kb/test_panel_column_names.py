"""The sources list's column names are drawn whole, or their column is left out: docked at its narrowest
beside thirty sources the header read "Title, Type, P…, Im…" and the titles "Pytho…s New"; at 384 px
"Pass…", "Import… ▲", "Vect…"; at 18 pt the titles were "…" and the Vectors column ran off the list's edge
("r" of "no", under a sideways scroll bar). What a row's left-out columns say is in its title's tooltip."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QStyle, QStyleOptionHeader

from tests.kb.test_panel_columns import _LONG
from tests.kb.test_panel_scale import _fill
from tinyrag_desktop.ui.kb_sources_view import TITLES_LEAST

_TITLES = [_LONG, "Python 3.11 What's New", "SQLite FTS5 Extension", "Great blue heron", "notes.txt"] + [
    f"Shipping handbook part {n}" for n in range(1, 26)]


@pytest.fixture(params=[0, 18], ids=["usual text", "18 pt"])
def text_size(request, qapp):
    before = QFont(qapp.font())
    if request.param:
        font = QFont(before)
        font.setPointSize(request.param)
        qapp.setFont(font)
    yield request.param
    qapp.setFont(before)


@pytest.fixture
def make_panel(qtbot, data_dir):
    from tinyrag_desktop.settings import defaults
    from tinyrag_desktop.ui.kb_panel import KnowledgePanel

    made = []

    def make(embed_model: str = ""):
        panel = KnowledgePanel(data_dir, lambda: defaults().replace(embed_model=embed_model))
        qtbot.add_widget(panel)
        made.append(panel)
        return panel

    yield make
    for panel in made:
        panel.shutdown()


def _drawn_name(header, column: int) -> str:
    """A column's name as the header paints it in its section (cut with "…" where it has no room)."""
    option = QStyleOptionHeader()
    header.initStyleOptionForIndex(option, column)
    option.rect = QRect(0, 0, header.sectionSize(column), header.height())
    label = header.style().subElementRect(QStyle.SubElement.SE_HeaderLabel, option, header)
    return header.fontMetrics().elidedText(option.text, Qt.TextElideMode.ElideRight, label.width())


def _shown(view) -> list[int]:
    return [column for column in range(view.model().columnCount()) if not view.isColumnHidden(column)]


def _listed(qtbot, panel, width: int | None):
    panel.resize(width or panel.minimumSizeHint().width(), 700)  # None: as narrow as it docks
    panel.show()
    qtbot.waitExposed(panel)
    view = panel.sources_view
    qtbot.waitUntil(lambda: view.model().rowCount() == len(_TITLES) and view.layouts > 0)
    qtbot.waitUntil(lambda: sum(view.columnWidth(c) for c in _shown(view)) == view.viewport().width())
    return view


@pytest.mark.parametrize("embed_model", ["", "toy-embed"], ids=["no vectors", "vectors"])
@pytest.mark.parametrize("width", [None, 384, 900], ids=["narrowest", "384", "900"])
def test_every_name_is_whole_and_the_titles_keep_their_room(qtbot, make_panel, data_dir, text_size, embed_model,
                                                            width):
    _fill(data_dir, _TITLES, type="markdown", chunks=12)
    panel = make_panel(embed_model)
    view = _listed(qtbot, panel, width)
    header, model = view.header(), view.model()
    shown = _shown(view)
    for column in shown:
        name = model.headerData(column, Qt.Orientation.Horizontal)
        assert _drawn_name(header, column) == name, (shown, [header.sectionSize(c) for c in shown])
        if column:
            assert header.sectionSize(column) >= view.sizeHintForColumn(column)  # its cells whole too
    assert not view.horizontalScrollBar().isVisible()  # nothing runs off the list's edge
    assert header.sectionSize(0) >= min(view.widest_title(), int(view.viewport().width() * TITLES_LEAST))
    if not text_size:  # the arrow says the order (at 18 pt, below 900 px, the titles alone: see left_out)
        assert header.sortIndicatorSection() in shown
    if 3 not in shown:
        assert header.sectionSize(0) == view.viewport().width()
    offered = [1, 2, 3, 4] if embed_model else [1, 2, 3]
    left_out = {column for column in offered if column not in shown} - {3}  # (Imported: sorted by)
    assert left_out == set([2, 1, 4][:len(left_out)])  # Passages first, then Type, then Vectors
    if width == 900 and not text_size:
        assert not left_out


def test_sorted_by_a_column_the_narrow_list_keeps_it(qtbot, make_panel, data_dir):
    _fill(data_dir, _TITLES, type="markdown", chunks=12)
    view = _listed(qtbot, make_panel(), None)
    assert 2 not in _shown(view)  # Passages left out first
    view.sortByColumn(2, Qt.SortOrder.DescendingOrder)
    qtbot.waitUntil(lambda: 2 in _shown(view))
    assert _drawn_name(view.header(), 2) == "Passages"


def test_a_titles_tooltip_says_what_the_left_out_columns_would(qtbot, make_panel, data_dir):
    _fill(data_dir, _TITLES, type="markdown", chunks=12)
    view = _listed(qtbot, make_panel(), None)
    tip = view.model().index(0, 0).data(Qt.ItemDataRole.ToolTipRole)
    title, about, location = tip.split("\n")
    assert title == view.model().index(0, 0).data()
    assert about.startswith("Markdown · 12 passages · imported ")
    assert location.endswith(".txt")
    assert view.model().index(0, 0).data(Qt.ItemDataRole.AccessibleDescriptionRole) == about  # a screen reader's


def test_a_titles_tooltip_says_when_it_has_no_vectors(qtbot, make_panel, data_dir):
    _fill(data_dir, _TITLES, type="markdown", chunks=12)
    view = _listed(qtbot, make_panel("toy-embed"), None)
    assert 4 not in _shown(view)  # beside Imported, sorted by, no room for Vectors
    about = view.model().index(0, 0).data(Qt.ItemDataRole.ToolTipRole).split("\n")[1]
    assert about.endswith(" · no vectors: select it and Re-import to embed it")


def test_thirty_titles_of_one_length_are_whole_in_a_384_pixel_dock(qtbot, panel, data_dir):
    # "Shipping h…ook part 9" beside "Pass…", while Imported, sorted by, kept about 90 px over "22:14"
    _fill(data_dir, [f"Shipping handbook part {n}" for n in range(1, 31)], type="markdown", chunks=57)
    panel.resize(384, 760)
    panel.show()
    qtbot.waitExposed(panel)
    panel.refresh()
    view, header = panel.sources_view, panel.sources_view.header()
    qtbot.waitUntil(lambda: view.layouts > 0 and view.model().rowCount() == 30)
    assert header.sortIndicatorSection() == 3
    qtbot.waitUntil(lambda: header.sectionSize(0) >= view.sizeHintForColumn(0))  # "Shipping handbook part 30"
    assert all(_drawn_name(header, c) == view.model().headerData(c, Qt.Orientation.Horizontal) for c in _shown(view))
