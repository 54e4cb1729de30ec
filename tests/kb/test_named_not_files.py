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


def test_kb_add_of_the_kernels_messages_ends_in_words(tmp_path):
    """/proc/kmsg is a regular file by its look (0 bytes) whose read waits for the kernel's next message. Read
    without waiting, what the kernel has not said yet is not waited for (what it had said is taken from
    whoever reads /proc/kmsg, as any reader of it does)."""
    if not os.access("/proc/kmsg", os.R_OK):
        pytest.skip("needs /proc/kmsg readable (Linux, as root)")
    proc = _kb_add(tmp_path / "data", "/proc/kmsg")
    assert proc.returncode == 1
    assert "failed: /proc/kmsg: it has nothing to read until the system writes to it (a stream of messages, " \
           "not a document)\n" in proc.stderr


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
