"""A chat named by a question pasted with code is called by the question's words, not its Markdown."""

from __future__ import annotations

from tests.sse_server import Stream

from .conftest import ask_and_wait, tokens

QUESTION = "Please review this function:\n\n```python\ndef f(x):\n    return x * 2\n```\n\nIs it `pure`?"


def test_the_sidebar_the_header_and_the_window_title_show_the_questions_words(make_window, server, qloop):
    # They showed "Please review this function: ```python def f(x): return x *…".
    server.queue(Stream(tokens("It is.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, QUESTION)) == "done"
    assert win.title_label.text() == "Please review this function: Is it pure?"
    assert win.windowTitle() == "Please review this function: Is it pure? — tinyRAG Desktop"
    assert "Please review this function: Is it pure?" in win.sidebar.titles()
