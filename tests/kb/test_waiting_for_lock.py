"""Another program holding the knowledge base's write lock: the import says it is waiting for it after a
moment, in kb add's progress and the panel's, and gives up after store.BUSY_TIMEOUT (kb add sat silent
on "[1/3] …" for 15 s: three waits of 5 s, one to set the indexes' merging, one to store, one to set it back)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from tinyrag_desktop.kb import open_store, store
from tinyrag_desktop.kb.import_report import WAITING

from .cli_run import run_main


@pytest.fixture
def quick_waits(monkeypatch):
    """The waits of a real lock, shortened: said after 0.7 s (more than the indexes' merging waits, which
    then goes without), given up after 2 s."""
    monkeypatch.setattr(store, "WAIT_SAID", 0.7)
    monkeypatch.setattr(store, "BUSY_TIMEOUT", 2.0)


def _notes(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    for n in range(3):
        (folder / f"note{n}.md").write_text(f"# Note {n}\n\nThe heron{n} fishes at dawn.\n", encoding="utf-8")
    return folder


def _locked(data_dir: Path) -> sqlite3.Connection:
    """Another program's connection, holding the write lock until closed (a database browser's unsaved edit)."""
    with open_store(data_dir):
        pass  # made, in WAL mode, as a knowledge base in use is
    other = sqlite3.connect(data_dir / "knowledge.db", isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    return other


def test_kb_add_says_it_waits_then_stops_saying_why(tmp_path, data_dir, capsys, quick_waits):
    folder = _notes(tmp_path)
    with closing(_locked(data_dir)):
        code, out, err = run_main(capsys, "--data-dir", str(data_dir), "add", str(folder))
    assert code == 1
    lines = err.splitlines()
    waited = [n for n, line in enumerate(lines) if line.endswith(WAITING)]
    failed = [n for n, line in enumerate(lines) if "another program is writing to the knowledge base" in line
              and line.startswith("failed:")]
    assert waited and failed and waited[0] < failed[0], err  # said while it waited, before it gave up
    assert "stopped, another program is writing to the knowledge base: 2 more not imported" in out
    assert len(waited) == 1, err  # one wait, the store's: not one for the indexes' merging before it too


def test_the_wait_ends_when_the_other_program_lets_go(tmp_path, data_dir, monkeypatch):
    monkeypatch.setattr(store, "WAIT_SAID", 0.2)
    other = _locked(data_dir)
    said: list[bool] = []

    def on_wait(waiting: bool) -> None:
        said.append(waiting)
        if waiting:
            other.execute("COMMIT")  # the other program is done: the store goes on

    with closing(other), open_store(data_dir) as kb:
        kb.on_wait = on_wait
        kb.replace_source(title="Note", location=str(tmp_path / "note.md"), type="markdown", size=1,
                          content_hash="h", chunks=[], load_id="x")
        assert [s.location for s in kb.sources()] == [str(tmp_path / "note.md")]
    assert said == [True, False]


def test_the_panel_says_it_waits(qtbot, panel, tmp_path, data_dir, quick_waits):
    folder = _notes(tmp_path)
    with closing(_locked(data_dir)):
        with qtbot.waitSignal(panel.importFinished, timeout=30_000):
            assert panel.import_items([str(folder)])
            qtbot.waitUntil(lambda: panel.status_label.text().endswith(f": {WAITING}"), timeout=20_000)
    assert "another program is writing" in panel.status_label.text()
