"""An import cut short by a crash, a kill or a power cut is said at the next start, with what to do.

Every source is stored whole or not at all, so nothing is half there; but a folder of 3,000 files with 843
stored looked like a finished import, and nothing said to add it again. :class:`Marker` writes
``import-<pid>.unfinished`` beside knowledge.db when an import starts (what was asked, how many sources),
updates its count at most once a second, and removes it when the import ends in any way the process sees
(done, failed, stopped). A mark whose process is gone was cut short: :func:`cut_short` says so, once, and
removes it, counting the sources of what it was asked for that are in the knowledge base (those it stored, by
its ``load_id``, and those earlier imports had stored, under the folders it was asked for): the mark's own count
can be a second old, and an import stores hundreds of files a second ("about 1 of 1,703" was said of 172
stored). What it says holds what was asked (:class:`CutShort`), so that the window takes it back once an import
of the same things has finished (:func:`finished_by`). An import the window stops as it closes (Quit, the window closed, SIGTERM) ends in a way the
process sees, so its mark would go: the window leaves one of its own instead (:func:`stopped_by_closing`),
with the exact count, and it is said the same way.

While the import runs, its mark also tells another one waiting for the write lock (the window's beside ``kb
add``) that the lock is tinyRAG's own and will be let go: :func:`importing_elsewhere`.
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
from ..hidden_passwords import hide_passwords
from ..times import local_clock

log = logging.getLogger(__name__)

SUFFIX = ".unfinished"
_EVERY = 1.0  # s between writes of the count


class Marker:
    """The mark of the import this process is running, in the folder of ``kb_path``."""

    def __init__(self, kb_path: Path, asked: Sequence[str], total: int, load_id: str = "") -> None:
        self.path = Path(kb_path).parent / f"import-{os.getpid()}{SUFFIX}"
        self._asked, self._total = [_without_password(a) for a in list(asked)[:20]], total
        self._db, self._load = Path(kb_path).name, load_id
        self._written, self._done = 0.0, 0
        self._write(0)

    def progressed(self, done: int) -> None:
        # The first source past is written at once: a mark still at 0 then means that none was stored (it
        # said "about 0 of 6" of an import a second in, 40 sources past).
        if time.monotonic() - self._written >= _EVERY or (done and not self._done):
            self._write(done)

    def ended(self) -> None:
        try:
            self.path.unlink()
        except OSError:
            pass

    def _write(self, done: int) -> None:
        self._written, self._done = time.monotonic(), done
        mark = {"pid": os.getpid(), "started": time.time(), "asked": self._asked, "total": self._total,
                "done": done, "db": self._db, "load_id": self._load}
        _write_mark(self.path, mark)


def stopped_by_closing(kb_path: Path, asked: Sequence[str], total: int, stored: int, started: float,
                       waiting: Sequence[str] = ()) -> None:
    """Leave the note of an import stopped because the app closed, said at the next start as a killed one's
    is: ``stored`` of ``total`` sources (exact: the import ended), from ``asked``; ``waiting``, the imports
    asked for after it that never started. Closing the window cancelled it in silence, and a folder half
    imported looked imported."""
    path = Path(kb_path).parent / f"import-{os.getpid()}{SUFFIX}"
    mark = {"pid": os.getpid(), "started": started, "asked": [_without_password(a) for a in list(asked)[:20]],
            "total": total, "done": stored, "closed": True,
            "waiting": [_without_password(w) for w in list(waiting)[:20]]}
    _write_mark(path, mark)


def _write_mark(path: Path, mark: dict) -> None:
    try:
        write_whole(path, json.dumps(mark), private=True)  # what was imported, as knowledge.db: the user's alone
    except OSError as exc:  # a full disk or a read-only folder: the import goes on without its mark
        log.debug("no import mark in %s: %s", path.parent, exc)


class CutShort(str):
    """What :func:`cut_short` says of one import, with what that import was asked for (``asked``)."""

    asked: tuple[str, ...] = ()


def finished_by(said: str, asked: Sequence[str]) -> bool:
    """Whether an import of ``asked``, run to its end, finished the import ``said`` is of (what it was asked
    for, all asked again): its note's "add the same files again to finish" is done."""
    wanted = {_bare(a) for a in getattr(said, "asked", ())}
    return bool(wanted) and wanted <= {_bare(a) for a in asked}


def cut_short(data_dir: Path) -> list[str]:
    """What imports into the knowledge base of ``data_dir`` were cut short, in words (each a
    :class:`CutShort`); each is said once."""
    said = []
    for path in sorted(Path(data_dir).glob(f"import-*{SUFFIX}")):
        try:
            mark = json.loads(path.read_text(encoding="utf-8"))
            pid, total, done = int(mark["pid"]), int(mark["total"]), int(mark["done"])
            at = local_clock(mark["started"])  # None: a time no calendar holds (1e300)
            when = (f"on {at.tm_mday} {time.strftime('%b', at)} at {time.strftime('%H:%M', at)}" if at is not None
                    else "earlier")
            asked = [str(a) for a in mark.get("asked", [])]
            waiting = [str(w) for w in mark.get("waiting", [])]
            closed = bool(mark.get("closed"))
            load_id, db = str(mark.get("load_id") or ""), Path(str(mark.get("db") or "knowledge.db")).name
        except (OSError, ValueError, KeyError, TypeError, RecursionError):  # damaged, or nested past reading
            continue
        if _alive(pid):
            continue  # still importing (the command line, beside the window)
        if total <= 1 and not closed:  # one source: nothing half done, and its failure was plain to see
            _remove(path)
            continue
        exact = closed
        if load_id and not closed:
            stored = _stored_by(path.parent / db, load_id, asked)
            if stored is not None:  # the mark's count is files past, a second old, those read but not stored too
                done, exact = min(stored, total), True
        how = ("was stopped when the app closed" if closed
               else "was cut short (the app closed while it ran)")
        also = f"; {_listed(waiting)}, asked for after it, {'was' if len(waiting) == 1 else 'were'} not started" \
            if waiting else ""
        note = CutShort(f"An import into the knowledge base {how}, started {when}: {_stored(done, total, exact)}, "
                        f"from {_listed(asked)}{also}. Every source is stored whole or not at all; add the same "
                        "files again to finish: those already stored are skipped.")
        note.asked = tuple(asked)
        said.append(note)
        _remove(path)
    return said


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def importing_elsewhere(data_dir: Path) -> bool:
    """Whether another process is importing into the knowledge base of ``data_dir`` now: its mark is there
    and it lives, and is not paused. A write that waits for the lock then waits for one of tinyRAG's own
    imports, which lets go once it has stored the source it is storing (store_schema.OWN_IMPORT_WAIT); a
    paused one (``kb add`` stopped with Ctrl+Z) lets go of nothing until it is resumed, so it is not waited for."""
    return any(_alive(pid) and not paused(pid) for pid in _marked(data_dir))


def paused_import(data_dir: Path) -> int | None:
    """The process number of an import into the knowledge base of ``data_dir`` that is paused (stopped by
    Ctrl+Z in its terminal, or by a debugger); None when there is none, or it cannot be told (not Linux)."""
    return next((pid for pid in _marked(data_dir) if _alive(pid) and paused(pid)), None)


def _marked(data_dir: Path) -> list[int]:
    """The process numbers of the import marks beside the knowledge base of ``data_dir``."""
    names = (path.name[len("import-"):-len(SUFFIX)] for path in Path(data_dir).glob(f"import-*{SUFFIX}"))
    return [int(name) for name in names if name.isdigit()]


def paused(pid: int) -> bool:
    """Whether process ``pid`` is stopped (state T, or t when traced), as Linux's /proc tells; False where
    there is no /proc, or it cannot be read."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return False
    # "pid (name) state …": the name may hold spaces and parentheses, so the state follows the last ")"
    return stat[stat.rfind(")") + 1:].split()[:1] in (["T"], ["t"])


def _stored_by(db: Path, load_id: str, asked: Sequence[str]) -> int | None:
    """How many sources of the knowledge base ``db`` the import ``load_id`` of ``asked`` stored, or found
    stored already (an earlier import of the same folder, cancelled, had stored 13 of its 40 files: "10 of 40"
    was said of 23 in); None when it cannot be read (it is then said from the mark's own count)."""
    import sqlite3

    from .store_file import readonly_uri

    if not db.is_file():
        return None
    try:
        conn = sqlite3.connect(readonly_uri(db), uri=True, timeout=2)
        try:
            where, values = ["load_id = ?"], [load_id]
            for name in map(_bare, asked):
                where.append("location = ?")
                values.append(name)
                if os.path.isabs(name):  # the files in it, by a range of the location's index
                    where.append("(location > ? AND location < ?)")
                    values += [name + os.sep, name + chr(ord(os.sep) + 1)]
            query = f"SELECT count(*) FROM sources WHERE {' OR '.join(where)}"
            return int(conn.execute(query, values).fetchone()[0])
        finally:
            conn.close()
    except (sqlite3.Error, OSError) as exc:
        log.debug("the sources stored by an import cut short could not be counted in %s: %s", db, exc)
        return None


def _stored(done: int, total: int, exact: bool) -> str:
    """How far an import got, in words: "40 of 300 sources were stored", or "about 40 …" when ``done`` is
    the mark's own count (at most a second old); "about 0 of 6" read as a count gone wrong."""
    if total <= 0:
        return "no source had been stored yet"
    if done <= 0:
        return "its source had not been stored" if total == 1 else f"none of the {total:,} sources had been stored"
    return f"{'' if exact else 'about '}{done:,} of {total:,} source{'' if total == 1 else 's'} " \
           f"{'was' if done == 1 else 'were'} stored"


def _bare(name: str) -> str:
    """A folder's path without the separator after it ("/notes/" is "/notes")."""
    return name.rstrip("/" + os.sep) or name


def _listed(names: Sequence[str]) -> str:
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _without_password(asked: str) -> str:
    """An address's password is not written down (it is refused anyway; the mark outlives the refusal)."""
    return hide_passwords(asked)


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
