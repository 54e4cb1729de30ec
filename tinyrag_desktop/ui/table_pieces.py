"""The pieces of a long table the streaming view cut (see markdown_render.table_cut), shown as one table.

While a long table streams, its rows are frozen into pieces of some 150 cells, each a table of its own under
the same header: a table of a thousand rows, laid out whole at each frame, stalled the window. Sized each to its
own rows, the pieces' columns did not line up: the table looked ragged and jumped as it grew. A :class:`CutTable`
keeps the columns of all its pieces as wide as one table of all the rows so far has them. It measures each
piece's new cells once, keeps for each column the cell that wants it widest and the one with the longest word
(what Qt sizes a column by, as wide as its content, or narrower down to its longest word when the table does
not fit), and lays out a stand-in table of the header and those two rows as Qt lays out the whole table; its
column widths go to every piece. When a new row widens a column, the pieces take the new widths one at a time,
a loop turn each.

The pieces scroll sideways as one, with one bar, under the last (wide_blocks). When the answer ends they are
joined into one table (AnswerWidget._join_cut_blocks), laid out by its rows as before; :class:`Join` hands the
keyboard's place in a piece (the focus, the caret or selection, a wide table Tab stopped on) and the sideways
scroll over to it: the piece that had the focus is deleted, and the focus went elsewhere.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QTimer, Qt
from PySide6.QtGui import QTextCursor, QTextDocument, QTextDocumentFragment, QTextTable, QTextTableFormat
from PySide6.QtWidgets import QApplication

from .markdown_cuts import joined_table
from .markdown_render import BREAK_POINT
from .wide_blocks import edge_table


def _fragment(doc: QTextDocument, table: QTextTable, row: int, column: int) -> QTextDocumentFragment:
    cell = table.cellAt(row, column)
    cursor = QTextCursor(doc)
    cursor.setPosition(cell.firstPosition())
    cursor.setPosition(cell.lastPosition(), QTextCursor.MoveMode.KeepAnchor)
    return QTextDocumentFragment(cursor)


def _wants(doc: QTextDocument, table: QTextTable, row: int, column: int) -> tuple[float, int]:
    """How wide a cell's text is on one line (its lines' widths added: a cell wrapped in a column too narrow
    counts whole) and its longest word's length in characters (up to a break point)."""
    cell = table.cellAt(row, column)
    block, width, word = doc.findBlock(cell.firstPosition()), 0.0, 0
    while block.isValid() and block.position() <= cell.lastPosition():
        lines = block.layout()
        width = max(width, sum(lines.lineAt(i).naturalTextWidth() for i in range(lines.lineCount())))
        # a long word's break points end a word too (markdown_render._breakable): it wraps there
        word = max(word, max((len(w) for w in block.text().replace(BREAK_POINT, " ").split()), default=0))
        block = block.next()
    return width, word


def column_widths(doc: QTextDocument, table: QTextTable) -> tuple[float, ...]:
    """The width of each column of ``table`` as laid out (from its left border to the next column's): the text
    width of its first row's cells, and the room around a cell's text (the step from a column to the next less
    its text width)."""
    layout = doc.documentLayout()
    rects = [layout.blockBoundingRect(doc.findBlock(table.cellAt(0, c).firstPosition())) for c in
             range(table.columns())]
    fmt = table.format()
    room = rects[1].left() - rects[0].left() - rects[0].width() if len(rects) > 1 else \
        2 * fmt.cellPadding() + fmt.border() + fmt.cellSpacing()
    return tuple(rect.width() + room for rect in rects)


class CutTable:
    """One long table cut into pieces while it streams: its pieces (MarkdownSegments) in order, its columns'
    widths, and how far it is scrolled sideways (``shift``, None until it is; see wide_blocks)."""

    def __init__(self, first) -> None:
        self.pieces = [first]
        self.shift: int | None = None
        self.widths: tuple[float, ...] | None = None
        self._header: list[QTextDocumentFragment] = []
        self._format: QTextTableFormat | None = None
        self._widest: list[tuple[float, QTextDocumentFragment | None]] = []  # for each column
        self._longest: list[tuple[int, QTextDocumentFragment | None]] = []
        self._seen: dict[int, int] = {}  # the rows measured in each piece, by its id
        self._laid_at = -1.0  # the text width the widths are for
        self._bar = first  # the piece that draws the bar (see draws_bar)
        self._timer = QTimer(first)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._fit_next)
        first.link_below = self
        self.measured(first)

    def add(self, piece) -> None:
        """``piece`` goes on with the table's rows, under the last piece (its header is not drawn)."""
        above = self.pieces[-1]
        self.pieces.append(piece)
        piece.link_above = self
        above.link_below = self
        if self.widths is not None:
            piece.fit_columns(self.widths, False)  # its first render already as wide as the table

    def draws_bar(self, piece) -> bool:
        """Whether ``piece`` draws the table's bar (if it scrolls sideways): the last piece that shows rows (the
        last may show none yet, its first row not whole)."""
        return piece is self._bar

    def _move_bar(self) -> None:
        bar = next((p for p in reversed(self.pieces) if shiboken6.isValid(p) and not p.shows_nothing()), None)
        if bar is not self._bar:
            old, self._bar = self._bar, bar
            for piece in (old, bar):
                if piece is not None and shiboken6.isValid(piece):
                    piece._measure()

    def _last(self, piece) -> bool:
        """Whether the table's rows are in the last table of ``piece`` (its first piece), else in its first."""
        return piece is self.pieces[0]

    def measured(self, piece) -> None:
        """``piece`` was rendered: its new rows' cells are measured, and the columns widened if they want more."""
        self._move_bar()
        doc = piece.document()  # held: see wide_blocks.box_bottom
        last = self._last(piece)
        table = edge_table(doc, -1 if last else 0)
        if table is None:
            return
        columns, start = table.columns(), self._seen.get(id(piece), 0)
        if not self._header:
            if not last:
                return
            self._format = QTextTableFormat(table.format())
            self._format.clearColumnWidthConstraints()
            self._header = [_fragment(doc, table, 0, c) for c in range(columns)]
            self._widest, self._longest = [(0.0, None)] * columns, [(0, None)] * columns
            start = max(start, 1)
        if columns != len(self._header):
            return
        changed = False
        for row in range(start, table.rows()):
            for c in range(columns):
                width, word = _wants(doc, table, row, c)
                if width > self._widest[c][0] + 0.5:
                    self._widest[c] = (width, _fragment(doc, table, row, c))
                    changed = True
                if word > self._longest[c][0]:
                    self._longest[c] = (word, _fragment(doc, table, row, c))
                    changed = True
        self._seen[id(piece)] = table.rows()
        if changed or doc.textWidth() != self._laid_at:
            self._lay_out(doc)

    def _lay_out(self, like: QTextDocument) -> None:
        """Lay out the header and the cells the columns are sized by as Qt lays out the whole table, in a
        document like ``like`` (its font, its width); its column widths go to the pieces."""
        proxy = QTextDocument()
        proxy.setDocumentMargin(like.documentMargin())
        proxy.setDefaultFont(like.defaultFont())
        proxy.setDefaultTextOption(like.defaultTextOption())
        proxy.setTextWidth(like.textWidth())
        rows = [self._header, [f for _, f in self._widest], [f for _, f in self._longest]]
        table = QTextCursor(proxy).insertTable(len(rows), len(self._header), self._format)
        for r, row in enumerate(rows):
            for c, fragment in enumerate(row):
                if fragment is not None:
                    table.cellAt(r, c).firstCursorPosition().insertFragment(fragment)
        self._laid_at = like.textWidth()
        widths = column_widths(proxy, table)
        if widths != self.widths:
            self.widths = widths
            self._timer.start(0)

    def _fit_next(self) -> None:
        """Give the next piece not yet sized so the table's widths (the last first: the one being read)."""
        stale = [p for p in self.pieces if shiboken6.isValid(p) and p.fitted_columns(self._last(p)) != self.widths]
        if stale:
            stale[-1].fit_columns(self.widths, self._last(stale[-1]))
        if len(stale) > 1:
            self._timer.start(0)

    def close(self) -> None:
        """The pieces are one table again (joined): nothing more to size or scroll together."""
        self._timer.stop()
        self._timer.deleteLater()
        self.pieces, self._bar = [], None
        self._header, self._widest, self._longest = [], [], []


def link_pieces(above, below) -> None:
    """``below`` goes on with the rows of the long table at the end of ``above`` (see freeze_point)."""
    table = above.link_above
    if table is None or table.pieces[-1] is not above or not _one_table(above):
        table = CutTable(above)
    table.add(below)


def _one_table(piece) -> bool:
    """Whether ``piece`` holds nothing but rows of one table (the middle of a long one)."""
    doc = piece.document()
    first, last = edge_table(doc, 0), edge_table(doc, -1)
    return first is not None and last is not None and first.firstPosition() == last.firstPosition()


class Join:
    """What a chain of pieces hands over to its first, into which they are joined when the answer ends (see
    AnswerWidget._join_cut_blocks): the keyboard's place, if in a piece to be deleted, and the table's sideways
    scroll. Made before the first is rendered again with the whole text; ``done`` after."""

    def __init__(self, first, rest: list) -> None:
        self._first = first
        table = first.link_below
        # the whole HTML from the pieces' own, for one long table (see markdown_render.joined_table)
        one = table is not None and all(piece.link_above is table for piece in rest)
        pieces = (first, *rest)
        self.html = joined_table([p._html for p in pieces], [p.markdown() for p in pieces],
                                 [p._render_prefix for p in pieces]) if one else None
        self._shift = table.shift if table is not None else None
        doc = first.document()
        edge = edge_table(doc, -1) if table is not None else None
        self._table_at = edge.firstPosition() if edge is not None else -1
        focus = QApplication.focusWidget()
        self._holder = next((p for p in rest if p is focus), None)
        self._places: list[tuple] = []
        if self._holder is not None:
            cursor = self._holder.textCursor()
            self._places = [self._place(first, rest, p) for p in (cursor.anchor(), cursor.position())]
            self._keyboard = self._holder._keyboard_focus
            self._key_wide = self._holder.key_wide() is not None
        for link in {link for piece in (first, *rest) for link in (piece.link_above, piece.link_below)} - {None}:
            link.close()  # one table from now on, sized by its rows
        for piece in (first, *rest):
            piece.link_above = piece.link_below = None
        first._columns.clear()

    def _place(self, first, rest: list, position: int) -> tuple:
        """Where ``position`` of the piece that has the focus is in the joined text: the row, column and place
        in a cell of the table it goes on, or how far from the end of the text."""
        holder = self._holder
        doc = holder.document()
        table = edge_table(doc, 0)
        if table is not None and holder.link_above is first.link_below and first.link_below is not None:
            rows = 0
            for piece in (first, *rest):
                if piece is holder:
                    break
                above = edge_table(piece.document(), -1 if piece is first else 0)
                rows += above.rows() if above is not None else 0
            if position <= table.lastPosition():
                cell = table.cellAt(max(position, table.firstPosition()))
                return ("cell", rows + cell.row(), cell.column(), max(0, position - cell.firstPosition()))
        after = sum(p.document().characterCount() for p in rest[rest.index(holder) + 1:])
        return ("end", doc.characterCount() - position + after)

    def done(self) -> None:
        """The first piece shows the whole text: the focus and the scroll go to it."""
        first = self._first
        doc = first.document()
        cursor = QTextCursor(doc)
        cursor.setPosition(max(0, self._table_at))
        table = cursor.currentTable() if self._table_at >= 0 else None
        wide = next((i for i, w in enumerate(first.wide_blocks()) if table is not None
                     and w[0] == table.firstPosition()), None)
        if wide is not None and self._shift is not None:
            first.scroll_wide(wide, self._shift)
        if self._holder is None:
            return
        end = doc.characterCount() - 1
        at = []
        for place in self._places:
            if place[0] == "end":
                at.append(max(0, min(end, doc.characterCount() - place[1])))
            elif table is not None and place[1] < table.rows() and place[2] < table.columns():
                cell = table.cellAt(place[1], place[2])
                at.append(min(cell.firstPosition() + place[3], cell.lastPosition()))
            else:  # (no such cell: the end of the table)
                at.append(table.lastPosition() if table is not None else end)
        cursor.setPosition(at[0])
        cursor.setPosition(at[1], QTextCursor.MoveMode.KeepAnchor)
        first.setFocus(Qt.FocusReason.OtherFocusReason)
        first._quietly(cursor)
        first._keyboard_focus = self._keyboard
        if self._key_wide and wide is not None:
            first._set_key_wide(wide)
        first.viewport().update()
