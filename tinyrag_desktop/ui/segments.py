"""The pieces an answer is made of: Markdown text segments and the collapsed "Thinking" section."""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping

from PySide6.QtCore import QMimeData, QPoint, QSize, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QColor, QKeySequence, QPainter, QPalette, QTextCursor, QTextLength, QTextOption
from PySide6.QtWidgets import (QBoxLayout, QFrame, QScrollArea, QSizePolicy, QSpacerItem,
                               QTextBrowser, QTextEdit, QWidget)

from .drag_across import DragAcross
from .gorun import GoRuns
from .long_text import Cut, Fold, fold_note
from .markdown_cuts import fix_columns
from .markdown_render import BREAK_POINT, COPIED, COPY_CODE, DARK, LIGHT, Palette, Rendered, code_left_open, render
from .segment_links import CodeBlocksMixin, LinksMixin
from .theme import colors
from .thinking import ThinkingSection  # noqa: F401 - an answer's piece, as the others
from .wide_blocks import BAR, SidewaysBlocks, box_bottom, edge_table, frame_edge

SettingsSource = Callable[[], Mapping[str, Any]]
# A code block's header as selected text: its language (or "code") and its links
_CODE_HEADER = re.compile(r"^\S{1,40}[ \xa0]{2}(?:%s|%s)(?:[ \xa0]{2}(?:Run|Stop))?[ \xa0]*(?:\n|$)"
                          % (COPY_CODE, COPIED), re.M)

ROOM_BELOW = 2  # pixels under a segment's text (see MarkdownSegment._measure)
# keys that leave a selection across an answer's segments as it is (see MarkdownSegment.selectOut)
_KEEP_SELECTION = frozenset({Qt.Key.Key_Shift, Qt.Key.Key_Control, Qt.Key.Key_Alt, Qt.Key.Key_Meta, Qt.Key.Key_Tab,
                             Qt.Key.Key_Backtab, Qt.Key.Key_AltGr})


def plain_words(shown: str, most: int = 500) -> str:
    """A segment's text as shown (no Markdown marks, no code block's "python  Copy code" line), on one line
    and cut after ``most`` characters at a word: its accessible description. The Markdown source made a
    screen reader say the hashes, asterisks and pipes."""
    words = " ".join(_CODE_HEADER.sub("", shown.replace(BREAK_POINT, "")).split())
    if len(words) <= most:
        return words
    cut = words.rfind(" ", 0, most)
    return words[:cut if cut > most // 2 else most] + "…"


def reveal_caret(view: QTextEdit) -> None:
    """The conversation scrolls the caret's line of ``view`` into view (a message's text never scrolls itself:
    it is as tall as its text)."""
    area = view.parentWidget()
    while area is not None and not isinstance(area, QScrollArea):
        area = area.parentWidget()
    if area is None or area.widget() is None:
        return
    rect = view.cursorRect()
    where = view.viewport().mapTo(area.widget(), rect.center())
    area.ensureVisible(where.x(), where.y(), 0, rect.height() + 8)


_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")
_BARE_MARKER = re.compile(r"[ \t]*(?:\d{1,9}[.)]?|[-*+])[ \t]*")  # a list item's marker, its words to come


def settled(text: str) -> str:
    """``text`` without the table rows at its end that are not settled yet, while it streams: a row half
    written showed as "| Column 0 | Co" in plain text until its line ended, and a header row as a paragraph
    until the rule under it came. Rows held back show as soon as they are whole (and the rule has come).

    The line being written under a row is held back too: the next row of a table in a list item starts with
    its indent ("   "), and the line after a table may be one more row ("2" before "2. next" ends it).

    So is a list item's marker whose words have not come ("3.", "-"): Markdown reads it as more words of the
    line above ("2. second 3.") or, a dash, as the rule that makes the line above a heading."""
    lines = text.split("\n")
    if _BARE_MARKER.fullmatch(lines[-1]):
        lines[-1] = ""
        text = "\n".join(lines)
    after_row = len(lines) > 1 and lines[-2].lstrip().startswith("|")
    writing = lines[-1].lstrip().startswith("|") or after_row and lines[-1] != ""  # the line being written
    rows_end = len(lines) - 1 if writing or not lines[-1].strip() else len(lines)
    start = rows_end
    while start > 0 and lines[start - 1].lstrip().startswith("|"):
        start -= 1
    cut = rows_end if writing else len(lines)
    if start < rows_end and not any(_TABLE_RULE.match(line) for line in lines[start:rows_end]):
        cut = start  # rows with no rule under their header yet: not yet a table
    if cut == len(lines):
        return text
    return "\n".join(lines[:cut]) + ("\n" if cut else "")


_table_at = edge_table


class MarkdownSegment(LinksMixin, CodeBlocksMixin, DragAcross, SidewaysBlocks, QTextBrowser):
    """A run of answer text rendered from Markdown; as tall as its content, never scrolling itself.

    ``set_markdown`` re-renders only this segment. The streaming view keeps segments short (see
    ``markdown_render.freeze_point``), so a re-render costs the same at the 100th token as at the 10,000th.
    ``settings`` returns the window's current settings: whether Go blocks get a Run link is read from it at
    each render, so turning ``allow_nanogo`` on or off applies without a restart.
    """

    codeCopied = Signal(str)
    runChanged = Signal(int)  # a Go block's run started or ended (its number in this segment)
    linkHovered = Signal(str)  # the address of the link under the mouse, shortened; "" when it leaves it
    tabStopChanged = Signal()  # Tab now stops here, or no longer does (a table became wider than the answer)
    # The caret is to go on in another segment of the answer (see reading.py): "down" (Down on the last line),
    # "up" (Up on the first), "start" (Ctrl+Home), "end" (Ctrl+End)
    caretOut = Signal(str)
    # A selection across the answer's segments (see reading.Span): "all" (Ctrl+A), "down" (Shift+Down at the
    # segment's end), "up" (Shift+Up at its start), "drop" (a key or a click that moves the caret: it ends)
    selectOut = Signal(str)
    rowsAsked = Signal()  # its note's "Show all N rows" was clicked: the long table's rows it stands for (fold)

    def __init__(self, parent: QWidget | None = None, palette: Palette = LIGHT,
                 settings: SettingsSource | None = None) -> None:
        super().__init__(parent)
        self._palette = palette
        self._settings = settings
        self._markdown = ""
        self._holding = False  # table rows of its text wait to be shown (see holds_back)
        self._blank = False  # see shows_nothing
        self._shown_key: tuple | None = None  # what the text shown was rendered from (see set_markdown)
        self._rows_gap_for: tuple[MarkdownSegment, float] | None = None  # see _rows_gap
        self._columns: dict[bool, tuple[float, ...]] = {}  # see fit_columns
        self._html = ""  # its text as last rendered (see table_pieces.Join)
        self._render_prefix = ""
        self._render_suffix = ""
        self._codes: tuple[str, ...] = ()
        self._copied = -1  # the code block whose link says "Copied ✓" for a moment (see copy_code)
        self._copied_timer: QTimer | None = None  # made at the first copy: most segments never have one
        self._runs: GoRuns | None = None  # made at the first Run: most segments never have one
        self.continues: MarkdownSegment | None = None  # the segment whose last code block goes on here
        self.continued_by: MarkdownSegment | None = None  # the segment its last block goes on in (see continues)
        self.fold: Fold | None = None  # the rows of a long table not shown, for which its note stands (see show_fold)
        self.cuts: tuple[Cut, ...] = ()  # what is left out of its text too long to lay out (see long_text.cut_long)
        self.setObjectName("answerText")
        self.setOpenLinks(False)
        self.anchorClicked.connect(self._on_anchor)
        self.highlighted.connect(self._on_hover)
        self._hovered = False
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # Tab goes to cards and buttons, not every paragraph
        # A caret the arrows move, as in a read-only document: a screen reader reads the line it goes to
        # (Qt's own text accessibility tells where it is). Tab stops at the answer's first segment only (see
        # set_reading_stop); Down at the end of a segment goes on in the next one (caretOut).
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction
                                     | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self._reading_stop = False
        # the answer's Tab stop after (True) or before (False) this segment (see reading.stop_beside)
        self.stop_beside: Callable[[bool], QWidget | None] | None = None
        self._keyboard_focus = False  # the focus came by the keyboard: the caret's line is marked
        # what Copy copies while a selection goes on across the answer's segments (None: this one's own)
        self.span_text: Callable[[], str | None] | None = None
        self.cursorPositionChanged.connect(self._caret_moved)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.viewport().setAutoFillBackground(False)
        pal = self.palette()
        pal.setColor(QPalette.ColorRole.Base, Qt.GlobalColor.transparent)
        self.setPalette(pal)
        self.document().setDocumentMargin(0)
        self.document().documentLayout().documentSizeChanged.connect(self._fit)
        # A short name: unnamed, its whole text was said by Orca 43 each time the focus came into the answer (on
        # Regenerate, on a card), as words about the answer. Tab to it says "Answer text"; the arrows read it.
        self.setAccessibleName("Answer text")
        self.setFixedHeight(1)
        # Code keeps its lines and a table its words: a block wider than the answer scrolls sideways on its
        # own (shift+wheel, a sideways wheel or swipe, its bar, Left and Right), the rest stays put.
        self.setWordWrapMode(QTextOption.WrapMode.WordWrap)
        self._init_sideways()
        self._init_drag()

    def _fit(self, size=None) -> None:
        self._measure()

    def _measure(self) -> None:
        super()._measure()
        # As tall as its text, and as the bar under a wide block: a table or code block ending the segment
        # (where the streaming view cuts) has its bar below the text's own height, and it was not drawn.
        height = max(self.document().size().height(), self.bars_bottom()) + ROOM_BELOW
        if int(height + 0.999) != self.height():
            self.setFixedHeight(int(height + 0.999))
        self._update_tab_stop()

    def _update_tab_stop(self) -> None:
        # Code blocks carry links (Copy code, Run), a wide table scrolls: then Tab reaches this segment and
        # walks its links and wide blocks (Left and Right scroll one). The answer's first segment is where
        # Tab comes to read it.
        stop = self._codes or self._wide or self._reading_stop or self.fold is not None
        policy = Qt.FocusPolicy.StrongFocus if stop else Qt.FocusPolicy.ClickFocus
        if policy != self.focusPolicy():
            self.setFocusPolicy(policy)
            self.tabStopChanged.emit()

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(400, self.height())

    def set_reading_stop(self, on: bool) -> None:
        """Make this the answer's one Tab stop for its text (its first segment), or no longer."""
        if on != self._reading_stop:
            self._reading_stop = on
            self._update_tab_stop()

    def is_reading_stop(self) -> bool:
        return self._reading_stop

    def enter_caret(self, where: str) -> None:
        """Take the focus with the caret at the ``start``, at the start of the ``last`` line (Up from the
        segment below: the line a screen reader then reads whole) or at the ``end``."""
        cursor = QTextCursor(self.document())
        if where != "start":
            cursor.movePosition(QTextCursor.MoveOperation.End)  # (at the end Orca 43 says "blank", as in an editor)
        self._quietly(cursor)
        if where == "last":
            self.moveCursor(QTextCursor.MoveOperation.StartOfLine)  # a line as laid out, not the paragraph
        self.setFocus(Qt.FocusReason.OtherFocusReason)
        self._show_caret()

    def _caret_moved(self) -> None:
        if self.hasFocus() and not self._rendering:
            self.viewport().update()  # the marked line follows the caret
            self._show_caret()

    def _show_caret(self) -> None:
        reveal_caret(self)

    def keyPressEvent(self, event) -> None:  # noqa: N802
        self._keyboard_focus = True
        key, mods = event.key(), event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        control, shift = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
        if self.span_text is not None and event.matches(QKeySequence.StandardKey.SelectAll):
            self.selectOut.emit("all")  # the whole answer, as Down and Up read it as one text
            event.accept()
            return
        if not mods & shift and key not in _KEEP_SELECTION and not event.matches(QKeySequence.StandardKey.Copy):
            self.selectOut.emit("drop")
        if mods == control and key in (Qt.Key.Key_Home, Qt.Key.Key_End):
            self.caretOut.emit("start" if key == Qt.Key.Key_Home else "end")  # of the whole answer
            event.accept()
            return
        arrow = {Qt.Key.Key_Down: "down", Qt.Key.Key_Up: "up"}.get(key) if mods == Qt.KeyboardModifier.NoModifier \
            else None
        selecting = {Qt.Key.Key_Down: "down", Qt.Key.Key_Up: "up"}.get(key) if mods == shift else None
        before = self.textCursor().position()
        super().keyPressEvent(event)
        if arrow and self.textCursor().position() == before and not self.textCursor().hasSelection():
            self.caretOut.emit(arrow)  # on the last (first) line already: the next (previous) segment
            event.accept()
        elif selecting and self.textCursor().position() == before:
            self.selectOut.emit(selecting)  # at the end (start) already: the selection goes on in the next one
            event.accept()

    def mousePressEvent(self, event) -> None:  # noqa: N802
        if event.button() == Qt.MouseButton.LeftButton:
            self.selectOut.emit("drop")
        super().mousePressEvent(event)

    def place_selection(self, anchor: int, position: int, focus: bool = False) -> None:
        """Select from ``anchor`` to ``position``, the caret there (part of a selection across the answer's
        segments, see reading.Span); ``focus``: this segment takes the focus, its caret shown."""
        last = self.document().characterCount() - 1
        cursor = QTextCursor(self.document())
        cursor.setPosition(max(0, min(anchor, last)))
        cursor.setPosition(max(0, min(position, last)), QTextCursor.MoveMode.KeepAnchor)
        self._quietly(cursor)
        self.viewport().update()
        if focus:
            self.setFocus(Qt.FocusReason.OtherFocusReason)
            self._cursor_moved()  # a wide block scrolls to the caret
            self._caret_moved()

    def place_at(self, point: QPoint) -> int:
        """The place in the text at ``point`` (in the segment), a wide block's sideways scroll counted."""
        with self._shifted(self._wide_at(point.y())):
            return self.cursorForPosition(point).position()

    def last_line_start(self) -> int:
        """Where the segment's last line (as laid out) starts."""
        cursor = QTextCursor(self.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        layout, block = cursor.block().layout(), cursor.block()
        line = layout.lineForTextPosition(cursor.positionInBlock()) if layout is not None else None
        return block.position() + (line.textStart() if line is not None and line.isValid() else 0)

    def selected_whole(self) -> bool:
        cursor = self.textCursor()
        return cursor.selectionStart() == 0 and cursor.selectionEnd() >= self.document().characterCount() - 1

    def selected_words(self) -> str:
        """The selection as copied: whole, the Markdown the answer wrote; else its words as shown (see
        createMimeDataFromSelection)."""
        if self.selected_whole():
            return self._render_prefix + self._markdown + self._render_suffix
        return _CODE_HEADER.sub("", self.textCursor().selection().toPlainText().replace(BREAK_POINT, ""))

    def paintEvent(self, event) -> None:  # noqa: N802
        super().paintEvent(event)
        if self._keyboard_focus and self.hasFocus():
            # The caret's line, marked: where the keyboard reads is plain to see, not only a thin caret. A
            # faint tint over the text, not under it: a code block's or a table header's background hid it.
            rect = self.cursorRect()
            band = QColor(colors().accent)
            band.setAlpha(46)
            painter = QPainter(self.viewport())
            painter.fillRect(0, rect.top() - 1, self.viewport().width(), rect.height() + 2, band)
            painter.end()

    def show_fold(self, fold: Fold) -> None:
        """Stand under a long table for its rows not shown, ``fold`` (see long_text.table_folds): how many, and a
        link that shows them all (rowsAsked)."""
        self.fold = fold
        self.set_markdown(fold_note(fold, self._palette.muted, self._palette.link)[0])

    def markdown(self) -> str:
        """The Markdown source of this segment exactly as streamed."""
        return self._markdown

    def gap_below(self, above: "MarkdownSegment") -> float:
        """The space one document would leave between the end of ``above``'s text and the start of this
        segment's, which the streaming view cut apart (see freeze_point): none between two items of a tight
        list (no blank line between them), else the larger of the two blocks' margins, as Qt leaves."""
        if self._render_prefix.startswith("|"):
            return self._rows_gap(above)
        last, first = above.document().lastBlock(), self.document().firstBlock()
        if last.textList() is not None and first.textList() is not None and not above.markdown().endswith("\n\n"):
            return 0.0
        return max(last.blockFormat().bottomMargin(), first.blockFormat().topMargin())

    def _rows_gap(self, above: "MarkdownSegment") -> float:
        """The gap under the piece of a long table above whose rows go on here (see freeze_point): none, the
        two borders drawn as one, as in one table; room for its bar under a piece that scrolls sideways.

        Measured once for ``above`` (a piece is frozen before the next begins, and the top of this one's table
        does not move as its rows come): each table Python looks at keeps an object alive with its document."""
        # the piece above has a bar under its table while this one shows no row yet (see CutTable.add)
        bar = BAR + 2 if above._bars() and above._bars()[-1] == len(above._wide) - 1 else -1
        if self._rows_gap_for is not None and self._rows_gap_for[0] is above:
            return self._rows_gap_for[1] + bar
        doc, mine = above.document(), self.document()
        last, first = _table_at(doc, -1), _table_at(mine, 0)
        if last is None or first is None:
            return 0.0
        under = doc.size().height() - box_bottom(doc, last)  # its margin and the line after it
        block = mine.findBlock(first.firstPosition())
        top = mine.documentLayout().blockBoundingRect(block).top() - frame_edge(first)
        self._rows_gap_for = (above, -under - top)
        return self._rows_gap_for[1] + bar

    def holds_back(self) -> bool:
        """Whether table rows of its text wait to be shown (see settled)."""
        return self._holding

    def shows_nothing(self) -> bool:
        """Whether it shows no text although it has some: the piece of a long table cut while it streams, before
        its first row is whole (its header is drawn by the piece above)."""
        return self._blank

    def fit_columns(self, widths: tuple[float, ...] | None, last: bool) -> None:
        """Size the columns of this piece of a long table (see table_pieces.py), its first table or its ``last``,
        to ``widths`` (pixels, each column's from its left border to the next's), as one table's; None: to its
        own rows. Kept for the renders to come; the table shown gets them at once (its layout only: a selection
        in it stays)."""
        if widths == self._columns.get(last):
            return
        if widths is None:
            self._columns.pop(last)
        else:
            self._columns[last] = widths
        doc = self.document()  # held: see wide_blocks.box_bottom
        table = edge_table(doc, -1 if last else 0)
        if table is None or widths is not None and table.columns() != len(widths):
            return
        fmt = table.format()
        fmt.setColumnWidthConstraints([QTextLength(QTextLength.Type.FixedLength, w) for w in widths or ()])
        table.setFormat(fmt)
        self._fit()

    def fitted_columns(self, last: bool) -> tuple[float, ...] | None:
        """The widths its first (``last``) table's columns are kept at (see fit_columns)."""
        return self._columns.get(last)

    def set_frame(self, prefix: str, suffix: str) -> None:
        """Text rendered around the source: a code fence carried over from the previous segment."""
        self._render_prefix, self._render_suffix = prefix, suffix

    def set_markdown(self, text: str, growing: bool = False, html: str | None = None,
                     cuts: tuple[Cut, ...] = ()) -> None:
        """Show ``text``; ``growing``: it is the end of an answer still streaming, whose last table row may be
        half written (see settled); ``html``: its rendering, made already (see table_pieces.Join), with what it
        leaves out of text too long to lay out, ``cuts``."""
        self._markdown = text
        run_go = self._run_allowed(text)
        prefix = self._render_prefix
        table = prefix.startswith("|")  # the rows of a long table go on here, under its header (freeze_point)
        shown = prefix + text
        # in a code block still open, a line starting with "|" is code (a shell pipe, Elixir's |>): all shown
        if growing and not code_left_open(shown):
            shown = settled(shown)  # with a table's header in front: its rows are held back as in one text
        self._holding = len(shown) != len(prefix) + len(text)
        self._blank = table and len(shown) <= len(prefix)  # no row of the table yet: nothing to show
        source = "" if self._blank else shown + self._render_suffix
        runs = self._runs.views() if self._runs else None
        partial = (bool(prefix) and not table, bool(self._render_suffix))
        carried = self._carried() if run_go else ""
        key = (source, self._palette, run_go, runs, partial, carried, table)
        if key == self._shown_key:
            return  # as shown already: the rows of a long table frozen where the streaming view cuts it
        self._shown_key = key
        if self.fold is not None:  # (in the colours of each theme)
            html = fold_note(self.fold, self._palette.muted, self._palette.link)[1]
        rendered = Rendered(html, (), cuts) if html is not None else render(
            source, self._palette, run_go=run_go, runs=runs, partial=partial, carried=carried, headless=table)
        self._html = "" if self._holding else rendered.html  # (held back: not all of its text)
        self._codes = rendered.code_blocks
        self.cuts = rendered.cuts
        self._rendering = True  # the text cursor goes back to the start: no wide block follows it there
        caret = self.textCursor().position() if self.hasFocus() else -1
        shown_html = rendered.html
        for last, widths in self._columns.items():  # a piece of a long table: as wide as the table so far
            shown_html = fix_columns(shown_html, widths, last)
        self.setHtml(shown_html)
        if caret > 0:  # a reader's caret in the text still streaming stays where it was
            cursor = QTextCursor(self.document())
            cursor.setPosition(min(caret, self.document().characterCount() - 1))
            self.setTextCursor(cursor)
        self._rendering = False
        self.setAccessibleDescription(plain_words(self.toPlainText()))
        self._fit()
        for link in {self.link_above, self.link_below} - {None}:
            link.measured(self)
        if self._copied >= 0:  # rendered again within its moment: the link still says so (measured as Copy code)
            self._relabel(self._copied, COPIED)


    def refresh(self) -> None:
        """Render again with the current settings (``allow_nanogo`` may have changed)."""
        if self._markdown:
            self._shown_key = None
            self.set_markdown(self._markdown)


    def set_palette_colours(self, palette: Palette, growing: bool = False) -> bool:
        """Show the text in a new theme's ``palette`` (``growing``: the end of an answer streaming, as in
        set_markdown, its half-written table row still held back); whether it was rendered again."""
        if palette is self._palette:
            return False
        self._palette = palette
        if self._markdown:
            self.set_markdown(self._markdown, growing)
        return bool(self._markdown)


    def hasHeightForWidth(self) -> bool:  # noqa: N802
        return False


    def loadResource(self, kind: int, url: QUrl):  # noqa: N802
        # Answers are model output: never let them make the view read local files or images.
        return None

    def createMimeDataFromSelection(self) -> QMimeData:  # noqa: N802
        """The selection as copied or dragged, without the break points put into long words to let them wrap
        (a hash or a base64 blob selected and copied must be the one the answer wrote), nor a code block's
        "python  Copy code" line. All of it (Ctrl+A) is copied as text in the Markdown it was written in: a
        table's cells came one a line ("a", "b", "1", "2")."""
        span = self.span_text() if self.span_text is not None else None
        if span is not None:  # a selection across the answer's segments (and the cards between): all of it
            data = QMimeData()
            data.setText(span)
            return data
        data = super().createMimeDataFromSelection()
        if data.hasHtml():
            data.setHtml(data.html().replace(BREAK_POINT, ""))
        if data.hasText():
            data.setText(self.selected_words())
        return data


class Seam:
    """Where the streaming view cut an answer's text into two segments (see freeze_point): the space
    between them is the space one document would leave there (MarkdownSegment.gap_below).

    The answer's spacing between its parts and the room under a segment's text left 8 pixels at every cut:
    a long list cut in segments showed a seam where a tight list has none between its items, and a loose
    list or paragraphs 12. A spacer between the two segments makes up the difference; it is negative where
    the gap is the smaller (a box layout adds a spacer's height as it is, and none of its spacing)."""

    def __init__(self, layout: QBoxLayout, below: MarkdownSegment) -> None:
        self._layout, self._below = layout, below
        self._spacer = QSpacerItem(0, 0, QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Fixed)
        layout.insertItem(layout.indexOf(below), self._spacer)

    def remove(self) -> None:
        """Take the spacer away (the segment below was joined into the one above it)."""
        self._layout.removeItem(self._spacer)

    def fit(self) -> None:
        """Size the spacer to the gap (call it when the segment below has been rendered)."""
        # the segment above is looked up each time: the pieces of a long code block are joined into their
        # first when the answer ends (AnswerWidget._join_cut_blocks), and the last piece may be the one above
        at = self._layout.indexOf(self._spacer)
        above = self._layout.itemAt(at - 1).widget() if at > 0 else None
        if not isinstance(above, MarkdownSegment):
            return
        size = round(self._below.gap_below(above)) - self._layout.spacing() - ROOM_BELOW
        if size != self._spacer.sizeHint().height():
            self._spacer.changeSize(0, size, QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Fixed)
            self._layout.invalidate()


def palette_for(dark: bool) -> Palette:
    return DARK if dark else LIGHT
