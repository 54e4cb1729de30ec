"""The local knowledge base: SQLite store, import, chunking and search.

The engine's ``rag`` route and the ``rag_knowledge`` tool use :func:`search` and :func:`has_documents`;
the panel and ``kb`` command line use :func:`open_store` and :class:`Importer`.
"""

from __future__ import annotations

import importlib
import sqlite3
import threading
import weakref
from collections import OrderedDict
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence

from .errors import (
    CannotWrite, DiskFull, Error, FetchError, ReadError, ReadOnlyStore, StoreError, StoreLocked, UnsupportedFile,
)
from .models import Chunk, Hit, SourceInfo
from .query_words import query_terms
from .search import Hits, open_readonly
from .search import search as search_connection
from .nearest import warm_vectors as _warm_vectors
from .store import KnowledgeBase
from .store_file import DB_NAME, db_path, store_error, tidy

__all__ = [
    "CannotWrite", "DB_NAME", "Chunk", "DiskFull", "Error", "FetchError", "Hit", "ImportItem", "ImportReport",
    "Importer", "KnowledgeBase", "Progress", "ReadError", "ReadOnlyStore", "SourceInfo", "StoreError",
    "StoreLocked", "UnsupportedFile", "db_path", "has_documents", "Hits", "open_readonly", "open_store",
    "query_terms", "release", "search", "search_connection", "warm_vectors", "why_missing",
]


_local = threading.local()
_CACHED_CONNECTIONS = 4
# Every kept connection, whichever thread keeps it, for release(); bumping the generation makes each
# thread's cache drop what release() closed. A connection is read only under its ``lock`` (see _reading):
# closing one while another thread's query runs on it crashes the interpreter.
_kept: weakref.WeakSet = weakref.WeakSet()
_generation = 0


def _readonly(data_dir: Path) -> sqlite3.Connection | None:
    """This thread's read-only connection to ``data_dir``'s database, opened once and kept.

    Opening and preparing a guarded connection costs about as much as a search, and the engine searches
    before every request. The key includes the file's inode, so a deleted and re-created database gets
    a fresh connection; in WAL mode a kept connection still sees every commit made since.
    """
    path = db_path(data_dir)
    try:
        st = path.stat()
    except OSError:
        return None
    key = (str(path.resolve()), st.st_dev, st.st_ino)
    cache: OrderedDict[tuple, sqlite3.Connection] | None = getattr(_local, "connections", None)
    if cache is None or getattr(_local, "generation", 0) != _generation:
        cache = _local.connections = OrderedDict()
        _local.generation = _generation
    conn = cache.get(key)
    if conn is None:
        conn = open_readonly(data_dir)
        if conn is None:
            return None
        conn.lock, conn.released = threading.Lock(), False
        if conn.as_it_is:  # read without its -shm file (a full disk): for this search only, see _reading
            return conn
        cache[key] = conn
        _kept.add(conn)
        while len(cache) > _CACHED_CONNECTIONS:
            cache.popitem(last=False)[1].close()
    cache.move_to_end(key)
    return conn


@contextmanager
def _reading(data_dir: Path) -> Iterator[sqlite3.Connection | None]:
    """This thread's kept connection (see _readonly), held so that release() cannot close it mid-query."""
    for _ in range(3):
        conn = _readonly(data_dir)
        if conn is None:
            break
        with conn.lock:
            if not conn.released:  # release() closed it after _readonly handed it out: open afresh
                try:
                    yield conn
                finally:
                    if conn.as_it_is:
                        conn.close()
                return
    yield None


def _forget(conn: sqlite3.Connection) -> bool:
    """Close and drop a kept connection; False when it was not one of this thread's."""
    cache = getattr(_local, "connections", None) or {}
    for key, kept in list(cache.items()):
        if kept is conn:
            del cache[key]
            conn.close()
            return True
    return False


def release(data_dir: Path | None = None) -> None:
    """Close every kept read-only connection, then tidy ``data_dir``'s knowledge base (see store_file.tidy).

    For the end of a run: a read-only connection cannot fold the -wal file back into the database, so when
    one is the last to close, the -wal and -shm files stay beside it. A search after this opens afresh.
    """
    global _generation
    _generation += 1
    for conn in list(_kept):
        with conn.lock:  # a search running on it in another thread finishes first
            conn.released = True
            conn.close()
    _kept.clear()
    if data_dir is not None:
        tidy(data_dir)


_LAZY = {"ImportItem": "ingest", "Importer": "ingest", "ImportReport": "ingest", "Progress": "ingest",
         "Failure": "ingest", "why_missing": "import_items"}


def __getattr__(name: str) -> object:
    # The import machinery pulls in lxml, httpx and the document readers: only load it when used, so
    # ``kb search``, the engine's per-request check and the command line's start-up stay quick.
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def open_store(data_dir: Path, *, create: bool = True, to_list: bool = False) -> KnowledgeBase | None:
    """The read-write store in ``data_dir`` (created when missing, unless ``create`` is False: then None).
    ``to_list``: on a full disk, where SQLite cannot make the -shm file it writes through, the store opened to
    read only, as a search reads it (store_file.open_to_read), with ``notice`` saying why nothing can be saved."""
    if not create and not db_path(data_dir).exists():
        return None
    try:
        return KnowledgeBase.open(data_dir)
    except DiskFull as full:
        if not to_list:
            raise
        try:
            return KnowledgeBase(db_path(data_dir), full=full)
        except StoreError:  # a -wal still holding changes, say: the first failure says it as well
            raise full from None


def search(
    data_dir: Path,
    query: str,
    k: int = 5,
    *,
    query_vector: Sequence[float] | None = None,
    vector_model: str = "",
    spelling: bool = True,
) -> Hits:
    """The ``k`` best chunks for ``query`` (read-only; none when there is no knowledge base yet), and the
    words searched in place of misspelt ones (``Hits.corrected``)."""
    with _reading(data_dir) as conn:
        if conn is None:
            return Hits()
        try:
            return search_connection(conn, query, k, query_vector=query_vector, vector_model=vector_model,
                                     spelling=spelling)
        except StoreError:
            # A writer may have changed the schema since this connection was opened (a newer version adds
            # its tables to an older file): the kept connection cannot reconnect the index under its
            # guard, so it is dropped and the search tried once more on a fresh one.
            if not _forget(conn):
                raise
    with _reading(data_dir) as conn:
        if conn is None:
            return Hits()
        return search_connection(conn, query, k, query_vector=query_vector, vector_model=vector_model,
                                 spelling=spelling)


def warm_vectors(data_dir: Path, model: str) -> bool:
    """Load ``model``'s vectors of the knowledge base in ``data_dir`` into memory ahead of the first
    search (call it off the GUI thread); False when there is nothing to load or it is too big to keep."""
    if not model:
        return False
    with _reading(data_dir) as conn:
        return conn is not None and _warm_vectors(conn, model)


def has_documents(data_dir: Path, *, strict: bool = False) -> bool:
    """True when the knowledge base holds at least one chunk; cheap enough to ask before every request.
    A knowledge base that cannot be read (damaged, locked) holds none, unless ``strict``: then StoreError
    says why (the engine says so, rather than calling it empty)."""
    try:
        with _reading(data_dir) as conn:
            return conn is not None and conn.execute("SELECT 1 FROM chunks LIMIT 1").fetchone() is not None
    except (StoreError, sqlite3.DatabaseError) as exc:
        if not strict:
            return False
        if isinstance(exc, StoreError):
            raise
        path = db_path(data_dir)
        raise store_error(path, exc, f"The knowledge base {path} cannot be read") from exc
