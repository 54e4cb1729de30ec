"""An import cut short by a crash, a kill or a power cut is said at the next start, with what to do.

Every source is stored whole or not at all, so nothing is half there; but a folder of 3,000 files with 843
stored looked like a finished import, and nothing said to add it again. :class:`Marker` writes
``import-<pid>.unfinished`` beside knowledge.db when an import starts (what was asked, how many sources),
updates its count at most once a second, and removes it when the import ends in any way the process sees
(done, failed, stopped). A mark whose process is gone was cut short: :func:`cut_short` says so, once, and
removes it.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import Sequence

from ..files import write_whole

log = logging.getLogger(__name__)

SUFFIX = ".unfinished"
_EVERY = 1.0  # s between writes of the count


class Marker:
    """The mark of the import this process is running, in the folder of ``kb_path``."""

    def __init__(self, kb_path: Path, asked: Sequence[str], total: int) -> None:
        self.path = Path(kb_path).parent / f"import-{os.getpid()}{SUFFIX}"
        self._asked, self._total, self._written = [_without_password(a) for a in list(asked)[:20]], total, 0.0
        self._write(0)

    def progressed(self, done: int) -> None:
        if time.monotonic() - self._written >= _EVERY:
            self._write(done)

    def ended(self) -> None:
        try:
            self.path.unlink()
        except OSError:
            pass

    def _write(self, done: int) -> None:
        self._written = time.monotonic()
        mark = {"pid": os.getpid(), "started": time.time(), "asked": self._asked, "total": self._total,
                "done": done}
        try:
            write_whole(self.path, json.dumps(mark))
        except OSError as exc:  # a full disk or a read-only folder: the import goes on without its mark
            log.debug("no import mark in %s: %s", self.path.parent, exc)


def cut_short(data_dir: Path) -> list[str]:
    """What imports into the knowledge base of ``data_dir`` were cut short, in words; each is said once."""
    said = []
    for path in sorted(Path(data_dir).glob(f"import-*{SUFFIX}")):
        try:
            mark = json.loads(path.read_text(encoding="utf-8"))
            pid, total, done = int(mark["pid"]), int(mark["total"]), int(mark["done"])
            at = time.localtime(float(mark["started"]))
            when = f"on {at.tm_mday} {time.strftime('%b', at)} at {time.strftime('%H:%M', at)}"
            asked = [str(a) for a in mark.get("asked", [])]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if _alive(pid):
            continue  # still importing (the command line, beside the window)
        what = ", ".join(asked[:3]) + (f" and {len(asked) - 3} more" if len(asked) > 3 else "")
        said.append(f"An import into the knowledge base was cut short (the app closed while it ran), started "
                    f"{when}: about {done:,} of {total:,} sources were stored, from {what}. Every source is "
                    "stored whole or not at all; add the same files again to finish: those already stored "
                    "are skipped.")
        try:
            path.unlink()
        except OSError:
            pass
    return said


def _without_password(asked: str) -> str:
    """An address's password is not written down (it is refused anyway; the mark outlives the refusal)."""
    from urllib.parse import urlsplit, urlunsplit

    try:
        parts = urlsplit(asked)
        if parts.password is None:
            return asked
        return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{parts.netloc.rpartition('@')[2]}"))
    except ValueError:
        return asked


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False  # a mark of this process is one left by an earlier one with the same number
    if sys.platform == "win32":
        import ctypes

        handle = ctypes.windll.kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return False
        code = ctypes.c_ulong()
        ctypes.windll.kernel32.GetExitCodeProcess(handle, ctypes.byref(code))
        ctypes.windll.kernel32.CloseHandle(handle)
        return code.value == 259  # STILL_ACTIVE
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
