"""The knowledge base on a full or nearly full disk: its sources are still listed (``kb list``, the panel), with
a note that nothing can be saved; compacting is not started without room for it, and the removal before it
stands; a disk that fails with room left is said in words, not as SQLite's "disk I/O error".

A full disk is made with a file-size limit (every write that grows a file fails, as on a full disk; SQLite
says "disk I/O error" as it cannot make its -shm file) and store_file's ``_free_bytes`` saying no room is left.
"""

from __future__ import annotations

import hashlib
import os
import signal
import sqlite3
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from tinyrag_desktop.kb import compact as compact_module, store_file
from tinyrag_desktop.ui.kb_summary import StatusLabel

from .cli_run import run_main
from .test_removed_leave_no_trace import _fill, small_threshold  # noqa: F401  (a fixture)

REPO = Path(__file__).resolve().parents[2]
POSIX_LIMITS = pytest.mark.skipif(sys.platform == "win32", reason="file-size limits (RLIMIT_FSIZE) are POSIX")
SAID_ONCE = "imports and deletes cannot be saved until some space is freed there"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# The verb run with no file allowed to grow and no room said to be left (``room``: what _free_bytes says).
_ON_A_FULL_DISK = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
from tinyrag_desktop.kb import store_file
store_file._free_bytes = lambda folder: int(sys.argv[1])
from tinyrag_desktop.cli import main
resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))
sys.exit(main(["kb", *sys.argv[3:], "--data-dir", sys.argv[2]]))
"""


def _run_on_a_full_disk(data: Path, *verb: str, room: int = 0) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", _ON_A_FULL_DISK, str(room), str(data), *verb], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(REPO)})


@POSIX_LIMITS
@pytest.mark.parametrize("jsonl", [False, True])
def test_kb_list_on_a_full_disk_lists_the_sources_and_says_once_that_nothing_can_be_saved(tmp_path, jsonl):
    # It said "cannot be opened: the disk it is on is full": listing writes nothing, yet opened the store to write.
    data = tmp_path / "data"
    _fill(data, tmp_path, 3)
    before = _digest(data / "knowledge.db")
    done = _run_on_a_full_disk(data, "list", *(["--jsonl"] if jsonl else []))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert [f"note {n}" in done.stdout for n in range(3)] == [True] * 3, done.stdout
    assert done.stderr.count(SAID_ONCE) == 1, done.stderr
    assert f"note: The disk the knowledge base is on is full, so {SAID_ONCE} ({data})." in done.stderr
    assert "cannot be opened" not in done.stderr and "disk I/O error" not in done.stderr
    assert _digest(data / "knowledge.db") == before


@POSIX_LIMITS
@pytest.mark.parametrize("verb", [("remove", "1"), ("add", "NOTE")])
@pytest.mark.parametrize("room", [0, 10**12])
def test_a_full_disk_or_one_that_fails_with_room_left_is_said_in_words(tmp_path, verb, room):
    # Full: it said the knowledge base "cannot be opened", which kb list and the panel now do on that disk.
    # With room left (a disk failing, unplugged, a share gone): SQLite's "disk I/O error." was all it said.
    data = tmp_path / "data"
    _fill(data, tmp_path, 1)
    note = tmp_path / "note.md"
    note.write_text("# Note\n\nWombats dig.\n")
    done = _run_on_a_full_disk(data, *(str(note) if word == "NOTE" else word for word in verb), room=room)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    why = (f"the disk it is on is full. Free some space there ({data}), then try again." if room == 0 else
           "the disk it is on could not read or write the file (SQLite says: disk I/O error). Check that the disk "
           f"holding {data} is still there and working, then try again.")
    assert f"error: The knowledge base {data / 'knowledge.db'} cannot be {'written to' if room == 0 else 'opened'}: " \
           f"{why}" in done.stderr, done.stderr
    assert "disk I/O error." not in done.stderr


@contextmanager
def _full_disk(monkeypatch):
    """Within the block, as on a full disk: no file may grow (EFBIG where a full disk gives ENOSPC, SIGXFSZ
    ignored) and store_file sees no room left. The limit is this process's: set only around what is tested."""
    import resource  # POSIX only

    monkeypatch.setattr(store_file, "_free_bytes", lambda folder: 0)
    was = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, was)
        monkeypatch.undo()


@POSIX_LIMITS
def test_the_panel_on_a_full_disk_lists_the_sources_with_a_notice_and_delete_says_why_nothing_went(
        qtbot, monkeypatch, tmp_path):
    from tinyrag_desktop.settings import defaults
    from tinyrag_desktop.ui.kb_panel import KnowledgePanel

    data = tmp_path / "data"
    _fill(data, tmp_path, 2)
    panel = None
    try:
        with _full_disk(monkeypatch):  # the window opened on a disk already full (its -shm file cannot be made)
            panel = KnowledgePanel(data, lambda: defaults())
            qtbot.add_widget(panel)
            panel.refresh()
            # the list, not "cannot be opened" in its place
            assert panel.source_count() == 2
            assert panel.sources_view.empty_text != panel.sources_view.UNREADABLE_TEXT
            notice = panel.status_label.text()
            assert notice.startswith("The disk the knowledge base is on is full") and SAID_ONCE in notice, notice
            panel.sources_view.selectAll()
            with qtbot.waitSignal(panel.deleteFinished, timeout=60_000) as deleted:
                assert panel.delete_selected(confirm=False) == 2
            assert deleted.args == [0] and panel.source_count() == 2
            said = panel.status_label.text()
            assert said.startswith("Nothing was removed: ") and "cannot be written to: the disk it is on is full" \
                in said, said
            assert "disk I/O error" not in said
        panel.summary.dismiss()  # the Delete's message put away: the disk is still full, as the line says again
        assert panel.status_label.text() == notice
        panel.refresh()  # space freed: the notice goes, the usual drop hint is back
        assert panel.source_count() == 2 and panel.status_label.text() == StatusLabel.IDLE
    finally:
        if panel is not None:
            panel.shutdown()


def _whole(data: Path) -> tuple[list[str], int]:
    with sqlite3.connect(data / "knowledge.db") as conn:
        return ([row[0] for row in conn.execute("PRAGMA integrity_check")],
                conn.execute("SELECT count(*) FROM sources").fetchone()[0])


def test_kb_remove_with_no_room_to_compact_removes_and_says_what_compacting_needs(tmp_path, capsys, monkeypatch,
                                                                                 small_threshold):
    data = tmp_path / "data"
    ids = _fill(data, tmp_path, 60)
    temp = tmp_path / "temp"  # SQLite's temporary files on the same disk as the data folder
    temp.mkdir()
    monkeypatch.setenv("SQLITE_TMPDIR", str(temp))
    monkeypatch.setattr(store_file, "_free_bytes", lambda folder: 2**19)  # 0.5 MB free: less than needed
    before = (data / "knowledge.db").stat().st_size
    code, out, err = run_main(capsys, "--data-dir", str(data), "remove", *map(str, ids[:50]))
    assert code == 0 and out == "50 sources removed\n", (out, err)
    with sqlite3.connect(data / "knowledge.db") as conn:  # what it holds and a quarter more, twice: one disk
        held = conn.execute("SELECT (page_count - freelist_count) * page_size FROM pragma_page_count, "
                            "pragma_freelist_count, pragma_page_size").fetchone()[0]
    size = store_file.megabytes(held * 5 // 4 * 2)
    assert err == (f"note: knowledge.db was not compacted to give the space back to the disk: it needs about {size} "
                   f"free on the disk of its folder ({data}, and SQLite's temporary files in {temp} on the same "
                   "disk), where 0.5 MB are free. A later removal compacts it once there is room.\n"), err
    assert (data / "knowledge.db").stat().st_size >= before and _whole(data) == (["ok"], 10)
    monkeypatch.setattr(store_file, "_free_bytes", lambda folder: 10**12)  # space freed: the next removal compacts
    code, out, err = run_main(capsys, "--data-dir", str(data), "remove", str(ids[50]))
    assert out.startswith("1 source removed\nknowledge.db compacted from ") and "not compacted" not in err
    assert (data / "knowledge.db").stat().st_size < before / 3 and _whole(data) == (["ok"], 9)


def test_a_full_temporary_folder_on_another_disk_is_named_with_what_it_needs(tmp_path, capsys, monkeypatch,
                                                                             small_threshold):
    data = tmp_path / "data"
    ids = _fill(data, tmp_path, 60)
    temp = next((Path(f) for f in ("/dev/shm", "/run/user", "/var/tmp") if os.path.isdir(f)
                 and os.access(f, os.W_OK) and os.stat(f).st_dev != os.stat(data).st_dev), None)
    if temp is None:
        pytest.skip("no writable folder on another disk than the test's own for SQLite's temporary files")
    monkeypatch.setenv("SQLITE_TMPDIR", str(temp))
    monkeypatch.setattr(store_file, "_free_bytes", lambda folder: 2**20 if Path(folder) == temp else 10**12)
    code, out, err = run_main(capsys, "--data-dir", str(data), "remove", *map(str, ids[:50]))
    assert code == 0 and out == "50 sources removed\n", (out, err)
    assert f"on the disk of its folder ({data}; " in err and f"free) and as much on the disk of SQLite's temporary " \
           f"files ({temp}; 1.0 MB free). A later removal compacts it once there is room.\n" in err, err
    assert _whole(data) == (["ok"], 10)


def test_a_disk_filling_while_the_panel_compacts_leaves_the_delete_done_and_says_so(qtbot, panel, tmp_path,
                                                                                    monkeypatch, small_threshold):
    ids = _fill(panel.data_dir, tmp_path, 60)

    def fills_up(conn):  # room when it was asked, none left midway: SQLite's own SQLITE_FULL
        scratch = sqlite3.connect(":memory:")
        scratch.execute("CREATE TABLE t(x)")
        scratch.execute(f"PRAGMA max_page_count = {scratch.execute('PRAGMA page_count').fetchone()[0]}")
        scratch.execute("INSERT INTO t VALUES(zeroblob(100000))")

    monkeypatch.setattr(compact_module, "compact", fills_up)
    monkeypatch.setattr(store_file, "_free_bytes", lambda folder: 10**12)
    panel.refresh()
    panel.sources_view.selectAll()
    with qtbot.waitSignal(panel.deleteFinished, timeout=60_000) as deleted:
        assert panel.delete_selected(confirm=False) == 60
    assert deleted.args == [60] and panel.source_count() == 0
    said = panel.status_label.text()
    assert said.startswith("60 sources removed; knowledge.db was not compacted to give the space back to the disk: "
                           "a disk ran out of room meanwhile (it needs about "), said
    assert _whole(panel.data_dir) == (["ok"], 0) and len(ids) == 60
