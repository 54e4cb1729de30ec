"""Tab walks an answer top to bottom: its Thinking toggle, above the text, before its Copy button below it.

In a reopened chat Tab went from the answer's Copy to the Thinking toggle above it: the toggle is made when
the reasoning comes, after the footer's buttons, and the answer's own Tab order left it out.
"""

from __future__ import annotations

from tests.sse_server import Stream
from tinyrag_desktop.chats import ChatStore

from .conftest import ask_and_wait, tokens, wait_until


def _order(win, answer) -> list[int]:
    stops = win.tab_stops()
    return [stops.index(w) for w in (answer._thinking.toggle, answer.copy_button, answer.regenerate_button)]


def test_a_reopened_answers_thinking_toggle_comes_before_its_copy_button(make_window, server, qloop, tmp_path):
    data = tmp_path / "data"
    store = ChatStore(data)
    chat = store.new_chat()
    store.add_user_message(chat.id, "Why is the sky blue?")
    store.add_assistant_message(chat.id, "Because of Rayleigh scattering.", reasoning="Short waves scatter more.",
                                stats={"outcome": "done", "rounds": 1})
    store.close()
    win = make_window(server.base_url, data_dir=data)
    win.open_chat(chat.id)
    qloop.run(wait_until(lambda: not win.loading and win.view.answers()))
    answer = win.view.answers()[-1]
    order = _order(win, answer)
    assert order == sorted(order)
    answer._thinking.toggle.click()  # shown, the reasoning's text is the next stop, still above Copy
    qloop.run(wait_until(lambda: answer._thinking.body.isVisible()))
    stops = win.tab_stops()
    assert stops.index(answer._thinking.toggle) < stops.index(answer._thinking.body) < stops.index(
        answer.copy_button)


def test_a_streamed_answers_thinking_toggle_comes_before_its_copy_button(make_window, server, qloop):
    server.queue(Stream(tokens("It is blue."), reasoning=tokens("Think a little.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Why is the sky blue?")) == "done"
    answer = win.view.answers()[-1]
    assert answer._thinking is not None
    order = _order(win, answer)
    assert order == sorted(order)
