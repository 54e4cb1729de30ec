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


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_a_knowledge_base_in_a_read_only_folder_is_searched_and_listed_not_changed(tmp_path):
    # a backup or a read-only share: SQLite cannot make the -shm file a WAL database is read through
    data = Path(tempfile.mkdtemp(prefix="tinyrag-kb-rofolder-"))  # outside pytest's root-only folder
    try:
        (tmp_path / "note.md").write_text("# Wombats\n\nWombats dig long burrows with strong claws.\n")
        with open_store(data) as kb:
            Importer(kb, chunk_size=300).run([str(tmp_path / "note.md")])
        (tmp_path / "other.md").write_text("# Quokkas\n\nQuokkas smile.\n")
        (tmp_path / "other.md").chmod(0o644)
        tmp_path.chmod(0o755)
        if os.geteuid() == 0:
            for path in (data, *data.rglob("*")):
                shutil.chown(path, 65534, 65534)
        for path in data.rglob("*"):
            path.chmod(0o555 if path.is_dir() else 0o444)
        data.chmod(0o555)
        before = sorted((p.name, p.read_bytes()) for p in data.rglob("*") if p.is_file())
        env = {**os.environ, "HOME": str(data), "PYTHONPATH": str(REPO)}

        def verb(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(as_a_user([sys.executable, "-m", "tinyrag_desktop", "kb", *args,
                                             "--data-dir", str(data)]),
                                  env=env, capture_output=True, text=True, timeout=60)

        found = verb("search", "wombat burrows", "--k", "1")
        assert found.returncode == 0 and "strong claws" in found.stdout, found.stderr
        listed = verb("list")
        assert listed.returncode == 0 and "Wombats" in listed.stdout, listed.stderr
        added = verb("add", str(tmp_path / "other.md"))
        assert "Traceback" not in added.stderr
        assert "in a folder you cannot write to" in added.stderr and added.stderr.count("failed:") == 1
        assert sorted((p.name, p.read_bytes()) for p in data.rglob("*") if p.is_file()) == before
    finally:
        for path in (data, *data.rglob("*")):
            path.chmod(0o755)
        shutil.rmtree(data, ignore_errors=True)
