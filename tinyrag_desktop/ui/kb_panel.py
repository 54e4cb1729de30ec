"""The knowledge panel: the sources list, imports (files, folder, drag and drop, URL, Wikipedia) and a search tab.

Imports run on a worker thread with their own database connection; a small relay QObject carries their
progress and report back to the GUI thread as queued signals. Cancel stops the import between sources,
so the list never shows a half-imported source.

The search tab searches exactly as the model's ``rag_knowledge`` tool does: with an embedding model set,
the question is embedded and vector ranks are fused with BM25. That takes a request to the server, so
searches run on their own worker thread too, which also loads the stored vectors into memory ahead of the
first search (at start and after each import).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Sequence

from PySide6.QtCore import (
    QCoreApplication, QEvent, QItemSelection, QItemSelectionModel, QModelIndex, QObject, QPoint, QSize, QStandardPaths,
    Qt, QTimer, Signal,
)
from PySide6.QtGui import QAction, QDragEnterEvent, QDropEvent, QKeySequence, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView, QApplication, QDialogButtonBox, QFileDialog, QHBoxLayout, QHeaderView, QInputDialog,
    QLineEdit, QListWidget, QListWidgetItem, QMenu, QMessageBox, QProgressBar, QPushButton, QTabWidget, QVBoxLayout,
    QWidget,
)

from ..kb import (
    Error, Hit, Hits, ImportItem, Importer, ImportReport, Progress, open_store, query_terms, search,
    warm_vectors,
)
from ..kb.embed import Embedder, query_vector
from ..kb.import_report import WAITING
from ..kb.own_data import said
from ..kb.readers import SUPPORTED
from ..kb.store import db_path, needs_rebuild
from ..kb.unfinished import stopped_by_closing
from .access import announce
from .item_menu import keyboard_menu_at_current_row
from .kb_address import web_address_problem, with_scheme
from .kb_drop import items_from_urls, left_out
from ..settings import Settings
from .kb_results import ANCHOR_ROLE, HitDelegate, preview, shown_heading, syntax_note
from .kb_summary import (
    StatusLabel, SummaryBox, elided as _elided, failure as _failure, in_window,
    joined as _joined, short_location as _short_location, summary, whole_summary,
)
from .kb_sources_view import LOCATION_ROLE, ElideMiddle, SourcesModel, SourcesView
from .sources import open_source, wikipedia_article

log = logging.getLogger(__name__)

class _OnShow(QObject):
    """Calls ``then`` when its watched widget is shown, and once more after the show has run to its end
    (installed as its event filter): QInputDialog enables its OK button again as it shows."""

    def __init__(self, parent: QObject, then: Callable[[], None]) -> None:
        super().__init__(parent)
        self._then = then

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Show:
            self._then()
            QTimer.singleShot(0, self._then)
        return False


_FILE_FILTER = "Documents ({});;All files (*)".format(" ".join(f"*{ext} *{ext}.gz" for ext in sorted(SUPPORTED)))


class _Relay(QObject):
    """Lives in the GUI thread; the worker emits through it, Qt queues the calls across threads."""

    progress = Signal(object)
    finished = Signal(object)
    rebuilt = Signal(str)  # the search index was rebuilt for this version: "" or the reason it failed
    searched = Signal(int, object, str)  # search number, hits (or the error's words), a note
    removed = Signal(int, str)  # sources removed, and "" or the reason none were


class _Running:
    """The import running: what was asked and when, how many sources it found (from its worker thread),
    and its report once it ends; kept to leave a note when the app closes during it."""

    def __init__(self, items: Sequence[ImportItem | str]) -> None:
        self.asked = [str(getattr(item, "value", item)) for item in items]
        self.started = time.time()
        self.total = 0
        self.report: ImportReport | None = None

    def progressed(self, then: Callable[[Progress], object]) -> Callable[[Progress], None]:
        def on_progress(progress: Progress) -> None:
            self.total = progress.total
            then(progress)

        return on_progress


class KnowledgePanel(QWidget):
    """Manage and try the knowledge base in ``data_dir``; ``settings_provider`` gives the current settings."""

    importFinished = Signal(object)  # ImportReport (once for an import and those that waited for it)
    sourcesChanged = Signal()
    searchFinished = Signal(int)  # how many passages the search tab shows
    deleteFinished = Signal(int)  # how many sources Delete removed

    def __init__(self, data_dir: Path, settings_provider: Callable[[], Settings], parent: QWidget | None = None,
                 *, list_now: bool = True):
        """``list_now`` False leaves the sources list to be read when the panel is first shown (the window
        starts with it closed: 10,000 sources took a fifth of a second of every start)."""
        super().__init__(parent)
        self.setObjectName("knowledgePanel")
        self.data_dir = Path(data_dir)
        self.settings_provider = settings_provider
        self._cancel = threading.Event()
        self._worker: threading.Thread | None = None
        # Imports asked for while the panel was busy (items, force), and what the first of a run of them did.
        self._waiting: list[tuple[list, bool]] = []
        self._earlier: ImportReport | None = None
        self._dropped_note = ""  # what a drop held that could not be imported, said when the import ends
        self._last_folder = ""  # where files or a folder were last chosen
        self._menu: QMenu | None = None  # the sources list's context menu while it is open
        self._relay = _Relay(self)
        self._relay.progress.connect(self._on_progress)
        self._relay.finished.connect(self._on_finished)
        self._relay.searched.connect(self._on_searched)
        self._relay.rebuilt.connect(self._on_rebuilt)
        self._relay.removed.connect(self._on_removed)
        # One thread for searches and vector loading, so they keep one database connection between them.
        self._searcher = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kb-search")
        self._searches = 0
        self._query = ""  # the text of the newest search
        self._stale = False  # whether sources changed since it ran
        self._busy = False
        self.setAcceptDrops(True)
        self._listed = False  # whether the sources list has been read yet
        # What the database was when the list was last read, to read it again only when it changed since
        # (sources added with kb add in a terminal): see _database_version.
        self._watch: sqlite3.Connection | None = None
        self._quitting = False
        self._watch_file: tuple[int, int] | None = None
        self._read_version: object = None
        self._after_delete: str | None = None  # the source made current once a Delete is done
        self._progress: Progress | None = None  # the running import's last progress
        self._import = _Running([])
        self._build()
        if list_now:
            self.refresh()
        self._warm_vectors()
        app = QCoreApplication.instance()
        if app is not None:  # quitting mid-import: stop after the current source rather than inside it
            app.aboutToQuit.connect(self._on_quit)

    # ---- layout ------------------------------------------------------------------------------------

    def _build(self) -> None:
        self.tabs = QTabWidget(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tabs)

        sources_tab = QWidget()
        col = QVBoxLayout(sources_tab)
        buttons = QHBoxLayout()
        # One "Add" button with a menu keeps the row short: the panel docks beside the chat, which needs
        # the room (four buttons in a row made the panel 570 pixels wide at least).
        self.add_button = QPushButton("Add")
        self.add_button.setObjectName("kbAdd")
        self.add_button.setToolTip("Add files, a folder, a web page or a Wikipedia article")
        add_menu = QMenu(self.add_button)
        self.add_files_action = add_menu.addAction("Files…", lambda: self.choose_files())
        self.add_folder_action = add_menu.addAction("Folder…", lambda: self.choose_folder())
        self.add_url_action = add_menu.addAction("Web page (URL)…", lambda: self.ask_url())
        self.add_wiki_action = add_menu.addAction("Wikipedia article…", lambda: self.ask_wikipedia())
        self.add_button.setMenu(add_menu)
        buttons.addWidget(self.add_button)
        buttons.addStretch(1)
        self.reimport_button = self._button("Re-import", "kbReimport", self.reimport_selected, buttons)
        self.delete_button = self._button("Delete", "kbDelete", self.delete_selected, buttons)
        col.addLayout(buttons)

        self.sources_model = SourcesModel(self)
        self.sources_view = SourcesView()
        self.sources_view.setObjectName("kbSources")
        self.sources_view.setModel(self.sources_model)
        self.sources_view.setRootIsDecorated(False)
        self.sources_view.setUniformRowHeights(True)  # rows of one line: no row is measured on its own
        # Sortable by any column (newest first to begin with): by Vectors to pick those to re-import.
        self.sources_view.setSortingEnabled(True)
        self.sources_view.sortByColumn(3, Qt.SortOrder.DescendingOrder)
        self.sources_view.setAlternatingRowColors(True)
        self.sources_view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.sources_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.sources_view.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.sources_view.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # Only Title stretches: with Vectors hidden, Imported is the last column shown, and stretching it too
        # halved the room the titles get and cut its date short in a narrow dock ("2026-11-30 15…").
        self.sources_view.header().setStretchLastSection(False)
        # Sized to the rows in sight (and the widest of all: see SourcesView): asking all 10,000 sources
        # (Qt asks 1,000 by default) for five roles each took longer than reading them from the database.
        self.sources_view.header().setResizeContentsPrecision(0)
        # Titles often differ only at the end ("…user guide: tools", "…user guide: the knowledge base").
        self.sources_view.setItemDelegateForColumn(0, ElideMiddle(self.sources_view))
        self.sources_view.selectionModel().selectionChanged.connect(lambda *_: self._update_buttons())
        self.sources_view.setAccessibleName("Imported sources")
        self.sources_view.deleteRequested.connect(lambda: self.delete_selected())
        # Activated: a double click, or Enter on the current row, so the keyboard can open a source too.
        self.sources_view.activated.connect(lambda index: self._open(index.data(LOCATION_ROLE)))
        self.sources_view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)  # a right click did nothing
        self.sources_view.customContextMenuRequested.connect(self._source_menu)
        keyboard_menu_at_current_row(self.sources_view)  # the Menu key's menu was for the row below
        col.addWidget(self.sources_view, 1)

        progress_row = QHBoxLayout()
        self.progress_bar = QProgressBar()
        self.progress_bar.setObjectName("kbProgress")
        # A screen reader said only "progress bar": what it measures is named as each task starts.
        self.progress_bar.setAccessibleName("Import progress")
        self.status_label = StatusLabel("")  # the drop hint, with sources listed (see StatusLabel.show_idle)
        self.status_label.setObjectName("kbStatus")
        self.status_label.setWordWrap(True)
        self.cancel_button = self._button("Cancel", "kbCancel", self.cancel_import, progress_row)
        progress_row.insertWidget(0, self.progress_bar, 1)
        col.addLayout(progress_row)
        self.summary = SummaryBox(self.status_label)
        self.summary.dismissed.connect(lambda: self.status_label.show_idle(self.source_count() > 0))
        col.addWidget(self.summary)
        self._set_busy(False)
        self.tabs.addTab(sources_tab, "Sources")

        search_tab = QWidget()
        scol = QVBoxLayout(search_tab)
        row = QHBoxLayout()
        self.query_edit = QLineEdit()
        self.query_edit.setObjectName("kbQuery")
        self.query_edit.setAccessibleName("Search the knowledge base")  # the placeholder is no name to a screen reader
        self.query_edit.setAccessibleDescription("Ask in your own words, then press Enter")
        # short enough for the dock's default width ("… e.g. how do I res" was cut); the example in the tooltip
        self.query_edit.setPlaceholderText("Ask in your own words")
        self.query_edit.setToolTip("Ask as you would ask a person, e.g. how do I reset my password")
        self.query_edit.returnPressed.connect(self.run_search)
        empty = QAction(self.query_edit)  # Esc empties the box, as the chats list's does (not the window's Stop)
        empty.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        empty.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        empty.triggered.connect(self.query_edit.clear)
        self.query_edit.addAction(empty)
        row.addWidget(self.query_edit, 1)
        self._button("Search", "kbSearch", self.run_search, row)
        scol.addLayout(row)
        self.results = QListWidget()
        self.results.setObjectName("kbResults")
        self.results.setWordWrap(True)
        self.results.setSpacing(4)
        self.results.setAlternatingRowColors(True)
        self.results.setItemDelegate(HitDelegate(self.results))
        self.results.setResizeMode(QListWidget.ResizeMode.Adjust)  # wrap again when the panel is resized
        self.results.setAccessibleName("Matching passages")  # and how many, in its description (see _on_searched)
        self.results.itemActivated.connect(  # at the passage's place in its page (an HTML id), if it has one
            lambda item: self._open(item.data(Qt.ItemDataRole.UserRole), item.data(ANCHOR_ROLE)))
        scol.addWidget(self.results, 1)
        self.search_note = StatusLabel("")  # why a result did not open: on the Sources tab's line it went unseen
        self.search_note.setObjectName("kbSearchNote")
        self.search_note.setWordWrap(True)
        self.search_note.hide()
        scol.addWidget(self.search_note)
        self.tabs.addTab(search_tab, "Search")
        self.tabs.currentChanged.connect(self._on_tab)
        self.setFocusProxy(self.tabs)  # focusing the panel (Ctrl+Shift+K) lands on its tabs

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """Docked for the first time, wide enough for the Title column beside Type, Passages and Imported: at the
        width of its buttons, the titles got about 50 pixels ("tinyR…"). A width the user set comes back.
        In a narrow window, at most two fifths of it: at 800 px it took 370, the conversation was squeezed
        to 400 and the chats list folded away."""
        hint = super().sizeHint()
        width = max(hint.width(), self.fontMetrics().averageCharWidth() * 64)
        window = self.window()
        if window is not self and window.width() > 0:
            width = min(width, max(self.minimumSizeHint().width(), int(window.width() * 0.4)))
        return QSize(width, hint.height())

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.summary.set_cap(self.height() // 3)  # a long summary scrolls rather than squeeze the list

    def _button(self, text: str, name: str, slot: Callable[[], object], layout: QHBoxLayout) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName(name)
        button.clicked.connect(lambda _checked=False: slot())
        layout.addWidget(button)
        return button

    # ---- sources -----------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Reload the sources list from the database, keeping the selected sources selected (by their
        location: a source imported again is stored anew) and the list where it was scrolled to."""
        self._listed = True
        place = self._place()
        self._read_version = self._database_version()  # before reading: a change made meanwhile is seen next time
        self.sources_model.set_sources([])
        self._update_buttons()  # a selection removed with its rows says nothing of it
        # With an embedding model set, say which sources lack its vectors (imported before it was set, or
        # while its server was down): selecting them and Re-import embeds them. Hidden without one, also
        # before the knowledge base exists (an empty panel showed a Vectors column).
        model = str(self.settings_provider().get("embed_model", "") or "")
        self.sources_view.setColumnHidden(4, not model)
        if not self.is_importing() and needs_rebuild(self.data_dir):
            self._rebuild_index()
            return
        try:
            kb = open_store(self.data_dir, create=False)
        except Error as exc:
            self.status_label.setText(in_window(str(exc)))
            if not self._busy:  # "No sources yet. Click Add" would send the user to an import that fails
                self.sources_view.empty_text = self.sources_view.UNREADABLE_TEXT
            return
        if not self._busy:
            self.sources_view.empty_text = self.sources_view.EMPTY_TEXT
        if kb is None:
            self.status_label.show_idle(False)
            return
        with kb:
            sources = kb.sources()
            unembedded = kb.unembedded(model) if model else set()
        self.sources_model.set_sources(sources, unembedded, model)
        self.status_label.show_idle(bool(sources))
        if kb.removed_own:  # sources an older version imported from the data folder: removed as it opened
            self.status_label.setText(said(kb.removed_own))
        self._restore_place(*place)

    def catch_up(self) -> bool:
        """Read the list again if the knowledge base changed since it was read (``kb add`` in a terminal,
        another window): called as the panel is shown and as its window is activated again. Cheap when
        nothing changed (one PRAGMA); never while an import or a Delete of the panel's own runs, which
        reads the list again as it ends. True when the list was read again."""
        if not self._listed or self._busy or self._database_version() == self._read_version:
            return False
        self._stale = True  # the Search tab's results too
        self.refresh()
        self.sourcesChanged.emit()
        return True

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
                self._watch = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True, isolation_level=None,
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

    def _place(self) -> tuple[list[str], str | None, int]:
        """Where the list is: the selected sources' and the current one's locations, and its scroll."""
        model, view = self.sources_model, self.sources_view
        current = view.currentIndex()
        return ([location for _, location in self._selected()],
                model.source(current.row()).location if current.isValid() else None,
                view.verticalScrollBar().value())

    def _restore_place(self, selected: Sequence[str], current: str | None, scrolled: int) -> None:
        """Select ``selected`` and make ``current`` the current row again where they are still listed; the
        list scrolled to where it was, or to the current row if that is out of sight."""
        model, view = self.sources_model, self.sources_view
        if selected or current:
            wanted = set(selected) | ({current} if current else set())
            rows = {model.source(row).location: row for row in range(model.rowCount())
                    if model.source(row).location in wanted}
            chosen = sorted(rows[location] for location in selected if location in rows)
            selection = QItemSelection()
            start = previous = None
            for row in chosen + [None]:  # in runs of rows: select all of 10,000 is one range, not 10,000
                if row is not None and previous is not None and row == previous + 1:
                    previous = row
                    continue
                if start is not None:
                    selection.select(model.index(start, 0), model.index(previous, model.columnCount() - 1))
                start = previous = row
            flags = QItemSelectionModel.SelectionFlag
            if current in rows:
                view.selectionModel().setCurrentIndex(model.index(rows[current], 0), flags.NoUpdate)
            view.selectionModel().select(selection, flags.ClearAndSelect)
        view.verticalScrollBar().setValue(scrolled)
        if view.currentIndex().isValid():
            view.scrollTo(view.currentIndex())  # only scrolls when it is out of sight

    def on_settings_applied(self) -> None:
        """Settings changed: show or hide the vectors column, and load the embedding model's vectors."""
        if self._listed:  # a list never read yet is read as it is shown, with these settings
            self.refresh()
        self._warm_vectors()

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if not self._listed:
            self.refresh()
        else:  # shown again: sources added from a terminal meanwhile are listed
            self.catch_up()
        super().showEvent(event)

    def event(self, event: QEvent) -> bool:
        # The window activated again (the user comes back from the terminal where they ran kb add): Qt
        # passes the activation on to the window's visible widgets.
        if event.type() == QEvent.Type.WindowActivate:
            self.catch_up()
        return super().event(event)

    def source_count(self) -> int:
        if not self._listed:
            self.refresh()
        return self.sources_model.rowCount()

    def _selected(self) -> list[tuple[int, str]]:
        """The selected sources' ids and locations, in the list's order."""
        # From the selection's ranges: selectedRows() asks the model about every cell (175 ms for 10,000).
        rows = sorted({row for part in self.sources_view.selectionModel().selection()
                       for row in range(part.top(), part.bottom() + 1)})
        return [(source.id, source.location) for source in map(self.sources_model.source, rows)]

    def delete_selected(self, confirm: bool = True) -> int:
        """Start removing the selected sources off the GUI thread (thousands take a second or more), in
        one transaction: all of them or none. How many it starts on; ``deleteFinished`` says how many went."""
        selected = self._selected()
        if not selected or self._busy:
            return 0
        if confirm and QMessageBox.question(self, "Delete sources", self._delete_question(selected)) \
                != QMessageBox.StandardButton.Yes:
            return 0
        self._after_delete = self._next_after(selected)
        self._set_busy(True)
        self.progress_bar.setAccessibleName("Removing sources")
        self.progress_bar.setRange(0, 0)  # busy, with no steps to count
        self.cancel_button.setVisible(False)  # one transaction: stopping it halfway would keep nothing
        self.status_label.setText(f"Removing {_sources(len(selected))}…")
        self._worker = threading.Thread(target=self._delete_work, args=([sid for sid, _ in selected],),
                                        name="kb-delete", daemon=True)
        self._worker.start()
        return len(selected)

    def _next_after(self, selected: list[tuple[int, str]]) -> str | None:
        """The source a file manager makes current once ``selected`` are deleted: the first one left after
        the first deleted row, or the one left before it when none is left after (the last was deleted)."""
        ids = {source_id for source_id, _ in selected}
        model = self.sources_model
        rows = [row for row in range(model.rowCount()) if model.source(row).id in ids]
        if not rows:
            return None
        for row in [*range(rows[0] + 1, model.rowCount()), *range(rows[0] - 1, -1, -1)]:
            if model.source(row).id not in ids:
                return model.source(row).location
        return None

    def _delete_question(self, selected: list[tuple[int, str]]) -> str:
        """What Delete asks: one source by its title; and that files stay where they are, since "Delete" in a
        list of files could mean the files themselves."""
        if len(selected) == 1:
            [row] = [row for row in range(self.sources_model.rowCount())
                     if self.sources_model.source(row).id == selected[0][0]]
            title = _elided(" ".join(self.sources_model.source(row).title.split()) or selected[0][1], 80)
            return f"Remove “{title}” from the knowledge base?\n\nThe file or page itself is not deleted."
        return (f"Remove {_sources(len(selected))} from the knowledge base?\n\n"
                "The files and pages themselves are not deleted.")

    def _delete_work(self, source_ids: list[int]) -> None:
        try:
            kb = open_store(self.data_dir)
            assert kb is not None
            with kb:
                self._relay.removed.emit(kb.remove_sources(source_ids), "")
        except Exception as exc:  # said in the panel; the thread must never die silently
            self._relay.removed.emit(0, in_window(str(exc)))

    def _on_removed(self, removed: int, problem: str) -> None:
        if self._worker is not None:
            self._worker.join()
            self._worker = None
        self._set_busy(False)
        self._stale = True
        scrolled = self.sources_view.verticalScrollBar().value()
        self.refresh()  # keeps the selection: all of it when nothing was removed
        if not problem and self._after_delete:  # the list keeps its place, as a file manager's does
            self._restore_place([self._after_delete], self._after_delete, scrolled)
        self._after_delete = None
        self.sourcesChanged.emit()
        self.status_label.setText(f"Nothing was removed: {problem}" if problem else f"{_sources(removed)} removed.")
        if self._dropped_note and not self._waiting:  # dropped during the Delete, with nothing to import
            self.status_label.setText(f"{self.status_label.text()}\n{self._dropped_note}")
            self._dropped_note = ""
        self.deleteFinished.emit(removed)
        self._start_waiting()

    def reimport_selected(self) -> bool:
        items = []
        for _, location in self._selected():
            # An article is asked of its own edition (it came back from the settings' language's), and one
            # stored by title is no path (read as one, it failed with "no such file or folder").
            article = wikipedia_article(location)
            if article:
                items.append(ImportItem("wikipedia", article[1], lang=article[0]))
            elif location.startswith(("http://", "https://")):
                items.append(ImportItem("url", location))
            else:
                items.append(ImportItem("path", location))
        return self.import_items(items, force=True) if items else False

    def _source_menu(self, pos: QPoint) -> None:
        """The menu of a right click on the sources list: Open (one source), Copy location, Re-import, Delete.
        A click on a row outside the selection selects that row alone, as file managers do."""
        index = self.sources_view.indexAt(pos)
        if not index.isValid():
            return
        selection = self.sources_view.selectionModel()
        if not selection.isRowSelected(index.row(), QModelIndex()):
            flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
            selection.setCurrentIndex(index, flags)
        locations = [location for _, location in self._selected()]
        if self._menu is not None:  # one at a time; the one before is going away
            self._menu.setObjectName("")
        self._menu = menu = QMenu(self)
        menu.setObjectName("kbSourceMenu")
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.destroyed.connect(lambda *_: setattr(self, "_menu", None) if self._menu is menu else None)
        if len(locations) == 1:
            menu.addAction("Open", lambda: self._open(locations[0]))
        menu.addAction("Copy location" if len(locations) == 1 else "Copy locations",
                       lambda: QApplication.clipboard().setText("\n".join(locations)))
        menu.addSeparator()
        for text, act in (("Re-import", self.reimport_selected), ("Delete…", self.delete_selected)):
            menu.addAction(text, lambda act=act: act()).setEnabled(not self._busy)
        menu.popup(self.sources_view.viewport().mapToGlobal(pos))

    def _open(self, location: str | None, anchor: str | None = None) -> None:
        """Open a source as the answer's Sources line does: a file moved or deleted since its import is said
        so (the desktop showed nothing), and an article stored by title opens on Wikipedia, not as a file."""
        if not location:
            return
        problem = open_source(location, anchor)
        if problem:  # said on the tab it was opened from (from the Search tab, it went to the hidden Sources tab)
            label = self.search_note if self.tabs.currentIndex() == 1 else self.status_label
            label.setText(problem)
            label.setVisible(True)
            announce(label, problem)

    # ---- importing ---------------------------------------------------------------------------------

    def choose_files(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Add files to the knowledge base", self._start_folder(),
                                                _FILE_FILTER)
        if paths:
            self._last_folder = str(Path(paths[0]).parent)
            self.import_items(paths)

    def choose_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Add a folder to the knowledge base", self._start_folder())
        if path:
            self._last_folder = path
            self.import_items([path])

    def _start_folder(self) -> str:
        """Where the file and folder dialogs open: where the last choice was, else the Documents folder (or
        home). They opened in the folder the app was started from: "/" from a desktop launcher."""
        if self._last_folder and Path(self._last_folder).is_dir():
            return self._last_folder
        documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
        return documents if documents and Path(documents).is_dir() else str(Path.home())

    def ask_url(self) -> None:
        text = self._ask("Add a web page", "URL (http or https):", "https://example.org/guide.html",
                         check=web_address_problem)
        if text:
            self.import_items([ImportItem("url", with_scheme(text))])

    def ask_wikipedia(self) -> None:
        text = self._ask("Add a Wikipedia article", "Article title:", "e.g. Alan Turing")
        if text:
            self.import_items([ImportItem("wikipedia", text)])

    def _ask(self, title: str, label: str, example: str,
             check: Callable[[str], str] | None = None) -> str:
        """A line of text from a small dialog, stripped ("" when cancelled); its box is wide enough for an
        address (QInputDialog's own showed a dozen characters of one) and shows an example of what to type.
        With ``check`` (the text → what is wrong with it, or ""), OK waits for a text it accepts, and the
        reason shows in the dialog: "not a url" was taken, and refused only after the import began."""
        dialog = QInputDialog(self)
        dialog.setObjectName("kbAskDialog")
        dialog.setWindowTitle(title)
        dialog.setLabelText(label)
        dialog.setInputMode(QInputDialog.InputMode.TextInput)
        edit = dialog.findChild(QLineEdit)
        if edit is not None:
            edit.setPlaceholderText(example)
            edit.setMinimumWidth(edit.fontMetrics().averageCharWidth() * 60)
        if check is not None:
            def judge(text: str) -> None:
                problem = check(text.strip()) if text.strip() else ""
                box = dialog.findChild(QDialogButtonBox)  # made when the dialog is first laid out
                if box is not None:
                    box.button(QDialogButtonBox.StandardButton.Ok).setEnabled(bool(text.strip()) and not problem)
                dialog.setLabelText(f"{label}\n{problem}" if problem else label)

            dialog.textValueChanged.connect(judge)
            hook = _OnShow(dialog, lambda: judge(dialog.textValue()))  # showing enables OK again
            dialog.installEventFilter(hook)
        accepted = dialog.exec() == QInputDialog.DialogCode.Accepted
        text = dialog.textValue().strip()
        dialog.deleteLater()
        return text if accepted else ""

    def is_importing(self) -> bool:
        return self._worker is not None and self._worker.is_alive()

    def _rebuild_index(self) -> None:
        """Bring a knowledge base written by an older version up to date off the GUI thread: rebuilding
        its search index takes about a second per 25,000 passages. Searching works meanwhile; imports
        wait (the buttons are off), and the list is shown when it is done."""
        self._set_busy(True)
        self.sources_view.empty_text = self.sources_view.INDEXING_TEXT  # not "Importing…"
        self.progress_bar.setAccessibleName("Updating the search index")
        self.progress_bar.setRange(0, 0)  # busy, with no steps to count
        self.cancel_button.setVisible(False)  # a rebuild is one transaction: stopping it gains nothing
        self.status_label.setText("Updating the search index for this version of tinyRAG (once; a large "
                                  "knowledge base takes a minute)…")
        self._worker = threading.Thread(target=self._rebuild_work, name="kb-rebuild", daemon=True)
        self._worker.start()

    def _rebuild_work(self) -> None:
        try:
            kb = open_store(self.data_dir)
            assert kb is not None
            kb.close()
        except Exception as exc:  # said in the panel; the thread must never die silently
            self._relay.rebuilt.emit(in_window(str(exc)))
        else:
            self._relay.rebuilt.emit("")

    def _on_rebuilt(self, problem: str) -> None:
        if self._worker is not None:
            self._worker.join()
            self._worker = None
        self._set_busy(False)
        self.status_label.setText(problem or "The search index is up to date.")
        if not problem:
            self.refresh()
            self.sourcesChanged.emit()
            self._start_waiting()
        else:
            self._waiting.clear()

    def import_items(self, items: Sequence[ImportItem | str], force: bool = False) -> bool:
        """Start importing ``items`` off the GUI thread. While an import (or a Delete) runs they wait, and
        start when it is done: files dropped meanwhile are not lost. False when there is nothing to import."""
        if not items:
            return False
        if self._busy:
            self._waiting.append((list(items), force))
            self.status_label.setText(f"{self._waiting_note()} (they start when this is done)")
            return True
        settings = self.settings_provider()
        self._cancel = threading.Event()
        self._set_busy(True)
        self.progress_bar.setAccessibleName("Import progress")
        self.progress_bar.setRange(0, 0)  # until the files are listed and counted
        self.status_label.setText("Listing what to import…")
        self._progress = None
        self._import = _Running(list(items))
        self._worker = threading.Thread(target=self._work, args=(list(items), settings, force, self._cancel),
                                        name="kb-import", daemon=True)
        self._worker.start()
        return True

    def _work(self, items: list, settings: Settings, force: bool, cancel: threading.Event) -> None:
        embedder = Embedder.from_settings(settings)
        try:
            kb = open_store(self.data_dir)
            assert kb is not None
            with kb:
                importer = Importer(kb, chunk_size=int(settings["chunk_size"]), settings=settings,
                                    on_progress=self._import.progressed(self._relay.progress.emit), cancel=cancel,
                                    embedder=embedder, force=force)
                report = importer.run(items)
        except Exception as exc:  # reported in the panel; the worker thread must never die silently
            report = ImportReport()
            report.failed.append(_failure("knowledge base", in_window(str(exc))))
        finally:
            if embedder is not None:
                embedder.close()
        self._import.report = report  # read by _on_quit: the queued signal is not delivered once the app quits
        self._relay.finished.emit(report)

    def cancel_import(self) -> None:
        if not self._busy:  # ended meanwhile (a click as it ended): nothing to cancel, nothing to say
            return
        self._cancel.set()
        self._waiting.clear()  # Cancel stops what was asked for, not only the part that has started
        self.status_label.setText(self._cancelling_text())  # stops inside a long file too: see ingest

    def _cancelling_text(self) -> str:
        """What the panel says from Cancel until the import ends, with how far it got."""
        progress = self._progress
        if progress is None or not progress.total:
            return "Cancelling…"
        return f"Cancelling… ({progress.done} of {progress.total} done)"  # as the progress line counts

    def _waiting_note(self) -> str:
        count = sum(len(items) for items, _ in self._waiting)
        return f"{count} more waiting" if count != 1 else "1 more waiting"

    def _start_waiting(self) -> bool:
        """Start the imports asked for while the panel was busy, all in one; False when there are none."""
        if not self._waiting:
            return False
        batches, self._waiting = self._waiting, []
        items = [item for batch, _ in batches for item in batch]
        return self.import_items(items, force=any(force for _, force in batches))

    def shutdown(self, timeout: float = 30.0) -> None:
        """Cancel a running import and wait for it, and end the search thread (the window calls this on
        close)."""
        self._stop_importing(timeout)
        self._searcher.shutdown(wait=False, cancel_futures=True)
        self._close_watch()

    def release(self) -> None:
        """Close the connection that watches the knowledge base for changes, for good (the window is closing):
        a read-only connection closed last cannot tidy the -wal and -shm files away, and they were left."""
        self._quitting = True
        self._close_watch()

    def _stop_importing(self, timeout: float) -> None:
        self._waiting.clear()
        self._cancel.set()
        if self._worker is not None:
            self._worker.join(timeout)

    def _on_quit(self) -> None:
        # Every source is its own transaction, so even a thread cut off here leaves no half source;
        # waiting a little lets the current one finish instead of being rolled back. The search thread
        # stays: Qt says "about to quit" whenever its event loop ends, and a script that runs the loop
        # again (qasync's run_until_complete does, each time) found its searches dropped without a word.
        running = self._import if self.is_importing() and not self._cancel.is_set() else None
        waiting = [str(getattr(item, "value", item)) for items, _ in self._waiting for item in items]
        self._stop_importing(timeout=5.0)
        # Stopped by Quit, by closing the window or by SIGTERM, it ended in silence, and a folder half imported
        # looked imported: the next start says so, as it does after a crash (a note rather than a question
        # before quitting: SIGTERM and logging out cannot be asked, and adding the files again finishes it).
        # A thread still running now is cut off with the process, and the import's own mark says it.
        if running is not None and running.report is not None and running.report.cancelled:
            report = running.report
            stored = len(report.added) + len(report.updated) + len(report.unchanged)
            stopped_by_closing(db_path(self.data_dir), running.asked, running.total, stored, running.started,
                               waiting)

    def _set_busy(self, busy: bool) -> None:
        self._busy = busy
        # An empty list during the first import said "No sources yet. Click Add…" under its progress bar.
        self.sources_view.empty_text = self.sources_view.BUSY_TEXT if busy else self.sources_view.EMPTY_TEXT
        self.sources_view.viewport().update()
        self.progress_bar.setVisible(busy)
        if not busy and self.cancel_button.hasFocus():  # hidden, it gave the focus out of the panel (the status bar)
            self.add_button.setFocus(Qt.FocusReason.OtherFocusReason)
        self.cancel_button.setVisible(busy)
        self.summary.set_busy(busy)
        self._update_buttons()

    def _update_buttons(self) -> None:
        """Re-import and Delete act on the selected sources: off with none selected or an import running."""
        usable = not self._busy and self.sources_view.selectionModel().hasSelection()
        for button in (self.reimport_button, self.delete_button):
            button.setEnabled(usable)

    def _on_progress(self, progress: Progress) -> None:
        self.progress_bar.setRange(0, max(progress.total, 1))
        self.progress_bar.setValue(progress.done)
        self._progress = progress
        if self._cancel.is_set():  # the next file's line replaced "Cancelling…" at once: Cancel seemed to do nothing
            self.status_label.setText(self._cancelling_text())
        elif progress.current:
            failed = f", {progress.failed} failed" if progress.failed else ""
            waiting = f" ({self._waiting_note()})" if self._waiting else ""
            # The file's name, not its whole path: a folder's long path wrapped over three lines, and the
            # panel jumped as they went from file to file.
            current = progress.current if progress.current == WAITING else _short_location(progress.current)
            self.status_label.setText(f"{progress.done + 1} of {progress.total}{failed}{waiting}: {current}")

    def _on_finished(self, report: ImportReport) -> None:
        if self._worker is not None:
            self._worker.join()
            self._worker = None
        self._set_busy(False)
        if self._earlier is not None:  # the imports that waited for this one: one summary for them all
            report = _joined(self._earlier, report)
            self._earlier = None
        if self._waiting and not report.cancelled and not report.stopped:
            self._earlier = report
            self.refresh()
            self.sourcesChanged.emit()
            self._start_waiting()
            return
        self._waiting.clear()
        text, tip = summary(report, self._dropped_note)
        self.status_label.setText(text)
        self.status_label.setToolTip(tip)
        self.summary.set_whole(whole_summary(report, self._dropped_note))
        self._dropped_note = ""
        self._stale = True
        self.refresh()
        self._warm_vectors()
        self.sourcesChanged.emit()
        self.importFinished.emit(report)

    # ---- drag and drop -----------------------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt's name)
        if event.mimeData().hasUrls() or event.mimeData().hasText():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        urls, text = event.mimeData().urls(), event.mimeData().text()
        items = items_from_urls(urls, text)
        self.tabs.setCurrentIndex(0)  # dropped on the Search tab, the import ran out of sight
        if items:
            self.import_items(items)
            event.acceptProposedAction()
        left = left_out(urls, text)
        if left:  # said after the import starts, so that its progress does not cover it at once
            note = (f"Not imported: {', '.join(left[:3])}{' …' if len(left) > 3 else ''}. Only files, folders and "
                    "http:// or https:// links can be dropped here.")
            self.status_label.setText(note)
            if self._busy:  # and again beneath the summary: the progress replaces it at once
                self._dropped_note = note

    # ---- search ------------------------------------------------------------------------------------

    def run_search(self, text: str | None = None) -> int:
        """Start searching for ``text`` (default: the query box's words); ``searchFinished`` tells when the
        results are shown. Returns this search's number (a newer search makes an older one's results be
        dropped)."""
        self._searches += 1
        self._stale = False
        # what the results are for, though the box be edited meanwhile
        self._query = self.query_edit.text() if text is None else text
        self.search_note.hide()
        self.results.clear()
        self.results.addItem("Searching…")
        settings = self.settings_provider()
        try:
            self._searcher.submit(self._search_work, self._searches, self._query, settings)
        except RuntimeError:  # the panel is shutting down
            pass
        return self._searches

    def _search_work(self, number: int, text: str, settings: Settings) -> None:
        model = str(settings.get("embed_model", "") or "")
        vector, problem = asyncio.run(query_vector(settings, text))  # None, and why, when the server fails
        note = f"Keyword search only: {problem}." if problem else ""
        try:
            hits: list[Hit] | str = search(self.data_dir, text, int(settings["k"]), query_vector=vector,
                                           vector_model=model)
        except Error as exc:
            hits = in_window(str(exc))
        except Exception as exc:  # shown in the list: the tab must never be left at "Searching…"
            log.exception("knowledge-base search failed")
            hits = f"The search failed: {exc.__class__.__name__}: {exc}"
        self._relay.searched.emit(number, hits, note)

    def _on_searched(self, number: int, hits: list[Hit] | str, note: str) -> None:
        if number != self._searches:
            return  # a newer search is on its way
        self.results.clear()
        if isinstance(hits, str):
            self.results.addItem(hits)
            hits = []
        corrected = hits.note() if isinstance(hits, Hits) else ""
        if corrected:  # said first, as a search engine says "showing results for"
            self.results.addItem(self._note_item(corrected))
        corrections = getattr(hits, "corrected", {})
        words = [corrections.get(word, word) for word in query_terms(self._query)] if hits else []
        for n, hit in enumerate(hits, start=1):  # each passage from where the words are (kb_results.preview)
            item = QListWidgetItem(f"[{n}] {shown_heading(hit.heading, hit.title)}\n{hit.location}\n"
                                   f"{preview(hit.text, words=words)}")
            item.setData(Qt.ItemDataRole.UserRole, hit.location)
            item.setData(ANCHOR_ROLE, hit.anchor)
            item.setToolTip(hit.text[:2000])
            self.results.addItem(item)
        if not hits and not self.results.count():
            self.results.addItem(self._nothing_found(self._query))
        if note:  # said beneath the results, in grey: they are still good, just keyword-only
            self.results.addItem(self._note_item(note))
        if syntax_note(self._query) and query_terms(self._query):  # -zebrafish found zebrafish, unsaid
            self.results.addItem(self._note_item(syntax_note(self._query)))
        # No current row until the first Down: made current as the list took the focus, [1] was passed by
        # unsaid, and the first Down read [2].
        self.results.setCurrentIndex(QModelIndex())
        # How many, said: Orca read "Matching passages, list with 2 items" (notes counted) and no more.
        count = _passages(len(hits)) + " found" if hits else self.results.item(0).text() if self.results.count() else ""
        self.results.setAccessibleDescription(count)
        if count:
            announce(self.results, count)
        self.searchFinished.emit(len(hits))

    def _on_tab(self, index: int) -> None:
        """The Search tab shown after an import or a Delete: its results are searched again, so that they
        list no deleted source (which opened from the list as if still there) and find what was imported."""
        if index == 1 and self._stale and self._query.strip():
            self.run_search(self._query)

    def _nothing_found(self, text: str) -> str:
        """Why a search found nothing, as kb search says it: "No passages match." alone was also said of a
        knowledge base with no documents, and of a question with no words in it ("*", an emoji)."""
        if not text.strip():
            return "Type a question above."
        if not self._busy and self.source_count() == 0:
            return "Nothing to search yet: add files, folders or web pages in the Sources tab."
        if not query_terms(text):
            return (f"“{_elided(' '.join(text.split()), 40)}” has no words to search for (symbols, emoji and "
                    "punctuation are left out): ask with words your documents use.")
        return "No passages match."

    def _note_item(self, text: str) -> QListWidgetItem:
        item = QListWidgetItem(text)
        item.setFlags(Qt.ItemFlag.NoItemFlags)
        item.setForeground(self.palette().color(QPalette.ColorRole.PlaceholderText))
        return item

    def _warm_vectors(self) -> None:
        model = str(self.settings_provider().get("embed_model", "") or "")
        if model:
            try:
                self._searcher.submit(_quietly, warm_vectors, self.data_dir, model)
            except RuntimeError:  # the panel is shutting down
                pass


def _passages(count: int) -> str:
    return f"{count:,} passage" + ("" if count == 1 else "s")


def _sources(count: int) -> str:
    return f"{count:,} source" + ("" if count == 1 else "s")


def _quietly(load: Callable[..., object], *args: object) -> None:
    # Loading ahead is only a head start: on any failure the first search reads the vectors itself
    # (and reports what is wrong in words).
    try:
        load(*args)
    except (Error, OSError, sqlite3.Error, MemoryError):
        pass
