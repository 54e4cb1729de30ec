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


def compact_room(conn: sqlite3.Connection) -> int:
    """The free space compacting the database needs, in its folder and again in SQLite's temporary folder:
    VACUUM builds the new file in a temporary one, then writes every page of it to the write-ahead log. The
    size of what it holds (its free pages left out, as the new file leaves them), and a quarter more for the
    log's own bookkeeping and what merging an index first may write. Asked once the log is folded in
    (fold_in): until then its pages, which may be many, take room compacting frees."""
    size, free = free_space(conn)
    return (size - free) * 5 // 4


def compact(conn: sqlite3.Connection) -> tuple[int, int]:
    """Rewrite the database without its free pages (VACUUM, outside any transaction), then fold the
    write-ahead log back into the file so that it shrinks on disk (at once when no other connection is
    reading; else at the next checkpoint). Other connections read on meanwhile (WAL); a writer waits for it.
    The database's size before and after.

    The log is folded in first too: a VACUUM that fails midway (its disk filled meanwhile) leaves only its
    own pages in the log, which is then dropped whole as the file closes. With a removal's pages still in it,
    that fold needed room the failed VACUUM had taken, and the disk stayed full after the file was closed."""
    before = free_space(conn)[0]
    fold_in(conn)
    try:
        conn.execute("VACUUM")
    finally:
        fold_in(conn)
    return before, free_space(conn)[0]


def fold_in(conn: sqlite3.Connection) -> None:
    """Fold the write-ahead log into the database and empty it (PRAGMA wal_checkpoint(TRUNCATE)), when no
    other connection is in the way. Never fails."""
    # A reader in the middle of a read would hold the checkpoint for the whole busy timeout (5 s for the
    # knowledge base): it is not waited for long; the file shrinks at a later checkpoint then.
    waits = conn.execute("PRAGMA busy_timeout").fetchone()[0]
    conn.execute(f"PRAGMA busy_timeout = {CHECKPOINT_WAIT_MS}")
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    except sqlite3.Error:  # another program reading or writing, no room: the next checkpoint folds it in
        pass
    finally:
        conn.execute(f"PRAGMA busy_timeout = {waits}")


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
