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

from ..sqlitefiles import compact, worth_compacting
from .store import KnowledgeBase

log = logging.getLogger(__name__)

# Set in ``meta`` once the file has been compacted. Until then, the first removal compacts it whatever its
# free share: the pages freed before removals zeroed what they freed (by older versions, or by the index's
# merges) may hold removed sources' text (the reviewer's: a salary, in 8 free pages of 279).
_COMPACTED = "compacted"


def compact_if_worth(kb: KnowledgeBase, starting: Callable[[], None] | None = None) -> str:
    """Compact ``kb``'s file when enough of it is free (``starting()`` is called first: it may take seconds),
    or when it never was; what was done, in words ("" when nothing was, or it could not be: the next removal
    tries again; and for the first compaction, which only clears what earlier removals left)."""
    if kb.readonly:
        return ""
    try:
        once = kb.conn.execute("SELECT 1 FROM meta WHERE key = ?", (_COMPACTED,)).fetchone() is None \
            and kb.conn.execute("PRAGMA freelist_count").fetchone()[0] > 0
        worth = worth_compacting(kb.conn)
        if not once and not worth:
            return ""
        if worth and starting is not None:  # the first one, for what is left behind, is not said
            starting()
        kb.optimize()
        before, after = compact(kb.conn)
        kb.conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES(?, '1')", (_COMPACTED,))
    except sqlite3.Error as exc:  # another program writing, a full disk: the file stays as it is, whole
        log.warning("%s could not be compacted: %s", kb.path, exc)
        return ""
    return f"{kb.path.name} compacted from {_mb(before)} to {_mb(after)}" if worth else ""


def _mb(size: int) -> str:
    return f"{size / 2**20:.1f} MB" if size < 10 * 2**20 else f"{size / 2**20:.0f} MB"
