"""Sources imported by older readers are read again on their next import, not kept as they were for good.

"Unchanged" was judged by the file's bytes alone: after a reader fix, a file imported before it kept its old
passages however often it was imported again. Each source now records the READER_VERSION it was read with;
a knowledge base made before that (no ``sources.reader_version``) still opens, and its sources count as read
by version 0."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.kb.cli_run import run_main
from tests.permissions import as_a_user
from tinyrag_desktop.kb import Importer, open_store
from tinyrag_desktop.kb import ingest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    for name in ("badger", "stoat"):
        (folder / f"{name}.md").write_text(f"# {name.title()}\n\nThe {name} lives in the hedge.\n", encoding="utf-8")
    return folder


def _imported(data: Path, folder: Path) -> Path:
    with open_store(data) as kb:
        report = Importer(kb, chunk_size=300).run([str(folder)])
    assert len(report.added) == 2
    return data / "knowledge.db"


def _as_before_reader_versions(db: Path) -> None:
    """The file as tinyRAG left it before sources recorded their reader version: no such column."""
    with sqlite3.connect(db) as conn:
        conn.execute("ALTER TABLE sources DROP COLUMN reader_version")
    with sqlite3.connect(db) as conn:
        assert "reader_version" not in {row[1] for row in conn.execute("PRAGMA table_info(sources)")}


def test_an_older_knowledge_base_opens_and_its_sources_are_read_again_once(notes, tmp_path, capsys):
    data = tmp_path / "data"
    _as_before_reader_versions(_imported(data, notes))
    code, out, err = run_main(capsys, "list", "--data-dir", str(data))
    assert code == 0 and "Badger" in out and "Stoat" in out, err
    code, out, err = run_main(capsys, "add", str(notes), "--data-dir", str(data))
    assert code == 0, err
    # was "0 added, 0 updated, 2 unchanged": the old passages kept for good
    assert out.startswith("0 added, 2 updated (2 unchanged but read again: an older version imported them), "
                          "0 unchanged"), out
    code, out, err = run_main(capsys, "add", str(notes), "--data-dir", str(data))
    assert out.startswith("0 added, 0 updated, 2 unchanged"), out
    with open_store(data) as kb:
        assert kb.check_integrity() == []
        assert all(kb.reader_version(s.id) == ingest.READER_VERSION for s in kb.sources())


def test_a_newer_reader_version_reads_unchanged_files_again(notes, tmp_path, monkeypatch):
    data = tmp_path / "data"
    _imported(data, notes)
    (notes / "stoat.md").write_text("# Stoat\n\nThe stoat turns white in winter.\n", encoding="utf-8")
    monkeypatch.setattr(ingest, "READER_VERSION", ingest.READER_VERSION + 1)  # as a reader fix bumps it
    with open_store(data) as kb:
        report = Importer(kb, chunk_size=300).run([str(notes)])
    assert sorted(Path(p).name for p in report.updated) == ["badger.md", "stoat.md"]
    assert [Path(p).name for p in report.reread] == ["badger.md"]  # stoat.md changed: updated for that
    assert report.unchanged == []


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_an_older_read_only_knowledge_base_file_is_still_listed():
    # the column cannot be added to a file that cannot be written: listed as it is, not refused
    top = Path(tempfile.mkdtemp(prefix="tinyrag-kb-oldro-"))  # outside pytest's root-only folder
    try:
        folder = top / "notes"
        folder.mkdir()
        (folder / "heron.md").write_text("# Heron\n\nThe heron waits.\n", encoding="utf-8")
        data = top / "data"
        with open_store(data) as kb:
            Importer(kb, chunk_size=300).run([str(folder)])
        _as_before_reader_versions(data / "knowledge.db")
        if os.geteuid() == 0:
            for path in (top, *top.rglob("*")):
                shutil.chown(path, 65534, 65534)
        (data / "knowledge.db").chmod(0o444)
        env = {**os.environ, "HOME": str(top), "PYTHONPATH": str(REPO)}
        done = subprocess.run(as_a_user([sys.executable, "-m", "tinyrag_desktop", "kb", "list",
                                          "--data-dir", str(data)]),
                              env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and "Heron" in done.stdout, done.stderr
    finally:
        shutil.rmtree(top, ignore_errors=True)
