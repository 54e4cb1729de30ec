"""A proxy set in the environment: used for the world, never for this machine's own servers; a proxy setting
that cannot be used is said in words and the app connects directly."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import httpx
import pytest

from tests.loopback import serving
from tests.sse_server import ScriptedLLMServer, Stream, free_port
from tinyrag_desktop import http_clients
from tinyrag_desktop.http_clients import async_client, sync_client

REPO = Path(__file__).resolve().parents[1]
PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY")


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    http_clients._said.clear()


class Page(BaseHTTPRequestHandler):
    """Answers every GET with the request line it was sent, as an HTTP proxy or a plain server sees it."""

    seen: list[str] = []

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.seen.append(self.requestline)
        body = self.requestline.encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def test_this_machines_servers_are_asked_directly_with_a_proxy_in_the_environment(monkeypatch):
    closed = f"http://127.0.0.1:{free_port()}"  # a proxy that is down: a request through it fails
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.setenv(name, closed)
    with serving(Page) as base:
        port = base.rsplit(":", 1)[1]
        for address in (base, f"http://localhost:{port}"):
            with sync_client(timeout=5) as client:
                assert client.get(address + "/v1/models").text == "GET /v1/models HTTP/1.1"
    with pytest.raises(httpx.ConnectError):  # the plain client sends it to the proxy, which is down
        with httpx.Client(timeout=5) as plain:
            plain.get(base + "/v1/models")


async def test_other_addresses_still_go_through_the_proxy(monkeypatch):
    Page.seen = []
    with serving(Page) as proxy:
        monkeypatch.setenv("HTTP_PROXY", proxy)
        async with async_client(timeout=5) as client:
            answer = await client.get("http://docs.example.invalid/page")
    # the proxy was asked for the whole address: no name was looked up, nothing left this machine
    assert answer.text == "GET http://docs.example.invalid/page HTTP/1.1" == Page.seen[-1]


@pytest.mark.parametrize("setting", ["ftp://proxy.example.invalid:21", "http://[::1", "socks5://127.0.0.1:9"])
def test_a_proxy_setting_that_cannot_be_used_is_said_once_and_the_app_goes_on(monkeypatch, caplog, setting):
    monkeypatch.setenv("ALL_PROXY", setting)
    caplog.set_level(logging.WARNING, logger="tinyrag_desktop.http_clients")
    with serving(Page) as base:
        for _ in range(2):
            with sync_client(timeout=5) as client:
                assert client.get(base + "/x").status_code == 200
    said = [r.getMessage() for r in caplog.records if r.name == "tinyrag_desktop.http_clients"]
    if setting.startswith("socks5"):  # httpx[socks] is installed: a SOCKS proxy is one the app can use
        assert said == []
    else:
        assert len(said) == 1 and said[0].startswith("The proxy set in ALL_PROXY cannot be used (")
        assert said[0].endswith("tinyRAG connects without it.")


def test_ask_reaches_a_local_server_on_a_machine_with_a_proxy_set(tmp_path):
    # It said "The model server at http://127.0.0.1:…/v1 cannot be reached. Is the server running?"
    closed = f"http://127.0.0.1:{free_port()}"
    env = {**os.environ, "PYTHONPATH": str(REPO), "TINYRAG_DATA_DIR": str(tmp_path / "data"),
           "HTTP_PROXY": closed, "HTTPS_PROXY": closed, "ALL_PROXY": closed}
    for name in ("NO_PROXY", "no_proxy"):
        env.pop(name, None)
    with ScriptedLLMServer() as server:
        server.queue(Stream(["Hello ", "there."]))
        proc = subprocess.run([sys.executable, "-m", "tinyrag_desktop", "ask", "--base-url", server.base_url,
                               "--model", "scripted", "hi"], capture_output=True, text=True, env=env, cwd=REPO,
                              timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "Hello there." and "Traceback" not in proc.stderr


def test_a_client_given_its_own_transport_uses_it():
    transport = httpx.MockTransport(lambda request: httpx.Response(204))
    with sync_client(transport=transport) as client:
        assert client.get("http://127.0.0.1:1/").status_code == 204


def test_a_server_asked_through_the_proxy_that_fails_says_so_and_what_to_do(monkeypatch, tmp_path):
    # "gpu-box" (a server on the network, or this machine's own name) went to the session's proxy and was
    # said only to be unreachable; the machine's own addresses are asked directly and get no such note.
    port = free_port()
    monkeypatch.setenv("HTTP_PROXY", f"http://user:secret@127.0.0.1:{port}")
    assert http_clients.proxy_note("http://gpu-box:8000/v1") == (
        f" Requests to it go through the proxy http://127.0.0.1:{port} (HTTP_PROXY and the like): if the server is "
        "on this machine or your network, add gpu-box to NO_PROXY.")  # and the proxy's password is not said
    assert http_clients.proxy_note("http://127.0.0.1:8000/v1") == http_clients.proxy_note("http://localhost/v1") == ""
    monkeypatch.setenv("NO_PROXY", "gpu-box")
    assert http_clients.proxy_note("http://gpu-box:8000/v1") == ""


def test_ask_names_the_proxy_a_server_on_the_network_was_asked_through(tmp_path):
    closed = f"http://127.0.0.1:{free_port()}"
    env = {**os.environ, "PYTHONPATH": str(REPO), "TINYRAG_DATA_DIR": str(tmp_path / "data"), "HTTP_PROXY": closed}
    for name in ("NO_PROXY", "no_proxy", "http_proxy"):
        env.pop(name, None)
    proc = subprocess.run([sys.executable, "-m", "tinyrag_desktop", "ask", "--base-url", "http://gpu-box.invalid:8000/v1",
                           "--model", "m", "hi"], capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert f"Requests to it go through the proxy {closed} (HTTP_PROXY and the like)" in proc.stderr
    assert "add gpu-box.invalid to NO_PROXY." in proc.stderr
