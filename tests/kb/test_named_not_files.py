"""A pipe, a device or a stream of messages named by itself (``kb add /proc/kmsg``, ``kb add fifo``) is said
to be what it is, and never waited on: ``kb add /proc/kmsg`` hung for good as root, reading the kernel's next
message, where the listing of a folder already looked without waiting."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.kb.cli_run import run_main
from tests.kb.test_panel import _import as _panel_import
from tinyrag_desktop.kb import ImportItem

REPO = Path(__file__).resolve().parents[2]
FIFO_WORDS = "a named pipe (FIFO), not a file: save what it gives to a file (… > notes.txt) and import that"
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")


def _kb_add(data_dir: Path, *paths: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "tinyrag_desktop", "kb", "add", "--data-dir", str(data_dir),
                           *paths], capture_output=True, text=True, env=env, cwd=REPO, timeout=60,
                          stdin=subprocess.DEVNULL)


@needs_fifo
def test_kb_add_of_a_named_pipe_says_it_is_one(tmp_path):
    os.mkfifo(tmp_path / "feed")
    (tmp_path / "notes.md").write_text("# Kettles\n\nDescale the kettle every month.\n", encoding="utf-8")
    proc = _kb_add(tmp_path / "data", str(tmp_path / "feed"), str(tmp_path / "notes.md"))
    assert proc.returncode == 1, proc.stderr
    assert f"failed: {tmp_path / 'feed'}: {FIFO_WORDS}\n" in proc.stderr
    assert "1 added" in proc.stdout and "Traceback" not in proc.stderr


@pytest.mark.skipif(not Path("/dev/null").is_char_device(), reason="no /dev/null here")
def test_kb_add_of_a_device_says_it_is_one(tmp_path):
    proc = _kb_add(tmp_path / "data", "/dev/null")
    assert proc.returncode == 1
    assert "failed: /dev/null: a device, not a file\n" in proc.stderr


WAITS_WORDS = "it has nothing to read until the system writes to it (a stream of messages, not a document)"


def test_a_file_with_nothing_to_read_yet_is_refused_in_words(tmp_path, capsys, monkeypatch):
    """A file that looks regular (0 bytes, as /proc's do) whose read would wait: read without waiting, the
    system says "try again" (EAGAIN), and it is refused with that reason, never waited on."""
    (tmp_path / "feed").touch()
    inode = (tmp_path / "feed").stat().st_ino
    read = os.read

    def read_waiting(fd: int, size: int) -> bytes:
        if os.fstat(fd).st_ino == inode:
            raise BlockingIOError(11, "Resource temporarily unavailable")
        return read(fd, size)

    monkeypatch.setattr(os, "read", read_waiting)
    code, out, err = run_main(capsys, "add", "--data-dir", str(tmp_path / "data"), str(tmp_path / "feed"))
    assert code == 1 and f"failed: {tmp_path / 'feed'}: {WAITS_WORDS}\n" in err, err
    assert "Traceback" not in err


@pytest.mark.skipif(not Path("/proc/kmsg").is_file(), reason="no /proc/kmsg here (Linux only)")
@pytest.mark.parametrize("link", [False, True])
def test_kb_add_of_the_kernels_messages_refuses_it_unopened(tmp_path, capsys, monkeypatch, link):
    """/proc/kmsg, by its own name or a link's, is refused before it is opened: its first read, even without
    waiting, took the kernel's queued messages away from the system logger (as root); and where root may not
    read it (no CAP_SYSLOG) the open failed with "Operation not permitted" instead of saying what it is."""
    named = "/proc/kmsg"
    if link:
        (tmp_path / "messages").symlink_to(named)
        named = str(tmp_path / "messages")
    opened: list[str] = []
    open_file = os.open

    def guarded(path, *args, **kwargs):
        if os.path.realpath(path) == "/proc/kmsg":
            opened.append(os.fspath(path))
            raise PermissionError(1, "Operation not permitted", os.fspath(path))
        return open_file(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded)
    code, _, err = run_main(capsys, "add", "--data-dir", str(tmp_path / "data"), named)
    assert opened == []
    assert code == 1 and f"failed: /proc/kmsg: {WAITS_WORDS}\n" in err, err


@needs_fifo
def test_a_pipe_put_where_a_file_was_is_not_waited_on(tmp_path):
    # a file looked at, then replaced by a named pipe before it is read: the read says what it is now
    from tinyrag_desktop.kb.import_items import read_now

    os.mkfifo(tmp_path / "notes.md")
    said: list[BaseException] = []

    def read() -> None:
        try:
            read_now(tmp_path / "notes.md", 100)
        except OSError as exc:
            said.append(exc)

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    thread.join(10)
    if thread.is_alive():
        os.close(os.open(tmp_path / "notes.md", os.O_WRONLY | os.O_NONBLOCK))  # lets it go
        pytest.fail("the read waited for a writer")
    assert [exc.strerror for exc in said] == [FIFO_WORDS]


@needs_fifo
def test_the_panel_says_a_dropped_named_pipe_is_one(qtbot, panel, tmp_path):
    os.mkfifo(tmp_path / "feed")
    report = _panel_import(qtbot, panel, [ImportItem("path", str(tmp_path / "feed"))])
    assert [(f.location, f.reason) for f in report.failed] == [(str(tmp_path / "feed"), FIFO_WORDS)]
    assert "feed: a named pipe (FIFO), not a file" in panel.status_label.text()
