"""The knowledge panel as a person reads it: whole columns, every reason an import gives, opening sources."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QObject, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices

from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui.kb_panel import KnowledgePanel


@pytest.fixture
def panel(qtbot, data_dir):
    widget = KnowledgePanel(data_dir, lambda: defaults())
    qtbot.add_widget(widget)
    yield widget
    widget.shutdown()


def _import(qtbot, panel, items, **kwargs):
    with qtbot.waitSignal(panel.importFinished, timeout=60_000) as blocker:
        assert panel.import_items(items, **kwargs)
    return blocker.args[0]


@pytest.mark.parametrize("width", [380, 700])
def test_the_imported_column_is_whole_and_the_title_takes_the_room_left(qtbot, panel, sample_dir, width):
    _import(qtbot, panel, [str(sample_dir)])
    panel.resize(width, 500)
    panel.show()
    qtbot.waitExposed(panel)
    view, header = panel.sources_view, panel.sources_view.header()
    assert view.isColumnHidden(4)  # no embedding model: no Vectors column
    # With Vectors hidden, Imported was the last visible column and stretched like Title: half the spare
    # room at 700 pixels, and its date cut ("2026-11-30 15…") at 380.
    assert header.sectionSize(3) == view.sizeHintForColumn(3)
    used = sum(header.sectionSize(column) for column in range(4))
    assert used == view.viewport().width()
    assert header.sectionSize(0) > header.sectionSize(3) or width < 500
