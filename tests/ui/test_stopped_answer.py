"""A stopped answer's footer counts the rounds it went through, as a finished one's does."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.sse_server import Stream
from tinyrag_desktop.chats import ChatStore

from .conftest import tokens, wait_signal, wait_until


def test_stopping_in_the_third_round_says_three_rounds(make_window, server, qloop):
    # It said "1 round · 2 tools run · stopped": a stopped request yields no Done, and the footer
    # assumed one round.
    server.queue(Stream(tokens('<tool name="calculate"><query>6*7</query></tool>')),
                 Stream(tokens('<tool name="calculate"><query>6*8</query></tool>')),
                 Stream(tokens("word " * 3000), delay=0.003))
    win = make_window(server.base_url)

    async def scenario():
        finished = wait_signal(win.answerFinished, timeout=15)
        win.composer.setPlainText("Compute twice, then talk")
        win.send()
        await wait_until(lambda: win.view.answers() and len(win.view.answers()[-1].content()) > 200)
        QTest.keyClick(win, Qt.Key.Key_Escape)
        return await finished

    assert qloop.run(scenario()) == "stopped"
    answer = win.view.answers()[-1]
    assert [c.status for c in answer.cards()] == ["done", "done"]
    assert answer.footer().startswith("3 rounds · 2 tools run · ") and answer.footer().endswith(" · stopped")
    assert ChatStore(win.data_dir).messages(win.chat_id)[-1].stats["rounds"] == 3


def test_stopping_in_the_first_round_says_one_round(make_window, server, qloop):
    server.queue(Stream(tokens("word " * 3000), delay=0.003))
    win = make_window(server.base_url)

    async def scenario():
        finished = wait_signal(win.answerFinished, timeout=15)
        win.composer.setPlainText("Talk")
        win.send()
        await wait_until(lambda: win.view.answers() and len(win.view.answers()[-1].content()) > 200)
        win.stop()
        return await finished

    assert qloop.run(scenario()) == "stopped"
    assert win.view.answers()[-1].footer().startswith("1 round · 0 tools run · ")
