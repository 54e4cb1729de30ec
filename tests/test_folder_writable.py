"""folder_writable: on Windows os.access says every folder can be written (it looks only at the read-only
attribute, which Windows ignores on folders), so there a file is made and removed to know."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.permissions import as_a_user
from tinyrag_desktop import files
from tinyrag_desktop.files import folder_writable
from tinyrag_desktop.kb import open_store

REPO = Path(__file__).resolve().parents[1]

# Run as a user file permissions hold for: the probe taken as on Windows, os.access answering as it does there.
_AS_ON_WINDOWS = """
import os, sys
from tinyrag_desktop import files
from tinyrag_desktop.kb.store import KnowledgeBase
files._PROBE_FOLDERS = True
os.access = lambda path, mode, **kw: True
read_only, writable = sys.argv[1:3]
with KnowledgeBase(os.path.join(read_only, "knowledge.db")) as kb:
    print(files.folder_writable(read_only), files.folder_writable(writable), kb.readonly)
"""


@pytest.fixture
def as_on_windows(monkeypatch):
    """The probe taken, with os.access saying yes for every folder, as on Windows."""
    monkeypatch.setattr(files, "_PROBE_FOLDERS", True)
    monkeypatch.setattr(files, "_PROBED", {})
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: True)


def test_the_probe_says_yes_for_a_folder_it_can_write_and_leaves_nothing(tmp_path, as_on_windows):
    assert folder_writable(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_the_probe_says_no_when_no_file_can_be_made_there(tmp_path, as_on_windows, monkeypatch):
    tried = []
    real_open = os.open

    def refused(path, flags, mode=0o777, **kw):
        if Path(path).parent == tmp_path:
            tried.append(path)
            raise PermissionError(13, "Access is denied", path)
        return real_open(path, flags, mode, **kw)

    monkeypatch.setattr(os, "open", refused)
    assert not folder_writable(tmp_path)
    assert len(tried) == 1  # the probe decided, not os.access, which said yes
    assert list(tmp_path.iterdir()) == []


def test_the_probe_says_no_for_a_missing_folder_or_a_file(tmp_path, as_on_windows):
    (tmp_path / "a file").write_text("x")
    assert not folder_writable(tmp_path / "gone")
    assert not folder_writable(tmp_path / "a file")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_a_read_only_folder_is_found_out_by_the_probe_and_its_knowledge_base_opened_to_read():
    # root writes anyway: as in tests/permissions.py, the probe runs as nobody then
    read_only = Path(tempfile.mkdtemp(prefix="tinyrag-probe-ro-"))  # outside pytest's root-only folder
    writable = Path(tempfile.mkdtemp(prefix="tinyrag-probe-rw-"))
    try:
        open_store(read_only).close()
        if os.geteuid() == 0:
            for path in (read_only, *read_only.iterdir(), writable):
                shutil.chown(path, 65534, 65534)
        read_only.chmod(0o555)
        before = sorted(p.name for p in read_only.iterdir())
        done = subprocess.run(as_a_user([sys.executable, "-c", _AS_ON_WINDOWS, str(read_only), str(writable)]),
                              env={**os.environ, "PYTHONPATH": str(REPO), "HOME": str(writable)}, cwd="/",
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == ["False", "True", "True"]  # read-only, writable, opened to read
        assert sorted(p.name for p in read_only.iterdir()) == before
        assert list(writable.iterdir()) == []  # the probe's file removed
    finally:
        read_only.chmod(0o755)
        shutil.rmtree(read_only, ignore_errors=True)
        shutil.rmtree(writable, ignore_errors=True)


def test_a_probe_is_kept_a_little_not_made_again_at_every_look(as_on_windows, tmp_path, monkeypatch):
    # Each search and each list of the sources looks at the knowledge base's folder: a file made every time.
    made = []
    new_beside = files._new_beside
    monkeypatch.setattr(files, "_new_beside", lambda *args: (made.append(1), new_beside(*args))[1])
    clock = [1000.0]
    monkeypatch.setattr(files.time, "monotonic", lambda: clock[0])
    assert folder_writable(tmp_path) and folder_writable(tmp_path)
    assert len(made) == 1
    clock[0] += files.PROBE_KEPT_S + 1  # a while later: looked at again (it may have been made read-only)
    assert folder_writable(tmp_path)
    assert len(made) == 2
