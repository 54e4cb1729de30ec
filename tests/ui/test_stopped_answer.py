"""A stopped answer's footer counts the rounds it went through, as a finished one's does."""

from __future__ import annotations

import asyncio
import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.sse_server import Stream
from tinyrag_desktop.chats import ChatStore
from tinyrag_desktop.engine.events import Done, ToolFinished, ToolStarted
from tinyrag_desktop.ui.answer import AnswerWidget, footer_text

from .conftest import ask_and_wait, ask_then_stop, tokens


def test_stopping_in_the_third_round_says_three_rounds(make_window, server, qloop):
    # It said "1 round · 2 tools run · stopped": a stopped request yields no Done, and the footer
    # assumed one round.
    server.queue(Stream(tokens('<tool name="calculate"><query>6*7</query></tool>')),
                 Stream(tokens('<tool name="calculate"><query>6*8</query></tool>')),
                 Stream(tokens("word " * 3000), delay=0.003))
    win = make_window(server.base_url)

    assert qloop.run(ask_then_stop(win, "Compute twice, then talk", lambda a: len(a.content()) > 200,
                                   lambda: QTest.keyClick(win, Qt.Key.Key_Escape))) == "stopped"
    answer = win.view.answers()[-1]
    assert [c.status for c in answer.cards()] == ["done", "done"]
    assert answer.footer().startswith("3 rounds · 2 tools run · ") and answer.footer().endswith(" · stopped")
    assert ChatStore(win.data_dir).messages(win.chat_id)[-1].stats["rounds"] == 3


def test_stopping_in_the_first_round_says_one_round(make_window, server, qloop):
    server.queue(Stream(tokens("word " * 3000), delay=0.003))
    win = make_window(server.base_url)

    assert qloop.run(ask_then_stop(win, "Talk", lambda a: len(a.content()) > 200)) == "stopped"
    assert re.fullmatch(r"\d+\.\d s · scripted · stopped", win.view.answers()[-1].footer())


def _engine_with_a_tool_that_hangs(data_dir, window):
    """An engine factory whose registry has the default tools and ``hang``, which never finishes."""
    from tinyrag_desktop.engine import Engine
    from tinyrag_desktop.tools import default_registry
    from tinyrag_desktop.tools.registry import ToolSpec

    async def hang(text, ctx):
        await asyncio.Event().wait()

    def factory(settings, confirm):
        registry = default_registry()
        registry.register(ToolSpec("hang", "query", "Never finishes.", hang, "x"))
        return Engine(settings=settings, data_dir=data_dir, http=window[0].http(), registry=registry,
                      confirm=confirm)

    return factory


def test_a_tool_stopped_while_it_ran_is_counted_and_said_so(qloop, qtbot, tmp_path, server):
    # It said "0 tools run · stopped" beside a card marked stopped: the count took only finished cards,
    # while Done.tools_run counts every call the engine started.
    from tinyrag_desktop.settings import defaults
    from tinyrag_desktop.ui.main_window import MainWindow

    server.queue(Stream(tokens('Let me check.\n<tool name="calculate"><query>6*7</query></tool>\n'
                               '<tool name="nosuch"><query>x</query></tool>\n'
                               '<tool name="hang"><query>the slow one</query></tool>')))
    data = tmp_path / "data"
    settings = defaults().replace(base_url=server.base_url, chat_model="scripted", network_tools=False)
    made = []
    win = MainWindow(data, settings, engine_factory=_engine_with_a_tool_that_hangs(data, made))
    made.append(win)
    win.resize(900, 600)
    win.show()
    try:
        assert qloop.run(ask_then_stop(win, "Compute, then take your time",
                                       lambda a: len(a.cards()) == 3 and a.cards()[0].status == "done")) == "stopped"
        answer = win.view.answers()[-1]
        assert [c.status for c in answer.cards()] == ["done", "error", "skipped"]  # calculate, unknown, hang
        # two calls ran (the unknown tool's card is an error, but nothing ran), one of them was stopped
        assert " · 2 tools run (1 stopped) · " in answer.footer()
        assert answer.stats["tools_run"] == 2 and answer.stats["tools_stopped"] == 1
        stored = ChatStore(data).messages(win.chat_id)[-1]
        assert stored.stats == answer.stats
        assert [t.status for t in stored.tools] == ["done", "error", "running"]  # running when stopped
        assert "(stopped)" in answer.to_markdown() and "(skipped)" not in answer.to_markdown()
        again = AnswerWidget.from_stored(stored)
        qtbot.addWidget(again)
        assert again.footer() == answer.footer() and again.cards()[2].stopped
    finally:
        qloop.run(win.aclose())
        win.close()
        win.deleteLater()


@pytest.mark.parametrize(("stats", "said"), [
    ({"tools_run": 1, "tools_stopped": 1}, "1 tool stopped"),
    ({"tools_run": 3, "tools_stopped": 2}, "3 tools run (2 stopped)"),
    ({"tools_run": 2}, "2 tools run"),
])
def test_the_footer_counts_stopped_tools_among_those_run(stats, said):
    assert footer_text({"rounds": 1, "elapsed_ms": 1200, **stats}) == f"1 round · {said} · 1.2 s"


def test_a_plain_answer_says_only_its_time_and_one_that_went_on_says_its_rounds():
    # "1 round · 0 tools run · 1.2 s" was under every answer that used no tool
    assert footer_text({"rounds": 1, "tools_run": 0, "elapsed_ms": 1200}) == "1.2 s"
    assert footer_text({"rounds": 1, "tools_run": 0, "elapsed_ms": 300, "outcome": "stopped"}) == "0.3 s · stopped"
    # a second round whose calls all were refused (a tool that is off) still shows it went on
    assert footer_text({"rounds": 2, "tools_run": 0, "elapsed_ms": 1200}) == "2 rounds · 0 tools run · 1.2 s"


def test_a_stopped_answer_does_not_count_a_refused_call_as_run(qtbot):
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.tool_started(ToolStarted("c1", "calculate", "1+1"))
    answer.tool_finished(ToolFinished("c1", "calculate", "1+1", "calculator", None, 1, "ok", 3, "2"))
    answer.tool_finished(ToolFinished("c2", "nosuch", "x", "", "There is no tool called “nosuch”.", 0, "error", 0))
    answer.tool_started(ToolStarted("c3", "websearch", "q"))
    answer.stop(500)
    assert answer.stats["tools_run"] == 2 and answer.stats["tools_stopped"] == 1
    assert answer.footer().startswith("1 round · 2 tools run (1 stopped) · ")


def test_a_tool_cut_off_by_a_failed_stream_is_counted_as_stopped(qtbot):
    # The engine's Done comes after its error and counts the call it started; the card says stopped.
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.tool_started(ToolStarted("w1", "websearch", "q"))
    answer.fail("The model server closed the stream.")
    answer.finish(Done(1, 1, 900, "", ()))
    assert answer.footer() == "1 round · 1 tool stopped · 0.9 s"


def test_an_answer_that_ends_on_a_refused_repeat_says_why_under_its_cards(make_window, server, qloop):
    # It ended on the two cards with no text at all: the second round only repeated the first call.
    server.queue(Stream(tokens('<tool name="calculate"><query>6*7</query></tool>')),
                 Stream(tokens('<tool name="calculate"><query>6*7</query></tool>')))
    win = make_window(server.base_url, max_continuations=1)
    assert qloop.run(ask_and_wait(win, "What is 6*7?")) == "done"
    answer = win.view.answers()[-1]
    parts = answer.parts()
    assert [type(p).__name__ for p in parts] == ["ToolCard", "ToolCard", "MarkdownSegment"]
    assert [c.status for c in answer.cards()] == ["done", "skipped"]
    said = parts[-1].toPlainText()
    assert said.startswith("The answer ends here: the model only repeated a tool call that had already run")
    stored = ChatStore(win.data_dir).messages(win.chat_id)[-1]
    assert "The answer ends here" in stored.content and "The answer ends here" not in stored.transcript


def test_an_answer_ending_on_a_call_in_the_last_round_names_the_rounds_setting(make_window, server, qloop):
    # The note said the limit, not what allows more rounds.
    server.queue(Stream(tokens('<tool name="calculate"><query>6*7</query></tool>')),
                 Stream(tokens('<tool name="calculate"><query>6*8</query></tool>')))
    win = make_window(server.base_url, max_continuations=1)
    assert qloop.run(ask_and_wait(win, "What is 6*7?")) == "done"
    answer = win.view.answers()[-1]
    assert [card.status for card in answer.cards()] == ["done", "done"]  # the user reads its result
    said = answer.parts()[-1].toPlainText()
    assert said.startswith("The answer ends here: the model was still calling tools at the limit of 2 rounds")
    assert "raise “Rounds after the first” in Settings → Limits to allow more rounds." in said
    # The window names the setting only: the flag is for `ask` (the note said "(or --max-continuations)").
    stored = ChatStore(win.data_dir).messages(win.chat_id)[-1]
    assert "--max-continuations" not in said and "--max-continuations" not in stored.content
    assert answer.footer().startswith("2 rounds · 2 tools run")
