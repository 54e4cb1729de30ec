"""The knowledge panel's watch on its knowledge base: what ``kb add`` in a terminal beside the window stores is
listed without a click, read off the GUI thread.

A timer looks at the knowledge base every catch_up.CATCH_UP_EVERY_MS (one PRAGMA; a panel whose own import
ended first went on listing 3,516 of the 5,000 sources both stored) while the panel is shown and its
window not minimized; coming back to the window (activating it, restoring it) looks at once. When it changed,
the sources are read on the panel's search thread and the list is swapped in on the GUI thread: read there,
with an embedding model set, each of ``kb add``'s commits froze the window for 0.28 to 0.60 s at 300,000
passages (the sources lacking the model's vectors are found by scanning them all). While another program
imports, it commits every few seconds: the list is then read again at most every CATCH_UP_WHILE_IMPORTING_S.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from pathlib import Path
from typing import NamedTuple

from PySide6.QtCore import QEvent

from ..kb import Error, open_store
from ..kb.store import db_path, needs_rebuild
from ..kb.unfinished import importing_elsewhere
from ..sqlitefiles import file_uri
from .catch_up import catch_up_timer, in_sight

log = logging.getLogger(__name__)

# How often, at most, the list is read again while another program is importing (each commit changes it).
CATCH_UP_WHILE_IMPORTING_S = 10.0


class Listed(NamedTuple):
    """The sources list as read off the GUI thread, with what the store said as it opened."""

    sources: list
    unembedded: set
    removed_own: object
    notice: str = ""  # why nothing can be saved now (a full disk: store.KnowledgeBase.notice)


NOT_LISTED = ("The sources could not be listed again; the list shows them as they were. The details are in the "
              "log (Help → Open log folder).")


def read_list(data_dir: Path, model: str) -> Listed | str | None:
    """The sources of the knowledge base in ``data_dir``, and those lacking ``model``'s vectors ("": none
    asked); the words of the error when it cannot be opened; None when there is none yet. Any thread. On a full
    disk, read all the same, ``notice`` saying that nothing can be saved."""
    try:
        kb = open_store(data_dir, create=False, to_list=True)
    except Error as exc:
        return str(exc)
    if kb is None:
        return None
    with kb:
        return Listed(kb.sources(), kb.unembedded(model) if model else set(), kb.removed_own, kb.notice)


class WatchingMixin:
    """KnowledgePanel's catching up with what other programs change (mixed into it, see kb_panel.py)."""

    def _start_watching(self) -> None:
        """Called once, in __init__, before the list is first read."""
        # What the database was when the list was last read, to read it again only when it changed since
        # (sources added with kb add in a terminal): see _database_version.
        self._watch: sqlite3.Connection | None = None
        self._watch_file: tuple[int, int] | None = None
        self._read_version: object = None
        self._reads = 0  # lists asked for: a read off the GUI thread is shown only if none was asked since
        self._reading = False  # one is being read off the GUI thread
        self._listed_at = 0.0  # time.monotonic() when the list was last shown
        self._checking = catch_up_timer(self, self._check_for_changes)  # runs once the panel has been shown
        self._relay.listed.connect(self._on_listed)

    def _embed_model(self) -> str:
        return str(self.settings_provider().get("embed_model", "") or "")

    def catch_up(self) -> bool:
        """Read the list again, now, if the knowledge base changed since it was read (``kb add`` in a terminal,
        another window). Cheap when nothing changed (one PRAGMA); never while an import or a Delete of the
        panel's own runs, which reads the list again as it ends. True when the list was read again."""
        if not self._listed or self._busy or self._database_version() == self._read_version:
            return False
        self._stale = True  # the Search tab's results too
        before = self.sources_model.locations()
        self.refresh()
        self._search_again_in_sight(before)
        self.sourcesChanged.emit()
        return True

    def _check_for_changes(self, ticked: bool = True) -> None:
        """Read the list again off the GUI thread if the knowledge base changed: on the timer's tick
        (``ticked``), only while the panel is shown in a window not minimized, and not with the sources'
        menu open over them; coming back to the window, at once."""
        if not self._listed or self._busy or self._reading or self._menu is not None or self._quitting:
            return
        if not in_sight(self):
            return
        version = self._database_version()
        if version == self._read_version:
            return
        if ticked and time.monotonic() - self._listed_at < CATCH_UP_WHILE_IMPORTING_S \
                and importing_elsewhere(self.data_dir):
            return  # read again a little later
        if needs_rebuild(self.data_dir):  # the rebuild that refresh starts runs off the GUI thread itself
            self.catch_up()
            return
        self._reads += 1
        model = self._embed_model()
        try:
            self._searcher.submit(self._list_work, self._reads, version, model)
        except RuntimeError:  # the search thread was shut down: the window is closing
            return
        self._reading = True

    def _list_work(self, number: int, version: object, model: str) -> None:
        try:
            listed: Listed | str | None | BaseException = read_list(self.data_dir, model)
        except Exception as exc:  # said, and read again at the next change; the thread must never die silently
            log.exception("the sources list could not be read")
            listed = exc
        self._relay.listed.emit(number, version, model, listed)

    def _on_listed(self, number: int, version: object, model: str, listed: object) -> None:
        """The list read by _list_work, shown unless the list was read since, an import or a Delete began,
        the sources' menu was opened or the embedding model changed; else it is read again at the next tick."""
        self._reading = False
        if number != self._reads or self._busy or self._menu is not None or self._quitting \
                or model != self._embed_model():
            return
        if isinstance(listed, BaseException):  # logged: not read again, and logged again, at every tick
            self._read_version = version
            self.status_label.setText(NOT_LISTED)
            return
        self._stale = True
        before = self.sources_model.locations()
        self._show_list(version, model, listed)  # type: ignore[arg-type]
        self._search_again_in_sight(before)
        self.sourcesChanged.emit()

    def event(self, event: QEvent) -> bool:
        # The window activated again (the user comes back from the terminal where they ran kb add): Qt
        # passes the activation on to the window's visible widgets.
        if event.type() == QEvent.Type.WindowActivate:
            self._check_for_changes(ticked=False)
        return super().event(event)  # type: ignore[misc]

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.WindowStateChange and not self.window().isMinimized():
            # restored: what the minimized window skipped (a panel that is a window of its own; the main
            # window passes on no state change, but restoring it activates it: event())
            self._check_for_changes(ticked=False)
        super().changeEvent(event)  # type: ignore[misc]

    def _database_version(self) -> object:
        """A value that changes whenever the knowledge base changes: the database file's identity and
        SQLite's data_version, asked of a connection kept open for it (it changes when any other connection,
        in this process or another, commits). The files' sizes and times when that cannot be asked (no
        database yet, a folder that cannot be written)."""
        path = db_path(self.data_dir)
        try:
            info = path.stat()
        except OSError:
            self._close_watch()
            return None
        if self._quitting:  # its read-only connection, open at the end, left knowledge.db-wal and -shm behind
            return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
        identity = (info.st_dev, info.st_ino)
        if self._watch is not None and self._watch_file != identity:  # replaced since: watch the new file
            self._close_watch()
        try:
            if self._watch is None:
                self._watch = sqlite3.connect(f"{file_uri(path.absolute())}?mode=ro", uri=True, isolation_level=None,
                                              timeout=0.2)
                self._watch_file = identity
            return identity, self._watch.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.Error:
            self._close_watch()
        stamps = [identity, info.st_size, info.st_mtime_ns]
        try:
            wal = Path(f"{path}-wal").stat()
            stamps += [wal.st_size, wal.st_mtime_ns]
        except OSError:
            pass
        return tuple(stamps)

    def _close_watch(self) -> None:
        if self._watch is not None:
            self._watch.close()
        self._watch, self._watch_file = None, None
