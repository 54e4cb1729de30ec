"""Writing a file whole or not at all: settings, drafts, exports and marks are written to a file beside
theirs, flushed to the disk, and renamed over it. A crash, a full disk or a pulled-out USB stick leaves the
old file or the new one, never half of one (an export written in place left an earlier one cut short)."""

from __future__ import annotations

import os
from pathlib import Path


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``; raises OSError, with no file left beside it."""
    import tempfile  # here: the command line's verbs start faster without it

    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
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
