"""The room above and below code blocks, tables and quotes in an answer: a paragraph's gap, the same each side."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QTextCursor

from tinyrag_desktop.ui.segments import MarkdownSegment


def _gaps_around_block(qtbot, before: str, block: str) -> tuple[int, int, int]:
    """In pixels: the gap between two paragraphs, then above and below ``block`` between ``before`` and a
    paragraph (from the line box of the text to the block's border, or to its bar for a quote)."""
    seg = MarkdownSegment()
    qtbot.add_widget(seg)
    seg.setCursorWidth(0)
    seg.resize(500, 100)
    seg.show()
    seg.set_markdown(f"First paragraph.\n\nSecond paragraph.\n\n{before}\n\n{block}\n\nLast paragraph.")
    seg.resize(500, int(seg.document().size().height()) + 10)
    text = seg.toPlainText()

    def line(words: str, end: bool = False):
        cursor = QTextCursor(seg.document())
        cursor.setPosition(text.index(words) + (len(words) if end else 0))
        return seg.cursorRect(cursor)

    before = before.splitlines()[-1].removeprefix("2. ")  # its last line's words (a list item without its number)
    image = seg.viewport().grab().toImage()
    background = image.pixel(image.width() - 1, 0)
    inked = [y for y in range(line(before, True).bottom() + 1, line("Last paragraph").top())
             if any(image.pixel(x, y) != background for x in range(0, 40))]
    paragraphs = line("Second paragraph").top() - line("First paragraph", True).bottom()
    return paragraphs, inked[0] - line(before, True).bottom(), line("Last paragraph").top() - inked[-1]


@pytest.mark.parametrize("before", ["A paragraph before it.", "1. a list\n2. before it"], ids=["text", "list"])
@pytest.mark.parametrize("block", ["```text\nsome code\n```", "| A | B |\n|---|---|\n| 1 | 2 |", "> a quote"],
                         ids=["code", "table", "quote"])
def test_a_code_block_a_table_and_a_quote_have_a_paragraphs_gap_above_and_below(qtbot, before, block):
    # 4 px above a code block or a table and 8 below it, plus the next paragraph's 12: text touched the box above
    # it (4-6 px) and stood 20-26 px under it; a table under a list 6 px, a code block under a table 16.
    paragraphs, above, below = _gaps_around_block(qtbot, before, block)
    assert abs(above - paragraphs) <= 2 and abs(below - paragraphs) <= 2, (paragraphs, above, below)
