"""A server still loading its model when the window starts (llama.cpp's 503 "Loading model"): the status bar
says so and asks again until the model is loaded, as it does for a model being pulled."""

from __future__ import annotations

from tests.sse_server import ScriptedLLMServer, Status

from .conftest import wait_until


def test_a_model_still_loading_is_said_and_asked_again_until_it_is_loaded(make_window, qloop, monkeypatch):
    # It was an amber "server error", kept after the model had loaded (nothing asked again)
    from tinyrag_desktop.ui import welcome

    monkeypatch.setattr(welcome, "RECHECK_MS", 200)
    loading = Status(503, {"error": {"code": 503, "message": "Loading model", "type": "unavailable_error"}})
    loaded = {"object": "list", "data": [{"id": "qwen2.5-7b-instruct-q4_k_m.gguf", "object": "model"}]}
    with ScriptedLLMServer(models=()) as server:
        state = {"page": loading}
        server.pages["/v1/models"] = lambda: state["page"]
        win = make_window(server.base_url, chat_model="")
        assert win.status.state == "warn" and win.status.reach.text() == "loading model"
        assert "still loading" in win.status.reason
        state["page"] = loaded  # llama-server has loaded its model
        qloop.run(wait_until(lambda: win.status.state == "ok", timeout=10))
        assert win.status.reach.text() == "reachable · 1 chat model"


def test_a_model_loading_is_told_by_its_type_not_by_the_servers_words() -> None:
    # "still loading" was looked for in the message, which holds the server's words: a server error that
    # said them was "loading model", and asked again every 10 s
    from tinyrag_desktop.engine.errors import ModelLoading, ServerFailed
    from tinyrag_desktop.ui.status import LOADING, _state_for

    said = ServerFailed("The model server failed (500) and could not answer. The server said: index still loading")
    assert _state_for(said) == ("warn", "server error")
    assert _state_for(ModelLoading("The model is still loading on the server (503).")) == ("warn", LOADING)


def test_the_readme_says_which_states_are_asked_again(make_window) -> None:
    # It said "every 10 seconds while something is wrong": a refused API key is not asked again
    from pathlib import Path

    from tinyrag_desktop.ui import welcome

    readme = " ".join((Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8").split())
    assert "while something is wrong" not in readme
    assert (f"every {welcome.RECHECK_MS // 1000} seconds while nothing answers or the server has no chat model yet, "
            "misses the one chosen or is still loading it") in readme
    assert "a refused API key, a busy server or another error is checked again after the next answer" in readme
    with ScriptedLLMServer() as server:
        server.pages["/v1/models"] = Status(401, {"error": {"message": "Incorrect API key provided."}})
        win = make_window(server.base_url)
        assert win.status.reach.text() == "API key refused" and not win.welcome._again.isActive()
