"""A removed source leaves no readable trace in ``knowledge.db``, and the file shrinks once much of it is free.

Removals run with SQLite's secure_delete ON (store_file.scrubbing): the bytes of the rows deleted, and
the pages freed, are overwritten with zeros. Imports keep secure_delete FAST (store.SECURE_DELETE), which
leaves freed pages as they were until reused: a removed source's private text was still found in the file
128 times. The full-text index forgets a removed passage by a mark, not by rewriting the segments that hold
its words; those are rewritten when the index merges them, or when the file is compacted.

Compacting (:func:`compact_if_worth`) merges the full-text indexes into one segment each (which drops the
removed passages' words) and rewrites the file without its free pages (VACUUM), when they are a large share
of it (sqlitefiles.COMPACT_SHARE, COMPACT_LEAST), and once whatever the share (see _COMPACTED). It runs
after a removal: in ``kb remove`` and in the
panel's worker thread after Delete, never on the window's GUI thread. Searches read on meanwhile (WAL); an
import in another program waits for it.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from typing import NamedTuple

from ..sqlitefiles import compact, compact_room, fold_in, out_of_space, worth_compacting
from .store import KnowledgeBase
from .store_file import megabytes, room_to_compact

log = logging.getLogger(__name__)

# Set in ``meta`` once the file has been compacted. Until then, the first removal compacts it whatever its
# free share: the pages freed before removals zeroed what they freed (by older versions, or by the index's
# merges) may hold removed sources' text (the reviewer's: a salary, in 8 free pages of 279).
_COMPACTED = "compacted"


class Compacted(NamedTuple):
    """What compact_if_worth did, in words: ``done`` ("knowledge.db compacted from 9.1 MB to 2.0 MB"), or
    ``not_done``: why a compaction worth doing was not (no room for it on a disk); "" when nothing is worth
    saying (nothing was done, or only the first compaction, which clears what earlier removals left)."""

    done: str = ""
    not_done: str = ""


def compact_if_worth(kb: KnowledgeBase, starting: Callable[[], None] | None = None) -> Compacted:
    """Compact ``kb``'s file when enough of it is free (``starting()`` is called first: it may take seconds),
    or when it never was, and when its disks have room for it; what was done, or why not. When it could not
    be (another program writing, no room), the next removal tries again."""
    if kb.readonly:
        return Compacted()
    try:
        once = kb.conn.execute("SELECT 1 FROM meta WHERE key = ?", (_COMPACTED,)).fetchone() is None \
            and kb.conn.execute("PRAGMA freelist_count").fetchone()[0] > 0
        worth = worth_compacting(kb.conn)
        if not once and not worth:
            return Compacted()
        # Refused before it starts when a disk lacks room: a VACUUM failing midway leaves the log grown to
        # the disk's last free byte, and the disk full, until the log can be folded in.
        room, needs = _room(kb)
        if room:
            if worth and starting is not None:  # the first one, for what is left behind, is not said
                starting()
            kb.optimize()
            room, needs = _room(kb)  # the merged index written: what is left
        if not room:
            return _not_done(kb, worth, needs)
        try:
            before, after = compact(kb.conn)
        except sqlite3.Error as exc:
            if not out_of_space(exc, kb.path.parent):
                raise
            return _not_done(kb, worth, f"a disk ran out of room meanwhile ({needs})")
        kb.conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES(?, '1')", (_COMPACTED,))
    except sqlite3.Error as exc:  # another program writing, a full disk: the file stays as it is, whole
        log.warning("%s could not be compacted: %s", kb.path, exc)
        return Compacted()
    return Compacted(f"{kb.path.name} compacted from {megabytes(before)} to {megabytes(after)}" if worth else "")


def _room(kb: KnowledgeBase) -> tuple[bool, str]:
    """Whether the disks have room to compact ``kb``'s file, and what it needs (store_file.room_to_compact),
    once the log is folded in: the pages written since take room the fold gives back."""
    fold_in(kb.conn)
    return room_to_compact(kb.path, compact_room(kb.conn))


def _not_done(kb: KnowledgeBase, worth: bool, needs: str) -> Compacted:
    """A compaction not done for want of room: said when it was worth doing (the first one is not said)."""
    log.warning("%s not compacted: %s", kb.path, needs)
    return Compacted(not_done=f"{kb.path.name} was not compacted to give the space back to the disk: {needs}. "
                              "A later removal compacts it once there is room" if worth else "")
