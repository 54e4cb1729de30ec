"""A stopped answer's footer names the model that wrote it, as a finished or failed one's does, also with no
model chosen (the server's first chat model answers), when it was stopped before the model's first words,
and when its chat is opened again."""

from __future__ import annotations

import re

from tests.sse_server import Hang, ScriptedLLMServer, Stream

from .conftest import ask_then_stop, stop_once_sent, tokens, wait_until


def _footer_opened_again(win, qloop) -> str:
    """The footer of the chat's one answer as it reads after another chat was open: as it was stored."""
    chat = win.chat_id
    win.new_chat()
    win.open_chat(chat)
    qloop.run(wait_until(lambda: not win.loading and len(win.view.answers()) == 1))
    return win.view.answers()[-1].footer()


def test_a_stopped_answer_of_the_servers_default_model_names_it_also_when_opened_again(make_window, qloop):
    # With "server default" in Settings it read "2.1 s · stopped": only Done named the model the server gave,
    # and a stopped request yields no Done.
    with ScriptedLLMServer(models=("nomic-embed-text", "qwen2.5-7b-instruct")) as server:
        server.queue(Stream(tokens("word " * 3000), delay=0.003))
        win = make_window(server.base_url, chat_model="")
        assert qloop.run(ask_then_stop(win, "Talk", lambda a: len(a.content()) > 200)) == "stopped"
        footer = win.view.answers()[-1].footer()
        assert re.fullmatch(r"\d+\.\d s · qwen2\.5-7b-instruct · stopped", footer), footer
        assert _footer_opened_again(win, qloop) == footer  # stored with the answer


def test_stopped_before_the_servers_default_model_spoke_names_it_also_when_opened_again(make_window, qloop):
    # It read "0.3 s · stopped": only the model's words (and Done) named the model the server gave.
    with ScriptedLLMServer(models=("nomic-embed-text", "qwen2.5-7b-instruct")) as server:
        server.queue(Hang(3))
        win = make_window(server.base_url, chat_model="")
        assert qloop.run(stop_once_sent(win, server, "Wait")) == "stopped"  # once the model was chosen
        answer = win.view.answers()[-1]
        assert answer.note() == "Stopped before the model answered."
        footer = answer.footer()
        assert re.fullmatch(r"\d+\.\d s · qwen2\.5-7b-instruct · stopped", footer), footer
        assert _footer_opened_again(win, qloop) == footer  # stored with the answer


def test_the_engine_names_the_model_on_what_it_writes_but_not_in_the_payload():
    from tinyrag_desktop.engine.events import Reasoning, Text, ToolWriting, named

    for event in (Text("Hi"), Reasoning("Hm"), ToolWriting("c1", "calculate")):
        told = named(event, "qwen2.5-7b-instruct")
        assert told.model == "qwen2.5-7b-instruct" and told.payload() == event.payload()
