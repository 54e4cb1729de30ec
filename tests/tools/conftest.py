"""Loopback HTTP servers for the network tools' tests: a route table on 127.0.0.1, and a request log."""

from __future__ import annotations

import gzip
import json
import shutil
import ssl
import subprocess
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Callable, Iterator
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.loopback import QuietHTTPServer

Handler = Callable[["RequestHandler"], None]


@dataclass(frozen=True)
class SeenRequest:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]


class RequestHandler(BaseHTTPRequestHandler):
    server: "_Server"
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # keep test output clean
        pass

    def _dispatch(self) -> None:
        parts = urlsplit(self.path)
        self.query = parse_qs(parts.query)
        self.server.owner.seen.append(SeenRequest(self.command, parts.path, self.query,
                                                  {k.lower(): v for k, v in self.headers.items()}))
        if self.command != "GET":
            self.send_bytes(405, b"GET only", "text/plain")
            return
        handler = self.server.owner.routes.get(parts.path)
        if handler is None:
            self.send_bytes(404, b"not found", "text/plain")
            return
        handler(self)

    do_GET = do_POST = do_PUT = do_DELETE = _dispatch

    def send_bytes(self, status: int, body: bytes, content_type: str | None,
                   headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        if content_type is not None:
            self.send_header("Content-Type", content_type)
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def send_json(self, data: object, status: int = 200) -> None:
        self.send_bytes(status, json.dumps(data).encode(), "application/json; charset=utf-8")


class _Server(QuietHTTPServer):
    owner: "LoopbackServer"


@dataclass
class LoopbackServer:
    """A real HTTP server on 127.0.0.1 that answers from ``routes`` and logs every request it saw."""

    routes: dict[str, Handler] = field(default_factory=dict)
    seen: list[SeenRequest] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)  # lets slow handlers finish

    def start(self, tls: "ssl.SSLContext | None" = None) -> None:
        self._httpd = _Server(("127.0.0.1", 0), RequestHandler)
        self._httpd.owner = self
        if tls is not None:
            self._httpd.socket = tls.wrap_socket(self._httpd.socket, server_side=True)
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self.release.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(5)

    def url(self, path: str = "/", host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    def add(self, path: str, handler: Handler) -> str:
        self.routes[path] = handler
        return self.url(path)

    def static(self, path: str, body: bytes | str, content_type: str | None = "text/html; charset=utf-8",
               status: int = 200, headers: dict[str, str] | None = None) -> str:
        data = body.encode("utf-8") if isinstance(body, str) else body
        return self.add(path, lambda h: h.send_bytes(status, data, content_type, headers))

    def redirect(self, path: str, location: str, status: int = 302) -> str:
        return self.add(path, lambda h: h.send_bytes(status, b"", "text/plain", {"Location": location}))

    def gzip(self, path: str, plain: bytes, content_type: str = "text/plain") -> str:
        packed = gzip.compress(plain, compresslevel=9)
        return self.add(path, lambda h: h.send_bytes(200, packed, content_type, {"Content-Encoding": "gzip"}))

    def paths_seen(self) -> list[str]:
        return [r.path for r in self.seen]


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    srv = LoopbackServer()
    srv.start()
    yield srv
    srv.stop()


@dataclass(frozen=True)
class TLSServer:
    server: LoopbackServer
    cafile: Path  # the self-signed certificate, valid for news.example only


@pytest.fixture
def tls_server(tmp_path: Path) -> Iterator[TLSServer]:
    """An https server on 127.0.0.1 whose certificate names ``news.example`` (made by the openssl CLI)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("the openssl command is needed to make a test certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=news.example",
                    "-addext", "subjectAltName=DNS:news.example"], check=True, capture_output=True)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    srv = LoopbackServer()
    srv.start(tls=context)
    yield TLSServer(srv, cert)
    srv.stop()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    path = tmp_path / "data"
    path.mkdir()
    return path
