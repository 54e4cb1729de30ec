"""Writing a file whole or not at all: settings, drafts, exports and marks are written to a file beside
theirs, flushed to the disk, and renamed over it. A crash, a full disk or a pulled-out USB stick leaves the
old file or the new one, never half of one (an export written in place left an earlier one cut short)."""

from __future__ import annotations

import os
from pathlib import Path


def write_whole(path: Path, text: str, *, private: bool = False) -> None:
    """Write ``text`` (UTF-8) to ``path``; raises OSError, with no file left beside it.

    ``private``: readable by the user alone (settings hold an API key; drafts are the user's own words).
    Otherwise the file keeps the permissions it had, or a new one gets those any new file gets (the temporary
    file's own, for the user alone, made exports unreadable to a sync server or another account)."""
    import tempfile  # here: the command line's verbs start faster without it

    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        if not private and hasattr(os, "fchmod"):
            try:
                mode = path.stat().st_mode & 0o777
            except OSError:
                mode = 0o666 & ~_umask()
            os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _umask() -> int:
    """The process's umask, read without changing it (os.umask sets it, racing other threads' new files)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022
