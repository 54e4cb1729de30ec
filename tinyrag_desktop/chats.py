"""Chat history in SQLite: chats, messages and their tool calls, one transaction per message; no Qt.

The database is ``chats.sqlite3`` in the data folder, in WAL mode, so a crash or a kill loses at most the
answer that was being streamed. An assistant message stores the visible Markdown (``content``), the
transcript sent back to the model (raw tool XML included), its reasoning, route and footer figures, and one
row per tool block with the character offset in ``content`` where its card sits and the round it was called
in; that is enough to show the answer again exactly as it was, and to give it back to the model with its
tools' results (chat_history.py). Deleting a chat only marks it, so the window can offer Undo; marked chats
are purged for good by :meth:`ChatStore.purge_deleted`.

A file that SQLite finds damaged is kept aside (``chats.sqlite3.damaged``) by :func:`open_chat_store` and a new
history is started, with a warning; a file that is not tinyRAG's chat history (another app's database) is
left as it is, and opening it fails with a message that says so.

How a chat is written out (Copy answer, Export) is in chat_export.py; how the file is opened and checked, in
chat_file.py.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Iterator

from .chat_file import ChatHistoryDamaged, ChatStoreError, file_identity, gone_words, open_history, set_aside
from .chat_history import history_messages
from .halves import mended, mended_json
from .sqlitefiles import compact, out_of_space, worth_compacting
from .titles import plain_title, title_from

log = logging.getLogger(__name__)

DB_FILE = "chats.sqlite3"
# A change to the history waits this long (s) for a lock another program holds, then says so: the window's
# thread waits meanwhile (it was 5 s, a frozen window). tinyRAG's own writes (an --ask run beside the window)
# take milliseconds; a program that holds the lock longer (a database browser) will not let go in 5 s either.
LOCK_WAIT = 1.0
# How long closing waits for another program's lock to compact the history (then left for a later close).
COMPACT_WAIT = 0.2


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
    round: int = 0  # the engine's round it was called in, from 1; 0: not known (stored before it was kept)


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
        """This message's own text as the model reads it again: the transcript for answers, else the text
        (ChatStore.history gives an answer that called tools back with their results too: see chat_history)."""
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
        try:
            self._db = open_history(self.path, LOCK_WAIT)
        except ChatStoreError:
            self.closed = True
            raise
        # SQLite writes on into a file deleted while it is open (its data folder removed, a sync tool putting
        # another file in its place): every answer after that "saved" and lost at the close, without a word
        self._file = file_identity(self.path)

    def close(self) -> None:
        """Close the history, compacting it first when much of it is free (deleted chats' pages: see
        sqlitefiles.COMPACT_SHARE), waiting at most COMPACT_WAIT for another program's lock."""
        try:
            with self._waiting(COMPACT_WAIT):
                if worth_compacting(self._db):
                    before, after = compact(self._db)
                    log.info("chat history %s compacted from %d to %d bytes", self.path, before, after)
        except sqlite3.Error as exc:  # another window writing, a full disk: compacted at a later close
            log.info("chat history %s not compacted: %s", self.path, exc)
        self._db.close()
        self.closed = True

    def _tx(self) -> "_Transaction":
        return _Transaction(self._db, self.path, self._file)

    # chats ---------------------------------------------------------------------------------------
    def new_chat(self, title: str = "New chat", persona: str = "") -> ChatInfo:
        now = time.time()
        chat_id = uuid.uuid4().hex
        title, persona = mended(title), mended(persona)
        with self._tx() as db:
            db.execute("INSERT INTO chats(id, title, persona, created, updated) VALUES (?,?,?,?,?)",
                       (chat_id, title, persona, now, now))
        return ChatInfo(chat_id, title, persona, now, now)

    def get_chat(self, chat_id: str) -> ChatInfo | None:
        row = self._db.execute("SELECT * FROM chats WHERE id=? AND deleted IS NULL", (chat_id,)).fetchone()
        return chat_from_row(row) if row else None

    def require_chat(self, chat_id: str) -> None:
        """Raise ChatGone when ``chat_id`` is no longer in the history, deleted for good elsewhere while it
        was open here (one deleted but not yet purged is still there)."""
        _require_chat(self._db, chat_id)

    def still_kept(self, chat_ids: Iterable[str]) -> set[str]:
        """Which of ``chat_ids`` are still in the history (deleted but not yet purged included)."""
        named = list(chat_ids)
        rows = self._db.execute(f"SELECT id FROM chats WHERE id IN ({','.join('?' * len(named))})", named)
        return {row["id"] for row in rows}

    def list_chats(self) -> list[ChatInfo]:
        """Every chat not deleted, the most recently used first."""
        return chats_in(self._db)

    def changes_elsewhere(self) -> int | None:
        """A number that changes whenever another connection (another window, an ``ask`` in a terminal)
        commits a change to the history: SQLite's data_version, which this store's own writes leave as it
        is. None when it cannot be asked (the file gone or locked)."""
        try:
            return self._db.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.Error:
            return None

    def rename(self, chat_id: str, title: str) -> None:
        title = " ".join(mended(title).split())
        if not title:
            raise ChatStoreError("A chat needs a title; an empty one was given.")
        with self._tx() as db:
            db.execute("UPDATE chats SET title=? WHERE id=?", (title, chat_id))

    def set_persona(self, chat_id: str, persona: str) -> None:
        with self._tx() as db:
            db.execute("UPDATE chats SET persona=? WHERE id=?", (mended(persona), chat_id))

    def rename_persona(self, old: str, new: str) -> None:
        """Every chat that answers as persona ``old`` answers as ``new`` (the persona was renamed)."""
        with self._tx() as db:
            db.execute("UPDATE chats SET persona=? WHERE persona=?", (mended(new), old))

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
        from .chat_find import find_chats  # (it reads this module's rows)

        return find_chats(self._db, text)

    # messages ------------------------------------------------------------------------------------
    def add_user_message(self, chat_id: str, text: str) -> StoredMessage:
        """Store a question; the first one names a chat that still has the default title."""
        now = time.time()
        text = mended(text)  # half a character (a lone surrogate) from anywhere: SQLite cannot store it
        with self._tx() as db:
            _require_chat(db, chat_id)
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
        answer, row = _answer_row(StoredMessage(0, "assistant", content, transcript, reasoning, route, stats, status,
                                                error, tuple(tools)))
        with self._waiting(wait), self._tx() as db:
            _require_chat(db, chat_id)
            if replacing is not None and replacing != message_id:
                db.execute("DELETE FROM messages WHERE id=? AND chat_id=?", (replacing, chat_id))
            cur = db.execute(
                "UPDATE messages SET content=?, transcript=?, reasoning=?, route=?, stats=?, status=?, error=? "
                "WHERE id=? AND chat_id=?", (*row, message_id, chat_id)) if message_id is not None else None
            if cur is not None and cur.rowcount:
                db.execute("DELETE FROM tool_calls WHERE message_id=?", (message_id,))
                created = db.execute("SELECT created FROM messages WHERE id=?", (message_id,)).fetchone()[0]
            else:  # a new answer (or the one stored so far is gone: its chat was saved anew, see save_anew)
                message_id = _insert_message(db, chat_id, "assistant", row, created)
            _insert_tools(db, message_id, answer.tools)
            db.execute("UPDATE chats SET updated=? WHERE id=?", (now, chat_id))
        return replace(answer, id=message_id, created=created)

    def save_anew(self, chat_id: str, title: str, persona: str, messages: Iterable[StoredMessage]) -> list[int]:
        """Store again, under its own id, a chat that was purged while it was open (see ChatGone), with
        ``messages``: what the window shows of it. The window's ties to the chat (its draft, a question
        waiting, "allow for this chat") hold as they were. The ids the messages have now, in their order."""
        now = time.time()
        ids = []
        with self._tx() as db:
            db.execute("INSERT OR IGNORE INTO chats(id, title, persona, created, updated) VALUES (?,?,?,?,?)",
                       (chat_id, mended(title) or "New chat", mended(persona), now, now))
            for m in messages:
                m, row = _answer_row(m)
                ids.append(_insert_message(db, chat_id, m.role, row, now))
                _insert_tools(db, ids[-1], m.tools)
        return ids

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

    def position(self, chat_id: str, message_id: int) -> int:
        """How many of the chat's messages come before ``message_id``: its number from the first (0)."""
        return self._db.execute("SELECT count(*) FROM messages WHERE chat_id=? AND id<?",
                                (chat_id, message_id)).fetchone()[0]

    def message_at(self, chat_id: str, position: int) -> int | None:
        """The id of the chat's message number ``position`` from the first (0); None past its last."""
        row = self._db.execute("SELECT id FROM messages WHERE chat_id=? ORDER BY id LIMIT 1 OFFSET ?",
                               (chat_id, position)).fetchone()
        return None if row is None else row["id"]

    def is_empty(self, chat_id: str) -> bool:
        """True when the chat holds no message."""
        return self._db.execute("SELECT 1 FROM messages WHERE chat_id=? LIMIT 1", (chat_id,)).fetchone() is None

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
                t["result"], t["result_bytes"], t["elapsed_ms"], t["position"], _anchors(t["anchors"]), t["round"]))
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
        """The chat as the engine takes it: OpenAI-style messages, answers as the model saw them, their tools'
        results included (see chat_history); without the message ``leave_out`` (the answer Regenerate is
        replacing, kept until the new one has come)."""
        rows = self._db.execute("SELECT id, role, content, transcript, status FROM messages WHERE chat_id=? AND id "
                                "IS NOT ? ORDER BY id", (chat_id, leave_out)).fetchall()
        tools: dict[int, list[StoredTool]] = {}
        for t in self._db.execute(  # only the columns a results message reads
                "SELECT t.message_id, t.call_id, t.tool, t.param, t.query, t.status, t.source, t.error, t.result, "
                "t.elapsed_ms, t.position, t.round FROM tool_calls t JOIN messages m ON m.id = t.message_id "
                "WHERE m.chat_id=? ORDER BY t.message_id, t.seq", (chat_id,)):
            tools.setdefault(t["message_id"], []).append(StoredTool(
                t["call_id"], t["tool"], t["query"], t["status"], t["param"], t["source"], t["error"], t["result"],
                elapsed_ms=t["elapsed_ms"], position=t["position"], round=t["round"]))
        return history_messages((role, content, transcript, tools.get(message_id, ()), status)
                                for message_id, role, content, transcript, status in rows)

    # export --------------------------------------------------------------------------------------
    def to_markdown(self, chat_id: str) -> str:
        chat = self.get_chat(chat_id)
        if chat is None:
            raise ChatStoreError(f"There is no chat with id {chat_id!r}.")
        from .chat_export import export_markdown  # it imports this module's message types

        return export_markdown(chat, self.messages(chat_id))

    def to_html(self, chat_id: str) -> str:
        chat = self.get_chat(chat_id)
        if chat is None:
            raise ChatStoreError(f"There is no chat with id {chat_id!r}.")
        from .chat_export import export_html

        return export_html(chat, self.messages(chat_id))


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
    kept = set_aside(path)
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



class ChatGone(ChatStoreError):
    """A chat written to is no longer in the history: deleted for good elsewhere while it was open here
    (another window's or an ``--ask`` run's closing purges chats deleted a day ago). SQLite said "FOREIGN KEY
    constraint failed", and the window showed those words."""

    def __init__(self, chat_id: str) -> None:
        super().__init__("This chat was deleted for good from the chat history elsewhere (by another window "
                         "or program) while it was open here.")
        self.chat_id = chat_id


def _require_chat(db: sqlite3.Connection, chat_id: str) -> None:
    if db.execute("SELECT 1 FROM chats WHERE id=?", (chat_id,)).fetchone() is None:
        raise ChatGone(chat_id)


def _answer_row(message: StoredMessage) -> tuple[StoredMessage, tuple]:
    """``message`` as it is stored, and its row for _insert_message: half a character (a lone surrogate) from
    anywhere (a server's model name, an error, a tool's text) mended, as SQLite cannot store it."""
    m = replace(message, content=mended(message.content), transcript=mended(message.transcript),
                reasoning=mended(message.reasoning), route=mended_json(message.route),
                stats=mended_json(message.stats), error=None if message.error is None else mended(message.error),
                tools=tuple(_mended_tool(t) for t in message.tools))
    return m, (m.content, m.transcript, m.reasoning, _dumps(m.route), _dumps(m.stats), m.status, m.error)


def _insert_message(db: sqlite3.Connection, chat_id: str, role: str, row: tuple, created: float) -> int:
    """Insert a message of ``chat_id``; ``row``: its content, transcript, reasoning, route, stats, status and
    error, as stored."""
    cur = db.execute("INSERT INTO messages(chat_id, role, content, transcript, reasoning, route, stats, status, "
                     "error, created) VALUES (?,?,?,?,?,?,?,?,?,?)", (chat_id, role, *row, created))
    return int(cur.lastrowid)


def _insert_tools(db: sqlite3.Connection, message_id: int, tools: Iterable[StoredTool]) -> None:
    db.executemany(
        "INSERT INTO tool_calls(message_id, seq, position, call_id, tool, param, query, status, source, "
        "error, result, result_bytes, elapsed_ms, anchors, round) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        [(message_id, seq, t.position, t.call_id, t.tool, t.param, t.query, t.status, t.source, t.error,
          t.result, t.result_bytes, t.elapsed_ms, _dumps(list(t.anchors)) if any(t.anchors) else None,
          t.round) for seq, t in enumerate(tools)])


def _cannot_write(path: Path, exc: sqlite3.Error) -> str:
    """Why the chat history could not be written, in words that say what to do."""
    name = getattr(exc, "sqlite_errorname", "")
    if out_of_space(exc, path.parent):
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

    def __init__(self, db: sqlite3.Connection, path: Path, file: tuple[int, int] | None = None) -> None:
        self._db, self._path, self._file = db, path, file

    def __enter__(self) -> sqlite3.Connection:
        if self._file is not None and file_identity(self._path) != self._file:
            raise ChatStoreError(gone_words(self._path))
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


def chats_in(db: sqlite3.Connection) -> list[ChatInfo]:
    """The chats not deleted, the latest first (also for chat_find.py, on its own connection)."""
    rows = db.execute("SELECT * FROM chats WHERE deleted IS NULL ORDER BY updated DESC, rowid DESC").fetchall()
    return [chat_from_row(r) for r in rows]


_NO_END = 2**63 - 1  # above every message id: "before" no message


def _anchors(stored: str | None) -> tuple[str | None, ...]:
    """A call's anchors as stored (a JSON list; NULL for none, and in rows stored before them)."""
    try:
        value = json.loads(stored) if stored else None
    except (ValueError, RecursionError):  # damaged by another program
        return ()
    return tuple(a if isinstance(a, str) else None for a in value) if isinstance(value, list) else ()


def _history_text(role: str, content: str, transcript: str) -> str:
    return (transcript or content) if role == "assistant" else content


def chat_from_row(row: sqlite3.Row, snippet: str = "") -> ChatInfo:
    return ChatInfo(row["id"], row["title"], row["persona"], row["created"], row["updated"], snippet)


def _mended_tool(tool: StoredTool) -> StoredTool:
    texts = (tool.call_id, tool.tool, tool.query, tool.status, tool.param, tool.source, tool.error or "", tool.result)
    if all(mended(text) is text for text in texts) and all(mended(a) is a for a in tool.anchors if a):
        return tool
    return replace(tool, call_id=mended(tool.call_id), tool=mended(tool.tool), query=mended(tool.query),
                   status=mended(tool.status), param=mended(tool.param), source=mended(tool.source),
                   error=None if tool.error is None else mended(tool.error), result=mended(tool.result),
                   anchors=tuple(None if a is None else mended(a) for a in tool.anchors))


def _dumps(value: dict[str, Any] | None) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


def _loads(text: str | None) -> dict[str, Any] | None:
    if not text:
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):  # damaged by another program
        return None
    return value if isinstance(value, dict) else None
