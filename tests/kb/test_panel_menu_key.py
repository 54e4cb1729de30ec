"""The sources list's context menu from the keyboard (the Menu key, Shift+F10) is for the current row.

Qt gives the Menu key's menu event to the focused list at its current row in the list's own coordinates;
read as a right click's viewport point, the header's height put it on the row below (none for the last).
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QPoint, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu, QMessageBox

from tests.kb.test_panel import _import


def _titles(panel) -> list[str]:
    return [panel.sources_model.source(r.row()).title for r in panel.sources_view.selectionModel().selectedRows()]


def _shown_panel(qtbot, panel, sample_dir):
    _import(qtbot, panel, [str(sample_dir / n) for n in ("guide.md", "notes.txt", "data.csv")])
    panel.resize(520, 420)
    panel.show()
    qtbot.waitExposed(panel)
    _focus(qtbot, panel)
    return panel.sources_view


def _focus(qtbot, panel):
    """The window active and the list focused, as when the Menu key is pressed (a menu closed offscreen
    leaves no window active)."""
    if not panel.isActiveWindow():
        with qtbot.waitActive(panel):
            panel.activateWindow()
    panel.sources_view.setFocus()
    assert QApplication.focusWidget() is panel.sources_view


def _menu_key(panel) -> QMenu | None:
    """The Menu key as the platform delivers it: a keyboard context-menu event to the window, which Qt
    passes to the focus widget at its cursor rectangle."""
    event = QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, QPoint(0, 0), QPoint(0, 0))
    QApplication.sendEvent(panel.windowHandle(), event)
    return panel.findChild(QMenu, "kbSourceMenu")


def _make_current(view, row, flags=QItemSelectionModel.SelectionFlag.ClearAndSelect):
    view.selectionModel().setCurrentIndex(view.model().index(row, 0), flags | QItemSelectionModel.SelectionFlag.Rows)


def test_the_menu_key_opens_the_menu_of_the_current_row_on_every_row(qtbot, panel, sample_dir):
    view = _shown_panel(qtbot, panel, sample_dir)
    for row in range(3):  # the last row too: it had no menu at all
        _make_current(view, row)
        title = panel.sources_model.source(row).title
        menu = _menu_key(panel)
        assert menu is not None, f"no menu for row {row}"
        assert _titles(panel) == [title] and view.currentIndex().row() == row
        # over the row it is for
        assert view.viewport().rect().contains(view.viewport().mapFromGlobal(menu.pos()))
        menu.close()
        qtbot.waitUntil(lambda: panel.findChild(QMenu, "kbSourceMenu") is None)
        _focus(qtbot, panel)


def test_the_menu_key_on_a_current_row_outside_the_selection_acts_on_that_row(qtbot, panel, sample_dir):
    view = _shown_panel(qtbot, panel, sample_dir)
    _make_current(view, 0)
    _make_current(view, 2, QItemSelectionModel.SelectionFlag.NoUpdate)  # Ctrl+Down: current moved, selection kept
    menu = _menu_key(panel)
    assert menu is not None and _titles(panel) == [panel.sources_model.source(2).title]
    menu.close()


def test_delete_from_the_menu_key_removes_the_current_source_not_its_neighbour(qtbot, panel, sample_dir,
                                                                                monkeypatch):
    view = _shown_panel(qtbot, panel, sample_dir)
    _make_current(view, 0)
    doomed = panel.sources_model.source(0).title
    kept = {panel.sources_model.source(r).title for r in (1, 2)}
    menu = _menu_key(panel)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    delete = next(a for a in menu.actions() if a.text() == "Delete…")
    with qtbot.waitSignal(panel.deleteFinished) as deleted:
        delete.trigger()
    assert deleted.args == [1]
    left = {panel.sources_model.source(r).title for r in range(panel.sources_model.rowCount())}
    assert left == kept and doomed not in left


def test_shift_f10_opens_the_same_menu(qtbot, panel, sample_dir):
    view = _shown_panel(qtbot, panel, sample_dir)
    _make_current(view, 1)
    QTest.keyClick(view, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    menu = panel.findChild(QMenu, "kbSourceMenu")
    assert menu is not None and _titles(panel) == [panel.sources_model.source(1).title]
    menu.close()


def test_a_right_click_still_opens_the_menu_of_the_row_under_the_mouse(qtbot, panel, sample_dir):
    view = _shown_panel(qtbot, panel, sample_dir)
    _make_current(view, 0)
    at = view.visualRect(view.model().index(2, 0)).center()
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, at, view.viewport().mapToGlobal(at))
    QApplication.sendEvent(view.viewport(), event)
    menu = panel.findChild(QMenu, "kbSourceMenu")
    assert menu is not None and _titles(panel) == [panel.sources_model.source(2).title]
    menu.close()
