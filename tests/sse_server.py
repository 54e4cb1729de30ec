"""A loopback OpenAI-compatible server for tests: streams scripted SSE cut into small random pieces."""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any, Callable

from tests.embed_server import embed
from tests.loopback import QuietHTTPServer


@dataclass
class Gate:
    """Holds a Stream open after its first content token until ``opened`` is set (at most ``seconds``): a
    test sees what came through while the reply was still open. ``passed`` is set once the rest was sent."""

    seconds: float = 30.0
    opened: threading.Event = field(default_factory=threading.Event)
    passed: threading.Event = field(default_factory=threading.Event)


@dataclass
class Stream:
    """Stream ``tokens`` as content deltas. ``cut_after`` closes the connection after that many tokens,
    without finish_reason or [DONE]; ``reasoning`` tokens come first as ``reasoning_content``; ``gate``
    holds the reply open after its first content token (see Gate)."""

    tokens: list[str]
    reasoning: list[str] = field(default_factory=list)
    cut_after: int | None = None
    delay: float = 0.0
    done: bool = True
    crlf: bool = False
    finish: str = "stop"  # the last chunk's finish_reason ("length": the reply ran out of tokens)
    gate: Gate | None = None


@dataclass
class Status:
    code: int
    body: Any = None


@dataclass
class Raw:
    """Answer with these exact ``pieces`` (each sent and flushed on its own, ``gap`` seconds apart), for
    replies a real server should never send: wrong shapes, wrong content types, keep-alives only. ``scatter``
    sends their bytes in small random pieces instead, as a Stream's are sent."""

    pieces: list[str]
    content_type: str = "text/event-stream"
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    gap: float = 0.0
    scatter: bool = False


@dataclass
class Hang:
    """Accept the request and send nothing for ``seconds``."""

    seconds: float


def sse_events(stream: Stream, model: str = "scripted") -> list[str]:
    """The SSE events for a Stream, in the shape llama.cpp's server sends them."""

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        obj = {"id": "chatcmpl-test", "object": "chat.completion.chunk", "model": model,
               "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        return "data: " + json.dumps(obj) + "\n\n"

    events = [": keep-alive\n\n", chunk({"role": "assistant"})]
    events += [chunk({"reasoning_content": t}) for t in stream.reasoning]
    events += [chunk({"content": t}) for t in stream.tokens]
    if stream.cut_after is not None:
        return events[: 2 + len(stream.reasoning) + stream.cut_after]
    events.append(chunk({}, stream.finish))
    if stream.done:
        events.append("data: [DONE]\n\n")
    if stream.crlf:
        events = [e.replace("\n", "\r\n") for e in events]
    return events


class ScriptedLLMServer:
    """Answers each POST /v1/chat/completions with the next queued reply; GET /v1/models lists models;
    POST /v1/embeddings embeds with the toy model of ``tests.embed_server``. ``port`` 0 takes a free one; a
    given one lets a test start the server where a window already looks for it (started after the app)."""

    def __init__(self, models: tuple[str, ...] = ("scripted",), seed: int = 0, port: int = 0) -> None:
        self.models = list(models)
        self.replies: list[Stream | Status | Hang | Raw] = []
        self.requests: list[dict[str, Any]] = []
        self.embedding_requests: list[dict[str, Any]] = []  # POST /v1/embeddings (see embed_server.embed)
        # Other servers' own endpoints (Ollama's /api/ps, llama.cpp's /props…): path → the JSON to answer a GET
        # or POST with, or a Status to refuse it with (or a function giving either, called at each request); and ``refuse``, a chat request → the Status to refuse it with (a context too small), or None.
        self.pages: dict[str, Any] = {}
        self.refuse: Callable[[dict[str, Any]], Status | None] | None = None
        self.asked: list[str] = []  # the paths of the requests for ``pages``, in order
        self.rng = random.Random(seed)
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _page(self) -> bool:
                if self.path not in server.pages:
                    return False
                server.asked.append(self.path)
                page = server.pages[self.path]
                page = page() if callable(page) else page  # a callable: its answer now
                if isinstance(page, Status):  # refused (llama.cpp's 503 while it loads its model)
                    self._send(page.code, json.dumps(page.body))
                else:
                    self._send(200, json.dumps(page))
                return True

            def do_GET(self) -> None:
                if self._page():
                    return
                if self.path.rstrip("/").endswith("/models"):
                    body = json.dumps({"object": "list", "data": [{"id": m, "object": "model"} for m in server.models]})
                    self._send(200, body)
                else:
                    self._send(404, json.dumps({"error": {"message": "not found"}}))

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if self._page():
                    return
                if self.path.rstrip("/").endswith("/embeddings"):  # as Ollama serves both
                    server.embedding_requests.append(body)
                    data = [{"index": n, "embedding": embed(text)} for n, text in enumerate(body["input"])]
                    self._send(200, json.dumps({"data": data, "model": body.get("model")}))
                    return
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, json.dumps({"error": {"message": "not found"}}))
                    return
                with server._lock:
                    server.requests.append(body)
                    refused = server.refuse(body) if server.refuse is not None else None
                    reply = refused or (server.replies.pop(0) if server.replies else Status(500, "no scripted reply left"))
                if isinstance(reply, Status):
                    payload = reply.body if isinstance(reply.body, str) else json.dumps(reply.body or {})
                    self._send(reply.code, payload)
                elif isinstance(reply, Hang):
                    time.sleep(reply.seconds)
                    self.close_connection = True
                elif isinstance(reply, Raw):
                    self._raw(reply)
                else:
                    self._stream(reply)

            def _send(self, code: int, body: str) -> None:
                data = body.encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _raw(self, reply: Raw) -> None:
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                pieces = (piece.encode() for piece in reply.pieces)  # pieces may come for ever
                if reply.scatter:
                    pieces = server.scattered(b"".join(pieces))
                try:
                    for piece in pieces:
                        self.wfile.write(piece)
                        self.wfile.flush()
                        time.sleep(reply.gap)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def _stream(self, reply: Stream) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                try:
                    for n, event in enumerate(sse_events(reply)):
                        if reply.gate is not None and n == 3 + len(reply.reasoning):  # the first token is out
                            reply.gate.opened.wait(reply.gate.seconds)
                        for piece in server.scattered(event.encode()):  # each flushed on its own
                            self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                            self.wfile.flush()
                        if reply.delay:
                            time.sleep(reply.delay)
                    if reply.cut_after is not None:
                        self.connection.shutdown(socket.SHUT_RDWR)  # cut: no final chunk
                        self.close_connection = True
                        return
                    self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True
                finally:
                    if reply.gate is not None:
                        reply.gate.passed.set()

        self._httpd = QuietHTTPServer(("127.0.0.1", port), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def scattered(self, data: bytes) -> list[bytes]:
        """``data`` cut into small random pieces (1 to 24 bytes: a character's bytes may be parted)."""
        pieces, at = [], 0
        while at < len(data):
            size = self.rng.randint(1, 24)
            pieces.append(data[at : at + size])
            at += size
        return pieces

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def queue(self, *replies: Stream | Status | Hang | Raw) -> None:
        with self._lock:
            self.replies.extend(replies)

    def __enter__(self) -> "ScriptedLLMServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


def free_port() -> int:
    """A loopback port with nothing listening on it (for 'server down' tests)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
