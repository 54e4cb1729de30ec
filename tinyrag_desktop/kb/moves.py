"""A file found again under another path, with the same bytes, where its old path is gone: the source is
moved (its location changed, its passages, index entries and vectors kept), not stored a second time.

``kb add docsA; mv docsA docsB; kb add docsB`` stored every file twice (82 sources for 41 files), and a
search found each passage twice, the copy whose file is gone first. An import now looks, for a file not
stored under its own path, for a source with the same content hash whose file is gone from the disk and
whose name is the file's (the title may come from the name; the passages from the bytes): that source is
moved. Other sources it left behind in folders now gone (an older version stored a moved folder again, each
file twice) are removed as the file is imported again (the summary counts them as removed). The links other pages make to
it are filed under its new path at the import's end (retarget_links), in one pass over the links, rather
than one per file moved.
"""

from __future__ import annotations

import os

from .import_items import _deleted
from .models import SourceInfo
from .store import KnowledgeBase, _now
from .store_schema import stored_hashes

_SAME_BYTES = ("SELECT id, title, location, type, size, content_hash, imported_at, load_id, chunk_count"
               " FROM sources WHERE content_hash IN (?, ?) ORDER BY imported_at DESC, id DESC")


def left_behind(kb: KnowledgeBase, location: str, digest: str, folder_gone: bool = False) -> list[SourceInfo]:
    """The sources stored from the file at ``location`` (its bytes hash to ``digest``) under a path it has
    left: the same bytes and name, another path, gone from the disk (with ``folder_gone``, its whole folder
    gone: a file deleted from a folder still there is that folder's import's to remove); the newest first."""
    name = os.path.basename(location)
    found = [SourceInfo(*row) for row in kb.conn.execute(_SAME_BYTES, stored_hashes(digest)).fetchall()]
    return [source for source in found if source.location != location and os.path.isabs(source.location)
            and os.path.basename(source.location) == name and _deleted(source.location)
            and (not folder_gone or _deleted(os.path.dirname(source.location)))]


def moved_source(kb: KnowledgeBase, location: str, digest: str) -> SourceInfo | None:
    """The source that the file at ``location``, whose bytes hash to ``digest``, was stored as under a path
    now gone (the newest, when several were); None when there is none, or a source is stored under
    ``location`` itself."""
    if kb.source_by_location(location) is not None:
        return None
    return next(iter(left_behind(kb, location, digest)), None)


def move_source(kb: KnowledgeBase, source: SourceInfo, location: str, load_id: str) -> None:
    """File ``source`` under ``location``, imported now by the import ``load_id``; all it holds is kept."""
    with kb.together(f"Could not move {source.location} to {location} in the knowledge base"):
        kb.conn.execute("UPDATE sources SET location = ?, imported_at = ?, load_id = ? WHERE id = ?",
                        (location, _now(), load_id, source.id))


def retarget_links(kb: KnowledgeBase, moves: dict[str, str]) -> None:
    """File the links that pointed at the moved sources' old paths (``moves``: old → new) under the new."""
    if not moves:
        return
    rows = [(moves[target], link_id) for link_id, target in kb.conn.execute("SELECT id, target FROM links")
            if target in moves]
    if rows:
        with kb.together("Could not file the links to the moved files under their new paths"):
            kb.conn.executemany("UPDATE links SET target = ? WHERE id = ?", rows)
