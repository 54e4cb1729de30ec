"""A knowledge base that can be read but not written: the ``kb`` verbs that write say so in words."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.permissions import as_a_user
from tinyrag_desktop.kb import Importer, open_store

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_removing_from_a_read_only_knowledge_base_is_said_in_words(tmp_path):
    data = Path(tempfile.mkdtemp(prefix="tinyrag-kb-ro-"))  # outside pytest's root-only folder
    try:
        (tmp_path / "note.md").write_text("# Note\n\nSomething worth keeping.\n", encoding="utf-8")
        kb = open_store(data)
        Importer(kb, chunk_size=300).run([str(tmp_path / "note.md")])
        kb.close()
        before = (data / "knowledge.db").read_bytes()
        (data / "knowledge.db").chmod(0o444)
        if os.geteuid() == 0:
            for path in (data, *data.iterdir()):
                shutil.chown(path, 65534, 65534)
        env = {**os.environ, "HOME": str(data), "PYTHONPATH": str(REPO)}
        done = subprocess.run(as_a_user([sys.executable, "-m", "tinyrag_desktop", "kb", "remove", "1",
                                          "--data-dir", str(data)]),
                              env=env, capture_output=True, text=True, timeout=60)
        assert "Traceback" not in done.stderr, done.stderr
        assert done.returncode == 1
        assert done.stderr.startswith("error: Could not remove source 1"), done.stderr
        assert (data / "knowledge.db").read_bytes() == before
    finally:
        shutil.rmtree(data, ignore_errors=True)
