"""Optional vectors: chunks embedded through an OpenAI-compatible /embeddings server (a loopback one here)."""

from __future__ import annotations

import threading

import pytest

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.embed import Embedder, embed_query
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.tools.rag import TOOLS
from tinyrag_desktop.tools.registry import ToolContext

from tests.embed_server import POISON, EmbeddingServer

@pytest.fixture
def embed_server():
    with EmbeddingServer() as server:
        yield server


@pytest.fixture
def embed_settings(embed_server):
    return defaults().replace(base_url=embed_server.base_url, embed_model="fake-embed")


async def test_vectors_are_stored_and_fused_with_bm25(embed_server, embed_settings, data_dir, tmp_path):
    (tmp_path / "pets.txt").write_text("A kitten sleeps all day on the sofa.", encoding="utf-8")
    (tmp_path / "garage.txt").write_text("The car engine needs new oil.", encoding="utf-8")
    kb = open_store(data_dir)
    embedder = Embedder(embed_settings)
    report = Importer(kb, embedder=embedder).run([str(tmp_path / "pets.txt"), str(tmp_path / "garage.txt")])
    embedder.close()
    assert len(report.added) == 2
    assert kb.vector_models() == ["fake-embed"]
    kb.close()
    assert embed_server.requests[0]["model"] == "fake-embed"
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


def test_cancel_stops_between_embedding_batches(embed_server, embed_settings, data_dir, tmp_path):
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
    embedder.close()
    assert report.cancelled and not report.added and not report.failed
    assert len(embed_server.requests) == 1  # later batches were never sent
    assert kb.sources() == [] and kb.check_integrity() == []
    kb.close()


def test_an_embedder_closes_only_the_connection_it_opened(embed_settings):
    import httpx

    own = Embedder(embed_settings)
    own.close()
    assert own.client.is_closed
    with httpx.Client() as client:
        lent = Embedder(embed_settings, client)
        lent.close()
        assert not client.is_closed  # the caller's, to close


def _pets_and_cars(folder):
    (folder / "pets.txt").write_text("A kitten sleeps all day on the sofa.", encoding="utf-8")
    (folder / "garage.txt").write_text("The car engine needs new oil.", encoding="utf-8")
    (folder / "notes.txt").write_text("Buy bread and milk.", encoding="utf-8")
    return [str(folder / n) for n in ("pets.txt", "garage.txt", "notes.txt")]


def test_with_the_embedding_server_down_text_is_stored_and_the_next_import_embeds_it(
        embed_server, embed_settings, data_dir, tmp_path):
    files = _pets_and_cars(tmp_path)
    kb = open_store(data_dir)
    down = Embedder(defaults().replace(base_url="http://127.0.0.1:9/v1", embed_model="fake-embed"))
    asked = []
    original = down.client.post
    down.client.post = lambda *a, **k: (asked.append(1), original(*a, **k))[1]
    report = Importer(kb, embedder=down).run(files)
    down.close()
    assert len(report.added) == 3 and report.unembedded == report.added and not report.failed
    assert report.embedding_problem.startswith("the embedding server could not be reached")
    assert "3 stored without embeddings" in report.summary()
    assert len(asked) == 1  # a server that does not answer is not asked again for every file
    assert [h.location for h in search(data_dir, "kitten", 1)] == [files[0]]  # keywords work meanwhile

    embedder = Embedder(embed_settings)
    again = Importer(kb, embedder=embedder).run(files)  # no --force: the missing vectors are reason enough
    assert sorted(again.updated) == sorted(files) and not again.unchanged and not again.unembedded
    assert all(kb.is_embedded(s.id, "fake-embed") for s in kb.sources())
    requests = len(embed_server.requests)
    third = Importer(kb, embedder=embedder).run(files)
    assert sorted(third.unchanged) == sorted(files) and len(embed_server.requests) == requests
    embedder.close()
    kb.close()


def test_an_embedding_error_for_one_file_leaves_only_that_file_without_vectors(
        embed_server, embed_settings, data_dir, tmp_path):
    files = _pets_and_cars(tmp_path)
    (tmp_path / "garage.txt").write_text(f"The car engine needs new oil. {POISON}", encoding="utf-8")
    kb = open_store(data_dir)
    embedder = Embedder(embed_settings)
    report = Importer(kb, embedder=embedder).run(files)
    embedder.close()
    assert len(report.added) == 3 and report.unembedded == [files[1]]
    assert "500" in report.embedding_problem
    embedded = {s.location: kb.is_embedded(s.id, "fake-embed") for s in kb.sources()}
    assert embedded == {files[0]: True, files[1]: False, files[2]: True}
    kb.close()
