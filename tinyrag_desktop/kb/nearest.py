"""Vector search: the chunks nearest a query vector, by cosine, over every stored vector of one model.

Split from search.py, which fuses these ranks with BM25's (reciprocal rank fusion); ``search.search`` is
the one caller, and ``warm_vectors`` reads a model's vectors in before the first search needs them.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator, Sequence

from .store import iter_vectors

if TYPE_CHECKING:
    import numpy as np


# Vectors are scored with numpy, a matrix product over all of them (brute force is exact, and at a few
# hundred thousand chunks still fast). Between searches they are kept in memory, once for the whole
# process (every thread's connection shares them), while that takes at most VECTOR_CACHE_BYTES (about
# 350,000 chunks of 768 numbers; 15,000 take 46 MB), as a flat vector index would; a bigger set is read
# from the database in batches on every search (about 0.5 s per 150,000 chunks). What the sources table
# says of every source (id, content hash, import time, chunks) tells when they are stale: chunk ids alone
# cannot, as a re-imported source's new chunks may get the ids its old ones had.
VECTOR_CACHE_BYTES = 2**30
_VECTOR_BATCH = 16_384
_KEPT_VECTOR_SETS = 1  # so at most VECTOR_CACHE_BYTES in all
_CONTENT_SIGNATURE = "SELECT id, content_hash, imported_at, chunk_count FROM sources"


@dataclass(frozen=True, slots=True)
class _VectorSet:
    """One database's vectors of one model, in batches, as read at content ``version``; ``batches`` is
    None when there were too many to keep (they are read from the database each time)."""

    version: int
    batches: list[tuple["np.ndarray", "np.ndarray"]] | None


_vector_sets: "OrderedDict[tuple, _VectorSet]" = OrderedDict()
_vector_lock = threading.Lock()


def _vector_batches(conn: sqlite3.Connection, model: str, dims: int) -> Iterator[tuple["np.ndarray", "np.ndarray"]]:
    """(chunk ids, unit vectors as rows) in batches; vectors of another length (another model stored
    under this name before it changed) are left out."""
    import numpy as np

    rows = iter_vectors(conn, model)
    while batch := rows.fetchmany(_VECTOR_BATCH):
        good = [(cid, blob) for cid, blob in batch if len(blob) == 4 * dims]
        if good:
            ids = np.fromiter((cid for cid, _ in good), dtype=np.int64, count=len(good))
            matrix = np.frombuffer(b"".join(blob for _, blob in good), dtype="<f4").reshape(len(good), dims)
            yield ids, matrix


def _load_vectors(conn: sqlite3.Connection, model: str, dims: int, version: int) -> _VectorSet:
    batches, size = [], 0
    for ids, matrix in _vector_batches(conn, model, dims):
        size += matrix.nbytes
        if size > VECTOR_CACHE_BYTES:
            return _VectorSet(version, None)
        batches.append((ids, matrix))
    return _VectorSet(version, batches)


def _kept_vectors(conn: sqlite3.Connection, model: str, dims: int) -> list[tuple["np.ndarray", "np.ndarray"]] | None:
    """This database's vectors as kept in memory (read now if they changed), or None to stream them."""
    db = getattr(conn, "db_key", None)
    if db is None:  # a connection not made by open_readonly: nothing identifies its database
        return None
    version = hash(tuple(conn.execute(_CONTENT_SIGNATURE)))  # a few ms for thousands of sources
    key = (db, model, dims)
    with _vector_lock:  # one thread reads them; the others wait and share what it read
        kept = _vector_sets.get(key)
        if kept is None or kept.version != version:
            _vector_sets.pop(key, None)  # let the stale set go before reading the new one
            kept = _vector_sets[key] = _load_vectors(conn, model, dims, version)
        _vector_sets.move_to_end(key)
        while len(_vector_sets) > _KEPT_VECTOR_SETS:
            _vector_sets.popitem(last=False)
    return kept.batches


def warm_vectors(conn: sqlite3.Connection, model: str) -> bool:
    """Read ``model``'s vectors into memory now, so that the first search with them does not wait for
    it (1.5 s at 150,000 chunks); False when there are none, or too many to keep."""
    first = iter_vectors(conn, model).fetchone()
    return first is not None and _kept_vectors(conn, model, len(first[1]) // 4) is not None


def nearest_ids(conn: sqlite3.Connection, model: str, query_vector: Sequence[float], limit: int) -> list[int]:
    """The ``limit`` chunks whose vectors are nearest to ``query_vector`` (cosine: stored vectors are unit
    length)."""
    import numpy as np

    try:
        q = np.asarray(query_vector, dtype=np.float32)
    except (TypeError, ValueError):
        return []
    if q.ndim != 1 or not q.size or not np.isfinite(q).all():
        return []
    q = q / (float(np.linalg.norm(q)) or 1.0)  # a new array: the caller's vector is left as it was
    kept = _kept_vectors(conn, model, q.size)
    batches = _vector_batches(conn, model, q.size) if kept is None else kept
    best_ids, best_scores = [], []
    for ids, matrix in batches:
        scores = matrix @ q
        if len(scores) > limit:
            top = np.argpartition(scores, len(scores) - limit)[-limit:]
            ids, scores = ids[top], scores[top]
        best_ids.append(ids)
        best_scores.append(scores)
    if not best_ids:
        return []
    ids, scores = np.concatenate(best_ids), np.concatenate(best_scores)
    order = np.lexsort((ids, -scores))[:limit]  # best first; ties by chunk id, so results are stable
    return [int(cid) for cid in ids[order]]
