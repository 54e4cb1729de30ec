"""PDFs read in a helper process whose memory is capped: a small PDF's pages can unpack to gigabytes.

A 1 MB PDF whose page is a Flate stream of 1 GB of spaces took url_fetch (in the window's own process) and
``kb add`` to 2.1 GB of memory: PDFium unpacks a stream whole before it reads it, and 5 MB, url_fetch's cap,
unpacks to about 5 GB. So every PDF is read by a helper (this module run as a program; in a frozen build the
app's executable with :data:`HELPER_FLAG` first) whose address space is limited (``RLIMIT_AS``) to what it
used at its start plus :data:`MOST_MB`. A PDF that needs more ends the helper (PDFium aborts when memory runs
out: it ends with SIGABRT, seen with the bomb of tests/pdf_bomb.py) or raises MemoryError in it; either way
the file fails with :data:`TOO_LARGE`, and an import goes on with the next file. A PDF that crashes PDFium
(another signal) fails alone too, with :data:`CRASHED`, and no longer takes the window with it; so does one
that makes the helper exit. The next PDF gets a new helper.

One helper per process, started at the first PDF (about 0.2 s) and kept for the next ones, so a folder of
PDFs pays for it once; PDFium reads one PDF at a time anyway (kb/pdf.py), and so does the helper. It is given
the lifeline (lifeline.py): it ends with the process that started it. Cancel (an import's, or url_fetch's
Stop and timeout) kills it at once, between pages or in the middle of one, and a caller waiting for another's
PDF stops waiting on Cancel too. Where no helper can be started, or on Windows (no ``RLIMIT_AS``), PDFs are
read in this process as before: only where no helper was ever ready, never after a helper ended on a PDF.

The helper first says :data:`_READY` once its memory is capped, then reads jobs ``(what, data, arg)`` from
its standard input and answers ``(True, result)`` or ``(False, exception)`` on its standard output, each a
length and a pickle (reader_worker's framing).
"""

from __future__ import annotations

import atexit
import importlib
import logging
import os
import pickle
import select
import signal
import subprocess
import sys
import threading
from typing import TYPE_CHECKING, Callable

from ..crash_codes import crash_words
from .errors import Cancelled, Error, ReadError
from .models import Document

if TYPE_CHECKING:
    from .pdf import PageTexts

HELPER_FLAG = "--kb-pdf-reader"
# The memory a PDF may take to read, beyond what the helper holds at its start (Python and PDFium, about
# 60 MB). A book of 1,000 pages takes under 100 MB; the 64 MB a file may have, with text in most of it, a
# few hundred.
MOST_MB = 1024
TOO_LARGE = ("the PDF unpacks to more than {mb} MB when read, and was not read (an ordinary PDF needs far "
             "less: this one may be made to use up memory)")
CRASHED = "the PDF crashed the PDF reader (PDFium), and was not read"
ENDED = "the PDF reader stopped while reading the PDF (exit status {code}), and it was not read"
NOT_STARTED = "the PDF reader could not be started ({why}), and the PDF was not read"
STOPPED = "the PDF reader was stopped (the app is closing), and the PDF was not read"
_READY = "ready"  # the helper's first word: it runs, its memory is capped, it waits for a job
_OUT_OF_MEMORY = 0xC0000017  # a Windows process's exit status when it ran out of memory (crash_codes)
_POLL = 0.05  # how often a wait for the helper looks at Cancel, in seconds

log = logging.getLogger(__name__)


def read_pdf(data: bytes, name: str, cancelled: Callable[[], bool] | None = None) -> Document:
    """pdf.read_pdf, in the helper: the PDF's text as a document; ReadError with TOO_LARGE for one that
    needs more than MOST_MB of memory, Cancelled as soon as ``cancelled()`` turns true."""
    return _ask(("document", data, name), cancelled, lambda: _pdf().read_pdf(data, name, cancelled))  # type: ignore[return-value]


def pdf_pages(data: bytes, max_chars: int, cancelled: Callable[[], bool] | None = None) -> PageTexts:
    """pdf.pdf_pages, in the helper: the title and the pages' texts until ``max_chars`` are in hand;
    Cancelled as soon as ``cancelled()`` turns true (url_fetch's Stop or timeout: the helper is killed)."""
    return _ask(("pages", data, max_chars), cancelled, lambda: _pdf().pdf_pages(data, max_chars))  # type: ignore[return-value]


def _pdf():
    from . import pdf

    return pdf


class _NoHelper(Exception):
    """The helper ended, or said something else, before it was ready: it never had a PDF. Where no helper
    was ever ready, none can work here (a frozen build whose executable does not run one, say)."""


class _Helper:
    """One helper process, for ``most_mb``; ``ask`` sends it a job and waits for its answer."""

    def __init__(self, most_mb: int) -> None:
        from ..lifeline import child_options
        from ..winjob import adopted
        from .reader_worker import _environment

        self.most_mb = most_mb
        self.ready = False
        self.stopped = False  # by stop(): its end says nothing about the PDF, nor about helpers here
        # In a session of its own: Ctrl+C in a terminal stops the import, which then stops its helper.
        self.process = adopted(subprocess.Popen([*_command(), str(most_mb)], stdin=subprocess.PIPE,
                                                stdout=subprocess.PIPE, start_new_session=True,
                                                **child_options(_environment())))

    def ask(self, job: tuple[str, bytes, object], cancelled: Callable[[], bool] | None) -> object:
        from .reader_worker import _send

        stdin = self.process.stdin
        assert stdin is not None
        _check(cancelled)  # as pdf.read_pdf looks before each page: the first too
        if not self.ready:
            try:
                word = self._next(cancelled)
            except Cancelled:
                raise
            except Exception:  # it ended, or its output is not a helper's (a program that does not run one)
                word = None
            if word != _READY:  # it has had no PDF yet: this says nothing about the PDF
                if self.stopped:
                    raise ReadError(STOPPED)
                self.stop()
                code = self.process.returncode
                raise _NoHelper(f"it exited with status {code} before reading anything" if code is not None
                                and code >= 0 else f"it ended with status {code} before it was ready")
            self.ready = True
        try:
            _send(stdin, job)
            ok, value = self._next(cancelled)  # type: ignore[misc]
        except (OSError, EOFError, pickle.UnpicklingError, ValueError):  # it ended while reading the PDF
            raise ReadError(self._ended()) from None
        if not ok:
            if isinstance(value, MemoryError):
                raise ReadError(TOO_LARGE.format(mb=self.most_mb))
            raise value  # type: ignore[misc]
        return value

    def _next(self, cancelled: Callable[[], bool] | None) -> object:
        """The helper's next message, or Cancelled (the helper killed) as soon as ``cancelled()`` is true."""
        from .reader_worker import _receive

        stdout = self.process.stdout
        assert stdout is not None
        while not select.select([stdout], [], [], _POLL)[0]:
            if cancelled is not None and cancelled():
                self.stop()
                raise Cancelled(_CANCELLED)
        return _receive(stdout)

    def _ended(self) -> str:
        """Why the helper, ready, ended on a PDF: out of memory (PDFium aborts then, or the system killed it),
        a crash (another signal), or an exit (a bug of this module's: the PDF is refused all the same)."""
        if self.stopped:
            return STOPPED
        self.stop()
        code = self.process.returncode
        log.warning("the PDF reader process %d ended while reading (exit status %s)", self.process.pid, code)
        if code == _OUT_OF_MEMORY:
            return TOO_LARGE.format(mb=self.most_mb)
        if crash_words(code):
            return CRASHED
        if code is not None and code >= 0:
            return ENDED.format(code=code)
        return TOO_LARGE.format(mb=self.most_mb) if code in (-signal.SIGABRT, -signal.SIGKILL) else CRASHED

    def stop(self) -> None:
        self.stopped = True
        try:
            self.process.kill()
        except OSError:
            pass
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()  # type: ignore[union-attr]
            except OSError:
                pass

    def alive(self) -> bool:
        return self.process.poll() is None


_CANCELLED = "the import was cancelled"
_HELPER: _Helper | None = None
_LOCK = threading.Lock()  # one PDF at a time: PDFium reads one at a time anyway (pdf._LOCK)
_CANNOT: list[str] = []  # why no helper can be started here: PDFs are read in this process then
_WORKED: list[bool] = []  # a helper was ready here once: helpers work here, and no PDF is read in this process


def _check(cancelled: Callable[[], bool] | None) -> None:
    if cancelled is not None and cancelled():
        raise Cancelled(_CANCELLED)


def _locked(cancelled: Callable[[], bool] | None) -> None:
    """Take _LOCK, or Cancelled: another caller's PDF may hold it a while (a url_fetch Stop abandoned)."""
    if cancelled is None:
        _LOCK.acquire()
        return
    while not _LOCK.acquire(timeout=_POLL):
        _check(cancelled)


def _ask(job: tuple[str, bytes, object], cancelled: Callable[[], bool] | None,
         here: Callable[[], object]) -> object:
    global _HELPER
    if os.name != "posix" or _CANNOT:
        return here()
    _locked(cancelled)
    try:
        helper = _HELPER
        if helper is None or not helper.alive() or helper.most_mb != MOST_MB:
            if helper is not None:
                helper.stop()
            try:
                helper = _HELPER = _Helper(MOST_MB)
            except OSError as exc:
                return _read_here(str(exc), here)
        try:
            return helper.ask(job, cancelled)
        except _NoHelper as exc:
            return _read_here(str(exc), here)
        finally:
            if helper.ready:
                _WORKED[:] = [True]
            if not helper.alive():
                _HELPER = None
    finally:
        _LOCK.release()


def _read_here(why: str, here: Callable[[], object]) -> object:
    """Read in this process, as before there were helpers, from now on: no helper works here (``why``).
    Where one did work, this PDF is refused instead: a PDF that needs no more memory than this process can
    spare is not to be told from one that does (the next PDF tries a new helper)."""
    global _HELPER
    if _WORKED:
        log.warning("the PDF reader process could not be started (%s)", why)
        raise ReadError(NOT_STARTED.format(why=why))
    log.warning("PDFs are read in this process, with no cap on their memory: no PDF reader process works here "
                "(%s)", why)
    _CANNOT.append(why)
    _HELPER = None
    return here()


def _stop() -> None:
    global _HELPER
    helper, _HELPER = _HELPER, None
    if helper is not None:
        helper.stop()


atexit.register(_stop)  # the helper would end with its input anyway; at the exit, not some time after


def _command() -> list[str]:
    if getattr(sys, "frozen", False):
        return [sys.executable, HELPER_FLAG]
    return [sys.executable, "-m", "tinyrag_desktop.kb.pdf_apart"]


def _limit_memory(most_mb: int) -> None:
    """Cap this process's address space at what it maps now plus ``most_mb``."""
    import resource

    with open("/proc/self/statm") as statm:  # its first number: the pages mapped
        used = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = used + most_mb * 2**20
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def main(argv: list[str] | None = None) -> int:
    """The helper: jobs in, answers out, until its input ends or the process that started it has gone."""
    from .. import lifeline
    from .reader_worker import _receive, _send

    args = sys.argv[1:] if argv is None else argv
    most_mb = int(args[0]) if args else MOST_MB
    lifeline.watch()
    # The answers go out on a copy of standard output; what a library prints goes to standard error.
    source, sink = sys.stdin.buffer, os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    pdf = _pdf()
    importlib.import_module("pypdfium2.raw")  # PDFium loaded before the cap: the cap is for what a PDF takes

    try:
        _limit_memory(most_mb)
    except (ImportError, OSError, ValueError):  # not Linux (no /proc): the helper still keeps a crash out of the app
        pass
    try:
        _send(sink, _READY)
    except BrokenPipeError:
        return 0
    while True:
        try:
            what, data, arg = _receive(source)  # type: ignore[misc]
        except EOFError:
            return 0
        try:
            result: tuple[bool, object] = (True, pdf.read_pdf(data, arg) if what == "document"
                                           else pdf.pdf_pages(data, arg))
        except MemoryError:
            result = (False, MemoryError())
        except Error as exc:  # ReadError, NoText: said as reading it here would have
            result = (False, exc)
        except Exception as exc:  # a bug of PDFium's wrapper: the file fails, not the helper
            result = (False, ReadError(f"could not be read ({exc.__class__.__name__}: {exc})"))
        if not result[0]:
            try:  # one that pickles may still not unpickle (reader_worker.main): the parent would take its
                pickle.loads(pickle.dumps(result[1], protocol=pickle.HIGHEST_PROTOCOL))  # stream for broken
            except Exception as exc:
                result = (False, ReadError(f"could not be read ({result[1].__class__.__name__}: {exc})"))
        del data
        try:
            _send(sink, result)
        except MemoryError:
            _send(sink, (False, MemoryError()))
        except (pickle.PicklingError, TypeError, AttributeError) as exc:  # a result that cannot travel
            _send(sink, (False, ReadError(f"could not be read ({exc.__class__.__name__}: {exc})")))
        except BrokenPipeError:
            return 0


if __name__ == "__main__":
    sys.exit(main())
