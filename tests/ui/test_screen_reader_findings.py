"""What Orca 43 found (review rev33b, AT-SPI under Xvfb), asked of Qt's accessibility offscreen: Tab leaves a
multi-line field; the knowledge panel's results, count, drop hint and sources' cells say what they are; a tool
card says it opened; the find bar's count is told."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QApplication, QWidget

from tests.sse_server import Stream

from .conftest import ask_and_wait, tokens


@pytest.fixture
def reader():
    """Qt's accessibility on, as with a screen reader."""
    was = QAccessible.isActive()
    QAccessible.setActive(True)
    yield
    QAccessible.setActive(was)


def _active(qtbot, win):
    with qtbot.waitActive(win):
        win.activateWindow()


def _multi_line_fields(widget):
    from PySide6.QtWidgets import QPlainTextEdit, QTextEdit

    return [w for kind in (QPlainTextEdit, QTextEdit) for w in widget.findChildren(kind)]


def test_tab_and_shift_tab_leave_every_multi_line_field_of_the_dialogs_and_type_no_tab(qtbot):
    # Tab in Settings → Personas' prompt typed a tab: a trap that changed the prompt.
    from tinyrag_desktop.settings import defaults
    from tinyrag_desktop.ui.confirm_dialog import ConfirmDialog
    from tinyrag_desktop.ui.settings_dialog import SettingsDialog

    settings, confirm = SettingsDialog(defaults()), ConfirmDialog("shell", "ls -la")
    fields = []
    for dialog in (settings, confirm):
        qtbot.add_widget(dialog)
        dialog.show()
        _active(qtbot, dialog)
        fields += [(dialog, field) for field in _multi_line_fields(dialog)]
    assert settings.persona_prompt in [field for _d, field in fields]
    for dialog, field in fields:
        if not field.isVisible():  # on a page not shown: shown first, as the user would
            tabs = field.parent()
            while tabs is not None and not hasattr(tabs, "setCurrentWidget"):
                tabs = tabs.parent()
            page = field
            while page.parent() is not None and page.parent().parent() is not tabs:
                page = page.parent()
            tabs.setCurrentWidget(page)
        _active(qtbot, dialog)
        before = field.toPlainText()
        for key, modifiers in ((Qt.Key.Key_Tab, Qt.KeyboardModifier.NoModifier),
                               (Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)):
            field.setFocus(Qt.FocusReason.OtherFocusReason)
            assert field.hasFocus(), field.objectName()
            qtbot.keyClick(field, key, modifiers)
            assert not field.hasFocus(), (field.objectName(), key)
            assert field.toPlainText() == before and "\t" not in field.toPlainText()


def test_the_knowledge_panels_results_count_drop_hint_and_cells_say_what_they_are(make_window, server, qloop, qtbot,
                                                                                    tmp_path, monkeypatch):
    # After a search, the first Down read [2] ([1] was made current, unsaid, as the list took the focus) and
    # nothing said how many passages matched; an unnamed stop ("filler") held the drop hint; the sources'
    # cells read "1", "15:59".
    from .conftest import wait_signal, wait_until
    from .test_kb_panel_window import _add_elsewhere, _write

    said: list[str] = []
    monkeypatch.setattr("tinyrag_desktop.ui.kb_search_tab.announce", lambda widget, text: said.append(text), raising=False)
    data = tmp_path / "data"
    _add_elsewhere(data, _write(tmp_path / "docs", ["herons", "egrets"]))
    win = make_window(server.base_url, data_dir=data)
    win.kb_dock.show()
    panel = win.kb_dock.widget()
    qloop.run(wait_until(lambda: panel.isVisible() and panel.source_count() == 2))
    _active(qtbot, win)
    # the sources' cells name their column
    view, model = panel.sources_view, panel.sources_view.model()
    cells = [model.index(0, column).data(Qt.ItemDataRole.AccessibleTextRole) for column in range(1, 4)]
    assert cells[0] == "Type: Markdown" and cells[1] == "Passages: 1" and cells[2].startswith("Imported: ")
    told = QAccessible.queryAccessibleInterface(view)
    row = [told.child(i) for i in range(told.childCount())]
    assert any(c is not None and c.text(QAccessible.Text.Name) == "Passages: 1" for c in row)
    # the drop hint is no Tab stop (it does not scroll), and is named when it scrolls
    area = panel.summary.area
    assert panel.status_label.text() == panel.status_label.IDLE
    assert not area.focusPolicy() & Qt.FocusPolicy.TabFocus and area.accessibleName() == "Import summary"
    # the results
    panel.tabs.setCurrentIndex(1)
    found = wait_signal(panel.searchFinished)
    panel.run_search("herons shallow water")
    assert qloop.run(found) == 2
    results = panel.results
    assert said == ["2 passages found"] and results.accessibleDescription() == "2 passages found"
    panel.query_edit.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.keyClick(panel.query_edit, Qt.Key.Key_Tab)  # to Search
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    assert results.hasFocus() and results.currentRow() == -1
    qtbot.keyClick(results, Qt.Key.Key_Down)
    assert results.currentItem().text().startswith("[1] ")


def test_space_on_a_card_says_expanded_its_details_are_named_and_its_result_reads_plainly(
        make_window, server, qloop, qtbot, monkeypatch):
    # Orca never said "expanded": Qt's AT-SPI bridge passes no expanded change on. The open details were an
    # unnamed label, and the result read "Result: = 42".
    from PySide6.QtGui import QAccessibleStateChangeEvent

    from tinyrag_desktop.ui import access

    sent: list[object] = []
    monkeypatch.setattr(access, "_send", sent.append)
    server.queue(Stream(tokens('<tool name="calculate"><query>6*7</query></tool>')), Stream(tokens("42.")))
    win = make_window(server.base_url)
    _active(qtbot, win)
    assert qloop.run(ask_and_wait(win, "Six times seven")) == "done"
    card = win.view.answers()[-1].cards()[0]
    card.setFocus(Qt.FocusReason.TabFocusReason)
    assert card.accessibleDescription().startswith("done. Expression: 6*7. Source: calculator. Result: 42. ")
    sent.clear()
    qtbot.keyClick(card, Qt.Key.Key_Space)
    assert card.expanded and card.accessibleDescription().startswith("Expanded. done. Expression: 6*7.")
    changes = [e for e in sent if isinstance(e, QAccessibleStateChangeEvent)]
    assert changes and changes[-1].changedStates().expanded
    details = card.findChild(QWidget, "toolDetails")
    assert details.accessibleName() == "Details of Calculator"  # whose: several cards may be open
    qtbot.keyClick(card, Qt.Key.Key_Space)
    assert not card.expanded and card.accessibleDescription().startswith("Collapsed. done.")
    win.composer.setFocus(Qt.FocusReason.TabFocusReason)
    card.setFocus(Qt.FocusReason.BacktabFocusReason)  # focused again: its states say it, the description need not
    assert card.accessibleDescription().startswith("done. Expression: 6*7.")


def test_the_find_bars_count_is_said_as_it_changes(make_window, server, qloop, qtbot, monkeypatch):
    # "1 of 2", "2 of 2" were shown and never said. In the box, its description changes (Orca says that on
    # the focus); from the Next button, an announcement.
    from tinyrag_desktop.ui import access

    announced: list[str] = []
    monkeypatch.setattr(access, "announce", lambda widget, text: announced.append(text))
    server.queue(Stream(tokens("Apples keep well; an apple a day.")))
    win = make_window(server.base_url)
    _active(qtbot, win)
    assert qloop.run(ask_and_wait(win, "Tell me about fruit")) == "done"
    bar = win.find_bar
    win.composer.setFocus()
    qtbot.keyClick(win.composer, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(bar.box, "apple")
    assert bar.count.text() == "1 of 2" and bar.box.accessibleDescription() == "1 of 2"
    qtbot.keyClick(bar.box, Qt.Key.Key_Return)
    assert bar.box.accessibleDescription() == "2 of 2" and announced == []  # said once, as the description
    bar.next_button.setFocus()
    qtbot.keyClick(bar.next_button, Qt.Key.Key_Space)
    assert bar.count.text() == "1 of 2" and announced == ["1 of 2"]


def test_tab_into_the_knowledge_panels_sources_makes_the_first_row_current_and_said(make_window, server, qloop,
                                                                                     qtbot, tmp_path):
    # Tab into the sources list made the first row current, unsaid, and the first Down read the second; then
    # no row was current at all, and the Menu key, Re-import and Delete did nothing until Down. The first row
    # is current and chosen as the focus comes (see test_reached_and_said for the menu and the buttons).
    from .conftest import wait_until
    from .test_kb_panel_window import _add_elsewhere, _write

    data = tmp_path / "data"
    _add_elsewhere(data, _write(tmp_path / "docs", ["alpha", "beta", "gamma"]))
    win = make_window(server.base_url, data_dir=data)
    win.kb_dock.show()
    panel = win.kb_dock.widget()
    qloop.run(wait_until(lambda: panel.isVisible() and panel.source_count() == 3))
    _active(qtbot, win)
    view = panel.sources_view
    view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    view.setFocus(Qt.FocusReason.TabFocusReason)
    qloop.run(wait_until(view.hasFocus))
    assert view.currentIndex().data() == "alpha" and view.selectionModel().isRowSelected(0)
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert view.currentIndex().data() == "beta" and view.selectionModel().isRowSelected(1)
    # Once a row is current, leaving and coming back keeps it (Qt's own behaviour, not undone here).
    panel.query_edit.setFocus(Qt.FocusReason.TabFocusReason)
    view.setFocus(Qt.FocusReason.BacktabFocusReason)
    qloop.run(wait_until(view.hasFocus))
    assert view.currentIndex().data() == "beta"
