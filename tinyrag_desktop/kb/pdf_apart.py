"""PDFs read in a helper process whose memory is capped: a small PDF's pages can unpack to gigabytes.

A 1 MB PDF whose page is a Flate stream of 1 GB of spaces took url_fetch (in the window's own process) and
``kb add`` to 2.1 GB of memory: PDFium unpacks a stream whole before it reads it, and 5 MB, url_fetch's cap,
unpacks to about 5 GB. So every PDF is read by a helper (this module run as a program; in a frozen build the
app's executable with :data:`HELPER_FLAG` first) whose address space is limited (``RLIMIT_AS``) to what it
used at its start plus :data:`MOST_MB`. A PDF that needs more ends the helper (PDFium aborts when memory runs
out) or raises MemoryError in it; either way the file fails with :data:`TOO_LARGE`, and an import goes on
with the next file. A PDF that crashes PDFium fails alone too, and no longer takes the window with it.

One helper per process, started at the first PDF (about 0.2 s) and kept for the next ones, so a folder of
PDFs pays for it once; PDFium reads one PDF at a time anyway (kb/pdf.py), and so does the helper. It is given
the lifeline (lifeline.py): it ends with the process that started it. Cancel kills it at once, between pages
or in the middle of one. Where no helper can be started, or on Windows (no ``RLIMIT_AS``), PDFs are read in
this process as before.

The helper reads jobs ``(what, data, arg)`` from its standard input and answers ``(True, result)`` or
``(False, exception)`` on its standard output, each a length and a pickle (reader_worker's framing).
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
from typing import Callable

from .errors import Cancelled, Error, ReadError
from .models import Document

HELPER_FLAG = "--kb-pdf-reader"
# The memory a PDF may take to read, beyond what the helper holds at its start (Python and PDFium, about
# 60 MB). A book of 1,000 pages takes under 100 MB; the 64 MB a file may have, with text in most of it, a
# few hundred.
MOST_MB = 1024
TOO_LARGE = ("the PDF unpacks to more than {mb} MB when read, and was not read (an ordinary PDF needs far "
             "less: this one may be made to use up memory)")
CRASHED = "the PDF crashed the PDF reader (PDFium), and was not read"
_POLL = 0.05  # how often a wait for the helper looks at Cancel, in seconds

log = logging.getLogger(__name__)


def read_pdf(data: bytes, name: str, cancelled: Callable[[], bool] | None = None) -> Document:
    """pdf.read_pdf, in the helper: the PDF's text as a document; ReadError with TOO_LARGE for one that
    needs more than MOST_MB of memory, Cancelled as soon as ``cancelled()`` turns true."""
    return _ask(("document", data, name), cancelled, lambda: _pdf().read_pdf(data, name, cancelled))  # type: ignore[return-value]


def pdf_pages(data: bytes, max_chars: int) -> tuple[str, list[str]]:
    """pdf.pdf_pages, in the helper: the title and the pages' texts until ``max_chars`` are in hand."""
    return _ask(("pages", data, max_chars), None, lambda: _pdf().pdf_pages(data, max_chars))  # type: ignore[return-value]


def _pdf():
    from . import pdf

    return pdf


class _NoHelper(Exception):
    """No helper can work here (a frozen build whose executable does not run one, say)."""


class _Helper:
    """One helper process, for ``most_mb``; ``ask`` sends it a job and waits for its answer."""

    def __init__(self, most_mb: int) -> None:
        from ..lifeline import child_options
        from .reader_worker import _environment

        self.most_mb = most_mb
        self.answers = 0
        # In a session of its own: Ctrl+C in a terminal stops the import, which then stops its helper.
        self.process = subprocess.Popen([*_command(), str(most_mb)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        start_new_session=True, **child_options(_environment()))

    def ask(self, job: tuple[str, bytes, object], cancelled: Callable[[], bool] | None) -> object:
        from .reader_worker import _receive, _send

        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        if cancelled is not None and cancelled():  # as pdf.read_pdf looks before each page: the first too
            raise Cancelled("the import was cancelled")
        try:
            _send(stdin, job)
            while not select.select([stdout], [], [], _POLL)[0]:
                if cancelled is not None and cancelled():
                    self.stop()
                    raise Cancelled("the import was cancelled")
            ok, value = _receive(stdout)  # type: ignore[misc]
        except (OSError, EOFError, pickle.UnpicklingError, ValueError):  # it ended while reading the PDF
            raise ReadError(self._ended()) from None
        self.answers += 1
        if not ok:
            if isinstance(value, MemoryError):
                raise ReadError(TOO_LARGE.format(mb=self.most_mb))
            raise value  # type: ignore[misc]
        return value

    def _ended(self) -> str:
        """Why the helper ended: out of memory (PDFium aborts then, or the system killed it), or a crash.
        Raises _NoHelper for one that exited by itself before it ever answered: it does not work here."""
        self.stop()
        code = self.process.returncode
        if code is not None and code >= 0 and not self.answers:
            raise _NoHelper(f"it exited with status {code} before reading anything")
        log.warning("the PDF reader process %d ended while reading (exit status %s)", self.process.pid, code)
        return TOO_LARGE.format(mb=self.most_mb) if code in (-signal.SIGABRT, -signal.SIGKILL) else CRASHED

    def stop(self) -> None:
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


_HELPER: _Helper | None = None
_LOCK = threading.Lock()  # one PDF at a time: PDFium reads one at a time anyway (pdf._LOCK)
_CANNOT: list[str] = []  # why no helper can be started here: PDFs are read in this process then


def _ask(job: tuple[str, bytes, object], cancelled: Callable[[], bool] | None,
         here: Callable[[], object]) -> object:
    global _HELPER
    if os.name != "posix" or _CANNOT:
        return here()
    with _LOCK:
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
            if not helper.alive():
                _HELPER = None


def _read_here(why: str, here: Callable[[], object]) -> object:
    """Read in this process, as before there were helpers, from now on: no helper works here (``why``)."""
    global _HELPER
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
        del data
        try:
            _send(sink, result)
        except MemoryError:
            _send(sink, (False, MemoryError()))
        except BrokenPipeError:
            return 0


if __name__ == "__main__":
    sys.exit(main())
