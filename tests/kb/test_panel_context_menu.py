"""The sources list's context menu: a right click offers what the buttons and a double click do."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMenu, QMessageBox

from tests.kb.test_panel import _import, _select, _text


def _menu_at(qtbot, panel, row):
    """The menu a right click on ``row`` opens."""
    view = panel.sources_view
    pos = view.visualRect(view.model().index(row, 0)).center()
    assert view.contextMenuPolicy() == Qt.ContextMenuPolicy.CustomContextMenu  # a right click did nothing
    view.customContextMenuRequested.emit(pos)
    menu = panel.findChild(QMenu, "kbSourceMenu")
    assert menu is not None
    return menu


def _actions(menu):
    return {a.text(): a for a in menu.actions() if not a.isSeparator()}


def test_a_right_click_offers_open_copy_reimport_and_delete(qtbot, panel, sample_dir, monkeypatch):
    _import(qtbot, panel, [str(sample_dir / "guide.md"), str(sample_dir / "notes.txt")])
    panel.show()
    qtbot.waitExposed(panel)
    opened = []
    monkeypatch.setattr(panel, "_open", opened.append)
    row = next(r for r in range(2) if _text(panel.sources_view, r) == "Bread Guide")
    menu = _menu_at(qtbot, panel, row)
    actions = _actions(menu)
    assert list(actions) == ["Open", "Copy location", "Re-import", "Delete…"]
    # the row right-clicked is the one acted on, selected as a click would
    assert [panel.sources_model.source(r.row()).title for r in panel.sources_view.selectionModel().selectedRows()] \
        == ["Bread Guide"]
    actions["Open"].trigger()
    assert opened == [str(sample_dir / "guide.md")]
    actions["Copy location"].trigger()
    assert QApplication.clipboard().text() == str(sample_dir / "guide.md")
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    with qtbot.waitSignal(panel.deleteFinished) as deleted:
        actions["Delete…"].trigger()
    assert deleted.args == [1] and _text(panel.sources_view, 0) != "Bread Guide"
    menu.close()


def test_a_right_click_inside_a_selection_acts_on_all_of_it(qtbot, panel, sample_dir):
    _import(qtbot, panel, [str(sample_dir / "guide.md"), str(sample_dir / "notes.txt")])
    panel.show()
    qtbot.waitExposed(panel)
    panel.sources_view.selectAll()
    menu = _menu_at(qtbot, panel, 1)
    actions = _actions(menu)
    assert "Open" not in actions  # one source opens; two would be a surprise
    assert len(panel.sources_view.selectionModel().selectedRows()) == 2
    actions["Copy locations"].trigger()
    assert sorted(QApplication.clipboard().text().split("\n")) == sorted(
        [str(sample_dir / "guide.md"), str(sample_dir / "notes.txt")])
    with qtbot.waitSignal(panel.importFinished, timeout=60_000) as finished:
        actions["Re-import"].trigger()
    assert len(finished.args[0].updated) == 2
    menu.close()


def test_no_menu_on_the_empty_list_or_while_an_import_runs(qtbot, panel, sample_dir):
    panel.show()
    qtbot.waitExposed(panel)
    panel.sources_view.customContextMenuRequested.emit(panel.sources_view.viewport().rect().center())
    assert panel.findChild(QMenu, "kbSourceMenu") is None
    _import(qtbot, panel, [str(sample_dir / "guide.md")])
    _select(panel.sources_view, 0)
    with qtbot.waitSignal(panel.importFinished, timeout=60_000):
        panel.import_items([str(sample_dir / "notes.txt")])
        menu = _menu_at(qtbot, panel, 0)
        actions = _actions(menu)
        assert actions["Open"].isEnabled() and actions["Copy location"].isEnabled()
        assert not actions["Re-import"].isEnabled() and not actions["Delete…"].isEnabled()
        menu.close()
