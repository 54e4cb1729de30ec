"""A server's failure in the middle of its stream, shown in the window: its words (or that it said none) under
the text that came, which stays."""

from __future__ import annotations

import json

import pytest

from tests.sse_server import Raw
from tests.ui.conftest import ask_and_wait

HELLO = ['data: {"choices": [{"delta": {"content": "Hello "}}]}\n\n',
         'data: {"choices": [{"delta": {"content": "world"}}]}\n\n']


@pytest.mark.parametrize("ending, said", [
    (["event: error\n\n", "data: [DONE]\n\n"],  # it passed for a whole answer
     "The model server reported an error during the answer without saying what it was. The text so far is kept."),
    ([json.dumps({"error": "model runner has unexpectedly stopped"}) + "\n"],  # Ollama's, without "data:"
     "The model server reported an error during the answer. The text so far is kept. The server said: model "
     "runner has unexpectedly stopped"),
], ids=["error event without data", "json error line"])
def test_a_failure_in_the_stream_is_said_under_the_text_that_came(make_window, server, qloop, ending, said) -> None:
    server.queue(Raw(HELLO + ending, scatter=True))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Hello?")) == "error"
    answer = win.view.answers()[-1]
    assert answer.error == said
    assert answer.copy_markdown() == f"Hello world\n\n> **Error:** {said}\n"
