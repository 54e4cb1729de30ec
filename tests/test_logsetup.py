"""The log file: a log that cannot be written (a full disk) costs the log, never a traceback on the console."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full, a file every write to fails: disk full")
def test_a_log_on_a_full_disk_prints_one_short_line_not_a_traceback_per_record(tmp_path: Path) -> None:
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "tinyrag.log").symlink_to("/dev/full")  # each write: "No space left on device"
    (tmp_path / "settings.json").write_text("{damaged")  # something to log
    proc = subprocess.run([sys.executable, "-m", "tinyrag_desktop", "ask", "hi", "--data-dir", str(tmp_path),
                           "--base-url", "http://127.0.0.1:9/v1"], capture_output=True, text=True, timeout=60)
    assert "Traceback" not in proc.stderr and "Logging error" not in proc.stderr, proc.stderr
    said = [line for line in proc.stderr.splitlines() if "log file" in line]
    assert len(said) == 1 and "No space left on device" in said[0], proc.stderr
    assert "warning: The settings file " in proc.stderr and "is damaged" in proc.stderr  # the user is still told


def test_console_lines_go_to_standard_error_as_it_is_now_not_as_it_was(tmp_path: Path, monkeypatch) -> None:
    # A command run in the same process as an earlier one (the tests; a script calling main() twice) kept
    # the earlier standard error, since closed: each error record then printed "--- Logging error ---".
    import io
    import logging

    from tinyrag_desktop import logsetup

    first = io.StringIO()
    monkeypatch.setattr(sys, "stderr", first)
    logsetup.configure(tmp_path)
    first.close()
    now = io.StringIO()
    monkeypatch.setattr(sys, "stderr", now)
    try:
        logging.getLogger("tinyrag.test").error("the server stopped answering")
    finally:
        _unconfigure()
    assert now.getvalue() == "tinyrag: the server stopped answering\n"


def test_a_librarys_error_records_go_to_the_log_file_not_the_console(tmp_path: Path, monkeypatch) -> None:
    # Fetching an empty page printed trafilatura's and htmldate's "lxml parsing failed: Document is empty"
    # between `ask`'s status lines; the app says what happened in its own words.
    import io
    import logging

    from tinyrag_desktop import logsetup

    now = io.StringIO()
    monkeypatch.setattr(sys, "stderr", now)
    logsetup.configure(tmp_path)
    try:
        logging.getLogger("trafilatura.utils").error("lxml parsing failed: Document is empty")
        logging.getLogger("htmldate.utils").error("empty HTML tree")
        logging.getLogger("tinyrag_desktop.kb.web").error("the app's own error")
    finally:
        _unconfigure()
    assert now.getvalue() == "tinyrag: the app's own error\n"
    kept = (tmp_path / "logs" / "tinyrag.log").read_text()
    assert "lxml parsing failed: Document is empty" in kept and "empty HTML tree" in kept


def _unconfigure() -> None:
    """Take the app's handlers off the root logger again, as the next test expects it."""
    import logging

    root = logging.getLogger()
    for handler in [h for h in root.handlers if getattr(h, "_tinyrag", False)]:
        root.removeHandler(handler)
        handler.close()


# Every write that grows a file fails past a file-size limit (EFBIG, as ENOSPC on a full disk), until the
# limit is raised again: the space freed.
_FILLS_AND_FREES = """
import logging, resource, signal, sys
from pathlib import Path
from tinyrag_desktop import logsetup
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
path = logsetup.configure(Path(sys.argv[1]))
log = logging.getLogger("tinyrag_desktop.test")
_, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
for turn in (1, 2):
    log.warning("before %d", turn)
    resource.setrlimit(resource.RLIMIT_FSIZE, (path.stat().st_size, hard))
    for n in range(3):
        log.warning("while full %d", n)
    resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
    log.warning("after %d", turn)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="file-size limits (RLIMIT_FSIZE) are POSIX")
def test_a_log_written_again_once_there_is_room_says_what_is_missing_and_a_new_failure_is_said(tmp_path):
    # The console said "going on without it" and the log went on as if whole; a second full disk was not said.
    proc = subprocess.run([sys.executable, "-c", _FILLS_AND_FREES, str(tmp_path)], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    said = [line for line in proc.stderr.splitlines() if "cannot write the log file" in line]
    assert len(said) == 2 and all(line.endswith("until it can be written again.") for line in said), proc.stderr
    lines = (tmp_path / "logs" / "tinyrag.log").read_text(encoding="utf-8").splitlines()
    messages = [line.split(": ", 1)[1] for line in lines]
    # a record the failed write left in the file's buffer may still come through, once there is room
    kept = [m for m in messages if not m.startswith("while full")]
    assert [m for m in kept if not m.startswith("the log could not")] == ["before 1", "after 1", "before 2", "after 2"]
    gaps = [n for n, m in enumerate(kept) if m.startswith("the log could not be written from ")]
    assert gaps == [1, 4] and all("records of that time may be missing" in kept[n] for n in gaps), lines


def test_a_log_that_cannot_be_renamed_goes_on_being_written(tmp_path: Path, monkeypatch) -> None:
    # Windows renames no file another process has open (the window and `kb add` on one data folder both hold
    # the log): the rotation failed, and every record after it was lost for the rest of the run.
    import io
    import logging
    import logging.handlers

    from tinyrag_desktop import logsetup

    def held_elsewhere(src, dst):
        raise PermissionError(32, "The process cannot access the file because it is being used by another process")

    monkeypatch.setattr(sys, "stderr", io.StringIO())
    path = logsetup.configure(tmp_path)
    try:
        [handler] = [h for h in logging.getLogger().handlers if isinstance(h, logging.handlers.RotatingFileHandler)]
        handler.maxBytes = 2000
        monkeypatch.setattr(logging.handlers.os, "rename", held_elsewhere)
        for n in range(40):
            logging.getLogger("tinyrag.test").info("record %d %s", n, "x" * 80)
    finally:
        _unconfigure()
    kept = path.read_text(encoding="utf-8")
    assert [n for n in range(40) if f"record {n} " not in kept] == []
    assert "log file" not in sys.stderr.getvalue()


def test_a_log_renamed_but_not_opened_again_keeps_rotating(tmp_path: Path, monkeypatch) -> None:
    # Only a rename refused turns rotation off for the run; a new file that could not be made (a full disk)
    # is a failed write like any other, and the log rotates again once it can be written.
    import io
    import logging
    import logging.handlers

    from tinyrag_desktop import logsetup

    monkeypatch.setattr(sys, "stderr", io.StringIO())
    path = logsetup.configure(tmp_path)
    try:
        [handler] = [h for h in logging.getLogger().handlers if isinstance(h, logging.handlers.RotatingFileHandler)]
        handler.maxBytes = 2000

        def no_room():
            raise OSError(28, "No space left on device")

        with monkeypatch.context() as full:
            full.setattr(handler, "_open", no_room)
            for n in range(40):
                logging.getLogger("tinyrag.test").info("record %d %s", n, "x" * 80)
        assert handler.maxBytes == 2000
        assert "cannot write the log file" in sys.stderr.getvalue()
        for n in range(80):  # room again: written, and rotated again
            logging.getLogger("tinyrag.test").info("later %d %s", n, "x" * 80)
        assert "later 79 " in path.read_text(encoding="utf-8") and path.stat().st_size <= 2000
        assert "later " in (path.parent / f"{path.name}.1").read_text(encoding="utf-8")  # rotated since
    finally:
        _unconfigure()
