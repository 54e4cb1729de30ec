"""Reader processes (reader_worker.Readers) at odd moments: a file waiting for a reader when none turns out
to work here, a library printing below Python, an error that cannot travel back, readers that hang at
start or die at any job. What each asserts holds however the processes are timed: a pause only lets the
readers get going, the outcome never depends on it."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

from tinyrag_desktop.kb import Importer, ingest, open_store, reader_worker


def _notes_and(tmp_path: Path, name: str, text: str) -> Path:
    """A folder of twelve notes (enough for reader processes) and one more file, ``name``."""
    folder = tmp_path / "notes"
    folder.mkdir()
    for n in range(12):
        (folder / f"note{n:02}.md").write_text(f"# Note {n}\n\nstep {n}\n", encoding="utf-8")
    (folder / name).write_text(text, encoding="utf-8")
    return folder


def _job(name: str) -> reader_worker.ReadJob:
    return reader_worker.ReadJob(f"# {name}\n\nread all the same\n".encode(), "markdown", f"{name}.md", 1200)


class _NoWait(threading.Event):
    """Readers.answered for a test: a wait for a reader to answer sets Cancel instead (the import would
    otherwise wait for it until Cancel, with nothing to come)."""

    def __init__(self, cancel: threading.Event) -> None:
        super().__init__()
        self.cancel = cancel

    def wait(self, timeout: float | None = None) -> bool:
        self.cancel.set()
        return True


def test_a_file_waiting_for_a_reader_is_read_here_when_the_reader_turns_out_to_end_without_answering(
        monkeypatch):
    monkeypatch.setattr(reader_worker, "reader_command", lambda: [sys.executable, "-c", "pass"])
    readers = reader_worker.Readers(1, share=False)  # every file to a reader: this one ends at once
    try:
        readers._all[0]._threads[0].join()  # it has ended, and its take-in thread has said so
        assert readers._all[0].ended and not readers.broken  # not known until the readers are next looked at
        cancel = threading.Event()
        readers.answered = _NoWait(cancel)
        reading = readers.read(_job("waiting"))
        doc, chunks = reading.result(cancel)  # not: waiting for a reader until Cancel
    finally:
        readers.close()
    assert readers.broken and not cancel.is_set()
    assert doc.title == "waiting" and [c.text for c in chunks] == ["read all the same"]
    assert readers.bytes_out == 0


# A reader whose library writes to its standard output below Python (as a C library's printf does) on a file
# named "cprint…", and reads every file as usual.
_C_PRINTING_READER = """
import os, sys
from tinyrag_desktop.kb import reader_worker
run = reader_worker.ReadJob.run
def run_printing(self, cancelled=None):
    if self.name.startswith("cprint"):
        os.write(1, b"Warning: a C library's line on its standard output\\n")
    return run(self, cancelled)
reader_worker.ReadJob.run = run_printing
sys.exit(reader_worker.main())
"""


def test_what_a_library_prints_below_python_in_a_reader_does_not_fail_the_file(tmp_path, data_dir, monkeypatch,
                                                                              caplog):
    monkeypatch.setattr(reader_worker, "reader_command", lambda: [sys.executable, "-c", _C_PRINTING_READER])
    monkeypatch.setattr(ingest, "_readers_for", lambda todo: reader_worker.Readers(1, share=False))
    folder = _notes_and(tmp_path, "cprint.md", "# Printed\n\nread all the same\n")
    with caplog.at_level("WARNING", logger=reader_worker.__name__):
        with open_store(data_dir) as kb:
            report = Importer(kb).run([str(folder)])
    assert [(f.location, f.reason) for f in report.failed] == []
    assert len(report.added) == 13
    assert "Warning: a C library's line on its standard output" in caplog.text  # in the log, as a print is


# A reader whose reading of "odd.md" raises an exception that pickles, but cannot be unpickled (its class
# wants more arguments than it keeps, as urllib's HTTPError does, and many a library's own).
_ODD_ERROR_READER = """
import sys, urllib.error
from tinyrag_desktop.kb import reader_worker
run = reader_worker.ReadJob.run
def run_or_raise(self, cancelled=None):
    if self.name == "odd.md":
        raise urllib.error.HTTPError("http://example.invalid/", 500, "odd", {}, None)
    return run(self, cancelled)
reader_worker.ReadJob.run = run_or_raise
sys.exit(reader_worker.main())
"""


def test_an_error_that_cannot_travel_back_from_a_reader_fails_its_file_alone(tmp_path, data_dir, monkeypatch):
    started = []
    monkeypatch.setattr(reader_worker, "reader_command",
                        lambda: started.append(1) or [sys.executable, "-c", _ODD_ERROR_READER])
    monkeypatch.setattr(ingest, "_readers_for", lambda todo: reader_worker.Readers(1, share=False))
    folder = _notes_and(tmp_path, "odd.md", "# Odd\n\nits reading raises an odd error\n")
    with open_store(data_dir) as kb:
        report = Importer(kb).run([str(folder)])
    assert [(Path(f.location).name, f.reason.split(":")[0]) for f in report.failed] == [
        ("odd.md", "could not be read (HTTPError")]  # as an error that cannot be pickled is said
    assert len(report.added) == 12
    assert len(started) == 1  # its reader did not stop: it was not replaced


def _import_with(tmp_path, data_dir, monkeypatch, script: str, count: int, pause: float = 0.0):
    """Import 40 notes with ``count`` readers running ``script`` (sharing on, as an import does), each
    file read here taking ``pause`` seconds more; the report, the readers started, and what the readers
    still held when closed: (bytes given and not taken back, files no reader took)."""
    import time

    started: list[reader_worker._Reader] = []
    left: list[tuple[int, int]] = []

    class Started(reader_worker._Reader):
        def __init__(self) -> None:
            super().__init__()
            started.append(self)

    close, run = reader_worker.Readers.close, reader_worker.ReadJob.run

    def closed(self) -> None:
        left.append((self.bytes_out, len(self._waiting)))
        close(self)

    def slowed(self, cancelled=None):
        time.sleep(pause)
        return run(self, cancelled)

    monkeypatch.setattr(reader_worker, "_Reader", Started)
    monkeypatch.setattr(reader_worker.Readers, "close", closed)
    monkeypatch.setattr(reader_worker.ReadJob, "run", slowed)
    monkeypatch.setattr(reader_worker, "reader_command", lambda: [sys.executable, "-c", script])
    monkeypatch.setattr(ingest, "_readers_for", lambda todo: reader_worker.Readers(count))
    folder = tmp_path / "notes"
    folder.mkdir()
    for n in range(40):
        (folder / f"note{n:02}.md").write_text(f"# Note {n}\n\nstep {n}\n", encoding="utf-8")
    with open_store(data_dir) as kb:
        report = Importer(kb).run([str(folder)])
    assert left == [(0, 0)]  # every file given was taken back, its bytes with it
    assert all(reader.process.returncode is not None for reader in started)  # none outlives the import
    assert not any(thread.is_alive() for reader in started for thread in reader._threads)
    return report, started


@pytest.mark.parametrize("script", [
    "import time; time.sleep(600)",  # never reads its input
    "import sys, time; sys.stdin.buffer.read(1); time.sleep(600)",  # reads a byte of it, then hangs
    "import sys, time; sys.stdout.buffer.write(bytes(5)); sys.stdout.flush(); time.sleep(600)",  # half a length
])
def test_readers_that_hang_at_start_are_not_waited_for(tmp_path, data_dir, monkeypatch, script):
    report, started = _import_with(tmp_path, data_dir, monkeypatch, script, count=2)
    assert len(report.added) == 40 and report.added == sorted(report.added) and not report.failed
    assert len(started) == 2


# A reader that dies as it starts its K-th job (its first is the line every reader is given first).
_DYING_READER = """
import os, sys
from tinyrag_desktop.kb import reader_worker
run, jobs = reader_worker.ReadJob.run, [0]
def run_or_die(self, cancelled=None):
    jobs[0] += 1
    if jobs[0] == int(os.environ["RDREV_DIE_AT"]):
        os._exit(3)
    return run(self, cancelled)
reader_worker.ReadJob.run = run_or_die
sys.exit(reader_worker.main())
"""


@pytest.mark.parametrize("count", [1, 2])
@pytest.mark.parametrize("die_at", [1, 2, 4])
def test_readers_dying_at_any_job_lose_no_file_and_keep_the_order(tmp_path, data_dir, monkeypatch, die_at, count):
    monkeypatch.setenv("RDREV_DIE_AT", str(die_at))
    report, _ = _import_with(tmp_path, data_dir, monkeypatch, _DYING_READER, count, pause=0.02)
    assert report.added == sorted(report.added) and not report.cancelled
    assert len(report.added) + len(report.failed) == 40  # each file once: stored, or failed with its reader
    assert all(f.reason.startswith("its reader stopped while reading it") for f in report.failed)
    if die_at == 1:  # no reader ever answered: every file read here
        assert len(report.added) == 40


def test_a_file_that_cannot_be_sent_to_a_reader_does_not_stop_the_import(tmp_path, data_dir, monkeypatch, caplog):
    """Out of memory while a file is written to its reader: the reader is ended, so that the files in its
    hand are answered (the one it was reading failed, the others read here) and the import goes on. Before,
    nothing answered them and the import waited until Cancel: here Cancel comes after a minute, and says so."""
    folder = tmp_path / "notes"
    folder.mkdir()
    for n in range(14):
        (folder / f"note{n:02}.md").write_text(f"# Note {n}\n\nThe heron waits, take {n}.\n", encoding="utf-8")
    send = reader_worker._send

    def send_or_fail(stream, value):
        if isinstance(value, reader_worker.ReadJob) and value.name == "note13.md":
            raise MemoryError
        send(stream, value)

    monkeypatch.setattr(reader_worker, "_send", send_or_fail)
    monkeypatch.setattr(ingest, "_readers_for", lambda todo: reader_worker.Readers(1, share=False))
    cancel = threading.Event()
    guard = threading.Timer(60, cancel.set)
    guard.start()
    try:
        with caplog.at_level("WARNING", logger=reader_worker.__name__), open_store(data_dir) as kb:
            report = Importer(kb, cancel=cancel).run([str(folder)])
    finally:
        guard.cancel()
    assert not report.cancelled
    stopped = "its reader stopped while reading it (out of memory, or a file that crashes the reading library)"
    assert all(f.reason == stopped for f in report.failed) and len(report.failed) <= 1  # the one being read
    assert len(report.added) + len(report.failed) == 14
    assert "a file could not be given to reader process" in caplog.text


def test_a_reader_that_answers_is_given_the_next_waiting_file_without_the_importing_thread():
    # The importing thread gives the readers work when it asks for a file; a reader that answers takes the
    # next waiting file itself, so it goes on while the importing thread stores or reads a large file.
    readers = reader_worker.Readers(1, share=False)
    try:
        count = 3 * reader_worker._DEPTH
        readings = [readers.read(_job(f"note {n}")) for n in range(count)]
        readers.dispatch()  # once: a hand's worth given, the rest left waiting
        for reading in readings:  # each answered without the importing thread giving out any more
            outcome = reading._outcome.get(timeout=30)  # queue.Empty: not given
            reading._outcome.put(outcome)  # left for result()
        assert readers._waiting == []
        cancel = threading.Event()
        assert [reading.result(cancel)[0].title for reading in readings] == [f"note {n}" for n in range(count)]
    finally:
        readers.close()
