"""Sources an older tinyRAG imported from its own data folder, removed once.

Importing a folder that held the data folder (a home folder) imported ``settings.json`` (its API key made
searchable, and readable by the model through ``rag_knowledge``), the app's log and its other files.
Imports now leave that folder out (import_items.expand, OWN_FOLDER); the sources an older version stored from it
are removed the first time the knowledge base is opened to write (:class:`~.store.KnowledgeBase`), or at
the window's start and before ``kb search`` (:func:`sweep`), and said once: after that there are none.

Copies of a data folder (a backup made by copying the whole folder, as the README advises) are recognised by
what they hold (is_data_folder: knowledge.db or chats.sqlite3 beside settings.json or the app's log) and left
out of imports too; the app's own files an older version imported from a copy still on disk are removed the same way (a
scan of the sources' locations for settings.json and logs/, then a look at those few folders on disk). A
copy deleted since cannot be told from a project's own settings.json, and its sources stay. That scan
costs 0.9 ms at each start among 5,800 sources (against 0.015 ms for the data folder's own range search;
medians of 200 runs).

A source is removed when it is one of the files the app itself writes in its data folder (OWN_FILES: the
README's table of them), by its real path or the path it is named by (files are stored under their real
paths). A file of the same name elsewhere (``~/project/settings.json``), one in a folder whose name merely
starts the same ("tinyrag-desktop-old"), web pages, and the user's own notes kept in a data folder of their
choosing (``--data-dir ~/notes``, which imports now leave out, but which are theirs) stay. Looking costs one range search of the sources' unique index on location per form of the path: at a
normal start (none found), 0.16 ms for the read-only look, 11 µs for the search itself, among 1,686
sources (the PostgreSQL and git manuals; medians of 200 and 2,000 runs).
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import Error
from .store_file import db_path, readonly_uri

if TYPE_CHECKING:
    from .store import KnowledgeBase

log = logging.getLogger(__name__)

# The files the app writes in its data folder (settings.SETTINGS_FILE, store_file.DB_NAME, chats.DB_FILE,
# window.ini, ui.composer.DRAFTS_FILE, ui.reading_places.PLACES_FILE, ui.single.LOCK_NAME, firstrun.GUIDE_MARKER,
# engine.THINKING_MODELS, unfinished.py's marks), with what SQLite and a damaged file's renaming put beside them ("-wal",
# ".bad-2"), and all of its folders logs/ (logsetup.LOG_FILE, rotated) and work/ (the shell tool's), as a path
# from the data folder with "/" between its parts.
OWN_FILES = re.compile(r"(?:settings\.json|knowledge\.db|chats\.sqlite3|window\.ini|drafts\.json|places\.json|"
                       r"window\.lock|\.guide-imported|thinking-models\.json)(?:[.-][^/]*)?|import-\d+\.unfinished|"
                       r"(?:logs|work)/.+")
_IN_RANGE = "SELECT id, location FROM sources WHERE location >= ? AND location < ? ORDER BY location"
# What marks a folder as a tinyRAG data folder wherever it is (a copy, a backup made by copying the whole
# folder as the README advises): one of its databases, beside its settings or a file only tinyRAG writes in
# its logs/ (logsetup.LOG_FILE, paths.MODES_CHECKED). A data folder only `kb add` has used has no settings:
# its copy, imported, gave its log to the knowledge base. A project's own settings.json or logs/ has no
# database of these names beside it, nor a log of this name.
_MARKS = ("settings.json", os.path.join("logs", "tinyrag.log"), os.path.join("logs", "modes-checked"))
_DATABASES = ("knowledge.db", "chats.sqlite3")
# Sources that may be an older import's of a copy's files: its settings, or its log (found by name, a scan of
# the sources' index on location; the folder on disk then says whether it is a data folder).
_COPY_CANDIDATES = ("SELECT DISTINCT location FROM sources WHERE location LIKE '%' || ? || 'settings.json' "
                    "OR location LIKE '%' || ? || 'logs' || ? || '%'")


def is_data_folder(folder: str) -> bool:
    """Whether ``folder`` holds what the app writes in its data folder (knowledge.db or chats.sqlite3 beside
    settings.json or logs/tinyrag.log, see _MARKS): the data folder itself, or a copy of it."""
    return any(os.path.isfile(os.path.join(folder, name)) for name in _DATABASES) and any(
        os.path.isfile(os.path.join(folder, mark)) for mark in _MARKS)


def data_folder_around(path: str) -> str:
    """The tinyRAG data folder (see is_data_folder) that holds ``path`` as one of the app's own files
    (OWN_FILES: its settings, its logs), or that ``path`` is; "" when there is none."""
    if is_data_folder(path):
        return path
    parts = Path(path).parts
    for cut in range(len(parts) - 1, 0, -1):
        inside = "/".join(parts[cut:])
        if OWN_FILES.fullmatch(inside) or inside in ("logs", "work"):
            folder = os.path.join(*parts[:cut])
            if is_data_folder(folder):
                return folder
    return ""


def _prefixes(data_dir: Path) -> list[str]:
    """The data folder's path, ending in a separator, as the sources inside it begin: real and absolute."""
    forms = [os.path.realpath(data_dir), os.path.abspath(data_dir)]
    return list(dict.fromkeys(os.path.join(form, "") for form in forms))


def is_own_file(real: str, folder: str) -> bool:
    """Whether the real path ``real`` is one of the app's own files (OWN_FILES) in its real data folder
    ``folder`` ("" holds none)."""
    prefix = os.path.join(folder, "")
    return bool(folder) and real.startswith(prefix) and bool(OWN_FILES.fullmatch(real[len(prefix):].replace(os.sep, "/")))


def own_sources(conn: sqlite3.Connection, data_dir: Path) -> dict[int, str]:
    """The sources stored from the app's own files (OWN_FILES) in ``data_dir``, or in a copy of a data
    folder (is_data_folder) that is still on disk, by id: their locations."""
    found: dict[int, str] = {}
    prefixes = _prefixes(data_dir)
    looked: set[str] = set()
    for location, in conn.execute(_COPY_CANDIDATES, (os.sep, os.sep, os.sep)):
        if (parent := os.path.dirname(location)) in looked:
            continue
        looked.add(parent)
        folder = data_folder_around(parent)
        if folder and os.path.join(folder, "") not in prefixes:
            prefixes.append(os.path.join(folder, ""))
    for prefix in prefixes:
        if not _is_text(prefix):  # a folder named in bytes that are not UTF-8: no source is stored under it
            continue
        # every string that starts with the prefix sorts between it and the prefix with its last character
        # (the separator) one higher: an index range, not a scan of every location
        for source_id, location in conn.execute(_IN_RANGE, (prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1))):
            if OWN_FILES.fullmatch(location[len(prefix):].replace(os.sep, "/")):
                found[source_id] = location
    return found


def _is_text(path: str) -> bool:
    try:
        path.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def remove_own_sources(kb: KnowledgeBase) -> list[str]:
    """Remove the sources ``kb`` holds from its own data folder; their locations (none removed: [])."""
    found = own_sources(kb.conn, kb.path.parent)
    if not found:
        return []
    try:
        kb.remove_sources(list(found))
    except Error as exc:  # locked, a full disk: tried again at the next open
        log.warning("%d sources from tinyRAG's own data folder could not be removed: %s", len(found), exc)
        return []
    removed = sorted(found.values())
    log.warning("%s: %s", said(removed), ", ".join(removed))
    return removed


def said(removed: list[str]) -> str:
    """What to tell the user of the sources removed: how many, and why."""
    count = f"{len(removed)} source{'' if len(removed) == 1 else 's'}"
    names = ", ".join(Path(location).name for location in removed[:3]) + (" …" if len(removed) > 3 else "")
    key = any(Path(location).name.startswith("settings.json") for location in removed)
    return (f"Removed {count} that an earlier version imported from tinyRAG's own data folder or a copy of it "
            f"({names}): its "
            f"settings, log and databases are not documents{', and settings.json holds your API key' if key else ''}.")


def sweep(data_dir: Path) -> list[str]:
    """Remove the sources the knowledge base in ``data_dir`` holds from that folder (see the module's
    docstring); what to say of them, once ([] when there were none, as at every normal start). Looks first
    on a read-only connection, so that a knowledge base with none is not opened to write."""
    path = db_path(data_dir)
    if not path.is_file():
        return []
    try:
        conn = sqlite3.connect(readonly_uri(path), uri=True, timeout=2)
        try:
            if not own_sources(conn, Path(data_dir)):
                return []
        finally:
            conn.close()
        from .store import KnowledgeBase

        kb = KnowledgeBase(path)
        try:
            removed = kb.removed_own
        finally:
            kb.close()
    except (sqlite3.Error, Error, OSError) as exc:  # said where the knowledge base is used, in its own words
        log.info("the data folder's own sources were not looked for in %s: %s", path, exc)
        return []
    return [said(removed)] if removed else []
