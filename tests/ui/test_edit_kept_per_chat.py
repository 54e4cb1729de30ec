"""A question being rewritten (↑, words typed) is kept with its chat while another chat is open: coming back
resumes the edit with those words; a question asked there meanwhile leaves them as an ordinary draft."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.sse_server import Stream
from tests.ui.conftest import ask_and_wait, tokens, wait_until


def _two_chats_editing_the_first(win, server, qloop, qtbot) -> tuple[str, str]:
    server.queue(Stream(tokens("a")))
    assert qloop.run(ask_and_wait(win, "Question A")) == "done"
    a = win.chat_id
    win.new_chat()
    server.queue(Stream(tokens("b")))
    assert qloop.run(ask_and_wait(win, "Question B")) == "done"
    b = win.chat_id
    win.open_chat(a)
    qloop.run(wait_until(lambda: not win.loading))
    win.composer.setFocus()
    qtbot.keyClick(win.composer, Qt.Key.Key_Up)
    win.composer.setPlainText("Question A, carefully rewritten")
    assert win._editing
    win.sidebar.chatSelected.emit(b)
    qloop.run(wait_until(lambda: not win.loading))
    assert win.composer.toPlainText() == "" and not win._editing and not win.edit_hint.isVisible()
    return a, b


def test_coming_back_to_a_chat_resumes_the_edit_with_its_words(make_window, server, qloop, qtbot):
    win = make_window(server.base_url)
    a, _b = _two_chats_editing_the_first(win, server, qloop, qtbot)
    win.sidebar.chatSelected.emit(a)
    qloop.run(wait_until(lambda: not win.loading))
    assert win.composer.toPlainText() == "Question A, carefully rewritten"
    assert win._editing and win.edit_hint.isVisible()
    server.queue(Stream(tokens("rewritten answer")))
    assert qloop.run(ask_and_wait(win, win.composer.toPlainText())) == "done"
    assert [m.content for m in win.store.messages(a)] == ["Question A, carefully rewritten", "rewritten answer"]


def test_the_words_stay_as_a_draft_when_the_question_edited_is_no_longer_the_last(make_window, server, qloop,
                                                                                 qtbot):
    win = make_window(server.base_url)
    a, _b = _two_chats_editing_the_first(win, server, qloop, qtbot)
    win.store.add_user_message(a, "Asked elsewhere")  # (an `ask` in a terminal)
    win.new_chat()
    win.open_chat(a)
    qloop.run(wait_until(lambda: not win.loading))
    assert win.composer.toPlainText() == "Question A, carefully rewritten"
    assert not win._editing and not win.edit_hint.isVisible()


def _edited_and_quit(make_window, server, qloop, qtbot, data) -> tuple[object, str]:
    """A chat's question asked, then being rewritten (↑, " EDITED") as the window is quit: (the window, the chat)."""
    server.queue(Stream(tokens("first answer")))
    win = make_window(server.base_url, data_dir=data, reopen_last=True)
    assert qloop.run(ask_and_wait(win, "Question A")) == "done"
    win.composer.setFocus()
    qtbot.keyClick(win.composer, Qt.Key.Key_Up)
    qtbot.keyClicks(win.composer, " EDITED")
    assert win._editing and win.edit_hint.isVisible()
    win.close()  # as Quit does
    return win, win.chat_id


def _reopened(make_window, server, qloop, data, chat: str):
    win = make_window(server.base_url, data_dir=data, reopen_last=True)
    qloop.run(wait_until(lambda: win.chat_id == chat and not win.loading))
    return win


def test_a_question_being_edited_is_still_being_edited_after_a_restart(make_window, server, qloop, qtbot, tmp_path):
    # The words came back as an ordinary draft, without "Editing your last question…": Enter asked them as a
    # new question under the old one.
    data = tmp_path / "data"
    _win, chat = _edited_and_quit(make_window, server, qloop, qtbot, data)
    again = _reopened(make_window, server, qloop, data, chat)
    assert again.composer.toPlainText() == "Question A EDITED"
    assert again._editing and again.edit_hint.isVisible()
    server.queue(Stream(tokens("answer to the edit")))
    assert qloop.run(ask_and_wait(again, again.composer.toPlainText())) == "done"
    assert [m.content for m in again.store.messages(chat)] == ["Question A EDITED", "answer to the edit"]
    again.close()
    third = _reopened(make_window, server, qloop, data, chat)  # sent: nothing is edited any more
    assert third.composer.toPlainText() == "" and not third._editing


def test_an_edit_of_a_question_no_longer_the_last_comes_back_as_an_ordinary_draft(make_window, server, qloop, qtbot,
                                                                                 tmp_path):
    data = tmp_path / "data"
    win, chat = _edited_and_quit(make_window, server, qloop, qtbot, data)
    win.store.add_user_message(chat, "Asked elsewhere")  # (an `ask` in a terminal, before the next start)
    again = _reopened(make_window, server, qloop, data, chat)
    assert again.composer.toPlainText() == "Question A EDITED"
    assert not again._editing and not again.edit_hint.isVisible()
