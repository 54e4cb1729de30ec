"""A Regenerate stopped while its shell call waits to be allowed (the tool never ran) threw the
whole earlier answer away for a card that ran nothing (README: "until the new one ... has run a tool")."""
from __future__ import annotations

import asyncio
import sqlite3

from tests.sse_server import Stream
from tests.ui.conftest import ask_and_wait, tokens, wait_signal, wait_until

STORY = ("Once upon a time there was a small local model that answered every question in a steady stream. " * 6).strip()


def _stored(data, chat_id):
    with sqlite3.connect(data / "chats.sqlite3") as db:
        return db.execute("SELECT role, status, content FROM messages WHERE chat_id=? ORDER BY id",
                          (chat_id,)).fetchall()


def test_regenerate_stopped_before_its_tool_ran_keeps_the_old_answer(make_window, server, qloop, tmp_path):
    data, old = tmp_path / "data", STORY[:300]
    server.queue(Stream(tokens(old)))
    win = make_window(server.base_url, data_dir=data, allow_shell_exec=True)
    assert qloop.run(ask_and_wait(win, "A question")) == "done"
    chat_id = win.chat_id
    server.queue(Stream(tokens('Let me see. <tool name="shell"><query>echo hi</query></tool>')))
    finished = wait_signal(win.answerFinished, timeout=30)
    assert win.regenerate()
    qloop.run(wait_until(lambda: win.confirmer.current is not None and win.confirmer.current.isVisible()))
    qloop.run(asyncio.sleep(0.5))
    win._saver.save_progress()  # the two-second save, as a crash now would leave the chat
    assert [r[2] for r in _stored(data, chat_id)] == ["A question", old]
    win.stop()  # nothing ran: the question was never answered
    qloop.run(finished)
    rows = _stored(data, chat_id)
    assert [r[2] for r in rows] == ["A question", old], rows
