"""Deleted chats leave no readable trace in chats.sqlite3 (secure_delete ON, whatever SQLite's build says),
and the file gives its free pages back to the disk at close once they are a large share of it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tinyrag_desktop import chats, sqlitefiles
from tinyrag_desktop.chats import ChatStore


@pytest.fixture
def python_orgs_sqlite(monkeypatch):
    """Connections as python.org's builds open them: secure_delete OFF (Debian's build has it ON)."""
    real_connect = sqlite3.connect

    def connect(*args, **kwargs):
        conn = real_connect(*args, **kwargs)
        conn.execute("PRAGMA secure_delete=OFF")
        return conn

    monkeypatch.setattr(chats.sqlite3, "connect", connect)


def _chat(store: ChatStore, n: int, words: str) -> str:
    chat = store.new_chat(f"chat {n}")
    for turn in range(4):
        store.add_user_message(chat.id, f"question {turn} of chat{n}: {words} " + "more words " * 300)
        store.add_assistant_message(chat.id, f"answer {turn} for chat{n}: " + "an answer " * 300)
    return chat.id


def test_a_purged_chats_words_are_not_left_in_the_file(tmp_path, python_orgs_sqlite):
    store = ChatStore(tmp_path)
    kept = _chat(store, 1, "the tulips")
    gone = _chat(store, 2, "my quokka password is marmalade")
    store.delete(gone)
    assert store.purge_deleted() == 1
    store.close()
    data = b"".join(p.read_bytes() for p in Path(tmp_path).iterdir() if p.name.startswith("chats.sqlite3"))
    assert b"quokka password" not in data and b"the tulips" in data
    assert [c.id for c in ChatStore(tmp_path).list_chats()] == [kept]


def test_closing_compacts_a_history_mostly_deleted(tmp_path, monkeypatch):
    monkeypatch.setattr(sqlitefiles, "COMPACT_LEAST", 256 * 1024)  # the test's file is a few MB
    store = ChatStore(tmp_path)
    ids = [_chat(store, n, "words") for n in range(60)]
    for chat_id in ids[:50]:
        store.delete(chat_id)
    store.purge_deleted()
    before = store.path.stat().st_size
    store.close()
    assert store.path.stat().st_size < before / 3
    again = ChatStore(tmp_path)
    assert sorted(c.id for c in again.list_chats()) == sorted(ids[50:])
    assert len(again.messages(ids[55])) == 8
    again.close()
    assert again.path.stat().st_size < before / 3  # nothing left to compact: closed as it was
