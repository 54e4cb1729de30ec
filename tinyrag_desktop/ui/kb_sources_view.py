"""The knowledge panel's sources list: a table model over the store's sources, the view showing it, and the status
line under it.

A QTreeWidget made one item (and five cells of data) per source: 10,000 sources took a fifth of a second
to list and as long to sort, on the GUI thread. Here the list is kept as it comes from the store, a cell's
text is made when the view paints it, and a sort is one ``list.sort`` (``benchmarks/bench_kb_panel.py``).
"""

from __future__ import annotations

import heapq
from datetime import date
from typing import Callable, Sequence

from PySide6.QtCore import QAbstractTableModel, QEvent, QItemSelectionModel, QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import QKeySequence, QPainter, QPalette
from PySide6.QtWidgets import QHeaderView, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QTreeView

from ..hidden_text import shown_name
from ..kb import SourceInfo
from ..kb.readers import type_name
from ..kb.store import local_moment, local_time
from ..natural_order import natural_key
from .focus_ring import FocusRing
from .plain_text import plain_tip

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def short_time(stamp: str, today: date) -> str:
    """``stamp`` as a file manager lists it: the time for today ("20:23"), the day for this year ("30 Nov"),
    else the date ("30 Nov 2025"). In a narrow dock the full time took a third of the row from the titles."""
    moment = local_moment(stamp)
    if moment is None:
        return stamp
    if moment.date() == today:
        return f"{moment.hour:02d}:{moment.minute:02d}"
    day = f"{moment.day} {_MONTHS[moment.month - 1]}"
    return day if moment.year == today.year else f"{day} {moment.year}"


ROW_PADDING = 3  # px above and below a row's text: rows as tall as their letters (14 px) read as one block


class RoomyRows(QStyledItemDelegate):
    """A cell with ROW_PADDING above and below its text."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex):  # noqa: N802 - Qt's name
        hint = super().sizeHint(option, index)
        hint.setHeight(hint.height() + 2 * ROW_PADDING)
        return hint


class ElideMiddle(RoomyRows):
    """Cuts a cell's text in the middle, keeping its start and its end."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex) -> None:  # noqa: N802 - Qt's name
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideMiddle


ID_ROLE = Qt.ItemDataRole.UserRole  # a row's source id, on every column
LOCATION_ROLE = Qt.ItemDataRole.UserRole + 1  # its file path or address, on every column


class SourcesModel(QAbstractTableModel):
    """The sources as a table over a Python list: Title, Type, Passages, Imported, Vectors.

    A QTreeWidget made one item (and five cells of data) per source: 10,000 sources took a fifth of a second
    to list and as long to sort, on the GUI thread. Here the list is kept as it comes from the store, a cell's
    text is made when the view paints it, and a sort is one ``list.sort``.
    """

    # "Passages", as every import's summary and the Search tab call them ("Chunks" was the code's word).
    HEADERS = ("Title", "Type", "Passages", "Imported", "Vectors")
    # What each column says, in its name's tooltip.
    HEADER_TIPS = ("Title", "Type", "Passages: how many passages the source was cut into for searching",
                   "Imported: when the source was imported", "Vectors: whether search by meaning finds the "
                   "source (“no”: select it and Re-import to embed it)")
    NO_VECTORS = "no"  # short: "none: re-import" took 100 of a 384-px dock's pixels from the titles
    _SORT_KEYS: tuple[Callable[[SourceInfo], object], ...] = (
        lambda s: natural_key(s.title), lambda s: type_name(s.type).casefold(), lambda s: s.chunk_count,
        lambda s: s.imported_at,  # ISO times in UTC sort as the local ones shown
    )

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[SourceInfo] = []
        self._title_keys: dict[str, object] = {}  # title -> its sort key
        self._unembedded: set[int] = set()
        self._model_name = ""
        self._times: dict[str, str] = {}  # stored time -> as shown: many sources share their minute
        self._today = date.today()  # the day the times shown are relative to
        self._sort = (3, Qt.SortOrder.DescendingOrder)  # newest first to begin with
        self._widest: dict[int, list[str]] = {}  # column -> its widest texts, for the column's width
        self._titles: list[str] | None = None  # see longest_titles
        self.generation = 0  # changes with the rows or their order: what the header measured may be out of date
        for signal in (self.rowsInserted, self.rowsRemoved, self.layoutChanged, self.modelReset, self.dataChanged):
            signal.connect(self._changed)

    def _changed(self, *_) -> None:
        self.generation += 1

    def set_sources(self, sources: list[SourceInfo], unembedded: set[int] = frozenset(), model: str = "") -> None:
        """Show ``sources`` (in the order the user sorted by); the selection is cleared, as after any change."""
        if self._rows:
            self.beginRemoveRows(QModelIndex(), 0, len(self._rows) - 1)
            self._rows = []
            self.endRemoveRows()
        self._unembedded, self._model_name = set(unembedded), model
        self._widest.clear()
        self._titles = None
        self._times.clear()  # the time zone may have changed since (travel, daylight saving)
        rows = list(sources)
        self._sorted(rows, *self._sort)
        if rows:
            self.beginInsertRows(QModelIndex(), 0, len(rows) - 1)
            self._rows = rows
            self.endInsertRows()

    def source(self, row: int) -> SourceInfo:
        return self._rows[row]

    def locations(self) -> set[str]:
        """Where the listed sources are (a file's path, a page's address)."""
        return {source.location for source in self._rows}

    def widest_text(self, column: int) -> str:
        """The longest text of a column sized to its contents (Type, Passages, Imported, Vectors), among all rows."""
        return max(self.widest_texts(column), key=len, default="")

    def widest_texts(self, column: int) -> list[str]:
        """The texts of a column sized to its contents one of which is drawn the widest: for Type each type's
        name in use (by its letters "Web page" was taken for the widest, and "Markdown", wider drawn, was cut
        to "Markdo…" while no Markdown row was in sight), else its longest text."""
        if column not in self._widest:
            texts = {1: lambda: sorted({type_name(kind) for kind in {s.type for s in self._rows}}),
                     2: lambda: [f"{max((s.chunk_count for s in self._rows), default=0):,}"] if self._rows else [],
                     3: lambda: [self._widest_time()],
                     4: lambda: ["yes"]}  # wider than "no"
            self._widest[column] = [text for text in texts[column]() if text] if column in texts else []
        return self._widest[column]

    def longest_titles(self) -> list[str]:
        """The titles with the most letters (20 of them: the widest drawn is among them, or near enough)."""
        if self._titles is None:
            self._titles = heapq.nlargest(20, {s.title for s in self._rows}, key=len)
        return self._titles

    def _widest_time(self) -> str:
        """The Imported column's widest form in use, judged by the oldest source (ISO times sort as times)."""
        oldest = local_moment(min((s.imported_at for s in self._rows), default=""))
        if oldest is None:
            return ""
        today = date.today()
        return "00:00" if oldest.date() == today else "30 May" if oldest.year == today.year else "30 May 2000"

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt's name
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            return self.HEADER_TIPS[section]
        return None

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():  # row -1 would read the last source
            return None
        source = self._rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return shown_name(source.title)
            if column == 1:  # "Web page", not the stored "url"
                return type_name(source.type)
            if column == 2:
                # grouped as the import's summary says it ("29,957 passages"): Qt showed an int as 29957
                return f"{source.chunk_count:,}"  # (the list sorts by the number: see _SORT_KEYS)
            if column == 3:
                today = date.today()
                if today != self._today:  # the list was left open overnight: "20:23" is yesterday's now
                    self._times.clear()
                    self._today = today
                shown = self._times.get(source.imported_at)
                if shown is None:
                    shown = self._times[source.imported_at] = short_time(source.imported_at, today)
                return shown
            return self.NO_VECTORS if source.id in self._unembedded else "yes"
        if role == Qt.ItemDataRole.AccessibleTextRole and column:
            # a cell as a screen reader says it: "Passages: 1", not a bare "1" (nor "15:59" for Imported)
            return f"{self.HEADERS[column]}: {self.data(index, Qt.ItemDataRole.DisplayRole)}"
        if role == Qt.ItemDataRole.AccessibleDescriptionRole and column == 0:
            return self._about(source)  # said of the title: a narrow list leaves the cells saying it out
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == 0:
                # a page's title can hold <img src=…>, a file's name a right-to-left override
                return plain_tip(f"{shown_name(source.title)}\n{self._about(source)}\n{shown_name(source.location)}")
            if column == 3:
                return f"Imported {local_time(source.imported_at)}"
            if column == 4 and source.id in self._unembedded:
                return plain_tip(f"No vectors of {self._model_name}: keyword search finds this source, search by "
                                 "meaning does not. Select it and Re-import to embed it.")
            return None
        if role == Qt.ItemDataRole.TextAlignmentRole and column == 2:
            return Qt.AlignmentFlag.AlignCenter
        if role == ID_ROLE:
            return source.id
        if role == LOCATION_ROLE:
            return source.location
        return None

    def _about(self, source: SourceInfo) -> str:
        """What the row's other cells say ("Markdown · 12 passages · imported 2026-12-05 00:22"), for its
        title's tooltip: a narrow list leaves some of its columns out (SortedHeader.left_out)."""
        count = source.chunk_count
        about = (f"{type_name(source.type)} · {count:,} passage{'' if count == 1 else 's'} · imported "
                 f"{local_time(source.imported_at)}")
        if source.id in self._unembedded:
            about += f" · {self.NO_VECTORS} vectors: select it and Re-import to embed it"
        return about

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if (column, order) == self._sort:
            return  # the rows are kept in this order (QTreeView.sortByColumn asks twice)
        self._sort = (column, order)
        self.layoutAboutToBeChanged.emit()
        kept = self.persistentIndexList()  # the selection and the current row follow their sources
        before = [self._rows[index.row()] for index in kept]
        self._sorted(self._rows, column, order)
        if kept:
            row_of = {id(source): row for row, source in enumerate(self._rows)}
            self.changePersistentIndexList(kept, [self.index(row_of[id(source)], index.column())
                                                  for source, index in zip(before, kept)])
        self.layoutChanged.emit()

    def _sorted(self, rows: list[SourceInfo], column: int, order: Qt.SortOrder) -> None:
        if column == 4:
            key = lambda s: s.id not in self._unembedded  # noqa: E731 - "no" before "yes"
        elif column == 0:  # a title's key is made once: 10,000 took 50 ms, at each sort and each refresh
            keys = self._title_keys
            if len(keys) > 2 * len(rows) + 1000:  # titles renamed or deleted since
                keys.clear()

            def key(source: SourceInfo) -> object:
                found = keys.get(source.title)
                if found is None:
                    found = keys[source.title] = natural_key(source.title)
                return found
        elif 0 <= column < len(self._SORT_KEYS):
            key = self._SORT_KEYS[column]
        else:
            return
        rows.sort(key=key, reverse=order == Qt.SortOrder.DescendingOrder)


# The titles keep this much of the list, and room for TITLE_LETTERS letters at least (or all their longest needs),
# before a column is left out: at 5/12, a 384-px dock left Passages out beside one long title.
TITLES_LEAST, TITLE_LETTERS = 3 / 8, 16
# The narrow columns a narrow list leaves out, first to last; the column sorted by (its arrow says the order) only
# as a last resort (see left_out). Vectors stays longest: its "no" is what Re-import is for. What a row leaves out
# is in its title's tooltip.
LEFT_OUT_FIRST = (2, 1, 3, 4)  # Passages, Type, Imported, Vectors


class SortedHeader(QHeaderView):
    """A header that keeps room for the sort arrow only in the column the list is sorted by, whose column
    names are always whole: a list too narrow for them all leaves out the least useful columns instead.

    Qt keeps the arrow's room in every column: Type, Chunks and Imported, sized to their headers, took 230 of a
    384-px dock, and the titles, cut to 130 px, read "tinyRAG …shooting". Cutting the names instead ("Pass…",
    "P…", "Im…") left a narrow dock's header unreadable and its titles at a dozen letters ("Pytho…s New"); at
    18 pt the titles were "…", and the Vectors column ran off the list's edge."""

    def __init__(self, parent: QTreeView) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)  # as QTreeView's
        self.setMinimumSectionSize(self.fontMetrics().horizontalAdvance("00") + 8)
        # sorted by another column: the arrow moves, and the columns are measured again
        self.sortIndicatorChanged.connect(lambda *_: self.headerDataChanged(Qt.Orientation.Horizontal, 0,
                                                                            max(0, self.count() - 1)))

    def sectionSizeFromContents(self, logical: int):  # noqa: N802 - Qt's name
        size = super().sectionSizeFromContents(logical)
        if self.isSortIndicatorShown() and logical != self.sortIndicatorSection():
            arrow = size.height() + self.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, self)
            size.setWidth(max(0, size.width() - arrow))  # what Qt added for an arrow it does not draw
        return size

    def room(self, logical: int) -> int:
        """The width a narrow column takes: its widest cell, and its whole name (with the arrow if sorted by)."""
        view = self.parent()
        return max(view.sizeHintForColumn(logical), self.sectionSizeFromContents(logical).width(),
                   self.minimumSectionSize())

    def left_out(self, offered: Sequence[int]) -> set[int]:
        """Of the narrow columns ``offered``, those the list has no room for beside the titles (see
        TITLES_LEAST and LEFT_OUT_FIRST)."""
        view = self.parent()
        width = view.viewport().width()
        if not isinstance(view, SourcesView) or width <= 0 or not view.model() or not view.model().rowCount():
            return set()
        widest = max(view.widest_title(), self.sectionSizeFromContents(0).width())
        letters = min(widest, view.fontMetrics().averageCharWidth() * TITLE_LETTERS)
        titles = min(widest, max(int(width * TITLES_LEAST), letters))
        sorted_by = self.sortIndicatorSection() if self.isSortIndicatorShown() else -1
        needs = {column: self.room(column) for column in offered}
        out: set[int] = set()
        for column in [column for column in LEFT_OUT_FIRST if column in offered and column != sorted_by]:
            if titles + sum(need for c, need in needs.items() if c not in out) <= width:
                break
            out.add(column)
        # The column sorted by goes only for the titles' TITLE_LETTERS: at 18 pt in the narrowest dock, its name
        # and arrow took 144 px beside "00:43", and the titles read "Pyth… New".
        if sorted_by in needs and letters + sum(need for c, need in needs.items() if c not in out) > width:
            out.add(sorted_by)
        return out


class SourcesView(QTreeView):
    """The sources list; with no sources it says how to add some, where the rows would be."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setHeader(SortedHeader(self))
        self.setItemDelegate(RoomyRows(self))
        self._hints: tuple[object, dict[int, int]] = (None, {})  # the columns' widths for the rows in sight
        self.layouts = 0  # how many times the rows were laid out: what was measured before may be out of date
        self._measured_too_soon = False  # a column was measured before its rows were laid out
        FocusRing(self, self, radius=3)  # with no rows (or none current) nothing showed the focus
        self._last_current: str | None = None  # the location of the row last current (see focusInEvent)
        self._unwanted: set[int] = set()  # columns the panel does not show (Vectors without an embedding model)
        self._fitting = False  # the columns left out are being shown or hidden (see _fit_columns)

    EMPTY_TEXT = "No sources yet.\nClick Add, or drop files, folders or web links here."
    # The list is read again when an import ends, not source by source ("as soon as this is done" said not what)
    BUSY_TEXT = "Importing… sources appear here when the import ends."
    INDEXING_TEXT = "Updating the search index… sources appear here when it is done."
    UNREADABLE_TEXT = "The knowledge base could not be read.\nWhy, and what to do, is said below."
    empty_text = EMPTY_TEXT

    deleteRequested = Signal()  # the Delete key, on the list: the panel asks, then removes the selection

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt's name
        # A key of the list's own rather than a shortcut: Delete in the chat's and the search's text boxes
        # stays theirs.
        if event.matches(QKeySequence.StandardKey.Delete) and self.selectionModel().hasSelection():
            event.accept()
            self.deleteRequested.emit()
            return
        super().keyPressEvent(event)

    def focusInEvent(self, event) -> None:  # noqa: N802 - Qt's name
        # With no row current, Tab came to a list whose Menu key and Shift+F10 did nothing and whose Re-import
        # and Delete stayed off until Down. A row is made current first, before the focus is told: a screen
        # reader says it (made current by Qt after it, unsaid, the first Down read the second row). Not for a
        # click: the row clicked is the one chosen (a Ctrl+click would have added the first to it).
        if event.reason() != Qt.FocusReason.MouseFocusReason:
            self._make_a_row_current()
        super().focusInEvent(event)

    def _make_a_row_current(self) -> None:
        """The row last current (by its source: the list is read again after each import), else the first, is
        current; and selected, as Down would, when nothing is (a selection made before is left as it is)."""
        model, selection = self.model(), self.selectionModel()
        if model is None or selection is None or self.currentIndex().isValid() or model.rowCount() == 0:
            return
        rows = [model.index(row, 0) for row in range(model.rowCount())]
        chosen = [index for index in rows if selection.isRowSelected(index.row(), QModelIndex())]
        index = (chosen or [i for i in rows if i.data(LOCATION_ROLE) == self._last_current] or rows)[0]
        flags = QItemSelectionModel.SelectionFlag.NoUpdate if selection.hasSelection() else (
            QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
        selection.setCurrentIndex(index, flags)

    def currentChanged(self, current: QModelIndex, previous: QModelIndex) -> None:  # noqa: N802 - Qt's name
        super().currentChanged(current, previous)
        if current.isValid():
            self._last_current = current.data(LOCATION_ROLE)

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().paintEvent(event)
        if self.model() is not None and self.model().rowCount() == 0:
            painter = QPainter(self.viewport())
            painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
            painter.drawText(self.viewport().rect().adjusted(12, 12, -12, -12),
                             Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap,
                             self.empty_text)
            painter.end()

    def sizeHintForColumn(self, column: int) -> int:  # noqa: N802 - Qt's name
        """As wide as the rows in sight need, and as the widest text of all: the header measures only the
        rows in sight (measuring 1,000 of them cost 100 ms a refresh), which cut a "wikipedia" scrolled out
        of view to "wiki…". Kept until the rows, the rows in sight or the font change: the header asks
        for each column several times a layout, and measures them all to share the room out (SortedHeader)."""
        self.executeDelayedItemsLayout()  # rows changed and not laid out yet: measured once they are
        model = self.model()
        key = (self.layouts, getattr(model, "generation", None), self.verticalScrollBar().value(),
               self.viewport().height(), self.font().key(), date.today())
        if self._hints[0] != key:
            self._hints = (key, {})
        hints = self._hints[1]
        if column in hints:
            return hints[column]
        hint = self._measure(column)
        if hint < 0 and model is not None and model.rowCount():  # asked while the rows are being laid out
            self._measured_too_soon = True
        else:
            hints[column] = hint
        return hint

    def doItemsLayout(self) -> None:  # noqa: N802 - Qt's name
        # Rows added, removed or sorted: measured again. (The model's own count changes before the view has
        # laid the rows out, and the header measured empty rows then: a title's room taken as -1.)
        self.layouts += 1
        self._hints = (None, {})
        self._measured_too_soon = False
        super().doItemsLayout()
        header = self.header()
        if self._measured_too_soon and isinstance(header, SortedHeader):
            # the header shared the room out while the rows were not laid out yet: once more, with them
            self._measured_too_soon = False
            self._fit_columns()
            header.resizeSections()

    def show_column(self, column: int, shown: bool) -> None:
        """Show or hide a column for good (as the settings want); a shown one is left out while the list is too
        narrow for it (SortedHeader.left_out)."""
        (self._unwanted.discard if shown else self._unwanted.add)(column)
        self._fit_columns()

    def _fit_columns(self) -> None:
        """Hide the columns not wanted and those the list has no room for; show the others."""
        header = self.header()
        if self._fitting or not isinstance(header, SortedHeader):
            return
        offered = [column for column in range(1, header.count()) if column not in self._unwanted]
        hidden = self._unwanted | header.left_out(offered)
        self._fitting = True  # hiding a column lays the list out again, which comes back here
        try:
            for column in range(1, header.count()):
                if header.isSectionHidden(column) != (column in hidden):
                    header.setSectionHidden(column, column in hidden)
        finally:
            self._fitting = False

    def updateGeometries(self) -> None:  # noqa: N802 - Qt's name
        super().updateGeometries()
        self._fit_columns()  # resized, rows changed, sorted, another font: as many columns as fit
        bar = self.verticalScrollBar()
        if bar.isVisible() and bar.maximum() <= bar.minimum():
            # Every source deleted: Qt hides a bar whose range went to nothing in a queued call, after the
            # emptied list is painted, so it was painted (and grabbed) with its bar. Laid out now, it goes.
            self.setVerticalScrollBarPolicy(self.verticalScrollBarPolicy())

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if event.type() in (QEvent.Type.StyleChange, QEvent.Type.FontChange):  # another theme: measured anew
            self._hints = (None, {})
        super().changeEvent(event)

    def _measure(self, column: int) -> int:
        hint = super().sizeHintForColumn(column)
        model = self.model()
        texts = model.widest_texts(column) if isinstance(model, SourcesModel) and model.rowCount() else []
        return max([hint, *(self._cell_width(column, text) for text in texts)])

    def widest_title(self) -> int:
        """The room the widest title of all needs, in sight or not (0 with no sources)."""
        model = self.model()
        titles = model.longest_titles() if isinstance(model, SourcesModel) and model.rowCount() else []
        return max((self._cell_width(0, title) for title in titles), default=0)

    def _cell_width(self, column: int, text: str) -> int:
        """The width of a cell of ``column`` showing ``text``: the first row's cell, its text swapped."""
        index = self.model().index(0, column)
        option = QStyleOptionViewItem()
        self.initViewItemOption(option)
        cell = self.itemDelegateForIndex(index).sizeHint(option, index).width()
        metrics = self.fontMetrics()
        return cell - metrics.horizontalAdvance(str(index.data())) + metrics.horizontalAdvance(text)

    # QTreeWidget's names, kept for code written against it (tests/ui/test_window.py).
    def topLevelItemCount(self) -> int:  # noqa: N802
        return self.model().rowCount()

    def topLevelItem(self, row: int) -> "SourceRow":  # noqa: N802
        return SourceRow(self, row)


class SourceRow:
    """One row of the sources view, read as a QTreeWidgetItem was: ``text(column)``, ``setSelected``."""

    def __init__(self, view: SourcesView, row: int) -> None:
        self._view, self._row = view, row

    def data(self, column: int, role: int):
        return self._view.model().index(self._row, column).data(role)

    def text(self, column: int) -> str:
        value = self.data(column, Qt.ItemDataRole.DisplayRole)
        return "" if value is None else str(value)

    def toolTip(self, column: int) -> str:  # noqa: N802
        return self.data(column, Qt.ItemDataRole.ToolTipRole) or ""

    def setSelected(self, selected: bool) -> None:  # noqa: N802
        flags = QItemSelectionModel.SelectionFlag.Rows | (
            QItemSelectionModel.SelectionFlag.Select if selected else QItemSelectionModel.SelectionFlag.Deselect)
        self._view.selectionModel().select(self._view.model().index(self._row, 0), flags)

