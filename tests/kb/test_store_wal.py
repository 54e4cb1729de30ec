"""The write-ahead log: a large import copies it into the database in large steps, and closing the knowledge
base folds it in and removes it, so the bigger log costs no disk once the import is over."""

from __future__ import annotations

from pathlib import Path

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.store import WAL_AUTOCHECKPOINT
from tinyrag_desktop.kb.store_file import DB_NAME


def _folder(tmp_path: Path, files: int) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    for n in range(files):
        body = "\n\n".join(f"Paragraph {p} of note {n} about walrus {n} tusks and kelp forests." * 8 for p in range(80))
        (folder / f"note{n:03}.md").write_text(f"# Note {n}\n\n{body}\n", encoding="utf-8")
    return folder


def _writers_setting(data_dir: Path, pragma: str) -> int:
    kb = open_store(data_dir)
    assert kb is not None
    try:
        return kb.conn.execute(f"PRAGMA {pragma}").fetchone()[0]
    finally:
        kb.close()


def test_the_writer_copies_its_log_into_the_database_in_large_steps(data_dir):
    # SQLite's default is 1,000 pages: a copy (and two syncs) every 4 MB
    assert _writers_setting(data_dir, "wal_autocheckpoint") == WAL_AUTOCHECKPOINT > 1000


def test_the_writer_does_not_zero_freed_pages_whatever_sqlite_was_built_with(data_dir):
    # FAST: Debian's SQLite zeroes every page freed (1), SQLite's default none (0)
    assert _writers_setting(data_dir, "secure_delete") == 2


def test_closing_folds_the_log_in_and_removes_it(tmp_path, data_dir):
    folder = _folder(tmp_path, 150)
    kb = open_store(data_dir)
    assert kb is not None
    report = Importer(kb).run([str(folder)])
    wal = data_dir / f"{DB_NAME}-wal"
    try:
        assert len(report.added) == 150 and not report.failed
        # the log holds well over SQLite's default of 1,000 pages: nothing was copied meanwhile
        assert kb.conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1] > 2000
        assert wal.stat().st_size > 2000 * 4096
    finally:
        kb.close()
    assert not wal.exists()
    hits = search(data_dir, "walrus 149 tusks", 3)
    assert hits and hits[0].title == "Note 149"
