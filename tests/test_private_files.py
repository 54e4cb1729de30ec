"""The data folder the app makes, and the databases and log it makes in it, are for the user alone (0700,
0600) whatever the umask; a folder the user chose that exists keeps its permissions."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tinyrag_desktop import kb
from tinyrag_desktop.chats import ChatStore
from tinyrag_desktop.paths import MODES_CHECKED, tighten_old_modes
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


def _made_by_an_older_version(data: Path) -> None:
    """A data folder as versions before the app made its files private left it, with a umask of 022: the
    folder 0755, the databases and the log 0644."""
    old = os.umask(0o022)
    try:
        ChatStore(data).close()  # the real databases, with the modes an older version gave them
        kb.open_store(data).close()
        data.chmod(0o755)
        for db in ("chats.sqlite3", "knowledge.db"):
            (data / db).chmod(0o644)
        (data / "logs").mkdir()
        for log in ("tinyrag.log", "tinyrag.log.1"):
            (data / "logs" / log).write_text("2026-01-01 INFO old version\n", encoding="utf-8")
        for name in ("window.ini", "drafts.json", ".guide-imported"):
            (data / name).write_text("{}\n", encoding="utf-8")
        (data / "work").mkdir()
        (data / "work" / "out.txt").write_text("what a shell command wrote\n", encoding="utf-8")
    finally:
        os.umask(old)
    assert oct(mode(data)) == "0o755" and oct(mode(data / "chats.sqlite3")) == "0o644"


def test_an_older_versions_data_folder_is_made_the_users_alone_once(tmp_path: Path) -> None:
    data = tmp_path / "data"
    _made_by_an_older_version(data)
    note = tmp_path / "note.txt"
    note.write_text("morning coffee\n", encoding="utf-8")
    kb_add(note, data, 0o022)  # the new version's first start in it
    assert oct(mode(data)) == "0o700"
    for folder in ("logs", "work"):
        assert oct(mode(data / folder)) == "0o700", folder
    for own in ("chats.sqlite3", "knowledge.db", "logs/tinyrag.log", "logs/tinyrag.log.1", "window.ini",
                "drafts.json", ".guide-imported"):
        assert oct(mode(data / own)) == "0o600", own
    assert oct(mode(data / "work" / "out.txt")) == "0o644"  # a command's, not the app's
    log = (data / "logs" / "tinyrag.log").read_text(encoding="utf-8")
    assert log.count("readable by this user alone") == 1
    # once: a mode the user gives one of them afterwards is theirs
    (data / "chats.sqlite3").chmod(0o644)
    kb_add(note, data, 0o022)
    assert oct(mode(data / "chats.sqlite3")) == "0o644"
    assert (data / "logs" / "tinyrag.log").read_text(encoding="utf-8").count("readable by this user alone") == 1


def test_modes_the_user_chose_and_the_users_own_files_are_left(tmp_path: Path) -> None:
    data = tmp_path / "notes"
    _made_by_an_older_version(data)
    (data / "knowledge.db").chmod(0o640)
    (data / "logs").chmod(0o750)
    (data / "my-notes.md").write_text("mine\n", encoding="utf-8")
    (data / "my-notes.md").chmod(0o644)
    outside = tmp_path / "elsewhere.ini"
    outside.write_text("[x]\n", encoding="utf-8")
    outside.chmod(0o644)
    (data / "window.ini").unlink()
    (data / "window.ini").symlink_to(outside)  # not followed
    changed = tighten_old_modes(data)
    assert sorted(changed) == [".guide-imported", "chats.sqlite3", "drafts.json", "logs/tinyrag.log",
                               "logs/tinyrag.log.1", "work"]
    assert oct(mode(data)) == "0o755"  # a folder of the user's own files as well
    assert oct(mode(data / "knowledge.db")) == "0o640" and oct(mode(data / "logs")) == "0o750"
    assert oct(mode(data / "my-notes.md")) == "0o644" and oct(mode(outside)) == "0o644"
    assert oct(mode(data / "chats.sqlite3")) == "0o600"
    assert tighten_old_modes(data) == []  # once


def test_a_folder_of_the_new_versions_files_is_looked_at_once_and_left(tmp_path: Path, umask) -> None:
    chosen = tmp_path / "chosen"
    chosen.mkdir()
    chosen.chmod(0o755)
    umask(0o022)
    ChatStore(chosen).close()  # made by this version: 0600, in a folder the user chose
    (chosen / "logs").mkdir(mode=0o700)
    assert tighten_old_modes(chosen) == []
    assert oct(mode(chosen)) == "0o755" and (chosen / MODES_CHECKED).exists()
