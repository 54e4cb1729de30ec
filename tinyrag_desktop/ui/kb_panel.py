"""The knowledge panel: the sources list, imports (files, folder, drag and drop, URL, Wikipedia) and a search tab.

The panel lists the sources, re-imports and deletes them, and mixes in its imports (kb_importing.py) and its
Search tab (kb_search_tab.py). Imports, deletes and searches run on worker threads; a small relay QObject
carries their progress and results back to the GUI thread as queued signals.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Sequence

from PySide6.QtCore import (
    QCoreApplication, QItemSelection, QItemSelectionModel, QModelIndex, QObject, QPoint, QSize, Qt, Signal,
)
from PySide6.QtWidgets import (
    QAbstractItemView, QApplication, QHBoxLayout, QHeaderView, QMenu, QMessageBox, QProgressBar, QPushButton,
    QTabWidget, QVBoxLayout, QWidget,
)

from ..hidden_text import shown_name
from ..kb import ImportItem, ImportReport, Progress, open_store
from ..kb.compact import compact_if_worth
from ..kb.own_data import said
from ..kb.store import KnowledgeBase, needs_rebuild
from ..settings import Settings
from .access import announce
from .busy_buttons import pass_focus, set_working
from .enter_presses import enter_presses
from .item_menu import keyboard_menu_at_current_row
from .kb_importing import ImportingMixin, RunningImport
from .kb_search_tab import SearchTabMixin
from ..sentences import after_colon
from .kb_summary import StatusLabel, SummaryBox, elided as _elided, in_window
from .kb_sources_view import LOCATION_ROLE, ElideMiddle, SourcesModel, SourcesView
from .kb_watch import Listed, WatchingMixin, read_list
from .plain_text import plain_tip
from .sources import open_source, wikipedia_article



class _Relay(QObject):
    """Lives in the GUI thread; the worker emits through it, Qt queues the calls across threads."""

    progress = Signal(object)
    finished = Signal(object)
    rebuilt = Signal(str)  # the search index was rebuilt for this version: "" or the reason it failed
    searched = Signal(int, object, str)  # search number, hits (or the error's words), a note
    removed = Signal(int, str, str)  # sources removed, "" or the reason none were, and "" or the compaction
    compacting = Signal(int)  # sources removed, and the file is being compacted (kb.compact)
    listed = Signal(int, object, str, object)  # the sources list read off the GUI thread (see kb_watch)


class KnowledgePanel(ImportingMixin, SearchTabMixin, WatchingMixin, QWidget):
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
        self._relay.compacting.connect(self._on_compacting)
        # One thread for searches and vector loading, so they keep one database connection between them.
        self._searcher = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kb-search")
        self._searches = 0
        self._query = ""  # the text of the newest search
        self._stale = False  # whether sources changed since it ran
        self._again = False  # whether it searches again for a change made elsewhere (run_search)
        self._busy = False
        self.setAcceptDrops(True)
        self._listed = False  # whether the sources list has been read yet
        self._quitting = False
        self._after_delete: str | None = None  # the source made current once a Delete is done
        self._progress: Progress | None = None  # the running import's last progress
        self._import = RunningImport([])
        self._build()
        self._start_watching()  # sources added from a terminal meanwhile listed (kb_watch.py)
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
        enter_presses(self.add_button)
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

        self.tabs.addTab(self._build_search_tab(), "Search")
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
        self._reads += 1  # a list still being read off the GUI thread is older: it is not shown (kb_watch)
        # the version before reading: a change made meanwhile is seen next time
        version, model = self._database_version(), self._embed_model()
        if not self.is_importing() and needs_rebuild(self.data_dir):
            self._show_list(version, model, None)
            self._rebuild_index()
            return
        self._show_list(version, model, read_list(self.data_dir, model))

    def _show_list(self, version: object, model: str, listed: Listed | str | None) -> None:
        """Show what kb_watch.read_list found (on this thread or off it) in the database at ``version``."""
        place = self._place()
        self._read_version, self._listed_at = version, time.monotonic()
        self._list_read = listed is not None and not isinstance(listed, str)  # (not: no sources to compare)
        self.sources_model.set_sources([])
        self._update_buttons()  # a selection removed with its rows says nothing of it
        # With an embedding model set, say which sources lack its vectors (imported before it was set, or
        # while its server was down): selecting them and Re-import embeds them. Hidden without one, also
        # before the knowledge base exists (an empty panel showed a Vectors column).
        self.sources_view.show_column(4, bool(model))
        if isinstance(listed, str):  # the knowledge base cannot be opened: why
            self.status_label.setText(in_window(listed))
            if not self._busy:  # "No sources yet. Click Add" would send the user to an import that fails
                self.sources_view.empty_text = self.sources_view.UNREADABLE_TEXT
            self._settle_focus()
            return
        if not self._busy:
            self.sources_view.empty_text = self.sources_view.EMPTY_TEXT
        if listed is None:
            self.status_label.show_idle(False, "")
            self._settle_focus()
            return
        self.sources_model.set_sources(listed.sources, listed.unembedded, model)
        self.status_label.show_idle(bool(listed.sources), in_window(listed.notice))
        if listed.removed_own:  # sources an older version imported from the data folder: removed as it opened
            self.status_label.setText(said(listed.removed_own))
        self._restore_place(*place)
        self._settle_focus()

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
        else:  # shown again: sources added from a terminal meanwhile are listed as it opens, not after
            self.catch_up()
        if not self._quitting:
            self._checking.start()
        super().showEvent(event)
        self._search_again_if_stale(shown=True)  # after an import or a Delete that ended while it was closed

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
        if confirm and QMessageBox.question(self, "Delete sources", plain_tip(self._delete_question(selected))) \
                != QMessageBox.StandardButton.Yes:
            return 0
        self._after_delete = self._next_after(selected)
        self._set_busy(True)
        self.progress_bar.setAccessibleName("Removing sources")
        self.progress_bar.setRange(0, 0)  # busy, with no steps to count
        self.cancel_button.setVisible(False)  # one transaction: stopping it halfway would keep nothing
        self.status_label.setText(f"Removing {_sources(len(selected))}…")
        self._worker = threading.Thread(target=self._delete_work, args=(selected,), name="kb-delete", daemon=True)
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
            # as the list shows it: an override in it as a mark ("invoice‹U+202E›gpj.txt"), not acting
            title = _elided(shown_name(self.sources_model.source(row).title) or shown_name(selected[0][1]), 80)
            return f"Remove “{title}” from the knowledge base?\n\nThe file or page itself is not deleted."
        return (f"Remove {_sources(len(selected))} from the knowledge base?\n\n"
                "The files and pages themselves are not deleted.")

    def _delete_work(self, selected: list[tuple[int, str]]) -> None:
        try:
            kb = open_store(self.data_dir)
            assert kb is not None
            with kb:
                removed = kb.remove_sources(_stored_ids(kb, selected))
                # here, off the GUI thread: the free pages of a large removal given back to the disk
                compacted = compact_if_worth(kb, lambda: self._relay.compacting.emit(removed))
            self._relay.removed.emit(removed, "", compacted.done or compacted.not_done)
        except Exception as exc:  # said in the panel; the thread must never die silently
            self._relay.removed.emit(0, in_window(_why_not_removed(exc)), "")

    def _on_compacting(self, removed: int) -> None:
        self.status_label.setText(f"{_sources(removed)} removed; compacting the knowledge base to give the "
                                  "space they took back to the disk…")

    def _on_removed(self, removed: int, problem: str, compacted: str = "") -> None:
        if self._worker is not None:
            self._worker.join()
            self._worker = None
        self._set_busy(False)
        scrolled = self.sources_view.verticalScrollBar().value()
        self.refresh()  # keeps the selection: all of it when nothing was removed
        if not problem and self._after_delete:  # the list keeps its place, as a file manager's does
            self._restore_place([self._after_delete], self._after_delete, scrolled)
        self._after_delete = None
        self._sources_changed_here()
        self.sourcesChanged.emit()
        self.status_label.setText(f"Nothing was removed: {after_colon(problem)}" if problem else
                                  f"{_sources(removed)} removed{'; ' + compacted if compacted else ''}.")
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

    def shutdown(self, timeout: float = 30.0) -> None:
        """Cancel a running import and wait for it, and end the search thread (tests; the window, on close,
        calls release())."""
        self._stop_importing(timeout)
        self._searcher.shutdown(wait=False, cancel_futures=True)
        self._checking.stop()
        self._close_watch()

    def release(self) -> None:
        """Close the connection that watches the knowledge base for changes, for good (the window is closing):
        a read-only connection closed last cannot tidy the -wal and -shm files away, and they were left."""
        self._quitting = True
        self._checking.stop()
        self._close_watch()

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
        """Re-import and Delete act on the selected sources: off with none selected or an import running.
        Turned off, they keep their focus for when they are on again: Space on Re-import left it on Cancel,
        where a second Space stopped the import (and the list's refresh, selection off and on, lost it)."""
        usable = not self._busy and self.sources_view.selectionModel().hasSelection()
        for button in (self.reimport_button, self.delete_button):
            set_working(button, not usable)

    def _settle_focus(self) -> None:
        """The list is shown again with nothing selected: a focus Re-import or Delete kept goes to it."""
        if not self._busy:
            for button in (self.reimport_button, self.delete_button):
                pass_focus(button, self.sources_view)


def _stored_ids(kb: KnowledgeBase, selected: list[tuple[int, str]]) -> list[int]:
    """The ids the rows ``selected`` show have now: a source removed and imported again by ``kb`` meanwhile
    has a new one (the row's removed nothing, "0 sources removed.", and the source stayed)."""
    ids = []
    for source_id, location in selected:
        source = kb.source(source_id) or kb.source_by_location(location)
        if source is not None:
            ids.append(source.id)
    return ids


def _why_not_removed(exc: Exception) -> str:
    """Why a Delete failed, without the store's "Could not remove 3 sources: " before it, which "Nothing was
    removed: " says already."""
    text, doing = str(exc), getattr(exc, "doing", "")
    return text[len(doing) + 2:] if doing.startswith("Could not remove") and text.startswith(f"{doing}: ") else text


def _sources(count: int) -> str:
    return f"{count:,} source" + ("" if count == 1 else "s")
