"""Editing the last question: Up in the empty message box puts it back; sending replaces it and its answer."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt

from tests.sse_server import Stream
from tinyrag_desktop.chats import ChatStore, title_from

from .conftest import ask_and_wait, tokens


async def _send_with_enter(win, qtbot) -> str:
    fut = asyncio.get_running_loop().create_future()
    win.answerFinished.connect(lambda outcome: fut.done() or fut.set_result(outcome))
    qtbot.keyClick(win.composer, Qt.Key.Key_Return)
    return await asyncio.wait_for(fut, 15)


def _user_texts(messages: list[dict[str, str]]) -> list[str]:
    return [m["content"] for m in messages if m["role"] == "user"]


def test_up_edits_the_last_question_and_enter_replaces_it_and_its_answer(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens("Paris.")), Stream(tokens("About 2.1 million.")), Stream(tokens("About 11 million.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "What is the capital of France?")) == "done"
    assert qloop.run(ask_and_wait(win, "How many people live in the city?")) == "done"
    win.composer.setFocus()
    qtbot.keyClick(win.composer, Qt.Key.Key_Up)
    assert win.composer.toPlainText() == "How many people live in the city?"
    assert win.edit_hint.isVisible()
    assert win.composer.textCursor().atEnd()
    win.composer.setPlainText("How many people live in the metropolitan area?")
    assert qloop.run(_send_with_enter(win, qtbot)) == "done"

    # the model saw the first exchange and the edited question, not the old one or its answer
    sent = server.requests[-1]["messages"]
    assert _user_texts(sent)[-2:] == ["What is the capital of France?",
                                      "How many people live in the metropolitan area?"]
    assert not any("2.1 million" in m["content"] for m in sent)
    assert [q.text() for q in win.view.questions()] == ["What is the capital of France?",
                                                        "How many people live in the metropolitan area?"]
    assert [a.content() for a in win.view.answers()] == ["Paris.", "About 11 million."]
    stored = ChatStore(win.data_dir).messages(win.chat_id)
    assert [(m.role, m.content) for m in stored] == [
        ("user", "What is the capital of France?"), ("assistant", "Paris."),
        ("user", "How many people live in the metropolitan area?"), ("assistant", "About 11 million.")]
    assert not win.edit_hint.isVisible()


def test_esc_cancels_the_edit_and_changes_nothing(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens("Hello!")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Say hello")) == "done"
    win.composer.setFocus()
    qtbot.keyClick(win.composer, Qt.Key.Key_Up)
    assert win.edit_hint.isVisible()
    qtbot.keyClick(win.composer, Qt.Key.Key_Escape)
    assert win.composer.toPlainText() == "" and not win.edit_hint.isVisible()
    assert [q.text() for q in win.view.questions()] == ["Say hello"] and len(win.view.answers()) == 1
    # Up with text in the box moves the cursor as usual: no edit
    win.composer.setPlainText("a draft")
    qtbot.keyClick(win.composer, Qt.Key.Key_Up)
    assert win.composer.toPlainText() == "a draft" and not win.edit_hint.isVisible()


def test_editing_the_only_question_renames_the_chat_it_named(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens("One.")), Stream(tokens("Two.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Tell me about tomatoes")) == "done"
    assert win.title_label.text() == title_from("Tell me about tomatoes")
    assert win.edit_last_question()
    win.composer.setPlainText("Tell me about potatoes")
    assert qloop.run(_send_with_enter(win, qtbot)) == "done"
    assert ChatStore(win.data_dir).get_chat(win.chat_id).title == title_from("Tell me about potatoes")
    assert win.title_label.text() == title_from("Tell me about potatoes")


def test_a_chat_renamed_by_the_user_keeps_its_name(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens("One.")), Stream(tokens("Two.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Tell me about tomatoes")) == "done"
    win.store.rename(win.chat_id, "Garden plans")
    assert win.edit_last_question()
    win.composer.setPlainText("Tell me about potatoes")
    assert qloop.run(_send_with_enter(win, qtbot)) == "done"
    assert ChatStore(win.data_dir).get_chat(win.chat_id).title == "Garden plans"


def test_nothing_to_edit_in_a_new_chat_and_switching_chats_ends_an_edit(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens("Fine.")))
    win = make_window(server.base_url)
    assert not win.edit_last_question()  # a new chat has no question yet
    win.composer.setFocus()
    qtbot.keyClick(win.composer, Qt.Key.Key_Up)
    assert not win.edit_hint.isVisible()
    assert qloop.run(ask_and_wait(win, "How are things?")) == "done"
    assert win.menus.all and any(a.objectName() == "actionEditLast" for a in win.menus.all)
    assert win.edit_last_question()
    win.new_chat()
    assert not win.edit_hint.isVisible() and win.composer.toPlainText() == ""
