"""The SQLite store: sources, chunks, their FTS5 index and optional vectors, in ``knowledge.db``.

Every source is written in one transaction (its row, its chunks, their index entries and vectors), so a
crash or a killed process leaves each source either complete or absent. The database runs in WAL mode:
the window's searches read while an import writes.

Links between pages are indexed too: for every link inside a page's running text, the words around it
(``links``, ``links_fts``), filed under the page it points to. How other pages describe a page is often
closer to how people ask than the page's own wording (anchor text, as web search engines use it). Where
a link points: links.resolve_link. The file itself (its tables, opening it to read, SQLite's failures
in words): store_file.py. WAL mode, the transactions writes are made in (waiting for another program's
lock, saying so) and an older file brought up to date: store_schema.py.

The full-text index is contentless (``content=''``): it holds only the index, the text lives once in
``chunks``. The index is given each text in ``textform.index_form`` (NFKC, CJK characters spaced apart),
never the text itself. Removing a chunk from such an index needs the exact values it was indexed with,
which the store reads back from ``chunks`` and ``sources`` inside the same transaction and puts in that
form again (the SQL function ``index_form``).
"""

from __future__ import annotations

import logging
import sqlite3
import struct
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import datetime, timezone
from pathlib import Path
from typing import Mapping, Sequence

from ..files import folder_writable, keep_private, make_private_folder
from ..sqlitefiles import table_columns
from .errors import Cancelled, CannotWrite, DiskFull, Error, ReadOnlyStore, StoreError
from .links import _real_folder, resolve_link
from .models import Chunk, SourceInfo
from .store_file import (
    SCHEMA, db_path, disk_full_notice, open_to_read, refuse_unusable, scrubbing, store_error,
)
from .store_schema import (  # noqa: F401  WAIT_SAID and needs_rebuild: read from here too
    BUSY_TIMEOUT, WAIT_SAID, SchemaMixin, _transaction, _wal_mode, needs_rebuild,
)
from .textform import index_form
from .unfinished import importing_elsewhere

log = logging.getLogger(__name__)

# Pages the write-ahead log may hold before a commit copies them into the database (SQLite's default is
# 1,000, 4 MB). Each copy syncs the log and the database to disk and copies every page changed since the
# last, so an import of many small sources, one commit each, spent more time in those copies than in
# indexing: with 8,192 (32 MB) a 20 MB Markdown folder imports in 3.1-3.3 s instead of 4.4-5.5 s here,
# and the same pages rewritten by the index's merges are copied once, not each time. The log file keeps
# the size it grew to until the last connection closes, when SQLite folds it in and deletes it.
WAL_AUTOCHECKPOINT = 8192

# What SQLite does with the bytes of deleted rows. Debian's and Ubuntu's SQLite zero every freed page
# (secure_delete ON); SQLite's own default leaves them (OFF). The full-text index frees
# pages all the time (each merge replaces segments), and zeroing them wrote a fifth more to disk: a 20 MB
# Markdown folder imported in 4.1 s against 4.7 s on average over eight alternating pairs of runs here.
# FAST zeroes what is deleted within pages written anyway, and leaves a freed page as it is until reused:
# removals set it ON while they run (store_file.scrubbing; compact.py), so a removed source's text is not left behind.
SECURE_DELETE = "FAST"

# How the full-text indexes merge their segments (FTS5 writes one segment per commit, and one per MB of
# words waiting). Normally, as after each commit FTS5 merges a little ("automerge": levels of 4 segments),
# rewriting the index's pages about once per level of it; with one commit per source that was a quarter
# of a folder import's storing (an import now commits several sources at once: ingest.STORE_EVERY). While an
# import runs (KnowledgeBase.importing) a level is merged only once it holds 32 segments, and at its end the
# index is merged back to its usual shape (no level of 4 segments or more; the end's merge took 0.16 s).
# Measured on a 20 MB folder of 1,292 Markdown files, the whole import in eight alternating pairs of runs:
# 3.9-4.9 s (4.4 on average) against 4.9-5.8 s (5.2), and storing alone 3.1-3.4 s against 3.5-4.0 s.
_MERGING = {"automerge": 4, "crisismerge": 16}  # FTS5's defaults
STOP_CHECK = 100_000  # steps of SQLite's engine between two looks at Cancel while storing (see stoppable)
_MERGING_WHILE_IMPORTING = {"automerge": 0, "crisismerge": 32}
_FTS_TABLES = ("chunks_fts", "links_fts")
_LAST_SOURCE_ID = "last_removed_source_id"  # meta: the highest id a removed source had (ids are never given again)

# The import's own bookkeeping (its indexes' merging, see importing) waits this long at most: it is worth
# no wait of its own beside the BUSY_TIMEOUT the first store then waits (15 s in all were waited, three times
# 5, before an import said another program was writing).
_TUNING_WAIT = 0.5


def pack_vector(values: Sequence[float]) -> bytes:
    return struct.pack(f"<{len(values)}f", *values)


def unpack_vector(blob: bytes) -> tuple[float, ...]:
    return struct.unpack(f"<{len(blob) // 4}f", blob)


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def local_moment(stamp: str) -> datetime | None:
    """A time as _now() stores it, in UTC ("2026-11-30T08:52:44Z"), in the user's time zone, as people read
    clocks (kb list, the sources list, a report's "the version imported …"); None when it is not a time."""
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=timezone.utc)
        return moment.astimezone()
    except (ValueError, OverflowError):  # OverflowError: 9999-12-31T23:59Z is in the year 10000 east of UTC
        return None


def local_time(stamp: str) -> str:
    """A stored time as the user's local time, to the minute ("2026-11-30 09:52" in Berlin); as stored when
    it is not a time."""
    moment = local_moment(stamp)
    if moment is None:
        return stamp
    # Not strftime: under PySide each call goes through its import hook, a third of the sources list's refresh.
    return f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d} {moment.hour:02d}:{moment.minute:02d}"


def new_load_id() -> str:
    return uuid.uuid4().hex[:12]


class KnowledgeBase(SchemaMixin):
    """Read-write access to ``knowledge.db``. One instance per thread (sqlite3 connections are not shared)."""

    def __init__(self, path: Path, full: DiskFull | None = None) -> None:
        """``full``: what opening it to write failed with on a full disk (see kb.open_store's ``to_list``): it is
        opened to read only, and ``notice`` says so."""
        self.path = Path(path)
        # Called with True when a write has waited WAIT_SAID seconds for another program's lock, with False
        # when that wait is over (on another thread: see _transaction). An import says it in its progress.
        self.on_wait: Callable[[bool], None] | None = None
        self.stop: Callable[[], bool] | None = None  # an import's Cancel, which ends such a wait (set with on_wait)
        # In a folder this user cannot write, or on a full disk, an existing knowledge base is opened to read:
        # its sources can be listed and searched; what would change it fails, saying so.
        self.full = full
        self.notice = disk_full_notice(self.path) if full is not None else ""  # said once beside what is read
        self.readonly = full is not None or (self.path.is_file() and not folder_writable(self.path.parent))
        self._together = False  # within together(): writes join its transaction
        self.removed_own: list[str] = []  # sources an older version imported from the data folder (own_data.py)
        refuse_unusable(self.path)
        if self.readonly:
            self.conn = open_to_read(self.path, self._reader)[0]
            return
        make_private_folder(self.path.parent)
        existed = self.path.exists()
        try:
            # autocommit mode: transactions are explicit (BEGIN IMMEDIATE … COMMIT) below.
            self.conn = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_TIMEOUT)
            keep_private(self.path, existed=existed)  # the user's documents, for the user alone
        except sqlite3.DatabaseError as exc:
            raise self._open_error(exc) from exc
        try:
            refuse_unusable(self.path, self.conn)
            _wal_mode(self.conn)
            self.conn.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a crash never corrupts
            self.conn.execute(f"PRAGMA wal_autocheckpoint={WAL_AUTOCHECKPOINT}")
            self.conn.execute(f"PRAGMA secure_delete={SECURE_DELETE}")
            self.conn.execute("PRAGMA foreign_keys=ON")
            _add_index_form(self.conn)
            self.conn.executescript(SCHEMA)
            self._migrate()
            self._add_columns()
            from .own_data import remove_own_sources  # settings.json, the log: removed once, and said

            self.removed_own = remove_own_sources(self)
        except (sqlite3.DatabaseError, StoreError) as exc:
            self.conn.close()  # not left open on a file it cannot use
            if isinstance(exc, StoreError):
                raise
            raise self._open_error(exc) from exc

    def _reader(self, uri: str) -> sqlite3.Connection:
        """A connection that only reads the file at ``uri`` (see store_file.open_to_read), its columns noted."""
        conn = None
        try:
            conn = sqlite3.connect(uri, uri=True, isolation_level=None)
            _add_index_form(conn)
            refuse_unusable(self.path, conn)
            conn.execute("SELECT 1 FROM sources LIMIT 1")
            columns = table_columns(conn)
        except (sqlite3.DatabaseError, StoreError) as exc:
            if conn is not None:
                conn.close()
            if isinstance(exc, StoreError):
                raise
            raise store_error(self.path, exc, f"The knowledge base {self.path} cannot be opened") from exc
        self._reader_versions = "reader_version" in columns.get("sources", set())
        self._anchors = "anchor" in columns.get("chunks", set())
        return conn

    def _open_error(self, exc: sqlite3.DatabaseError) -> StoreError:
        """Why opening it to write failed, in words; on a full disk it can still be read (kb.open_store's
        ``to_list``, a search), only not written to."""
        error = store_error(self.path, exc, f"The knowledge base {self.path} cannot be opened")
        full = isinstance(error, DiskFull)
        return store_error(self.path, exc, f"The knowledge base {self.path} cannot be written to") if full else error

    @classmethod
    def open(cls, data_dir: Path) -> "KnowledgeBase":
        return cls(db_path(data_dir))

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "KnowledgeBase":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- reading -------------------------------------------------------------------------------------

    def sources(self) -> list[SourceInfo]:
        rows = self.conn.execute(
            "SELECT id, title, location, type, size, content_hash, imported_at, load_id, chunk_count"
            " FROM sources ORDER BY imported_at DESC, id DESC"
        ).fetchall()
        return [SourceInfo(*row) for row in rows]

    def source(self, source_id: int) -> SourceInfo | None:
        row = self.conn.execute(
            "SELECT id, title, location, type, size, content_hash, imported_at, load_id, chunk_count"
            " FROM sources WHERE id = ?",
            (source_id,),
        ).fetchone()
        return SourceInfo(*row) if row else None

    def source_by_location(self, location: str) -> SourceInfo | None:
        # one query, not the id and then its row: an import asks this two or three times for every file
        row = self.conn.execute(
            "SELECT id, title, location, type, size, content_hash, imported_at, load_id, chunk_count"
            " FROM sources WHERE location = ?",
            (location,),
        ).fetchone()
        return SourceInfo(*row) if row else None

    def reader_version(self, source_id: int) -> int:
        """The ingest.READER_VERSION the source was read with; 0 for one stored before it was recorded."""
        if not self._reader_versions:
            return 0
        row = self.conn.execute("SELECT reader_version FROM sources WHERE id = ?", (source_id,)).fetchone()
        return int(row[0]) if row else 0

    def chunks(self, source_id: int) -> list[Chunk]:
        anchor = "anchor" if self._anchors else "NULL"
        rows = self.conn.execute(
            f"SELECT heading, text, {anchor} FROM chunks WHERE source_id = ? ORDER BY ordinal", (source_id,)
        ).fetchall()
        return [Chunk(h, t, a) for h, t, a in rows]

    def count_chunks(self) -> int:
        return self.conn.execute("SELECT count(*) FROM chunks").fetchone()[0]

    def has_documents(self) -> bool:
        return self.conn.execute("SELECT 1 FROM chunks LIMIT 1").fetchone() is not None

    def is_embedded(self, source_id: int, model: str) -> bool:
        """Whether every chunk of the source has a vector of ``model``."""
        chunks, embedded = self.conn.execute(
            "SELECT count(*), count(v.chunk_id) FROM chunks c "
            "LEFT JOIN vectors v ON v.chunk_id = c.id AND v.model = ? WHERE c.source_id = ?",
            (model, source_id),
        ).fetchone()
        return chunks == embedded

    def unembedded(self, model: str) -> set[int]:
        """The ids of the sources that have chunks without a vector of ``model``."""
        return {sid for (sid,) in self.conn.execute(
            "SELECT c.source_id FROM chunks c LEFT JOIN vectors v ON v.chunk_id = c.id AND v.model = ? "
            "GROUP BY c.source_id HAVING count(v.chunk_id) < count(*)",
            (model,),
        )}

    def vector_models(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT DISTINCT model FROM vectors")]

    def check_integrity(self) -> list[str]:
        """Problems found (empty when sound): SQLite's check, the index's check, and chunk counts."""
        problems = [r[0] for r in self.conn.execute("PRAGMA integrity_check") if r[0] != "ok"]
        for table in ("chunks_fts", "links_fts"):
            try:
                self.conn.execute(f"INSERT INTO {table}({table}, rank) VALUES('integrity-check', 0)")
            except sqlite3.DatabaseError as exc:
                problems.append(f"full-text index {table}: {exc}")
        for sid, expected, actual in self.conn.execute(
            "SELECT s.id, s.chunk_count, (SELECT count(*) FROM chunks c WHERE c.source_id = s.id)"
            " FROM sources s"
        ):
            if expected != actual:
                problems.append(f"source {sid}: {actual} chunks stored, {expected} expected")
        return problems

    # ---- merging the full-text indexes --------------------------------------------------------------------

    @contextmanager
    def importing(self, cancel: threading.Event | None = None) -> Iterator[None]:
        """Many sources are about to be stored, in many commits: the full-text indexes put their merging off
        until the end (see _MERGING_WHILE_IMPORTING). Searches meanwhile stay right, only somewhat slower.

        An import cancelled (``cancel`` set by its end) or ended by an exception sets the usual merging back
        without merging: Cancel must not wait for it (a second or more after a large import), and the next
        import's end merges. One killed on the way leaves the setting behind, which bounds the segments all
        the same (32 a level), and the next import's end sets it back. Not undone when the knowledge base is
        opened: that would undo it under an import running in another process (the app's and ``kb add``'s)."""
        if self.readonly or not self._set_merging(_MERGING_WHILE_IMPORTING, _TUNING_WAIT):
            yield  # another program is writing: the import's first store waits for it, or says so
            return
        try:
            yield
        except KeyboardInterrupt:  # Ctrl+C: no waiting, not even for another program's lock (it waited 5 s)
            self._finish_merging(merge=False, wait=0)
            raise
        except BaseException:  # a failure no file could be stored after: no waiting for a merge
            self._finish_merging(merge=False)
            raise
        self._finish_merging(merge=cancel is None or not cancel.is_set())

    def _set_merging(self, values: Mapping[str, int], wait: float = BUSY_TIMEOUT) -> bool:
        """Set the indexes' merging to ``values``, waiting ``wait`` seconds at most for another program's
        lock; whether it was set."""
        if wait != BUSY_TIMEOUT:
            self.conn.execute(f"PRAGMA busy_timeout = {int(wait * 1000)}")
        try:
            with _transaction(self.conn, self.on_wait):
                for table in _FTS_TABLES:
                    for key, value in values.items():
                        self.conn.execute(f"INSERT INTO {table}({table}, rank) VALUES(?, ?)", (key, value))
        except sqlite3.Error as exc:  # the import goes on all the same, merging as usual
            log.warning("%s: the index's merging could not be set: %s", self.path, exc)
            return False
        finally:
            if wait != BUSY_TIMEOUT:
                self.conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
        return True

    def _finish_merging(self, merge: bool = True, wait: float = BUSY_TIMEOUT) -> None:
        """Set the indexes' usual merging back (waiting ``wait`` seconds at most for another program's lock)
        and (with ``merge``) merge what the import left. Never fails: an index not merged is searched as
        well, a little slower."""
        if not self._set_merging(_MERGING, wait) or not merge:
            return
        try:
            for table in _FTS_TABLES:
                for _ in range(10_000):  # each call merges about 1,000 pages (4 MB); total_changes says when done
                    before = self.conn.total_changes
                    self.conn.execute(f"INSERT INTO {table}({table}, rank) VALUES('merge', 1000)")
                    if self.conn.total_changes - before < 2:
                        break
        except sqlite3.Error as exc:
            log.warning("%s: the index could not be merged: %s", self.path, exc)

    # ---- writing -------------------------------------------------------------------------------------

    @contextmanager
    def stoppable(self, stop: Callable[[], bool], grace: float = 0.0) -> Iterator[None]:
        """While the block writes, ``stop()`` turning true interrupts the statement running, once it has gone
        on ``grace`` seconds more: the write raises Cancelled and its transaction is rolled back, so what it
        was storing is absent, not half there. Storing a 60 MB log's 53,000 passages takes seconds, and
        Cancel waited for all of them; a few notes are stored within the grace.

        Asked every STOP_CHECK steps of SQLite's engine (about a millisecond), and only until it has
        interrupted: the ROLLBACK that follows must not be interrupted too."""
        interrupted = False
        seen: float | None = None  # when stop() was first found true

        def check() -> int:
            nonlocal interrupted, seen
            if interrupted or not stop():
                return 0
            now = time.monotonic()
            if seen is None:
                seen = now
            if now - seen < grace:
                return 0
            interrupted = True
            return 1

        self.conn.set_progress_handler(check, STOP_CHECK)
        try:
            yield
        finally:
            self.conn.set_progress_handler(None, 0)

    @contextmanager
    def together(self, doing: str = "Could not save it in the knowledge base") -> Iterator[None]:
        """Write several sources in one transaction: all of them or, when any write within fails, none.
        A write's error must not be caught within: it goes on, and the whole transaction is rolled back
        (the caller may then write them one at a time, each in a transaction of its own, to find the one
        that fails). A failed BEGIN or commit (a full disk) raises StoreError worded with ``doing``.

        An import stores what it read in the last moments this way (ingest.STORE_EVERY). A commit writes
        every page its sources changed to the write-ahead log, and some pages every source changes (the
        index's structure, the last pages of each table); and the full-text index writes a segment at
        each commit (or savepoint), from the words it was given since: one for many sources, not one each."""
        self._check_writable()
        conn = self.conn
        try:
            with _transaction(conn, self.on_wait, self._importing_elsewhere, self.stop):
                self._together = True
                try:
                    yield
                finally:
                    self._together = False
        except sqlite3.DatabaseError as exc:  # BEGIN or COMMIT
            raise self._write_error(doing, exc) from exc
        except CannotWrite as exc:  # a write within (worded for its source): nothing of the others is left
            cause = exc.__cause__
            raise (self._write_error(doing, cause) if isinstance(cause, sqlite3.DatabaseError) else exc) from cause

    def _writing(self) -> AbstractContextManager[None]:
        """The transaction one write is made in: its own, or within together() that one."""
        return nullcontext() if self._together else _transaction(self.conn, self.on_wait, self._importing_elsewhere,
                                                                 self.stop)

    def _importing_elsewhere(self) -> bool:
        """Whether the write lock waited for is another tinyRAG import's: a write waits on for it."""
        return importing_elsewhere(self.path.parent)

    def replace_source(
        self,
        *,
        title: str,
        location: str,
        type: str,
        size: int,
        content_hash: str,
        chunks: Sequence[Chunk],
        load_id: str,
        vectors: Sequence[Sequence[float]] | None = None,
        vector_model: str = "",
        links: Sequence[tuple[str, str]] | None = None,
        reader_version: int = 0,
        replacing: str = "",
    ) -> int:
        """Add a source or atomically replace an existing one at the same location; returns its id.

        ``replacing``: another location whose source this one takes the place of (a web page stored under
        an address that now redirects to ``location``), removed in the same transaction.

        ``reader_version`` is the version of the readers and chunker that made ``chunks`` (ingest.READER_VERSION).

        ``links`` are (href, words around the link) pairs; hrefs are resolved against ``location``.
        When not given, the ``links`` that ``chunk_document`` attached to ``chunks`` are used.
        """
        self._check_writable()
        if vectors is not None and len(vectors) != len(chunks):
            raise ValueError("one vector per chunk")
        if links is None:
            links = getattr(chunks, "links", ())
        _real_folder.cache_clear()  # folders are remembered for one source's links: one moved since is seen anew
        resolved = [(target, text) for target, text in ((resolve_link(location, h), t) for h, t in links)
                    if target and target != location and text.strip()]
        conn = self.conn
        try:
            with self._writing():
                row = conn.execute("SELECT id FROM sources WHERE location = ?", (location,)).fetchone()
                if row is not None:
                    source_id = row[0]
                    self._unindex(source_id)
                    conn.execute("DELETE FROM chunks WHERE source_id = ?", (source_id,))
                    conn.execute(
                        "UPDATE sources SET title=?, type=?, size=?, content_hash=?, imported_at=?, load_id=?,"
                        " chunk_count=? WHERE id=?",
                        (title, type, size, content_hash, _now(), load_id, len(chunks), source_id),
                    )
                else:
                    source_id = conn.execute(
                        "INSERT INTO sources(id, title, location, type, size, content_hash, imported_at, load_id,"
                        " chunk_count) VALUES(?,?,?,?,?,?,?,?,?)",
                        (self._next_source_id(), title, location, type, size, content_hash, _now(), load_id,
                         len(chunks)),
                    ).lastrowid
                if self._reader_versions:
                    conn.execute("UPDATE sources SET reader_version = ? WHERE id = ?", (reader_version, source_id))
                first = conn.execute("SELECT coalesce(max(id), 0) + 1 FROM chunks").fetchone()[0]
                ids = range(first, first + len(chunks))
                if self._anchors:
                    conn.executemany(
                        "INSERT INTO chunks(id, source_id, ordinal, heading, text, anchor) VALUES(?,?,?,?,?,?)",
                        ((cid, source_id, n, c.heading, c.text, c.anchor) for n, (cid, c) in enumerate(zip(ids, chunks))),
                    )
                else:  # a file another program held when it was opened: the column is added at the next open
                    conn.executemany(
                        "INSERT INTO chunks(id, source_id, ordinal, heading, text) VALUES(?,?,?,?,?)",
                        ((cid, source_id, n, c.heading, c.text) for n, (cid, c) in enumerate(zip(ids, chunks))),
                    )
                indexed_title = index_form(title, type)
                conn.executemany(
                    "INSERT INTO chunks_fts(rowid, title, heading, text) VALUES(?,?,?,?)",
                    ((cid, indexed_title, index_form(c.heading, type), index_form(c.text, type))
                     for cid, c in zip(ids, chunks)),
                )
                if vectors is not None:
                    conn.executemany(
                        "INSERT INTO vectors(chunk_id, model, vec) VALUES(?,?,?)",
                        ((cid, vector_model, pack_vector(v)) for cid, v in zip(ids, vectors)),
                    )
                if resolved:
                    first = conn.execute("SELECT coalesce(max(id), 0) + 1 FROM links").fetchone()[0]
                    rows = [(first + n, source_id, target, text) for n, (target, text) in enumerate(resolved)]
                    conn.executemany("INSERT INTO links(id, source_id, target, text) VALUES(?,?,?,?)", rows)
                    conn.executemany("INSERT INTO links_fts(rowid, text) VALUES(?,?)",
                                     ((r[0], index_form(r[3])) for r in rows))
                if replacing and replacing != location:
                    old = conn.execute("SELECT id FROM sources WHERE location = ?", (replacing,)).fetchone()
                    if old is not None:
                        self._delete(old[0])
        except sqlite3.DatabaseError as exc:
            raise self._write_error(f"Could not save {location} in the knowledge base", exc) from exc
        return source_id

    def remove_source(self, source_id: int) -> bool:
        """Delete a source, its chunks, index entries and vectors; False when there was no such source."""
        self._check_writable()
        try:
            with scrubbing(self.conn, SECURE_DELETE), self._writing():
                deleted = self._delete(source_id)
        except sqlite3.DatabaseError as exc:
            raise self._write_error(f"Could not remove source {source_id}", exc) from exc
        return deleted > 0

    def remove_sources(self, source_ids: Sequence[int]) -> int:
        """Delete these sources (as remove_source does) in one transaction: all of them or none; how many
        there were. A thousand removed one transaction each rewrite the same index pages a thousand times."""
        self._check_writable()
        unique = list(dict.fromkeys(source_ids))
        try:
            with scrubbing(self.conn, SECURE_DELETE), self._writing():
                deleted = 0
                for source_id in unique:
                    deleted += self._delete(source_id)
        except sqlite3.DatabaseError as exc:
            raise self._write_error(f"Could not remove {len(unique):,} source{'' if len(unique) == 1 else 's'}",
                                    exc) from exc
        return deleted

    def _delete(self, source_id: int) -> int:
        """Delete a source and all it has (within the caller's transaction); 1, or 0 when there was none."""
        self._unindex(source_id)
        deleted = self.conn.execute("DELETE FROM sources WHERE id = ?", (source_id,)).rowcount
        if deleted:
            self.conn.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES(?, max(?, ?))",
                (_LAST_SOURCE_ID, source_id, self._last_removed_id()))
        return deleted

    def _last_removed_id(self) -> int:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (_LAST_SOURCE_ID,)).fetchone()
        return int(row[0]) if row is not None and str(row[0]).isdigit() else 0

    def _next_source_id(self) -> int:
        """An id no source has had since this was kept: a script holding the id of a source it removed (``kb
        remove 2``) must not remove the next one imported. SQLite alone gives the highest id again."""
        highest = self.conn.execute("SELECT coalesce(max(id), 0) FROM sources").fetchone()[0]
        return max(highest, self._last_removed_id()) + 1

    def _unindex(self, source_id: int) -> None:
        # A contentless index forgets a row only when told the values it was indexed with: the stored
        # text in index_form, as replace_source gave it (any other values leave its words behind).
        self.conn.execute(
            "INSERT INTO chunks_fts(chunks_fts, rowid, title, heading, text)"
            " SELECT 'delete', c.id, index_form(s.title, s.type), index_form(c.heading, s.type),"
            " index_form(c.text, s.type)"
            " FROM chunks c JOIN sources s ON s.id = c.source_id WHERE c.source_id = ?",
            (source_id,),
        )
        self.conn.execute(
            "INSERT INTO links_fts(links_fts, rowid, text) SELECT 'delete', id, index_form(text) FROM links"
            " WHERE source_id = ?",
            (source_id,),
        )
        self.conn.execute("DELETE FROM links WHERE source_id = ?", (source_id,))

    def _write_error(self, what: str, exc: sqlite3.DatabaseError) -> Error:
        """The error to raise for a failed write, in words: DiskFull when the disk is what failed, Cancelled
        when stoppable() stopped it."""
        if getattr(exc, "sqlite_errorname", "") == "SQLITE_INTERRUPT":
            return Cancelled("the import was cancelled")
        return store_error(self.path, exc, what)

    def _check_writable(self) -> None:
        if self.full is not None:
            raise DiskFull(str(self.full))
        if self.readonly:
            raise ReadOnlyStore(f"The knowledge base {self.path} is in a folder you cannot write to: it can be "
                             "searched and listed, not changed.")

    def optimize(self) -> None:
        """Merge the index's segments (after a big import searches get faster)."""
        if self.readonly:
            return
        self.conn.execute("INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')")
        self.conn.execute("INSERT INTO links_fts(links_fts) VALUES('optimize')")


def _add_index_form(conn: sqlite3.Connection) -> None:
    """Give ``conn`` the SQL function index_form(text) and index_form(text, source type) (textform.index_form)."""
    conn.create_function("index_form", 1, index_form, deterministic=True)
    conn.create_function("index_form", 2, index_form, deterministic=True)


def iter_vectors(conn: sqlite3.Connection, model: str) -> sqlite3.Cursor:
    return conn.execute("SELECT chunk_id, vec FROM vectors WHERE model = ?", (model,))
