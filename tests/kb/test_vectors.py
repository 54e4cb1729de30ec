"""Optional vectors: chunks embedded through an OpenAI-compatible /embeddings server (a loopback one here)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.embed import Embedder, embed_query
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.tools.rag import TOOLS
from tinyrag_desktop.tools.registry import ToolContext

# Two "concepts" the fake model knows; a text's vector says how much of each it mentions.
_CONCEPTS = ({"feline", "cat", "cats", "kitten"}, {"automobile", "car", "cars", "engine"})


def _embed(text: str) -> list[float]:
    words = set(text.lower().replace(".", " ").replace("?", " ").split())
    return [float(len(words & c)) + 0.01 for c in _CONCEPTS]


class _Handler(BaseHTTPRequestHandler):
    requests: list[dict] = []

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _Handler.requests.append(body)
        data = [{"index": n, "embedding": _embed(t)} for n, t in enumerate(body["input"])]
        out = json.dumps({"data": data, "model": body["model"]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)


@pytest.fixture
def embed_settings():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    _Handler.requests = []
    yield defaults().replace(base_url=f"http://127.0.0.1:{httpd.server_address[1]}/v1", embed_model="fake-embed")
    httpd.shutdown()
    httpd.server_close()
    thread.join()


async def test_vectors_are_stored_and_fused_with_bm25(embed_settings, data_dir, tmp_path):
    (tmp_path / "pets.txt").write_text("A kitten sleeps all day on the sofa.", encoding="utf-8")
    (tmp_path / "garage.txt").write_text("The car engine needs new oil.", encoding="utf-8")
    kb = open_store(data_dir)
    embedder = Embedder(embed_settings)
    report = Importer(kb, embedder=embedder).run([str(tmp_path / "pets.txt"), str(tmp_path / "garage.txt")])
    embedder.client.close()
    assert len(report.added) == 2
    assert kb.vector_models() == ["fake-embed"]
    kb.close()
    assert _Handler.requests[0]["model"] == "fake-embed"
    # "feline" appears in no document: keyword search finds nothing, the vector ranks find the kitten.
    assert search(data_dir, "feline", 2) == []
    vector = await embed_query(embed_settings, "feline")
    hits = search(data_dir, "feline", 1, query_vector=vector, vector_model="fake-embed")
    assert hits[0].location.endswith("pets.txt")
    (spec,) = TOOLS
    result = await spec.run("feline", ToolContext(settings=embed_settings, data_dir=data_dir))
    assert result.source.split("\n")[0].endswith("pets.txt")


async def test_embedding_server_down_falls_back_to_keywords(data_dir, tmp_path):
    (tmp_path / "pets.txt").write_text("A kitten sleeps all day on the sofa.", encoding="utf-8")
    kb = open_store(data_dir)
    Importer(kb).run([str(tmp_path / "pets.txt")])
    kb.close()
    settings = defaults().replace(base_url="http://127.0.0.1:1/v1", embed_model="fake-embed")
    (spec,) = TOOLS
    result = await spec.run("kitten", ToolContext(settings=settings, data_dir=data_dir))
    assert result.source.endswith("pets.txt")


def test_cancel_stops_between_embedding_batches(embed_settings, data_dir, tmp_path):
    # Enough paragraphs for several batches of chunks; cancel is set once the first batch is answered.
    long_text = "\n\n".join(f"Paragraph {n} is about a kitten and a car, with words enough to chunk. " * 12
                            for n in range(300))
    (tmp_path / "long.txt").write_text(long_text, encoding="utf-8")
    kb = open_store(data_dir)
    cancel = threading.Event()
    embedder = Embedder(embed_settings)
    original = embedder.client.post

    def post(*args, **kwargs):
        response = original(*args, **kwargs)
        cancel.set()  # the user presses Cancel while the first batch is being embedded
        return response

    embedder.client.post = post
    report = Importer(kb, embedder=embedder, cancel=cancel).run([str(tmp_path / "long.txt")])
    embedder.client.close()
    assert report.cancelled and not report.added and not report.failed
    assert len(_Handler.requests) == 1  # later batches were never sent
    assert kb.sources() == [] and kb.check_integrity() == []
    kb.close()
