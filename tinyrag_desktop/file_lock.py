"""One program at a time reading, changing and writing back a small file of the data folder.

settings.json and thinking-models.json are read, changed and written whole (files.write_whole) by each
program that saves them: the window, another window, ``ask`` in a terminal. Two at once each read the file
before the other wrote it, and the later write put back what the earlier one had changed (a model picked in
one window, a Settings save in the other: one of them was lost). Each now holds the system's lock on a file
beside it (``settings.json.lock``, made once and never removed) while it does so: flock on Linux and macOS,
msvcrt.locking on Windows. The system frees it when the program holding it ends, even by a crash, so none is
ever guessed to be left behind by its age and taken over (two programs took over the same one at once; on
Windows, one being removed read as a read-only folder). Another waits for it a little, then goes ahead all
the same: one that hangs never stops a save for good, nor the window for long.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import time
from pathlib import Path
from typing import Iterator

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt

log = logging.getLogger(__name__)

WAIT_S = 1.0  # the longest a save waits for another program's: a read, a change and a write take milliseconds
GUI_WAIT_S = 0.2  # the longest the window waits, frozen meanwhile, before writing all the same
_POLL_S = 0.01
_HELD = {errno.EACCES, errno.EAGAIN, errno.EWOULDBLOCK, getattr(errno, "EDEADLOCK", errno.EDEADLK)}


@contextlib.contextmanager
def locked(path: Path, wait: float | None = None) -> Iterator[bool]:
    """Hold ``path``'s lock (on ``path`` + ".lock") while the block runs; it yields whether it was held.
    Not held (another program's for ``wait`` seconds, WAIT_S unless given, or its folder cannot be written):
    the block runs all the same, as a save did before there were locks, and the reason is logged."""
    lock = Path(f"{path}.lock")
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:  # a read-only folder: the write that follows says so, if it fails
        log.info("could not make %s: %s", lock, exc)
        yield False
        return
    try:
        held = _take(fd, lock, WAIT_S if wait is None else wait)
        try:
            yield held
        finally:
            if held:
                with contextlib.suppress(OSError):
                    _unlock(fd)
    finally:
        os.close(fd)  # frees the lock too, whatever happened


def _take(fd: int, lock: Path, wait: float) -> bool:
    """Lock ``fd``, waiting up to ``wait`` seconds while another program holds it. False when it could not."""
    deadline = time.monotonic() + wait
    while True:
        got = _try(fd)
        if got is not None:
            if not got:
                log.info("could not lock %s: its disk has no locks", lock)
            return got
        if time.monotonic() >= deadline:
            log.warning("%s is held by another program still; writing without it", lock)
            return False
        time.sleep(_POLL_S)


def _try(fd: int) -> bool | None:
    """True when ``fd`` is now locked, None while another holds it, False where the disk has no locks."""
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:
            os.lseek(fd, 0, os.SEEK_SET)  # the lock is on the file's first byte, which need not exist
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        return True
    except OSError as exc:
        return None if exc.errno in _HELD else False


def _unlock(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)
    else:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
