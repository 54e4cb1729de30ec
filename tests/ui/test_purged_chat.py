"""A chat deleted for good from the history while it is open (another window's or an --ask run's closing
purges chats deleted a day before) is saved again, as it is shown, when its next question or answer is
saved; the notice says so. Before, the question got a box saying "Could not write the chat history …:
FOREIGN KEY constraint failed." at every try, and an answer "could not be saved" with those words.
The history is real SQLite, purged through another connection as another program would."""

from __future__ import annotations

import sqlite3

import pytest
from PySide6.QtWidgets import QMessageBox

from tests.sse_server import Status, Stream
from tests.ui.conftest import ask_and_wait, ask_then_stop, tokens, wait_signal, wait_until
from tinyrag_desktop.chats import ChatGone, ChatStore, ChatStoreError, StoredMessage, StoredTool

STORY = " ".join(f"word{n}" for n in range(400))
CALL = '<tool name="calculate"><query>2**200</query></tool>'
BIG = str(2**200)


def _purge_elsewhere(data, chat_id: str) -> None:
    other = ChatStore(data)
    other.delete(chat_id)
    other.purge_deleted(chats=[chat_id])
    other.close()


def _stored(data, chat_id: str) -> list[tuple[str, str, str]]:
    with sqlite3.connect(data / "chats.sqlite3") as db:
        return db.execute("SELECT role, content, status FROM messages WHERE chat_id=? ORDER BY id",
                          (chat_id,)).fetchall()


@pytest.fixture
def boxes(monkeypatch):
    said: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, _title, text: said.append(text))
    return said


def test_a_chat_purged_elsewhere_says_so_in_words_and_can_be_saved_anew(tmp_path):
    store = ChatStore(tmp_path)
    chat = store.new_chat("Plans", persona="Helper")
    _purge_elsewhere(tmp_path, chat.id)
    with pytest.raises(ChatGone, match="deleted for good from the chat history elsewhere") as gone:
        store.add_user_message(chat.id, "lost?")
    assert "FOREIGN KEY" not in str(gone.value) and gone.value.chat_id == chat.id
    with pytest.raises(ChatGone):
        store.add_assistant_message(chat.id, "lost?", message_id=1)
    tool = StoredTool("c1", "calculator", "2+2", "done", result="4", position=3)
    ids = store.save_anew(chat.id, "Plans", "Helper", [
        StoredMessage(0, "user", "What is 2+2?"),
        StoredMessage(
            0, "assistant", "It is 4.", stats={"outcome": "done"}, tools=(tool,))])
    store.add_user_message(chat.id, "And 3+3?")
    again = store.get_chat(chat.id)
    assert again is not None and (again.title, again.persona) == ("Plans", "Helper")
    messages = store.messages(chat.id)
    assert [m.id for m in messages[:2]] == ids
    assert [(m.role, m.content) for m in messages] == [("user", "What is 2+2?"), ("assistant", "It is 4."),
                                                       ("user", "And 3+3?")]
    assert messages[1].tools[0].result == "4" and messages[1].tools[0].position == 3
    store.close()


def test_a_question_sent_in_a_chat_purged_meanwhile_saves_the_chat_anew(make_window, server, qloop, tmp_path,
                                                                        boxes):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    server.queue(Stream(tokens("Paris.")), Stream(tokens("About two million.")))
    assert qloop.run(ask_and_wait(win, "What is the capital of France?")) == "done"
    chat_id, title = win.chat_id, win.title_label.text()
    _purge_elsewhere(data, chat_id)

    assert qloop.run(ask_and_wait(win, "How many people live there?")) == "done"
    assert boxes == []  # no box with SQLite's words
    assert win.chat_id == chat_id and win.composer.toPlainText() == ""
    text = win.notice_label.text()
    assert win.notice_bar.isVisible() and "deleted for good" in text and "saved again, as it is shown" in text
    assert "FOREIGN KEY" not in text and "earlier messages" not in text
    assert _stored(data, chat_id) == [("user", "What is the capital of France?", "done"),
                                      ("assistant", "Paris.", "done"),
                                      ("user", "How many people live there?", "done"),
                                      ("assistant", "About two million.", "done")]
    # the model was asked with the whole chat, and the chat is listed again under its title
    assert [m["content"] for m in server.requests[-1]["messages"] if m["role"] != "system"][-3:] == [
        "What is the capital of France?", "Paris.", "How many people live there?"]
    assert chat_id in win.sidebar.ids() and ChatStore(data).get_chat(chat_id).title == title
    # Regenerate replaces the answer saved anew, not one of the rows that were purged
    server.queue(Stream(tokens("Some two million people.")))

    async def again():
        finished = wait_signal(win.answerFinished, timeout=15)
        assert win.regenerate()
        return await finished

    assert qloop.run(again()) == "done"
    assert [c for _r, c, _s in _stored(data, chat_id)][-1] == "Some two million people."
    assert len(_stored(data, chat_id)) == 4


def test_an_answer_whose_chat_is_purged_as_it_streams_is_saved_with_the_chat(make_window, server, qloop, tmp_path,
                                                                           boxes):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    server.queue(Stream(tokens(STORY, 16), delay=0.004))

    purged = lambda: _purge_elsewhere(data, win.chat_id)  # noqa: E731 (once some of the answer is shown)
    assert qloop.run(ask_then_stop(win, "Tell me a long story", lambda a: len(a.content()) > 100, stop=purged,
                                   timeout=30), timeout=40) == "done"
    text = win.notice_label.text()
    assert "deleted for good" in text and "saved again" in text and "could not be saved" not in text
    assert _stored(data, win.chat_id) == [("user", "Tell me a long story", "done"), ("assistant", STORY, "done")]
    assert boxes == []


def test_the_last_question_edited_in_a_chat_purged_meanwhile_is_sent_and_the_chat_saved_anew(
        make_window, server, qloop, tmp_path, boxes):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    server.queue(Stream(tokens("Paris.")), Stream(tokens("Rome.")))
    assert qloop.run(ask_and_wait(win, "What is the capital of France?")) == "done"
    _purge_elsewhere(data, win.chat_id)
    assert win.edit_last_question()  # (it was sent silently nowhere: the question stayed in the box)
    assert qloop.run(ask_and_wait(win, "What is the capital of Italy?")) == "done"
    assert _stored(data, win.chat_id) == [("user", "What is the capital of Italy?", "done"),
                                          ("assistant", "Rome.", "done")]
    assert [a.content() for a in win.view.answers()] == ["Rome."] and boxes == []


def test_an_answer_whose_chat_was_left_and_purged_as_it_streams_is_saved_under_its_title(
        make_window, server, qloop, tmp_path, boxes):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    server.queue(Stream(tokens(STORY, 16), delay=0.004))
    story = []

    def away():  # another chat is opened, and the story's chat is purged elsewhere
        story.append(win.chat_id)
        win.new_chat()
        _purge_elsewhere(data, story[0])

    assert qloop.run(ask_then_stop(win, "Tell me a long story", lambda a: len(a.content()) > 100, stop=away,
                                   timeout=30), timeout=40) == "done"
    assert "The chat “Tell me a long story” was deleted for good" in win.notice_label.text()
    assert "saved again with that answer" in win.notice_label.text()
    assert _stored(data, story[0]) == [("assistant", STORY, "done")]
    assert ChatStore(data).get_chat(story[0]).title == "Tell me a long story" and story[0] in win.sidebar.ids()
    assert win.chat_id is None and boxes == []


def test_a_question_that_waits_in_a_chat_purged_meanwhile_saves_the_chat_anew(make_window, server, qloop,
                                                                              tmp_path, boxes):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    server.queue(Stream(tokens("Paris.")), Stream(tokens(STORY, 16), delay=0.004), Stream(tokens("Rome.")))
    assert qloop.run(ask_and_wait(win, "What is the capital of France?")) == "done"
    capitals = win.chat_id
    outcomes: list[str] = []
    win.answerFinished.connect(outcomes.append)

    def back():  # the story streams in a new chat; the first chat, open again, is purged, then asked in
        win.open_chat(capitals)
        _purge_elsewhere(data, capitals)
        assert win.ask("And of Italy?")  # waits for the story
        assert win.waiting.chats() == [capitals]

    win.new_chat()
    assert qloop.run(ask_then_stop(win, "Tell me a long story", lambda a: len(a.content()) > 100, stop=back,
                                   timeout=30), timeout=40) == "done"
    qloop.run(wait_until(lambda: len(outcomes) == 2, timeout=30), timeout=40)
    assert _stored(data, capitals) == [("user", "What is the capital of France?", "done"),
                                       ("assistant", "Paris.", "done"), ("user", "And of Italy?", "done"),
                                       ("assistant", "Rome.", "done")]
    assert "saved again, as it is shown" in win.notice_label.text() and boxes == []


async def _regenerated(win) -> str:
    """Regenerate pressed on the last answer: how that answer ended."""
    finished = wait_signal(win.answerFinished, timeout=15)
    assert win.regenerate()
    return await finished


def _asked(server, first: str) -> list[tuple[str, str]]:
    """The conversation the last request to the model held, from the question ``first`` (the system prompt
    and the examples of tool calls before it aside)."""
    sent = [(m["role"], m["content"]) for m in server.requests[-1]["messages"]]
    return sent[max((n for n, m in enumerate(sent) if m == ("user", first)), default=len(sent)):]


@pytest.mark.parametrize("again", ["regenerate", "retry"])
def test_an_answer_asked_again_in_a_chat_purged_meanwhile_is_asked_with_the_conversation(
        make_window, server, qloop, tmp_path, boxes, again):
    # (the history was read while the chat was gone: the model got the system prompt and nothing else)
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    last = Stream(tokens("About two million.")) if again == "regenerate" else Status(500, "model crashed")
    server.queue(Stream(tokens("Paris.")), last, Stream(tokens("Some two million people.")))
    assert qloop.run(ask_and_wait(win, "What is the capital of France?")) == "done"
    assert qloop.run(ask_and_wait(win, "How many people live there?")) == ("done" if again == "regenerate"
                                                                            else "error")
    chat_id = win.chat_id
    _purge_elsewhere(data, chat_id)

    async def asked_again():
        finished = wait_signal(win.answerFinished, timeout=15)
        if again == "regenerate":
            assert win.regenerate()
        else:
            await wait_until(win.view.answers()[-1].retry_button.isVisible)
            win.view.answers()[-1].retry_button.click()
        return await finished

    assert qloop.run(asked_again()) == "done"
    assert _asked(server, "What is the capital of France?") == [("user", "What is the capital of France?"), ("assistant", "Paris."),
                              ("user", "How many people live there?")]
    assert _stored(data, chat_id) == [("user", "What is the capital of France?", "done"),
                                      ("assistant", "Paris.", "done"), ("user", "How many people live there?", "done"),
                                      ("assistant", "Some two million people.", "done")]
    assert "saved again, as it is shown" in win.notice_label.text() and boxes == []
    assert chat_id in win.sidebar.ids()


@pytest.mark.parametrize("shown", ["as answered", "opened again"])
def test_a_chat_saved_anew_gives_the_model_its_earlier_tool_calls_with_their_results(
        make_window, server, qloop, tmp_path, boxes, shown):
    # (saved anew, each answer's tool blocks were left out of what it was stored with: its calls no longer
    # matched its text, and the follow-up came to a model that saw neither the call nor its result)
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    server.queue(Stream(tokens(f"Let me compute. {CALL}")), Stream(tokens("It is a 61-digit number.")),
                 Stream(tokens("It was the number above.")))
    assert qloop.run(ask_and_wait(win, "What is 2**200?")) == "done"
    chat_id = win.chat_id
    if shown == "opened again":  # the answer is the one rebuilt from the history
        win.new_chat()
        win.open_chat(chat_id)
        win.finish_loading()
    answered = ChatStore(data).messages(chat_id)[1]
    _purge_elsewhere(data, chat_id)
    assert qloop.run(ask_and_wait(win, "What was 2**200 again?")) == "done"

    assert "saved again, as it is shown" in win.notice_label.text() and boxes == []
    asked = _asked(server, "What is 2**200?")
    assert [role for role, _c in asked] == ["user", "assistant", "user", "assistant", "user"]
    assert asked[1] == ("assistant", f"Let me compute. {CALL}")
    assert asked[2][1].startswith("<tool_results>") and BIG in asked[2][1]
    assert asked[3] == ("assistant", "It is a 61-digit number.")
    assert asked[4][1].startswith("What was 2**200 again?")  # (with a hint of the tool to use)
    saved = ChatStore(data).messages(chat_id)[1]  # stored again as it was
    assert (saved.transcript, saved.status, saved.tools) == (answered.transcript, "done", answered.tools)
    assert CALL in saved.transcript and [t.round for t in saved.tools] == [1]


def test_an_answer_stored_stopped_with_a_note_is_saved_anew_as_stopped(make_window, server, qloop, tmp_path,
                                                                        boxes):
    # (shown failed, with the note "the app closed before it was finished", it was saved anew as an error)
    data = tmp_path / "data"
    store = ChatStore(data)
    chat = store.new_chat("Story")
    store.add_user_message(chat.id, "Tell me a story")
    note = "The app closed before this answer was finished; what had arrived is kept. Press Retry to ask again."
    store.add_assistant_message(chat.id, "Once upon", status="stopped", error=note, stats={"outcome": "stopped"})
    store.close()
    win = make_window(server.base_url, data_dir=data)
    server.queue(Stream(tokens("The end.")))
    win.open_chat(chat.id)
    win.finish_loading()
    _purge_elsewhere(data, chat.id)
    assert qloop.run(ask_and_wait(win, "Go on")) == "done"
    stored = ChatStore(data).messages(chat.id)
    assert [(m.content, m.status, m.error) for m in stored[:2]] == [("Tell me a story", "done", None),
                                                                  ("Once upon", "stopped", note)]
    assert boxes == []


def test_an_answer_asked_again_in_a_purged_chat_that_cannot_be_saved_anew_says_why_and_can_be_retried(
        make_window, server, qloop, tmp_path, boxes, monkeypatch):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    server.queue(Stream(tokens("Paris.")), Stream(tokens("Paris, again.")))
    assert qloop.run(ask_and_wait(win, "What is the capital of France?")) == "done"
    _purge_elsewhere(data, win.chat_id)
    full = "Could not write the chat history: the disk is full. Free some space, then try again."

    def cannot(*_args):
        raise ChatStoreError(full)
    monkeypatch.setattr(win.store, "save_anew", cannot)
    asked = len(server.requests)

    assert qloop.run(_regenerated(win)) == "error"
    assert len(server.requests) == asked  # the model was not asked without the conversation
    answer = win.view.answers()[-1]
    assert answer.error == full and boxes == []
    monkeypatch.undo()  # space was freed: Retry saves the chat anew and asks with it

    async def retried():
        finished = wait_signal(win.answerFinished, timeout=15)
        await wait_until(answer.retry_button.isVisible)
        answer.retry_button.click()
        return await finished

    assert qloop.run(retried()) == "done"
    assert _asked(server, "What is the capital of France?") == [("user", "What is the capital of France?")]
    assert _stored(data, win.chat_id) == [("user", "What is the capital of France?", "done"),
                                          ("assistant", "Paris, again.", "done")]


def test_an_answer_asked_again_when_the_history_cannot_be_read_says_why_in_words(
        make_window, server, qloop, tmp_path, boxes, monkeypatch):
    # The history read for Regenerate raised SQLite's error out of the slot: a traceback, and no answer.
    win = make_window(server.base_url, data_dir=tmp_path / "data")
    server.queue(Stream(tokens("Paris.")))
    assert qloop.run(ask_and_wait(win, "What is the capital of France?")) == "done"

    def unreadable(*_args, **_kwargs):
        raise sqlite3.OperationalError("disk I/O error")
    monkeypatch.setattr(win.store, "history", unreadable)
    asked = len(server.requests)

    assert qloop.run(_regenerated(win)) == "error"
    assert len(server.requests) == asked
    # the earlier answer is kept (as for any Regenerate that fails), and the status bar says why in words
    assert win.statusBar().currentMessage().startswith(
        "Could not answer again: Could not read this chat from the chat history (disk I/O error).")
    assert boxes == [] and len(win.view.answers()) == 1
