"""The knowledge base's file: its name, its tables and their version, and what opens it without writing to
it: a read-only URI, telling it from another program's database, tidying its -wal file, and SQLite's
failures on it in words. The writer is store.KnowledgeBase; search and the start-up checks need only this."""

from __future__ import annotations

import logging
import os
import re
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import TypeVar

from ..files import folder_writable
from ..sqlitefiles import LOW_SPACE, file_uri, free_bytes, missing_columns, table_columns
from .errors import DiskFull, ReadOnlyStore, StoreError, StoreLocked
from .unfinished import paused_import

log = logging.getLogger(__name__)
C = TypeVar("C")

DB_NAME = "knowledge.db"
# 1: sources, chunks, vectors, chunks_fts. 2: links and links_fts (added in place; see store_schema's _migrate).
# 3: the same tables; links are now read from Markdown, reStructuredText, text files and web pages too.
# 4: the same tables; the full-text indexes hold index_form's text (full-width letters, CJK words).
# Any version: sources.reader_version may be missing (added in place, not a new schema version, so that an
# older tinyRAG still opens the file: sources it adds get the column's default 0, "read by an older reader";
# one it imports again keeps the number it had, which only a downgrade and upgrade again can make wrong).
# So may chunks.anchor, the id in an HTML page a passage starts under (added in place the same way: older
# passages, and those an older tinyRAG adds, get NULL and open at the top of their page).
SCHEMA_VERSION = 4

# unicode61 folds case and (with remove_diacritics 2) accents; porter makes "indexes" find "index".
TOKENIZER = "porter unicode61 remove_diacritics 2"

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sources(
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    location TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL,
    size INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    imported_at TEXT NOT NULL,
    load_id TEXT NOT NULL,
    chunk_count INTEGER NOT NULL DEFAULT 0,
    -- ingest.READER_VERSION when the source was read (0: before there was one); see KnowledgeBase.reader_version
    reader_version INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS chunks(
    id INTEGER PRIMARY KEY,
    source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    heading TEXT NOT NULL,
    text TEXT NOT NULL,
    -- the id in its HTML page the passage starts under (opened at it); NULL without one
    anchor TEXT
);
CREATE INDEX IF NOT EXISTS chunks_source ON chunks(source_id, ordinal);
-- a file moved since its import is found by its bytes' hash (moves.py)
CREATE INDEX IF NOT EXISTS sources_hash ON sources(content_hash);
CREATE TABLE IF NOT EXISTS vectors(
    chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    vec BLOB NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(
    title, heading, text, content='', tokenize='{TOKENIZER}'
);
-- The index's terms and how many chunks hold each (read by the search's spelling tolerance). A view
-- computed from chunks_fts, not stored: it costs nothing to keep and any writer adds it to an older file.
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts_vocab USING fts5vocab(chunks_fts, row);
CREATE TABLE IF NOT EXISTS links(
    id INTEGER PRIMARY KEY,
    source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    target TEXT NOT NULL,
    text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS links_source ON links(source_id);
CREATE VIRTUAL TABLE IF NOT EXISTS links_fts USING fts5(text, content='', tokenize='{TOKENIZER}');
"""


# The tables any version has made (FTS5 adds its own: chunks_fts_data, _idx, _docsize, _config).
_OURS = re.compile(r"^(meta|sources|chunks|vectors|links|(chunks|links)_fts(_\w+)?|sqlite_\w+)$")
# The columns this version reads, table by table: a database whose tables lack them is another program's.
_COLUMNS = {
    "meta": {"key", "value"},
    "sources": {"id", "title", "location", "type", "size", "content_hash", "imported_at", "load_id"},
    "chunks": {"id", "source_id", "ordinal", "heading", "text"},
}


def refuse_unusable(path: Path, conn: sqlite3.Connection | None = None) -> None:
    """Raise StoreError, in words, when ``path`` is no knowledge base to open: a folder in its place, or
    (read through ``conn``, before anything is written) another program's SQLite database, which is left
    as it is rather than given tinyRAG's tables."""
    if Path(path).is_dir():
        raise StoreError(f"The knowledge base {path} is a folder, not a file. It was left as it is; move it "
                         "elsewhere, or use another data folder (--data-dir).")
    if conn is None:
        return
    tables = table_columns(conn)
    # A table named as ours must have our columns (another program may call its tables "sources" too);
    # a table of ours that is absent only counts beside tables that are not ours (a new file has none).
    missing = missing_columns(tables, _COLUMNS)
    if not all(_OURS.match(name) for name in tables):
        missing += [table for table in _COLUMNS if table not in tables and table != "meta"]
    if missing:
        raise StoreError(f"The knowledge base {path} is not tinyRAG's: it is a database without "
                         f"{', '.join(missing[:3])}. It was left as it is; move it elsewhere, or use another data "
                         "folder (--data-dir).")


def db_path(data_dir: Path) -> Path:
    return Path(data_dir) / DB_NAME


def readonly_uri(path: Path) -> str:
    """The URI that opens ``path`` for reading only. In a folder this user cannot write (a read-only share,
    a backup), SQLite cannot make the ``-shm`` file a WAL database is read through, so the file is opened
    as immutable: read as it is, without that file. A writer's last changes still in its ``-wal`` file are
    then not seen; a writer that closed cleanly left none."""
    uri = f"{file_uri(Path(path).resolve())}?mode=ro"
    if not folder_writable(Path(path).resolve().parent):
        wal = Path(f"{path}-wal")
        if wal.is_file() and wal.stat().st_size:
            log.warning("%s is in a read-only folder beside a non-empty %s: its last changes are not read",
                        path, wal.name)
        uri += "&immutable=1"
    return uri


def open_to_read(path: Path, connect: Callable[[str], C]) -> tuple[C, bool]:
    """``connect(uri)`` on ``path``'s read-only URI, and whether the file is read as it is. On a full disk
    (``connect`` raising DiskFull: no room for the -shm file WAL reads go through) with an empty -wal, the file
    is read as it is, immutable: without the -shm file, taking no locks. A writer's checkpoint at that moment
    could in theory be read mid-page; on a disk with no room a writer has nothing to fold in."""
    uri = readonly_uri(path)
    try:
        return connect(uri), False
    except DiskFull:
        wal = Path(f"{path}-wal")
        if "immutable=1" in uri or (wal.is_file() and wal.stat().st_size):
            raise
    log.info("%s read as it is: no room on its disk for the file SQLite reads a database through", path)
    return connect(f"{uri}&immutable=1"), True


def disk_full_notice(path: Path) -> str:
    """What to say beside what was read from the knowledge base at ``path`` on a full disk (see open_to_read)."""
    return (f"The disk the knowledge base is on is full, so imports and deletes cannot be saved until some space "
            f"is freed there ({Path(path).parent}). Its sources can still be listed and searched.")


def tidy(data_dir: Path) -> None:
    """Fold a knowledge base's -wal file back in and remove it and the -shm file, when nothing else has the
    database open: the last connection able to write does that as it closes. Readers cannot, so after a
    run that only searched, the two files would stay. Quick; never fails (a busy or unusable file is left)."""
    path = db_path(data_dir)
    if not Path(f"{path}-wal").is_file() or not path.is_file() or not folder_writable(path.parent):
        return
    try:
        with closing(sqlite3.connect(readonly_uri(path), uri=True)) as reader:
            refuse_unusable(path, reader)  # another program's database is left as it is, -wal and all
        with closing(sqlite3.connect(path, timeout=0.1)) as conn:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except (sqlite3.Error, StoreError) as exc:
        log.debug("left %s's -wal file: %s", path, exc)


_LOW_SPACE, _free_bytes = LOW_SPACE, free_bytes  # tests make one disk look full through _free_bytes


def sqlite_temp_dir() -> Path | None:
    """The folder SQLite puts its temporary files in (big sorts, statement journals): on Unix the first
    usable one of $SQLITE_TMPDIR, $TMPDIR, /var/tmp, /usr/tmp and /tmp, as os_unix.c looks for them; on
    Windows the system's temporary folder. None when there is none."""
    if os.name == "nt":
        import tempfile

        return Path(tempfile.gettempdir())
    for folder in (os.environ.get("SQLITE_TMPDIR"), os.environ.get("TMPDIR"), "/var/tmp", "/usr/tmp", "/tmp"):
        if folder and os.path.isdir(folder) and os.access(folder, os.W_OK | os.X_OK):
            return Path(folder)
    return None


def _same_disk(a: Path, b: Path) -> bool:
    try:
        return os.stat(a).st_dev == os.stat(b).st_dev
    except OSError:
        return True  # not known: blame the knowledge base's own disk, as before


def _full_disk(path: Path) -> str:
    """Which disk SQLite found full, in words ending in what to do. SQLITE_FULL does not say whether the
    knowledge base's disk or the one of SQLite's temporary files ran out. A failed write to the database
    leaves its -wal file grown to the last free byte, so a data folder with room left was not the one that
    filled up; a temporary file is deleted as the statement fails, so a temporary folder with room left
    may still have been."""
    folder, temp = Path(path).parent, sqlite_temp_dir()
    if temp is None or _same_disk(folder, temp) or _free_bytes(folder) < _LOW_SPACE:
        return f"the disk it is on is full. Free some space there ({folder}), then try again."
    if _free_bytes(temp) < _LOW_SPACE:
        return (f"the disk holding SQLite's temporary files ({temp}) is full; the knowledge base's own disk "
                f"has room. Free some space in {temp}, or name a folder on a disk with room in the "
                "SQLITE_TMPDIR environment variable, then try again.")
    return (f"SQLite ran out of disk space: the disk it is on ({folder}) is full, or the one holding "
            f"SQLite's temporary files ({temp}) is. Free some space on them (or name a folder on a disk "
            "with room in the SQLITE_TMPDIR environment variable), then try again.")


def megabytes(size: int) -> str:
    """A size in words a person reads at a glance: "0.4 MB", "12.5 MB", "465 MB"."""
    return f"{size / 2**20:.1f} MB" if size < 10 * 2**20 else f"{size / 2**20:.0f} MB"


def room_to_compact(path: Path, needed: int) -> tuple[bool, str]:
    """Whether the disks compacting the knowledge base at ``path`` writes to have ``needed`` bytes free each
    (sqlitefiles.compact_room): its folder, for the write-ahead log VACUUM writes the new file to, and SQLite's
    temporary folder, where it builds that file first (twice as much when they are one disk); and what it
    needs where, in words ("it needs about 24 MB free on …, where 3.0 MB are free")."""
    folder, temp = Path(path).parent, sqlite_temp_dir()
    if temp is None or _same_disk(folder, temp):
        free = _free_bytes(folder)
        also = f", and SQLite's temporary files in {temp} on the same disk" if temp is not None else ""
        return free >= 2 * needed, (f"it needs about {megabytes(2 * needed)} free on the disk of its folder "
                                    f"({folder}{also}), where {megabytes(free)} are free")
    free, free_temp = _free_bytes(folder), _free_bytes(temp)
    return free >= needed and free_temp >= needed, (
        f"it needs about {megabytes(needed)} free on the disk of its folder ({folder}; {megabytes(free)} free) "
        f"and as much on the disk of SQLite's temporary files ({temp}; {megabytes(free_temp)} free)")


# Who holds the lock, as the command line guesses it; the window, which cannot be waiting on itself, names
# the command line instead (ui.kb_summary.in_window).
WINDOW_SUSPECTED = "the tinyRAG window importing or deleting, perhaps"


def store_error(path: Path, exc: sqlite3.Error, doing: str) -> StoreError:
    """The error to raise when SQLite failed on the knowledge base at ``path``: ``doing`` ("Could not save
    … in the knowledge base") followed by why, in words, and what to do. DiskFull when a disk is full,
    ReadOnlyStore when the file is read-only, StoreLocked when another program holds it: an import stops
    at those (see errors.CannotWrite).

    Told apart by SQLite's error name (SQLITE_CORRUPT, SQLITE_BUSY …), which is fixed; its message may
    change between versions, so it is only quoted."""
    error = _worded(path, exc, doing)
    error.doing = doing
    return error


def _worded(path: Path, exc: sqlite3.Error, doing: str) -> StoreError:
    name = getattr(exc, "sqlite_errorname", "") or ""
    file = "the file" if str(path) in doing else f"the knowledge base file {path}"
    # SQLite says SQLITE_FULL when it sees the disk is full; a write that fails midway is often only an
    # I/O error, which a disk with no room left explains.
    if name == "SQLITE_FULL" or (name.startswith("SQLITE_IOERR") and _free_bytes(Path(path).parent) < _LOW_SPACE):
        return DiskFull(f"{doing}: {_full_disk(path)}")
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return StoreError(f"{doing}: {file} is damaged or is not a database (SQLite says: {exc}). It was left "
                          "as it is; move it elsewhere (or put back a backup) and import your documents again, "
                          "or use another data folder (--data-dir).")
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        if (pid := paused_import(Path(path).parent)) is not None:
            return StoreLocked(f"{doing}: another tinyRAG import into it (process {pid}) is paused, stopped "
                               "with Ctrl+Z in its terminal perhaps, and holds it until it goes on. Resume it "
                               "(type fg in that terminal) or end it, then try again.")
        return StoreLocked(f"{doing}: another program is writing to the knowledge base ({WINDOW_SUSPECTED}) "
                           "and did not finish in time. Try again when it is done.")
    if name.startswith("SQLITE_CANTOPEN"):
        folder = Path(path).parent
        if folder.is_dir() and not folder_writable(folder) and not Path(path).exists():
            return StoreError(f"{doing}: the folder {folder} cannot be written to, so no knowledge base can "
                              "be made in it. Use another data folder (--data-dir), or make the folder "
                              "writable for you.")
        return StoreError(f"{doing}: SQLite could not open {file} (it says: {exc}). Check that you may read "
                          f"and write it and the folder {folder}, or use another data folder (--data-dir).")
    if name.startswith("SQLITE_READONLY"):
        return ReadOnlyStore(f"{doing}: {file} (or its -wal or -shm file beside it) is read-only. Make it "
                             "writable for you, then try again.")
    if name.startswith("SQLITE_IOERR"):  # with room left: a disk failing, unplugged, a network share gone
        return StoreError(f"{doing}: the disk it is on could not read or write {file} (SQLite says: {exc}). Check "
                          f"that the disk holding {Path(path).parent} is still there and working, then try again.")
    return StoreError(f"{doing}: {exc}.")


@contextmanager
def scrubbing(conn: sqlite3.Connection, after: str) -> Iterator[None]:
    """Within the block, what ``conn`` deletes is overwritten with zeros, the pages it frees too (secure_delete
    ON: see compact.py); ``after``: the secure_delete set back at its end."""
    conn.execute("PRAGMA secure_delete=ON")
    try:
        yield
    finally:
        conn.execute(f"PRAGMA secure_delete={after}")
