"""An accessibility review's findings: tool results reached by Tab and said, editing the last question said,
Shift+F10 as the Menu key everywhere, the sources list's current row on focus, a running chat's state said,
and the Thinking toggle named by what it shows."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QApplication, QMenu

from tests.sse_server import Stream

from .conftest import ask_and_wait, held_answer, tokens, wait_until
from .test_kb_panel_window import kb_window  # noqa: F401 - a fixture


def test_the_thinking_toggle_is_named_by_what_it_shows_and_says_whether_it_is_open(make_window, server, qloop):
    # It showed "Thought for a moment" and was "Thinking, collapsed", a check box.
    server.queue(Stream(tokens("Paris."), reasoning=tokens("The capital of France is Paris.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Capital of France?")) == "done"
    toggle = win.view.answers()[-1]._thinking.toggle
    told = QAccessible.queryAccessibleInterface(toggle)
    assert told.text(QAccessible.Text.Name) == toggle.text() != "Thinking"
    assert told.role() == QAccessible.Role.Button
    assert told.state().expandable and told.state().collapsed and not told.state().expanded
    toggle.click()
    told = QAccessible.queryAccessibleInterface(toggle)
    assert told.state().expanded and not told.state().collapsed
    assert told.text(QAccessible.Text.Name) == toggle.text()
    assert win.view.answers()[-1]._thinking.body.isVisible()


def _row_said(win, title: str) -> tuple[str, str]:
    """The name and the description a screen reader is given for the chats list's row of ``title``."""
    told = QAccessible.queryAccessibleInterface(win.sidebar.list)
    rows = [told.child(i) for i in range(told.childCount())]
    row = next(r for r in rows if r is not None and r.text(QAccessible.Text.Name).startswith(title))
    return row.text(QAccessible.Text.Name), row.text(QAccessible.Text.Description)


def test_a_chat_rows_running_badge_is_said_while_its_answer_is_written(make_window, server, qloop):
    # The row showed the tool cards' spinner (an icon) and said nothing of it.
    win = make_window(server.base_url)
    gate, finished = held_answer(win, server, "Tell me a story")
    qloop.run(wait_until(lambda: win.sidebar.item_for(win.chat_id) is not None))
    title = win.sidebar.item_for(win.chat_id).text()
    qloop.run(wait_until(lambda: "answering" in " ".join(_row_said(win, title)).lower()))
    gate.opened.set()
    assert qloop.run(finished) == "done"
    # (the rows' interfaces Qt keeps are renewed only while a screen reader listens: the row itself is asked)
    assert win.sidebar.item_for(win.chat_id).data(Qt.ItemDataRole.AccessibleDescriptionRole) is None


def test_editing_the_last_question_is_said_in_the_message_box_until_it_ends(make_window, server, qloop, qtbot):
    # Up in the empty box showed a hint over it, and a screen reader heard nothing of the edit.
    server.queue(Stream(tokens("Paris.")), Stream(tokens("Lyon.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Capital of France?")) == "done"
    usual = win.composer.accessibleDescription()
    win.composer.setFocus()
    qtbot.keyClick(win.composer, Qt.Key.Key_Up)
    said = win.composer.accessibleDescription()
    assert said.startswith("Editing your last question") and "Esc cancels" in said and "·" not in said
    qtbot.keyClick(win.composer, Qt.Key.Key_Escape)
    assert not win.edit_hint.isVisible() and win.composer.accessibleDescription() == usual
    qtbot.keyClick(win.composer, Qt.Key.Key_Up)
    assert win.composer.accessibleDescription() == said
    win.composer.setPlainText("Second city of France?")
    assert qloop.run(ask_and_wait(win, "Second city of France?")) == "done"
    assert win.composer.accessibleDescription() == usual


def _menu_by_shift_f10(qtbot, widget):
    """The menu Shift+F10 opens with the focus in ``widget`` (None: none opened); closed again."""
    widget.setFocus(Qt.FocusReason.TabFocusReason)
    assert QApplication.focusWidget() is widget
    qtbot.keyClick(widget, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    menu = QApplication.activePopupWidget()
    if menu is not None:
        menu.close()
    return menu


def test_shift_f10_opens_the_menu_the_menu_key_opens_in_every_text(make_window, server, qloop, qtbot):
    # Only the lists answered it: the message box, the chats' search box, a question and an answer's text
    # opened their menu with the Menu key alone.
    server.queue(Stream(tokens("Paris is the capital.")))
    win = make_window(server.base_url)
    with qtbot.waitActive(win):
        win.activateWindow()
    assert qloop.run(ask_and_wait(win, "Capital of France?")) == "done"
    question = win.view.questions()[-1].text_view
    texts = [win.composer, win.sidebar.search, question, win.view.answers()[-1].segments()[0]]
    for widget in texts:
        menu = _menu_by_shift_f10(qtbot, widget)
        assert isinstance(menu, QMenu), widget.objectName() or type(widget).__name__
        assert any(action.text().replace("&", "").startswith("Copy") for action in menu.actions())


def test_tab_into_the_sources_list_gives_its_menu_and_buttons_a_row(kb_window, qloop, qtbot):
    # No row was current when Tab came: the Menu key and Shift+F10 did nothing, Re-import and Delete were off
    # until Down.
    win, panel, _data = kb_window
    with qtbot.waitActive(win):
        win.activateWindow()
    view = panel.sources_view
    view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    assert not panel.delete_button.isEnabled()
    view.setFocus(Qt.FocusReason.TabFocusReason)
    qloop.run(wait_until(view.hasFocus))
    assert view.currentIndex().data() == "alpha"
    assert panel.delete_button.isEnabled() and panel.reimport_button.isEnabled()
    menu = _menu_by_shift_f10(qtbot, view)
    assert isinstance(menu, QMenu) and "Open" in [action.text().replace("&", "") for action in menu.actions()]
