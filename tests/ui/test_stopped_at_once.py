"""Stop in the same turn of the event loop as the question: Enter then Esc handled in one batch of key events
(a busy window) cancelled the answer's task before it began, so its ``finished`` never came, and the window
stayed "Answering…", with Stop and a waiting line, for good."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.sse_server import Stream
from tinyrag_desktop.chat_history import UNANSWERED
from tinyrag_desktop.ui.bridge import EngineBridge

from .conftest import ask_and_wait, tokens, wait_signal


def test_a_stream_stopped_before_its_first_step_still_finishes(qloop, qtbot):
    bridge = EngineBridge()
    began = []

    async def events():
        began.append(True)
        yield  # pragma: no cover - never reached: stopped before the first step

    finished = wait_signal(bridge.finished)
    bridge.start(events())
    assert bridge.stop()
    assert qloop.run(finished) == "stopped"
    assert not bridge.is_running() and not began
    # and the bridge takes the next answer
    finished = wait_signal(bridge.finished)
    bridge.start(_nothing())
    assert qloop.run(finished) == "done"


async def _nothing():
    return
    yield  # pragma: no cover


def test_enter_then_esc_in_one_batch_ends_the_answer_as_stopped(make_window, server, qloop):
    server.queue(Stream(tokens("First answer.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "First?")) == "done"
    finished = wait_signal(win.answerFinished)
    win.composer.setFocus()
    win.composer.setPlainText("Second?")
    QTest.keyClick(win.composer, Qt.Key.Key_Return)
    QTest.keyClick(win.composer, Qt.Key.Key_Escape)  # before the loop turns: the task has not begun
    assert qloop.run(finished) == "stopped"
    answer = win.view.answers()[-1]
    assert not answer.streaming and answer.note() == "Stopped before the model answered."
    assert not win.bridge.is_running() and win._stream_chat is None and not win.status.busy.text()
    assert len(server.requests) == 1  # the second question was never sent
    stored = win.store.messages(win.chat_id)
    assert [(m.role, m.status) for m in stored[-2:]] == [("user", "done"), ("assistant", "stopped")]
    # the next question goes with the stopped one once, and nothing stands in the chat "Waiting for the model"
    server.queue(Stream(tokens("Third answer.")))
    assert qloop.run(ask_and_wait(win, "Third?")) == "done"
    sent = [m["content"] for m in server.requests[-1]["messages"]]
    assert sent[-3:] == ["Second?", UNANSWERED, "Third?"]
    assert not any(a.streaming for a in win.view.answers())
