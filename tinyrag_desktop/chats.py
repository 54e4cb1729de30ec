"""Chat history in SQLite: chats, messages and their tool calls, one transaction per message; no Qt.

The database is ``chats.sqlite3`` in the data folder, in WAL mode, so a crash or a kill loses at most the
answer that was being streamed. An assistant message stores the visible Markdown (``content``), the
transcript sent back to the model (raw tool XML included), its reasoning, route and footer figures, and one
row per tool block with the character offset in ``content`` where its card sits; that is enough to show the
answer again exactly as it was. Deleting a chat only marks it, so the window can offer Undo; marked chats
are purged for good by :meth:`ChatStore.purge_deleted`.

A file that SQLite finds damaged is kept aside (``chats.sqlite3.damaged``) by :func:`open_chat_store` and a new
history is started, with a warning; a file that is not tinyRAG's chat history (another app's database) is
left as it is, and opening it fails with a message that says so.
"""

from __future__ import annotations

import html
import json
import logging
import os
import re
import sqlite3
import threading
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from . import search_text
from .markdown_prep import blocks_apart, lift_fences, nest_lists, put_back_fences, register_task_boxes
from .sqlitefiles import missing_columns, table_columns
from .titles import plain_title, title_from
from .tool_words import DENIED_NOTE, for_a_person, off_note
from .tools.shell import DENIED

log = logging.getLogger(__name__)

DB_FILE = "chats.sqlite3"
# The history's layout, kept in SQLite's user_version: a file from a newer tinyRAG is refused, not misread.
# 0 is a file written before the number was kept; its layout is version 1's.
SCHEMA_VERSION = 1
# A search in a worker thread (ChatSearcher) waits this long (s) for a lock another program holds on the file,
# then says it could not search: in WAL mode a reader waits for no writer, so this is a rare, short wait.
SEARCH_LOCK_WAIT = 1.0
# A change to the history waits this long (s) for a lock another program holds, then says so: the window's
# thread waits meanwhile (it was 5 s, a frozen window). tinyRAG's own writes (an --ask run beside the window)
# take milliseconds; a program that holds the lock longer (a database browser) will not let go in 5 s either.
LOCK_WAIT = 1.0
# Every so many steps of a search's query, whether to give it up is asked: 2–4 ms apart on 3,000 chats.
_STOP_CHECK_STEPS = 10_000

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


@dataclass(frozen=True, slots=True)
class StoredTool:
    """One tool block of an answer as it ended: status is ``running``, ``ok``, ``error`` or ``skipped``."""

    call_id: str
    tool: str
    query: str
    status: str
    param: str = "query"
    source: str = ""
    error: str | None = None
    result: str = ""
    result_bytes: int = 0
    elapsed_ms: int = 0  # -1: the call was refused before it ran (an unknown tool, a limit)
    position: int = 0
    anchors: tuple[str | None, ...] = ()  # one per line of source: where its page opens (see ToolResult)


@dataclass(frozen=True, slots=True)
class StoredMessage:
    """A user question or an assistant answer; ``status`` is ``done``, ``stopped`` or ``error``."""

    id: int
    role: str
    content: str
    transcript: str = ""
    reasoning: str = ""
    route: dict[str, Any] | None = None
    stats: dict[str, Any] | None = None
    status: str = "done"
    error: str | None = None
    tools: tuple[StoredTool, ...] = ()
    created: float = 0.0

    def segments(self) -> list[str | StoredTool]:
        """The answer in display order: text pieces and tool blocks where they were streamed."""
        out: list[str | StoredTool] = []
        at = 0
        for tool in sorted(self.tools, key=lambda t: t.position):
            pos = max(at, min(tool.position, len(self.content)))
            if pos > at:
                out.append(self.content[at:pos])
            out.append(tool)
            at = pos
        if at < len(self.content):
            out.append(self.content[at:])
        return out

    def history_content(self) -> str:
        """What the model sees of this message next time: the transcript for answers, else the text."""
        return _history_text(self.role, self.content, self.transcript)


@dataclass(frozen=True, slots=True)
class ChatInfo:
    id: str
    title: str
    persona: str
    created: float
    updated: float
    snippet: str = field(default="", compare=False)


class ChatStore:
    """The chat history of one data folder. Not thread-safe: use it from one thread (the GUI's)."""

    def __init__(self, data_dir: Path | str, *, filename: str = DB_FILE) -> None:
        self.path = Path(data_dir) / filename
        self.closed = False
        db = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._refuse_unwritable()
            self._db = db = sqlite3.connect(self.path, isolation_level=None, timeout=LOCK_WAIT)
            db.row_factory = sqlite3.Row
            search_text.register(db)
            # Before anything is written into it (switching it to WAL is a write): another program's file,
            # or one from a newer tinyRAG, whose layout may have changed what this version reads.
            version = db.execute("PRAGMA user_version").fetchone()[0]
            self._refuse_other_apps_file(newer=version > SCHEMA_VERSION)
            if version > SCHEMA_VERSION:
                raise ChatStoreError(
                    f"The chat history {self.path} was written by a newer version of tinyRAG (layout {version}). "
                    "It was left as it is; update tinyRAG, or use another data folder (--data-dir).")
            # Damage past the first pages shows only when they are read: look at every page now (0.03 s per
            # 100 MB in the disk cache, 0.7 s from disk), rather than fail at the first chat opened.
            problem = db.execute("PRAGMA quick_check(1)").fetchone()[0]
            if problem != "ok":
                log.warning("chat history %s fails SQLite's check: %s", self.path, problem)
                reason = "database disk image is malformed"  # as SQLite says it when it finds this by itself
                raise ChatHistoryDamaged(f"Could not open the chat history {self.path}: {reason}", reason)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable at each checkpoint, no torn DB
            db.execute("PRAGMA foreign_keys=ON")
            db.executescript(_SCHEMA)
            if "anchors" not in table_columns(db).get("tool_calls", set()):  # a file made before them
                db.execute("ALTER TABLE tool_calls ADD COLUMN anchors TEXT")
            if version < SCHEMA_VERSION:
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except (sqlite3.Error, OSError, ChatStoreError) as exc:
            if db is not None:
                db.close()
            self.closed = True
            if isinstance(exc, ChatStoreError):
                raise
            reason = (exc.strerror or exc) if isinstance(exc, OSError) else exc
            message = f"Could not open the chat history {self.path}: {reason}"
            if getattr(exc, "sqlite_errorname", "") in _DAMAGED:
                raise ChatHistoryDamaged(message, str(reason)) from exc
            raise ChatStoreError(message) from exc

    def _refuse_unwritable(self) -> None:
        """Raise ChatStoreError, in words, for a chat history that could be read but never written."""
        # SQLite opens a read-only file for reading and fails only at the first chat saved; a window that
        # cannot keep what is asked in it says so at the start instead.
        if self.path.is_dir():
            raise ChatStoreError(f"The chat history {self.path} is a folder, not a file. It was left as it is; "
                                 "move it elsewhere, or use another data folder (--data-dir).")
        for what, place in (("file", self.path), ("folder", self.path.parent)):
            if place.exists() and not os.access(place, os.W_OK):
                raise ChatStoreError(f"The chat history {self.path} cannot be saved: its {what} is read-only. "
                                     "Make it writable, or use another data folder (--data-dir).")

    def _refuse_other_apps_file(self, *, newer: bool = False) -> None:
        """Raise ChatStoreError for a database without our tables (or, unless it is from a ``newer``
        tinyRAG, without the columns this version reads)."""
        tables = table_columns(self._db)
        if not tables:
            return  # a new file
        missing = ["chats"] if "chats" not in tables else [] if newer else missing_columns(tables, _COLUMNS)
        if missing:
            raise ChatStoreError(
                f"The chat history {self.path} is not tinyRAG's: it is a database without "
                f"{', '.join(missing[:3])}. It was left as it is; move it elsewhere, or use another data folder "
                "(--data-dir).")

    def close(self) -> None:
        self._db.close()
        self.closed = True

    def _tx(self) -> "_Transaction":
        return _Transaction(self._db, self.path)

    # chats ---------------------------------------------------------------------------------------
    def new_chat(self, title: str = "New chat", persona: str = "") -> ChatInfo:
        now = time.time()
        chat_id = uuid.uuid4().hex
        with self._tx() as db:
            db.execute("INSERT INTO chats(id, title, persona, created, updated) VALUES (?,?,?,?,?)",
                       (chat_id, title, persona, now, now))
        return ChatInfo(chat_id, title, persona, now, now)

    def get_chat(self, chat_id: str) -> ChatInfo | None:
        row = self._db.execute("SELECT * FROM chats WHERE id=? AND deleted IS NULL", (chat_id,)).fetchone()
        return _chat(row) if row else None

    def list_chats(self) -> list[ChatInfo]:
        """Every chat not deleted, the most recently used first."""
        return _list_chats(self._db)

    def rename(self, chat_id: str, title: str) -> None:
        title = " ".join(title.split())
        if not title:
            raise ChatStoreError("A chat needs a title; an empty one was given.")
        with self._tx() as db:
            db.execute("UPDATE chats SET title=? WHERE id=?", (title, chat_id))

    def set_persona(self, chat_id: str, persona: str) -> None:
        with self._tx() as db:
            db.execute("UPDATE chats SET persona=? WHERE id=?", (persona, chat_id))

    def rename_persona(self, old: str, new: str) -> None:
        """Every chat that answers as persona ``old`` answers as ``new`` (the persona was renamed)."""
        with self._tx() as db:
            db.execute("UPDATE chats SET persona=? WHERE persona=?", (new, old))

    def delete(self, chat_id: str) -> None:
        """Hide a chat; :meth:`undelete` brings it back until :meth:`purge_deleted` runs."""
        with self._tx() as db:
            db.execute("UPDATE chats SET deleted=? WHERE id=?", (time.time(), chat_id))

    def undelete(self, chat_id: str) -> None:
        with self._tx() as db:
            db.execute("UPDATE chats SET deleted=NULL WHERE id=?", (chat_id,))

    @contextmanager
    def _waiting(self, wait: float | None) -> Iterator[None]:
        """Within the block, wait at most ``wait`` seconds for another program's lock (None: LOCK_WAIT)."""
        if wait is None:
            yield
            return
        self._db.execute(f"PRAGMA busy_timeout = {int(wait * 1000)}")
        try:
            yield
        finally:
            self._db.execute(f"PRAGMA busy_timeout = {int(LOCK_WAIT * 1000)}")

    def purge_deleted(self, wait: float | None = None, *, chats: Iterable[str] | None = None,
                      before: float | None = None) -> int:
        """Forget the deleted chats for good (with ``chats`` or ``before``, only those named, and those deleted
        before that time); ``wait``: at most so many seconds for another program's lock (the window closing
        need not wait: the next close purges them)."""
        with self._waiting(wait), self._tx() as db:
            if chats is None and before is None:
                return db.execute("DELETE FROM chats WHERE deleted IS NOT NULL").rowcount
            named = list(chats or ())
            return db.execute(f"DELETE FROM chats WHERE deleted IS NOT NULL AND (deleted < ? OR id IN "
                              f"({','.join('?' * len(named))}))", (before or 0, *named)).rowcount

    def search(self, text: str) -> list[ChatInfo]:
        """Chats whose title or any message contains ``text`` (letter case and accents aside), newest first.

        This runs on the store's own connection, in the caller's thread; the window searches with a
        :class:`ChatSearcher` in a worker thread instead (3,000 chats take 30–110 ms)."""
        return _search(self._db, text)

    # messages ------------------------------------------------------------------------------------
    def add_user_message(self, chat_id: str, text: str) -> StoredMessage:
        """Store a question; the first one names a chat that still has the default title."""
        now = time.time()
        with self._tx() as db:
            cur = db.execute("INSERT INTO messages(chat_id, role, content, created) VALUES (?,?,?,?)",
                             (chat_id, "user", text, now))
            db.execute("UPDATE chats SET updated=?, title=CASE WHEN title='New chat' THEN ? ELSE title END "
                       "WHERE id=?", (now, title_from(text), chat_id))
        return StoredMessage(int(cur.lastrowid), "user", text, created=now)

    def add_assistant_message(self, chat_id: str, content: str, *, transcript: str = "", reasoning: str = "",
                              route: dict[str, Any] | None = None, stats: dict[str, Any] | None = None,
                              status: str = "done", error: str | None = None,
                              tools: Iterable[StoredTool] = (), message_id: int | None = None,
                              replacing: int | None = None, wait: float | None = None) -> StoredMessage:
        """Store an answer with all its tool calls in one transaction: all of it is kept, or none.

        ``message_id``: the answer stored so far, while it streamed, written over with this one (its tool
        calls too); ``replacing``: an earlier answer this one replaces (Regenerate), removed in the same
        transaction, so that a crash leaves one answer or the other, never none. ``wait``: at most so many
        seconds for another program's lock (LOCK_WAIT otherwise)."""
        now = created = time.time()
        tools = tuple(tools)
        with self._waiting(wait), self._tx() as db:
            if replacing is not None and replacing != message_id:
                db.execute("DELETE FROM messages WHERE id=? AND chat_id=?", (replacing, chat_id))
            row = (content, transcript, reasoning, _dumps(route), _dumps(stats), status, error)
            cur = db.execute(
                "UPDATE messages SET content=?, transcript=?, reasoning=?, route=?, stats=?, status=?, error=? "
                "WHERE id=? AND chat_id=?", (*row, message_id, chat_id)) if message_id is not None else None
            if cur is not None and cur.rowcount:
                db.execute("DELETE FROM tool_calls WHERE message_id=?", (message_id,))
                created = db.execute("SELECT created FROM messages WHERE id=?", (message_id,)).fetchone()[0]
            else:  # a new answer (or the one stored so far is gone: its chat was deleted and purged)
                cur = db.execute(
                    "INSERT INTO messages(chat_id, role, content, transcript, reasoning, route, stats, status, "
                    "error, created) VALUES (?,?,?,?,?,?,?,?,?,?)", (chat_id, "assistant", *row, created))
                message_id = int(cur.lastrowid)
            db.executemany(
                "INSERT INTO tool_calls(message_id, seq, position, call_id, tool, param, query, status, source, "
                "error, result, result_bytes, elapsed_ms, anchors) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                [(message_id, seq, t.position, t.call_id, t.tool, t.param, t.query, t.status, t.source, t.error,
                  t.result, t.result_bytes, t.elapsed_ms, _dumps(list(t.anchors)) if any(t.anchors) else None)
                 for seq, t in enumerate(tools)])
            db.execute("UPDATE chats SET updated=? WHERE id=?", (now, chat_id))
        return StoredMessage(message_id, "assistant", content, transcript, reasoning, route, stats, status,
                             error, tools, created)

    def delete_message(self, message_id: int) -> None:
        """Remove one message (regenerate replaces the last answer this way)."""
        with self._tx() as db:
            db.execute("DELETE FROM messages WHERE id=?", (message_id,))

    def delete_from(self, chat_id: str, message_id: int) -> None:
        """Remove a message and every later one of its chat (a question edited and sent again replaces
        itself and its answer). When that leaves no question, a title the first question gave the chat
        goes with it, so the new question names the chat again."""
        with self._tx() as db:
            first = db.execute("SELECT id, content FROM messages WHERE chat_id=? AND role='user' ORDER BY id LIMIT 1",
                               (chat_id,)).fetchone()
            db.execute("DELETE FROM messages WHERE chat_id=? AND id>=?", (chat_id, message_id))
            if first is not None and first["id"] >= message_id:
                db.execute("UPDATE chats SET title='New chat' WHERE id=? AND title IN (?, ?)",  # or as named before
                           (chat_id, title_from(first["content"]), plain_title(first["content"])))

    def messages(self, chat_id: str, *, first: int = 0, before: int | None = None) -> list[StoredMessage]:
        """The chat's messages in order; with ``first`` and ``before``, those whose ids are in that range
        (a page: see ``page_start``)."""
        end = before if before is not None else _NO_END
        rows = self._db.execute("SELECT * FROM messages WHERE chat_id=? AND id>=? AND id<? ORDER BY id",
                                (chat_id, first, end)).fetchall()
        tools: dict[int, list[StoredTool]] = {}
        for t in self._db.execute(
                "SELECT t.* FROM tool_calls t JOIN messages m ON m.id = t.message_id "
                "WHERE m.chat_id=? AND m.id>=? AND m.id<? ORDER BY t.message_id, t.seq", (chat_id, first, end)):
            tools.setdefault(t["message_id"], []).append(StoredTool(
                t["call_id"], t["tool"], t["query"], t["status"], t["param"], t["source"], t["error"],
                t["result"], t["result_bytes"], t["elapsed_ms"], t["position"], _anchors(t["anchors"])))
        return [StoredMessage(r["id"], r["role"], r["content"], r["transcript"], r["reasoning"],
                              _loads(r["route"]), _loads(r["stats"]), r["status"], r["error"],
                              tuple(tools.get(r["id"], ())), r["created"]) for r in rows]

    def page_start(self, chat_id: str, size: int, before: int | None = None) -> tuple[int, bool]:
        """Where the last page of ``size`` messages (of those before ``before``) starts, moved back to a
        question so that no answer is shown without it: the first message's id (0 when there is none), and
        whether messages come before it.

        A long chat is shown a page at a time; reading only the page, not all its messages, kept opening a
        chat of 1,000 questions from taking 20-50 ms to read 2,000 messages of which 40 are shown."""
        end = before if before is not None else _NO_END
        db = self._db
        row = db.execute("SELECT id FROM messages WHERE chat_id=? AND id<? ORDER BY id DESC LIMIT 1 OFFSET ?",
                         (chat_id, end, max(0, size - 1))).fetchone()
        if row is None:  # no more than a page: all of them
            return 0, False
        question = db.execute("SELECT max(id) FROM messages WHERE chat_id=? AND id<=? AND role='user'",
                              (chat_id, row["id"])).fetchone()[0]
        if question is None:  # answers with no question before them: from the first message on
            return 0, False
        earlier = db.execute("SELECT 1 FROM messages WHERE chat_id=? AND id<? LIMIT 1", (chat_id, question))
        return question, earlier.fetchone() is not None

    def history(self, chat_id: str, *, leave_out: int | None = None) -> list[dict[str, str]]:
        """The chat as the engine takes it: OpenAI-style messages, answers as their transcripts; without the
        message ``leave_out`` (the answer Regenerate is replacing, kept until the new one has come)."""
        rows = self._db.execute("SELECT role, content, transcript FROM messages WHERE chat_id=? AND id IS NOT ? "
                                "ORDER BY id", (chat_id, leave_out))
        out: list[dict[str, str]] = []
        for role, content, transcript in rows:  # only the columns history_content reads
            text = _history_text(role, content, transcript)
            if role == "assistant" and not text:  # failed or stopped before a word: nothing was said
                continue
            if role == "user" and out and out[-1]["role"] == "user":
                if _same_words(out[-1]["content"], text):  # asked again as it was: once is enough
                    out.pop()
                else:
                    out.append({"role": "assistant", "content": UNANSWERED})
            out.append({"role": role, "content": text})
        return out

    # export --------------------------------------------------------------------------------------
    def to_markdown(self, chat_id: str) -> str:
        chat = self.get_chat(chat_id)
        if chat is None:
            raise ChatStoreError(f"There is no chat with id {chat_id!r}.")
        return export_markdown(chat, self.messages(chat_id))

    def to_html(self, chat_id: str) -> str:
        chat = self.get_chat(chat_id)
        if chat is None:
            raise ChatStoreError(f"There is no chat with id {chat_id!r}.")
        return export_html(chat, self.messages(chat_id))


class ChatSearcher:
    """Searches a chat history on a read-only connection of its own, for a worker thread beside the
    :class:`ChatStore` that writes: in WAL mode a reader sees every chat committed before its search began,
    and neither waits for the other.

    The connection is opened by the first search, in the thread that searches, and is used by that thread
    alone; :meth:`close` may come from another thread once that one has ended. ``stop`` is asked, from the
    searching thread, every few milliseconds of a query: when it answers True the search is given up halfway
    and :meth:`search` returns None (the window says so when newer words are typed, or as it closes).
    """

    def __init__(self, path: Path | str, stop: Callable[[], bool] = lambda: False) -> None:
        self.path = Path(path)
        self._stop = stop
        self._db: sqlite3.Connection | None = None

    def search(self, text: str) -> list[ChatInfo] | None:
        """As :meth:`ChatStore.search`, or None when ``stop`` gave the search up. Raises ChatStoreError, in
        words, when the history cannot be read (locked by another program, removed, damaged)."""
        try:
            if self._db is None:
                self._db = self._open()
            return _search(self._db, text)
        except sqlite3.Error as exc:
            if getattr(exc, "sqlite_errorname", "") == "SQLITE_INTERRUPT":
                return None  # stop said so
            raise ChatStoreError(f"Could not search the chat history {self.path}: {exc}") from exc

    def _open(self) -> sqlite3.Connection:
        # check_same_thread off only so that close() can come from the thread that waited for this one.
        db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None,
                             timeout=SEARCH_LOCK_WAIT, check_same_thread=False)
        db.row_factory = sqlite3.Row
        search_text.register(db)
        db.set_progress_handler(lambda: bool(self._stop()), _STOP_CHECK_STEPS)
        return db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


def open_chat_store(data_dir: Path | str) -> tuple[ChatStore, str | None]:
    """The chat history of ``data_dir``, and a warning when a damaged file was kept aside for a new one.

    Raises ChatStoreError, saying why, when the history cannot be opened (another app's file, a folder in
    its place, no permission, a full disk, a lock held by another program).
    """
    try:
        return ChatStore(data_dir), None
    except ChatHistoryDamaged as exc:
        damaged = exc
    path = Path(data_dir) / DB_FILE
    kept = _set_aside(path)
    log.warning("chat history %s is damaged (%s); kept as %s", path, damaged.reason, kept)
    store = ChatStore(data_dir)
    from .chat_repair import salvage  # only for a damaged file

    chats, messages = salvage(kept, store)
    if chats:
        return store, (f"The chat history file was damaged. {chats:,} chat{'s' if chats != 1 else ''} with "
                       f"{messages:,} message{'s' if messages != 1 else ''} could still be read, and were copied "
                       f"into a new history; the damaged file was kept as {kept}, with anything that could "
                       "not be read.")
    return store, (f"The chat history file was damaged, and none of its chats could be read; a new one was "
                   f"started. The damaged file was kept as {kept}.")


def _set_aside(path: Path) -> Path:
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


def _cannot_write(path: Path, exc: sqlite3.Error) -> str:
    """Why the chat history could not be written, in words that say what to do."""
    name = getattr(exc, "sqlite_errorname", "")
    if name == "SQLITE_FULL":
        why = "the disk is full. Free some space, then try again."
    elif name.startswith("SQLITE_BUSY") or name.startswith("SQLITE_LOCKED"):
        why = ("another program is using it (another copy of tinyRAG Desktop, or a backup or sync tool). "
               "Close that program, or wait until it is done, then try again.")
    elif name.startswith("SQLITE_READONLY"):
        why = "it can no longer be written (its file or folder was made read-only, or the disk was removed)."
    else:
        why = f"{exc}."
    return f"Could not write the chat history {path}: {why}"


class _Transaction:
    """``with`` block = one SQLite transaction (BEGIN IMMEDIATE … COMMIT, ROLLBACK on error)."""

    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self._db, self._path = db, path

    def __enter__(self) -> sqlite3.Connection:
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise ChatStoreError(_cannot_write(self._path, exc)) from exc
        return self._db

    def __exit__(self, kind: Any, exc: BaseException | None, tb: Any) -> None:
        if exc is None:
            try:
                self._db.execute("COMMIT")
                return
            except sqlite3.Error as err:
                self._rollback()
                raise ChatStoreError(_cannot_write(self._path, err)) from err
        self._rollback()
        if isinstance(exc, sqlite3.Error):
            raise ChatStoreError(_cannot_write(self._path, exc)) from exc

    def _rollback(self) -> None:
        # After a full disk SQLite has rolled back already; a second ROLLBACK would hide that reason.
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")


def _list_chats(db: sqlite3.Connection) -> list[ChatInfo]:
    rows = db.execute("SELECT * FROM chats WHERE deleted IS NULL ORDER BY updated DESC, rowid DESC").fetchall()
    return [_chat(r) for r in rows]


def _search(db: sqlite3.Connection, text: str) -> list[ChatInfo]:
    """Chats whose title or any message contains ``text`` (literally, letter case and accents aside: see
    search_text), newest first; every chat for empty ``text``. Each carries the first matching words of its
    messages as its snippet."""
    needle = text.strip()
    if not needle:
        return _list_chats(db)
    folded = search_text.fold(needle)
    rows = db.execute(_SEARCH.format(content=search_text.holds("m.content", folded),
                                     title=search_text.holds("title", folded)), search_text.holds_args(folded, needle))
    return [_chat(r, _snippet(r["hit"], needle)) for r in rows]


# Each message is folded once: its chat's first one holding the words is the snippet's, and says the chat does.
_SEARCH = """SELECT * FROM (SELECT c.*, c.rowid AS n, (SELECT m.content FROM messages m WHERE m.chat_id = c.id
                             AND {content} ORDER BY m.id LIMIT 1) AS hit
                           FROM chats c WHERE c.deleted IS NULL)
             WHERE hit IS NOT NULL OR {title} ORDER BY updated DESC, n DESC"""
_NO_END = 2**63 - 1  # above every message id: "before" no message


def _anchors(stored: str | None) -> tuple[str | None, ...]:
    """A call's anchors as stored (a JSON list; NULL for none, and in rows stored before them)."""
    try:
        value = json.loads(stored) if stored else None
    except ValueError:
        return ()
    return tuple(a if isinstance(a, str) else None for a in value) if isinstance(value, list) else ()


# What stands for the answer a question never got (the server failed, the app closed, the user stopped it
# before a word), between it and the next question. Two questions in a row broke every later turn of the
# chat on servers whose chat template wants user and assistant turns in turn (llama.cpp's and vLLM's
# Jinja templates for Mistral or Gemma: "Conversation roles must alternate user/assistant/user/...").
UNANSWERED = "(This question was not answered.)"


def _same_words(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def _history_text(role: str, content: str, transcript: str) -> str:
    return (transcript or content) if role == "assistant" else content


def _chat(row: sqlite3.Row, snippet: str = "") -> ChatInfo:
    return ChatInfo(row["id"], row["title"], row["persona"], row["created"], row["updated"], snippet)


# How much of a message a search hit shows before the words found, and after them. The list shows about
# 30 characters of it: with 40 before, the words found were cut off ("Answer about Tax return deadlin…").
_SNIPPET_BEFORE, _SNIPPET_AFTER = 12, 60


def _snippet(text: str | None, needle: str) -> str:
    """The words around ``needle`` in ``text``: a few before it (from the start of a word), more after, as
    the answer reads (Markdown's marks taken out, so a link's address takes none of the room)."""
    if not text:
        return ""
    found, found_end = search_text.find(text, needle) or (0, len(needle))  # case and accents aside
    lo, hi = max(0, found - 200), found_end + 400
    part = _MARKUP.sub(_unmarked, text[lo:hi])
    at, at_end = search_text.find(part, needle) or (-1, -1)
    if at < 0:  # the words are in what the marks took out (a link's address): shown as written
        part, at, at_end = text[lo:hi], found - lo, found_end - lo
    start = max(0, at - _SNIPPET_BEFORE)
    if start and not part[start - 1].isspace():  # not from the middle of a word
        space = part.find(" ", start, at)
        start = space + 1 if space >= 0 else at
    end = at_end + _SNIPPET_AFTER
    piece = " ".join(part[start:end].split())
    return ("…" if start or lo else "") + piece + ("…" if end < len(part) or hi < len(text) else "")


# Markdown's marks, which a snippet shows as the answer reads, not as it was written: a link's words, no
# "**", "~~" or backticks, no "#" of a heading nor ">" of a quote at a line's start.
_MARKUP = re.compile(r"!?\[([^\]\n]*)\]\([^)\s]*\)|\*\*|~~|`+|^[ \t]*(?:#{1,6}|>+)[ \t]+", re.M)


def _unmarked(m: re.Match[str]) -> str:
    return m.group(1) or ""


def _dumps(value: dict[str, Any] | None) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


def _loads(text: str | None) -> dict[str, Any] | None:
    if not text:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


# export ------------------------------------------------------------------------------------------
_STATUS_WORDS = {"ok": "done", "done": "done", "error": "failed", "skipped": "skipped", "running": "stopped"}
_STATUS_MARK = {"ok": "✓", "done": "✓", "error": "✗", "skipped": "–", "running": "■"}


_CODE_SPAN_RE = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.S)
_TAG_LIKE_RE = re.compile(r"<tool\b.*?</tool\s*>|</?[A-Za-z][^<>]*>", re.S)


def markdown_safe(text: str) -> str:
    """Plain words put into a Markdown document, with each tag-like run (a ``<tool …>…</tool>`` example,
    ``<query>``) in a code span: a Markdown renderer reads those as HTML and shows nothing of them.
    Code spans already in the text are kept as they are."""
    out, at = [], 0
    for span in _CODE_SPAN_RE.finditer(text):
        out += [_TAG_LIKE_RE.sub(_code_span, text[at:span.start()]), span.group(0)]
        at = span.end()
    out.append(_TAG_LIKE_RE.sub(_code_span, text[at:]))
    return "".join(out)


def _code_span(match: re.Match[str]) -> str:
    code = match.group(0)
    ticks = "`" * (max((len(run) for run in re.findall("`+", code)), default=0) + 1)
    pad = " " if code.startswith("`") or code.endswith("`") else ""
    return f"{ticks}{pad}{code}{pad}{ticks}"


def _status(tool: StoredTool) -> tuple[str, str]:
    """The mark and the word for how a call ended. A command the user denied was their choice: "denied", as
    its card says, not "skipped" (nor "failed", the engine's status for it)."""
    if tool.error == DENIED:
        return _STATUS_MARK["skipped"], "denied"
    if off_note(tool.error, tool.tool) is not None:  # the user's setting, as the card says it: not a failure
        return _STATUS_MARK["skipped"], "off"
    return _STATUS_MARK.get(tool.status, "?"), _STATUS_WORDS.get(tool.status, tool.status)


def _reason(tool: StoredTool) -> str:
    """Why a call did not run as asked, as its card says it: the user's words for a denied command, the
    setting for a tool that is off, no advice meant for the model ("Available tools: …")."""
    if tool.error == DENIED:
        return DENIED_NOTE
    return off_note(tool.error, tool.tool) or for_a_person(tool.error or "", tool.tool)


def skipped_runs(segments: Sequence[str | StoredTool]) -> list[str | StoredTool | list[StoredTool]]:
    """``segments`` with each run of calls the engine skipped for one reason (nothing but blank text between
    them) as one list: eight calculations with a limit of three read as five identical lines, as the window
    showed five cards before it grouped them (ui/answer.py)."""
    out: list[str | StoredTool | list[StoredTool]] = []
    for seg in segments:
        if isinstance(seg, StoredTool) and seg.status == "skipped" and seg.error:
            at = len(out) - 1
            while at >= 0 and isinstance(out[at], str) and not str(out[at]).strip():
                at -= 1
            before = out[at] if at >= 0 else None
            last = before[-1] if isinstance(before, list) else before
            if isinstance(last, StoredTool) and last.status == "skipped" and last.error == seg.error:
                del out[at + 1:]  # the blank text between them
                out[at] = [*before, seg] if isinstance(before, list) else [last, seg]
                continue
        out.append(seg)
    return out


def tool_markdown(tool: StoredTool | list[StoredTool]) -> str:
    """One tool call (or a run of skipped ones, see skipped_runs) as a Markdown quote line: mark, tool,
    query and status in words."""
    if isinstance(tool, list):
        names = ", ".join(dict.fromkeys(t.tool for t in tool))
        queries = " · ".join(f"`{_quoted_query(t.query, 40)}`" for t in tool)
        return (f"> {_STATUS_MARK['skipped']} **{names}** {queries} ({len(tool)} skipped)\n"
                f"> {markdown_safe(_reason(tool[0]))}")
    mark, words = _status(tool)
    lines = [f"> {mark} **{tool.tool}** `{_quoted_query(tool.query, 120)}` ({words})"]
    if tool.error:
        # the app's plain sentence, which may quote XML ("calculate takes <query>"): a Markdown renderer
        # would read that as HTML and show nothing of it
        lines.append(f"> {markdown_safe(_reason(tool))}")
    elif tool.source:
        lines.append(f"> source: {tool.source}")
    shown, more = result_excerpt(tool)
    if shown:  # as it came, in a code block: a page's Markdown or a program's output is not this document's
        fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", "\n".join(shown))), default=0))
        lines += [f"> {fence}text", *(f"> {line}" for line in shown), f"> {fence}"]
        if more:
            lines.append(f"> *({more:,} more characters of the result left out)*")
    return "\n".join(lines)


RESULT_LINES, RESULT_CHARS = 8, 600  # how much of a call's result a copy or an export shows


def result_excerpt(tool: StoredTool) -> tuple[list[str], int]:
    """The start of a call's result as a copy or an export shows it (the value a calculation gave, a
    program's first lines of output), at most RESULT_LINES lines and RESULT_CHARS characters; and how many
    characters were left out. Nothing for a call that failed or was skipped: its reason says it all."""
    if tool.status not in ("ok", "done") or not tool.result.strip():
        return [], 0
    text = tool.result.strip("\n")
    shown: list[str] = []
    used = 0
    for line in text.split("\n")[:RESULT_LINES]:
        line = line.rstrip()[: RESULT_CHARS - used]
        shown.append(line)
        used += len(line) + 1
        if used >= RESULT_CHARS:
            break
    return shown, max(0, len(text) - sum(len(line) + 1 for line in shown) + 1)


def _quoted_query(query: str, most: int) -> str:
    """A call's query on one line, at most ``most`` characters, fit for a Markdown code span."""
    query = query.replace("\n", " ")
    if len(query) > most:
        query = query[:most - 1] + "…"
    return query.replace("`", "ˋ")


# Marks that end or break a sentence: written right after a tool block ("see <tool …>…</tool>. Then"),
# they belong to the text before the call, as the window shows them (ui/answer.py).
TRAILING_MARKS = ".,;:!?…)]»”’"


def marks_attached(segments: list[str | StoredTool]) -> list[str | StoredTool]:
    """``segments`` with the marks that open a text after a tool call moved to the end of the text before
    it; where that text ends a line or a sentence already, or there is none, they are dropped."""
    out: list[str | StoredTool] = []
    before: int | None = None  # where in ``out`` the text before the last call is
    after_call = False
    for seg in segments:
        if not isinstance(seg, str):
            if not after_call:
                before = len(out) - 1 if out and isinstance(out[-1], str) else None
            after_call = True
            out.append(seg)
            continue
        if after_call:
            rest = seg.lstrip(TRAILING_MARKS)
            marks = seg[:len(seg) - len(rest)]
            if marks and before is not None:
                kept = str(out[before]).rstrip(" \t")
                if kept and kept[-1] not in "\n.,;:!?…":
                    out[before] = kept + marks
            seg, after_call = rest, not rest
        out.append(seg)
    return out


# An answer the app's closing cut (a crash, a kill) is stored with an error that starts with these words
# (ui.answer_saving.INTERRUPTED): the window shows it with Retry, which a file has not.
APP_CLOSED = "The app closed before this answer was finished"
ANSWER_STOPPED = "Answer stopped"
STOPPED_EARLY = "Stopped before the model answered"
CUT_BY_CLOSING = "The answer was cut off: the app closed"


def answer_end(message: StoredMessage) -> tuple[str, str]:
    """How an answer ended, in words that fit a file: ``("note", words)`` for one stopped or cut off by the
    app's closing, ``("error", its error)`` for one that failed, ``("", "")`` for one that finished. The window
    says it with the footer's "stopped", the line in place of an answer that never came, or the error."""
    if message.error and message.error.startswith(APP_CLOSED):
        return "note", CUT_BY_CLOSING
    if message.error:
        return "error", message.error
    if message.status == "stopped" or (message.stats or {}).get("outcome") == "stopped":
        empty = not message.content.strip() and not message.tools and not message.reasoning
        return "note", STOPPED_EARLY if empty else ANSWER_STOPPED
    return "", ""


def end_markdown(message: StoredMessage) -> str:
    """The line under an answer that did not finish ("*[Answer stopped]*", its error); "" under one that did."""
    kind, words = answer_end(message)
    return f"> **Error:** {words}" if kind == "error" else f"*[{words}]*" if kind else ""


def answer_markdown(message: StoredMessage) -> str:
    """An answer as Markdown, tool calls as quote lines where they were, and how it ended when it did not
    finish (Copy answer uses this)."""
    parts = [seg.strip() if isinstance(seg, str) else tool_markdown(seg)
             for seg in skipped_runs(marks_attached(message.segments()))]
    return "\n\n".join(p for p in parts + [end_markdown(message)] if p) + "\n"


def export_markdown(chat: ChatInfo, messages: Iterable[StoredMessage]) -> str:
    """The chat as Markdown: questions, answers, and each tool call as a one-line quote."""
    out = [f"# {chat.title}", ""]
    if chat.persona:
        out += [f"*Persona: {chat.persona}*", ""]
    for m in messages:
        if m.role == "user":
            out += ["## You", "", m.content.strip(), ""]
            continue
        out += ["## Assistant", ""]
        for seg in skipped_runs(marks_attached(m.segments())):
            if not isinstance(seg, str) or seg.strip():
                out += [seg.strip() if isinstance(seg, str) else tool_markdown(seg), ""]
        if end := end_markdown(m):
            out += [end, ""]
    return "\n".join(out).rstrip() + "\n"


_HTML_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;max-width:50rem;
margin:2rem auto;padding:0 1rem;line-height:1.55;color:#1d2330;background:#fff}
h1{font-size:1.5rem}.msg{margin:1.2rem 0;padding:.8rem 1rem;border-radius:10px}
.user{background:#eef3ff}.assistant{background:#fafafa;border:1px solid #e5e7eb}
.who{font-size:.8rem;font-weight:600;color:#6b7280;text-transform:uppercase;letter-spacing:.05em}
pre{background:#f6f8fa;padding:.7rem;border-radius:6px;overflow:auto}code{font-family:"DejaVu Sans Mono",monospace}
table{border-collapse:collapse}td,th{border:1px solid #d1d5db;padding:.25rem .5rem}
.tool{border:1px solid #d1d5db;border-radius:8px;padding:.4rem .7rem;margin:.5rem 0;font-size:.9rem}
.tool.error{border-color:#dc2626}.tool .q{font-family:monospace;color:#4b5563}.err{color:#b91c1c}
.tool pre.out{margin:.3rem 0 0;padding:.4rem .6rem;font-size:.85rem}.end{color:#6b7280}
"""


_URL_ATTR = re.compile(r'\b(href|src)="(?!https?:|mailto:|#)[^"]*"', re.I)


_converters = threading.local()  # one Markdown converter a thread: making one cost 1.2 ms a message


def _markdown_html(text: str) -> str:
    """Markdown → HTML for the export: raw HTML in messages stays text, links only http(s)/mailto."""
    md = getattr(_converters, "md", None)
    if md is None:
        import markdown

        md = markdown.Markdown(extensions=["fenced_code", "tables", "sane_lists", "codehilite"],
                               extension_configs={"codehilite": {"noclasses": True, "guess_lang": False}})
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        register_task_boxes(md)  # "- [ ] a task" as ☐, as the window shows it
        _converters.md = md
    md.reset()
    # as the window shows it: a list or table right under a line of text is not run into that line
    text, lifted, _ = lift_fences(text)  # code fenced in a list item, which fenced_code leaves as text
    body = put_back_fences(md.convert(nest_lists(blocks_apart(text))), lifted)
    return _URL_ATTR.sub(lambda m: f'{m.group(1)}="#"', body)


def export_html(chat: ChatInfo, messages: Iterable[StoredMessage]) -> str:
    """The chat as one standalone HTML file (inline styles, no scripts, no external files)."""
    esc = html.escape
    body = [f"<h1>{esc(chat.title)}</h1>"]
    for m in messages:
        if m.role == "user":
            body.append(f'<div class="msg user"><div class="who">You</div>{_markdown_html(m.content)}</div>')
            continue
        parts = []
        for seg in skipped_runs(m.segments()):
            if isinstance(seg, str):
                parts.append(_markdown_html(seg))
                continue
            if isinstance(seg, list):  # a run of calls skipped for one reason
                queries = " · ".join(f'<span class="q">{esc(t.query)}</span>' for t in seg)
                parts.append(f'<div class="tool">{_STATUS_MARK["skipped"]} '
                             f'<b>{esc(", ".join(dict.fromkeys(t.tool for t in seg)))}</b> {queries} '
                             f'({len(seg)} skipped)<div class="why">{esc(_reason(seg[0]))}</div></div>')
                continue
            mark, words = _status(seg)
            failed = seg.status == "error" and words not in ("denied", "off")
            detail = (f'<div class="{"err" if failed else "why"}">{esc(_reason(seg))}</div>' if seg.error
                      else f"<div>source: {esc(seg.source)}</div>" if seg.source else "")
            shown, more = result_excerpt(seg)
            if shown:
                detail += f'<pre class="out">{esc(chr(10).join(shown))}</pre>' + (
                    f'<div class="why">({more:,} more characters of the result left out)</div>' if more else "")
            parts.append(f'<div class="{"tool error" if failed else "tool"}">{mark} <b>{esc(seg.tool)}</b> '
                         f'<span class="q">{esc(seg.query)}</span> ({esc(words)}){detail}</div>')
        kind, words = answer_end(m)
        if kind == "error":
            parts.append(f'<p class="err"><b>Error:</b> {esc(words)}</p>')
        elif kind:
            parts.append(f'<p class="end"><em>[{esc(words)}]</em></p>')
        body.append(f'<div class="msg assistant"><div class="who">Assistant</div>{"".join(parts)}</div>')
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{esc(chat.title)}</title><style>{_HTML_CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")
