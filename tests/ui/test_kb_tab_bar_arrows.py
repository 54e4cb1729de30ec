"""The keyboard on the knowledge panel's tabs: the arrow keys on the tab bar go back and forth (Right to Search
pulled the keyboard into the box, so Left moved the caret and never came back to Sources), and results the
keyboard is in stay as they are when an import ends (searched again, the passage being read was lost)."""
from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.ui.test_kb_panel_window import _locations_found, _make_current, _write, kb_window  # noqa: F401 - the fixture
from tests.ui.conftest import wait_until


def test_arrows_on_the_tab_bar_go_back_and_forth(kb_window, qtbot, qloop):  # noqa: F811
    win, panel, _ = kb_window
    win.activateWindow()
    bar = panel.tabs.tabBar()
    bar.setFocus(Qt.FocusReason.TabFocusReason)
    qloop.run(wait_until(lambda: QApplication.focusWidget() is bar))
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Right)
    assert panel.tabs.currentIndex() == 1
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Left)
    assert panel.tabs.currentIndex() == 0, f"focus went to {QApplication.focusWidget().objectName()}"


def _reading_the_results(kb_window, qtbot, qloop):  # noqa: F811
    """The panel's Search tab, its results for "herons" found and the keyboard in them."""
    win, panel, _ = kb_window
    panel.tabs.setCurrentIndex(1)
    with qtbot.waitSignal(panel.searchFinished):
        panel.run_search("herons")
    win.activateWindow()
    panel.results.setFocus()
    qloop.run(wait_until(panel.results.hasFocus))
    return panel


def test_an_import_that_ends_while_the_keyboard_reads_the_results_leaves_them(kb_window, qtbot, qloop, tmp_path):  # noqa: F811
    panel = _reading_the_results(kb_window, qtbot, qloop)
    panel.results.setCurrentRow(1)
    reading = panel.results.currentItem().data(Qt.ItemDataRole.UserRole)
    searches = []
    panel.searchFinished.connect(searches.append)
    with qtbot.waitSignal(panel.importFinished, timeout=20_000):
        assert panel.import_items(_write(tmp_path / "more", ["delta"]))
    qloop.run(asyncio.sleep(0.5))  # a search again would have ended by now
    assert searches == []
    assert panel.results.hasFocus() and panel.results.currentRow() == 1
    assert panel.results.currentItem().data(Qt.ItemDataRole.UserRole) == reading


def test_a_source_deleted_while_the_keyboard_reads_the_results_goes_from_them_as_it_leaves(kb_window, qtbot, qloop):  # noqa: F811
    # The results the keyboard was in when a Delete ended went on listing the deleted source once it left them,
    # and opened it as if it were still there.
    panel = _reading_the_results(kb_window, qtbot, qloop)
    panel.sources_view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    _make_current(panel.sources_view, 1)  # beta
    gone = panel.sources_model.source(1).location
    assert gone in _locations_found(panel)
    searches = []
    panel.searchFinished.connect(searches.append)
    with qtbot.waitSignal(panel.deleteFinished, timeout=20_000):
        assert panel.delete_selected(confirm=False)
    qloop.run(asyncio.sleep(0.3))
    assert searches == [] and panel.results.hasFocus()  # the passage being read stays while it is read
    with qtbot.waitSignal(panel.searchFinished, timeout=20_000) as again:
        panel.query_edit.setFocus(Qt.FocusReason.TabFocusReason)
    assert again.args[0] == 2 and gone not in _locations_found(panel)
