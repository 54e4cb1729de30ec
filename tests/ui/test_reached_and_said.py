"""An accessibility review's findings: tool results reached by Tab and said, editing the last question said,
Shift+F10 as the Menu key everywhere, the sources list's current row on focus, a running chat's state said,
and the Thinking toggle named by what it shows."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QTextCursor
from PySide6.QtWidgets import QApplication, QMenu

from tests.sse_server import Stream

from .conftest import ask_and_wait, held_answer, tokens, wait_signal, wait_until
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


_TEN_LINES = ('<tool name="nanogo"><source>package main\n\nimport "fmt"\n\nfunc main() {\n'
              '\tfor i := 0; i < 10; i++ {\n\t\tfmt.Println("line", i)\n\t}\n}\n</source></tool>\n')


def test_a_go_cards_description_says_its_output_in_short(make_window, server, qloop):
    # Only a calculation's value was in a card's description: a Go program's said its code, never its output.
    server.queue(Stream(tokens(_TEN_LINES)), Stream(tokens("It printed ten lines.")))
    win = make_window(server.base_url, allow_nanogo=True)
    assert qloop.run(ask_and_wait(win, "Count to ten in Go")) == "done"
    card = win.view.answers()[-1].cards()[0]
    said = QAccessible.queryAccessibleInterface(card).text(QAccessible.Text.Description)
    assert "Result: line 0; line 1; line 2 … 7 more lines." in said, said
    assert "line 3" not in said


def test_an_opened_cards_details_are_the_next_tab_stop_read_and_copied_by_keyboard(make_window, server, qloop,
                                                                                     qtbot):
    # The opened details took the focus from a click only: Tab went from the card to the next card.
    server.queue(Stream(tokens(_TEN_LINES)), Stream(tokens("It printed ten lines.")))
    win = make_window(server.base_url, allow_nanogo=True)
    with qtbot.waitActive(win):
        win.activateWindow()
    assert qloop.run(ask_and_wait(win, "Count to ten in Go")) == "done"
    answer = win.view.answers()[-1]
    card = answer.cards()[0]
    card.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(card, Qt.Key.Key_Space)
    assert card.accessibleDescription().endswith("Press Space to hide details, Tab to read them.")
    details = card._details
    qtbot.keyClick(card, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is details
    told = QAccessible.queryAccessibleInterface(details)
    assert told.text(QAccessible.Text.Name) == "Details of Go program"
    assert told.state().readOnly and told.state().focusable
    # The caret goes down to the output, Shift+End selects its first line, Ctrl+C copies it.
    details.moveCursor(QTextCursor.MoveOperation.Start)
    while details.textCursor().block().text() != "line 0":
        qtbot.keyClick(details, Qt.Key.Key_Down)
    qtbot.keyClick(details, Qt.Key.Key_Home)
    qtbot.keyClick(details, Qt.Key.Key_End, Qt.KeyboardModifier.ShiftModifier)
    QApplication.clipboard().clear()
    qtbot.keyClick(details, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.clipboard().text() == "line 0"
    # From the details, Tab goes on to the answer's next stop; Shift+Tab back to the card.
    qtbot.keyClick(details, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert QApplication.focusWidget() is card
    qtbot.keyClick(card, Qt.Key.Key_Space)  # closed, Tab passes over them again
    qtbot.keyClick(card, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() not in (card, details)


def _card_opened_while_written(make_window, server, qloop, qtbot):
    """A window whose answer ran a Go program, its card opened while the answer went on, and finished."""
    from tests.sse_server import Gate

    gate = Gate()
    server.queue(Stream(tokens(_TEN_LINES)), Stream(tokens("It printed ten lines, and more words after."),
                                                    gate=gate))
    win = make_window(server.base_url, allow_nanogo=True)
    with qtbot.waitActive(win):
        win.activateWindow()
    finished = wait_signal(win.answerFinished)
    win.composer.setPlainText("Count to ten in Go")
    assert win.send()
    qloop.run(wait_until(lambda: win.view.answers() and win.view.answers()[-1].cards()
                         and win.view.answers()[-1].cards()[0].status == "done"))
    card = win.view.answers()[-1].cards()[0]
    card.set_expanded(True)
    gate.opened.set()
    assert qloop.run(finished) == "done"
    return win, card


def test_a_card_opened_while_its_answer_is_written_keeps_its_details_after_it(make_window, server, qloop, qtbot):
    # The answer orders its Tab stops again as it ends, and the details (not one of its stops) went after the
    # stop following the card.
    win, card = _card_opened_while_written(make_window, server, qloop, qtbot)
    stops = win.tab_stops()
    following = next(w for w in stops[stops.index(card) + 1:] if w is not card._details)  # the answer's next
    card.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(card, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is card._details
    qtbot.keyClick(card._details, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is following
    qtbot.keyClick(following, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert QApplication.focusWidget() is card._details


def test_a_commands_a_searchs_and_a_failed_programs_cards_say_what_came_of_them(qtbot):
    from tinyrag_desktop.tools.nanogo_tool import OUTPUT_BEFORE
    from tinyrag_desktop.ui.toolcard import ToolCard

    def card(tool: str, query: str) -> ToolCard:
        made = ToolCard("c1", tool, query, status="running")
        qtbot.add_widget(made)
        return made

    shell = card("shell", "ls")
    shell.finish("ok", source="shell", result="a.txt\nb.txt\n\nc.txt\nd.txt\ne.txt\n")
    assert "Result: a.txt; b.txt; c.txt … 2 more lines." in shell.accessibleDescription()
    search = card("rag_knowledge", "herons")
    passage = "Herons wade in the shallow water " * 20  # one long line: cut at a word, 300 characters at most
    search.finish("ok", source="notes.md", result=passage)
    said = search.accessibleDescription().split("Result: ", 1)[1]
    assert said.startswith("Herons wade") and said.endswith("…. Press Space to show details.") and len(said) < 340
    failed = card("nanogo", "package main")
    failed.finish("error", error=f"panic: index out of range{OUTPUT_BEFORE}step 1\nstep 2\n")
    assert "Output before the error: step 1; step 2." in failed.accessibleDescription()


def test_shift_tab_reaches_an_opened_cards_details_before_the_card_was_ever_tabbed_through(make_window, server,
                                                                                          qloop, qtbot):
    # The answer's Tab order, set again as it ended, put the details after the card's next stop: Shift+Tab
    # from there skipped them until Tab had once gone through the card (which puts them back in place).
    win, card = _card_opened_while_written(make_window, server, qloop, qtbot)
    stops = win.tab_stops()
    assert stops.index(card._details) == stops.index(card) + 1
    following = stops[stops.index(card) + 2]
    following.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(following, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert QApplication.focusWidget() is card._details
