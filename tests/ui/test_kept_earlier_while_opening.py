"""A Regenerate that ends shorter than the answer it was to replace keeps that earlier answer: the window shows it
and says so, also when the chat is still being built as the answer stops (it showed the new, unstored answer,
and said nothing), and when the chat was left for another (it said only that the answer failed, and moved the
chat, unchanged, to the top of the list)."""
from __future__ import annotations

import sqlite3

from tests.sse_server import Stream
from tests.ui.conftest import ask_and_wait, tokens, wait_signal, wait_until
from tinyrag_desktop.chats import ChatStore
from tinyrag_desktop.ui import window_chats

STORY = ("Once upon a time there was a small local model that answered every question in a steady stream. " * 6).strip()


def test_a_shorter_regenerate_stopped_while_its_chat_opens_shows_the_earlier_answer(make_window, server, qloop,
                                                                                tmp_path, monkeypatch):
    data, old = tmp_path / "data", STORY[:300]
    data.mkdir()
    store = ChatStore(data)
    other = store.new_chat()
    store.add_user_message(other.id, "Other")
    store.add_assistant_message(other.id, "Other answer.")
    store.close()
    win = make_window(server.base_url, data_dir=data)
    for n in range(30):  # a chat long enough to take many slices to build
        server.queue(Stream(tokens(f"Answer {n}. " * 20 if n < 29 else old)))
        assert qloop.run(ask_and_wait(win, f"Question {n}")) == "done"
    chat_id = win.chat_id
    server.queue(Stream(tokens(STORY, 6), delay=0.05))
    finished = wait_signal(win.answerFinished, timeout=30)
    assert win.regenerate()
    qloop.run(wait_until(lambda: len(win.view.answers()[-1].content()) > 60))
    win.open_chat(other.id)
    qloop.run(wait_until(lambda: not win.loading))
    monkeypatch.setattr(window_chats, "LOAD_BUDGET", 0.0)  # a message a turn: still building as it stops
    win.open_chat(chat_id)
    assert win.loading
    loading_at_end = []
    win.answerFinished.connect(lambda _o: loading_at_end.append(win.loading))
    win.stop()
    assert qloop.run(finished) == "stopped"
    qloop.run(wait_until(lambda: not win.loading, timeout=20))
    with sqlite3.connect(data / "chats.sqlite3") as db:
        stored = db.execute("SELECT content FROM messages WHERE chat_id=? ORDER BY id DESC LIMIT 1",
                            (chat_id,)).fetchone()[0]
    assert stored == old  # the earlier answer is kept
    shown = win.view.answers()[-1].content()
    assert shown == stored, (loading_at_end, shown[:50], len(shown), len(win.view.answers()))
    assert len(win.view.answers()) == window_chats.HISTORY_PAGE // 2  # once, below the rest of its page
    assert win.statusBar().currentMessage() == "Stopped while the new answer was shorter. The earlier answer is kept."


def test_a_shorter_regenerate_failing_in_a_chat_left_says_the_earlier_answer_is_kept(make_window, server, qloop):
    win = make_window(server.base_url)
    server.queue(Stream(tokens(STORY[:300])))
    assert qloop.run(ask_and_wait(win, "A long one")) == "done"
    first = win.chat_id
    win.new_chat()
    server.queue(Stream(tokens("Short.")))
    assert qloop.run(ask_and_wait(win, "Another")) == "done"
    second = win.chat_id
    win.open_chat(first)
    qloop.run(wait_until(lambda: not win.loading))
    order = win.sidebar.ids()
    assert order[0] == second
    server.queue(Stream(tokens(STORY, 6), delay=0.05, cut_after=10))  # breaks after 60 characters
    finished = wait_signal(win.answerFinished, timeout=30)
    assert win.regenerate()
    qloop.run(wait_until(lambda: win.view.answers() and win.view.answers()[-1].content()))
    win.open_chat(second)
    assert qloop.run(finished) == "error"
    assert win.statusBar().currentMessage() == ("The answer in “A long one” could not be finished. "
                                                "The earlier answer is kept.")
    assert win.sidebar.ids() == order  # nothing changed in it: it stays where it was in the list
    win.open_chat(first)
    qloop.run(wait_until(lambda: not win.loading))
    assert win.view.answers()[-1].content() == STORY[:300]
