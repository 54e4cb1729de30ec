"""The status bar's server state agrees with what the last answer found: it is checked again when they differ."""

from __future__ import annotations

from tests.sse_server import ScriptedLLMServer, Stream, free_port

from .conftest import ask_and_wait, tokens, wait_until


async def _ask_then_state(win, question: str, state: str) -> str:
    """Ask, then wait for the status bar to say ``state`` (in one run of the loop: the check the answer starts
    must not begin in the pause between two)."""
    outcome = await ask_and_wait(win, question)
    await wait_until(lambda: win.status.state == state)
    return outcome


def test_a_server_started_after_the_window_shows_as_reachable_once_it_answers(make_window, qloop):
    # The user opens the app, sees "unreachable", starts Ollama and asks: the answer came, yet the status bar
    # kept saying "unreachable" in red, and the model menu "No models listed", until the next start.
    port = free_port()
    win = make_window(f"http://127.0.0.1:{port}/v1")
    qloop.run(wait_until(lambda: win.status.state == "down"))
    with ScriptedLLMServer(models=("scripted", "other-model"), port=port) as server:
        server.queue(Stream(tokens("Here now.")))
        assert qloop.run(_ask_then_state(win, "Are you there?", "ok")) == "done"
        assert win.status.reach.text() == "reachable · 2 chat models"
        assert win.status.models == ["scripted", "other-model"]


def test_a_server_that_went_away_shows_as_unreachable_once_an_answer_fails(make_window, server, qloop):
    # The other way round: a green "reachable" beside an answer saying the server cannot be reached.
    win = make_window(server.base_url)
    qloop.run(wait_until(lambda: win.status.state == "ok"))
    win.settings = win.settings.replace(base_url=f"http://127.0.0.1:{free_port()}/v1")  # the server is gone
    assert qloop.run(_ask_then_state(win, "Still there?", "down")) == "error"
    assert "cannot be reached" in win.view.answers()[-1].error
    assert win.status.reach.text() == "unreachable"
    assert not win.welcome.visible()  # the chat with its error and Retry stays in view


def test_an_answer_that_agrees_with_the_status_bar_asks_the_server_nothing_more(make_window, server, qloop):
    win = make_window(server.base_url)
    qloop.run(wait_until(lambda: win.status.state == "ok"))
    checks = []
    win.status.start_check = lambda *args: checks.append(args)
    server.queue(Stream(tokens("Fine.")))
    assert qloop.run(ask_and_wait(win, "Hello")) == "done"
    assert checks == []


def test_closing_waits_for_a_check_that_a_newer_one_replaced(qtbot, qloop):
    """A check replaced by a newer one is still ending (its connection being closed) when the window closes:
    cancel() waits for it too, so none is left to end outside the loop, with its socket open."""
    import asyncio

    from PySide6.QtWidgets import QStatusBar

    from tinyrag_desktop.settings import defaults
    from tinyrag_desktop.ui.status import ServerStatus

    bar = QStatusBar()
    qtbot.addWidget(bar)
    status = ServerStatus(bar)
    ended = []

    async def slow_list_models(base_url, api_key):
        closing = 0.3 if not ended and not started else 0.01  # the first takes longer to close
        started.append(base_url)
        try:
            await asyncio.Event().wait()  # a server that never answers
        finally:
            await asyncio.sleep(closing)  # closing its connection takes a moment
            ended.append(closing)
        return []

    started = []

    first = status.start_check(slow_list_models, defaults())
    qloop.run(asyncio.sleep(0.01))  # the first check is under way
    second = status.start_check(slow_list_models, defaults())  # replaces the first, which starts to end
    qloop.run(asyncio.sleep(0.01))  # the second is under way too; the first still ending
    assert not first.done() and not ended
    qloop.run(status.cancel())
    assert first.done() and second.done() and sorted(ended) == [0.01, 0.3]  # each closed its connection


def test_the_status_tooltip_shows_a_command_in_code_type_not_backticks(qtbot):
    from PySide6.QtWidgets import QStatusBar

    from tinyrag_desktop.ui.status import ServerStatus

    bar = QStatusBar()
    qtbot.addWidget(bar)
    status = ServerStatus(bar)
    status._set("down", "unreachable", "Nothing answers at 127.0.0.1:11434. Start it with `ollama serve` & retry.")
    assert status.reach.toolTip() == ("<p>Nothing answers at 127.0.0.1:11434. Start it with <code>ollama serve</code>"
                                      " &amp; retry.</p>")
    status._set("down", "unreachable", "The server did not answer in time.")
    assert status.reach.toolTip() == "The server did not answer in time."  # plain words stay plain
