"""Reader processes: files of a large import read and cut into chunks beside the one being stored.

Reading (lxml, the Markdown and PDF readers, the chunker) is Python work that holds one processor; storing
(SQLite's full-text index) holds another. An import of many files hands the reading to a few processes
of their own (:class:`Readers`) and stores what they give back in this one, one source at a time and in
the import's order, so what is stored, and when, is as if it had all been read here.

A reader is ``python -m tinyrag_desktop.kb.reader_worker`` (in a frozen build, the app's own executable
with ``--kb-reader`` first). It reads jobs from its standard input and writes results to its standard
output, each a length and a pickle, until its input ends. Only this program writes to it and reads from it.
What it writes to standard error (its libraries' warnings, a crash's traceback) goes to the app's log.
A reader that ends while reading (out of memory, or a file that crashes a parser library) fails that
file alone, with a reason; the next file gets a new reader.
"""

from __future__ import annotations

import faulthandler
import logging
import os
import pickle
import queue
import struct
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Callable

from .chunking import chunk_document
from .errors import Cancelled, ReadError
from .links import Link
from .models import Chunk, Document

# Set by a frozen build (PyInstaller): the reader is the app's own executable with this flag first.
READER_FLAG = "--kb-reader"
_LENGTH = struct.Struct(">Q")
# The most bytes of files given to readers and not yet stored (one file is always given, however large).
AHEAD_BYTES = 96 * 1024 * 1024
# Seconds the first reader has to start and read a line (a new Python importing the readers: under a
# second on an idle machine) before the import reads its files itself instead.
_FIRST_ANSWER = 30.0
# No message is longer: a job is a file of at most ingest.MAX_FILE_BYTES, a result its text.
_MOST_BYTES = 1 << 30
# How often a wait for a reader looks at Cancel, in seconds.
_CANCEL_POLL = 0.05
# A reader's standard error (its libraries' warnings, a crash's traceback) goes to this process's log,
# up to this many lines per reader: a library warning on every page of a long PDF would fill the log.
_MOST_LOG_LINES = 200

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ReadJob:
    """A file's bytes to read and cut into chunks: in this process, or in a reader."""

    data: bytes
    kind: str
    name: str
    chunk_size: int

    def run(self, cancelled: Callable[[], bool] | None = None) -> tuple[Document, list[Chunk]]:
        from .ingest import without_invisible  # ingest imports this module
        from .readers import read_bytes

        doc = without_invisible(read_bytes(self.data, self.kind, self.name, cancelled))
        return doc, chunk_document(doc, self.chunk_size)


def _send(stream: BinaryIO, value: object) -> None:
    payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(payload)) + payload)
    stream.flush()


def _receive(stream: BinaryIO) -> object:
    """The next value on ``stream``; EOFError when it has ended."""
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        raise EOFError
    size = _LENGTH.unpack(head)[0]
    if size > _MOST_BYTES:  # not a length this program wrote: the stream is not a reader's
        raise EOFError
    payload = stream.read(size)
    if len(payload) < size:
        raise EOFError
    return pickle.loads(payload)


# What travels back: the document's title, type and links, and the chunks as (heading, text) pairs. Its
# blocks are not needed once it is chunked, and pairs pickle several times faster than dataclasses.
_Packed = tuple[str, str, tuple[tuple[str, str], ...], list[tuple[str, str]]]


def _packed(doc: Document, chunks: list[Chunk]) -> _Packed:
    return doc.title, doc.type, tuple(tuple(link) for link in doc.links), [(c.heading, c.text) for c in chunks]


def _unpacked(packed: _Packed) -> tuple[Document, list[Chunk]]:
    title, type_, links, pairs = packed
    return Document(title, type_, (), tuple(Link(*link) for link in links)), [Chunk(*pair) for pair in pairs]


def main() -> int:
    """A reader: jobs in, (True, packed document and chunks) or (False, exception) out, until the input ends."""
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a library's print() must not break the results' stream
    # Standard error is the parent's log (see _Reader): the libraries' warnings, and where a parser
    # library crashed this process, the Python lines it was in.
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    faulthandler.enable()
    while True:
        try:
            job = _receive(source)
        except EOFError:
            return 0
        try:
            result: object = (True, _packed(*job.run()))
        except Exception as exc:  # the parent reports it as reading it here would have (see Importer.run)
            result = (False, exc)
        try:
            _send(sink, result)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:  # an exception that cannot travel
            _send(sink, (False, ReadError(f"could not be read ({result[1].__class__.__name__}: {exc})")))
        except BrokenPipeError:
            return 0


def reader_command() -> list[str]:
    if getattr(sys, "frozen", False):
        return [sys.executable, READER_FLAG]
    return [sys.executable, "-m", "tinyrag_desktop.kb.reader_worker"]


def _environment() -> dict[str, str]:
    """This environment, with this package findable however this process found it (a checkout run
    with PYTHONPATH or from its folder, not only an installed package)."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    return env


class _Reader:
    """One reader process, given one file at a time; a thread of ours takes in what it writes."""

    def __init__(self) -> None:
        # In a session of its own: Ctrl+C in a terminal stops the import (which then stops its readers), not
        # a reader halfway through a file, which would look like a file that killed it.
        self.process = subprocess.Popen(reader_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, env=_environment(), start_new_session=True,
                                        creationflags=getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0))
        self.results: queue.Queue[tuple[bool, object] | None] = queue.Queue()
        self._taking_in = threading.Thread(target=self._take_in, name="kb-reader", daemon=True)
        self._taking_in.start()
        self._logging = threading.Thread(target=self._log_errors, name="kb-reader-log", daemon=True)
        self._logging.start()

    def _take_in(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            try:
                self.results.put(_receive(stream))  # type: ignore[arg-type]
            except Exception:  # ended (or its stream closed by stop()), or it wrote what no reader writes
                self.results.put(None)
                return

    def _log_errors(self) -> None:
        stream = self.process.stderr
        assert stream is not None
        pid, lines = self.process.pid, 0
        try:
            while raw := stream.readline(4096):  # a line at most that long: the rest is the next one
                lines += 1
                if lines <= _MOST_LOG_LINES:
                    log.warning("reader process %d: %s", pid, raw.decode("utf-8", "replace").rstrip())
        except (OSError, ValueError):  # its stream closed by stop()
            pass
        if lines > _MOST_LOG_LINES:
            log.warning("reader process %d: %d more lines not logged", pid, lines - _MOST_LOG_LINES)

    def give(self, job: ReadJob) -> None:
        assert self.process.stdin is not None
        _send(self.process.stdin, job)

    def stop(self) -> None:
        try:
            self.process.kill()
        except OSError:
            pass
        self.process.wait()
        self._taking_in.join(5)  # its output has ended with it
        self._logging.join(5)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            try:
                stream.close()  # type: ignore[union-attr]
            except OSError:
                pass


class Reading:
    """A file given to a reader, waiting for its turn to be stored."""

    def __init__(self, readers: Readers, job: ReadJob) -> None:
        self._readers = readers
        self._job = job
        self._reader: _Reader | None = None

    def result(self, cancel: threading.Event) -> tuple[Document, list[Chunk]]:
        """The file's document and chunks, once read. Raises what reading it raised, ReadError when its
        reader ended while reading it, and Cancelled as soon as ``cancel`` is set meanwhile."""
        self._readers.start_waiting()
        reader = self._reader
        assert reader is not None
        while True:
            try:
                outcome = reader.results.get(timeout=_CANCEL_POLL)
                break
            except queue.Empty:
                if cancel.is_set():
                    raise Cancelled() from None
        self._readers.bytes_out -= len(self._job.data)
        self._readers.done(reader, ended=outcome is None)
        if outcome is None:
            raise ReadError("its reader stopped while reading it (out of memory, or a file that crashes the "
                            "reading library)")
        ok, value = outcome
        if not ok:
            raise value  # type: ignore[misc]
        return _unpacked(value)  # type: ignore[arg-type]


class Readers:
    """``count`` reader processes and the files given to them, in the order they will be stored.

    Each reader has one file at a time (a second, written while it reads the first, would block this
    process once the pipe is full); a file waits here until a reader is free. The first reader starts
    at once and must read a line first (OSError when it cannot: a frozen build whose executable does not
    start one, say), the others as files come; :meth:`close`, which an import always calls, cancelled
    or not, stops them all."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.ahead = 2 * count  # files given ahead of the one being stored: one reading, one waiting, each
        self.bytes_out = 0  # of the files given and not yet taken back: read-ahead stops at AHEAD_BYTES
        first = _Reader()  # at once, and asked to read a line: OSError when no reader can work here
        self._all: list[_Reader] = [first]
        try:
            first.give(ReadJob(b"ready", "text", "ready.txt", 200))
            outcome = first.results.get(timeout=_FIRST_ANSWER)
        except (OSError, queue.Empty):
            outcome = None
        if outcome is None or not outcome[0]:
            self.close()
            raise OSError("a reader process did not start, or could not read")
        self._idle: list[_Reader] = [first]
        self._waiting: list[Reading] = []  # given, no reader yet, in order

    def has_room(self) -> bool:
        """Whether another file may be given: the files given and not taken back hold under AHEAD_BYTES
        (a folder of 60 MB PDFs must not hold eight of them in memory at once)."""
        return self.bytes_out < AHEAD_BYTES

    def read(self, job: ReadJob) -> Reading:
        self.bytes_out += len(job.data)
        reading = Reading(self, job)
        self._waiting.append(reading)
        self._dispatch()
        return reading

    def start_waiting(self) -> None:
        self._dispatch()

    def done(self, reader: _Reader, ended: bool) -> None:
        if ended:
            reader.stop()
            self._all.remove(reader)
        else:
            self._idle.append(reader)
        self._dispatch()

    def _dispatch(self) -> None:
        while self._waiting:
            if self._idle:
                reader = self._idle.pop()
            elif len(self._all) < self.count:
                reader = _Reader()
                self._all.append(reader)
            else:
                return
            reading = self._waiting.pop(0)
            reading._reader = reader
            try:
                reader.give(reading._job)
            except OSError:  # it ended before it could be given the file: its result says so
                reader.results.put(None)

    def close(self) -> None:
        """Stop every reader now, with whatever it was reading."""
        for reader in self._all:
            reader.stop()
        self._all, self._idle, self._waiting = [], [], []


if __name__ == "__main__":
    sys.exit(main())
