"""``kb add`` of a folder into a knowledge base no file can be stored in: a read-only ``knowledge.db``, or one
another program is writing to. The import stops at the first file it cannot store (with the files read beside
it, stored together: ingest.STORE_EVERY), says once what happened and what to do, and counts the files it did
not import; it does not fail once per file."""

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
from tinyrag_desktop.kb import store as store_module

REPO = Path(__file__).resolve().parents[2]


def _notes(folder: Path, count: int) -> Path:
    folder.mkdir(parents=True)
    for n in range(count):
        (folder / f"note{n}.md").write_text(f"# Note {n}\n\nThe heron nests by pond number {n}.\n", encoding="utf-8")
    return folder


def _failures(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("failed: ")]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_a_read_only_knowledge_base_file_stops_a_folder_import_at_the_first_file():
    top = Path(tempfile.mkdtemp(prefix="tinyrag-kb-rostop-"))  # outside pytest's root-only folder
    try:
        data, notes = top / "data", _notes(top / "notes", 4)
        with open_store(data) as kb:
            Importer(kb, chunk_size=300).run([str(notes / "note0.md")])
        (notes / "note0.md").write_text("# Note 0\n\nChanged since: the heron left.\n", encoding="utf-8")
        if os.geteuid() == 0:
            for path in (top, *top.rglob("*")):
                shutil.chown(path, 65534, 65534)
        (data / "knowledge.db").chmod(0o444)  # the data folder stays writable: only the file is read-only
        env = {**os.environ, "HOME": str(top), "PYTHONPATH": str(REPO)}
        done = subprocess.run(as_a_user([sys.executable, "-m", "tinyrag_desktop", "kb", "add", str(notes),
                                          "--data-dir", str(data)]),
                              env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        failed = _failures(done.stderr)
        assert len(failed) == 1, done.stderr  # was one line per file, each saying the same
        assert "is read-only. Make it writable for you, then try again." in failed[0], failed
        assert done.stdout.strip().endswith("— stopped, the knowledge base file is read-only: 3 more not imported"), \
            done.stdout
    finally:
        shutil.rmtree(top, ignore_errors=True)


@pytest.fixture
def writer(tmp_path: Path):
    """A knowledge base another program is writing to: a second connection holding a write transaction."""
    data = tmp_path / "data"
    with open_store(data):
        pass
    holder = sqlite3.connect(data / "knowledge.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    yield data
    holder.execute("ROLLBACK")
    holder.close()


def test_a_knowledge_base_another_program_is_writing_stops_the_import_and_says_so(writer, tmp_path, capsys,
                                                                                    monkeypatch):
    # how long a write waits for the other program: a tenth of a second here, a few seconds for a person
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.1)
    notes = _notes(tmp_path / "notes", 3)
    code, out, err = run_main(capsys, "add", str(notes), "--data-dir", str(writer))
    assert code == 1 and "Traceback" not in err
    failed = _failures(err)
    assert len(failed) == 1, err  # was one per file, each after waiting 30 s
    assert "another program is writing to the knowledge base" in failed[0], failed
    assert "Try again when it is done" in failed[0], failed
    assert out.strip().endswith("— stopped, another program is writing to the knowledge base: 2 more not imported")


def test_a_write_waits_a_few_seconds_not_half_a_minute(tmp_path):
    # a person waiting on a silent command gives up long before 30 s: the wait is short, and one setting
    assert 1 <= store_module.BUSY_TIMEOUT <= 10
    with open_store(tmp_path / "data") as kb:
        assert kb.conn.execute("PRAGMA busy_timeout").fetchone()[0] == int(store_module.BUSY_TIMEOUT * 1000)
