"""The chat history's file: its tables, the checks that open it, and a damaged one set aside."""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

from . import search_text
from .files import folder_writable, keep_private, make_private_folder
from .sqlitefiles import missing_columns, out_of_space, table_columns

log = logging.getLogger("tinyrag_desktop.chats")  # the name the history's log lines had before this module

# The history's layout, kept in SQLite's user_version: a file from a newer tinyRAG is refused, not misread.
# 0 is a file written before the number was kept; its layout is version 1's.
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS chats (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    persona TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    updated REAL NOT NULL,
    deleted REAL
);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id TEXT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    content TEXT NOT NULL,
    transcript TEXT NOT NULL DEFAULT '',
    reasoning TEXT NOT NULL DEFAULT '',
    route TEXT,
    stats TEXT,
    status TEXT NOT NULL DEFAULT 'done',
    error TEXT,
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_by_chat ON messages(chat_id, id);
CREATE TABLE IF NOT EXISTS tool_calls (
    message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    position INTEGER NOT NULL,
    call_id TEXT NOT NULL,
    tool TEXT NOT NULL,
    param TEXT NOT NULL,
    query TEXT NOT NULL,
    status TEXT NOT NULL,
    source TEXT NOT NULL DEFAULT '',
    error TEXT,
    result TEXT NOT NULL DEFAULT '',
    result_bytes INTEGER NOT NULL DEFAULT 0,
    elapsed_ms INTEGER NOT NULL DEFAULT 0,
    anchors TEXT,
    round INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (message_id, seq)
);
"""


class ChatStoreError(RuntimeError):
    """The chat history could not be read or written; the message says what and where."""


class ChatHistoryDamaged(ChatStoreError):
    """SQLite finds the chat history file damaged (not a database, or a corrupt one); ``reason`` says how."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


# The columns this version reads, table by table: a file whose tables lack them was written by another app.
_COLUMNS = {
    "chats": {"id", "title", "persona", "created", "updated", "deleted"},
    "messages": {"id", "chat_id", "role", "content", "transcript", "reasoning", "route", "stats", "status",
                 "error", "created"},
    "tool_calls": {"message_id", "seq", "position", "call_id", "tool", "param", "query", "status", "source",
                   "error", "result", "result_bytes", "elapsed_ms"},
}
_DAMAGED = ("SQLITE_NOTADB", "SQLITE_CORRUPT")


def open_history(path: Path, lock_wait: float) -> sqlite3.Connection:
    """The chat history at ``path``, checked and brought to this version's layout; ``lock_wait``: how long a
    change waits for another program's lock. Raises ChatStoreError (ChatHistoryDamaged), in words."""
    db = None
    try:
        make_private_folder(path.parent)
        _refuse_unwritable(path)
        existed = path.exists()
        db = sqlite3.connect(path, isolation_level=None, timeout=lock_wait)
        keep_private(path, existed=existed)  # the user's own words: as drafts.json is
        db.row_factory = sqlite3.Row
        search_text.register(db)
        # Before anything is written into it (switching it to WAL is a write): another program's file,
        # or one from a newer tinyRAG, whose layout may have changed what this version reads.
        version = db.execute("PRAGMA user_version").fetchone()[0]
        _refuse_other_apps_file(db, path, newer=version > SCHEMA_VERSION)
        if version > SCHEMA_VERSION:
            raise ChatStoreError(
                f"The chat history {path} was written by a newer version of tinyRAG (layout {version}). "
                "It was left as it is; update tinyRAG, or use another data folder (--data-dir).")
        # Damage past the first pages shows only when they are read: look at every page now (0.03 s per
        # 100 MB in the disk cache, 0.7 s from disk), rather than fail at the first chat opened.
        problem = db.execute("PRAGMA quick_check(1)").fetchone()[0]
        if problem != "ok":
            log.warning("chat history %s fails SQLite's check: %s", path, problem)
            reason = "database disk image is malformed"  # as SQLite says it when it finds this by itself
            raise ChatHistoryDamaged(f"Could not open the chat history {path}: {reason}", reason)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable at each checkpoint, no torn DB
        db.execute("PRAGMA foreign_keys=ON")
        # A deleted chat's words are overwritten, not left in freed pages (python.org's SQLite leaves
        # them: its secure_delete is OFF, Debian's ON); compacted away at close (see ChatStore.close).
        db.execute("PRAGMA secure_delete=ON")
        db.executescript(_SCHEMA)
        kept = table_columns(db).get("tool_calls", set())
        if "anchors" not in kept:  # a file made before them
            db.execute("ALTER TABLE tool_calls ADD COLUMN anchors TEXT")
        if "round" not in kept:  # a file made before rounds were kept: its calls' rounds are not known
            db.execute("ALTER TABLE tool_calls ADD COLUMN round INTEGER NOT NULL DEFAULT 0")
        if version < SCHEMA_VERSION:
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        return db
    except (sqlite3.Error, OSError, ChatStoreError) as exc:
        if db is not None:
            db.close()
        if isinstance(exc, ChatStoreError):
            raise
        reason = (exc.strerror or exc) if isinstance(exc, OSError) else exc
        message = f"Could not open the chat history {path}: {reason}"
        if out_of_space(exc, path.parent):  # SQLite's "database or disk is full", or "disk I/O error"
            raise ChatStoreError(f"Could not open the chat history {path}: the disk it is on is full. Free some "
                                 f"space there ({path.parent}), then try again, or use another data folder "
                                 "(--data-dir).") from exc
        if getattr(exc, "sqlite_errorname", "") in _DAMAGED:
            raise ChatHistoryDamaged(message, str(reason)) from exc
        raise ChatStoreError(message) from exc


def _refuse_unwritable(path: Path) -> None:
    """Raise ChatStoreError, in words, for a chat history that could be read but never written."""
    # SQLite opens a read-only file for reading and fails only at the first chat saved; a window that
    # cannot keep what is asked in it says so at the start instead.
    if path.is_dir():
        raise ChatStoreError(f"The chat history {path} is a folder, not a file. It was left as it is; "
                             "move it elsewhere, or use another data folder (--data-dir).")
    # a file's read-only attribute is what os.access looks at on Windows; a folder's it ignores
    if path.exists() and not os.access(path, os.W_OK):
        what = "file"
    elif path.parent.exists() and not folder_writable(path.parent):
        what = "folder"
    else:
        return
    raise ChatStoreError(f"The chat history {path} cannot be saved: its {what} is read-only. "
                         "Make it writable, or use another data folder (--data-dir).")


def _refuse_other_apps_file(db: sqlite3.Connection, path: Path, *, newer: bool = False) -> None:
    """Raise ChatStoreError for a database without our tables (or, unless it is from a ``newer``
    tinyRAG, without the columns this version reads)."""
    tables = table_columns(db)
    if not tables:
        return  # a new file
    missing = ["chats"] if "chats" not in tables else [] if newer else missing_columns(tables, _COLUMNS)
    if missing:
        raise ChatStoreError(
            f"The chat history {path} is not tinyRAG's: it is a database without "
            f"{', '.join(missing[:3])}. It was left as it is; move it elsewhere, or use another data folder "
            "(--data-dir).")


def file_identity(path: Path) -> tuple[int, int] | None:
    """The file at ``path`` (its device and inode), None when there is none: one removed or replaced while it
    is open is not the one the open history writes to."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def gone_words(path: Path) -> str:
    """Why the chat history cannot be written when its file is no longer the one opened."""
    return (f"Could not write the chat history {path}: the file is no longer there (its data folder was deleted "
            "or moved, or another program replaced the file). Put it back, or restart tinyRAG Desktop to begin a "
            "new history there.")


def set_aside(path: Path) -> Path:
    """Rename ``path`` (with its -wal and -shm files) to ``path.damaged``, or .damaged-2 … if that is taken."""
    n = 1
    while True:
        kept = path.with_name(f"{path.name}.damaged" + (f"-{n}" if n > 1 else ""))
        if not any(Path(f"{kept}{end}").exists() for end in ("", "-wal", "-shm")):
            break
        n += 1
    try:
        os.rename(path, kept)
        for end in ("-wal", "-shm"):
            if Path(f"{path}{end}").exists():
                os.rename(f"{path}{end}", f"{kept}{end}")
    except OSError as exc:
        raise ChatStoreError(f"The chat history {path} is damaged, and it could not be kept aside to start a "
                             f"new one: {exc.strerror or exc}.") from exc
    return kept
