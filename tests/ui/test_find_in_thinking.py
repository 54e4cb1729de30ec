"""Find in chat looks in an answer's reasoning (its Thinking section) too: a word only the model's thinking holds
was "Not found". A match in a closed Thinking is counted and said to be there; Enter opens it and goes to the
match, its box scrolled to it."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication

from tinyrag_desktop.chats import ChatStore
from tinyrag_desktop.ui.thinking import ThinkingSection

from .conftest import keep_picture, wait_until

# 60 lines of reasoning, "quokka" on one far down: the Thinking box (220 px at most) scrolls to it
REASONING = "".join(f"Step {n}: weighing what the user asked.\n" for n in range(50)) + (
    "The Quokka is the animal they mean.\n") + "".join(f"Check {n}.\n" for n in range(10))


def _chat_with_reasoning(tmp_path, answer: str = "It is the quokka of Rottnest Island.") -> tuple:
    data = tmp_path / "data"
    store = ChatStore(data)
    chat = store.new_chat("animals")
    store.add_user_message(chat.id, "Which animal smiles?")
    store.add_assistant_message(chat.id, answer, transcript=answer, reasoning=REASONING,
                                stats={"rounds": 1, "tools_run": 0, "elapsed_ms": 10})
    store.close()
    return data, chat.id


def _opened(win, qloop, chat_id):
    win.open_chat(chat_id)
    qloop.run(wait_until(lambda: not win.loading))
    thinking = win.view.answers()[-1].findChild(ThinkingSection)
    assert thinking is not None and not thinking.toggle.isChecked()  # closed, as a stored answer opens
    return thinking


def _find(win, words: str):
    win.findChild(QAction, "actionFind").trigger()
    win.find_bar.box.setText(words)
    return win.find_bar


def _on_screen(win, view, start: int) -> bool:
    """Whether the character at ``start`` of ``view`` is in its own box's view and in the conversation's."""
    cursor = view.textCursor()
    cursor.setPosition(start)
    rect = view.cursorRect(cursor)
    if not view.isVisible() or not view.viewport().rect().contains(rect.center()):
        return False
    y = view.viewport().mapTo(win.view.viewport(), rect.center()).y()
    return 0 <= y < win.view.viewport().height()


def test_a_word_only_in_a_closed_thinking_is_found_and_enter_opens_it_and_goes_to_it(make_window, server, qloop,
                                                                                      qtbot, tmp_path):
    data, chat_id = _chat_with_reasoning(tmp_path, answer="A marsupial of Rottnest Island.")
    win = make_window(server.base_url, data_dir=data)
    thinking = _opened(win, qloop, chat_id)
    bar = _find(win, "quokka")
    assert bar.count.text() == "1 of 1 in Thinking, closed: press Enter"  # it said "Not found"
    assert bar.in_text_not_shown() == "thinking" and "Enter opens it" in bar.count.toolTip()
    view, cursor = bar.matches()[0]
    assert view is thinking.body and cursor.selectedText() == "Quokka"
    assert not thinking.toggle.isChecked()  # typing does not open it: Enter does
    qtbot.keyClick(bar.box, Qt.Key.Key_Return)
    assert thinking.toggle.isChecked() and bar.current == 0
    assert bar.count.text() == "1 of 1" and bar.count.toolTip() == ""
    start = cursor.selectionStart()
    qloop.run(wait_until(lambda: _on_screen(win, thinking.body, start)))  # its box scrolled to it, and the chat
    assert thinking.body.verticalScrollBar().value() > 0  # (it is far down the reasoning)
    assert [s.cursor.selectedText() for s in thinking.body.extraSelections()] == ["Quokka"]  # marked
    keep_picture(win, "find_in_thinking.png")


def test_stepping_goes_through_the_matches_in_thinking_and_in_the_answer_in_their_order(make_window, server, qloop,
                                                                                        qtbot, tmp_path):
    data, chat_id = _chat_with_reasoning(tmp_path)
    win = make_window(server.base_url, data_dir=data)
    thinking = _opened(win, qloop, chat_id)
    bar = _find(win, "quokka")
    assert len(bar.matches()) == 2 and bar.matches()[0][0] is thinking.body  # the reasoning is above the answer
    answer_text = bar.matches()[1][0]
    assert bar.current == 0  # (typed onto the first, below the screen's top: see the test after)
    bar.step(False)  # back round to the last, in the answer: the Thinking stays closed
    assert bar.count.text() == "2 of 2" and not thinking.toggle.isChecked()
    bar.step(True)  # round to the first: in the Thinking closed, opened as it is gone to
    assert bar.current == 0 and thinking.toggle.isChecked() and bar.count.text() == "1 of 2"
    bar.step(True)
    assert bar.matches()[bar.current][0] is answer_text


def test_a_closed_thinking_at_the_top_of_the_screen_takes_the_words_typed_where_its_toggle_is(make_window, server,
                                                                                               qloop, tmp_path):
    data, chat_id = _chat_with_reasoning(tmp_path)
    win = make_window(server.base_url, data_dir=data)
    thinking = _opened(win, qloop, chat_id)
    assert thinking.toggle.mapTo(win.view.widget(), QPoint(0, 0)).y() >= win.view.verticalScrollBar().value()
    bar = _find(win, "quokka")
    assert bar.current == 0 and bar.in_text_not_shown() == "thinking"  # the first below the screen's top


def test_a_word_only_in_the_reasoning_of_a_message_not_built_yet_is_reached(make_window, server, qloop, qtbot,
                                                                            tmp_path, monkeypatch):
    from tinyrag_desktop.ui import window_chats

    monkeypatch.setattr(window_chats, "HISTORY_PAGE", 6)  # the chat opens on its last 3 questions and answers
    data = tmp_path / "data"
    store = ChatStore(data)
    chat = store.new_chat("long")
    for i in range(12):
        store.add_user_message(chat.id, f"Question {i}")
        store.add_assistant_message(chat.id, f"Answer {i}", transcript=f"Answer {i}",
                                    reasoning="The okapi, I think." if i == 4 else "Nothing to weigh.")
    store.close()
    win = make_window(server.base_url, data_dir=data)
    win.open_chat(chat.id)
    qloop.run(wait_until(lambda: not win.loading))
    bar = _find(win, "okapi")
    assert bar.matches() == [] and bar.count.text() == "Earlier in this chat: press Enter"  # it said "Not found"
    qtbot.keyClick(bar.box, Qt.Key.Key_Return)  # builds the pages down to it, and goes to it: Thinking opened
    qloop.run(wait_until(lambda: bar.count.text() == "1 of 1"))
    view, cursor = bar.matches()[0]
    thinking = view.parentWidget()
    assert isinstance(thinking, ThinkingSection) and thinking.toggle.isChecked() and cursor.selectedText() == "okapi"
    qloop.run(wait_until(lambda: _on_screen(win, view, cursor.selectionStart())))


# One line of reasoning of 12,500 characters: shown up to its 10,000th, then a note " … (N more characters, Copy
# keeps all)"; "zebra" only in what the note stands for
LONG_LINE = "word " * 2500 + "zebra here\nEnd of the reasoning.\n"


def _chat_with_long_line(tmp_path, answers: int = 1) -> tuple:
    data = tmp_path / "data"
    store = ChatStore(data)
    chat = store.new_chat("animals")
    for n in range(answers):  # the first one's reasoning has the long line
        store.add_user_message(chat.id, f"Which animal? ({n})")
        store.add_assistant_message(chat.id, "A plain answer.", transcript="A plain answer.",
                                    reasoning=LONG_LINE if n == 0 else "Nothing to weigh.",
                                    stats={"rounds": 1, "tools_run": 0, "elapsed_ms": 10})
    store.close()
    return data, chat.id


def test_the_words_of_a_reasoning_lines_note_are_no_match(make_window, server, qloop, tmp_path):
    data, chat_id = _chat_with_long_line(tmp_path)
    win = make_window(server.base_url, data_dir=data)
    thinking = _opened(win, qloop, chat_id)
    assert "Copy keeps all" in thinking.body.toPlainText()
    assert _find(win, "keeps all").count.text() == "Not found"  # it was "1 of 1 in Thinking, closed"


def test_a_word_in_what_a_reasoning_lines_note_stands_for_is_found_at_the_note(make_window, server, qloop, qtbot,
                                                                                tmp_path):
    data, chat_id = _chat_with_long_line(tmp_path)
    win = make_window(server.base_url, data_dir=data)
    thinking = _opened(win, qloop, chat_id)
    bar = _find(win, "zebra")
    assert bar.count.text() == "1 of 1 in Thinking, closed: press Enter"  # it was "Not found"
    qtbot.keyClick(bar.box, Qt.Key.Key_Return)
    assert thinking.toggle.isChecked()
    assert bar.count.text() == "1 of 1, in text not shown" and "Copy reasoning" in bar.count.toolTip()
    view, cursor = bar.matches()[0]
    assert view is thinking.body and cursor.selectedText().startswith(" … (2,510 more characters")  # the note
    assert [s.cursor.selectedText() for s in view.extraSelections()] == [cursor.selectedText()]  # marked
    assert bar.copy_button.isVisible() and bar.copy_button.text() == "Copy reasoning"
    assert bar.copy_button.accessibleName() == "Copy the whole reasoning, with the text not shown"
    qtbot.mouseClick(bar.copy_button, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == LONG_LINE and bar.copy_button.text() == "Copied ✓"


def test_a_word_past_a_cut_in_the_reasoning_of_a_message_not_built_yet_is_reached(make_window, server, qloop,
                                                                                   qtbot, tmp_path, monkeypatch):
    from tinyrag_desktop.ui import window_chats

    monkeypatch.setattr(window_chats, "HISTORY_PAGE", 6)  # the chat opens on its last 3 questions and answers
    data, chat_id = _chat_with_long_line(tmp_path, answers=8)
    win = make_window(server.base_url, data_dir=data)
    win.open_chat(chat_id)
    qloop.run(wait_until(lambda: not win.loading))
    bar = _find(win, "zebra")
    assert bar.count.text() == "Earlier in this chat: press Enter"
    qtbot.keyClick(bar.box, Qt.Key.Key_Return)  # builds the pages down to it, and goes to it
    qloop.run(wait_until(lambda: bar.count.text() == "1 of 1, in text not shown"))  # it found nothing
