"""A large import reads its files in reader processes (reader_worker.py) and stores them here: what is
stored, in what order, and what is reported must be exactly what reading them here gives; a reader that
dies fails its own file only; Cancel does not wait for a reader, and no reader outlives its import."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from tinyrag_desktop.kb import Importer, open_store
from tinyrag_desktop.kb import ingest, reader_worker

from .conftest import make_pdf


def _folder(tmp_path: Path, sample_dir: Path) -> Path:
    """The sample documents of every type, and files that fail or are skipped, each in its own way."""
    folder = sample_dir
    for n in range(8):
        (folder / f"note{n}.md").write_text(f"# Note {n}\n\nThe kettle needs descaling, step {n}.\n" * 40,
                                            encoding="utf-8")
    (folder / "empty.txt").write_bytes(b"")
    (folder / "only-markup.html").write_text("<html><body><nav><a href='x'>x</a></nav></body></html>")
    (folder / "broken.pdf").write_bytes(make_pdf(["Half a PDF"])[:120])
    (folder / "binary.txt").write_bytes(bytes(range(256)) * 8)
    (folder / "renamed.docx").write_bytes(b"%PDF-1.4 not a Word file")
    return folder


def _stored(data_dir: Path) -> list[tuple]:
    with open_store(data_dir) as kb:
        return kb.conn.execute(
            "SELECT s.location, s.title, s.type, c.ordinal, c.heading, c.text FROM chunks c"
            " JOIN sources s ON s.id = c.source_id ORDER BY c.id").fetchall()


def _links(data_dir: Path) -> list[tuple]:
    with open_store(data_dir) as kb:
        return kb.conn.execute("SELECT target, text FROM links ORDER BY id").fetchall()


def _import(data_dir: Path, folder: Path, monkeypatch, readers: int, share: bool = True, **kw):
    """Import ``folder`` with that many reader processes; with ``share``, this process reads the files no
    reader has started when their turn comes (as an import does), without, every file goes to a reader."""
    monkeypatch.setattr(ingest, "_readers_for",
                        lambda todo: reader_worker.Readers(readers, share=share) if readers else None)
    with open_store(data_dir) as kb:
        return Importer(kb, **kw).run([str(folder)])


@pytest.mark.parametrize("share", [True, False])
@pytest.mark.parametrize("ahead_bytes", [reader_worker.AHEAD_BYTES, 1])  # 1: a file at a time, given in turn
def test_reading_in_reader_processes_stores_and_reports_what_reading_here_does(tmp_path, sample_dir, monkeypatch,
                                                                              ahead_bytes, share):
    monkeypatch.setattr(reader_worker, "AHEAD_BYTES", ahead_bytes)
    given = []
    read = reader_worker.Readers.read
    monkeypatch.setattr(reader_worker.Readers, "read", lambda self, job: given.append(self.bytes_out) or read(self, job))
    folder = _folder(tmp_path, sample_dir)
    here = _import(tmp_path / "here", folder, monkeypatch, readers=0)
    apart = _import(tmp_path / "apart", folder, monkeypatch, readers=2, share=share)
    assert len(here.added) >= 14 and here.failed and here.skipped  # every outcome is compared below
    assert (apart.added, apart.failed, apart.skipped, apart.chunks) == (here.added, here.failed, here.skipped,
                                                                        here.chunks)
    assert _stored(tmp_path / "apart") == _stored(tmp_path / "here")
    assert _links(tmp_path / "apart") == _links(tmp_path / "here")
    assert len(given) >= 14 and (max(given) == 0) == (ahead_bytes == 1)  # with no room, nothing more is given
    # imported again: every file unchanged, said in the same order
    again = _import(tmp_path / "apart", folder, monkeypatch, readers=2, share=share)
    assert again.unchanged == here.added and not again.added


def test_with_the_embedding_server_gone_reader_processes_leave_sources_as_reading_here_does(
        tmp_path, sample_dir, monkeypatch):
    """Stored without vectors, then imported again with an embedding model whose server does not answer:
    the first file finds it gone (stored again, without vectors), the rest are left as they are, however
    many files the readers had been given by then."""
    from tinyrag_desktop.kb.embed import Embedder
    from tinyrag_desktop.settings import defaults

    folder = _folder(tmp_path, sample_dir)
    reports = []
    for readers, data in ((0, tmp_path / "here"), (2, tmp_path / "apart")):
        _import(data, folder, monkeypatch, readers=readers)
        down = Embedder(defaults().replace(base_url="http://127.0.0.1:9/v1", embed_model="fake-embed"))
        try:
            reports.append(_import(data, folder, monkeypatch, readers=readers, embedder=down))
        finally:
            down.close()
    here, apart = reports
    assert len(here.updated) == 1 and len(here.unchanged) >= 13 and here.unembedded == here.updated
    assert (apart.updated, apart.unchanged, apart.unembedded) == (here.updated, here.unchanged, here.unembedded)


class _Recorded(reader_worker._Reader):
    started: list[reader_worker._Reader] = []

    def __init__(self) -> None:
        super().__init__()
        _Recorded.started.append(self)


# A reader that dies on "crash.md", takes a minute over "slow.md", half a second over each "lazy…", and warns and prints (as libraries do)
# on "noisy.md"; any other file it reads as usual.
_TEST_READER = """
import logging, os, sys, time
from tinyrag_desktop.kb import reader_worker
run = reader_worker.ReadJob.run
def run_or_fail(self, cancelled=None):
    if self.name == "crash.md":
        os._exit(3)
    if self.name == "noisy.md":
        logging.getLogger("somelib").warning("odd table on page 3")
        print("a library's print")
        for n in range(300):
            logging.getLogger("somelib").info("not logged: below WARNING")
            logging.getLogger("chatty").warning("line %d", n)
    if self.name == "slow.md":
        time.sleep(60)
    if self.name.startswith("lazy"):
        time.sleep(0.5)
    return run(self, cancelled)
reader_worker.ReadJob.run = run_or_fail
sys.exit(reader_worker.main())
"""


@pytest.fixture
def test_readers(monkeypatch):
    _Recorded.started = []
    monkeypatch.setattr(reader_worker, "_Reader", _Recorded)
    monkeypatch.setattr(reader_worker, "reader_command", lambda: [sys.executable, "-c", _TEST_READER])
    return _Recorded.started


def _notes(folder: Path, count: int) -> list[str]:
    folder.mkdir(exist_ok=True)
    for n in range(count):
        (folder / f"note{n:02}.md").write_text(f"# Note {n}\n\nstep {n} of the descaling.\n", encoding="utf-8")
    return sorted(str(p) for p in folder.iterdir())


def test_a_reader_that_dies_fails_its_own_file_and_the_others_are_read(tmp_path, data_dir, monkeypatch,
                                                                       test_readers):
    folder = tmp_path / "notes"
    count = reader_worker.AHEAD_PER_READER * 2 + 18
    # more than are given ahead (Readers.ahead): files are still to be read once the reader has died
    _notes(folder, count)
    (folder / "crash.md").write_text("# Crash\n\nthis one ends its reader\n", encoding="utf-8")
    report = _import(data_dir, folder, monkeypatch, readers=2, share=False)
    assert [(Path(f.location).name, f.reason) for f in report.failed] == [
        ("crash.md", "its reader stopped while reading it (out of memory, or a file that crashes the reading "
                     "library)")]
    assert len(report.added) == count and not report.cancelled
    assert len(test_readers) == 3  # the dead one was replaced
    assert all(reader.process.returncode is not None for reader in test_readers)  # none outlives the import


def test_what_a_reader_writes_to_standard_error_goes_to_the_log(tmp_path, data_dir, monkeypatch, test_readers,
                                                                caplog):
    folder = tmp_path / "notes"
    _notes(folder, 12)
    (folder / "noisy.md").write_text("# Noisy\n\nread all the same\n", encoding="utf-8")
    with caplog.at_level("WARNING", logger=reader_worker.__name__):
        report = _import(data_dir, folder, monkeypatch, readers=2, share=False)
    assert len(report.added) == 13 and not report.failed
    lines = [r.getMessage() for r in caplog.records if r.name == reader_worker.__name__]
    pid = next(reader.process.pid for reader in test_readers if f"reader process {reader.process.pid}:" in lines[0])
    assert lines[:3] == [f"reader process {pid}: WARNING somelib: odd table on page 3",
                         f"reader process {pid}: a library's print",
                         f"reader process {pid}: WARNING chatty: line 0"]
    assert len(lines) == reader_worker._MOST_LOG_LINES + 1  # then one line saying how many more there were
    assert lines[-1] == f"reader process {pid}: 102 more lines not logged"


def test_cancel_does_not_wait_for_a_reader_and_stops_every_reader(tmp_path, data_dir, monkeypatch, test_readers):
    folder = tmp_path / "notes"
    _notes(folder, 12)
    slow = folder / "note05.md"
    slow.rename(folder / "slow.md")
    cancel = ingest.threading.Event()
    _read_here(monkeypatch, pause=0.1)  # the reader has the slow file in hand when its turn comes

    def progress(p):  # Cancel pressed as soon as the slow file's turn comes
        if p.current.endswith("slow.md"):
            cancel.set()

    report = _import(data_dir, folder, monkeypatch, readers=2, cancel=cancel, on_progress=progress)
    assert report.cancelled
    assert not any(location.endswith("slow.md") for location in report.added)  # not waited for
    assert len(report.added) == 11  # the notes before it in the folder's order, each whole
    assert test_readers and all(reader.process.returncode is not None for reader in test_readers)


@pytest.mark.parametrize("command", [
    reader_worker.reader_command(),
    [sys.executable, "-m", "tinyrag_desktop", reader_worker.READER_FLAG],  # as a frozen build starts one
])
def test_a_reader_runs_jobs_until_its_input_ends(tmp_path, command):
    import subprocess

    job = reader_worker.ReadJob(b"# Title\n\nSome words here.\n", "markdown", "a.md", 1200)
    bad = reader_worker.ReadJob(b"", "text", "empty.txt", 1200)
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            env=reader_worker._environment())
    reader_worker._send(proc.stdin, job)
    reader_worker._send(proc.stdin, bad)
    proc.stdin.close()
    ok, packed = reader_worker._receive(proc.stdout)
    doc, chunks = reader_worker._unpacked(packed)
    assert ok and doc.title == "Title" and [c.text for c in chunks] == ["Some words here."]
    ok, error = reader_worker._receive(proc.stdout)
    assert not ok and isinstance(error, ingest.Error) and str(error) == str(_error_reading_here(bad))
    with pytest.raises(EOFError):
        reader_worker._receive(proc.stdout)
    proc.stdout.close()
    assert proc.wait(30) == 0


def _error_reading_here(job: reader_worker.ReadJob) -> Exception:
    try:
        job.run()
    except Exception as exc:
        return exc
    raise AssertionError("reading it here raised nothing")


@pytest.mark.parametrize("command", [
    ["no-such-python"],  # cannot be started
    [sys.executable, "-c", "import sys; sys.stdin.read(1)"],  # starts, and ends without reading
    [sys.executable, "-c", "import sys; sys.stdout.buffer.write(b'nonsense!'); sys.stdout.flush(); input()"],
])
def test_when_no_reader_can_be_started_the_files_are_read_here(tmp_path, data_dir, monkeypatch, caplog, command):
    monkeypatch.setattr(reader_worker, "reader_command", lambda: command)
    monkeypatch.setattr(ingest.os, "cpu_count", lambda: 4)  # processors to spare, wherever this runs
    _read_here(monkeypatch, pause=0.05)  # the reader has ended by the time this process is done
    folder = tmp_path / "notes"
    _notes(folder, 12)
    with open_store(data_dir) as kb:
        report = Importer(kb).run([str(folder)])
    assert len(report.added) == 12 and not report.failed
    assert "no reader process could be started" in caplog.text


def _read_here(monkeypatch, pause: float = 0.0) -> list[str]:
    """The names of the files this process reads (a reader process is another program, not patched),
    each taking ``pause`` seconds more: the readers have started by the time it reaches the last ones."""
    names: list[str] = []
    run = reader_worker.ReadJob.run

    def recorded(self, cancelled=None):
        names.append(self.name)
        time.sleep(pause)
        return run(self, cancelled)

    monkeypatch.setattr(reader_worker.ReadJob, "run", recorded)
    return names


def test_this_process_reads_the_near_files_while_a_busy_reader_reads_the_far_ones(tmp_path, data_dir, monkeypatch,
                                                                                  test_readers):
    folder = tmp_path / "notes"
    folder.mkdir()
    for n in range(16):
        (folder / f"lazy{n:02}.md").write_text(f"# Lazy {n}\n\nThe walrus naps, take {n}.\n", encoding="utf-8")
    read_here = _read_here(monkeypatch, pause=0.15)
    report = _import(data_dir, folder, monkeypatch, readers=1)
    assert len(report.added) == 16 and not report.failed
    assert report.added == sorted(report.added)  # stored in the folder's order all the same
    assert read_here[0] == "lazy00.md" and len(read_here) >= 2  # not waiting for the reader
    assert "lazy15.md" not in read_here and "lazy14.md" not in read_here  # the reader's: furthest first
    monkeypatch.undo()
    here = _import(tmp_path / "here", folder, monkeypatch, readers=0)
    assert _stored(data_dir) == _stored(tmp_path / "here") and here.added == report.added


def test_a_file_waiting_behind_a_long_one_in_a_readers_hand_is_read_here(tmp_path, data_dir, monkeypatch,
                                                                        test_readers):
    folder = tmp_path / "notes"
    _notes(folder, 12)
    (folder / "note05.md").rename(folder / "slow.md")  # last in the folder's order: the reader's first file
    cancel = ingest.threading.Event()
    read_here = _read_here(monkeypatch, pause=0.1)

    def progress(p):  # the slow file's turn: Cancel, rather than wait a minute for it
        if p.current.endswith("slow.md"):
            cancel.set()

    report = _import(data_dir, folder, monkeypatch, readers=1, cancel=cancel, on_progress=progress)
    assert report.cancelled and len(report.added) == 11
    # note11 was given to the reader with slow.md, behind it; its turn came while the reader was still
    # on slow.md, so it was read here rather than waited for
    assert "note11.md" in read_here and "slow.md" not in read_here


def test_a_file_given_to_a_reader_that_dies_before_reading_it_is_read_here(monkeypatch, test_readers):
    read_here = _read_here(monkeypatch)
    readers = reader_worker.Readers(1, share=False)
    try:
        after = readers.read(reader_worker.ReadJob(b"# After\n\nstill read\n", "markdown", "after.md", 1200))
        crash = readers.read(reader_worker.ReadJob(b"# Crash\n\nends its reader\n", "markdown", "crash.md", 1200))
        with pytest.raises(ingest.ReadError, match="its reader stopped while reading it"):
            crash.result(ingest.threading.Event())  # given first (furthest on), read first: its reader dies
        doc, chunks = after.result(ingest.threading.Event())
    finally:
        readers.close()
    assert doc.title == "After" and [c.text for c in chunks] == ["still read"]
    assert read_here == ["after.md"]  # read again here: it was in the dead reader's hand, not at fault
    assert all(reader.process.returncode is not None for reader in test_readers)


def test_a_two_processor_machine_reads_a_large_import_with_one_reader(monkeypatch):
    monkeypatch.setattr(ingest.os, "cpu_count", lambda: 2)
    many = [ingest.ImportItem("path", f"/notes/{n}.md") for n in range(ingest._READERS_FROM)]
    readers = ingest._readers_for(many)
    assert readers is not None
    try:
        assert readers.count == 1 and readers.share
    finally:
        readers.close()
    assert ingest._readers_for(many[:-1]) is None  # too few files to be worth a reader
    monkeypatch.setattr(ingest.os, "cpu_count", lambda: 1)
    assert ingest._readers_for(many) is None  # no processor to spare


def test_a_large_file_or_result_is_not_held_twice_as_it_travels(tmp_path):
    # A 64 MB file went to its reader as its pickle and a copy of it joined to its length, and came out of the
    # pipe as its pickle and the bytes unpickled from it: each end held it twice (the readers took 340 MB).
    import tracemalloc

    job = reader_worker.ReadJob(b"x" * 8_000_000, "markdown", "big.md", 1200)
    message = tmp_path / "message"
    tracemalloc.start()
    try:
        with message.open("wb") as stream:
            reader_worker._send(stream, job)
        sent = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        with message.open("rb") as stream:
            received = reader_worker._receive(stream)
            after = tracemalloc.get_traced_memory()
            with pytest.raises(EOFError):  # the next message: there is none
                reader_worker._receive(stream)
    finally:
        tracemalloc.stop()
    assert received == job
    assert sent < 1.8 * len(job.data)  # its pickle (made in a buffer that grows by halves), not a copy too
    assert after[1] - after[0] < 0.5 * len(job.data)  # beyond the job received: its pickle is not held whole
