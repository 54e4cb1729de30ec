"""Something else where knowledge.db should be: a folder, or another program's SQLite database. Every verb
says so in words and leaves it exactly as it was; nothing is added to another program's file."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

import pytest

from tinyrag_desktop.cli import main
from tinyrag_desktop.kb import KnowledgeBase, StoreError, has_documents, open_readonly


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def doc(tmp_path: Path) -> Path:
    path = tmp_path / "note.txt"
    path.write_text("The heron nests by the lake every spring.\n", encoding="utf-8")
    return path


def _verbs(data: Path, doc: Path) -> list[list[str]]:
    return [["kb", "add", str(doc)], ["kb", "list"], ["kb", "search", "heron"], ["kb", "remove", "1"]]


def test_a_folder_in_its_place_is_said_in_words_by_every_verb(tmp_path, doc, capsys):
    data = tmp_path / "data"
    (data / "knowledge.db").mkdir(parents=True)
    (data / "knowledge.db" / "mine.txt").write_text("the user's")
    for verb in _verbs(data, doc):
        assert main([*verb, "--data-dir", str(data)]) == 1, verb
        err = capsys.readouterr().err
        assert "is a folder, not a file" in err and "empty" not in err, (verb, err)
        assert "Traceback" not in err
    assert (data / "knowledge.db" / "mine.txt").read_text() == "the user's"
    assert not has_documents(data)


@pytest.mark.parametrize("tables", [
    "CREATE TABLE notes(a, b); INSERT INTO notes VALUES (1, 2);",
    # names like ours, columns not: still not ours
    "CREATE TABLE sources(x); CREATE TABLE chunks(y); CREATE TABLE bookmarks(z); INSERT INTO sources VALUES (1);",
    # only names like ours: they were taken for tinyRAG's, given the rest of its tables, then failed
    "CREATE TABLE sources(id INTEGER PRIMARY KEY, url TEXT); INSERT INTO sources(url) VALUES ('x');",
    "CREATE TABLE meta(a, b); INSERT INTO meta VALUES (1, 2);",
])
def test_another_programs_database_is_left_untouched(tmp_path, doc, capsys, tables):
    data = tmp_path / "data"
    data.mkdir()
    with sqlite3.connect(data / "knowledge.db") as other:
        other.executescript(tables)
    other.close()
    before = _digest(data / "knowledge.db")
    for verb in _verbs(data, doc):
        assert main([*verb, "--data-dir", str(data)]) == 1, verb
        err = capsys.readouterr().err
        assert "is not tinyRAG's" in err and "Traceback" not in err, (verb, err)
    with pytest.raises(StoreError, match="is not tinyRAG's"):
        KnowledgeBase.open(data)
    with pytest.raises(StoreError, match="is not tinyRAG's"):
        open_readonly(data)
    assert not has_documents(data)
    assert _digest(data / "knowledge.db") == before
    assert sorted(p.name for p in data.iterdir() if p.name.startswith("knowledge")) == ["knowledge.db"]


def test_another_programs_database_in_a_read_only_folder_is_said_in_words(tmp_path, monkeypatch):
    # a folder this user cannot write (a backup, a share): the store is opened to read, and said "no such
    # table: sources" before it looked whose database it is
    data = tmp_path / "data"
    data.mkdir()
    with sqlite3.connect(data / "knowledge.db") as other:
        other.execute("CREATE TABLE notes(a, b)")
    other.close()
    access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: mode != os.W_OK and access(path, mode, **kw))
    with pytest.raises(StoreError, match="is not tinyRAG's: it is a database without sources, chunks"):
        KnowledgeBase.open(data)


def test_our_own_database_with_a_table_the_user_added_still_opens(tmp_path, doc, capsys):
    data = tmp_path / "data"
    assert main(["kb", "add", str(doc), "--data-dir", str(data)]) == 0
    with sqlite3.connect(data / "knowledge.db") as db:
        db.execute("CREATE TABLE my_notes(x)")
    db.close()
    capsys.readouterr()
    assert main(["kb", "search", "--jsonl", "heron", "--data-dir", str(data)]) == 0
    assert str(doc) in capsys.readouterr().out
    with KnowledgeBase.open(data) as kb:
        assert [s.location for s in kb.sources()] == [str(doc)]


def test_a_search_leaves_no_wal_or_shm_file_beside_the_knowledge_base(tmp_path, doc, capsys):
    data = tmp_path / "data"
    assert main(["kb", "add", str(doc), "--data-dir", str(data)]) == 0
    assert main(["kb", "search", "heron", "--data-dir", str(data)]) == 0
    assert "heron" in capsys.readouterr().out
    assert sorted(p.name for p in data.iterdir() if p.name.startswith("knowledge")) == ["knowledge.db"]
    assert main(["kb", "search", "lake", "--data-dir", str(data)]) == 0  # and the next search opens afresh
    assert "heron" in capsys.readouterr().out


def test_a_file_that_is_not_sqlite_is_said_in_words_and_not_held_open(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "knowledge.db").write_bytes(b"these are my notes, not a database\n" * 200)
    before = _digest(data / "knowledge.db")
    closed = []
    real_close = sqlite3.Connection.close

    class Watched(sqlite3.Connection):
        def close(self):
            closed.append(self)
            real_close(self)

    connect = sqlite3.connect
    sqlite3.connect = lambda *a, **kw: connect(*a, **{**kw, "factory": Watched})
    try:
        with pytest.raises(StoreError, match="cannot be opened"):
            KnowledgeBase.open(data)
    finally:
        sqlite3.connect = connect
    assert closed  # the connection it made was closed, not left to the garbage collector
    assert _digest(data / "knowledge.db") == before


def test_tidy_leaves_another_programs_wal_files_alone(tmp_path):
    # another program's WAL database, as it is when that program was killed: its last changes are still
    # in the -wal file; tidy must not fold them in (nor delete the file), as opening ours would
    import shutil

    from tinyrag_desktop.kb.store_file import tidy

    running = tmp_path / "running"
    running.mkdir()
    other = sqlite3.connect(running / "knowledge.db")
    other.execute("PRAGMA journal_mode=WAL")
    other.execute("CREATE TABLE notes(a)")
    other.execute("INSERT INTO notes VALUES (1)")
    other.commit()
    data = tmp_path / "data"
    data.mkdir()
    for name in ("knowledge.db", "knowledge.db-wal"):
        shutil.copyfile(running / name, data / name)
    other.close()
    wal, main_file = (data / "knowledge.db-wal").read_bytes(), _digest(data / "knowledge.db")
    assert wal
    tidy(data)
    assert (data / "knowledge.db-wal").read_bytes() == wal and _digest(data / "knowledge.db") == main_file
