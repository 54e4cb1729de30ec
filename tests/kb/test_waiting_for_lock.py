"""Another program holding the knowledge base's write lock: the import says it is waiting for it after a
moment, in kb add's progress and the panel's, and gives up after store.BUSY_TIMEOUT (kb add sat silent
on "[1/3] …" for 15 s: three waits of 5 s, one to set the indexes' merging, one to store, one to set it back)."""

from __future__ import annotations

import os
import select
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import closing
from pathlib import Path

import pytest

from tinyrag_desktop.kb import Importer, open_store, store, store_schema
from tinyrag_desktop.kb.errors import StoreLocked
from tinyrag_desktop.kb.import_report import WAITING

from .cli_run import run_main

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def quick_waits(monkeypatch):
    """The waits of a real lock, shortened: said after 0.7 s (more than the indexes' merging waits, which
    then goes without), given up after 2 s."""
    monkeypatch.setattr(store_schema, "WAIT_SAID", 0.7)
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


def test_a_stop_at_the_last_source_says_no_count_of_the_rest(tmp_path, data_dir, capsys, quick_waits):
    note = tmp_path / "note.md"
    note.write_text("# Note\n\nThe heron fishes at dawn.\n", encoding="utf-8")
    with closing(_locked(data_dir)):
        code, out, _ = run_main(capsys, "--data-dir", str(data_dir), "add", str(note))
    assert code == 1
    # "…: 0 more not imported" said nothing
    assert out.strip().endswith("(0 chunks stored) — stopped, another program is writing to the knowledge base")


def test_the_wait_ends_when_the_other_program_lets_go(tmp_path, data_dir, monkeypatch):
    monkeypatch.setattr(store_schema, "WAIT_SAID", 0.2)
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


# kb add with every wait made ten minutes long: only a wait that looks up for Ctrl+C ends before that.
_LONG_WAITS = ("import sys; from tinyrag_desktop.kb import store; store.BUSY_TIMEOUT = 600.0; "
               "from tinyrag_desktop.__main__ import main; sys.exit(main(sys.argv[1:]))")


def _said_within(proc: subprocess.Popen[str], words: str, seconds: float = 60.0) -> list[str]:
    """The lines ``proc`` wrote to stderr until one ends with ``words`` (a guard against a hang, not a timing)."""
    lines: list[str] = []
    deadline = time.monotonic() + seconds
    while not (lines and lines[-1].endswith(words)):
        ready, _, _ = select.select([proc.stderr], [], [], max(0.0, deadline - time.monotonic()))
        line = proc.stderr.readline() if ready else ""
        assert line, f"never said {words!r}: {lines}"
        lines.append(line.rstrip("\n"))
    return lines


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT and select on a pipe")
def test_ctrl_c_stops_kb_add_while_it_waits_for_another_programs_lock(tmp_path, data_dir):
    # SQLite's wait for the lock does not return to Python: Ctrl+C acted only when it was over (5 s later;
    # here, with the waits ten minutes long, it would not act at all). kb remove waits in the same place.
    note = tmp_path / "note.md"
    note.write_text("# Note\n\nThe heron fishes at dawn.\n", encoding="utf-8")
    with closing(_locked(data_dir)):
        proc = subprocess.Popen(
            [sys.executable, "-c", _LONG_WAITS, "kb", "add", str(note), "--data-dir", str(data_dir)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO), "PYTHONIOENCODING": "utf-8"},
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as a terminal's foreground job
        try:
            _said_within(proc, WAITING)  # the store waits for the lock
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    assert proc.returncode == 130, err
    assert "interrupted after 0 of 1 sources stored" in err and out == ""
    with open_store(data_dir) as kb:
        assert kb.sources() == []


# Another tinyRAG import, kb add of one large file, storing it: the write lock is held until a line comes
# on stdin (the file's 75,000 passages stored, 10 s here).
_IMPORTING = """
import sys
from tinyrag_desktop.kb import store
original = store.KnowledgeBase.replace_source
def storing(self, **source):
    stored = original(self, **source)
    print("storing", flush=True)
    sys.stdin.readline()
    return stored
store.KnowledgeBase.replace_source = storing
from tinyrag_desktop.__main__ import main
sys.exit(main(["kb", "add", sys.argv[1], "--data-dir", sys.argv[2]]))
"""


def test_a_write_waits_on_while_another_tinyrag_import_stores_a_large_file(tmp_path, data_dir, monkeypatch):
    # Storing one 60 MB file took 10 s, and the window's import beside that kb add (or another kb add) gave
    # up after 5 s, "another program is writing", on a lock that was about to be let go.
    monkeypatch.setattr(store, "BUSY_TIMEOUT", 0.3)
    monkeypatch.setattr(store_schema, "WAIT_SAID", 0.6)  # said when the usual wait is over
    big = tmp_path / "big.log"
    big.write_text("2024-01-01 12:00 started\n", encoding="utf-8")
    said: list[bool] = []
    with subprocess.Popen([sys.executable, "-c", _IMPORTING, str(big), str(data_dir)], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=REPO,
                          env={**os.environ, "PYTHONPATH": str(REPO)}) as other:

        def on_wait(waiting: bool) -> None:
            said.append(waiting)
            if waiting:  # past the usual wait: the other import has stored its file
                other.stdin.write("stored\n")
                other.stdin.flush()

        try:
            assert other.stdout.readline() == "storing\n"
            with open_store(data_dir) as kb:
                kb.on_wait = on_wait
                kb.replace_source(title="Note", location=str(tmp_path / "note.md"), type="markdown", size=1,
                                  content_hash="h", chunks=[], load_id="x")
                assert {s.location for s in kb.sources()} == {str(tmp_path / "note.md"), str(big)}
        finally:
            other.stdin.close()
            other.wait(60)
    assert said == [True, False] and other.returncode == 0
    assert not list(data_dir.glob("import-*.unfinished"))


def test_cancel_ends_the_wait_for_another_tinyrag_import(tmp_path, data_dir, monkeypatch):
    # That wait can be long: Cancel (and the window closing, which cancels) must not wait for it.
    monkeypatch.setattr(store, "BUSY_TIMEOUT", 0.3)
    monkeypatch.setattr(store_schema, "WAIT_SAID", 0.6)  # said when the usual wait is over
    big = tmp_path / "big.log"
    big.write_text("2024-01-01 12:00 started\n", encoding="utf-8")
    folder = _notes(tmp_path)
    cancel = threading.Event()

    def on_progress(progress) -> None:
        if progress.current == WAITING:  # past the usual wait: the user clicks Cancel
            cancel.set()

    with subprocess.Popen([sys.executable, "-c", _IMPORTING, str(big), str(data_dir)], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=REPO,
                          env={**os.environ, "PYTHONPATH": str(REPO)}) as other:
        try:
            assert other.stdout.readline() == "storing\n"
            with open_store(data_dir) as kb:
                report = Importer(kb, on_progress=on_progress, cancel=cancel).run([str(folder)])
        finally:
            other.stdin.close()
            other.wait(60)
    assert report.cancelled and not report.stopped and not report.failed, report.summary()
    assert not report.added and len(report.left_out) == 3


class _FailingDisk:
    """A connection whose BEGIN fails as a failing disk makes it fail, not for a lock."""

    def __init__(self) -> None:
        self.timeout = 5000

    def execute(self, sql: str):
        if sql == "BEGIN IMMEDIATE":
            raise sqlite3.OperationalError("disk I/O error")
        if sql.startswith("PRAGMA busy_timeout ="):
            self.timeout = int(sql.rsplit("=", 1)[1])
            return self
        return self  # PRAGMA busy_timeout

    def fetchone(self) -> tuple[int]:
        return (self.timeout,)


def test_a_disk_error_during_a_cancel_is_said_as_itself_not_as_the_cancel():
    # With Cancel set, a disk I/O error was said as "the import was cancelled": the failing disk went unsaid.
    with pytest.raises(sqlite3.OperationalError, match="disk I/O error"):
        store_schema._begin(_FailingDisk(), stop=lambda: True)


def test_a_paused_tinyrag_import_is_not_waited_for_and_is_named(tmp_path, data_dir, monkeypatch):
    # kb add stopped with Ctrl+Z while it stored a file holds the lock until it goes on: the window's import
    # beside it waited the whole OWN_IMPORT_WAIT (two minutes) for it, then blamed "another program".
    monkeypatch.setattr(store, "BUSY_TIMEOUT", 0.3)
    monkeypatch.setattr(store_schema, "OWN_IMPORT_WAIT", 30.0)  # old code: this long, then the wrong words
    big = tmp_path / "big.log"
    big.write_text("2024-01-01 12:00 started\n", encoding="utf-8")
    with subprocess.Popen([sys.executable, "-c", _IMPORTING, str(big), str(data_dir)], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=REPO,
                          env={**os.environ, "PYTHONPATH": str(REPO)}) as other:
        try:
            assert other.stdout.readline() == "storing\n"
            other.send_signal(signal.SIGSTOP)
            os.waitpid(other.pid, os.WUNTRACED)  # returns once it is stopped
            with open_store(data_dir) as kb, pytest.raises(StoreLocked) as error:
                kb.on_wait = lambda waiting: None  # a wait that is said, as an import's: it may go on
                kb.replace_source(title="Note", location=str(tmp_path / "note.md"), type="markdown", size=1,
                                  content_hash="h", chunks=[], load_id="x")
        finally:
            other.send_signal(signal.SIGCONT)
            other.stdin.write("stored\n")
            other.stdin.close()
            other.wait(60)
    assert f"another tinyRAG import into it (process {other.pid}) is paused" in str(error.value)
    assert "type fg in that terminal" in str(error.value)
    assert other.returncode == 0  # resumed, it finished its own import


def test_paused_reads_the_state_after_the_name_whatever_the_name_holds(tmp_path):
    from tinyrag_desktop.kb import unfinished

    assert unfinished.paused(os.getpid()) is False  # running
    assert unfinished.paused(2**22 + 12345) is False  # no such process
    # a name that reads "stopped" to a parser taking the first ")": the state is after the last one
    named = "import sys; open('/proc/self/comm', 'w').write('x) T (y'); print(flush=True); sys.stdin.read()"
    with subprocess.Popen([sys.executable, "-c", named], stdin=subprocess.PIPE, stdout=subprocess.PIPE) as child:
        try:
            child.stdout.readline()  # named
            assert Path(f"/proc/{child.pid}/stat").read_text().startswith(f"{child.pid} (x) T (y) ")
            assert unfinished.paused(child.pid) is False
            child.send_signal(signal.SIGSTOP)
            os.waitpid(child.pid, os.WUNTRACED)  # returns once it is stopped
            assert unfinished.paused(child.pid) is True
            child.send_signal(signal.SIGCONT)
            os.waitpid(child.pid, os.WCONTINUED)  # returns once it goes on
            assert unfinished.paused(child.pid) is False
        finally:
            child.stdin.close()
            child.wait(30)
