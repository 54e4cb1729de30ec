"""How KnowledgeBase (store.py) takes the write lock and brings an older file up to date: WAL mode, transactions
that wait for another program's lock in steps a Ctrl+C ends (the wait said after WAIT_SAID), the schema's
upgrades in place, and needs_rebuild, which says ahead when opening will rebuild the search index."""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from ..sqlitefiles import table_columns
from .errors import Cancelled, StoreError
from .store_file import SCHEMA_VERSION, db_path, readonly_uri

log = logging.getLogger("tinyrag_desktop.kb.store")  # the name these log lines had before this module


# How long a write waits for another program's write to the same knowledge base to end, in seconds.
# The window and ``kb add`` store what they read in the last quarter of a second in one transaction (see
# ingest.STORE_EVERY), over in well under a second, and hold no lock while they read: two imports take
# turns within this wait. A program that holds the lock longer (a database browser
# with unsaved changes, a process that hung) will not let go soon: after this wait the import stops and
# says so, rather than wait on in silence (SQLite's own 30 s, once per file, looked like a hang).
BUSY_TIMEOUT = 5.0
# How long a write waits, in all, while the lock is held by another of tinyRAG's own imports (its mark is
# beside the knowledge base and its process lives: unfinished.importing_elsewhere). Each source is stored
# whole in one transaction, and a large one takes longer than BUSY_TIMEOUT: a 60 MB text file's 75,000
# passages took 10 s here, and the import beside it in the window or another ``kb add`` gave up after 5 s,
# "another program is writing", though that program was about to let go.
OWN_IMPORT_WAIT = 120.0
# Seconds a write waits for another program's lock before the wait is said (KnowledgeBase.on_wait): kb add
# sat silent on "[1/3] …" for all of it.
WAIT_SAID = 1.5
# How long SQLite waits for another program's lock before Python runs again: its own wait (the busy handler)
# does not return to Python, so a Ctrl+C pressed during it acted only once it was over, up to BUSY_TIMEOUT
# (5 s) later. A longer wait is made of such steps (_begin).
_WAIT_STEP_MS = 100

# Pages imported before links were indexed get this mark on their content hash, so importing them
# again re-reads them (and indexes their links) instead of skipping them as unchanged.
_RELINK_MARK = "relink:"


def stored_hashes(digest: str) -> tuple[str, str]:
    """The content hashes a source read from bytes hashing to ``digest`` may be stored with: the digest, or
    the digest an upgrade marked to be read again (SchemaMixin._migrate). A marked source is the same file:
    found again under another path it is moved, not stored twice."""
    return digest, _RELINK_MARK + digest


def needs_rebuild(data_dir: Path) -> bool:
    """Whether opening the knowledge base in ``data_dir`` for writing will first rebuild its search index
    (written by an older version, or under other Unicode tables: see KnowledgeBase._migrate). That takes
    about a second per 25,000 passages, so a window does it off its GUI thread. Read-only and quick;
    False when there is no knowledge base or it cannot be read (opening it will say why)."""
    path = db_path(data_dir)
    if not path.is_file():
        return False
    try:
        with closing(sqlite3.connect(readonly_uri(path), uri=True)) as conn:
            meta = dict(conn.execute("SELECT key, value FROM meta"))
            if conn.execute("SELECT 1 FROM chunks LIMIT 1").fetchone() is None:
                return False  # nothing to index: the upgrade is instant
    except sqlite3.DatabaseError:
        return False
    version = int(meta["schema_version"]) if meta.get("schema_version", "").isdigit() else 1
    return version < SCHEMA_VERSION or meta.get("index_unicode") != unicodedata.unidata_version



def _wal_mode(conn: sqlite3.Connection, timeout: float = BUSY_TIMEOUT) -> None:
    """Put the database in WAL mode, waiting as other writes do. On a brand-new database, another program
    creating it at the same moment (two ``kb add`` started together) makes SQLite answer "database is
    locked" at once, without calling its busy handler: asked again until ``timeout``."""
    deadline = time.monotonic() + timeout
    pause = 0.005
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


@contextmanager
def _transaction(conn: sqlite3.Connection, on_wait: Callable[[bool], None] | None = None,
                 longer: Callable[[], bool] | None = None, stop: Callable[[], bool] | None = None) -> Iterator[None]:
    """BEGIN IMMEDIATE … COMMIT, rolled back on any error.

    After some errors (a full disk) SQLite has already rolled back by itself; a second ROLLBACK would then
    fail with "no transaction is active" and hide the real reason, so it is only sent when still needed.
    ``on_wait(True)`` is called (on a timer's thread) when BEGIN has waited WAIT_SAID seconds for another
    program's lock, and ``on_wait(False)`` once the wait is over, however it ended. Such a wait, one that is
    said (an import's, off the window's GUI thread), goes on past the busy timeout while ``longer()`` is true
    (see _begin), and ends with Cancelled once ``stop()`` is true; one that is not said would look like a hang.
    """
    outside = not conn.in_transaction  # a BEGIN refused within another transaction does not roll that one back
    try:
        if on_wait is None:
            _begin(conn)
        else:
            _begin_saying_waits(conn, on_wait, longer, stop)
        yield
        conn.execute("COMMIT")
    except BaseException:  # a Ctrl+C just after BEGIN included: the lock is not kept
        if outside and conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _begin_saying_waits(conn: sqlite3.Connection, on_wait: Callable[[bool], None],
                        longer: Callable[[], bool] | None = None, stop: Callable[[], bool] | None = None) -> None:
    """_begin, with ``on_wait`` told when it has waited WAIT_SAID seconds and when that wait is over."""
    said = threading.Event()

    def say() -> None:
        said.set()
        on_wait(True)

    timer = threading.Timer(WAIT_SAID, say)
    timer.daemon = True
    timer.start()
    try:
        _begin(conn, longer, stop)
    finally:
        timer.cancel()
        timer.join()
        if said.is_set():
            on_wait(False)


def _begin(conn: sqlite3.Connection, longer: Callable[[], bool] | None = None,
           stop: Callable[[], bool] | None = None) -> None:
    """BEGIN IMMEDIATE, waiting for another program's write lock as long as the connection's busy timeout
    says, in steps of _WAIT_STEP_MS: Python runs between them, so a Ctrl+C (KeyboardInterrupt) stops the wait
    within a step. Uncontended, the first step takes the lock at once; a lock never let go fails as before,
    "database is locked", once the whole wait is over. Past that wait, while ``longer()`` says the lock is
    another tinyRAG import's, it waits on, OWN_IMPORT_WAIT seconds in all at most; ``stop()`` turning true
    (the import's Cancel, the window closing) ends the wait within a step, raising Cancelled."""
    waits = conn.execute("PRAGMA busy_timeout").fetchone()[0]
    if waits <= _WAIT_STEP_MS:
        conn.execute("BEGIN IMMEDIATE")
        return
    started = time.monotonic()
    deadline = started + waits / 1000
    step = _WAIT_STEP_MS
    try:
        while True:
            conn.execute(f"PRAGMA busy_timeout = {step}")
            try:
                conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if stop is not None and stop() and "locked" in str(exc):  # a disk I/O error is said as itself
                    raise Cancelled("the import was cancelled") from exc
                now = time.monotonic()
                left = int((deadline - now) * 1000)
                if (left <= 0 and longer is not None and "locked" in str(exc)
                        and now - started < OWN_IMPORT_WAIT and longer()):
                    left = _WAIT_STEP_MS  # and asked again after this step
                    deadline = now + left / 1000
                if "locked" not in str(exc) or left <= 0:
                    raise
                step = min(_WAIT_STEP_MS, left)
    finally:
        conn.execute(f"PRAGMA busy_timeout = {waits}")


class SchemaMixin:
    """KnowledgeBase's upgrades of an older file, made as it is opened to write (mixed into it, see store.py)."""

    def _migrate(self) -> None:
        """Bring an older database to SCHEMA_VERSION in place; nothing a user imported is dropped."""
        conn = self.conn
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        has_sources = conn.execute("SELECT 1 FROM sources LIMIT 1").fetchone() is not None
        version = int(meta["schema_version"]) if "schema_version" in meta else (1 if has_sources else SCHEMA_VERSION)
        if version > SCHEMA_VERSION:
            raise StoreError(f"The knowledge base {self.path} was written by a newer version of tinyRAG "
                             f"(schema {version}); update tinyRAG to use it.")
        # NFKC follows Python's Unicode tables; should they change, rows indexed under the old ones could
        # no longer be removed (see store.py's _unindex), so the index is built again under the new ones.
        unicode_changed = meta.get("index_unicode") != unicodedata.unidata_version
        if "schema_version" in meta and version == SCHEMA_VERSION and not unicode_changed:
            return  # nothing to do: no write lock taken on an ordinary open
        with _transaction(conn):
            if version < 3:
                # Sources whose links the older version did not index keep their chunks and stay
                # searchable; their hash is marked so the next import of them re-reads them, links and all.
                relink = ["markdown", "rst", "text", "url"] + (["html"] if version < 2 else [])
                conn.execute(
                    f"UPDATE sources SET content_hash = ? || content_hash WHERE type IN ({','.join('?' * len(relink))})"
                    " AND content_hash NOT LIKE ? || '%'",
                    (_RELINK_MARK, *relink, _RELINK_MARK),
                )
            if version < 4 or unicode_changed:
                self._reindex()
            conn.executemany(
                "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                [("schema_version", str(SCHEMA_VERSION)), ("index_unicode", unicodedata.unidata_version)],
            )

    def _add_columns(self) -> None:
        """Add ``sources.reader_version`` and ``chunks.anchor`` to a file made before them (its sources get
        0: read again on their next import; its passages no anchor). A file that cannot be written now
        (read-only, another program writing) is left without them, to be listed and searched as it is; the
        next open that can write adds them."""
        conn = self.conn
        columns = table_columns(conn)
        self._reader_versions = "reader_version" in columns.get("sources", set())
        self._anchors = "anchor" in columns.get("chunks", set())
        if self._reader_versions and self._anchors:
            return
        try:
            with _transaction(conn):
                if not self._reader_versions:
                    conn.execute("ALTER TABLE sources ADD COLUMN reader_version INTEGER NOT NULL DEFAULT 0")
                if not self._anchors:
                    conn.execute("ALTER TABLE chunks ADD COLUMN anchor TEXT")  # instant: old rows read NULL
        except sqlite3.OperationalError as exc:
            if not getattr(exc, "sqlite_errorname", "").startswith(("SQLITE_READONLY", "SQLITE_BUSY")):
                raise
            log.info("%s: columns not added for now: %s", self.path, exc)
            return
        self._reader_versions = self._anchors = True

    def _reindex(self) -> None:
        """Build both full-text indexes again from the stored text (in the caller's transaction).

        Before schema 4 the indexes were given the text as it is; 'delete-all' empties a contentless
        index without needing those values back.
        """
        conn = self.conn
        conn.execute("INSERT INTO chunks_fts(chunks_fts) VALUES('delete-all')")
        conn.execute(
            "INSERT INTO chunks_fts(rowid, title, heading, text) SELECT c.id, index_form(s.title, s.type),"
            " index_form(c.heading, s.type), index_form(c.text, s.type) FROM chunks c JOIN sources s ON s.id = c.source_id"
        )
        conn.execute("INSERT INTO links_fts(links_fts) VALUES('delete-all')")
        conn.execute("INSERT INTO links_fts(rowid, text) SELECT id, index_form(text) FROM links")
