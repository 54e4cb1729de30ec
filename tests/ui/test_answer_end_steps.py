"""Every step after an answer's end runs on its own: one that fails (the chat history unreadable, a bug) is
said in the notice and logged, the answer and the chat stay on screen, the end's signal comes and a question
waiting in another chat is asked. Before, the first step that raised (Regenerate's buttons, trimming a long
chat, checking the server again) skipped the rest: Qt printed the traceback on the console only, no
answerFinished came, and the waiting question showed "Waits for the answer in …" for good.

A locked, read-only or removed history does not make these steps raise (they only read, and SQLite reads on
from the file it has open: see test_answer_end_always.py); what reaches them is a bug or a damaged file's read
error, made here by the step itself."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from tests.sse_server import Stream
from tinyrag_desktop.chats import ChatStoreError
from tinyrag_desktop.ui import window_asking

from .conftest import ask_and_wait, tokens, wait_until

STORY = " ".join(f"word{n}" for n in range(400))


def _failing(win, monkeypatch, step: str) -> None:
    """Make ``step`` of the answer's end fail, as it is called there (not as an answer starts)."""
    if step == "trim_live_chat":
        def trim(_win):
            raise sqlite3.DatabaseError("database disk image is malformed")
        monkeypatch.setattr(window_asking, "trim_live_chat", trim)
        return
    original = getattr(win, step)

    def bug(*args):
        if win._answer is None:  # at the end (an answer starting calls _update_last_answer too)
            raise RuntimeError(f"a bug in {step}")
        return original(*args)
    monkeypatch.setattr(win, step, bug)


@pytest.mark.parametrize("step", ["_update_last_answer", "trim_live_chat", "_recheck_server"])
def test_a_step_after_the_answer_that_fails_is_said_and_the_waiting_question_is_still_asked(
        make_window, server, qloop, monkeypatch, caplog, step):
    server.queue(Stream(tokens(STORY, 16), delay=0.004), Stream(tokens("Bananas are yellow.")))
    win = make_window(server.base_url)
    outcomes: list[str] = []
    win.answerFinished.connect(outcomes.append)
    _failing(win, monkeypatch, step)

    async def scenario():
        assert win.ask("Tell me a long story")
        story = win.chat_id
        await wait_until(lambda: len(win.view.answers()[-1].content()) > 100)
        win.new_chat()
        assert win.ask("What colour are bananas?")  # waits for the story
        assert win.waiting.chats() == [win.chat_id]
        await wait_until(lambda: len(outcomes) == 2, timeout=30)
        return story

    with caplog.at_level(logging.WARNING):
        story = qloop.run(scenario(), timeout=60)
    assert outcomes == ["done", "done"]
    assert [a.content() for a in win.view.answers()] == ["Bananas are yellow."]  # the waiting one, asked
    text = win.notice_label.text()
    assert win.notice_bar.isVisible() and text.startswith("Something went wrong as the answer ended")
    assert "stay as they are on screen" in text and "details are in the log" in text
    if step == "trim_live_chat":
        assert "The chat history could not be read (database disk image is malformed)." in text
    else:
        assert "RuntimeError" not in text and "a bug" not in text
    assert any(r.exc_info and r.levelno == logging.ERROR for r in caplog.records)
    monkeypatch.undo()
    win.open_chat(story)  # the story was stored and is shown whole
    win.finish_loading()
    assert [a.content() for a in win.view.answers()] == [STORY]


def test_steps_that_fail_at_an_answers_end_are_said_in_one_line_with_each_reason(make_window, server, qloop,
                                                                                 monkeypatch):
    # (each failing step added its own "Something went wrong as the answer ended…" line, the same words
    # again and again in the notice; and each later end added another)
    server.queue(Stream(tokens("Bananas are yellow.")), Stream(tokens("Lemons too.")))
    win = make_window(server.base_url)
    _failing(win, monkeypatch, "trim_live_chat")
    locked = "Could not write the chat history: another program is using it."

    def recheck(_outcome):
        raise ChatStoreError(locked)
    monkeypatch.setattr(win, "_recheck_server", recheck)
    assert qloop.run(ask_and_wait(win, "What colour are bananas?")) == "done"
    text = win.notice_label.text()
    assert text.count("Something went wrong as the answer ended") == 1 and text.count("details are in the log") == 1
    assert "The chat history could not be read (database disk image is malformed)." in text and locked in text

    monkeypatch.setattr(window_asking, "trim_live_chat", lambda _win: None)  # the next end: one step fails
    assert qloop.run(ask_and_wait(win, "And lemons?")) == "done"
    text = win.notice_label.text()
    assert text.count("Something went wrong as the answer ended") == 1 and locked in text
    assert "could not be read" not in text  # that was the end before
