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
