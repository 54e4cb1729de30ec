"""Ctrl+C during ``kb add`` of a big folder: no traceback, exit 130, every source whole or absent, and the
message says how to finish the import."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from tinyrag_desktop.kb import open_store

REPO = Path(__file__).resolve().parents[2]


def _kb_add(folder: Path, data: Path, **popen) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(REPO)}
    # SIGINT as a terminal's Ctrl+C delivers it, even when this test runs where it is ignored (a background job)
    return subprocess.Popen([sys.executable, "-m", "tinyrag_desktop", "kb", "add", str(folder), "--data-dir", str(data),
                             "--progress"],
                            env=env, text=True, stderr=subprocess.PIPE, stdout=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL), **popen)


def _committed(data: Path) -> int:
    """How many sources another process sees stored (the import commits what it read every moment)."""
    if not (data / "knowledge.db").exists():
        return 0
    with closing(sqlite3.connect(f"{(data / 'knowledge.db').as_uri()}?mode=ro", uri=True)) as conn:
        try:
            return conn.execute("SELECT count(*) FROM sources").fetchone()[0]
        except sqlite3.OperationalError:  # its tables are not made yet
            return 0


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_ctrl_c_during_kb_add_leaves_whole_sources_and_says_how_to_go_on(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    for n in range(400):
        (folder / f"note{n:03}.md").write_text(f"# Note {n:03}\n\n" + f"kettle descaling step {n:03}. " * 2000)
    data = tmp_path / "data"
    import_ = _kb_add(folder, data)
    for line in import_.stderr:  # interrupted once it is well under way (20 sources committed), wherever it then is
        if line.startswith("[") and _committed(data) >= 20:
            break
    import_.send_signal(signal.SIGINT)
    out, err = import_.communicate(timeout=120)
    assert import_.returncode == 130, err[-2000:]
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("interrupted after ") and " of 400 sources stored: each source is stored whole or not " \
        "at all. Run the same kb add again to import the rest" in last, last
    with open_store(data) as kb:
        stored = kb.sources()
        assert last.startswith(f"interrupted after {len(stored)} of 400 sources stored"), last  # as stored
        assert 20 <= len(stored) < 400 and kb.check_integrity() == []
        whole = len(kb.chunks(stored[-1].id))
        assert all(len(kb.chunks(s.id)) == whole for s in stored)  # the notes are all as long
    again = _kb_add(folder, data)
    out, err = again.communicate(timeout=300)
    assert again.returncode == 0, err[-2000:]
    assert out.startswith(f"{400 - len(stored)} added, 0 updated, {len(stored)} unchanged")
