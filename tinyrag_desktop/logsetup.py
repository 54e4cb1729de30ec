"""Logging: everything to a rotating file in the data folder; only short error lines on the console.

A failure the user can cause is shown to them in words by the window or the command line; the details,
tracebacks included, go to ``logs/tinyrag.log`` for a bug report, never to the console.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys
import time
from pathlib import Path

from .files import make_private_folder, open_private_append
from .hidden_passwords import hide_passwords

LOG_FILE = Path("logs") / "tinyrag.log"


class _HidingPasswords(logging.Formatter):
    """Records as written, an address's password replaced with "***" (``--base-url http://alice:pw@…``
    named in an error, a traceback, a library's message)."""

    def format(self, record: logging.LogRecord) -> str:
        return hide_passwords(super().format(record))


class _NoTraceback(_HidingPasswords):
    def formatException(self, ei) -> str:  # noqa: N802
        return ""

    def format(self, record: logging.LogRecord) -> str:
        record.exc_text = ""
        saved, record.exc_info = record.exc_info, None
        try:
            return super().format(record)
        finally:
            record.exc_info = saved


class _Console(logging.StreamHandler):
    """Standard error as it is at each record, not as it was when logging was set up: a command run in
    the same process as another (the tests, a script calling main() twice) had it write to a stream
    since closed, and every record then printed "--- Logging error ---" with a traceback."""

    @property
    def stream(self):  # type: ignore[override]
        return sys.stderr

    @stream.setter
    def stream(self, _value) -> None:
        pass


class _LogFile(logging.handlers.RotatingFileHandler):
    """The log file; when it cannot be written (a full disk, a file made read-only), one short line says so
    and the app goes on without its log: logging's default prints a traceback on the console per record.
    Once it can be written again (space freed), it says first that records are missing, and since when: a
    bug report's log looked whole across the gap, and the console's "going on without it" was the last word."""

    _failed: str | None = None  # the reason the file could not be written, until it can be again
    _since = 0.0
    _erred = False

    def _open(self):  # type: ignore[override]
        # made for the user alone, whatever the umask (its records quote questions, addresses and errors);
        # the file rotation starts anew is made so too
        return open_private_append(Path(self.baseFilename), encoding=self.encoding, errors=self.errors)

    def emit(self, record: logging.LogRecord) -> None:
        if self._failed is not None:
            if not self._written(self._gap(record)):
                return
            self._failed = None
        self._written(record)

    def _written(self, record: logging.LogRecord) -> bool:
        self._erred = False
        super().emit(record)
        return not self._erred

    def _gap(self, record: logging.LogRecord) -> logging.LogRecord:
        since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self._since))
        return logging.makeLogRecord({
            "name": __name__, "levelno": logging.WARNING, "levelname": "WARNING", "created": record.created,
            "msecs": record.msecs, "msg": "the log could not be written from %s (%s): records of that time "
                                          "may be missing", "args": (since, self._failed)})

    def doRollover(self) -> None:  # noqa: N802 (logging's name)
        """Rotate the log; when it cannot be renamed, go on writing to it, unrotated, for this run. Windows
        renames no file another process has open, and the window and a command line on the same data folder
        (``kb add`` while the window is open) both hold the log: every record after that failed rotation was
        lost, for the rest of the run. The next start, or the other process, rotates it."""
        try:
            super().doRollover()
        except OSError:
            if not os.path.exists(self.baseFilename):  # renamed, not opened again (a full disk): a failed write
                raise
            self.maxBytes = 0
            if self.stream is None:
                self.stream = self._open()

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 (logging's name)
        self._erred = True
        if self._failed is not None:
            return
        exc = sys.exc_info()[1]
        self._failed, self._since = str(getattr(exc, "strerror", None) or exc), time.time()
        try:
            sys.stderr.write(f"tinyrag: cannot write the log file {self.baseFilename} ({self._failed}); going "
                             "on without it until it can be written again.\n")
        except (OSError, ValueError):  # no console either
            pass


def configure(data_dir: Path, *, console_level: int = logging.ERROR) -> Path | None:
    """Send the app's log records to ``data_dir/logs/tinyrag.log``; returns the file, or None if unwritable."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "_tinyrag", False):
            root.removeHandler(handler)
            handler.close()
    root.setLevel(logging.INFO)
    console = _Console()
    console.setLevel(console_level)
    # The app's own records only: a library's errors (trafilatura's "lxml parsing failed: Document is empty"
    # for an empty page the app already reports in words) go to the log file, not between `ask`'s lines.
    console.addFilter(lambda record: record.name.startswith("tinyrag"))
    console.setFormatter(_NoTraceback("tinyrag: %(message)s"))
    console._tinyrag = True  # type: ignore[attr-defined]
    root.addHandler(console)
    path = Path(data_dir) / LOG_FILE
    try:
        make_private_folder(path.parent)
        # a file name that is not UTF-8 (its odd bytes as surrogates) is logged with them escaped
        file_handler = _LogFile(path, maxBytes=2_000_000, backupCount=3, encoding="utf-8", errors="backslashreplace")
    except OSError:
        return None
    file_handler.setLevel(logging.INFO)
    file_handler.setFormatter(_HidingPasswords("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    file_handler._tinyrag = True  # type: ignore[attr-defined]
    root.addHandler(file_handler)
    for noisy in ("httpx", "httpcore", "trafilatura", "htmldate", "courlandre"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    return path
