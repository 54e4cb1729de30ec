"""The local knowledge base: SQLite store, import, chunking and search.

The engine's ``rag`` route and the ``rag_knowledge`` tool use :func:`search` and :func:`has_documents`;
the panel and ``kb`` command line use :func:`open_store` and :class:`Importer`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Sequence

from .errors import Error, FetchError, ReadError, StoreError, UnsupportedFile
from .ingest import ImportItem, Importer, ImportReport, Progress
from .models import Chunk, Hit, SourceInfo
from .search import open_readonly, query_terms
from .search import search as search_connection
from .store import DB_NAME, KnowledgeBase, db_path

__all__ = [
    "DB_NAME", "Chunk", "Error", "FetchError", "Hit", "ImportItem", "ImportReport", "Importer", "KnowledgeBase",
    "Progress", "ReadError", "SourceInfo", "StoreError", "UnsupportedFile", "db_path", "has_documents",
    "open_readonly", "open_store", "query_terms", "search", "search_connection",
]


def open_store(data_dir: Path, *, create: bool = True) -> KnowledgeBase | None:
    """The read-write store in ``data_dir`` (created when missing, unless ``create`` is False: then None)."""
    if not create and not db_path(data_dir).is_file():
        return None
    return KnowledgeBase.open(data_dir)


def search(
    data_dir: Path,
    query: str,
    k: int = 5,
    *,
    query_vector: Sequence[float] | None = None,
    vector_model: str = "",
) -> list[Hit]:
    """The ``k`` best chunks for ``query`` (read-only; [] when there is no knowledge base yet)."""
    conn = open_readonly(data_dir)
    if conn is None:
        return []
    try:
        return search_connection(conn, query, k, query_vector=query_vector, vector_model=vector_model)
    finally:
        conn.close()


def has_documents(data_dir: Path) -> bool:
    """True when the knowledge base holds at least one chunk; cheap enough to ask before every request."""
    path = db_path(data_dir)
    if not path.is_file():
        return False
    try:
        conn = open_readonly(data_dir)
    except StoreError:
        return False
    if conn is None:
        return False
    try:
        return conn.execute("SELECT 1 FROM chunks LIMIT 1").fetchone() is not None
    except sqlite3.DatabaseError:
        return False
    finally:
        conn.close()
