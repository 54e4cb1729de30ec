"""What an SQLite file holds, read before tinyRAG writes to it: whether it is one of ours or another program's.

The chat history and the knowledge base both refuse a database whose tables are not the ones they read,
rather than add theirs to it; this is the reading they share.
"""

from __future__ import annotations

import errno
import shutil
import sqlite3
from pathlib import Path, PurePath
from typing import Mapping


def table_columns(conn: sqlite3.Connection) -> dict[str, set[str]]:
    """Each table of the database (SQLite's own left out), with its columns' names."""
    return {name: {col for (col,) in conn.execute("SELECT name FROM pragma_table_info(?)", (name,))}
            for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if not name.startswith("sqlite_")}


def missing_columns(tables: Mapping[str, set[str]], expected: Mapping[str, set[str]]) -> list[str]:
    """"table.column" for each expected column a table present lacks (tables absent are not counted)."""
    return [f"{table}.{column}" for table, columns in expected.items() if table in tables
            for column in sorted(columns - tables[table])]


# A database is compacted (rewritten without its free pages: VACUUM) once its free pages make at least this
# share of the file and this many bytes. SQLite keeps a freed page for reuse and never gives it back to the
# disk by itself: a knowledge base that had 4,601 of its 5,828 sources removed stayed 465 MB with 408 MB free,
# and a chat history stayed 64 MB with 58 MB free once 550 of its 602 chats were deleted.
COMPACT_SHARE = 0.25
COMPACT_LEAST = 8 * 2**20
CHECKPOINT_WAIT_MS = 200  # how long compact's checkpoint waits for a reader to finish its read


def free_space(conn: sqlite3.Connection) -> tuple[int, int]:
    """The database's size and the bytes of its free pages, as this connection sees it."""
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    free = conn.execute("PRAGMA freelist_count").fetchone()[0]
    return pages * page, free * page


def worth_compacting(conn: sqlite3.Connection) -> bool:
    """Whether enough of the database is free (COMPACT_SHARE, COMPACT_LEAST) to rewrite it smaller."""
    size, free = free_space(conn)
    return free >= COMPACT_LEAST and free >= COMPACT_SHARE * size


def compact(conn: sqlite3.Connection) -> tuple[int, int]:
    """Rewrite the database without its free pages (VACUUM, outside any transaction), then fold the
    write-ahead log back into the file so that it shrinks on disk (at once when no other connection is
    reading; else at the next checkpoint). Other connections read on meanwhile (WAL); a writer waits for it.
    The database's size before and after."""
    before = free_space(conn)[0]
    conn.execute("VACUUM")
    # A reader in the middle of a read would hold the checkpoint for the whole busy timeout (5 s for the
    # knowledge base): it is not waited for long; the file shrinks at a later checkpoint then.
    waits = conn.execute("PRAGMA busy_timeout").fetchone()[0]
    conn.execute(f"PRAGMA busy_timeout = {CHECKPOINT_WAIT_MS}")
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    except sqlite3.OperationalError:  # another program reading or writing: the next checkpoint folds it in
        pass
    finally:
        conn.execute(f"PRAGMA busy_timeout = {waits}")
    return before, free_space(conn)[0]


# Below this much free space a failed write is put down to a full disk.
LOW_SPACE = 4 << 20


def free_bytes(folder: Path) -> int:
    """The free space on the disk holding ``folder``; LOW_SPACE when it cannot be told (the disk not blamed)."""
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return LOW_SPACE


def out_of_space(exc: BaseException, folder: Path) -> bool:
    """Whether ``exc``, from writing a database in ``folder``, means its disk is full. SQLite says SQLITE_FULL
    when it sees it; a write that fails midway (the -shm file grown when it opens) is often only an I/O
    error, which a disk with no room left explains."""
    if isinstance(exc, OSError):
        return exc.errno in (errno.ENOSPC, errno.EDQUOT)
    name = getattr(exc, "sqlite_errorname", "") or ""
    return name == "SQLITE_FULL" or (name.startswith("SQLITE_IOERR") and free_bytes(folder) < LOW_SPACE)


def file_uri(path: PurePath) -> str:
    """The ``file:`` URI SQLite opens ``path`` (absolute) by, to add ``?mode=ro`` to. A Windows share's path,
    which a mapped network drive also resolves to (Z:\\x is \\\\server\\share\\x), is ``file://server/share/x`` as
    pathlib writes it, and SQLite refuses every host but localhost ("invalid uri authority: server"): it
    gets an empty host instead, its path starting with the two slashes of a share (``file:////server/…``)."""
    uri = path.as_uri()
    return uri if uri.startswith("file:///") else "file:////" + uri[len("file://"):]
