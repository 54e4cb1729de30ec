"""A question waiting for another chat's answer whose own chat is deleted for good elsewhere meanwhile (another
window's or program's closing purged it) is asked when its turn comes, in the chat saved anew: before, its turn
came, the chat was taken for deleted, and the question was neither asked nor kept, without a word.
The history is real SQLite, purged through another connection as another program would."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from tests.sse_server import Stream
from tests.ui.conftest import ask_and_wait, ask_then_stop, tokens, wait_until
from tests.ui.test_purged_chat import STORY, _purge_elsewhere, _stored
from tinyrag_desktop.chats import ChatStore


@pytest.fixture
def boxes(monkeypatch):
    said: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, _title, text: said.append(text))
    return said


def _wait_in_purged_chat(win, server, qloop, data, *, leave: bool, began: bool = False) -> str:
    """"And of Italy?" waits in the chat about France (a chat of its own when ``began``) for a story written
    in another chat; meanwhile that chat (left for a new one when ``leave``) is purged elsewhere. Returns its
    id once both answers ended."""
    server.queue(Stream(tokens("Paris.")), Stream(tokens(STORY, 16), delay=0.004), Stream(tokens("Rome.")))
    assert qloop.run(ask_and_wait(win, "What is the capital of France?")) == "done"
    capitals = win.chat_id
    outcomes: list[str] = []
    waited: list[str] = []
    win.answerFinished.connect(outcomes.append)

    def meanwhile():
        if began:
            win.new_chat()
        else:
            win.open_chat(capitals)
        assert win.ask("And of Italy?")  # waits for the story
        waited.append(win.chat_id)
        assert win.waiting.chats() == waited
        if leave:
            win.new_chat()
        _purge_elsewhere(data, waited[0])

    win.new_chat()
    assert qloop.run(ask_then_stop(win, "Tell me a long story", lambda a: len(a.content()) > 100, stop=meanwhile,
                                   timeout=30), timeout=40) == "done"
    qloop.run(wait_until(lambda: len(outcomes) == 2, timeout=15), timeout=20)
    assert outcomes == ["done", "done"]
    return waited[0]


def test_a_waiting_question_whose_open_chat_is_purged_is_asked_in_the_chat_saved_anew(
        make_window, server, qloop, tmp_path, boxes):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    capitals = _wait_in_purged_chat(win, server, qloop, data, leave=False)
    assert _stored(data, capitals) == [("user", "What is the capital of France?", "done"),
                                       ("assistant", "Paris.", "done"), ("user", "And of Italy?", "done"),
                                       ("assistant", "Rome.", "done")]
    asked = [(m["role"], m["content"]) for m in server.requests[-1]["messages"] if m["role"] != "system"]
    assert asked[-3:] == [("user", "What is the capital of France?"), ("assistant", "Paris."),
                          ("user", "And of Italy?")]
    assert "saved again, as it is shown" in win.notice_label.text() and boxes == []
    assert [a.content() for a in win.view.answers()] == ["Paris.", "Rome."]
    assert capitals in win.sidebar.ids()


def test_a_waiting_question_whose_chat_was_left_and_purged_is_asked_in_a_chat_saved_anew_under_its_title(
        make_window, server, qloop, tmp_path, boxes):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    capitals = _wait_in_purged_chat(win, server, qloop, data, leave=True)
    # only the question is known here: the earlier exchange went with the chat, and the notice says so
    assert _stored(data, capitals) == [("user", "And of Italy?", "done"), ("assistant", "Rome.", "done")]
    assert server.requests[-1]["messages"][-1]["content"].startswith("And of Italy?")
    text = win.notice_label.text()
    assert "The chat “What is the capital of France?” was deleted for good" in text
    assert "saved again with that question" in text and "earlier messages" in text and boxes == []
    assert ChatStore(data).get_chat(capitals).title == "What is the capital of France?"
    assert capitals in win.sidebar.ids() and win.chat_id != capitals


def test_a_waiting_question_that_began_its_chat_left_and_purged_says_no_earlier_messages_were_lost(
        make_window, server, qloop, tmp_path, boxes):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    italy = _wait_in_purged_chat(win, server, qloop, data, leave=True, began=True)
    assert _stored(data, italy) == [("user", "And of Italy?", "done"), ("assistant", "Rome.", "done")]
    text = win.notice_label.text()
    assert "The chat “And of Italy?” was deleted for good" in text and "earlier messages" not in text


def test_a_waiting_question_whose_chat_was_deleted_here_is_still_not_asked(make_window, server, qloop, tmp_path,
                                                                         boxes):
    # (deleted in this window, and purged: the user chose so; Undo was the way to keep it)
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    server.queue(Stream(tokens("Paris.")), Stream(tokens(STORY, 16), delay=0.004), Stream(tokens("Rome.")))
    assert qloop.run(ask_and_wait(win, "What is the capital of France?")) == "done"
    capitals = win.chat_id

    def meanwhile():
        win.open_chat(capitals)
        assert win.ask("And of Italy?")
        win.delete_chat(capitals)
        win.store.purge_deleted(chats=[capitals])

    win.new_chat()
    assert qloop.run(ask_then_stop(win, "Tell me a long story", lambda a: len(a.content()) > 100, stop=meanwhile,
                                   timeout=30), timeout=40) == "done"
    qloop.run(wait_until(lambda: not win.waiting.chats(), timeout=30), timeout=40)
    assert ChatStore(data).get_chat(capitals) is None and _stored(data, capitals) == []
    assert not any("And of Italy?" in str(m.get("content")) for r in server.requests for m in r["messages"])
