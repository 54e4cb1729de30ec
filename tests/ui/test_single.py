"""One window per data folder: a second start brings the open window forward instead of opening another."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
from PySide6.QtCore import QLockFile

from tinyrag_desktop.ui.single import LOCK_NAME, WindowGuard, server_name


def test_a_second_claim_on_the_folder_fails_and_its_knock_raises_the_first(qapp, qtbot, tmp_path):
    first, second = WindowGuard(tmp_path), WindowGuard(tmp_path)
    try:
        assert first.claim()
        assert not second.claim()
        assert second.holder() == os.getpid()
        with qtbot.waitSignal(first.raiseRequested, timeout=5000):
            assert second.knock()
    finally:
        first.release()
        second.release()
    # closed: the folder is free again
    third = WindowGuard(tmp_path)
    try:
        assert third.claim()
    finally:
        third.release()


def test_other_folders_each_have_their_own_window(qapp, tmp_path):
    a, b = WindowGuard(tmp_path / "a"), WindowGuard(tmp_path / "b")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    try:
        assert a.claim() and b.claim()
    finally:
        a.release()
        b.release()
    assert server_name(tmp_path / "a") != server_name(tmp_path / "b")
    assert server_name(tmp_path / "a") == server_name(tmp_path / "x" / ".." / "a")  # however it is written


def test_the_lock_of_a_window_that_crashed_is_taken_over(qapp, tmp_path):
    # a process takes the lock and is killed, as a crash would end it: its lock file stays behind
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from PySide6.QtCore import QLockFile; lock = QLockFile(sys.argv[1]); "
         "lock.setStaleLockTime(0); assert lock.tryLock(0); print('locked', flush=True); time.sleep(60)",
         str(tmp_path / LOCK_NAME)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "locked"
        blocked = WindowGuard(tmp_path)
        assert not blocked.claim() and blocked.holder() == holder.pid  # alive: the folder is taken
        assert not blocked.knock(timeout_ms=300)  # and it has no window to answer
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()
    assert (tmp_path / LOCK_NAME).exists()
    guard = WindowGuard(tmp_path)
    try:
        assert guard.claim()
    finally:
        guard.release()


def test_starting_the_app_again_brings_the_open_window_forward(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONIOENCODING": "utf-8"}
    args = [sys.executable, "-m", "tinyrag_desktop", "--data-dir", str(tmp_path), "--base-url",
            "http://127.0.0.1:9/v1"]
    first = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / LOCK_NAME).exists():  # the first window has claimed the folder
            assert first.poll() is None
            assert time.monotonic() < deadline
            time.sleep(0.05)
        second = subprocess.run(args, env=env, capture_output=True, text=True, timeout=60)
        assert second.returncode == 0, second.stderr
        assert "already open" in second.stderr and "brought to the front" in second.stderr
        assert "Traceback" not in second.stderr
        assert first.poll() is None  # the first window is still open
        log = tmp_path / "logs" / "tinyrag.log"
        deadline = time.monotonic() + 30
        while "asked this window to come to the front" not in (log.read_text() if log.exists() else ""):
            assert time.monotonic() < deadline, log.read_text() if log.exists() else "no log"
            time.sleep(0.05)
        # a session ending (SIGTERM) closes the window as its Quit does: state saved, folder free again
        first.send_signal(signal.SIGTERM)
        assert first.wait(timeout=20) == 0
        assert (tmp_path / "window.ini").exists() and not (tmp_path / LOCK_NAME).exists()
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()


def _started(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    app = subprocess.Popen([sys.executable, "-m", "tinyrag_desktop", "--data-dir", str(tmp_path), "--base-url",
                            "http://127.0.0.1:9/v1"], env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (tmp_path / LOCK_NAME).exists():
        assert app.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    return app  # the window is being built, or is up: either way a signal now must close it cleanly


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_in_the_terminal_closes_the_window_cleanly(tmp_path, sig):
    # Sent as soon as the data folder is claimed, while the window is still being built: on a busy machine
    # Ctrl+C then raised inside Qt's calls, left "Stopped." and exit 130 with the window's state unsaved,
    # or crashed the process on its way out (exit -11).
    app = _started(tmp_path)
    try:
        app.send_signal(sig)
        assert app.wait(timeout=60) == 0
        _out, err = app.communicate()
        assert "Traceback" not in err and "KeyboardInterrupt" not in err
        assert (tmp_path / "window.ini").exists() and not (tmp_path / LOCK_NAME).exists()
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()


def test_a_garbled_or_empty_lock_file_does_not_keep_the_window_from_opening(qapp, tmp_path):
    # A power cut can leave window.lock empty, a damaged disk can leave anything in it: no window wrote
    # that, and no window answers on the folder's socket, so it must not count as an open window.
    for content in (b"", b"\x8f\x00garbage\xff" * 30, b"not a pid\n\n\n"):
        (tmp_path / LOCK_NAME).write_bytes(content)
        fresh = WindowGuard(tmp_path)
        assert not fresh.claim()  # just written: it may be a starting window's, not filled in yet
        old = time.time() - 60
        os.utime(tmp_path / LOCK_NAME, (old, old))
        guard = WindowGuard(tmp_path)
        try:
            assert guard.claim(), content
            assert guard.holder() == os.getpid()
        finally:
            guard.release()
        assert not (tmp_path / LOCK_NAME).exists()


_SLOW_FIRST = r"""
import sys, time
from pathlib import Path
from PySide6.QtCore import QCoreApplication, QLockFile, QTimer
from PySide6.QtNetwork import QLocalServer
from tinyrag_desktop.ui.single import LOCK_NAME, server_name

app = QCoreApplication([])
folder = Path(sys.argv[1])
lock = QLockFile(str(folder / LOCK_NAME))
lock.setStaleLockTime(0)
assert lock.tryLock(0)
print("locked", flush=True)
time.sleep(0.8)  # a window still starting: it holds the folder and does not listen yet
server = QLocalServer()
assert server.listen(server_name(folder))
got = []
server.newConnection.connect(lambda: got.append(server.nextPendingConnection()))
QTimer.singleShot(5000, app.quit)
app.exec()
"""


def test_a_second_start_waits_for_a_first_window_that_is_not_listening_yet(qapp, tmp_path):
    # Two copies started together: the second said the first "does not answer", as it was still starting.
    first = subprocess.Popen([sys.executable, "-c", _SLOW_FIRST, str(tmp_path)], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "QT_QPA_PLATFORM": "offscreen",
                                  "PYTHONPATH": os.pathsep.join(sys.path)})
    try:
        assert first.stdout.readline().strip() == "locked"
        second = WindowGuard(tmp_path)
        assert not second.claim()
        assert second.knock()
    finally:
        first.kill()
        first.communicate(timeout=10)


def _aged(path, seconds=60):
    old = time.time() - seconds
    os.utime(path, (old, old))


def test_a_copied_data_folder_opens_beside_the_window_on_the_original(qapp, tmp_path):
    # `cp -a data copy` with a window open on data: the copy's window.lock names that live window's process,
    # which is a window on the other folder. The copy said "already open ... and that window does not answer".
    original, copy = tmp_path / "data", tmp_path / "copy"
    original.mkdir()
    first = WindowGuard(original)
    try:
        assert first.claim()
        shutil.copytree(original, copy)  # copies the lock file with its time, as cp -a does
        assert (copy / LOCK_NAME).read_bytes() == (original / LOCK_NAME).read_bytes()
        guard = WindowGuard(copy)
        try:
            assert guard.claim()
            assert guard.holder() == os.getpid()
        finally:
            guard.release()
        assert first.holder() == os.getpid() and (original / LOCK_NAME).exists()  # the original's is its own
        again = WindowGuard(original)  # and it is still open
        try:
            assert not again.claim()
        finally:
            again.release()
    finally:
        first.release()


def _lock_naming(tmp_path, pid):
    """The lock file a crashed window on this machine would leave, naming ``pid`` (QLockFile's own lines)."""
    probe = QLockFile(str(tmp_path / "probe.lock"))
    assert probe.tryLock(0)
    lines = (tmp_path / "probe.lock").read_bytes().split(b"\n")
    probe.unlock()
    return b"\n".join([str(pid).encode(), *lines[1:]])


def test_a_crashed_windows_lock_whose_process_id_is_used_again_is_taken_over(qapp, tmp_path):
    # After a crash the lock's process id can be another program's, here a python process as the app's own
    # is: it has no window on this folder, so nothing listens on the folder's socket.
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (tmp_path / LOCK_NAME).write_bytes(_lock_naming(tmp_path, other.pid))
        fresh = WindowGuard(tmp_path)
        assert not fresh.claim() and fresh.holder() == other.pid  # just written: a starting window's, maybe
        _aged(tmp_path / LOCK_NAME)
        guard = WindowGuard(tmp_path)
        try:
            assert guard.claim()
            assert guard.holder() == os.getpid()
        finally:
            guard.release()
    finally:
        other.kill()
        other.wait()


_BUSY_WINDOW = r"""
import sys, time
from pathlib import Path
from PySide6.QtCore import QCoreApplication, QLockFile
from PySide6.QtNetwork import QLocalServer
from tinyrag_desktop.ui.single import LOCK_NAME, server_name

app = QCoreApplication([])
folder = Path(sys.argv[1])
lock = QLockFile(str(folder / LOCK_NAME))
lock.setStaleLockTime(0)
assert lock.tryLock(0)
server = QLocalServer()
assert server.listen(server_name(folder))
print("listening", flush=True)
time.sleep(60)  # busy: it accepts nothing, but its socket is there
"""


def test_a_window_open_for_long_and_busy_keeps_its_folder(qapp, tmp_path):
    first = subprocess.Popen([sys.executable, "-c", _BUSY_WINDOW, str(tmp_path)], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "QT_QPA_PLATFORM": "offscreen",
                                  "PYTHONPATH": os.pathsep.join(sys.path)})
    try:
        assert first.stdout.readline().strip() == "listening"
        _aged(tmp_path / LOCK_NAME)
        second = WindowGuard(tmp_path)
        assert not second.claim()
        assert second.holder() == first.pid
        assert (tmp_path / LOCK_NAME).exists()
    finally:
        first.kill()
        first.communicate(timeout=10)


def test_a_window_open_for_long_keeps_its_folder_and_is_brought_forward(qapp, qtbot, tmp_path):
    first = WindowGuard(tmp_path)
    try:
        assert first.claim()
        _aged(tmp_path / LOCK_NAME)
        second = WindowGuard(tmp_path)
        assert not second.claim()
        with qtbot.waitSignal(first.raiseRequested, timeout=5000):
            assert second.knock()
    finally:
        first.release()


def test_the_lock_file_records_its_folder_once(qapp, tmp_path):
    for old in (False, True):  # claimed afresh, and taken over from a lock left behind
        if old:
            (tmp_path / LOCK_NAME).write_bytes(b"")
            _aged(tmp_path / LOCK_NAME)
        guard = WindowGuard(tmp_path)
        try:
            assert guard.claim()
            lines = (tmp_path / LOCK_NAME).read_text().splitlines()
            assert lines[0] == str(os.getpid())
            assert [line for line in lines if line.startswith("tinyrag ")] == [
                f'tinyrag {{"folder": {json.dumps(str(tmp_path.resolve()))}, "id": '
                f'"{tmp_path.stat().st_dev}:{tmp_path.stat().st_ino}"}}']
        finally:
            guard.release()


def test_a_lock_line_nested_past_reading_is_no_other_folders(qapp, tmp_path):
    # 100,000 "[" after "tinyrag {" ended the check in a RecursionError, as in thinking-models.json
    (tmp_path / LOCK_NAME).write_text('1\ntinyrag {"folder": ' + "[" * 100_000 + "\n")
    assert not WindowGuard(tmp_path)._written_for_another_folder(tmp_path / LOCK_NAME)


def test_the_socket_is_named_without_a_user_name_anywhere(tmp_path, monkeypatch):
    # Without LOGNAME, USER, LNAME and USERNAME, Python 3.11's getpass.getuser() imports pwd, which Windows
    # does not have: the ImportError ended the window's start there.
    for name in ("LOGNAME", "USER", "LNAME", "USERNAME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setitem(sys.modules, "pwd", None)  # as on Windows: "import pwd" raises ImportError
    assert server_name(tmp_path) == server_name(tmp_path / ".")
    assert server_name(tmp_path).startswith("tinyrag-desktop-")
