"""The knowledge panel from the keyboard and at first sight: Delete, the empty list, its columns."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from tests.kb.test_panel import _count, _import, _select, _text


def test_the_delete_key_on_the_list_removes_the_selected_sources_after_asking(qtbot, panel, sample_dir, monkeypatch):
    _import(qtbot, panel, [str(sample_dir / "guide.md"), str(sample_dir / "notes.txt")])
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *args, **kwargs: (
        asked.append(args[2]), QMessageBox.StandardButton.Yes)[1])
    panel.show()
    qtbot.waitExposed(panel)
    view = panel.sources_view
    kept, gone = _text(view, 1), _text(view, 0)
    _select(view, 0)
    view.setFocus()
    with qtbot.waitSignal(panel.deleteFinished) as deleted:  # Delete did nothing: only the button removed
        qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert asked == [f"Remove “{gone}” from the knowledge base?\n\nThe file or page itself is not deleted."]
    assert deleted.args == [1] and _count(view) == 1 and _text(view, 0) == kept


def test_delete_in_the_search_box_stays_the_search_box_s(qtbot, panel, sample_dir, monkeypatch):
    _import(qtbot, panel, [str(sample_dir / "guide.md")])
    monkeypatch.setattr(QMessageBox, "question", _must_not_ask)
    panel.show()
    qtbot.waitExposed(panel)
    _select(panel.sources_view, 0)
    panel.tabs.setCurrentIndex(1)
    panel.query_edit.setText("bread")
    panel.query_edit.setFocus()
    panel.query_edit.setCursorPosition(0)
    qtbot.keyClick(panel.query_edit, Qt.Key.Key_Delete)
    assert panel.query_edit.text() == "read" and panel.source_count() == 1


def _must_not_ask(*args, **kwargs):
    raise AssertionError("asked to delete a source")


def test_an_empty_list_says_how_to_add_sources_and_shows_no_vectors_column(qtbot, panel):
    panel.resize(400, 400)
    panel.show()
    qtbot.waitExposed(panel)
    view = panel.sources_view
    assert _count(view) == 0
    assert view.isColumnHidden(4)  # no embedding model (it showed "Vectors" until the first import)
    image = view.viewport().grab().toImage()
    colours = {image.pixel(x, y) for x in range(0, image.width(), 2) for y in range(0, min(image.height(), 80))}
    assert len(colours) > 2  # words were drawn on the blank list (it was one colour: no hint what to do)


def test_enter_on_a_row_opens_its_source(qtbot, panel, sample_dir):
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QDesktopServices

    from tests.url_handler import OpenedUrls

    _import(qtbot, panel, [str(sample_dir / "guide.md")])
    handler = OpenedUrls()
    QDesktopServices.setUrlHandler("file", handler, "open")
    try:
        panel.show()
        qtbot.waitExposed(panel)
        view = panel.sources_view
        view.setFocus()
        view.setCurrentIndex(view.model().index(0, 0))
        qtbot.keyClick(view, Qt.Key.Key_Return)
        assert handler.addresses() == [QUrl.fromLocalFile(str(sample_dir / "guide.md")).toString()]
    finally:
        QDesktopServices.unsetUrlHandler("file")


def test_down_in_the_search_box_goes_to_the_first_passage_found(qtbot, panel, sample_dir):
    # As in the chats search box: Down did nothing here, and the list was reached only with Tab.
    from PySide6.QtWidgets import QApplication

    from tests.kb.test_panel import _search

    _import(qtbot, panel, [str(sample_dir)])
    panel.show()
    qtbot.waitExposed(panel)
    panel.tabs.setCurrentIndex(1)
    found = _search(qtbot, panel, "breda flour")  # a typo: its correction is said first, in a line not chosen
    assert found and not panel.results.item(0).flags() & Qt.ItemFlag.ItemIsEnabled
    panel.activateWindow()
    panel.query_edit.setFocus()
    qtbot.waitUntil(panel.query_edit.hasFocus)
    qtbot.keyClick(panel.query_edit, Qt.Key.Key_Down)
    assert QApplication.focusWidget() is panel.results
    assert panel.results.currentRow() == 1 and panel.results.currentItem().text().startswith("[1] ")
