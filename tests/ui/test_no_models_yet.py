"""A server that answers but has no model yet: the status bar says "no models" in amber with how to get one,
not a green "reachable · 0 models"; a question says the same words."""

from __future__ import annotations

from tests.sse_server import ScriptedLLMServer

from .conftest import ask_and_wait


def test_a_server_without_models_is_said_with_how_to_get_one(make_window, qloop):
    with ScriptedLLMServer(models=()) as server:
        win = make_window(server.base_url, chat_model="")
        assert win.status.state == "warn" and win.status.reach.text() == "no models"
        assert "`ollama pull llama3.2`" in win.status.reason and "LM Studio" in win.status.reason
        assert qloop.run(ask_and_wait(win, "Hello?")) == "error"
        error = win.view.answers()[-1].error
        assert "has no models yet" in error and "ollama pull llama3.2" in error


def test_llama_cpp_answers_whatever_name_is_set_and_is_not_said_missing(make_window):
    with ScriptedLLMServer(models=("/models/qwen2.5-7b-instruct-q4_k_m.gguf",)) as server:
        win = make_window(server.base_url, chat_model="qwen2.5")
        assert win.status.state == "ok" and win.status.reach.text() == "reachable · 1 model"
    with ScriptedLLMServer(models=("llama3.2:latest",)) as server:  # Ollama: the name must be one it has
        win = make_window(server.base_url, chat_model="qwen2.5")
        assert win.status.state == "warn" and win.status.reach.text() == "model missing"


def test_a_server_without_models_is_asked_again_until_one_is_pulled(make_window, qloop, monkeypatch):
    from tinyrag_desktop.ui import welcome

    from .conftest import wait_until

    monkeypatch.setattr(welcome, "RECHECK_MS", 200)
    with ScriptedLLMServer(models=()) as server:
        win = make_window(server.base_url, chat_model="")
        assert win.status.reach.text() == "no models"
        server.models.append("llama3.2:latest")  # `ollama pull llama3.2` finished
        qloop.run(wait_until(lambda: win.status.state == "ok", timeout=10))
