"""A whole endpoint pasted as the Server URL (LM Studio's docs show http://localhost:1234/v1/chat/completions) is
cut back to the server's address, shown so in the field and said under it; and what Test connection says
inside Settings points at the field above, not at "Settings", which is open already."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler

import httpx
import pytest
from PySide6.QtCore import Qt

from tests.loopback import serving
from tests.sse_server import free_port
from tinyrag_desktop.engine.llm import LLMClient
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui.settings_dialog import SettingsDialog


class _Strict(BaseHTTPRequestHandler):
    """A server that lists its models at /v1/models and nowhere else (…/chat/completions/models: 404)."""

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        found = self.path == "/v1/models"
        body = json.dumps({"data": [{"id": "scripted"}]} if found else {"error": "404 page not found"}).encode()
        self.send_response(200 if found else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def server():
    with serving(_Strict) as root:
        yield root + "/v1"


@pytest.fixture
def dialog(qloop, qtbot):
    http = httpx.AsyncClient()

    async def list_models(base_url: str, api_key: str) -> list[str]:
        return await LLMClient(http, base_url, api_key).list_models()

    d = SettingsDialog(defaults(), list_models)
    qtbot.addWidget(d)
    d.show()
    with qtbot.waitActive(d):
        d.activateWindow()
    yield d
    qloop.run(http.aclose())


def _paste(qtbot, dialog, text: str) -> None:
    """Paste ``text`` into the Server URL, then leave the field (Tab)."""
    field = dialog.field("base_url")
    field.setFocus()
    qtbot.waitUntil(field.hasFocus)
    field.selectAll()
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Qt.Key.Key_Tab)


def test_a_pasted_endpoint_is_cut_back_to_the_server_and_said_so(qloop, qtbot, dialog, server):
    _paste(qtbot, dialog, f"{server}/chat/completions")
    assert dialog.field("base_url").text() == server  # what will be used, in sight
    note = dialog.url_note
    assert note.isVisible() and note.text() == ("“/chat/completions” was taken off the end: tinyRAG adds it to the "
                                                "Server URL itself, so the address above is the one used.")
    # The server answers at its address: a strict one said "found nothing (404)" for the endpoint's.
    qloop.run(dialog.test_connection())
    assert dialog.test_result.text().startswith("Connected. 1 chat model: scripted")
    assert dialog.values()["base_url"] == server
    qtbot.keyClicks(dialog.field("base_url"), "x")  # typed on: the note was about the address before
    assert not note.isVisible()


def test_test_connection_inside_settings_points_at_the_server_url_above(qloop, qtbot, dialog, server):
    for address, said in ((f"http://127.0.0.1:{free_port()}/v1", "cannot be reached"),
                          (f"{server}/v2", "found nothing at that address (404)")):
        _paste(qtbot, dialog, address)
        assert not dialog.url_note.isVisible()
        qloop.run(dialog.test_connection())
        result = dialog.test_result.text()
        assert said in result and "Server URL above" in result and "in Settings" not in result, result
