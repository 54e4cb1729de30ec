"""A call refused before it ran (an unknown tool, a tool given the wrong element) shows no time, live and
after the chat is opened again (it showed "<1 ms" once reopened); a call that ran keeps its time."""

from __future__ import annotations

from tests.sse_server import Stream

from .conftest import ask_and_wait, tokens, wait_until


def test_refused_calls_show_no_time_when_the_chat_is_opened_again(make_window, server, qloop):
    server.queue(Stream(tokens('<tool name="browse"><query>x</query></tool> and '
                               '<tool name="calculate"><query>2+2</query></tool>')),
                 Stream(tokens("Four.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "What is 2+2?")) == "done"
    live = {c.tool_name: c.meta for c in win.view.answers()[-1].cards()}
    assert live["browse"] == "" and live["calculate"].endswith(("ms", " s"))
    chat = win.chat_id
    win.new_chat()
    win.open_chat(chat)
    qloop.run(wait_until(lambda: not win.loading and win.view.answers()))
    again = {c.tool_name: c.meta for c in win.view.answers()[-1].cards()}
    assert again == live
