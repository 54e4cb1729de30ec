"""The full-text index's merging during an import: put off while the import stores its sources (one commit,
one index segment each), done once at its end, so that the index afterwards has the shape it has without
this (few segments, searched as fast), and a cancelled, failed or killed import leaves nothing worse than
a few more segments until the next import ends."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import nullcontext
from pathlib import Path

import pytest

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb import ingest as ingest_module
from tinyrag_desktop.kb import store as store_module


def _folder(tmp_path: Path, files: int) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    for n in range(files):
        body = "\n\n".join(f"Paragraph {p} of note {n}: walrus{n} herds haul out on ice floe {p}." for p in range(6))
        (folder / f"note{n:03}.md").write_text(f"# Note {n}\n\n{body}\n", encoding="utf-8")
    return folder


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = 0
    while True:
        byte = data[at]
        at += 1
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value, at


def _segments(conn: sqlite3.Connection, table: str = "chunks_fts") -> list[int]:
    """Segments per level of an FTS5 index, read from its structure record (the %_data row 10): a cookie,
    then varints: levels, segments, write counter, and for each level its merge state, its segment count and
    three numbers per segment."""
    record = conn.execute(f"SELECT block FROM {table}_data WHERE id = 10").fetchone()[0]
    levels, at = _varint(record, 4)
    total, at = _varint(record, at)
    _, at = _varint(record, at)
    counts = []
    for _ in range(levels):
        _, at = _varint(record, at)
        count, at = _varint(record, at)
        counts.append(count)
        for _ in range(3 * count):
            _, at = _varint(record, at)
    assert sum(counts) == total
    return counts


def _merging(conn: sqlite3.Connection, table: str = "chunks_fts") -> dict[str, int]:
    return {k: v for k, v in conn.execute(f"SELECT k, v FROM {table}_config WHERE k IN ('automerge', 'crisismerge')")}


def test_an_import_puts_merging_off_and_leaves_the_index_as_merged_as_usual(tmp_path, data_dir, monkeypatch):
    monkeypatch.setattr(ingest_module, "STORE_EVERY", 0)  # each file stored before the next is read: watched below
    folder = _folder(tmp_path, 120)
    kb = open_store(data_dir)
    assert kb is not None
    during: list[tuple[dict, dict, list[int]]] = []

    def progress(p):
        if p.done == 100:
            during.append((_merging(kb.conn), _merging(kb.conn, "links_fts"), _segments(kb.conn)))

    with kb:
        report = Importer(kb, on_progress=progress).run([str(folder)])
        after = _merging(kb.conn), _merging(kb.conn, "links_fts"), _segments(kb.conn)
    assert len(report.added) == 120 and not report.failed
    [(merging, link_merging, segments)] = during
    assert merging == link_merging == {"automerge": 0, "crisismerge": 32}
    assert segments == [100 % 32, 100 // 32]  # a segment a source, the first level merged each time it held 32
    assert after[0] == after[1] == {"automerge": 4, "crisismerge": 16}  # FTS5's defaults, set back
    assert all(count < 4 for count in after[2]) and sum(after[2]) <= 4  # no level with 4 or more left

    # the same index as one built with FTS5's usual merging: every search finds the same chunks
    usual = tmp_path / "usual"
    with open_store(usual) as plain:
        plain.importing = nullcontext  # type: ignore[method-assign]
        Importer(plain).run([str(folder)])
    for n in (0, 7, 64, 119):
        query = f"walrus{n} herds ice floe"
        assert [h.chunk_id for h in search(data_dir, query, 5)] == [h.chunk_id for h in search(usual, query, 5)]
        assert search(data_dir, query, 1)[0].title == f"Note {n}"


def test_a_cancelled_import_sets_merging_back_and_leaves_the_merge_to_the_next(tmp_path, data_dir, monkeypatch):
    monkeypatch.setattr(ingest_module, "STORE_EVERY", 0)  # a commit, so a segment, for each source
    folder = _folder(tmp_path, 40)
    cancel = threading.Event()

    def progress(p):
        if p.done == 20:
            cancel.set()

    with open_store(data_dir) as kb:
        report = Importer(kb, on_progress=progress, cancel=cancel).run([str(folder)])
        assert report.cancelled and 20 <= len(report.added) < 40
        assert _merging(kb.conn) == {"automerge": 4, "crisismerge": 16}
        assert sum(_segments(kb.conn)) == len(report.added)  # a segment each: Cancel did not wait for a merge
        assert search(data_dir, "walrus3 herds", 1)[0].title == "Note 3"
        again = Importer(kb).run([str(folder)])
        assert len(again.added) + len(again.unchanged) == 40
        assert _merging(kb.conn) == {"automerge": 4, "crisismerge": 16} and sum(_segments(kb.conn)) < 4


def test_merging_left_off_by_a_killed_import_is_set_back_by_the_next(tmp_path, data_dir):
    folder = _folder(tmp_path, 40)
    with open_store(data_dir) as kb:
        with pytest.raises(KeyboardInterrupt):  # as a kill does, the import ends before its own end
            with kb.importing():
                Importer(kb).run([str(folder / "note000.md")])
                kb._finish_merging = lambda **kw: None  # type: ignore[method-assign]
                raise KeyboardInterrupt
    with open_store(data_dir) as kb:
        assert _merging(kb.conn) == {"automerge": 0, "crisismerge": 32}  # left as the kill left it
        assert search(data_dir, "walrus0 herds", 1)[0].title == "Note 0"  # searched all the same
        Importer(kb).run([str(folder)])
        assert _merging(kb.conn) == {"automerge": 4, "crisismerge": 16}


def test_an_import_ended_by_an_exception_sets_merging_back_without_merging(tmp_path, data_dir):
    folder = _folder(tmp_path, 40)
    with open_store(data_dir) as kb:
        with pytest.raises(KeyboardInterrupt):  # Ctrl+C: no waiting for a merge on the way out
            with kb.importing():
                for path in sorted(folder.iterdir()):
                    Importer(kb).run([str(path)])  # one file at a time: each run leaves merging alone
                raise KeyboardInterrupt
        assert _merging(kb.conn) == {"automerge": 4, "crisismerge": 16}
        assert _segments(kb.conn) == [40 - 32, 1]  # as the import left it: merged only at 32, not after


def test_a_single_file_import_leaves_merging_alone(tmp_path, data_dir):
    folder = _folder(tmp_path, 1)
    with open_store(data_dir) as kb:
        calls = []
        kb.importing = lambda: calls.append(1) or nullcontext()  # type: ignore[method-assign]
        Importer(kb).run([str(folder / "note000.md")])
        assert not calls and _merging(kb.conn) == {}  # never written: FTS5's defaults hold


def test_when_merging_cannot_be_set_the_import_goes_on(tmp_path, data_dir, caplog, monkeypatch):
    folder = _folder(tmp_path, 15)
    with open_store(data_dir) as kb:
        original = store_module._transaction
        calls = {"n": 0}

        def failing_first(conn, *args):  # the first write (setting the merging) fails, as a locked file would
            calls["n"] += 1
            if calls["n"] == 1:
                raise sqlite3.OperationalError("database is locked")
            return original(conn, *args)

        monkeypatch.setattr(store_module, "_transaction", failing_first)
        with caplog.at_level("WARNING", logger=store_module.__name__):
            report = Importer(kb).run([str(folder)])
        assert len(report.added) == 15 and not report.failed
        assert "the index's merging could not be set: database is locked" in caplog.text
        # never set, so never set back either: SQLite's own merging (automerge 4, crisismerge 16) stays
        assert _merging(kb.conn) == {}
