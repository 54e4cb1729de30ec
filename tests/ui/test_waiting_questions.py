"""A question sent in one chat while another chat's answer is written waits for it, in its own chat.

It was refused: send() returned False, the text stayed in the box, the status bar said "Another chat is
still answering: press Esc to stop it", and the idle chat showed a red Stop button in place of Send, which
stopped the other chat's answer. README said "a question in another chat waits until it is done".
"""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import QLabel

from tests.sse_server import Stream
from tinyrag_desktop.chats import ChatStore
from tinyrag_desktop.ui.waiting import WAITED

from .conftest import keep_picture, tokens, wait_signal, wait_until

LONG = " ".join(f"word{n}" for n in range(1500))


def _slow(text: str = LONG, **kw) -> Stream:
    return Stream(tokens(text, 16), delay=0.004, **kw)


async def _start_story(win):
    """Ask for a long story in a new chat; its chat, once some of the answer is shown."""
    win.new_chat()
    assert win.ask("Tell me a long story")
    await wait_until(lambda: win.view.answers() and len(win.view.answers()[-1].content()) > 100)
    return win.chat_id


def _note(win) -> QLabel | None:
    notes = [n for n in win.view.findChildren(QLabel, "waitingNote") if not n.isHidden()]
    return notes[0] if notes else None


def _outcomes(win) -> list[str]:
    seen: list[str] = []
    win.answerFinished.connect(seen.append)
    return seen


def test_a_question_in_another_chat_waits_there_and_is_asked_when_the_answer_is_done(make_window, server, qloop):
    server.queue(_slow(), Stream(tokens("Bananas are yellow.")))
    win = make_window(server.base_url)
    outcomes = _outcomes(win)

    async def scenario():
        story = await _start_story(win)
        win.new_chat()
        win.composer.setPlainText("What colour are bananas?")
        assert win.send()  # it waits: not refused
        bananas = win.chat_id
        assert win.composer.toPlainText() == ""
        assert [q.text() for q in win.view.questions()] == ["What colour are bananas?"]
        assert win.view.answers() == []
        note = _note(win)
        assert note is not None and note.text().startswith("Waits for the answer in “Tell me a long story”…")
        assert win.waiting.chats() == [bananas]
        # this chat's button takes the waiting question back; it does not stop the story
        assert win.stop_button.isVisible() and win.stop_button.text() == "Cancel"
        assert not win.send_button.isVisible() and win.menus.stop.isEnabled()
        assert win.bridge.is_running() and win._stream_chat == story
        await wait_until(lambda: win.view.questions()[-1].isVisible() and note.isVisible())
        keep_picture(win, "waiting.png")
        await wait_until(lambda: outcomes == ["done", "done"], timeout=30)
        return story, bananas

    story, bananas = qloop.run(scenario(), timeout=60)
    assert win.chat_id == bananas and _note(win) is None
    assert [a.content() for a in win.view.answers()] == ["Bananas are yellow."]
    assert win.send_button.isVisible() and not win.stop_button.isVisible()
    stored = ChatStore(win.data_dir).messages(bananas)
    assert [(m.role, m.content, m.status) for m in stored] == [
        ("user", "What colour are bananas?", "done"), ("assistant", "Bananas are yellow.", "done")]
    # asked with its chat's history only, after the story was answered
    assert server.requests[-1]["messages"][-1] == {"role": "user", "content": "What colour are bananas?"}
    assert all("word1" not in str(m.get("content")) for m in server.requests[-1]["messages"])
    assert ChatStore(win.data_dir).messages(story)[-1].content == LONG


def test_a_waiting_question_is_asked_out_of_sight_when_its_chat_is_left(make_window, server, qloop):
    server.queue(_slow(), _slow("Bananas are yellow. " * 40))
    win = make_window(server.base_url)
    outcomes = _outcomes(win)

    async def scenario():
        story = await _start_story(win)
        win.new_chat()
        assert win.ask("What colour are bananas?")
        bananas = win.chat_id
        win.open_chat(story)  # back to the story while it is written; the bananas question waits
        await wait_until(lambda: not win.loading)
        assert win.stop_button.text() == "Stop" and win.stop_button.isVisible()
        await wait_until(lambda: outcomes == ["done"], timeout=30)
        await wait_until(lambda: win._stream_chat == bananas)  # asked, out of sight
        assert win.send_button.isVisible() and not win.stop_button.isVisible()  # not this chat's answer
        win.open_chat(bananas)  # opened while it is written: shown, going on
        await wait_until(lambda: not win.loading and win.view.answers())
        assert win.stop_button.isVisible() and win.stop_button.text() == "Stop"
        await wait_until(lambda: outcomes == ["done", "done"], timeout=30)
        return bananas

    bananas = qloop.run(scenario(), timeout=60)
    assert [a.content() for a in win.view.answers()] == ["Bananas are yellow. " * 40]
    stored = ChatStore(win.data_dir).messages(bananas)
    assert [m.role for m in stored] == ["user", "assistant"] and stored[-1].content.startswith("Bananas")


def test_esc_in_its_chat_takes_the_waiting_question_back_and_leaves_the_other_answer(make_window, server, qloop):
    server.queue(_slow())
    win = make_window(server.base_url)
    outcomes = _outcomes(win)

    async def scenario():
        story = await _start_story(win)
        win.new_chat()
        assert win.ask("What colour are bananas?")
        bananas = win.chat_id
        win.composer.setPlainText("and lemons")  # typed while it waits: kept after it
        assert win.stop()  # Esc
        assert win.bridge.is_running() and win._stream_chat == story  # the story goes on
        assert win.composer.toPlainText() == "What colour are bananas?\nand lemons"
        assert win.view.questions() == [] and _note(win) is None
        assert win.send_button.isVisible() and not win.stop_button.isVisible()
        assert not win.menus.stop.isEnabled() and not win.stop()  # Esc again: nothing to stop here
        assert win.statusBar().currentMessage() == "The waiting question was taken back into the message box."
        # the chat it began goes with it: it stayed in the list as an empty "New chat", after a restart too
        assert win.chat_id is None and win.title_label.text() == "New chat"
        assert bananas not in win.sidebar.ids() and win.store.get_chat(bananas) is None
        await wait_until(lambda: outcomes == ["done"], timeout=30)
        await asyncio.sleep(0.05)
        assert win.composer.toPlainText() == "What colour are bananas?\nand lemons"  # still there when it ends
        return bananas

    bananas = qloop.run(scenario(), timeout=60)
    assert outcomes == ["done"] and len(server.requests) == 1  # nothing else was asked
    assert ChatStore(win.data_dir).messages(bananas) == [] and ChatStore(win.data_dir).get_chat(bananas) is None


def test_taking_back_a_waiting_question_keeps_its_chats_earlier_messages(make_window, server, qloop):
    server.queue(Stream(tokens("Yellow.")), _slow())
    win = make_window(server.base_url)

    async def scenario():
        assert win.ask("What colour are bananas?")
        await wait_until(lambda: not win.bridge.is_running() and win.view.answers())
        bananas = win.chat_id
        await _start_story(win)
        win.open_chat(bananas)
        await wait_until(lambda: not win.loading)
        assert win.ask("And lemons?")
        assert win.stop()  # taken back: the chat and its first exchange stay
        assert win.chat_id == bananas and bananas in win.sidebar.ids()
        assert win.composer.toPlainText() == "And lemons?"
        return bananas

    bananas = qloop.run(scenario(), timeout=60)
    assert [m.content for m in ChatStore(win.data_dir).messages(bananas)] == ["What colour are bananas?", "Yellow."]


def test_the_waiting_question_is_asked_when_the_other_answer_is_stopped_or_fails(make_window, server, qloop):
    server.queue(_slow(), Stream(tokens("Yellow.")), _slow(cut_after=60), Stream(tokens("Sour.")))
    win = make_window(server.base_url)
    outcomes = _outcomes(win)

    async def scenario():
        story = await _start_story(win)
        win.new_chat()
        assert win.ask("Bananas?")
        win.open_chat(story)
        await wait_until(lambda: not win.loading)
        win.stop()  # stopped in its own chat
        await wait_until(lambda: outcomes == ["stopped", "done"], timeout=30)
        await _start_story(win)  # this one breaks off: an error
        win.new_chat()
        assert win.ask("Lemons?")
        await wait_until(lambda: len(outcomes) == 4, timeout=30)

    qloop.run(scenario(), timeout=60)
    assert outcomes == ["stopped", "done", "error", "done"]
    assert [a.content() for a in win.view.answers()] == ["Sour."]


def test_two_chats_wait_their_turn_in_the_order_they_were_sent(make_window, server, qloop):
    server.queue(_slow(), Stream(tokens("First.")), Stream(tokens("Second.")))
    win = make_window(server.base_url)
    outcomes = _outcomes(win)

    async def scenario():
        await _start_story(win)
        win.new_chat()
        assert win.ask("One?")
        one = win.chat_id
        win.composer.setPlainText("Again?")  # the same chat: one question waits at a time
        assert not win.send()
        assert win.composer.toPlainText() == "Again?"
        assert "already waiting" in win.statusBar().currentMessage()
        win.composer.clear()
        win.new_chat()
        assert win.ask("Two?")
        two = win.chat_id
        assert win.waiting.chats() == [one, two]
        # it says the question ahead of it too: it said it waited for the story alone
        assert _note(win).text().startswith("Waits for the answer in “Tell me a long story” and the one waiting "
                                            "in “One?”…")
        assert win.statusBar().currentMessage() == ("Your question will be asked after the answer in “Tell me a "
                                                    "long story” and the one waiting in “One?”.")
        await wait_until(lambda: outcomes == ["done"], timeout=30)
        # the second now waits for the first's answer, and says so
        await wait_until(lambda: _note(win) is not None and "“One?”" in _note(win).text())
        await wait_until(lambda: outcomes == ["done", "done", "done"], timeout=30)
        return one, two

    one, two = qloop.run(scenario(), timeout=60)
    store = ChatStore(win.data_dir)
    assert store.messages(one)[-1].content == "First." and store.messages(two)[-1].content == "Second."


def test_deleting_either_chat_while_a_question_waits(make_window, server, qloop):
    server.queue(_slow(), _slow(), Stream(tokens("Yellow.")))
    win = make_window(server.base_url)
    outcomes = _outcomes(win)

    async def scenario():
        # the waiting question's chat deleted: not asked; Undo brings it back with Retry
        await _start_story(win)
        win.new_chat()
        assert win.ask("Bananas?")
        bananas = win.chat_id
        win.delete_chat(bananas)
        # it said "Your question will be asked when…" still
        assert win.statusBar().currentMessage() == ("Its waiting question will not be asked (Undo before its "
                                                    "turn, and it still is).")
        await wait_until(lambda: outcomes == ["done"], timeout=30)
        await asyncio.sleep(0.05)
        assert len(server.requests) == 1 and not win.bridge.is_running()
        win.undo_delete(bananas)
        await wait_until(lambda: not win.loading and win.view.answers())
        answer = win.view.answers()[-1]
        assert answer.error == WAITED
        await wait_until(answer.retry_button.isVisible)
        # the answering chat deleted: its answer is stopped, and the waiting question asked
        story = await _start_story(win)
        win.open_chat(bananas)
        await wait_until(lambda: not win.loading)
        win.new_chat()
        assert win.ask("Lemons?")
        lemons = win.chat_id
        win.delete_chat(story)
        await wait_until(lambda: outcomes == ["done", "stopped", "done"], timeout=30)
        return lemons

    lemons = qloop.run(scenario(), timeout=60)
    assert ChatStore(win.data_dir).messages(lemons)[-1].content == "Yellow."


def test_a_question_waiting_when_the_app_closes_is_kept_with_retry(make_window, server, qloop, tmp_path):
    data = tmp_path / "data"
    server.queue(_slow(), Stream(tokens("Yellow.")))
    win = make_window(server.base_url, data_dir=data)

    async def scenario():
        await _start_story(win)
        win.new_chat()
        assert win.ask("What colour are bananas?")
        return win.chat_id

    bananas = qloop.run(scenario(), timeout=60)
    win.close()
    qloop.run(win.aclose())
    qloop.run(asyncio.sleep(0.05))
    assert len(server.requests) == 1  # not asked as the window closed
    stored = ChatStore(data).messages(bananas)
    assert [(m.role, m.status, m.error) for m in stored] == [("user", "done", None), ("assistant", "stopped", WAITED)]
    again = make_window(server.base_url, data_dir=data)
    again.open_chat(bananas)
    qloop.run(wait_until(lambda: not again.loading and again.view.answers()))
    answer = again.view.answers()[-1]
    assert answer.error == WAITED
    qloop.run(wait_until(answer.retry_button.isVisible))
    finished = wait_signal(again.answerFinished, timeout=15)
    answer.retry_button.click()
    assert qloop.run(finished) == "done"
    assert [(m.role, m.content) for m in ChatStore(data).messages(bananas)] == [
        ("user", "What colour are bananas?"), ("assistant", "Yellow.")]


def test_a_waiting_question_is_answered_with_its_own_chats_persona(make_window, server, qloop):
    server.queue(_slow(), Stream(tokens("Arr, yellow.")))
    win = make_window(server.base_url, personas={"Assistant": "Be helpful.", "Pirate": "Talk like a pirate."})
    outcomes = _outcomes(win)

    async def scenario():
        story = await _start_story(win)
        win.new_chat()
        win._select_persona("Pirate")
        assert win.ask("Bananas?")
        win.open_chat(story)  # its header says Assistant: the pirate question is still asked as a pirate
        await wait_until(lambda: outcomes == ["done", "done"], timeout=30)

    qloop.run(scenario(), timeout=60)
    assert server.requests[-1]["messages"][0]["content"].startswith("Talk like a pirate.")
    assert server.requests[0]["messages"][0]["content"].startswith("Be helpful.")


def test_one_question_at_a_time_in_the_answering_chat_itself(make_window, server, qloop):
    server.queue(_slow())
    win = make_window(server.base_url)

    async def scenario():
        await _start_story(win)
        win.composer.setPlainText("And then?")
        assert not win.send()  # in the chat being answered: said, and kept in the box
        assert win.statusBar().currentMessage().startswith("Still answering")
        assert win.composer.toPlainText() == "And then?" and win.waiting.chats() == []
        win.stop()

    qloop.run(scenario(), timeout=60)


def test_a_chat_exported_while_its_question_waits_shows_no_failure(make_window, server, qloop, tmp_path):
    # The export said "**Error:** This question waited for the answer in another chat and was not asked…
    # Press Retry", of a question asked moments later.
    server.queue(_slow(), Stream(tokens("Yellow.")))
    win = make_window(server.base_url)

    async def scenario():
        await _start_story(win)
        win.new_chat()
        assert win.ask("What colour are bananas?")
        exported = await win.export_chat(tmp_path / "waiting.md", "md")
        await wait_until(lambda: win.view.answers() and win.view.answers()[-1].state == "done", timeout=30)
        return exported.read_text(encoding="utf-8")

    text = qloop.run(scenario(), timeout=60)
    assert "What colour are bananas?" in text
    assert WAITED not in text and "Error" not in text and "Retry" not in text


def test_a_waiting_question_that_could_not_be_stored_whole_is_not_stored_twice(make_window, server, qloop,
                                                                               monkeypatch):
    # Its stand-in not stored (a locked file), the question row stayed, and the user was told it was still
    # in the box: sent again, it was in the chat twice.
    from tinyrag_desktop.chats import ChatStoreError

    server.queue(_slow())
    win = make_window(server.base_url)
    said: list[str] = []
    monkeypatch.setattr(win, "problem", lambda title, text: said.append(text))

    async def scenario():
        await _start_story(win)
        win.new_chat()
        real = win.store.add_assistant_message

        def locked(*args, **kw):
            raise ChatStoreError("The chat history is locked by another program.")

        monkeypatch.setattr(win.store, "add_assistant_message", locked)
        win.composer.setPlainText("What colour are bananas?")
        before = set(win.sidebar.ids())
        assert not win.send()
        monkeypatch.setattr(win.store, "add_assistant_message", real)
        return before

    before = qloop.run(scenario(), timeout=60)
    assert said and "still in the message box" in said[0]
    assert win.composer.toPlainText() == "What colour are bananas?" and win.chat_id is None
    store = ChatStore(win.data_dir)
    assert len(store.list_chats()) == len(before) == 1  # the story's alone: no empty chat, no lone question
