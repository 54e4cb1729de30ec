"""The data folder the app makes, and the databases and log it makes in it, are for the user alone (0700,
0600) whatever the umask; a folder the user chose that exists keeps its permissions."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tinyrag_desktop.chats import ChatStore
from tinyrag_desktop.tools.shell import work_dir

REPO = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONIOENCODING": "utf-8"}

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX permissions (Windows is left as it is)")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def kb_add(note: Path, data: Path, umask: int) -> None:
    proc = subprocess.run([sys.executable, "-m", "tinyrag_desktop", "kb", "add", str(note), "--data-dir", str(data)],
                          capture_output=True, text=True, env=ENV, cwd=REPO, timeout=120,
                          preexec_fn=lambda: os.umask(umask))
    assert proc.returncode == 0, proc.stderr


@pytest.fixture
def umask():
    """Set the process's umask for the test, and give the old one back."""
    old = os.umask(0o022)
    yield os.umask
    os.umask(old)


@pytest.mark.parametrize("mask", [0o000, 0o022])
def test_the_data_folder_made_by_kb_add_and_what_it_holds_are_the_users_alone(tmp_path: Path, mask: int) -> None:
    note = tmp_path / "note.txt"
    note.write_text("morning coffee\n", encoding="utf-8")
    data = tmp_path / "new" / "data"
    kb_add(note, data, mask)
    assert {p: oct(mode(p)) for p in (tmp_path / "new", data, data / "logs")} == \
        {p: "0o700" for p in (tmp_path / "new", data, data / "logs")}
    for made in (data / "knowledge.db", data / "logs" / "tinyrag.log"):
        assert oct(mode(made)) == "0o600", made


def test_a_folder_the_user_chose_keeps_its_permissions(tmp_path: Path) -> None:
    note = tmp_path / "note.txt"
    note.write_text("morning coffee\n", encoding="utf-8")
    chosen = tmp_path / "shared"
    chosen.mkdir()
    chosen.chmod(0o755)
    kb_add(note, chosen, 0o022)
    assert oct(mode(chosen)) == "0o755"
    assert oct(mode(chosen / "logs")) == "0o700"
    assert oct(mode(chosen / "knowledge.db")) == "0o600"


def test_the_chat_history_and_the_work_folder_are_the_users_alone(tmp_path: Path, umask) -> None:
    umask(0o000)
    store = ChatStore(tmp_path / "data")
    store.close()
    work = work_dir(tmp_path / "data")
    assert oct(mode(tmp_path / "data")) == "0o700"
    assert oct(mode(tmp_path / "data" / "chats.sqlite3")) == "0o600"
    assert oct(mode(work)) == "0o700"


def test_a_chat_history_that_exists_keeps_its_permissions(tmp_path: Path, umask) -> None:
    umask(0o022)
    ChatStore(tmp_path).close()
    (tmp_path / "chats.sqlite3").chmod(0o640)
    ChatStore(tmp_path).close()
    assert oct(mode(tmp_path / "chats.sqlite3")) == "0o640"
