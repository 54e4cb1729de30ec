"""One program at a time reading, changing and writing back a small file of the data folder.

settings.json and thinking-models.json are read, changed and written whole (files.write_whole) by each
program that saves them: the window, another window, ``ask`` in a terminal. Two at once each read the file
before the other wrote it, and the later write put back what the earlier one had changed (a model picked in
one window, a Settings save in the other: one of them was lost). Each now holds a lock file beside it
(``settings.json.lock``) while it does so: made with O_EXCL, which every system and network disk does at once
or refuses, and removed after. Another waits for it a little, then goes ahead all the same: a lock left by a
program that crashed (or one that hangs) never stops a save for good, nor the window for long.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from pathlib import Path
from typing import Iterator

log = logging.getLogger(__name__)

WAIT_S = 1.0  # the longest a save waits for another program's: a read, a change and a write take milliseconds
STALE_S = 30.0  # a lock file older than this was left by a program that ended before removing it
_POLL_S = 0.01


@contextlib.contextmanager
def locked(path: Path, wait: float | None = None) -> Iterator[bool]:
    """Hold ``path``'s lock file (``path`` + ".lock") while the block runs; it yields whether it was held.
    Not held (another program's for ``wait`` seconds, WAIT_S unless given, or its folder cannot be written):
    the block runs all the same, as a save did before there were locks, and the reason is logged."""
    lock = Path(f"{path}.lock")
    held = _take(lock, WAIT_S if wait is None else wait)
    try:
        yield held
    finally:
        if held:
            with contextlib.suppress(OSError):
                os.unlink(lock)


def _take(lock: Path, wait: float) -> bool:
    """Make ``lock``, waiting up to ``wait`` seconds while another program has it; one left behind (older than
    STALE_S) is taken over. False when it could not be made."""
    deadline = time.monotonic() + wait
    while True:
        try:
            os.close(os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            return True
        except FileExistsError:
            if _left_behind(lock):
                with contextlib.suppress(OSError):
                    os.unlink(lock)  # taken at the next try (one that cannot be removed: waited for)
        except OSError as exc:  # a read-only folder: the write that follows says so, if it fails
            log.info("could not make %s: %s", lock, exc)
            return False
        if time.monotonic() >= deadline:
            log.warning("%s is held by another program still; writing without it", lock)
            return False
        time.sleep(_POLL_S)


def _left_behind(lock: Path) -> bool:
    try:
        return time.time() - lock.stat().st_mtime > STALE_S
    except OSError:  # removed meanwhile: free to take
        return False
