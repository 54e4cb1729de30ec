"""A long word in a table's cell (a dotted name, a hash, an address) wraps inside its cell, as it does in
running text: one such word made its column as wide as the word, and a table of four short columns 1,325 px
wide in a 600 px answer, scrolled sideways to be read. Its other words stay whole, a table that fits keeps
each cell on one line, and a selection of the cell copies the word as the answer wrote it."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor, QTextTable
from PySide6.QtWidgets import QApplication

from tinyrag_desktop.ui.find_matches import pattern_of as _pattern
from tinyrag_desktop.ui.markdown_render import BREAK_POINT
from tinyrag_desktop.ui.segments import MarkdownSegment

DIGEST = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
NAME = "tinyrag_desktop.ui.markdown_render.some_extremely_long_function_name_here"
SHA1 = "da39a3ee5e6b4b0d3255bfef95601890afd80709"
ADDRESS = "https://example.com/downloads/2026/quarterly/reports/quarterly_report_2026_final_version.pdf?download=1"
TABLE = ("| File | Link | SHA-256 | Note |\n|---|---|---|---|\n"
         f"| report.pdf | {ADDRESS} | {DIGEST} | kept |\n"
         f"| `{NAME}` | short | {SHA1} | the usual words wrap as before |\n")


def _segment(qtbot, width: int) -> MarkdownSegment:
    seg = MarkdownSegment()
    qtbot.add_widget(seg)
    seg.resize(width, 100)
    seg.show()
    seg.set_markdown("Files:\n\n" + TABLE)
    return seg


def _table(seg: MarkdownSegment) -> QTextTable:
    doc = seg.document()
    return next(f for f in doc.rootFrame().childFrames() if isinstance(f, QTextTable))


def _cell_text(seg: MarkdownSegment, row: int, column: int) -> str:
    cell = _table(seg).cellAt(row, column)
    cursor = QTextCursor(seg.document())
    cursor.setPosition(cell.firstPosition())
    cursor.setPosition(cell.lastPosition(), QTextCursor.MoveMode.KeepAnchor)
    return cursor.selection().toPlainText()


def _copied(seg: MarkdownSegment, row: int, column: int) -> tuple[str, str]:
    """The cell at ``row``, ``column`` selected and copied: the clipboard's text and HTML."""
    cell = _table(seg).cellAt(row, column)
    cursor = QTextCursor(seg.document())
    cursor.setPosition(cell.firstPosition())
    cursor.setPosition(cell.lastPosition(), QTextCursor.MoveMode.KeepAnchor)
    seg.setTextCursor(cursor)
    seg.copy()
    data = QApplication.clipboard().mimeData()
    return data.text(), data.html()


def test_long_words_wrap_inside_their_cells_and_the_table_fits_the_answer(qtbot):
    seg = _segment(qtbot, 600)
    doc = seg.document()
    width = doc.documentLayout().frameBoundingRect(_table(seg)).width()
    assert width <= 602 and seg.wide_blocks() == []  # was 1,325 px, scrolled sideways
    for column in range(4):
        assert _table(seg).cellAt(2, column).isValid()
    # the long words have break points; short ones and the ordinary words have none
    assert BREAK_POINT in _cell_text(seg, 1, 2) and BREAK_POINT in _cell_text(seg, 2, 0)
    assert BREAK_POINT in _cell_text(seg, 2, 2)  # a SHA-1: 40 characters without a separator
    assert _cell_text(seg, 2, 3) == "the usual words wrap as before" and _cell_text(seg, 1, 3) == "kept"
    # a selection copies the words as written, without the break points
    for (row, column), word in {(1, 2): DIGEST, (2, 0): NAME, (1, 1): ADDRESS, (2, 2): SHA1}.items():
        text, html = _copied(seg, row, column)
        assert text == word
        assert BREAK_POINT not in html and (word in html or word.replace("&", "&amp;") in html)
    # Find in chat finds a word across them
    assert _pattern(DIGEST).search(seg.toPlainText()) and _pattern(NAME).search(seg.toPlainText())
    seg.resize(2400, seg.height())  # room for all of it on one line (1,887 px): each long word on one line
    table = _table(seg)
    for row, column in ((1, 2), (2, 0), (2, 2)):
        block = seg.document().findBlock(table.cellAt(row, column).firstPosition())
        assert block.layout().lineCount() == 1
    assert seg.wide_blocks() == []
