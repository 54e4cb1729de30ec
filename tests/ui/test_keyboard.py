"""Keyboard-only use and accessible names: focus order, shortcuts, the Help list, states in words."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (QAbstractButton, QApplication, QComboBox, QDialog, QInputDialog, QLabel, QLineEdit,
                               QPlainTextEdit)

from tests.sse_server import Stream
from tinyrag_desktop.chats import ChatStore
from tinyrag_desktop.ui.menus import shortcut_rows
from tinyrag_desktop.ui.toolcard import ToolCard

from .conftest import ask_and_wait, held_answer, tokens, wait_signal, wait_until
from .test_window import TWO_TOOLS


def _tab_chain(win, start, limit=2000):
    seen, widget = [], start
    for _ in range(limit):
        widget = widget.nextInFocusChain()
        if widget is start:
            break
        if widget.isVisible() and widget.isEnabled() and widget.focusPolicy() & Qt.FocusPolicy.TabFocus:
            seen.append(widget)
    return seen


def test_tab_reaches_cards_answer_actions_and_the_text_once_but_not_every_paragraph(make_window, server, qloop):
    server.queue(Stream(tokens(TWO_TOOLS)), Stream(tokens("Done.\n\nSecond paragraph.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Two sums")) == "done"
    chain = _tab_chain(win, win.composer)
    answer = win.view.answers()[-1]
    cards = answer.cards()
    assert win.send_button in chain and all(c in chain for c in cards)
    assert answer.copy_button in chain and answer.regenerate_button in chain
    # the text is one stop, where the arrows read it (see test_reading_answers), not one per paragraph
    assert [s for s in answer.segments() if s in chain] == answer.segments()[:1]


def test_space_on_a_focused_card_toggles_it(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens(TWO_TOOLS)), Stream(tokens("ok")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Two sums")) == "done"
    card = win.view.answers()[-1].cards()[0]
    card.setFocus()
    qtbot.keyClick(card, Qt.Key.Key_Space)
    assert card.expanded and "Press Space to hide details" in card.accessibleDescription()


def _midway(win, server, qloop, keys) -> str:
    """Ask, press ``keys`` (what to type, key) in the message box while the answer streams, then Esc;
    returns how the answer ended."""
    server.queue(Stream(tokens("slow words " * 800), delay=0.002))

    async def scenario():
        fut = wait_signal(win.answerFinished, timeout=10)
        win.composer.setPlainText("Talk")
        win.send()
        await wait_until(lambda: len(win.view.answers()[-1].content()) > 20)
        for text, key in keys:
            win.composer.setPlainText(text)
            QTest.keyClick(win.composer, key)
        QTest.keyClick(win.composer, Qt.Key.Key_Escape)
        return await fut

    return qloop.run(scenario())


def test_escape_stops_the_answer(make_window, server, qloop):
    win = make_window(server.base_url)
    assert _midway(win, server, qloop, []) == "stopped"


def test_enter_while_an_answer_is_written_keeps_the_message_and_says_why(make_window, server, qloop):
    win = make_window(server.base_url)
    said = []
    win.statusBar().messageChanged.connect(said.append)
    assert _midway(win, server, qloop, [("And another thing", Qt.Key.Key_Return)]) == "stopped"
    assert any(m.startswith("Still answering") and "Esc" in m for m in said), said
    assert win.composer.toPlainText() == "And another thing"


def test_a_passing_message_is_shown_whole_in_a_narrow_window(make_window, server, qloop):
    # At 800 px it read "An answer is still being writte Answering…": the server's address, the model and
    # the reach took the rest of the bar. The address steps aside while a message shows.
    win = make_window(server.base_url)
    win.resize(800, 500)
    win.status.set_busy(True)
    message = "Still answering: press Esc to stop, or wait until it is done."  # the longer of the two
    win.statusBar().showMessage(message)
    qloop.run(wait_until(lambda: not win.status.server.isVisible()))
    qloop.run(asyncio.sleep(0.05))  # laid out again
    right = [w for w in (win.status.busy, win.status.model, win.status.dot, win.status.reach) if w.isVisible()]
    room = min(w.x() for w in right)
    assert win.statusBar().fontMetrics().horizontalAdvance(message) < room - 6
    win.statusBar().clearMessage()
    assert win.status.server.isVisible()


def test_help_lists_the_shortcuts(make_window, server, qloop):
    win = make_window(server.base_url)
    rows = dict(shortcut_rows(win.menus.all))
    assert rows["New chat"] == "Ctrl+N" and rows["Stop answer"] == "Esc"
    assert rows["Send the question"] == "Enter" and rows["New line in the question"] == "Shift+Enter"
    assert "Copy last answer as Markdown" in rows and "Regenerate last answer" in rows
    win.menus.shortcuts.trigger()
    dialog = win.findChild(QDialog, "shortcutsDialog")
    assert dialog is not None and "Ctrl+N" in dialog.findChild(QLabel).text()


def test_every_control_has_a_name_a_screen_reader_can_read(make_window, server, qloop):
    server.queue(Stream(tokens(TWO_TOOLS)), Stream(tokens("ok")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Two sums")) == "done"
    controls = [w for cls in (QAbstractButton, QLineEdit, QPlainTextEdit, QComboBox, ToolCard)
                for w in win.findChildren(cls) if w.isVisible()]
    assert len(controls) >= 8
    unnamed = [w for w in controls if not (w.accessibleName() or getattr(w, "text", lambda: "")())]
    assert unnamed == []
    card = win.view.answers()[-1].cards()[0]
    assert card.accessibleName() == "Tool: Calculator, done"  # the state in words, not only a colour


def test_copy_last_answer_shortcut(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens("Copy **me**.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Say it")) == "done"
    win.menus.copy_answer.trigger()
    assert QApplication.clipboard().text().strip() == "Copy **me**."


def test_ctrl_b_hides_and_shows_the_chats(make_window, server, qloop, qtbot):
    win = make_window(server.base_url)
    with qtbot.waitActive(win):
        win.activateWindow()
    qtbot.keyClick(win.composer, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    assert not win.sidebar.isVisible() and not win.menus.show_sidebar.isChecked()
    qtbot.keyClick(win.composer, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    assert win.sidebar.isVisible() and win.menus.show_sidebar.isChecked()


def test_search_and_rename_show_the_chats_list_hidden_before(make_window, server, qloop, qtbot, tmp_path):
    # With the list hidden (Ctrl+B, or folded away by a narrow window), Ctrl+K put the focus in the hidden
    # search box, and the words typed went there, unseen; F2 opened an editor no one could see.
    older, win = _window_with_an_older_chat(make_window, server, tmp_path)
    _active(qtbot, win)
    qtbot.keyClick(win.composer, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    assert not win.sidebar.isVisible()
    qtbot.keyClick(win.composer, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    assert win.sidebar.isVisible() and win.menus.show_sidebar.isChecked()
    assert win.sidebar.search.hasFocus()
    qtbot.keyClicks(win.sidebar.search, "older")
    assert win.sidebar.search.isVisible() and win.sidebar.search.text() == "older"
    win.sidebar.search.clear()

    win.open_chat(older.id)
    qloop.run(wait_until(lambda: win.chat_id == older.id and not win.loading))
    qtbot.keyClick(win.composer, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    assert not win.sidebar.isVisible()
    qtbot.keyClick(win.composer, Qt.Key.Key_F2)
    editor = QApplication.focusWidget()
    assert win.sidebar.isVisible() and isinstance(editor, QLineEdit) and editor.isVisible()
    assert win.sidebar.list.isAncestorOf(editor)


def test_opening_the_knowledge_panel_from_the_keyboard_puts_the_focus_in_it(make_window, server, qloop, qtbot):
    win = make_window(server.base_url)
    with qtbot.waitActive(win):
        win.activateWindow()
    assert win.composer.hasFocus()
    qtbot.keyClick(win.composer, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert win.kb_dock.isVisible()
    focus = QApplication.focusWidget()
    assert focus is not None and win.kb_dock.isAncestorOf(focus)


def _active(qtbot, win):
    with qtbot.waitActive(win):
        win.activateWindow()


def _near(colour, expected, slack=12):
    return all(abs(a - b) <= slack for a, b in zip(colour.getRgb()[:3], expected.getRgb()[:3]))


def _window_with_an_older_chat(make_window, server, tmp_path):
    """A window in a new chat, with one older chat in its list."""
    data = tmp_path / "chats"
    store = ChatStore(data)
    older = store.new_chat()
    store.add_user_message(older.id, "An older question")
    store.close()
    return older, make_window(server.base_url, data_dir=data)


def _older_chat_open_from_the_list(make_window, server, qloop, qtbot, tmp_path):
    """A window with the older chat of _window_with_an_older_chat open, and the keyboard in the chats list."""
    older, win = _window_with_an_older_chat(make_window, server, tmp_path)
    _active(qtbot, win)
    win.sidebar.list.setCurrentItem(win.sidebar.item_for(older.id))
    qloop.run(wait_until(lambda: win.chat_id == older.id and not win.loading))
    win.sidebar.list.setFocus()
    return older, win


def test_tabbing_into_the_chat_list_does_not_open_a_chat_but_enter_does(make_window, server, qloop, qtbot,
                                                                         tmp_path):
    older, win = _window_with_an_older_chat(make_window, server, tmp_path)
    _active(qtbot, win)
    win.sidebar.search.setFocus()
    qtbot.keyClick(win.sidebar.search, Qt.Key.Key_Tab)
    assert win.sidebar.list.hasFocus()
    assert win.chat_id is None  # still the new chat the user was in
    qtbot.keyClick(win.sidebar.list, Qt.Key.Key_Return)
    qloop.run(wait_until(lambda: win.chat_id == older.id and not win.loading))
    assert [q.text() for q in win.view.questions()] == ["An older question"]


def test_keyboard_focus_is_visible_on_the_chat_list_a_failed_card_copy_and_the_conversation(
        make_window, server, qloop, qtbot):
    from tinyrag_desktop.ui.theme import colors

    server.queue(Stream(tokens('<tool name="calculate"><query>1 / 0</query></tool>')), Stream(tokens("No.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Divide")) == "done"
    _active(qtbot, win)
    accent = colors().accent
    # The chat list: its style sheet hides Qt's dotted rectangle, so the current chat gets a ring instead.
    win.composer.setFocus()
    unfocused = win.sidebar.list.grab().toImage()
    win.sidebar.list.setFocus(Qt.FocusReason.TabFocusReason)
    assert win.sidebar.list.grab().toImage() != unfocused
    # A failed card: its red border used to stay red, focused or not.
    failed = next(c for c in win.view.answers()[-1].cards() if c.status == "error")
    failed.setFocus(Qt.FocusReason.TabFocusReason)
    assert _near(failed.grab().toImage().pixelColor(failed.width() // 2, 1), accent)
    copy = win.view.answers()[-1].copy_button
    copy.setFocus(Qt.FocusReason.TabFocusReason)
    assert _near(copy.grab().toImage().pixelColor(copy.width() // 2, 1), accent)
    win.view.setFocus(Qt.FocusReason.TabFocusReason)  # arrows and Page keys scroll the conversation
    assert win.view.has_focus_ring()
    win.composer.setFocus()
    assert not win.view.has_focus_ring()
    assert win.composer_ring.isVisible()  # the message box's border, too, says where typing goes
    win.sidebar.search.setFocus()
    assert not win.composer_ring.isVisible()


def test_tab_walks_an_answer_top_to_bottom_and_stops_on_its_code_link(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens(TWO_TOOLS)), Stream(tokens("Here:\n\n```python\nx = 1\n```\n")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Two sums and code")) == "done"
    answer = win.view.answers()[-1]
    chain = _tab_chain(win, win.send_button)
    code = next(s for s in answer.segments() if s.code_blocks())
    order = [chain.index(w) for w in (*answer.cards(), code, answer.copy_button, answer.regenerate_button)]
    assert order == sorted(order)  # Copy and Regenerate came first, before the cards above them
    _active(qtbot, win)
    answer.cards()[-1].setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(answer.cards()[-1], Qt.Key.Key_Tab)
    assert code.hasFocus() and code.textCursor().selectedText() == "Copy code"  # not an invisible stop
    # the text before the cards ("Let me compute both.") is the answer's one stop for its words, before them
    first = answer.segments()[0]
    assert first.is_reading_stop() and not code.is_reading_stop() and chain.index(first) < order[0]


def test_a_click_on_the_chat_the_focus_made_current_opens_it(make_window, server, qloop, qtbot, tmp_path):
    older, win = _window_with_an_older_chat(make_window, server, tmp_path)
    _active(qtbot, win)
    win.sidebar.list.setFocus(Qt.FocusReason.TabFocusReason)  # current, ringed, not opened
    assert win.chat_id is None
    item = win.sidebar.item_for(older.id)
    assert win.sidebar.list.currentItem() is item  # the focus passed the day's heading by
    qtbot.mouseClick(win.sidebar.list.viewport(), Qt.MouseButton.LeftButton,
                     pos=win.sidebar.list.visualItemRect(item).center())
    qloop.run(wait_until(lambda: win.chat_id == older.id and not win.loading))


def _tab_walk(qtbot, start, limit=60):
    """The widgets Tab visits from ``start``, pressing it until the focus comes back."""
    start.setFocus(Qt.FocusReason.TabFocusReason)
    visited = []
    for _ in range(limit):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        focus = QApplication.focusWidget()
        if focus is start:
            return visited
        visited.append(focus)
    raise AssertionError(f"Tab did not come back to {start!r}: {visited}")


def test_tab_follows_the_window_layout_left_to_right_top_to_bottom(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens(TWO_TOOLS)), Stream(tokens("Done.")))
    win = make_window(server.base_url)
    _active(qtbot, win)
    assert qloop.run(ask_and_wait(win, "Two sums")) == "done"  # answers are made after the message box
    win.kb_dock.show()
    walk = _tab_walk(qtbot, win.findChild(QAbstractButton, "newChat"))
    answer = win.view.answers()[-1]
    places = []
    for widget in walk:
        place = ("sidebar" if win.sidebar.isAncestorOf(widget) else
                 "header" if widget is win.persona or widget.objectName() == "editPersonas" else
                 "answer" if answer.isAncestorOf(widget) else "conversation" if win.view.isAncestorOf(widget)
                 or widget is win.view else "message box" if widget in (win.composer, win.send_button) else
                 "panel" if win.kb_dock.isAncestorOf(widget) else
                 "status bar" if win.statusBar().isAncestorOf(widget) else repr(widget))
        if not places or places[-1] != place:
            places.append(place)
    assert places == ["sidebar", "header", "conversation", "answer", "message box", "panel", "status bar"]
    assert walk.index(win.composer) + 1 == walk.index(win.send_button)
    assert all(card in walk for card in answer.cards()) and answer.regenerate_button in walk


def test_shift_tab_walks_the_same_stops_backwards_and_a_notice_is_a_stop(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens(TWO_TOOLS)), Stream(tokens("Done.")))
    win = make_window(server.base_url)
    _active(qtbot, win)
    assert qloop.run(ask_and_wait(win, "Two sums")) == "done"
    win.kb_dock.show()
    win.show_notices(["A damaged file was kept aside."])
    forward = _tab_walk(qtbot, win.composer)
    dismiss = win.findChild(QAbstractButton, "dismissNotice")
    assert dismiss in forward and forward.index(dismiss) < forward.index(win.view)  # above the conversation
    win.composer.setFocus(Qt.FocusReason.TabFocusReason)
    backward = []
    for _ in range(len(forward)):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
        backward.append(QApplication.focusWidget())
    assert backward == list(reversed(forward))


def test_help_opens_after_an_answer_with_the_focus_in_it_is_regenerated(make_window, server, qloop, qtbot):
    # Tab to Regenerate, press it: the answer holding the focus goes. The Help list then raised "Internal C++
    # object (QAction) already deleted" for the knowledge panel's action and did not open.
    server.queue(Stream(tokens("First.")), Stream(tokens("Second.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Say it")) == "done"
    win.view.answers()[-1].regenerate_button.setFocus()

    async def regenerate():
        fut = wait_signal(win.answerFinished)
        assert win.regenerate()
        return await fut

    assert qloop.run(regenerate()) == "done"
    qloop.run(wait_until(lambda: win.view.answers()[-1].content() == "Second."))
    rows = dict(shortcut_rows(win.menus.all))
    assert rows["Knowledge base"] == "Ctrl+Shift+K"
    win.menus.shortcuts.trigger()
    dialog = win.findChild(QDialog, "shortcutsDialog")
    assert dialog is not None and "Ctrl+Shift+K" in dialog.findChild(QLabel).text()


def test_f2_in_the_chat_list_renames_the_chat(make_window, server, qloop, qtbot, tmp_path):
    # The list had an F2 action of its own beside Edit → Rename chat (F2): Qt found the key ambiguous
    # ("Ambiguous shortcut overload: F2") and did neither, so F2 in the list, where one renames, did nothing.
    from PySide6.QtWidgets import QAbstractItemView

    older, win = _older_chat_open_from_the_list(make_window, server, qloop, qtbot, tmp_path)
    qtbot.keyClick(win.sidebar.list, Qt.Key.Key_F2)
    assert win.sidebar.list.state() == QAbstractItemView.State.EditingState
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit)
    editor.selectAll()
    qtbot.keyClicks(editor, "Renamed from the keyboard")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qloop.run(wait_until(lambda: "Renamed from the keyboard" in win.sidebar.titles()))
    assert win.title_label.text() == "Renamed from the keyboard"


def test_a_title_typed_while_the_chat_is_answered_survives_the_answer_ending(make_window, server, qloop, qtbot):
    # The answer's end changed the row (its time, its running badge), and Qt put the old title back into
    # the F2 box at each change: the words typed were lost and Enter kept the old title.
    win = make_window(server.base_url)
    server.queue(Stream(tokens("First answer.")))
    assert qloop.run(ask_and_wait(win, "First question")) == "done"
    gate, finished = held_answer(win, server, "Second question")
    qloop.run(wait_until(lambda: len(server.requests) == 2))
    win.sidebar.show()
    win.sidebar.list.setFocus()
    qtbot.keyClick(win.sidebar.list, Qt.Key.Key_F2)
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit) and editor.text() == "First question"
    editor.selectAll()
    qtbot.keyClicks(editor, "Named while answered")
    gate.opened.set()
    qloop.run(finished)
    assert win.sidebar.renaming and editor.text() == "Named while answered"
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qloop.run(wait_until(lambda: win.sidebar.titles()[0] == "Named while answered"))
    assert win.store.get_chat(win.chat_id).title == "Named while answered"


def test_a_title_saved_as_the_history_closes_reads_no_closed_history(make_window, server, qloop, qtbot, caplog):
    # A title typed and left in the F2 box is saved as the window goes; the chats list was then read again from
    # a history already closed ("Cannot operate on a closed database", logged from a timer).
    win = make_window(server.base_url)
    server.queue(Stream(tokens("First answer.")))
    assert qloop.run(ask_and_wait(win, "First question")) == "done"
    win.rename_chat(win.chat_id, "Saved as it closed")
    win.store.close()
    qloop.run(wait_until(lambda: True))
    QApplication.processEvents()
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


def test_a_start_that_reopens_the_last_chat_puts_the_focus_in_the_message_box(make_window, server, qloop, qtbot,
                                                                               tmp_path):
    # The focus was on "New chat" (the first button): what the user typed went nowhere, and Space started a
    # new chat. A start in a new chat had it in the message box already.
    data = tmp_path / "data"
    first = make_window(server.base_url, data_dir=data, reopen_last=True)
    server.queue(Stream(tokens("Kept for later.")))
    assert qloop.run(ask_and_wait(first, "Remember this?")) == "done"
    first.close()
    again = make_window(server.base_url, data_dir=data, reopen_last=True)
    with qtbot.waitActive(again):
        again.activateWindow()
    qloop.run(wait_until(lambda: again.chat_id == first.chat_id and not again.loading))
    assert again.composer.hasFocus()


def test_typing_after_clicking_a_chat_goes_into_the_message_box(make_window, qloop, qtbot):
    # The list took the letters as a jump to a chat: typing "but why" after opening "apples" with the mouse
    # opened "bananas", and the question was lost.
    win = make_window("http://127.0.0.1:9/v1")
    for title in ("apples", "bananas", "cherries"):
        win.store.new_chat(title=title)
    win._refresh_chats()
    with qtbot.waitActive(win):
        win.activateWindow()
    lst = win.sidebar.list
    apples = next(lst.item(r) for r in range(lst.count()) if lst.item(r).text() == "apples")
    qtbot.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=lst.visualItemRect(apples).center())
    qtbot.waitUntil(lambda: win.title_label.text() == "apples" and lst.hasFocus())
    for key in "but why":  # each key to the widget with the focus, as typing does
        qtbot.keyClicks(QApplication.focusWidget(), key)
    assert win.title_label.text() == "apples" and win.chat_id == apples.data(Qt.ItemDataRole.UserRole)
    assert win.composer.hasFocus() and win.composer.toPlainText() == "but why"
    # The list's own keys still work there: arrows open the next chat, F2 renames
    lst.setFocus()
    qtbot.keyClick(lst, Qt.Key.Key_Up)
    qtbot.waitUntil(lambda: win.title_label.text() == "bananas")
    assert lst.hasFocus() and win.composer.toPlainText() == ""  # the words stay with the chat typed in
    qtbot.keyClick(lst, Qt.Key.Key_Down)
    qtbot.waitUntil(lambda: win.title_label.text() == "apples")
    assert win.composer.toPlainText() == "but why"


def test_typing_after_choosing_a_persona_goes_into_the_message_box(make_window, qloop, qtbot):
    # The persona box kept the focus after a choice, and took letters as a choice of their own: "Can you…"
    # switched the chat to Concise (and saved it) instead of starting the question.
    win = make_window("http://127.0.0.1:9/v1")
    with qtbot.waitActive(win):
        win.activateWindow()
    win.persona.setFocus()
    win.persona.setCurrentText("Teacher")
    for key in "Can you":
        qtbot.keyClicks(QApplication.focusWidget(), key)
    assert win.persona.currentText() == "Teacher"
    assert win.composer.hasFocus() and win.composer.toPlainText() == "Can you"
    win.persona.setFocus()
    qtbot.keyClick(win.persona, Qt.Key.Key_Up)  # the arrows still choose
    assert win.persona.currentText() == "Concise" and win.persona.hasFocus()


def test_every_button_and_box_of_the_window_has_a_name_a_screen_reader_says(make_window, server, qloop):
    # "New chat" had none, beside Send, Stop and the others that do
    win = make_window(server.base_url)
    widgets = [w for kind in (QAbstractButton, QLineEdit, QComboBox) for w in win.findChildren(kind)]
    unnamed = [w.objectName() or type(w).__name__ for w in widgets
               if w.isVisible() and w.focusPolicy() != Qt.FocusPolicy.NoFocus and not w.accessibleName()]
    assert unnamed == []
    assert win.sidebar.new_button.accessibleName() == "New chat"


def test_ctrl_z_in_the_chat_list_brings_back_the_chat_deleted_there(make_window, server, qloop, qtbot, tmp_path):
    # Only Tab reached the Undo button: Ctrl+Z, where the chat was just deleted with Delete, did nothing.
    older, win = _older_chat_open_from_the_list(make_window, server, qloop, qtbot, tmp_path)
    qtbot.keyClick(win.sidebar.list, Qt.Key.Key_Delete)
    assert older.id not in win.sidebar.ids()
    qtbot.keyClick(win.sidebar.list, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qloop.run(wait_until(lambda: older.id in win.sidebar.ids() and win.chat_id == older.id))
    assert not win.sidebar.undo_bar.isVisible()
    win.composer.setPlainText("typed")  # in the message box, Ctrl+Z stays the box's own undo
    win.composer.setFocus()
    qtbot.keyClicks(win.composer, "!")
    qtbot.keyClick(win.composer, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert win.composer.toPlainText() == "typed" and older.id in win.sidebar.ids()


def _older_chat_open_typing(make_window, server, qloop, qtbot, tmp_path):
    """A window with the older chat of _window_with_an_older_chat open, and the keyboard in the message box."""
    older, win = _window_with_an_older_chat(make_window, server, tmp_path)
    _active(qtbot, win)
    win.open_chat(older.id)
    qloop.run(wait_until(lambda: win.chat_id == older.id and not win.loading))
    win.composer.setFocus()
    return older, win


def test_f2_from_the_message_box_gives_the_focus_back_to_it_once_the_title_is_given(make_window, server, qloop,
                                                                                    qtbot, tmp_path):
    # The focus stayed in the list after the rename: the next words typed went nowhere (or into the list's
    # type-ahead), and the user had to click the message box to go on.
    from PySide6.QtWidgets import QAbstractItemView

    older, win = _older_chat_open_typing(make_window, server, qloop, qtbot, tmp_path)
    qtbot.keyClick(win.composer, Qt.Key.Key_F2)
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit) and win.sidebar.list.isAncestorOf(editor)
    editor.selectAll()
    qtbot.keyClicks(editor, "Named from the message box")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qloop.run(wait_until(lambda: "Named from the message box" in win.sidebar.titles()))
    assert win.composer.hasFocus()
    # Esc leaves the title as it was, and goes back too
    qtbot.keyClick(win.composer, Qt.Key.Key_F2)
    assert win.sidebar.list.state() == QAbstractItemView.State.EditingState
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)
    qloop.run(wait_until(lambda: win.sidebar.list.state() != QAbstractItemView.State.EditingState))
    assert win.composer.hasFocus() and "Named from the message box" in win.sidebar.titles()


def test_f2_in_the_list_keeps_the_focus_in_the_list_after_the_rename(make_window, server, qloop, qtbot, tmp_path):
    from PySide6.QtWidgets import QAbstractItemView

    older, win = _older_chat_open_from_the_list(make_window, server, qloop, qtbot, tmp_path)
    qtbot.keyClick(win.sidebar.list, Qt.Key.Key_F2)
    editor = QApplication.focusWidget()
    assert isinstance(editor, QLineEdit)
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # the item view closes its editor a moment later
    qloop.run(wait_until(lambda: win.sidebar.list.state() != QAbstractItemView.State.EditingState))
    assert win.sidebar.list.hasFocus()


def test_a_rename_left_by_going_elsewhere_leaves_the_focus_there(make_window, server, qloop, qtbot, tmp_path):
    from PySide6.QtWidgets import QAbstractItemView

    older, win = _older_chat_open_typing(make_window, server, qloop, qtbot, tmp_path)
    qtbot.keyClick(win.composer, Qt.Key.Key_F2)
    assert win.sidebar.list.state() == QAbstractItemView.State.EditingState
    win.sidebar.search.setFocus(Qt.FocusReason.MouseFocusReason)  # as a click in the search box
    qloop.run(wait_until(lambda: win.sidebar.list.state() != QAbstractItemView.State.EditingState))
    assert win.sidebar.search.hasFocus()


def test_f2_in_a_narrow_window_folds_the_list_away_again_once_the_title_is_given(make_window, server, qloop, qtbot,
                                                                                 tmp_path):
    # At 500 px the list is folded away: F2 showed it for the title, and it stayed, over half the window.
    from PySide6.QtWidgets import QAbstractItemView

    older, win = _window_with_an_older_chat(make_window, server, tmp_path)
    _active(qtbot, win)
    win.open_chat(older.id)
    qloop.run(wait_until(lambda: win.chat_id == older.id and not win.loading))
    win.resize(500, 600)
    qloop.run(wait_until(lambda: win.width() == 500 and not win.sidebar.isVisible()))
    win.composer.setPlainText("a draft")
    win.composer.setFocus()
    qtbot.keyClick(win.composer, Qt.Key.Key_F2)
    editor = QApplication.focusWidget()
    assert win.sidebar.isVisible() and isinstance(editor, QLineEdit)
    editor.selectAll()
    qtbot.keyClicks(editor, "Named in a narrow window")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qloop.run(wait_until(lambda: win.sidebar.list.state() != QAbstractItemView.State.EditingState))
    qloop.run(wait_until(lambda: "Named in a narrow window" in win.sidebar.titles()))
    assert not win.sidebar.isVisible() and not win.menus.show_sidebar.isChecked()
    assert win.composer.hasFocus() and win.composer.toPlainText() == "a draft"
    # shown by the user (Ctrl+B) before F2, the list stays
    qtbot.keyClick(win.composer, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    assert win.sidebar.isVisible()
    qtbot.keyClick(win.composer, Qt.Key.Key_F2)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)
    qloop.run(wait_until(lambda: win.sidebar.list.state() != QAbstractItemView.State.EditingState))
    assert win.sidebar.isVisible()


def test_f2_on_a_chat_found_by_a_search_renames_it_in_a_dialog(make_window, server, qloop, qtbot, tmp_path):
    # A search hit shows two lines and cannot be edited in place: F2 on one did nothing, and said nothing
    older, win = _window_with_an_older_chat(make_window, server, tmp_path)
    _active(qtbot, win)
    qtbot.keyClick(win.composer, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(win.sidebar.search, "older")
    qtbot.keyClick(win.sidebar.search, Qt.Key.Key_Return)  # opens the first hit
    qloop.run(wait_until(lambda: win.chat_id == older.id and not win.loading))
    qtbot.keyClick(win.composer, Qt.Key.Key_F2)
    dialog = win.findChild(QInputDialog, "renameChatDialog")
    assert dialog is not None and dialog.isVisible()
    assert dialog.textValue() == win.store.get_chat(older.id).title  # the title as it is, to be edited
    qloop.run(wait_until(lambda: QApplication.focusWidget() is not None
                         and QApplication.focusWidget().window() is dialog))
    editor = QApplication.focusWidget()
    editor.selectAll()
    qtbot.keyClicks(editor, "  Trip notes  ")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qloop.run(wait_until(lambda: win.store.get_chat(older.id).title == "Trip notes"))
    assert win.sidebar.search.text() == "older"  # the search and its hits stay
    # in a narrow window, where the list is folded away, F2 on the hit does not unfold it for the dialog
    win.resize(500, 600)
    qloop.run(wait_until(lambda: win.width() == 500 and not win.sidebar.isVisible()))
    win.composer.setFocus()
    qtbot.keyClick(win.composer, Qt.Key.Key_F2)
    dialog = win.findChild(QInputDialog, "renameChatDialog")
    assert dialog is not None and dialog.isVisible() and not win.sidebar.isVisible()
    dialog.reject()
    qloop.run(wait_until(lambda: win.findChild(QInputDialog, "renameChatDialog") is None))
    assert not win.sidebar.isVisible() and win.store.get_chat(older.id).title == "Trip notes"


def test_a_search_hits_menu_rename_asks_for_the_title_and_an_empty_one_renames_nothing(make_window, server, qloop,
                                                                                       qtbot, tmp_path):
    older, win = _window_with_an_older_chat(make_window, server, tmp_path)
    title = win.store.get_chat(older.id).title
    qtbot.keyClick(win.composer, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(win.sidebar.search, "older")
    qtbot.keyClick(win.sidebar.search, Qt.Key.Key_Return)
    qloop.run(wait_until(lambda: win.chat_id == older.id and not win.loading))
    win.sidebar._rename_row(older.id)  # the list's menu → Rename
    dialog = win.findChild(QInputDialog, "renameChatDialog")
    assert dialog is not None and dialog.isVisible()
    dialog.setTextValue("   ")
    dialog.accept()
    qloop.run(wait_until(lambda: win.findChild(QInputDialog, "renameChatDialog") is None))
    assert win.store.get_chat(older.id).title == title
