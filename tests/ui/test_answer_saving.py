"""Nothing typed or answered is lost to a crash, a full disk or a locked history: the answer is kept as it
streams, Regenerate replaces the old answer only once the new one has as much text, and a question that
could not be stored stays in the message box."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.sse_server import Stream
from tests.ui.conftest import ask_and_wait, tokens, wait_signal, wait_until
from tinyrag_desktop.chats import ChatStore, ChatStoreError
from tinyrag_desktop.ui.answer_saving import FIRST_SAVE_MS, INTERRUPTED, SAVE_EVERY_MS

ROOT = Path(__file__).resolve().parents[2]
STORY = ("Once upon a time there was a small local model that answered every question in a steady stream. " * 6).strip()


def _stored(data: Path, chat_id: str) -> list[tuple[str, str, str, str | None]]:
    """The chat's rows as another program reads the file: role, status, content and error."""
    with sqlite3.connect(data / "chats.sqlite3") as db:
        return db.execute("SELECT role, status, content, error FROM messages WHERE chat_id=? ORDER BY id",
                          (chat_id,)).fetchall()


def _full_at_the_end(win, monkeypatch) -> None:
    """The disk fills while the answer streams: what is kept as it comes is written, its end is not."""
    real = win.store.add_assistant_message

    def full_at_the_end(*args, **kwargs):
        if kwargs.get("status", "done") != "stopped" or kwargs.get("error") != INTERRUPTED:
            raise ChatStoreError("Could not write the chat history chats.sqlite3: the disk is full.")
        return real(*args, **kwargs)

    monkeypatch.setattr(win.store, "add_assistant_message", full_at_the_end)


def _not_saved_then_room(win, server, qloop, monkeypatch, answer: str) -> str:
    """Ask "A question" while the disk fills, so that ``answer`` ends unsaved and says so; then free the space.
    The chat's id."""
    _full_at_the_end(win, monkeypatch)
    server.queue(Stream(tokens(answer)))
    assert qloop.run(ask_and_wait(win, "A question")) == "done"
    assert win.notice_bar.isVisible()
    monkeypatch.undo()  # space freed
    return win.chat_id


def _story_window(make_window, server, tmp_path):
    """The data folder, and a window on it whose next question gets STORY slowly, in small pieces."""
    data = tmp_path / "data"
    server.queue(Stream(tokens(STORY, 6), delay=0.01))
    return data, make_window(server.base_url, data_dir=data)


async def _telling(win, shown: int):
    """Ask for the story and wait until more than ``shown`` characters of it are on screen; returns the
    answer's end, to await."""
    finished = wait_signal(win.answerFinished, timeout=30)
    win.ask("Tell me a story")
    await wait_until(lambda: len(win.view.answers()[-1].content()) > shown)
    return finished


def test_the_answer_is_kept_while_it_streams_and_written_over_when_it_ends(make_window, server, qloop, tmp_path):
    data, win = _story_window(make_window, server, tmp_path)

    async def scenario():
        finished = wait_signal(win.answerFinished, timeout=30)
        win.ask("Tell me a story")
        # stored as soon as it starts: a crash now leaves the question with "the app closed …" and Retry
        rows = _stored(data, win.chat_id)
        assert [r[:2] for r in rows] == [("user", "done"), ("assistant", "stopped")] and rows[1][3] == INTERRUPTED
        await wait_until(lambda: len(win.view.answers()[-1].content()) > 120)
        win._saver.save_progress()  # what the timer does every two seconds
        rows = _stored(data, win.chat_id)
        assert len(rows) == 2 and rows[1][1] == "stopped" and rows[1][3] == INTERRUPTED
        assert len(rows[1][2]) > 100 and STORY.startswith(rows[1][2])
        return await finished

    assert qloop.run(scenario(), timeout=40) == "done"
    rows = _stored(data, win.chat_id)
    assert len(rows) == 2 and rows[1][:3] == ("assistant", "done", STORY.strip()) and rows[1][3] is None


def test_the_first_words_are_kept_soon_then_every_two_seconds(make_window, server, qloop, tmp_path):
    data, win = _story_window(make_window, server, tmp_path)

    async def scenario():
        finished = wait_signal(win.answerFinished, timeout=30)
        win.ask("Tell me a story")
        assert win._saver._timer.interval() == FIRST_SAVE_MS < SAVE_EVERY_MS
        # written by the timer alone: a kill in the answer's first two seconds kept no text
        await wait_until(lambda: _stored(data, win.chat_id)[1][2] != "")
        assert STORY.startswith(_stored(data, win.chat_id)[1][2])
        assert win._saver._timer.interval() == SAVE_EVERY_MS
        return await finished

    assert qloop.run(scenario(), timeout=40) == "done"


def _answered(make_window, server, qloop, data: Path, first: str):
    """A window whose chat holds "A question" answered ``first``; the next answer, STORY, comes slowly."""
    server.queue(Stream(tokens(first)))
    win = make_window(server.base_url, data_dir=data)
    assert qloop.run(ask_and_wait(win, "A question")) == "done"
    server.queue(Stream(tokens(STORY, 6), delay=0.01))
    return win


def test_regenerate_keeps_the_old_answer_until_the_new_one_has_come(make_window, server, qloop, tmp_path):
    data = tmp_path / "data"
    win = _answered(make_window, server, qloop, data, "The first answer.")

    async def scenario():
        finished = wait_signal(win.answerFinished, timeout=30)
        assert win.regenerate()
        win._saver.save_progress()  # nothing has come yet: the old answer stays
        assert [r[2] for r in _stored(data, win.chat_id)] == ["A question", "The first answer."]
        assert "The first answer." not in str(server.requests[-1]["messages"])  # not sent back to the model
        await wait_until(lambda: len(win.view.answers()[-1].content()) > 60)
        win._saver.save_progress()
        rows = _stored(data, win.chat_id)
        assert len(rows) == 2 and rows[1][1] == "stopped" and STORY.startswith(rows[1][2])
        # the chat opened again meanwhile shows the live answer once, not the stored copy beside it
        win.new_chat()
        win.open_chat(chat_id)
        await wait_until(lambda: not win.loading)
        assert len(win.view.answers()) == 1
        return await finished

    chat_id = win.chat_id
    assert qloop.run(scenario(), timeout=40) == "done"
    assert [r[:3] for r in _stored(data, chat_id)] == [("user", "done", "A question"),
                                                        ("assistant", "done", STORY.strip())]


def test_a_regenerated_answer_replaces_a_longer_old_one_only_once_it_is_as_long(make_window, server, qloop,
                                                                                 tmp_path):
    """A kill two seconds into a Regenerate left the new answer's first words where a whole answer was."""
    data, old = tmp_path / "data", STORY[:200]
    win = _answered(make_window, server, qloop, data, old)

    async def scenario():
        finished = wait_signal(win.answerFinished, timeout=30)
        assert win.regenerate()
        await wait_until(lambda: 20 < len(win.view.answers()[-1].content()) < 150)
        win._saver.save_progress()
        assert [r[2] for r in _stored(data, win.chat_id)] == ["A question", old]
        await wait_until(lambda: len(win.view.answers()[-1].content()) >= len(old))
        win._saver.save_progress()
        rows = _stored(data, win.chat_id)
        assert len(rows) == 2 and rows[1][1] == "stopped" and len(rows[1][2]) >= len(old) != len(STORY)
        return await finished

    assert qloop.run(scenario(), timeout=40) == "done"
    assert [r[2] for r in _stored(data, win.chat_id)] == ["A question", STORY]


def test_an_answer_a_crash_cut_short_shows_what_came_and_retry(make_window, server, qloop, tmp_path):
    data = tmp_path / "data"
    store = ChatStore(data)
    chat = store.new_chat()
    store.add_user_message(chat.id, "Tell me a story")
    store.add_assistant_message(chat.id, "Once upon a time", status="stopped", error=INTERRUPTED,
                                stats={"outcome": "stopped"})
    store.close()
    win = make_window(server.base_url, data_dir=data)
    win.open_chat(chat.id)
    qloop.run(wait_until(lambda: not win.loading))
    answer = win.view.answers()[-1]
    assert answer.content() == "Once upon a time" and answer.error == INTERRUPTED
    server.queue(Stream(tokens("A whole story.")))
    finished = wait_signal(win.answerFinished, timeout=15)
    answer.retryRequested.emit()
    assert qloop.run(finished) == "done"
    assert [r[:3] for r in _stored(data, chat.id)] == [("user", "done", "Tell me a story"),
                                                       ("assistant", "done", "A whole story.")]


def test_a_question_that_could_not_be_stored_stays_in_the_message_box(make_window, server, qloop, monkeypatch):
    win = make_window(server.base_url)
    said = []
    monkeypatch.setattr(win, "problem", lambda title, text: said.append(text))

    def full(*_args, **_kwargs):
        raise ChatStoreError("Could not write the chat history chats.sqlite3: the disk is full. Free some space, "
                             "then try again.")

    monkeypatch.setattr(win.store, "add_user_message", full)
    win.composer.setPlainText("A long question I took ten minutes to write")
    assert not win.send()
    assert win.composer.toPlainText() == "A long question I took ten minutes to write"
    assert "disk is full" in said[0] and "still in the message box" in said[0]


def test_an_answer_that_could_not_be_stored_says_so_until_dismissed(make_window, server, qloop, monkeypatch):
    win = make_window(server.base_url)
    server.queue(Stream(tokens("An answer.")))

    def full(*_args, **_kwargs):
        raise ChatStoreError("Could not write the chat history chats.sqlite3: the disk is full.")

    monkeypatch.setattr(win.store, "add_assistant_message", full)
    assert qloop.run(ask_and_wait(win, "A question")) == "done"
    assert win.notice_bar.isVisible() and "could not be saved" in win.notice_label.text()
    assert "copy it" in win.notice_label.text()


def test_the_history_says_in_words_that_another_program_holds_it(tmp_path):
    store = ChatStore(tmp_path)
    chat = store.new_chat()
    store._db.execute("PRAGMA busy_timeout = 50")
    other = sqlite3.connect(tmp_path / "chats.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(ChatStoreError, match="another program is using it") as caught:
            store.add_user_message(chat.id, "hello")
        assert "database is locked" not in str(caught.value)
    finally:
        other.execute("ROLLBACK")
        other.close()
        store.close()


def test_closing_purges_only_its_own_deletions_and_old_ones(tmp_path):
    store = ChatStore(tmp_path)
    mine, theirs, old = (store.new_chat(title=t) for t in ("mine", "theirs", "old"))
    for chat in (mine, theirs, old):
        store.delete(chat.id)
    store._db.execute("UPDATE chats SET deleted=? WHERE id=?", (time.time() - 2 * 86_400, old.id))
    assert store.purge_deleted(chats={mine.id}, before=time.time() - 86_400) == 2
    store.undelete(theirs.id)  # the other window's Undo still works
    assert [c.title for c in store.list_chats()] == ["theirs"]
    store.close()


def test_an_ask_run_closing_beside_a_window_leaves_the_chat_it_offers_undo_for(make_window, server, qloop,
                                                                              tmp_path):
    data = tmp_path / "data"
    server.queue(Stream(tokens("Kept.")))
    win = make_window(server.base_url, data_dir=data)
    assert qloop.run(ask_and_wait(win, "A question")) == "done"
    chat_id = win.chat_id
    win.delete_chat(chat_id)
    server.queue(Stream(tokens("Scripted.")))
    other = make_window(server.base_url, data_dir=data)
    assert qloop.run(ask_and_wait(other, "Another question")) == "done"
    qloop.run(other.aclose())
    win.undo_delete(chat_id)
    assert win.chat_id == chat_id and [a.content() for a in win.view.answers()] == ["Kept."]


_WINDOW = r"""
import asyncio, sys
from PySide6.QtWidgets import QApplication
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui.main_window import MainWindow
from tinyrag_desktop.ui.qtloop import TidyEventLoop

app = QApplication([])
loop = TidyEventLoop(app)
asyncio.set_event_loop(loop)
settings = defaults().replace(base_url=sys.argv[2], chat_model="scripted", network_tools=False)
win = MainWindow(sys.argv[1], settings, reopen_last=True)  # as a start by hand opens it
win.show()
win.ask("Tell me a long story")
with loop:
    loop.run_forever()
"""


@pytest.mark.skipif(sys.platform == "win32", reason="kill -9")
def test_a_window_killed_mid_answer_keeps_what_had_come(server, tmp_path):
    """The real thing: a window in a process of its own, killed while it streams; the file then holds the
    answer so far."""
    data = tmp_path / "data"
    story = " ".join([STORY] * 3)
    server.queue(Stream(tokens(story, 4), delay=0.02))
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", _WINDOW, str(data), server.base_url], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        content = ""
        while time.monotonic() < deadline and len(content) < 200:
            time.sleep(0.1)  # another process: its progress can only be looked at, not waited on
            try:
                with sqlite3.connect(data / "chats.sqlite3") as db:
                    row = db.execute("SELECT content FROM messages WHERE role='assistant'").fetchone()
            except sqlite3.Error:
                row = None
            content = row[0] if row else ""
        assert len(content) >= 200, "no answer was kept while it streamed"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    store = ChatStore(data)
    chat = store.list_chats()[0]
    question, answer = store.messages(chat.id)
    assert question.content == "Tell me a long story"
    assert answer.status == "stopped" and answer.error == INTERRUPTED and story.startswith(answer.content)
    store.close()


@pytest.mark.parametrize("ending", ["stop at once", "server error"])
def test_a_regenerate_that_brings_nothing_keeps_the_old_answer(make_window, server, qloop, tmp_path, ending):
    from tests.sse_server import Status

    data = tmp_path / "data"
    server.queue(Stream(tokens("The first answer.")))
    win = make_window(server.base_url, data_dir=data)
    assert qloop.run(ask_and_wait(win, "A question")) == "done"
    chat_id = win.chat_id
    server.queue(Stream(tokens(STORY), delay=0.5) if ending == "stop at once" else Status(500, "model crashed"))
    asked = len(server.requests)
    finished = wait_signal(win.answerFinished, timeout=15)
    assert win.regenerate()
    if ending == "stop at once":  # as soon as the question reached the server, before any text came
        qloop.run(wait_until(lambda: len(server.requests) > asked))
        win.stop()
    assert qloop.run(finished) == ("stopped" if ending == "stop at once" else "error")
    assert [r[2] for r in _stored(data, chat_id)] == ["A question", "The first answer."]
    # and the window shows it again, as reopening the chat would, and says why
    shown = win.view.answers()
    assert [a.content() for a in shown] == ["The first answer."] and shown[0].error is None
    assert shown[0].regenerate_offered()  # to try again from its own button (it came back without one)
    said = win.statusBar().currentMessage()
    assert said.endswith("The earlier answer is kept.")
    assert ("model crashed" in said) if ending == "server error" else said.startswith("Stopped before")
    server.queue(Stream(tokens("A better answer.")))
    finished = wait_signal(win.answerFinished, timeout=15)
    assert win.regenerate()  # Retry on what the window shows replaces the old answer, once
    assert qloop.run(finished) == "done"
    assert [r[2] for r in _stored(data, chat_id)] == ["A question", "A better answer."]


@pytest.mark.parametrize("ending", ["stopped shorter", "cut shorter", "stopped longer"])
def test_a_regenerate_stopped_or_failed_while_shorter_keeps_the_old_answer(make_window, server, qloop, tmp_path,
                                                                           ending):
    """Stop two seconds into a Regenerate replaced a whole answer with its first words, marked stopped."""
    data, old = tmp_path / "data", STORY[:200]
    server.queue(Stream(tokens(old)))
    win = make_window(server.base_url, data_dir=data)
    assert qloop.run(ask_and_wait(win, "A question")) == "done"
    chat_id = win.chat_id
    # the new answer comes slowly, or breaks after 60 characters
    server.queue(Stream(tokens(STORY, 6), delay=0.01) if ending != "cut shorter" else
                 Stream(tokens(STORY, 6), cut_after=10))
    finished = wait_signal(win.answerFinished, timeout=30)
    assert win.regenerate()
    if ending != "cut shorter":
        shown = 60 if ending == "stopped shorter" else len(old)
        qloop.run(wait_until(lambda: len(win.view.answers()[-1].content()) > shown))
        win.stop()
    outcome = qloop.run(finished)
    rows = _stored(data, chat_id)
    shown = win.view.answers()
    said = win.statusBar().currentMessage()
    if ending == "stopped longer":  # the new answer had more: it is the one kept, as it was stopped
        assert outcome == "stopped" and len(rows) == 2 and rows[1][1] == "stopped"
        assert len(rows[1][2]) > len(old) and STORY.startswith(rows[1][2])
        assert [a.content() for a in shown] == [rows[1][2]]
        return
    assert [r[2] for r in rows] == ["A question", old] and rows[1][1] == "done"
    assert [a.content() for a in shown] == [old] and shown[0].error is None and shown[0].regenerate_offered()
    assert said.endswith("The earlier answer is kept.")
    if ending == "stopped shorter":
        assert outcome == "stopped" and said.startswith("Stopped while the new answer was shorter.")
    else:
        assert outcome == "error" and said.startswith("Could not answer again: ")


def test_an_answer_that_could_not_be_saved_is_replaced_by_regenerate(make_window, server, qloop, tmp_path,
                                                                     monkeypatch):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    _not_saved_then_room(win, server, qloop, monkeypatch, "Lost to a full disk.")
    server.queue(Stream(tokens("Saved this time.")))
    finished = wait_signal(win.answerFinished, timeout=15)
    assert win.regenerate()
    assert qloop.run(finished) == "done"
    assert [r[2] for r in _stored(data, win.chat_id)] == ["A question", "Saved this time."]
    assert not win.notice_bar.isVisible()  # the notice no longer holds


def test_a_save_while_streaming_does_not_wait_on_another_programs_lock(make_window, server, qloop, tmp_path):
    data, win = _story_window(make_window, server, tmp_path)

    async def scenario():
        finished = await _telling(win, 60)
        other = sqlite3.connect(data / "chats.sqlite3", isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # a backup tool holding the history
        try:
            win._saver.save_progress()  # skipped after 0.05 s, not 5 s: the window keeps answering
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert [r[2] for r in _stored(data, win.chat_id)][1] == ""  # this save was skipped
        win._saver.save_progress()  # the next one writes
        assert STORY.startswith(_stored(data, win.chat_id)[1][2]) and _stored(data, win.chat_id)[1][2]
        return await finished

    assert qloop.run(scenario(), timeout=40) == "done"


def test_a_scripted_run_keeps_no_answer_before_its_end(make_window, server, qloop, tmp_path):
    # an --ask run beside the window: its answer, kept as "cut short" while it streamed, looked to the
    # window like one a crash had left, with a Retry that stored a second answer
    data, win = _story_window(make_window, server, tmp_path)
    win.scripted = True

    async def scenario():
        finished = await _telling(win, 60)
        win._saver.save_progress()
        assert [r[0] for r in _stored(data, win.chat_id)] == ["user"]
        return await finished

    assert qloop.run(scenario(), timeout=40) == "done"
    assert [r[:2] for r in _stored(data, win.chat_id)] == [("user", "done"), ("assistant", "done")]


def test_an_answer_that_could_not_be_saved_is_saved_before_the_next_question(make_window, server, qloop, tmp_path,
                                                                             monkeypatch):
    # It was left as the empty row kept while it streamed: "The app closed before this answer was finished"
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    _not_saved_then_room(win, server, qloop, monkeypatch, "Kept after all.")
    server.queue(Stream(tokens("The second answer.")))
    assert qloop.run(ask_and_wait(win, "A second question")) == "done"
    assert [r[2] for r in _stored(data, win.chat_id)] == ["A question", "Kept after all.", "A second question",
                                                          "The second answer."]
    assert not win.notice_bar.isVisible()
    assert "Could not write" not in win.statusBar().currentMessage()  # it said so for 10 s more


def test_an_answer_that_could_not_be_saved_is_saved_when_the_window_closes(make_window, server, qloop, tmp_path,
                                                                           monkeypatch):
    # The space freed and no question asked after it: closing the window left the first words kept while it
    # streamed, "The app closed before this answer was finished", and the rest was lost.
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    chat_id = _not_saved_then_room(win, server, qloop, monkeypatch, "The whole answer, kept after all.")
    qloop.run(win.aclose())
    assert [r[:3] for r in _stored(data, chat_id)] == [("user", "done", "A question"),
                                                       ("assistant", "done", "The whole answer, kept after all.")]


def test_an_answer_that_could_not_be_saved_is_saved_when_another_chat_is_opened(make_window, server, qloop,
                                                                                tmp_path, monkeypatch):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    server.queue(Stream(tokens("An earlier answer.")))
    assert qloop.run(ask_and_wait(win, "An earlier chat")) == "done"
    earlier = win.chat_id
    win.new_chat()
    chat_id = _not_saved_then_room(win, server, qloop, monkeypatch, "Saved once there was room.")
    assert "Could not write" in win.statusBar().currentMessage()
    win.open_chat(earlier)  # the answer leaves the screen: stored now, not left to a later question
    assert [r[2] for r in _stored(data, chat_id)] == ["A question", "Saved once there was room."]
    assert not win.notice_bar.isVisible() and "Could not write" not in win.statusBar().currentMessage()
    win.open_chat(chat_id)
    qloop.run(wait_until(lambda: not win.loading))
    assert [a.content() for a in win.view.answers()] == ["Saved once there was room."]


def test_a_regenerate_stopped_shorter_after_running_a_tool_is_kept(make_window, server, qloop, tmp_path):
    """A stopped Regenerate that had run a tool was thrown away for its short text, and what the tool found
    with it: it is kept, marked stopped, with its card."""
    data, old = tmp_path / "data", STORY[:300]
    server.queue(Stream(tokens(old)))
    win = make_window(server.base_url, data_dir=data)
    assert qloop.run(ask_and_wait(win, "What is 6 * 7?")) == "done"
    chat_id = win.chat_id
    server.queue(Stream(tokens('<tool name="calculate"><query>6 * 7</query></tool>')),
                 Stream(tokens("It is 42. " + STORY, 6), delay=0.05))
    finished = wait_signal(win.answerFinished, timeout=30)
    assert win.regenerate()
    qloop.run(wait_until(lambda: win.view.answers() and "It is 42" in win.view.answers()[-1].content()))
    win.stop()
    assert qloop.run(finished) == "stopped"
    [_question, (_role, status, content, _error)] = _stored(data, chat_id)
    assert status == "stopped" and content.strip().startswith("It is 42") and len(content) < len(old)
    store = ChatStore(data)
    assert [t.tool for t in store.messages(chat_id)[-1].tools] == ["calculate"]
    store.close()
    shown = win.view.answers()
    assert len(shown) == 1 and shown[0].content() == content and shown[0].cards()
    assert "earlier answer is kept" not in win.statusBar().currentMessage()
