"""An answer goes on streaming when its chat is left for another, and is there, whole, when it is opened again.

Opening another chat (or a new one) used to stop the answer being written, with no word said: a long answer
was cut at a tenth and marked "stopped".
"""

from __future__ import annotations

from tests.sse_server import Stream
from tinyrag_desktop.chats import ChatStore

from .conftest import ask_and_wait, tokens, wait_signal, wait_until

LONG = " ".join(f"word{n}" for n in range(1500))


async def _start_long_answer(win, question: str):
    """Send ``question`` in a new chat; once some of its answer is shown, the answer's end, to await."""
    win.new_chat()
    finished = wait_signal(win.answerFinished, timeout=30)
    win.ask(question)
    await wait_until(lambda: win.view.answers() and len(win.view.answers()[-1].content()) > 100)
    return finished


def _apples_then_a_long_story(make_window, server, qloop):
    """A window with one answered chat about apples (its id returned too); the server's next reply is LONG."""
    server.queue(Stream(tokens("Apples are red.")), Stream(tokens(LONG, 16), delay=0.004))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "About apples")) == "done"
    return win, win.chat_id


def test_an_answer_left_for_another_chat_is_finished_and_stored_whole(make_window, server, qloop):
    win, apples = _apples_then_a_long_story(make_window, server, qloop)

    async def scenario():
        finished = await _start_long_answer(win, "Tell me a long story")
        story = win.chat_id
        win.open_chat(apples)
        await wait_until(lambda: not win.loading)
        assert win.bridge.is_running()  # opening the other chat did not stop it
        assert [a.content() for a in win.view.answers()] == ["Apples are red."]
        row = win.sidebar.item_for(story)  # its row says it is still being answered
        assert not row.icon().isNull() and row.toolTip().endswith("\nStill answering")
        assert win.sidebar.item_for(apples).icon().isNull()
        outcome = await finished
        return story, outcome

    story, outcome = qloop.run(scenario(), timeout=60)
    assert outcome == "done"
    assert win.chat_id == apples and [a.content() for a in win.view.answers()] == ["Apples are red."]
    assert win.statusBar().currentMessage() == "The answer in “Tell me a long story” is ready."
    row = win.sidebar.item_for(story)
    assert row.icon().isNull() and not row.toolTip().endswith("Still answering")
    stored = ChatStore(win.data_dir).messages(story)
    assert [m.role for m in stored] == ["user", "assistant"]
    assert stored[-1].content == LONG and stored[-1].status == "done"

    win.open_chat(story)
    qloop.run(wait_until(lambda: not win.loading))
    assert [a.content() for a in win.view.answers()] == [LONG]


def test_an_answer_whose_chat_is_opened_again_while_it_streams_is_shown_and_goes_on(make_window, server, qloop):
    server.queue(Stream(tokens(LONG, 16), delay=0.004))
    win = make_window(server.base_url)

    async def scenario():
        finished = await _start_long_answer(win, "Tell me a long story")
        story, live = win.chat_id, win.view.answers()[-1]
        win.new_chat()
        assert win.view.answers() == []
        await wait_until(lambda: len(live.content()) > 1000)  # it fills in out of sight
        win.open_chat(story)
        await wait_until(lambda: not win.loading)
        assert win.view.answers() == [live] and live.isVisible() and win.bridge.is_running()
        return story, live, await finished

    story, live, outcome = qloop.run(scenario(), timeout=60)
    assert outcome == "done" and live.content() == LONG
    assert win.view.answers() == [live] and live.footer()  # finished in the view, with its footer
    stored = ChatStore(win.data_dir).messages(story)
    assert [m.role for m in stored] == ["user", "assistant"] and stored[-1].content == LONG


def test_an_answer_is_stopped_in_its_own_chat_not_from_another_and_keeps_what_came(make_window, server, qloop):
    # Another chat showed a red Stop button in place of Send, which stopped this answer from there.
    win, apples = _apples_then_a_long_story(make_window, server, qloop)

    async def scenario():
        finished = await _start_long_answer(win, "Tell me a long story")
        story = win.chat_id
        win.open_chat(apples)
        await wait_until(lambda: not win.loading)
        assert win.send_button.isVisible() and not win.stop_button.isVisible()
        assert not win.menus.stop.isEnabled()  # Esc here stops nothing
        # (Ctrl+R and ↑ here wait for the story now: see test_waiting_again.py)
        assert not win.stop() and win.bridge.is_running()
        win.open_chat(story)
        await wait_until(lambda: not win.loading)
        assert win.stop_button.isVisible() and win.menus.stop.isEnabled()
        win.stop()
        return story, await finished

    story, outcome = qloop.run(scenario(), timeout=60)
    assert outcome == "stopped"
    stored = ChatStore(win.data_dir).messages(story)[-1]
    assert stored.status == "stopped" and 100 < len(stored.content) < len(LONG)
    assert LONG.startswith(stored.content.rstrip())


def test_an_answer_that_ends_while_its_chat_is_being_opened_again_is_shown_under_it(make_window, server, qloop,
                                                                                     tmp_path, monkeypatch):
    # It was missing: the messages being shown were read before it was stored, and the answer was not put
    # back under them; Regenerate then took the answer above it for the last one and deleted it.
    import tinyrag_desktop.ui.main_window as mw

    data = tmp_path / "long"
    store = ChatStore(data)
    chat = store.new_chat()
    for i in range(19):
        store.add_user_message(chat.id, f"question {i}")
        store.add_assistant_message(chat.id, f"answer {i} " + "word " * 300)
    store.close()
    server.queue(Stream(tokens(LONG, 16), delay=0.004))
    win = make_window(server.base_url, data_dir=data)
    win.open_chat(chat.id)
    qloop.run(wait_until(lambda: not win.loading))
    real = win._load_step

    def slowly(batch, budget=None):  # the chat is built a slice a turn: held here until the answer ends
        if budget == float("inf") or not win.bridge.is_running():
            real(batch, budget)
        else:
            mw.QTimer.singleShot(5, lambda: win._load_step(batch, budget))

    monkeypatch.setattr(win, "_load_step", slowly)

    async def scenario():
        finished = wait_signal(win.answerFinished, timeout=30)
        win.ask("Tell me a long story")
        await wait_until(lambda: len(win.view.answers()[-1].content()) > 100)
        win.new_chat()
        win.open_chat(chat.id)
        assert win.loading
        win.stop()  # it ends as the chat is built again
        return await finished

    assert qloop.run(scenario(), timeout=40) == "stopped"
    qloop.run(wait_until(lambda: not win.loading))
    stored = ChatStore(data).messages(chat.id)
    shown = win.view.answers()
    assert len(shown) == len([m for m in stored if m.role == "assistant"]) == 20
    assert shown[-1].content() == stored[-1].content and stored[-1].status == "stopped"
    assert [a.regenerate_button.isVisibleTo(a) for a in shown][-2:] == [False, True]


def test_the_chat_on_screen_takes_a_new_theme_while_another_answers_and_keeps_its_draft(make_window, server,
                                                                                         qloop):
    # The chat on screen was not built again in the new colours while any answer streamed, even one in
    # another chat: a light code box in a dark window.
    from tinyrag_desktop.ui.markdown_render import DARK

    server.queue(Stream(tokens("Apples: `x = 1`.")), Stream(tokens(LONG, 16), delay=0.004))
    win = make_window(server.base_url, theme="light")
    assert qloop.run(ask_and_wait(win, "About apples")) == "done"
    apples = win.chat_id

    async def scenario():
        finished = await _start_long_answer(win, "Tell me a long story")
        win.open_chat(apples)
        await wait_until(lambda: not win.loading)
        win.composer.setPlainText("a draft")
        win.apply_settings(win.settings.replace(theme="dark"), save=False)
        await wait_until(lambda: not win.loading and win.view.answers())
        assert [a._palette for a in win.view.answers()] == [DARK]
        assert win.composer.toPlainText() == "a draft"
        return await finished

    assert qloop.run(scenario(), timeout=40) == "done"
