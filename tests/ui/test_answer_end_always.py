"""An answer always ends in the window, whatever its storing meets: a deleted data folder, a full disk, a
locked history, or a bug. It stays on screen, the notice says it was not saved, the end's signal comes, and
a bug's traceback is in the log. The history is real SQLite on real files."""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3

import pytest

from tests.sse_server import Stream
from tests.ui.conftest import ask_and_wait, tokens, wait_signal, wait_until
from tinyrag_desktop.chats import ChatStore, ChatStoreError
from tinyrag_desktop.ui.answer import AnswerWidget

STORY = ("A small local model answered every question in a steady stream, one sentence after another. " * 8).strip()


def _ended_on_screen(win, text: str) -> None:
    """The answer is shown whole, ended, with Regenerate, and the notice says it was not saved."""
    answer = win.view.answers()[-1]
    assert answer.content() == text and not answer.streaming
    assert answer.regenerate_offered()
    assert win.notice_bar.isVisible() and "could not be saved" in win.notice_label.text()
    assert "copy it" in win.notice_label.text()


def test_an_answer_whose_data_folder_is_deleted_as_it_streams_says_it_was_not_saved(make_window, server, qloop,
                                                                                      tmp_path):
    # SQLite wrote on into the deleted file: the answer looked saved and was gone at the close, unsaid
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    server.queue(Stream(tokens(STORY, 6), delay=0.01))

    async def scenario():
        finished = wait_signal(win.answerFinished, timeout=30)
        win.ask("Tell me a story")
        await wait_until(lambda: len(win.view.answers()[-1].content()) > 60)
        shutil.rmtree(data)  # the user deletes the data folder while the window is open
        return await finished

    assert qloop.run(scenario(), timeout=40) == "done"
    _ended_on_screen(win, STORY)
    assert "no longer there" in win.notice_label.text() and "data folder was deleted" in win.notice_label.text()
    assert not data.exists()  # nothing pretended to save it


def test_an_answer_that_finds_the_disk_full_ends_and_says_so(make_window, server, qloop, tmp_path):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    long = " ".join(["A paragraph of the answer that takes room on the disk."] * 400)
    server.queue(Stream(tokens(long, 400)))
    # the history may grow no more: SQLite's own "database or disk is full", as on a full disk
    pages = win.store._db.execute("PRAGMA page_count").fetchone()[0]
    win.store._db.execute(f"PRAGMA max_page_count = {pages + 2}")
    assert qloop.run(ask_and_wait(win, "A long answer, please")) == "done"
    _ended_on_screen(win, long)
    assert "disk is full" in win.notice_label.text()


def test_an_answer_that_ends_while_another_program_holds_the_history_ends_and_is_saved_later(
        make_window, server, qloop, tmp_path):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    server.queue(Stream(tokens(STORY, 6), delay=0.01))
    other = sqlite3.connect(data / "chats.sqlite3", isolation_level=None)

    async def scenario():
        finished = wait_signal(win.answerFinished, timeout=30)
        win.ask("Tell me a story")  # stored: the lock comes as the answer streams
        await wait_until(lambda: len(win.view.answers()[-1].content()) > 60)
        other.execute("BEGIN IMMEDIATE")  # a database browser with unsaved changes
        return await finished

    try:
        assert qloop.run(scenario(), timeout=40) == "done"
        _ended_on_screen(win, STORY)
        assert "another program is using it" in win.notice_label.text()
    finally:
        other.execute("ROLLBACK")
        other.close()
    server.queue(Stream(tokens("The second answer.")))
    assert qloop.run(ask_and_wait(win, "A second question")) == "done"
    with sqlite3.connect(data / "chats.sqlite3") as db:
        rows = db.execute("SELECT content FROM messages WHERE chat_id=? ORDER BY id", (win.chat_id,)).fetchall()
    assert [r[0] for r in rows] == ["Tell me a story", STORY, "A second question", "The second answer."]
    assert not win.notice_bar.isVisible()


def test_a_bug_while_storing_still_ends_the_answer_and_is_logged_with_its_traceback(
        make_window, server, qloop, monkeypatch, caplog):
    win = make_window(server.base_url)
    server.queue(Stream(tokens("An answer to keep on screen.")))

    def bug(_self):
        raise TypeError("a bug in the answer's error")

    monkeypatch.setattr(AnswerWidget, "error", property(bug))  # read only as the answer's end is stored
    with caplog.at_level(logging.WARNING):
        assert qloop.run(ask_and_wait(win, "A question")) == "done"  # answerFinished came
    _ended_on_screen(win, "An answer to keep on screen.")
    assert "details are in the log" in win.notice_label.text() and "TypeError" not in win.notice_label.text()
    logged = [r for r in caplog.records if r.exc_info and "a bug in the answer's error" in str(r.exc_info[1])]
    assert logged and logged[0].levelno == logging.ERROR
    monkeypatch.undo()
    server.queue(Stream(tokens("The next answer.")))
    assert qloop.run(ask_and_wait(win, "Another question")) == "done"  # the window asks on as before
    assert not win.notice_bar.isVisible()


def test_a_history_file_replaced_while_open_is_not_written_into_unseen(tmp_path):
    store = ChatStore(tmp_path / "data")
    chat = store.new_chat()
    (tmp_path / "copy.sqlite3").write_bytes((tmp_path / "data" / "chats.sqlite3").read_bytes())
    os.rename(tmp_path / "data", tmp_path / "moved")  # the folder moved away: the file is elsewhere now
    with pytest.raises(ChatStoreError, match="no longer there"):
        store.add_user_message(chat.id, "lost if written")
    os.rename(tmp_path / "moved", tmp_path / "data")  # put back: written again
    store.add_user_message(chat.id, "kept")
    os.replace(tmp_path / "copy.sqlite3", tmp_path / "data" / "chats.sqlite3")  # a sync tool's older copy
    with pytest.raises(ChatStoreError, match="another program replaced the file"):
        store.add_user_message(chat.id, "lost if written")
    store.close()


def test_what_waits_for_the_answers_end_runs_each_on_its_own_and_the_end_still_comes(make_window, server, qloop,
                                                                                        caplog):
    # (Deleting a chat or changing settings while an answer streams waits for it: see _when_idle.)
    win = make_window(server.base_url)
    server.queue(Stream(tokens(STORY, 6), delay=0.01))
    ran = []

    def bug():
        raise TypeError("a bug in an action waiting for the end")

    async def scenario():
        finished = wait_signal(win.answerFinished, timeout=30)
        win.ask("Tell me a story")
        await wait_until(lambda: len(win.view.answers()[-1].content()) > 60)
        win._when_idle(bug)  # the answer is stopped for it
        win._when_idle(lambda: ran.append("second"))
        return await finished

    with caplog.at_level(logging.WARNING):
        assert qloop.run(scenario(), timeout=40) == "stopped"
    assert ran == ["second"]
    assert any(r.exc_info and "a bug in an action" in str(r.exc_info[1]) for r in caplog.records)
