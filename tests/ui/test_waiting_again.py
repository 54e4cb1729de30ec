"""Retry, Regenerate and Edit-and-resend in one chat while another chat's answer is written wait their turn.

They were refused: Ctrl+R and ↑ left the status bar saying "Another chat is still answering: open it and press
Esc to stop it, or wait until it is done", and the last answer showed no Regenerate or Retry at all while any
chat answered. A question typed there meanwhile waited its turn (waiting.py); these now wait the same way:
shown as waiting with Cancel, asked when the other answer ends (done, stopped or failed), out of sight too.
"""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import QLabel

from tests.sse_server import Status, Stream
from tinyrag_desktop.chats import ChatStore
from tinyrag_desktop.ui.waiting import WAITED

from .conftest import ask_and_wait, tokens, wait_signal, wait_until

LONG = " ".join(f"word{n}" for n in range(1500))


def _slow(text: str = LONG, **kw) -> Stream:
    return Stream(tokens(text, 16), delay=0.004, **kw)


def _note(win) -> QLabel | None:
    notes = [n for n in win.view.findChildren(QLabel, "waitingNote") if not n.isHidden()]
    return notes[0] if notes else None


def _outcomes(win) -> list[str]:
    seen: list[str] = []
    win.answerFinished.connect(seen.append)
    return seen


def _apples(win, qloop, answer: str = "done") -> str:
    """A chat asked and answered (or failed) before the story starts: its id."""
    assert qloop.run(ask_and_wait(win, "What colour are apples?")) == answer
    return win.chat_id


async def _story_then(win, chat_id: str) -> str:
    """Ask for a long story in a new chat, and once it streams go back to ``chat_id``: the story's chat."""
    win.new_chat()
    assert win.ask("Tell me a long story")
    await wait_until(lambda: win.view.answers() and len(win.view.answers()[-1].content()) > 100)
    story = win.chat_id
    win.open_chat(chat_id)
    await wait_until(lambda: not win.loading)
    return story


def _stored(win, chat_id: str) -> list[tuple[str, str]]:
    return [(m.role, m.content) for m in ChatStore(win.data_dir).messages(chat_id)]


def test_regenerate_in_another_chat_waits_there_and_runs_when_the_answer_is_done(make_window, server, qloop):
    server.queue(Stream(tokens("Red.")), _slow(), Stream(tokens("Green.")))
    win = make_window(server.base_url)
    outcomes = _outcomes(win)
    apples = _apples(win, qloop)

    async def scenario():
        story = await _story_then(win, apples)
        answer = win.view.answers()[-1]
        await wait_until(answer.regenerate_button.isVisible)  # offered while the story is written
        win.statusBar().clearMessage()
        assert win.regenerate()  # Ctrl+R: it waits, not refused
        assert win.view.answers() == [] and [q.text() for q in win.view.questions()] == ["What colour are apples?"]
        note = _note(win)
        assert note is not None and note.text().startswith("Waits for the answer in “Tell me a long story”…")
        assert win.waiting.chats() == [apples]
        assert win.stop_button.isVisible() and win.stop_button.text() == "Cancel"
        assert not win.send_button.isVisible()
        assert win.bridge.is_running() and win._stream_chat == story  # the story goes on
        assert "Another chat is still answering" not in win.statusBar().currentMessage()
        assert _stored(win, apples) == [("user", "What colour are apples?"), ("assistant", "Red.")]
        await wait_until(lambda: outcomes == ["done", "done", "done"], timeout=30)
        return story

    story = qloop.run(scenario(), timeout=60)
    assert win.chat_id == apples and _note(win) is None
    assert [a.content() for a in win.view.answers()] == ["Green."]
    assert _stored(win, apples) == [("user", "What colour are apples?"), ("assistant", "Green.")]
    # asked again without the answer it replaced
    sent = server.requests[-1]["messages"]
    assert sent[-1] == {"role": "user", "content": "What colour are apples?"}
    assert not any("Red." in str(m["content"]) for m in sent)
    assert win.send_button.isVisible() and not win.stop_button.isVisible()
    assert ChatStore(win.data_dir).messages(story)[-1].content == LONG


def test_retry_on_a_failed_answer_waits_and_runs_when_the_other_answer_fails(make_window, server, qloop):
    server.queue(Status(500, {"error": {"message": "boom"}}), _slow(cut_after=80), Stream(tokens("Red.")))
    win = make_window(server.base_url)
    outcomes = _outcomes(win)
    apples = _apples(win, qloop, "error")

    async def scenario():
        await _story_then(win, apples)
        answer = win.view.answers()[-1]
        assert answer.error
        await wait_until(answer.retry_button.isVisible)
        answer.retry_button.click()
        assert win.waiting.chats() == [apples] and _note(win) is not None
        assert win.view.answers() == []
        await wait_until(lambda: outcomes == ["error", "error", "done"], timeout=30)  # the story broke off

    qloop.run(scenario(), timeout=60)
    assert [a.content() for a in win.view.answers()] == ["Red."] and not win.view.answers()[-1].error
    assert _stored(win, apples) == [("user", "What colour are apples?"), ("assistant", "Red.")]


def test_edit_and_resend_in_another_chat_waits_like_a_question(make_window, server, qloop):
    server.queue(Stream(tokens("Red.")), _slow(), Stream(tokens("Yellow.")))
    win = make_window(server.base_url)
    outcomes = _outcomes(win)
    apples = _apples(win, qloop)

    async def scenario():
        await _story_then(win, apples)
        assert win.edit_last_question()  # ↑: not refused
        assert win.composer.toPlainText() == "What colour are apples?" and win.edit_hint.isVisible()
        win.composer.setPlainText("What colour are bananas?")
        assert win.send()
        assert not win.edit_hint.isVisible() and win.composer.toPlainText() == ""
        assert [q.text() for q in win.view.questions()] == ["What colour are bananas?"]
        assert win.view.answers() == [] and _note(win) is not None
        assert win.stop_button.text() == "Cancel" and win.stop_button.isVisible()
        # stored at once as a waiting question, in place of the old one and its answer
        assert [(m.role, m.content, m.error) for m in ChatStore(win.data_dir).messages(apples)] == [
            ("user", "What colour are bananas?", None), ("assistant", "", WAITED)]
        await wait_until(lambda: outcomes == ["done", "done", "done"], timeout=30)

    qloop.run(scenario(), timeout=60)
    assert [a.content() for a in win.view.answers()] == ["Yellow."]
    assert _stored(win, apples) == [("user", "What colour are bananas?"), ("assistant", "Yellow.")]
    sent = server.requests[-1]["messages"]
    assert sent[-1] == {"role": "user", "content": "What colour are bananas?"}
    assert not any(m["content"] in ("What colour are apples?", "Red.") for m in sent)


def test_cancel_gives_the_old_answer_back_and_nothing_is_asked(make_window, server, qloop):
    server.queue(Stream(tokens("Red.")), _slow())
    win = make_window(server.base_url)
    outcomes = _outcomes(win)
    apples = _apples(win, qloop)

    async def scenario():
        await _story_then(win, apples)
        assert win.regenerate()
        win.composer.setPlainText("a draft")
        win.stop_button.click()  # Cancel
        assert win.waiting.chats() == [] and _note(win) is None
        assert [a.content() for a in win.view.answers()] == ["Red."]
        assert win.composer.toPlainText() == "a draft"  # nothing put in the box: no question was typed
        assert win.send_button.isVisible() and not win.stop_button.isVisible()
        assert win.bridge.is_running()  # the story goes on
        await wait_until(win.view.answers()[-1].regenerate_button.isVisible)  # offered again
        await wait_until(lambda: outcomes == ["done", "done"], timeout=30)
        await asyncio.sleep(0.05)

    qloop.run(scenario(), timeout=60)
    assert len(server.requests) == 2
    assert _stored(win, apples) == [("user", "What colour are apples?"), ("assistant", "Red.")]


def test_a_waiting_regenerate_follows_its_chat_left_and_opened_again(make_window, server, qloop):
    server.queue(Stream(tokens("Red.")), _slow(), _slow("Green. " * 100))
    win = make_window(server.base_url)
    outcomes = _outcomes(win)
    apples = _apples(win, qloop)

    async def scenario():
        story = await _story_then(win, apples)
        assert win.regenerate()
        win.open_chat(story)
        await wait_until(lambda: not win.loading)
        assert win.stop_button.text() == "Stop"
        win.open_chat(apples)  # opened again while it waits: still waiting, the old answer not shown
        await wait_until(lambda: not win.loading)
        assert win.view.answers() == [] and _note(win) is not None and win.stop_button.text() == "Cancel"
        win.open_chat(story)
        await wait_until(lambda: outcomes == ["done", "done"], timeout=30)
        await wait_until(lambda: win._stream_chat == apples)  # asked out of sight
        win.open_chat(apples)
        await wait_until(lambda: not win.loading and win.view.answers())
        assert len(win.view.answers()) == 1  # the one being written, not the old one beside it
        assert win.stop_button.text() == "Stop" and win.stop_button.isVisible()
        await wait_until(lambda: outcomes == ["done", "done", "done"], timeout=30)

    qloop.run(scenario(), timeout=60)
    assert [a.content() for a in win.view.answers()] == ["Green. " * 100]
    assert _stored(win, apples) == [("user", "What colour are apples?"), ("assistant", "Green. " * 100)]


def test_a_waiting_regenerate_runs_when_the_other_answer_is_stopped(make_window, server, qloop):
    server.queue(Stream(tokens("Red.")), _slow(), Stream(tokens("Green.")))
    win = make_window(server.base_url)
    outcomes = _outcomes(win)
    apples = _apples(win, qloop)

    async def scenario():
        story = await _story_then(win, apples)
        assert win.regenerate()
        win.open_chat(story)
        await wait_until(lambda: not win.loading)
        win.stop()
        await wait_until(lambda: outcomes == ["done", "stopped", "done"], timeout=30)

    qloop.run(scenario(), timeout=60)
    assert _stored(win, apples)[-1] == ("assistant", "Green.")


def test_deleting_the_chat_whose_regenerate_waits(make_window, server, qloop):
    server.queue(Stream(tokens("Red.")), _slow())
    win = make_window(server.base_url)
    outcomes = _outcomes(win)
    apples = _apples(win, qloop)

    async def scenario():
        await _story_then(win, apples)
        assert win.regenerate()
        win.delete_chat(apples)
        await wait_until(lambda: outcomes == ["done", "done"], timeout=30)
        await asyncio.sleep(0.05)
        assert len(server.requests) == 2 and not win.bridge.is_running()
        win.undo_delete(apples)  # back with its old answer, which can be regenerated
        await wait_until(lambda: not win.loading and win.view.answers())

    qloop.run(scenario(), timeout=60)
    answer = win.view.answers()[-1]
    assert answer.content() == "Red."
    qloop.run(wait_until(answer.regenerate_button.isVisible))


def test_a_regenerate_waiting_when_the_app_closes_keeps_the_old_answer(make_window, server, qloop, tmp_path):
    data = tmp_path / "data"
    server.queue(Stream(tokens("Red.")), _slow(), Stream(tokens("Green.")))
    win = make_window(server.base_url, data_dir=data)
    apples = _apples(win, qloop)

    async def scenario():
        await _story_then(win, apples)
        assert win.regenerate()

    qloop.run(scenario(), timeout=60)
    win.close()
    qloop.run(win.aclose())
    qloop.run(asyncio.sleep(0.05))
    assert len(server.requests) == 2  # not asked as the window closed
    assert _stored(win, apples) == [("user", "What colour are apples?"), ("assistant", "Red.")]
    again = make_window(server.base_url, data_dir=data)
    again.open_chat(apples)
    qloop.run(wait_until(lambda: not again.loading and again.view.answers()))
    answer = again.view.answers()[-1]
    assert answer.content() == "Red."
    qloop.run(wait_until(answer.regenerate_button.isVisible))
    finished = wait_signal(again.answerFinished, timeout=15)
    answer.regenerate_button.click()
    assert qloop.run(finished) == "done"
    assert _stored(again, apples)[-1] == ("assistant", "Green.")


def test_still_refused_in_the_answering_chat_and_once_per_chat(make_window, server, qloop):
    server.queue(Stream(tokens("Red.")), _slow(), Stream(tokens("Green.")))
    win = make_window(server.base_url)
    outcomes = _outcomes(win)
    apples = _apples(win, qloop)

    async def scenario():
        story = await _story_then(win, apples)
        assert win.regenerate()
        # one thing waits per chat: a second Regenerate, an edit or a question is said to wait already
        for refused in (win.regenerate, win.edit_last_question):
            win.statusBar().clearMessage()
            assert not refused()
            assert "already waiting" in win.statusBar().currentMessage()
        win.composer.setPlainText("And pears?")
        assert not win.send() and win.composer.toPlainText() == "And pears?"
        win.composer.clear()
        win.open_chat(story)
        await wait_until(lambda: not win.loading)
        for refused in (win.regenerate, win.edit_last_question):  # the answer being written
            win.statusBar().clearMessage()
            assert not refused()
            assert win.statusBar().currentMessage().startswith("Still answering")
        win.stop()
        await wait_until(lambda: outcomes == ["done", "stopped", "done"], timeout=30)

    qloop.run(scenario(), timeout=60)
