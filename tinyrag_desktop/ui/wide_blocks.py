"""Code blocks and tables wider than the answer, each scrolled sideways on its own.

In a narrow window (a 700 px one has a 450 px answer column beside the chats list) code keeps its lines and a
table its words: a block wider than the answer scrolls sideways by shift+wheel, a sideways wheel or swipe, the
thin bar painted under it, and Left and Right, and fades out at the edge where more of it is (block_edges.py);
the wheel itself still scrolls the conversation. Qt's text view
scrolls all of its text or none, so each wide block is painted, and handles the mouse, with the view's
sideways offset set to that block's own for the while (its scroll bar kept hidden and at 0): one block moves,
the paragraphs around it stay where they are. :class:`SidewaysBlocks` is mixed into ``MarkdownSegment``.

The pieces of a long table the streaming view cut (see table_pieces.py) scroll as one: they share one offset
(their CutTable's ``shift``), and only the last piece draws a bar, under the table's last rows.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

from PySide6.QtCore import QRect, QRectF, Qt, QTimer, QUrl
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen, QTextCursor, QTextFormat, QTextTable
from PySide6.QtWidgets import QApplication, QScrollArea

from .block_edges import FADE, box_bottom, edge_table, frame_edge, paint_fades
from .markdown_render import COPIED, COPY_CODE
from .theme import colors

_SLACK = 3  # pixels a block may stand out on the right (a table's border) before it scrolls sideways
BAR = 5  # the height of the bar under a block that scrolls sideways
_INSET = 4  # pixels between the bar's ends and the answer's edges (inside a code box's border)
_END = 1 << 30  # scrolled as far as it goes (a right-to-left table, shown from its right end)


@dataclass(slots=True)
class _Wide:
    """A block wider than the answer, in the segment's pixels and text positions."""

    top: float  # from its top (below a code block's header, which stays)...
    bottom: float  # ...to under its box and its bar: the band it is painted in, scrolled
    bar: float  # where its bar's top is: inside a code box, under its last line; under a table's border
    right: float  # how wide it is
    first: int
    last: int
    rtl: bool = False  # a right-to-left table: its first column on the right, where it starts scrolled
    link: object = None  # the piece of a long table cut while it streams: its CutTable (scrolled as one)
    barless: bool = False  # ...whose rows go on in the next piece: the bar is drawn under the last piece only
    box: tuple[float, float, float, float, float] | None = None  # a code box: top, bottom, border, padding, left

    def scrolls_to(self) -> float:
        """Where the band that scrolls sideways ends: a code box's lines and bar (a Go run's outcome under them
        stays, its lines wrapped: scrolled with the code, it went out of sight)."""
        return self.bar + BAR + 1 if self.box is not None else self.bottom


class SidewaysBlocks:
    """The sideways scrolling of a QTextBrowser's wide blocks (mixed in before it; call _init_sideways)."""

    def _init_sideways(self) -> None:
        self._wide: list[_Wide] = []
        self._shift: list[int] = []  # how far each wide block is scrolled, by its order in the segment
        self._held: int | None = None  # the wide block a mouse press began in (a selection being dragged)
        self._bar_drag: tuple[int, float, int] | None = None  # a bar being dragged: block, press x, its shift
        self._hbar_set = 0  # the offset Qt is told while it paints or handles the mouse for a wide block
        self._revealed: tuple[int, int] | None = None  # the find bar's current match last scrolled to
        self._rendering = False  # set_markdown is rendering: the text cursor's move is no reader's
        self._over_bar = False
        self._key_wide: int | None = None  # the wide block Tab stopped on (one without a link to stop on)
        # The long table cut while it streams whose rows go on from the segment above (below) in this one's first
        # (last) table: a table_pieces.CutTable (its ``shift``, None before any scroll; its ``pieces`` in order)
        self.link_above = None
        self.link_below = None
        self.horizontalScrollBar().valueChanged.connect(self._hbar_moved)
        self.cursorPositionChanged.connect(self._cursor_moved)

    def _measure(self) -> None:
        """Find the blocks wider than the answer (a code block, a table, a line that cannot wrap)."""
        doc = self.document()
        width = self.viewport().width()
        old = self._wide
        self._wide = []
        if doc.size().width() > width + _SLACK:
            layout = doc.documentLayout()
            linked = self._linked_tables(doc)
            block = doc.begin()
            while block.isValid():
                frame = doc.frameAt(block.position())
                if frame is None or frame.parentFrame() is None:  # a paragraph, heading or list item
                    rect = layout.blockBoundingRect(block)
                    lines = block.layout()
                    right = max((lines.lineAt(i).x() + lines.lineAt(i).naturalTextWidth()
                                 for i in range(lines.lineCount())), default=0.0)
                    if right > width + _SLACK:
                        end = block.position() + block.length() - 1
                        self._wide.append(_Wide(rect.top(), rect.bottom(), rect.bottom() + 2, right, block.position(),
                                                end))
                    block = block.next()
                    continue
                while frame.parentFrame().parentFrame() is not None:
                    frame = frame.parentFrame()
                after = doc.findBlock(frame.lastPosition() + 1)
                right = layout.frameBoundingRect(frame).width()
                if right > width + _SLACK:
                    first = doc.findBlock(frame.firstPosition())
                    fmt = frame.format() if isinstance(frame, QTextTable) else None
                    top = layout.blockBoundingRect(first).top() - frame_edge(frame) - 1
                    header = first.text()  # "Copied ✓" for two seconds after a copy
                    box = box_bottom(doc, frame)
                    code_box = None
                    if (COPY_CODE in header or COPIED in header) and first.next().blockFormat().nonBreakableLines():
                        border = fmt.border() if fmt is not None else 0.0
                        # (Qt's rect of a cell's first line is one pixel right of where it is drawn)
                        left = max(0.0, layout.blockBoundingRect(first).left() - frame_edge(frame) - 1)
                        code_box = (top + 1, box, border, frame_edge(frame) - border, left)
                        top = layout.blockBoundingRect(first.next()).top()  # its header stays: Copy code, Run
                        # The bar inside the box, in the room under the code's last line (and above a Go
                        # block's output): drawn under the box, it crossed the table or the words after it.
                        code = doc.findBlock(frame.cellAt(0, 0).lastPosition())
                        bar, bottom = layout.blockBoundingRect(code).bottom() + 2, box + 1
                    else:  # under the table's border, in its margin: clear of the next block
                        bar, bottom = box + 1, box + BAR + 2
                    rtl = fmt is not None and fmt.layoutDirection() == Qt.LayoutDirection.RightToLeft
                    link = linked.get(frame.firstPosition())
                    barless = link is not None and link is self.link_below and not link.draws_bar(self)
                    if barless:  # its bar is under the last piece: no room for one here
                        bottom = box + 1
                    self._wide.append(_Wide(top, bottom, bar, right, frame.firstPosition(), frame.lastPosition(),
                                            rtl, link, barless, code_box))
                if not after.isValid():
                    break
                block = after
        # Each block keeps how far it was scrolled while the answer streams and re-renders around it (a
        # render lays the text out in steps: a block may be missing, or narrower, for a moment).
        self._shift += [_END if w.rtl else 0 for w in self._wide[len(self._shift):]]
        if self._key_wide is not None and self._key_wide >= len(self._wide):
            self._key_wide = None
        if old or self._wide:
            self.viewport().update()

    def _linked_tables(self, doc) -> dict[int, object]:
        """The tables of this piece of a long table whose rows go on from the piece above (its first) or in the
        piece below (its last), by their first position: their CutTable."""
        out = {}
        if self.link_above is not None and (table := edge_table(doc, 0)) is not None:
            out[table.firstPosition()] = self.link_above
        if self.link_below is not None and (table := edge_table(doc, -1)) is not None:
            out[table.firstPosition()] = self.link_below
        return out

    def bars_bottom(self) -> float:
        """Where the lowest bar under a wide block ends (0 without one): the segment is at least this tall."""
        return max((w.bottom for w in self._wide), default=0.0)

    def _most(self, wide: "_Wide") -> int:
        return max(0, int(wide.right + 0.999) + 1 - self.viewport().width())

    def _at(self, index: int) -> int:
        """How far wide block ``index`` is scrolled now (no further than its end at this width)."""
        wide = self._wide[index]
        if wide.link is not None and wide.link.shift is not None:
            return min(wide.link.shift, self._most(wide))
        return min(self._shift[index], self._most(wide))

    def wide_blocks(self) -> list[tuple[int, int, int]]:
        """The blocks that scroll sideways: their first and last positions in the text, and how far each is
        scrolled (pixels)."""
        return [(w.first, w.last, self._at(i)) for i, w in enumerate(self._wide)]

    def scroll_wide(self, index: int, pixels: int) -> int:
        """Scroll wide block ``index`` to ``pixels`` from its start (kept within it); where it is now."""
        shift = max(0, min(int(pixels), self._most(self._wide[index])))
        link = self._wide[index].link
        if link is not None:
            if shift != self._at(index):  # every piece of the table moves with it
                link.shift = shift
                for piece in link.pieces:
                    piece.viewport().update()
            return shift
        if shift != self._shift[index]:
            changed = shift != self._at(index)
            self._shift[index] = shift
            if changed:
                self.viewport().update()
        return shift

    def _wide_at(self, y: float) -> int | None:
        return next((i for i, w in enumerate(self._wide) if w.top <= y < w.scrolls_to()), None)

    def _wide_holding(self, position: int) -> int | None:
        return next((i for i, w in enumerate(self._wide) if w.first <= position <= w.last), None)

    def _set_hbar(self, shift: int) -> None:
        bar = self.horizontalScrollBar()
        self._hbar_set = shift
        blocked = bar.blockSignals(True)
        bar.setValue(self._hbar_value(shift))
        bar.blockSignals(blocked)

    def _hbar_value(self, shift: int) -> int:
        bar = self.horizontalScrollBar()
        return bar.maximum() - shift if self.isRightToLeft() else shift

    @contextmanager
    def _shifted(self, index: int | None):
        """Qt's offset set to wide block ``index``'s while Qt handles an event there (back to 0 after)."""
        shift = self._at(index) if index is not None and index < len(self._wide) else 0
        if not shift:
            yield
            return
        self._set_hbar(shift)
        try:
            yield
        finally:
            self._set_hbar(0)

    def _hbar_moved(self, _value: int) -> None:
        # Qt scrolled the whole text sideways (keeping the cursor in view): each block scrolls on its own.
        if self.horizontalScrollBar().value() != self._hbar_value(self._hbar_set):
            self._set_hbar(0)
            self.viewport().update()

    def scrollContentsBy(self, dx: int, dy: int) -> None:  # noqa: N802
        self.viewport().update()  # never moves the painted text as a whole

    def _cursor_moved(self) -> None:
        """The caret moved by the keyboard (a link Tab went to, the reader's arrows) or a selection was dragged
        past the edge: the wide block scrolls to show it. The block Tab stopped on is left for the caret."""
        if self._wide and not self._rendering and self.hasFocus():
            if self._key_wide is not None:
                self._set_key_wide(None)
            self._reveal(self.textCursor().position(), self.textCursor().position())

    def _on_link(self) -> bool:
        """Whether the cursor is on a link (Tab selected its words), not the reader's caret between letters."""
        cursor, probe = self.textCursor(), QTextCursor(self.document())

        def linked(position: int) -> bool:  # the letter at ``position`` is a link's
            if not 0 <= position < self.document().characterCount() - 1:
                return False
            probe.setPosition(position + 1)
            return probe.charFormat().isAnchor()

        if cursor.hasSelection():
            return linked(cursor.selectionStart()) and linked(cursor.selectionEnd() - 1)
        return cursor.position() > 0 and linked(cursor.position() - 1) and linked(cursor.position())

    def _reveal(self, start: int, end: int) -> None:
        index = self._wide_holding(start)
        if index is None:
            return
        cursor = QTextCursor(self.document())
        xs = []
        for position in (start, end):
            cursor.setPosition(position)
            rect = self.cursorRect(cursor)
            if rect.center().y() < self._wide[index].top:
                return  # a code block's header (Copy code, Run): it does not scroll
            xs.append(rect.x() + self._hbar_set)  # in the text, not on screen
        shift, width, margin = self._at(index), self.viewport().width(), FADE  # clear of the fade
        if min(xs) - shift < 0:
            shift = min(xs) - margin
        elif max(xs) - shift > width - 4:
            shift = max(xs) - width + margin
        self.scroll_wide(index, shift)

    def setExtraSelections(self, selections) -> None:  # noqa: N802
        """The find bar's marks; its current match (the one with its own text colour) scrolled into view."""
        super().setExtraSelections(selections)
        if not self._wide:
            return
        current = next((s for s in selections if s.format.hasProperty(QTextFormat.Property.ForegroundBrush)), None)
        place = (current.cursor.selectionStart(), current.cursor.selectionEnd()) if current else None
        if place is not None and place != self._revealed:
            self._reveal(*place)
        self._revealed = place

    def paintEvent(self, event) -> None:  # noqa: N802
        moved = [(w, self._at(i)) for i, w in enumerate(self._wide) if self._at(i)]
        if not moved:
            super().paintEvent(event)
        else:
            area = event.rect()
            top = area.top()
            for wide, shift in moved:  # bands from top to bottom: between wide blocks, then one
                end = int(wide.scrolls_to() + 0.999)
                # a code box's left border and padding (and a list's indent before it) stay where they are
                inside = 0 if wide.box is None else int(wide.box[4] + wide.box[2] + wide.box[3])
                for rect, offset in ((QRect(area.left(), top, area.width(), int(wide.top) - top), 0),
                                     (QRect(0, int(wide.top), inside, end - int(wide.top)), 0),
                                     (QRect(inside, int(wide.top), area.right() + 1 - inside, end - int(wide.top)),
                                      shift)):
                    band = area.intersected(rect)
                    if band.isEmpty():
                        continue
                    self._set_hbar(offset)
                    super().paintEvent(QPaintEvent(band))
                top = max(top, end)
            rest = area.intersected(QRect(area.left(), top, area.width(), area.bottom() + 1 - top))
            self._set_hbar(0)
            if not rest.isEmpty():
                super().paintEvent(QPaintEvent(rest))
        if self._wide:
            self._paint_box_edges()
            self._paint_fades()
            self._paint_bars()
        if self._key_wide is not None and self.hasFocus():
            self._paint_key_ring(self._wide[self._key_wide])

    def _paint_key_ring(self, wide: _Wide) -> None:
        """The accent ring around the wide block Tab stopped on, its bar included (as a focused card's)."""
        area = QRectF(self.viewport().rect()).adjusted(1, 1, -1, -1)
        ring = QRectF(area.left(), wide.top - 2, area.width(), wide.bottom - wide.top + 3).intersected(area)
        painter = QPainter(self.viewport())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(colors().accent, 2))
        painter.drawRoundedRect(ring, 4, 4)
        painter.end()

    def _bar_rects(self, index: int) -> tuple[QRectF, QRectF]:
        """Wide block ``index``'s scroll bar under it: its track and its thumb."""
        wide, width = self._wide[index], self.viewport().width()
        left = _INSET + (wide.box[4] if wide.box is not None else 0.0)  # within a code box's border (in a list too)
        track = QRectF(left, wide.bar, width - left - _INSET, BAR)
        part = track.width() / max(wide.right, 1.0)  # of the track, for each pixel of the block
        thumb = QRectF(left + self._at(index) * part, track.top(), max(24.0, width * part), BAR)
        return track, thumb

    def _bars(self) -> list[int]:
        """The wide blocks that have a bar under them (the pieces of a long table but the last have none)."""
        return [i for i, wide in enumerate(self._wide) if not wide.barless]

    def _paint_box_edges(self) -> None:
        """A wide code block's box drawn to the answer's edges, its code scrolling inside it. Qt lays the box out
        as wide as its longest line: its right border was past the edge, and the code ended mid-letter at the
        edge with nothing to mark it. (Its left border and padding are painted unscrolled, see paintEvent.)"""
        painter = QPainter(self.viewport())
        width = self.viewport().width()
        fill, line = QColor(self._palette.code_bg), QColor(self._palette.code_border)
        for wide in self._wide:
            if wide.box is None:
                continue
            top, bottom, border, padding, _left = wide.box
            code = QRectF(0, wide.top, width, wide.scrolls_to() - wide.top)  # the lines that scroll, and the bar
            painter.fillRect(QRectF(width - border - padding, code.top(), padding, code.height()), fill)
            if border:
                painter.fillRect(QRectF(width - border, top, border, bottom - top), line)
        painter.end()

    def _paint_fades(self) -> None:
        cuts = [(QRectF(0, w.top, 0, w.bar - w.top), self._at(i) > 0, self._at(i) < self._most(w))
                for i, w in enumerate(self._wide) if w.box is None]  # a code box: its border at the edge instead
        paint_fades(self.viewport(), cuts)

    def _paint_bars(self) -> None:
        painter = QPainter(self.viewport())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        colour = QColor(self._palette.muted)
        for i in self._bars():
            track, thumb = self._bar_rects(i)
            colour.setAlpha(40)
            painter.setBrush(colour)
            painter.drawRoundedRect(track, BAR / 2, BAR / 2)
            colour.setAlpha(150)
            painter.setBrush(colour)
            painter.drawRoundedRect(thumb, BAR / 2, BAR / 2)
        painter.end()

    def wheelEvent(self, event) -> None:  # noqa: N802
        """Shift+wheel, a sideways wheel or a swipe scrolls a wide block under the mouse sideways; the wheel
        itself scrolls the conversation, as over any other text."""
        angle, pixels = event.angleDelta(), event.pixelDelta()
        across = abs(angle.x()) > abs(angle.y()) or (not pixels.isNull() and abs(pixels.x()) > abs(pixels.y()))
        shift_wheel = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier) and angle.y() != 0
        if not across and not shift_wheel:
            super().wheelEvent(event)
            return
        index = self._wide_at(event.position().y())
        if index is None:
            event.ignore()
            return
        if not pixels.isNull():
            step = pixels.x() if across else pixels.y()
        else:
            notches = (angle.x() if across else angle.y()) / 120
            step = notches * QApplication.wheelScrollLines() * self.fontMetrics().height()
        before = self._at(index)
        if self.scroll_wide(index, before - round(step)) == before:
            event.ignore()  # at its end already
        else:
            event.accept()

    def keyPressEvent(self, event) -> None:  # noqa: N802
        # Left and Right scroll the block Tab stopped on, or the code under the Copy code link Tab is on; the
        # reading caret they move along a wide line as along any other, and the block follows it (_reveal).
        index = self._key_wide
        if index is None and self._wide and self._on_link():
            index = self._wide_holding(self.textCursor().position())
        keys = {Qt.Key.Key_Left: -1, Qt.Key.Key_Right: 1}
        if index is not None and event.key() in keys and not event.modifiers():
            self.scroll_wide(index, self._at(index) + keys[event.key()] * 4 * self.fontMetrics().averageCharWidth())
            event.accept()
            return
        ends = {Qt.Key.Key_Home: 0, Qt.Key.Key_End: _END}
        if self._key_wide is not None and event.key() in ends and not event.modifiers():
            self.scroll_wide(self._key_wide, ends[event.key()])  # its start or its end
            event.accept()
            return
        super().keyPressEvent(event)

    # Tab: links and wide blocks --------------------------------------------------------------------------
    def _links(self) -> list[int]:
        """Where each link of the text starts."""
        starts, block, href = [], self.document().begin(), ""
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fmt = it.fragment().charFormat()
                now = fmt.anchorHref() if fmt.isAnchor() else ""
                if now and now != href:
                    starts.append(it.fragment().position())
                href = now
                it += 1
            block, href = block.next(), ""
        return starts

    def key_wide(self) -> int | None:
        """The wide block Tab stopped on (Left, Right, Home and End scroll it), or None."""
        return self._key_wide

    def focusNextPrevChild(self, forward: bool) -> bool:  # noqa: N802
        """Tab and Shift+Tab stop at each link, as Qt does, and at each wide block that holds no link (a wide
        table): Left and Right scroll it. It had no link to stop on, so it could not be scrolled by keyboard."""
        plain, links = [], []
        if self._wide and self.hasFocus():
            links = self._links()
            plain = [i for i, w in enumerate(self._wide) if not any(w.first <= at <= w.last for at in links)]
        if not plain:
            self._set_key_wide(None)
            return super().focusNextPrevChild(forward)
        cursor = self.textCursor()
        if self._key_wide is not None:
            here: tuple[int, int] | None = (self._wide[self._key_wide].first, self._wide[self._key_wide].last)
        elif cursor.hasSelection():
            here = (cursor.selectionStart(), cursor.selectionEnd())
        else:
            here = None
        if forward:
            start = here[1] if here else 0
            link = next((at for at in links if at >= start), None)
            block = next((i for i in plain if self._wide[i].first >= start), None)
            take = block is not None and (link is None or self._wide[block].first < link)
        else:
            end = here[0] if here else self.document().characterCount()
            link = next((at for at in reversed(links) if at < end), None)
            block = next((i for i in reversed(plain) if self._wide[i].last < end), None)
            take = block is not None and (link is None or self._wide[block].first > link)
        if take:
            self._set_key_wide(block)
            return True
        if self._key_wide is not None:
            # Qt looks for the next link from the current selection: one letter at the block's edge.
            edge = QTextCursor(self.document())
            at = here[1] - 1 if forward else here[0]
            edge.setPosition(at)
            edge.setPosition(at + 1, QTextCursor.MoveMode.KeepAnchor)
            self._quietly(edge)
            self._set_key_wide(None)
        return super().focusNextPrevChild(forward)

    def _quietly(self, cursor: QTextCursor) -> None:
        self._rendering = True  # no wide block scrolls to follow this cursor
        try:
            self.setTextCursor(cursor)
        finally:
            self._rendering = False

    def _set_key_wide(self, index: int | None) -> None:
        if index is not None:
            cursor = QTextCursor(self.document())
            cursor.setPosition(self._wide[index].first)  # no link under it (the status bar shows none)
            self._quietly(cursor)
            self.highlighted.emit(QUrl())
        if index != self._key_wide:
            self._key_wide = index
            self.viewport().update()
        if index is not None:
            QTimer.singleShot(0, self, self._show_key_wide)  # not after the segment is gone

    def _show_key_wide(self) -> None:
        """The conversation scrolls the block Tab stopped on into view (it showed the segment's top)."""
        index = self._key_wide
        area = self.parentWidget()
        while area is not None and not isinstance(area, QScrollArea):
            area = area.parentWidget()
        if index is None or area is None or area.widget() is None:
            return
        wide = self._wide[index]
        middle = self.viewport().mapTo(area.widget(), QRectF(0, wide.top, 1, wide.bottom - wide.top).center().toPoint())
        margin = int(min((wide.bottom - wide.top) / 2 + 8, area.viewport().height() / 2))
        area.ensureVisible(middle.x(), middle.y(), 0, margin)

    def focusOutEvent(self, event) -> None:  # noqa: N802
        super().focusOutEvent(event)
        if event.reason() not in (Qt.FocusReason.ActiveWindowFocusReason, Qt.FocusReason.PopupFocusReason):
            self._set_key_wide(None)

    def mousePressEvent(self, event) -> None:  # noqa: N802
        y = event.position().y()
        self._set_key_wide(None)
        for i in self._bars():
            track, thumb = self._bar_rects(i)
            if event.button() == Qt.MouseButton.LeftButton and track.adjusted(0, -3, 0, 3).contains(event.position()):
                if not thumb.adjusted(0, -3, 0, 3).contains(event.position()):  # the track: a page that way
                    page = self.viewport().width() * 0.9
                    self.scroll_wide(i, self._at(i) + (page if event.position().x() > thumb.left() else -page))
                self._bar_drag = (i, event.position().x(), self._at(i))
                event.accept()
                return
        self._held = self._wide_at(y)
        with self._shifted(self._held):
            super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        if self._bar_drag is not None:
            index, x, shift = self._bar_drag
            wide = self._wide[index] if index < len(self._wide) else None
            if wide is not None:
                track = self._bar_rects(index)[0]
                self.scroll_wide(index, shift + (event.position().x() - x) * wide.right / track.width())
            event.accept()
            return
        over = not event.buttons() and any(self._bar_rects(i)[0].adjusted(0, -3, 0, 3).contains(event.position())
                                           for i in self._bars())
        if over != self._over_bar:  # an arrow over a bar, as over any scroll bar; the text's own cursor off it
            self._over_bar = over
            self.viewport().setCursor(Qt.CursorShape.ArrowCursor if over else Qt.CursorShape.IBeamCursor)
        if over:
            event.accept()
            return
        held = self._held if event.buttons() else self._wide_at(event.position().y())
        with self._shifted(held):
            super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        if self._bar_drag is not None:
            self._bar_drag = None
            event.accept()
            return
        with self._shifted(self._held if self._held is not None else self._wide_at(event.position().y())):
            super().mouseReleaseEvent(event)
        self._held = None

    def mouseDoubleClickEvent(self, event) -> None:  # noqa: N802
        with self._shifted(self._wide_at(event.position().y())):
            super().mouseDoubleClickEvent(event)

    def timerEvent(self, event) -> None:  # noqa: N802
        with self._shifted(self._held):  # a selection dragged past the edge goes on by itself
            super().timerEvent(event)

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._measure()
        for link in {self.link_above, self.link_below} - {None}:  # a long table's columns, at the new width
            link.measured(self)
