"""A server started after the window (`ollama serve` in a terminal): the status bar turns from red
"unreachable" to green by itself, without a question being asked first."""

from __future__ import annotations

from tests.sse_server import ScriptedLLMServer, free_port
from tinyrag_desktop.ui import welcome

from .conftest import wait_until


def test_the_status_turns_green_when_the_server_starts_later(make_window, qloop, monkeypatch):
    monkeypatch.setattr(welcome, "RECHECK_MS", 200)
    port = free_port()
    win = make_window(f"http://127.0.0.1:{port}/v1")
    assert win.status.state == "down"
    with ScriptedLLMServer(port=port):
        qloop.run(wait_until(lambda: win.status.state == "ok", timeout=10))
    assert win.status.reach.text().startswith("reachable")
