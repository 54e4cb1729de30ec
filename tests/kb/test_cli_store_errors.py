"""The ``kb`` verbs on a knowledge base SQLite cannot use as it is: damaged, locked, read-only, a full disk.

Each says what happened and what to do in a sentence, not in SQLite's words alone, and exits with 1.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.permissions import as_a_user
from tests.kb.cli_run import run_main
from tests.kb.damage import HOW, damage as damage_database
from tinyrag_desktop.kb import Chunk, DiskFull, Importer, StoreError, open_store
from tinyrag_desktop.kb import store_file

REPO = Path(__file__).resolve().parents[2]




@pytest.fixture
def data(tmp_path: Path) -> Path:
    (tmp_path / "note.md").write_text("# Wombats\n\nWombats dig long burrows with strong claws.\n" * 40)
    data = tmp_path / "data"
    with open_store(data) as kb:
        Importer(kb, chunk_size=300).run([str(tmp_path / "note.md")])
    return data


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("damage", HOW)
@pytest.mark.parametrize("verb", [("list",), ("search", "wombats"), ("add", "NOTE"), ("remove", "1")])
def test_a_damaged_knowledge_base_is_said_to_be_damaged_and_left_alone(data, capsys, damage, verb):
    db = data / "knowledge.db"
    damage_database(db, damage)
    before = _digest(db)
    args = [str(data.parent / "note.md") if word == "NOTE" else word for word in verb]
    code, out, err = run_main(capsys, *args, "--data-dir", str(data))
    assert code == 1
    assert "Traceback" not in err
    assert err.startswith(f"error: The knowledge base {db} cannot be"), err
    assert "is damaged or is not a database" in err and "move it elsewhere" in err, err
    assert _digest(db) == before


def test_a_knowledge_base_another_program_is_writing_says_so(data):
    holder = sqlite3.connect(data / "knowledge.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with open_store(data) as kb:
            kb.conn.execute("PRAGMA busy_timeout = 0")  # the store waits 30 s; the words are what is tested
            with pytest.raises(StoreError) as failure:
                kb.remove_source(1)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    message = str(failure.value)
    assert message.startswith("Could not remove source 1: another program is writing to the knowledge base")
    assert "Try again when it is done" in message and "locked" not in message


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_a_read_only_knowledge_base_file_says_to_make_it_writable(tmp_path):
    data = Path(tempfile.mkdtemp(prefix="tinyrag-kb-rofile-"))  # outside pytest's root-only folder
    try:
        (tmp_path / "note.md").write_text("# Note\n\nSomething worth keeping.\n", encoding="utf-8")
        with open_store(data) as kb:
            Importer(kb, chunk_size=300).run([str(tmp_path / "note.md")])
        if os.geteuid() == 0:
            for path in (data, *data.rglob("*")):
                shutil.chown(path, 65534, 65534)
        (data / "knowledge.db").chmod(0o444)  # the folder stays writable: only the file is read-only
        env = {**os.environ, "HOME": str(data), "PYTHONPATH": str(REPO)}
        done = subprocess.run(as_a_user([sys.executable, "-m", "tinyrag_desktop", "kb", "remove", "1",
                                          "--data-dir", str(data)]),
                              env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 1 and "Traceback" not in done.stderr
        assert done.stderr.startswith("error: Could not remove source 1: the knowledge base file "), done.stderr
        assert "is read-only. Make it writable" in done.stderr, done.stderr
    finally:
        shutil.rmtree(data, ignore_errors=True)


def _fill_up(kb) -> None:
    """What a full disk looks like to SQLite (SQLITE_FULL), with the real disk's room untouched."""
    kb.conn.execute(f"PRAGMA max_page_count = {kb.conn.execute('PRAGMA page_count').fetchone()[0] + 2}")


def _save_big(kb) -> None:
    kb.replace_source(title="Big", location="/big.md", type="markdown", size=10**6, content_hash="b",
                      chunks=[Chunk("Big", f"words {n} " * 200) for n in range(200)], load_id="x")


def _other_disk(than: Path) -> Path:
    for folder in ("/dev/shm", "/run/user", "/var/tmp"):
        if os.path.isdir(folder) and os.access(folder, os.W_OK) and os.stat(folder).st_dev != os.stat(than).st_dev:
            return Path(folder)
    pytest.skip("no writable folder on another disk than the test's own for SQLite's temporary files")


def test_a_full_disk_names_the_temporary_folder_too_when_it_is_elsewhere(data, monkeypatch):
    # SQLITE_FULL may come from SQLite's temporary files (a big sort, a statement journal) on another disk:
    # with room left on the knowledge base's disk, both are named, not only the knowledge base's
    temp = _other_disk(data)
    monkeypatch.setenv("SQLITE_TMPDIR", str(temp))
    with open_store(data) as kb:
        _fill_up(kb)
        with pytest.raises(DiskFull) as failure:
            _save_big(kb)
    message = str(failure.value)
    assert f"the disk it is on ({data}) is full, or the one holding SQLite's temporary files ({temp}) is" in message
    assert "SQLITE_TMPDIR" in message


def test_a_full_temporary_folder_is_not_blamed_on_the_knowledge_base(data, monkeypatch):
    temp = _other_disk(data)
    monkeypatch.setenv("SQLITE_TMPDIR", str(temp))
    # the temporary folder's disk has no room left, the knowledge base's has plenty
    monkeypatch.setattr(store_file, "_free_bytes", lambda folder: 0 if Path(folder) == temp else 10**12)
    with open_store(data) as kb:
        _fill_up(kb)
        with pytest.raises(DiskFull) as failure:
            _save_big(kb)
    message = str(failure.value)
    assert f"the disk holding SQLite's temporary files ({temp}) is full" in message
    assert "the knowledge base's own disk has room" in message and "the disk it is on" not in message


def test_a_full_disk_where_the_temporary_files_are_too_blames_that_disk(data, monkeypatch):
    monkeypatch.setenv("SQLITE_TMPDIR", str(data))  # the same disk: nothing else to suspect
    with open_store(data) as kb:
        _fill_up(kb)
        with pytest.raises(DiskFull) as failure:
            _save_big(kb)
    assert f"the disk it is on is full. Free some space there ({data})" in str(failure.value)


def test_kb_add_s_failures_go_to_the_data_folder_s_log_too(data, capsys):
    # the README: "The details of every failure … go to logs/tinyrag.log": kb add wrote none of its own there
    code, out, err = run_main(capsys, "add", str(data.parent / "missing.md"), "--data-dir", str(data))
    assert code == 1
    log = (data / "logs" / "tinyrag.log").read_text(encoding="utf-8")
    assert f"kb add: {data.parent / 'missing.md'} failed: no such file or folder" in log
    (data / "knowledge.db").write_bytes(b"not a database, " * 4096)
    code, out, err = run_main(capsys, "add", str(data.parent / "note.md"), "--data-dir", str(data))
    assert code == 1 and "Traceback" not in err
    log = (data / "logs" / "tinyrag.log").read_text(encoding="utf-8")
    assert "is damaged or is not a database" in log and "sqlite3.DatabaseError: file is not a database" in log


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_a_first_import_into_a_folder_you_cannot_write_says_so(tmp_path):
    # was "cannot be opened: unable to open database file."
    data = Path(tempfile.mkdtemp(prefix="tinyrag-kb-rodir-"))  # outside pytest's root-only folder
    try:
        note = data / "note.md"
        note.write_text("# Note\n\nSomething worth keeping.\n", encoding="utf-8")
        (data / "logs").mkdir()
        if os.geteuid() == 0:
            for path in (data, *data.rglob("*")):
                shutil.chown(path, 0, 0)
        for path in (data, data / "logs"):
            path.chmod(0o755)  # readable by everyone, writable by its owner only: not by the user below
        env = {**os.environ, "HOME": str(data), "PYTHONPATH": str(REPO)}
        done = subprocess.run(as_a_user([sys.executable, "-m", "tinyrag_desktop", "kb", "add", str(note),
                                          "--data-dir", str(data)]),
                              env=env, capture_output=True, text=True, timeout=60)
        if os.geteuid() != 0 and os.access(data, os.W_OK):
            pytest.skip("this user can write the folder")
        assert done.returncode == 1 and "Traceback" not in done.stderr
        assert done.stderr.strip().endswith(f"cannot be opened: the folder {data} cannot be written to, so no "
                                            "knowledge base can be made in it. Use another data folder "
                                            "(--data-dir), or make the folder writable for you."), done.stderr
    finally:
        shutil.rmtree(data, ignore_errors=True)


# No file may grow (a file-size limit: EFBIG, where a full disk gives ENOSPC), and the disk has no room
# left: SQLite cannot make the -shm file a WAL database is read through ("disk I/O error").
_SEARCH_ON_A_FULL_DISK = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
from tinyrag_desktop.kb import store_file
store_file._free_bytes = lambda folder: 0
from tinyrag_desktop.cli import main
resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))
sys.exit(main(["kb", "search", "wombats burrows", "--k", "1", "--data-dir", sys.argv[1]]))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="file-size limits (RLIMIT_FSIZE) are POSIX")
def test_a_knowledge_base_on_a_full_disk_can_still_be_searched(data):
    # It said "cannot be read: the disk it is on is full": a search writes nothing, and needs no room.
    before = _digest(data / "knowledge.db")
    done = subprocess.run([sys.executable, "-c", _SEARCH_ON_A_FULL_DISK, str(data)], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "Wombats dig long burrows" in done.stdout, done.stdout
    assert _digest(data / "knowledge.db") == before
