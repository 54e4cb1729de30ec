"""Vector ranking (an embedding model set): exact nearest chunks, kept in memory until the database
changes, the same when read in batches, and never an error for a vector of the wrong shape."""

from __future__ import annotations

import math
import random
import threading

import pytest

from tinyrag_desktop.kb import Chunk, _readonly, open_store, search
from tinyrag_desktop.kb.nearest import nearest_ids as _vector_ids

nearest_module = __import__("tinyrag_desktop.kb.nearest", fromlist=["VECTOR_CACHE_BYTES"])
search_module = __import__("tinyrag_desktop.kb.search", fromlist=["_CHUNK_BATCH"])
DIMS = 16


@pytest.fixture(autouse=True)
def no_kept_vectors():
    nearest_module._vector_sets.clear()
    yield
    nearest_module._vector_sets.clear()


def _unit(values: list[float]) -> list[float]:
    norm = math.sqrt(sum(v * v for v in values))
    return [v / norm for v in values]


def _fill(kb, rng: random.Random, sources: int, per_source: int, start: int = 0) -> dict[str, list[float]]:
    """Sources of chunks with random unit vectors; returns each chunk's text → its vector."""
    vectors = {}
    for s in range(start, start + sources):
        texts = [f"passage {s}-{n} about nothing in particular" for n in range(per_source)]
        vecs = [_unit([rng.gauss(0, 1) for _ in range(DIMS)]) for _ in texts]
        kb.replace_source(title=f"S{s}", location=f"/v/{s}.txt", type="text", size=1, content_hash=str(s),
                          chunks=[Chunk(f"S{s}", t) for t in texts], load_id="t", vectors=vecs,
                          vector_model="emb")
        vectors.update(zip(texts, vecs))
    return vectors


def _reference(conn, vectors: dict[str, list[float]], query: list[float], limit: int) -> list[int]:
    q = _unit(query)
    by_text = dict(conn.execute("SELECT text, id FROM chunks"))
    scored = sorted(((sum(a * b for a, b in zip(q, v)), by_text[t]) for t, v in vectors.items()), reverse=True)
    return [cid for _, cid in scored[:limit]]


@pytest.mark.parametrize("kept", [True, False])
def test_nearest_chunks_are_exact_whether_kept_in_memory_or_read_in_batches(data_dir, monkeypatch, kept):
    rng = random.Random(7)
    kb = open_store(data_dir)
    vectors = _fill(kb, rng, 30, 20)
    kb.close()
    if not kept:
        monkeypatch.setattr(nearest_module, "VECTOR_CACHE_BYTES", 0)
        monkeypatch.setattr(nearest_module, "_VECTOR_BATCH", 64)  # several batches
    conn = _readonly(data_dir)
    for _ in range(5):
        query = [rng.gauss(0, 1) for _ in range(DIMS)]
        assert _vector_ids(conn, "emb", query, 25) == _reference(conn, vectors, query, 25)
    kept_sets = [v.batches is not None for v in nearest_module._vector_sets.values()]
    assert kept_sets == [kept]


def test_vectors_kept_in_memory_are_read_again_after_an_import(data_dir):
    rng = random.Random(8)
    kb = open_store(data_dir)
    vectors = _fill(kb, rng, 3, 5)
    conn = _readonly(data_dir)
    query = [rng.gauss(0, 1) for _ in range(DIMS)]
    assert _vector_ids(conn, "emb", query, 5) == _reference(conn, vectors, query, 5)
    (kept,) = nearest_module._vector_sets.values()
    # A chunk whose vector is the query itself: the nearest of all, once the cache sees the import.
    kb.replace_source(title="New", location="/v/new.txt", type="text", size=1, content_hash="n",
                      chunks=[Chunk("New", "the new passage")], load_id="t", vectors=[_unit(query)],
                      vector_model="emb")
    new_id = kb.conn.execute("SELECT id FROM chunks WHERE text = 'the new passage'").fetchone()[0]
    kb.close()
    assert _vector_ids(conn, "emb", query, 5)[0] == new_id
    assert list(nearest_module._vector_sets.values()) != [kept]  # read again, once
    hits = search(data_dir, "zzz-no-such-word", 5, query_vector=query, vector_model="emb")
    assert "/v/new.txt" in [h.location for h in hits]  # found by its vector alone


@pytest.mark.parametrize("query", [[1.0] * (DIMS + 3), [], [float("nan")] * DIMS, [[1.0] * DIMS]])
def test_a_query_vector_of_the_wrong_shape_ranks_nothing_and_keywords_still_work(data_dir, query):
    kb = open_store(data_dir)
    _fill(kb, random.Random(9), 2, 3)
    kb.close()
    conn = _readonly(data_dir)
    assert _vector_ids(conn, "emb", query, 5) == []
    hits = search(data_dir, "passage 1-2", 1, query_vector=query, vector_model="emb")
    assert hits and hits[0].location == "/v/1.txt"


def test_stored_vectors_of_another_length_are_left_out(data_dir):
    kb = open_store(data_dir)
    vectors = _fill(kb, random.Random(10), 2, 4)
    # The same model name, re-pointed on the server at a model with other dimensions.
    kb.replace_source(title="Old", location="/v/old.txt", type="text", size=1, content_hash="o",
                      chunks=[Chunk("Old", "an old passage")], load_id="t", vectors=[[0.5] * (DIMS * 2)],
                      vector_model="emb")
    kb.close()
    conn = _readonly(data_dir)
    query = [0.3] * DIMS
    assert _vector_ids(conn, "emb", query, 20) == _reference(conn, vectors, query, 20)


def test_a_re_imported_source_whose_chunks_reuse_old_ids_is_not_matched_with_old_vectors(data_dir):
    rng = random.Random(11)
    kb = open_store(data_dir)
    _fill(kb, rng, 2, 3)
    query = [rng.gauss(0, 1) for _ in range(DIMS)]
    opposite = _unit([-x for x in query])
    kb.replace_source(title="Last", location="/v/last.txt", type="text", size=1, content_hash="1",
                      chunks=[Chunk("Last", "last passage")], load_id="t", vectors=[opposite], vector_model="emb")
    conn = _readonly(data_dir)
    last_id = kb.conn.execute("SELECT id FROM chunks WHERE text = 'last passage'").fetchone()[0]
    assert _vector_ids(conn, "emb", query, 10)[-1] == last_id  # the farthest of all
    # Re-imported with the query's own direction: its new chunk takes the freed id again.
    kb.replace_source(title="Last", location="/v/last.txt", type="text", size=1, content_hash="2",
                      chunks=[Chunk("Last", "last passage")], load_id="t", vectors=[_unit(query)], vector_model="emb")
    assert kb.conn.execute("SELECT id FROM chunks WHERE text = 'last passage'").fetchone()[0] == last_id
    kb.close()
    assert _vector_ids(conn, "emb", query, 10)[0] == last_id  # now the nearest


def test_threads_share_one_copy_of_the_vectors(data_dir):
    rng = random.Random(12)
    kb = open_store(data_dir)
    vectors = _fill(kb, rng, 4, 10)
    kb.close()
    query = [rng.gauss(0, 1) for _ in range(DIMS)]
    results, errors = [], []

    def worker() -> None:
        try:
            results.append(_vector_ids(_readonly(data_dir), "emb", query, 7))  # each thread: its own connection
        except Exception as exc:  # reported below; a thread's exception would otherwise vanish
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert results == [_reference(_readonly(data_dir), vectors, query, 7)] * 4
    assert len(nearest_module._vector_sets) == 1


def test_warming_up_loads_the_vectors_a_search_then_uses(data_dir, monkeypatch):
    from tinyrag_desktop.kb import warm_vectors

    kb = open_store(data_dir)
    assert not warm_vectors(data_dir, "emb")  # no vectors yet: nothing to load
    vectors = _fill(kb, random.Random(9), 4, 5)
    kb.close()
    assert not warm_vectors(data_dir, "")  # no embedding model set
    assert warm_vectors(data_dir, "emb")
    (kept,) = nearest_module._vector_sets.values()
    assert kept.batches is not None and sum(len(ids) for ids, _ in kept.batches) == len(vectors)
    loads = []
    monkeypatch.setattr(nearest_module, "_load_vectors", lambda *a: loads.append(a))  # must not run again
    query = next(iter(vectors.values()))
    assert _vector_ids(_readonly(data_dir), "emb", query, 3) == _reference(_readonly(data_dir), vectors, query, 3)
    assert loads == []
    monkeypatch.undo()
    nearest_module._vector_sets.clear()
    monkeypatch.setattr(nearest_module, "VECTOR_CACHE_BYTES", 0)
    assert not warm_vectors(data_dir, "emb")  # too many to keep: searches read them in batches


def test_chunks_found_only_by_their_vectors_are_read_in_batches(data_dir, monkeypatch):
    monkeypatch.setattr(search_module, "_CHUNK_BATCH", 7)  # 200 candidates: 29 batches, the last one short
    kb = open_store(data_dir)
    vectors = _fill(kb, random.Random(10), 30, 20)
    kb.close()
    query = next(iter(vectors.values()))
    hits = search(data_dir, "", 10, query_vector=query, vector_model="emb")  # no words: vectors alone
    reference = _reference(_readonly(data_dir), vectors, query, 200)
    found = {h.chunk_id: h.text for h in hits}
    assert len(hits) == 10 and set(found) <= set(reference)
    assert found[reference[0]] == next(iter(vectors))  # the nearest chunk, read back whole
