"""ux31's screen reader findings: a tool card is a button that opens and closes, its ✓ or ✗ is announced,
its description reads no markup, and the chats list's F2 box and day headings say what they are."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QAccessibleActionInterface, QAccessibleAnnouncementEvent
from PySide6.QtWidgets import QAbstractItemView, QApplication

from tests.sse_server import Stream
from tinyrag_desktop.ui import access

from .conftest import ask_and_wait, tokens
from .test_window import TWO_TOOLS


def test_a_tool_card_is_a_button_that_opens_and_closes_for_a_screen_reader(make_window, server, qloop):
    # It was a frame ("Border") with neither expandable nor expanded, and only a SetFocus action.
    server.queue(Stream(tokens(TWO_TOOLS)), Stream(tokens("ok")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Two sums")) == "done"
    card = win.view.answers()[-1].cards()[0]
    told = QAccessible.queryAccessibleInterface(card)
    assert told.role() == QAccessible.Role.Button
    assert told.state().expandable and told.state().collapsed and not told.state().expanded
    actions = told.actionInterface()
    assert QAccessibleActionInterface.toggleAction() in actions.actionNames()
    assert QAccessibleActionInterface.pressAction() in actions.actionNames()
    actions.doAction(QAccessibleActionInterface.toggleAction())
    assert card.expanded
    told = QAccessible.queryAccessibleInterface(card)
    assert told.state().expanded and not told.state().collapsed
    assert told.text(QAccessible.Text.Name) == "Tool: Calculator, done"


def test_a_card_turning_done_or_failed_is_announced_and_its_reason_reads_no_markup(make_window, server, qloop,
                                                                                     monkeypatch):
    said: list[str] = []

    def record(event):
        if isinstance(event, QAccessibleAnnouncementEvent):
            said.append(event.message())

    monkeypatch.setattr(access, "_send", record)
    server.queue(Stream(tokens('<tool name="calcula"><query>1 + 1</query></tool>\n')),
                 Stream(tokens('<tool name="calculate"><query>1 + 1</query></tool>\n')), Stream(tokens("2")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "One plus one")) == "done"
    wrong, right = win.view.answers()[-1].cards()
    # The card's change, said while the focus was in the message box: nothing was said before.
    assert any(s.startswith("Tool: calcula, failed. There is no tool called") for s in said), said
    assert "Tool: Calculator, done" in said
    # The model's advice after the reason ("Write for example: <tool name=…><query>…") was read aloud.
    description = wrong.accessibleDescription()
    assert "There is no tool called" in description
    assert "<" not in description and "Write for example" not in description


def test_cards_rebuilt_from_the_history_are_not_announced(make_window, server, qloop, monkeypatch):
    server.queue(Stream(tokens(TWO_TOOLS)), Stream(tokens("ok")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Two sums")) == "done"
    said: list[object] = []
    monkeypatch.setattr(access, "_send", lambda e: isinstance(e, QAccessibleAnnouncementEvent) and said.append(e))
    chat = win.chat_id
    win.new_chat()
    win.open_chat(chat)
    win.finish_loading()
    assert len(win.view.answers()[-1].cards()) == 2 and said == []


def test_the_rename_box_and_the_day_headings_say_what_they_are(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens("ok")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Hello there")) == "done"
    heading = win.sidebar.list.item(0)
    assert heading.text() == "Today"
    assert heading.data(Qt.ItemDataRole.AccessibleTextRole) == "Chats from today, heading"
    win.sidebar.list.setFocus()
    win.sidebar.rename_current()
    assert win.sidebar.list.state() == QAbstractItemView.State.EditingState
    editor = QApplication.focusWidget()
    assert editor is not None and editor.accessibleName() == "Chat title"  # it had no name
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
