"""The knowledge panel's Search tab: a question searched as the model's rag_knowledge tool searches it.

The search tab searches exactly as the model's ``rag_knowledge`` tool does: with an embedding model set,
the question is embedded and vector ranks are fused with BM25. That takes a request to the server, so
searches run on their own worker thread too, which also loads the stored vectors into memory ahead of the
first search (at start and after each import).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from typing import Callable

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QPainter, QPalette
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLineEdit, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from ..hidden_text import shown_name
from ..kb import Error, Hit, Hits, query_terms, search, warm_vectors
from ..kb.code_files import CODE_TYPES
from ..kb.embed import query_vector
from ..kb.excerpt import also_in
from ..settings import Settings
from .access import announce, caret_placed
from .kb_results import ALSO_ROLE, ANCHOR_ROLE, CODE_ROLE, HitDelegate, preview, shown_heading, syntax_note
from .kb_summary import StatusLabel, elided as _elided, in_window
from .plain_text import plain_tip

log = logging.getLogger(__name__)


class SearchTabMixin:
    """KnowledgePanel's Search tab (mixed into it, see kb_panel.py)."""

    _list_read = True  # the sources list was read the last time it was asked for (kb_panel._show_list)
    _search_failed = False  # the results shown say why the search failed, not what it found

    def _build_search_tab(self) -> QWidget:
        """The tab's question box and Search button, the list of passages found, and a line for notes."""
        search_tab = QWidget()
        scol = QVBoxLayout(search_tab)
        row = QHBoxLayout()
        self.query_edit = caret_placed(QLineEdit())
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
        down = QAction(self.query_edit)  # Down goes to the first passage found, as the chats search box's does
        down.setShortcut(QKeySequence(Qt.Key.Key_Down))
        down.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        down.triggered.connect(self._to_first_result)
        self.query_edit.addAction(down)
        row.addWidget(self.query_edit, 1)
        self._button("Search", "kbSearch", self.run_search, row)
        scol.addLayout(row)
        self.results = _ResultsList(self._search_hint)
        # the keyboard leaves results it was reading: searched again if they list a source gone meanwhile
        self.results.left.connect(lambda: self.isVisible() and self._search_again_in_sight(set()))
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
        return search_tab

    def run_search(self, text: str | None = None, *, again: bool = False) -> int:
        """Start searching for ``text`` (default: the query box's words); ``searchFinished`` tells when the
        results are shown. Returns this search's number (a newer search makes an older one's results be
        dropped). ``again``: the results searched again for a change made elsewhere, which stay listed until
        the new ones replace them where the list was scrolled to."""
        self._searches += 1
        self._stale = False
        self._again = again
        # what the results are for, though the box be edited meanwhile
        self._query = self.query_edit.text() if text is None else text
        self.search_note.hide()
        if not again:
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
        scrolled = self.results.verticalScrollBar().value()
        self.results.clear()
        self._search_failed = isinstance(hits, str)
        if isinstance(hits, str):
            self.results.addItem(hits)
            hits = []
        corrected = hits.note() if isinstance(hits, Hits) else ""
        if corrected:  # said first, as a search engine says "showing results for"
            self.results.addItem(self._note_item(corrected))
        corrections = getattr(hits, "corrected", {})
        words = [corrections.get(word, word) for word in query_terms(self._query)] if hits else []
        for n, hit in enumerate(hits, start=1):  # each passage from where the words are (kb_results.preview)
            code = hit.type in CODE_TYPES
            # the other files holding the same passage, under its own: one result stands for them all
            also = f"also in: {shown_name(also_in(hit.location, hit.copies))}\n" if hit.copies else ""
            item = QListWidgetItem(f"[{n}] {shown_name(shown_heading(hit.heading, hit.title))}\n"
                                   f"{shown_name(hit.location)}\n{also}"
                                   f"{preview(hit.text, words=words, keep_lines=code)}")
            item.setData(Qt.ItemDataRole.UserRole, hit.location)
            item.setData(CODE_ROLE, code)
            item.setData(ALSO_ROLE, bool(also))
            item.setData(ANCHOR_ROLE, hit.anchor)
            item.setToolTip(plain_tip(hit.text[:2000]))
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
        if self._again:  # the reader's place kept
            self.results.doItemsLayout()  # the scroll bar's range, for the new results
            self.results.verticalScrollBar().setValue(scrolled)
        # How many, said: Orca read "Matching passages, list with 2 items" (notes counted) and no more.
        count = _passages(len(hits)) + " found" if hits else self.results.item(0).text() if self.results.count() else ""
        self.results.setAccessibleDescription(count)
        if count and (not self._again or self._focus_within()):  # not over the message box's words
            announce(self.results, count)
        self.searchFinished.emit(len(hits))

    def _to_first_result(self) -> None:
        """Put the keyboard on the first passage found (or on the first line that says why none was), past
        the notes, which cannot be chosen; nowhere while nothing is listed."""
        for row in range(self.results.count()):
            if self.results.item(row).flags() & Qt.ItemFlag.ItemIsEnabled:
                self.results.setCurrentRow(row)
                self.results.setFocus(Qt.FocusReason.OtherFocusReason)
                return

    def _on_tab(self, index: int) -> None:
        """The Search tab shown: the keyboard goes to its question box (a click on the tab left it in the message
        box, where the words typed went, and Ctrl+Shift+K left it on the tab bar), but not from the arrow keys
        on the tab bar, which browse the tabs (Left went on in the box, never back to Sources); and results
        found before an import or a Delete ended are searched again (see _search_again_if_stale). The Sources
        tab shown: the panel's focus lands on the tab bar again."""
        searching = index == 1
        self.setFocusProxy(self.query_edit if searching else self.tabs)  # Ctrl+Shift+K focuses the panel
        by_keys = self.tabs.tabBar().hasFocus() and not QApplication.mouseButtons()
        if searching and self.isVisible() and not by_keys:
            self.query_edit.setFocus(Qt.FocusReason.OtherFocusReason)
        self._search_again_if_stale(shown=True)  # (a tab chosen in a panel not shown yet, by a script)

    def _sources_changed_here(self) -> None:
        """An import or a Delete of this panel ended: the Search tab's results are searched again now if it is
        in sight (they listed the deleted source for good, which opened as if still there), else when it is."""
        self._stale = True
        self._search_again_if_stale(shown=self.isVisible())

    def _search_again_if_stale(self, shown: bool) -> None:
        """Search again for the results listed, if sources changed since they were found and they are in sight
        (the Search tab current, in a panel ``shown``): kept listed, where they were scrolled to, until replaced.
        Not while the keyboard is in the results: the passage being read stays (as _search_again_in_sight, which
        searches again as the keyboard leaves them if they list a source gone meanwhile)."""
        if (shown and self._stale and self._query.strip() and self.tabs.currentIndex() == 1
                and not self.results.hasFocus()):
            self.run_search(self._query, again=True)

    def _search_again_in_sight(self, before: set[str]) -> None:
        """Another program changed the knowledge base while the Search tab is shown (``before``: where the
        sources listed until then are): its results are searched again if a source went or one they list is
        gone (they listed passages of sources `kb remove` had removed, which opened as if still there). Not for
        sources added: while `kb add` ran, each read of the list (every 10 s) emptied the results, asked the
        server for the question's vector again and said how many were found. Not while the keyboard is in the
        results: the passage being read stays, until the keyboard leaves them. Not when the list could not be
        read (the knowledge base locked, its index being rebuilt): every source looked gone, and the failed
        search that followed stayed shown once the list read again; results that say a search failed are
        searched again instead."""
        if self.tabs.currentIndex() != 1 or self.results.hasFocus() or not self._query.strip():
            return
        if not self._list_read:
            return
        listed = self.sources_model.locations()
        shown = {self.results.item(row).data(Qt.ItemDataRole.UserRole) for row in range(self.results.count())}
        if self._search_failed or before - listed or shown - {None} - listed:
            self.run_search(self._query, again=True)

    def _focus_within(self) -> bool:
        """Whether the keyboard is in the panel: a count said while it is in the message box cuts its words."""
        focus = QApplication.focusWidget()
        return focus is not None and (focus is self or self.isAncestorOf(focus))

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

    def _search_hint(self) -> str:
        """What the empty list says before the first search (it was a blank box; the Sources tab says how
        to add sources)."""
        if not self._busy and self._listed and self.source_count() == 0:
            return "Nothing to search yet: add files, folders or web pages in the Sources tab."
        return ("Type a question above and press Enter: the passages that answer it best are listed here, "
                "as the model's own search would find them.")

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


class _ResultsList(QListWidget):
    """The passages found; empty, it says what it is for, where the passages would be. ``left``: the keyboard
    went elsewhere (not to a menu opened on them)."""

    left = Signal()

    def __init__(self, hint: Callable[[], str]) -> None:
        super().__init__()
        self._hint = hint

    def focusOutEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().focusOutEvent(event)
        if event.reason() != Qt.FocusReason.PopupFocusReason:
            self.left.emit()

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().paintEvent(event)
        if self.count() == 0:
            painter = QPainter(self.viewport())
            painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
            painter.drawText(self.viewport().rect().adjusted(12, 12, -12, -12),
                             Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap,
                             self._hint())
            painter.end()


def _passages(count: int) -> str:
    return f"{count:,} passage" + ("" if count == 1 else "s")


def _quietly(load: Callable[..., object], *args: object) -> None:
    # Loading ahead is only a head start: on any failure the first search reads the vectors itself
    # (and reports what is wrong in words).
    try:
        load(*args)
    except (Error, OSError, sqlite3.Error, MemoryError):
        pass
