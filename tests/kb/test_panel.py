"""The knowledge panel, offscreen: import off the GUI thread, list, search, delete, re-import, cancel, drop."""

from __future__ import annotations


import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui.kb_panel import KnowledgePanel, items_from_urls


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


def test_import_lists_sources_and_search_tab_finds_them(qtbot, panel, sample_dir):
    (sample_dir / "empty.md").write_bytes(b"")
    report = _import(qtbot, panel, [str(sample_dir)])
    assert len(report.added) == 10
    assert panel.source_count() == 10
    titles = {panel.sources_view.topLevelItem(i).text(0) for i in range(10)}
    assert {"Volcano Facts", "Bread Guide", "Garden Handbook"} <= titles
    assert "10 added" in panel.status_label.text()
    assert "empty.md: the file is empty" in panel.status_label.text()
    assert not panel.progress_bar.isVisible()

    panel.tabs.setCurrentIndex(1)
    qtbot.keyClicks(panel.query_edit, "what feeds volcanic eruptions")
    qtbot.mouseClick(panel.findChild(type(panel.cancel_button), "kbSearch"), Qt.MouseButton.LeftButton)
    first = panel.results.item(0)
    assert first.text().startswith("[1] Volcano Facts > Volcanoes")
    assert first.data(Qt.ItemDataRole.UserRole) == str(sample_dir / "page.html")


def test_delete_and_reimport_selected(qtbot, panel, sample_dir):
    _import(qtbot, panel, [str(sample_dir / "guide.md"), str(sample_dir / "notes.txt")])
    assert panel.source_count() == 2
    panel.sources_view.topLevelItem(0).setSelected(True)
    with qtbot.waitSignal(panel.importFinished, timeout=60_000) as blocker:
        assert panel.reimport_selected()
    assert len(blocker.args[0].updated) == 1
    panel.sources_view.topLevelItem(0).setSelected(True)
    with qtbot.waitSignal(panel.sourcesChanged):
        assert panel.delete_selected(confirm=False) == 1
    assert panel.source_count() == 1


def test_cancel_stops_between_sources(qtbot, panel, tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    for n in range(300):
        (folder / f"n{n}.txt").write_text(f"note {n} about herons " * 400, encoding="utf-8")
    with qtbot.waitSignal(panel.importFinished, timeout=120_000) as blocker:
        assert panel.import_items([str(folder)])
        assert not panel.import_items([str(folder)])  # one import at a time
        assert panel.cancel_button.isVisibleTo(panel)
        qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
    report = blocker.args[0]
    assert report.cancelled
    assert panel.source_count() == len(report.added) < 300


def test_drop_of_files_and_links_imports_them(qtbot, panel, sample_dir):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(sample_dir / "notes.txt"))])
    event = QDropEvent(QPointF(5, 5), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(panel.importFinished, timeout=60_000):
        panel.dropEvent(event)
    assert panel.source_count() == 1
    items = items_from_urls([QUrl("https://example.org/a"), QUrl("ftp://x/y")])
    assert [(i.kind, i.value) for i in items] == [("url", "https://example.org/a")]
    assert [(i.kind, i.value) for i in items_from_urls([], "http://example.org/page more")] == [
        ("url", "http://example.org/page")]


def test_empty_panel(panel):
    assert panel.source_count() == 0
    panel.query_edit.setText("anything")
    assert panel.run_search() == 0
    assert panel.results.item(0).text() == "No passages match."
