"""Right-to-left text: a table in an Arabic answer runs right to left at the answer's right edge, and Arabic
typed in the message box sits at its right edge."""

from __future__ import annotations


from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor, QKeyEvent, QTextCursor
from PySide6.QtWidgets import QApplication

from tinyrag_desktop.ui.composer import Composer
from tests.sse_server import Stream
from tinyrag_desktop.ui.markdown_render import DARK, LIGHT, render
from tinyrag_desktop.ui.segments import MarkdownSegment

from .conftest import ask_and_wait, keep_picture, tokens

ARABIC = "النتيجة هي كما يلي:\n\n| العمود | القيمة |\n|---|---|\n| أ | 1 |\n| ب | 2 |\n\nتم.\n"
LATIN = "The result:\n\n| Column | Value |\n|---|---|\n| a | 1 |\n"
WIDE_ARABIC = ("النتيجة:\n\n| " + " | ".join(f"العمود {i}" for i in range(20)) + " |\n|" + "---|" * 20 + "\n| "
               + " | ".join(f"قيمة {i}" for i in range(20)) + " |\n\nتم.\n")


def _segment(qtbot, markdown: str, width: int = 600) -> MarkdownSegment:
    seg = MarkdownSegment()
    qtbot.add_widget(seg)
    seg.resize(width, 100)
    seg.show()
    seg.set_markdown(markdown)
    return seg


def _x(seg: MarkdownSegment, words: str) -> int:
    """Where the cell holding ``words`` is on screen: the middle of its text, as scrolled now."""
    found = seg.document().find(words)
    assert not found.isNull(), words
    left, right = QTextCursor(found), QTextCursor(found)
    left.setPosition(found.selectionStart())
    right.setPosition(found.selectionEnd())
    middle = (seg.cursorRect(left).x() + seg.cursorRect(right).x()) // 2
    blocks = [shift for first, last, shift in seg.wide_blocks() if first <= found.selectionStart() <= last]
    return middle - (blocks[0] if blocks else 0)


def test_a_table_in_an_arabic_answer_runs_right_to_left_at_the_right_edge(qtbot):
    seg = _segment(qtbot, ARABIC)
    first, second = _x(seg, "العمود"), _x(seg, "القيمة")
    assert first > second  # the first column on the right
    assert first > seg.width() - 80  # the table at the answer's right edge, as the text around it
    assert _x(seg, "أ") > _x(seg, "1")  # the rows too
    latin = _segment(qtbot, LATIN)
    assert _x(latin, "Column") < _x(latin, "Value") < latin.width() // 2  # a left-to-right table as before
    assert 'dir="rtl"' not in render(LATIN).html


def test_a_wide_arabic_table_starts_at_its_first_column_on_the_right(qtbot):
    seg = _segment(qtbot, WIDE_ARABIC)
    [(_first, _last, shift)] = seg.wide_blocks()
    assert shift > 0 and shift == seg._most(seg._wide[0])  # scrolled to its right end
    assert seg.width() // 2 < _x(seg, "العمود 0") < seg.width()  # its first column in view, on the right
    assert _x(seg, "العمود 19") < 0  # its last one out of view on the left
    assert _x(seg, "العمود 0") > _x(seg, "العمود 1")


def _type(box, text: str) -> None:
    """Type ``text`` as an Arabic keyboard does: a key event with each letter (QTest only types Latin-1)."""
    for char in text:
        QApplication.sendEvent(box, QKeyEvent(QEvent.Type.KeyPress, 0, Qt.KeyboardModifier.NoModifier, char))


def test_arabic_typed_in_the_message_box_sits_at_its_right_edge(qtbot):
    box = Composer()
    qtbot.add_widget(box)
    box.resize(500, 80)
    box.show()

    def start_x() -> int:
        return box.cursorRect(QTextCursor(box.document())).x()

    _type(box, "ما هو ناتج ٣ × ٥")
    assert start_x() > box.viewport().width() - 20  # it starts at the right, as in the find box
    box.clear()
    _type(box, "What is 3 × 5")
    assert start_x() < 20


def _italic(seg: MarkdownSegment, words: str) -> bool:
    found = seg.document().find(words)
    assert not found.isNull(), words
    return found.charFormat().fontItalic()


def test_an_arabic_comment_in_code_is_drawn_upright_an_english_one_still_in_italic(qtbot):
    # The styles draw comments in italic, and the italic monospace font has no Arabic: Qt drew boxes.
    seg = _segment(qtbot, "```python\n# تعليق عربي\nx = 1  # النتيجة\n# an English comment\n```\n\n"
                          "```c\n/* 注释 */\nint x; // a C comment\n```\n")
    assert not _italic(seg, "تعليق") and not _italic(seg, "النتيجة") and not _italic(seg, "注释")
    assert _italic(seg, "an English comment") and _italic(seg, "a C comment")


def _quote_bar_and_text(seg: MarkdownSegment, words: str) -> tuple[list[int], int, int]:
    """Where a quote's bar is drawn on the row of ``words`` (the x of each pixel of its colour), and the
    left and right ends of its text."""
    found = seg.document().find(words)
    assert not found.isNull(), words
    left, right = QTextCursor(found), QTextCursor(found)
    left.setPosition(found.selectionStart())
    right.setPosition(found.selectionEnd())
    ends = sorted((seg.cursorRect(left).x(), seg.cursorRect(right).x()))
    image = seg.viewport().grab().toImage()
    y = seg.cursorRect(left).center().y()
    bars = {QColor(LIGHT.quote_bar).rgb(), QColor(DARK.quote_bar).rgb()}
    return [x for x in range(image.width()) if image.pixelColor(x, y).rgb() in bars], *ends


def test_an_arabic_quote_has_its_bar_on_the_right_beside_its_text(make_window, server, qloop):
    # The bar was drawn at the left edge, the quote's text at the right edge.
    win = make_window(server.base_url)
    win.resize(900, 600)
    server.queue(Stream(tokens("مرحبا!\n\n> ملاحظة: نسخة Python 3.11 مطلوبة.\n\nEnglish.\n\n"
                               "> An English quote\n>\n> > ملاحظة داخلية\n")))
    assert qloop.run(ask_and_wait(win, "سؤال")) == "done"
    [seg] = win.view.answers()[-1].segments()
    keep_picture(seg, "rtl_quote.png")
    bar, start, end = _quote_bar_and_text(seg, "ملاحظة: نسخة")
    assert bar and min(bar) > end and max(bar) - end < 30  # right of its text, close by
    assert end > seg.viewport().width() - 40  # at the answer's right edge
    bar, start, end = _quote_bar_and_text(seg, "An English quote")
    assert bar and max(bar) < start and start - max(bar) < 30  # an English quote's on its left, as before
    english = _quote_bar_and_text(seg, "English.")  # the paragraph under it: left to right, at the left
    assert not english[0] and english[1] < 10 and english[2] < seg.viewport().width() // 2
    nested = _quote_bar_and_text(seg, "ملاحظة داخلية")
    assert max(nested[0]) > nested[2] and min(nested[0]) < start  # its own bar on its right, the outer one left


def _cell_text_span(segment, words: str) -> tuple[int, int]:
    """From where to where ``words`` (a cell's text) are drawn, in pixels across the segment."""
    cursor = QTextCursor(segment.document())
    at = segment.toPlainText().index(words)
    cursor.setPosition(at)
    start = segment.cursorRect(cursor).x()
    cursor.setPosition(at + len(words))
    end = segment.cursorRect(cursor).x()
    return min(start, end), max(start, end)


def test_table_headers_line_up_with_their_columns_and_mirror_in_a_right_to_left_table(qtbot):
    # Qt centres a header cell while the cells under it start on the left (on the right in Hebrew or Arabic):
    # "Note" stood in the middle of its column, over nothing in particular.
    latin = ("| Id | Sum | Note | Mid |\n|---|--:|---|:-:|\n| a | 1 | short | x |\n"
             "| first-row-id | 1234567890123 | a cell with quite a lot of text in it | a wide middle cell |\n")
    hebrew = "| שם | ערך |\n|---|---|\n| תפוח עץ ירוק וגדול | שלוש מאות ועשרים |\n"
    for markdown, columns in ((latin, [("Id", "first-row-id", 0), ("Sum", "1234567890123", 1), ("Note", "a cell with", 0),
                                       ("Mid", "a wide middle cell", 0.5)]),
                              (hebrew, [("שם", "תפוח עץ", 1), ("ערך", "שלוש מאות", 1)])):
        seg = MarkdownSegment()
        qtbot.add_widget(seg)
        seg.resize(600, 200)
        seg.show()
        seg.set_markdown(markdown)
        for header, cell, side in columns:  # 0: both start on the left, 1: both end on the right, 0.5: centred
            (h0, h1), (c0, c1) = _cell_text_span(seg, header), _cell_text_span(seg, cell)
            assert c1 - c0 > h1 - h0 + 20  # the cell is the wider: a centred header would stand apart
            h, c = h0 + (h1 - h0) * side, c0 + (c1 - c0) * side
            assert abs(h - c) <= 2, (header, (h0, h1), cell, (c0, c1))
