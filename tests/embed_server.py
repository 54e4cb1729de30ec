"""A loopback OpenAI-style ``/embeddings`` server for tests and the bundle's smoke test.

Its "model" knows two concepts: a text's vector says how many cat words and how many car words it holds,
so "feline" is near "kitten" though they share no letters, as with a real embedding model.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler

from tests.loopback import QuietHTTPServer

CONCEPTS = ({"feline", "cat", "cats", "kitten"}, {"automobile", "car", "cars", "engine"})
POISON = "POISON-PILL"  # a request holding this text is answered 500


def embed(text: str) -> list[float]:
    words = set(text.lower().replace(".", " ").replace("?", " ").split())
    return [float(len(words & c)) + 0.01 for c in CONCEPTS]


class _Handler(BaseHTTPRequestHandler):
    server: "EmbeddingServer"

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(body)
        if any(POISON in t for t in body["input"]):  # a text the model chokes on, as real servers may
            out, status = b'{"error": "input too long for this model"}', 500
        else:
            data = [{"index": n, "embedding": embed(t)} for n, t in enumerate(body["input"])]
            out, status = json.dumps({"data": data, "model": body["model"]}).encode(), 200
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)


class EmbeddingServer(QuietHTTPServer):
    """``with EmbeddingServer() as server:`` serves on a free loopback port; ``requests`` are the bodies seen."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.requests: list[dict] = []
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def __enter__(self) -> "EmbeddingServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
        self.server_close()
        self._thread.join()
