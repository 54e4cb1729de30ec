"""Reader processes: files of a large import read and cut into chunks beside the one being stored.

Reading (lxml, the Markdown and PDF readers, the chunker) is Python work that holds one processor; storing
(SQLite's full-text index) holds another. An import of many files hands the reading to a few processes
of their own (:class:`Readers`) and stores what they give back in this one, one source at a time and in
the import's order, so what is stored, and when, is as if it had all been read here. The readers take the
files furthest on; this process reads a file itself when its turn comes and no reader has started it.

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
from collections import deque
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO, Callable

from .. import lifeline
from ..lifeline import child_options
from ..winjob import adopted
from .chunking import chunk_document
from .errors import Cancelled, ReadError
from .links import Link
from .models import Chunk, Document

# Set by a frozen build (PyInstaller): the reader is the app's own executable with this flag first.
READER_FLAG = "--kb-reader"
_LENGTH = struct.Struct(">Q")
# The most bytes of files given to readers and not yet stored (one file is always given, however large).
AHEAD_BYTES = 96 * 1024 * 1024
# No message is longer: a job is a file of at most ingest.MAX_FILE_BYTES, a result its text.
_MOST_BYTES = 1 << 30
# Files a reader is given at once: the one it reads, and the next ones, there when it is done. It is given
# more as it answers (Readers._refill) and when the importing thread asks for a file. Importing the
# PostgreSQL manual (1,167 pages) with one reader, medians of eight alternating pairs of runs: with two
# and only the importing thread giving out files, the reader waited for work a third of the time and the
# importing process read 410 pages itself, 5.2 MB/s; with four, 5.9 MB/s; with four and each answer
# refilling the hand, the reader waited for work half as long (0.3 to 0.5 s of its 2.5 to 3.1, against
# 0.8 to 0.9 of 3.4 to 3.6), the importing process read 274 pages, and the import went from 4.8 to
# 5.8 MB/s against four without (faster in seven of the eight pairs).
_DEPTH = 4
# Files given ahead of the one being stored, for each reader: enough for every reader to have a full hand,
# and for the importing process to have files of its own to read while they do. The readers take the
# furthest first, the importing process reads the nearest (those no reader has started), and only the
# importing process gives out more, one per file it stores: while it reads a long page itself, a reader
# that has read all the others waits. Importing the PostgreSQL manual with one reader, sixteen
# alternating pairs of runs: with 96 files ahead instead of 32, 6.1 MB/s against 5.5 (medians; faster
# in 11 of the 16 pairs). Memory stays bounded by AHEAD_BYTES.
AHEAD_PER_READER = 24 * _DEPTH
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
    kind: str  # a reader's (readers.SUPPORTED), or "url": a web page, read as web.Fetched reads it
    name: str  # the file's name; a web page's address
    chunk_size: int
    content_type: str = ""  # a web page's, as its server said it
    # An HTML page with no text but its links is read as its links (link_pages.py): a file the user named
    # by itself; in a folder such a page is navigation (a manual's table of contents), and left out.
    link_pages: bool = False

    def run(self, cancelled: Callable[[], bool] | None = None) -> tuple[Document, list[Chunk]]:
        from .decoding import collecting_notes  # when first needed: they load lxml and every reader
        from .readers import without_invisible

        with collecting_notes() as notes:
            if self.kind == "url":
                from .web import Fetched

                doc = without_invisible(Fetched(self.name, self.content_type, self.data).document())
            else:
                doc = without_invisible(self._read(cancelled))
        if notes:
            doc = replace(doc, notes=tuple(notes))
        return doc, chunk_document(doc, self.chunk_size, cancelled)

    def _read(self, cancelled: Callable[[], bool] | None) -> Document:
        if self.kind == "html":  # a JavaScript app's empty page, a sign-in form: refused (walls.py)
            from .walls import refuse_walls

            return refuse_walls(self.data, lambda: self._read_any(cancelled), web=False)
        return self._read_any(cancelled)

    def _read_any(self, cancelled: Callable[[], bool] | None) -> Document:
        from .errors import NoText
        from .readers import is_html_page, read_bytes

        try:
            return read_bytes(self.data, self.kind, self.name, cancelled)
        except NoText:
            if not self.link_pages or not (self.kind == "html" or is_html_page(self.data)):
                raise
            from .link_pages import link_page

            try:
                return link_page(self.data, self.name)
            except NoText:
                pass
            raise


def _send(stream: BinaryIO, value: object) -> None:
    payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(payload)))
    stream.write(payload)  # not joined to its length: a large file's would be copied whole once more
    stream.flush()


def _receive(stream: BinaryIO) -> object:
    """The next value on ``stream``; EOFError when it has ended."""
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        raise EOFError
    size = _LENGTH.unpack(head)[0]
    if size > _MOST_BYTES:  # not a length this program wrote: the stream is not a reader's
        raise EOFError
    try:  # from the stream as it comes, which it reads no further than the value's end: a large file's
        return pickle.load(stream)  # bytes or text are then not held twice, as their pickle and as themselves
    except pickle.UnpicklingError as exc:  # cut short
        raise EOFError from exc


# What travels back: the document's title, type, links, notes, link targets (a page read as its links) and
# secrets hidden, and the chunks as (heading, text, anchor) triples. Its blocks are not needed once it is
# chunked, and tuples pickle several times faster than dataclasses.
_Packed = tuple[str, str, tuple[tuple[str, str], ...], tuple[str, ...], tuple[str, ...], int,
                list[tuple[str, str, str | None]]]


def _packed(doc: Document, chunks: list[Chunk]) -> _Packed:
    return (doc.title, doc.type, tuple(tuple(link) for link in doc.links), doc.notes, doc.link_targets,
            doc.hidden, [(c.heading, c.text, c.anchor) for c in chunks])


def _unpacked(packed: _Packed) -> tuple[Document, list[Chunk]]:
    title, type_, links, notes, targets, hidden, triples = packed
    doc = Document(title, type_, (), tuple(Link(*link) for link in links), notes, targets, hidden)
    return doc, [Chunk(*triple) for triple in triples]


def main() -> int:
    """A reader: jobs in, (True, packed document and chunks) or (False, exception) out, until the input ends,
    or the app that started it has gone."""
    lifeline.watch()
    # The results go out on a copy of standard output, and standard output becomes standard error: what a
    # library prints, with print() or from C below Python, goes to the log and cannot break their stream.
    source, sink = sys.stdin.buffer, os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
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
            try:  # one that pickles may still not unpickle (its class wants arguments it does not keep, as
                pickle.loads(pickle.dumps(exc, protocol=pickle.HIGHEST_PROTOCOL))  # urllib's HTTPError does)
            except Exception:  # the parent would take its stream for broken, and the file for a crash
                result = (False, ReadError(f"could not be read ({exc.__class__.__name__}: {exc})"))
        del job  # the file's bytes, let go before its text is pickled
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
    """One reader process. It is given up to :data:`_DEPTH` files at once, so that it starts the next as soon
    as it has read one: a thread of ours writes them to it, another takes in what it writes back."""

    def __init__(self) -> None:
        # In a session of its own: Ctrl+C in a terminal stops the import (which then stops its readers), not
        # a reader halfway through a file, which would look like a file that killed it.
        # Given the lifeline: it ends when this process does, also halfway through a file (a killed app's
        # readers read on to the end of a long PDF, and only then saw their input end).
        self.process = adopted(subprocess.Popen(reader_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                stderr=subprocess.PIPE, start_new_session=True,
                                                creationflags=getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0),
                                                **child_options(_environment())))
        self._lock = threading.Lock()
        self.given: deque[Reading] = deque()  # in the order given, which is the order it answers in
        self.ended = False  # it stopped answering: it is given nothing more
        self.answers = 0
        self.answered: threading.Event | None = None  # set on each answer, and when it ends (see Readers)
        self.refill: Callable[[_Reader], None] | None = None  # called on each answer (Readers._refill)
        self._outbox: queue.Queue[ReadJob | None] = queue.Queue()
        self._threads = [threading.Thread(target=target, name=name, daemon=True) for target, name in (
            (self._take_in, "kb-reader"), (self._write_out, "kb-reader-in"), (self._log_errors, "kb-reader-log"))]
        for thread in self._threads:
            thread.start()

    def load(self) -> int:
        """Files in its hand, not counting the first line every reader is given (see Readers._started)."""
        return len(self.given) - (self.answers == 0 and bool(self.given))

    def give(self, reading: Reading) -> bool:
        """Give it ``reading``'s file; False when it has ended, and so cannot be."""
        with self._lock:
            if self.ended:
                return False
            reading._reader = self
            self.given.append(reading)
        self._outbox.put(reading._job)
        return True

    def _write_out(self) -> None:
        # Here, not in the importing thread: a file larger than the pipe holds waits for the reader to take
        # it in, which it does once it has read the file before it.
        stream = self.process.stdin
        assert stream is not None
        while (job := self._outbox.get()) is not None:
            try:
                _send(stream, job)
            except (OSError, ValueError):  # it has ended (its answers end too, and say so), or been stopped
                return
            except Exception:  # not sent (out of memory pickling a large file, say): the reader is ended, so
                # that its files are answered (that one failed, the ones after it read again), not waited for
                log.warning("a file could not be given to reader process %d", self.process.pid, exc_info=True)
                self.process.kill()
                return

    def _take_in(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            try:
                outcome = _receive(stream)
            except Exception:  # ended (or its stream closed by stop()), or it wrote what no reader writes
                break
            with self._lock:
                reading = self.given.popleft() if self.given else None
            if reading is None:  # an answer to nothing it was given: not a reader's
                break
            self.answers += 1
            reading._answered(outcome)  # type: ignore[arg-type]
            if self.refill is not None:
                self.refill(self)
            if self.answered is not None:
                self.answered.set()
        with self._lock:
            self.ended = True
            left, self.given = list(self.given), deque()
        for n, reading in enumerate(left):  # the file it was reading fails; the ones after it are read anew
            reading._answered(None if n == 0 else _AGAIN)
        if self.answered is not None:
            self.answered.set()

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

    def stop(self) -> None:
        try:
            self.process.kill()
        except OSError:
            pass
        self.process.wait()
        self._outbox.put(None)
        for thread in self._threads:
            thread.join(5)  # its streams have ended with it
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            try:
                stream.close()  # type: ignore[union-attr]
            except OSError:
                pass


# What a file given to a reader that ended before reading it gets: it is read again, in this process.
_AGAIN = object()


class Reading:
    """A file given to be read, waiting for its turn to be stored."""

    def __init__(self, readers: Readers, job: ReadJob) -> None:
        self._readers = readers
        self._job = job
        self._reader: _Reader | None = None  # None: no reader has it yet
        self._outcome: queue.Queue[tuple[bool, object] | object | None] = queue.Queue(maxsize=1)
        self._read_here = False

    def _answered(self, outcome: tuple[bool, object] | object | None) -> None:
        if not self._read_here:  # else its answer is not waited for: it was read here meanwhile
            self._outcome.put(outcome)

    def _take_back(self) -> bool:
        """Whether this file, given to a reader still busy with the one before it (a long PDF, say), is to
        be read here instead: then the reader's answer, when it comes, is let go."""
        reader = self._reader
        if reader is None:
            return False
        with reader._lock:
            if reader.ended or not reader.given or reader.given[0] is self or self not in reader.given:
                return False
            self._read_here = True
        self._readers.bytes_out -= len(self._job.data)
        return True

    def ready(self) -> bool:
        """Whether a reader has answered for this file: result() then does not wait."""
        return not self._outcome.empty()

    def result(self, cancel: threading.Event) -> tuple[Document, list[Chunk]]:
        """The file's document and chunks, once read. Raises what reading it raised, ReadError when its
        reader ended while reading it, and Cancelled as soon as ``cancel`` is set meanwhile.

        A file no reader has started (they are all busy with files further on) is read here and now:
        this process would otherwise wait with nothing to do."""
        readers = self._readers
        if (readers.share or readers.broken) and (readers.withdraw(self) or self._take_back()):
            readers.dispatch()  # the readers take files further on while this one is read here
            return self._job.run(cancel.is_set)
        readers.dispatch()
        while self._reader is None:  # every reader's hands are full: wait for one to answer, then give
            if readers.broken and readers.withdraw(self):  # found meanwhile: no reader can work here
                return self._job.run(cancel.is_set)
            readers.answered.wait(_CANCEL_POLL)
            readers.answered.clear()
            if cancel.is_set():
                raise Cancelled()
            readers.dispatch()
        while True:
            try:
                outcome = self._outcome.get(timeout=_CANCEL_POLL)
                break
            except queue.Empty:
                if cancel.is_set():
                    raise Cancelled() from None
        readers.taken(self)
        if outcome is _AGAIN:
            return self._job.run(cancel.is_set)
        if outcome is None:
            raise ReadError("its reader stopped while reading it (out of memory, or a file that crashes the "
                            "reading library)")
        ok, value = outcome  # type: ignore[misc]
        if not ok:
            raise value  # type: ignore[misc]
        return _unpacked(value)  # type: ignore[arg-type]


class Readers:
    """``count`` reader processes and the files given to them, stored in the import's order.

    Each reader has at most :data:`_DEPTH` files at once; the others wait here, and a free reader takes the
    one furthest on: when the importing thread asks for a file, and as soon as a reader answers (from the
    thread that takes in its answers, so that a reader does not wait for work while the importing thread
    stores or reads a large file). With ``share``, the importing process reads a waiting file itself when
    its turn to be stored comes: it reads the near files while the readers read the far ones, so a
    two-processor machine keeps both busy, and with readers faster than that, it only stores. Only the
    importing thread calls these methods; :meth:`close`, which an import always calls, cancelled or not,
    stops every reader.

    The first reader is started at once (OSError when it cannot be), the others as files come. None is
    waited for: a new Python takes a third of a second to load the readers, and meanwhile this process
    reads. Each is first given a line to read; one that ends without ever answering (a frozen build whose
    executable does not run one, say) means none can work here: its files, and all the others, are then
    read in this process."""

    def __init__(self, count: int, share: bool = True) -> None:
        self.count = count
        self.share = share
        self.ahead = AHEAD_PER_READER * count
        self.bytes_out = 0  # of the files given and not yet taken back: read-ahead stops at AHEAD_BYTES
        self.answered = threading.Event()  # a reader answered or ended: it may have room for another file
        self.broken = False  # no reader can work here: every file is read in this process
        # the files waiting, and which reader gets one: the importing thread, and each reader's own thread
        # as it answers, give them out
        self._lock = threading.Lock()
        self._waiting: list[Reading] = []  # given, no reader yet, in order
        self._all: list[_Reader] = [self._started()]

    def has_room(self) -> bool:
        """Whether another file may be given: the files given and not taken back hold under AHEAD_BYTES
        (a folder of 60 MB PDFs must not hold eight of them in memory at once)."""
        return self.bytes_out < AHEAD_BYTES

    def read(self, job: ReadJob) -> Reading:
        """Give a file to be read; the readers take it when the importer next waits for a file (see
        :meth:`dispatch`), so that files given together go furthest first."""
        self.bytes_out += len(job.data)
        reading = Reading(self, job)
        with self._lock:
            self._waiting.append(reading)
        return reading

    def withdraw(self, reading: Reading) -> bool:
        """Take back a file no reader has yet (True), to read it here."""
        with self._lock:
            if reading not in self._waiting:
                return False
            self._waiting.remove(reading)
        self.bytes_out -= len(reading._job.data)
        return True

    def taken(self, reading: Reading) -> None:
        """``reading``'s outcome has been taken; a reader that ended with it is replaced for the next files."""
        self.bytes_out -= len(reading._job.data)
        reader = reading._reader
        if reader is not None and reader.ended and reader in self._all and reader.answers:
            reader.stop()
            self._all.remove(reader)
        self.dispatch()

    def dispatch(self) -> None:
        """Give waiting files to readers with room in their hands, the furthest on first."""
        silent = next((r for r in self._all if r.ended and not r.answers), None)
        if silent is not None:
            self._give_up(f"reader process {silent.process.pid} ended without answering")
        with self._lock:
            self._dispatch()

    def _dispatch(self) -> None:
        while self._waiting and not self.broken:
            live = [r for r in self._all if not r.ended]
            reader = min(live, key=_Reader.load, default=None)
            if reader is None or reader.load():  # a reader with nothing to do, or a new one, before a busy one
                if len(live) < self.count:
                    try:
                        reader = self._started()
                    except OSError as exc:
                        self._give_up(str(exc))
                        return
                    self._all.append(reader)
                elif reader.load() >= _DEPTH:
                    return
            reading = self._waiting.pop()
            if not reader.give(reading):  # it ended meanwhile: the file goes to another
                self._waiting.append(reading)

    def _refill(self, reader: _Reader) -> None:
        """Give ``reader``, which has just answered, waiting files up to a full hand, the furthest on first.
        Called from its own thread; it starts no reader (only the importing thread does)."""
        with self._lock:
            while self._waiting and not self.broken and not reader.ended and reader.load() < _DEPTH:
                reading = self._waiting.pop()
                if not reader.give(reading):
                    self._waiting.append(reading)
                    return

    def _started(self) -> _Reader:
        """A new reader, given the first line to read: its answer says it works."""
        reader = _Reader()
        reader.answered = self.answered
        reader.refill = self._refill
        reader.give(Reading(self, ReadJob(b"ready", "text", "ready.txt", 200)))
        return reader

    def _give_up(self, reason: str) -> None:
        if not self.broken:
            log.warning("reading in this process: no reader process could be started (%s)", reason)
        self.broken = True

    def close(self) -> None:
        """Stop every reader now, with whatever it was reading."""
        with self._lock:
            readers, self._all, self._waiting = self._all, [], []
        for reader in readers:
            reader.stop()


def read_apart(job: ReadJob, cancel: threading.Event) -> tuple[Document, list[Chunk]]:
    """``job`` read in a reader process of its own, which Cancel (``cancel``) stops at once: raises
    Cancelled then. For what cannot stop itself midway (trafilatura reading a large web page). Read
    here when no reader process can be started."""
    try:
        readers = Readers(1, share=False)
    except OSError as exc:
        log.warning("reading in this process: no reader process could be started (%s)", exc)
        return job.run(cancel.is_set)
    try:
        return readers.read(job).result(cancel)
    finally:
        readers.close()


if __name__ == "__main__":
    sys.exit(main())
