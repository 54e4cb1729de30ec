"""Reading back a damaged chat history: what SQLite can still read of it, copied into a new one.

open_chat_store (chats.py) keeps a damaged file aside and starts a new history; :func:`salvage` then copies
into it every chat and message the damaged file still gives, so that one bad page does not cost them all.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from pathlib import Path
from typing import Iterator, Sequence

from .chats import ChatStore, ChatStoreError, title_from
from .sqlitefiles import file_uri, table_columns

log = logging.getLogger(__name__)

# Rows looked up one by one past a damaged page of the history when its last row number cannot be read
_SALVAGE_GAP = 100_000


def salvage(kept: Path, store: ChatStore) -> tuple[int, int]:
    """Copy into ``store`` what SQLite can still read of the damaged history ``kept``: each table read in
    its own order (no index: a damaged index, the most common damage, hid chats that were all still there),
    stepping over its damaged pages; messages whose chat cannot be read get a chat of their own, named by
    their first question. Returns the chats and the messages copied."""
    beside = [Path(f"{kept}{end}") for end in ("-wal", "-shm") if not Path(f"{kept}{end}").exists()]
    try:
        # a URI made as every read-only open makes it (file_uri): pasted as it was, a "#" or "?" in a folder's
        # name ended the path there, and a Windows path went in with its backslashes, unescaped
        src = sqlite3.connect(f"{file_uri(Path(kept).absolute())}?mode=ro", uri=True)
    except sqlite3.Error:
        return 0, 0
    copied: dict[str, set] = {"chats": set(), "messages": set()}
    stand_ins: set[str] = set()
    try:
        theirs = table_columns(src)
        ours = table_columns(store._db)
        with store._tx() as db:
            for table, key, parent, parent_key in (("chats", "id", None, None),
                                                   ("messages", "id", "chats", "chat_id"),
                                                   ("tool_calls", None, "messages", "message_id")):
                columns = sorted(ours.get(table, set()) & theirs.get(table, set()))
                if not columns:
                    continue
                insert = (f"INSERT OR IGNORE INTO {table}({', '.join(columns)}) "
                          f"VALUES ({', '.join('?' * len(columns))})")
                for row in _readable_rows(src, table, columns):
                    values = dict(zip(columns, row))
                    if parent is not None and values.get(parent_key) not in copied[parent]:
                        if table != "messages" or not isinstance(values.get("chat_id"), str):
                            continue  # its message could not be read
                        created = values.get("created") or time.time()
                        db.execute("INSERT OR IGNORE INTO chats(id, title, persona, created, updated) "
                                   "VALUES (?, 'Recovered chat', '', ?, ?)", (values["chat_id"], created, created))
                        copied["chats"].add(values["chat_id"])
                        stand_ins.add(values["chat_id"])
                    try:
                        db.execute(insert, row)
                    except sqlite3.Error:
                        continue  # a row damaged past its constraints
                    if key is not None:
                        copied[table].add(values[key])
            for chat_id in stand_ins:  # named as a chat is, by its first question
                first = db.execute("SELECT content FROM messages WHERE chat_id=? AND role='user' ORDER BY id "
                                   "LIMIT 1", (chat_id,)).fetchone()
                if first is not None:
                    db.execute("UPDATE chats SET title=? WHERE id=?", (title_from(first[0]), chat_id))
    except (sqlite3.Error, ChatStoreError) as exc:
        log.warning("could not read back the damaged chat history %s: %s", kept, exc)
        return 0, 0
    finally:
        src.close()
        for made in beside:  # the files SQLite made to read it: the damaged one is left as it was
            try:
                made.unlink()
            except OSError:
                pass
    return len(copied["chats"]), len(copied["messages"])


def _readable_rows(src: sqlite3.Connection, table: str, columns: Sequence[str]) -> Iterator[tuple]:
    """The rows of ``table`` SQLite can still read, in their stored order: a damaged page is stepped over by
    looking up the rows after it one by one until one can be read, and reading on from there."""
    select = f"SELECT rowid, {', '.join(columns)} FROM {table} WHERE rowid > ? ORDER BY rowid"
    try:
        top = src.execute(f"SELECT max(rowid) FROM {table}").fetchone()[0]
    except sqlite3.Error:
        top = None
    last = floor = -(1 << 63)
    while True:
        try:
            for row in src.execute(select, (last,)):
                last = row[0]
                yield row[1:]
            return
        except sqlite3.Error:
            # from past the last row read, or past the row looked up last time when none was read since
            start = max(last, floor, 0 if last == -(1 << 63) else last)
            end = top if isinstance(top, int) else start + _SALVAGE_GAP
            found = None
            for rowid in range(start + 1, max(end, start) + 1):
                try:
                    if src.execute(f"SELECT 1 FROM {table} WHERE rowid = ?", (rowid,)).fetchone():
                        found = rowid
                        break
                except sqlite3.Error:
                    continue
            if found is None:
                return
            last, floor = found - 1, found
