"""A model loaded with a context too small for the app's own instructions: the window says so and what to do,
not "This question is longer than the model can read at once … Shorten it" under a three-word question."""

from __future__ import annotations

from tests.sse_server import Status

from .conftest import ask_and_wait

LLAMA_CPP = {"error": {"code": 400, "message": "the request exceeds the available context size. try increasing "
                                               "the context size or enable context shift"}}


def test_a_short_question_refused_as_too_long_names_the_instructions_and_the_settings(make_window, server, qloop,
                                                                                     tmp_path):
    server.refuse = lambda body: Status(400, LLAMA_CPP)  # every request: the instructions alone are too many
    win = make_window(server.base_url, network_tools=True)
    assert qloop.run(ask_and_wait(win, "context test again")) == "error"
    answer = win.view.answers()[-1]
    said = answer.error
    assert said.startswith("The model's context is too small for the app's instructions and the descriptions "
                           "of its tools (about "), said
    assert "Shorten" not in said and "num_ctx" in said
    # the window's words: the setting to turn off, without the command line's flag
    assert said.endswith("or offer fewer tools: turn off “Network tools” in Settings → Tools."), said
    assert answer.settings_button.isVisible()  # Open Settings, beside Retry
    answer.grab().save(str(tmp_path / "context_too_small.png"))
