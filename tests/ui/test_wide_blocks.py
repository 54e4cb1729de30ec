"""Code blocks and tables in a narrow answer: code keeps its lines and a table its words; a block wider than
the answer scrolls sideways on its own (shift+wheel, a sideways wheel, its bar), the text around it stays."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QTextCursor, QTextOption, QTextTable, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFrame, QTextBrowser

from tests.sse_server import Stream
from tinyrag_desktop.ui.markdown_render import BREAK_POINT, DARK, LIGHT, render
from tinyrag_desktop.ui.segments import MarkdownSegment

from .conftest import ask_and_wait, tokens, wait_until

LINE = ("result = configure_pipeline(source_directory, destination_directory, retries=3, verbose=True, "
        "timeout=30)  # done").ljust(120, "#")
TABLE = ("| Setting | Default | Description | Configuration file | Notes |\n|---|---|---|---|---|\n"
         "| timeout | 30 | seconds before a request is abandoned | settings.ini | configuration applies at restart |\n"
         "| retries | 3 | attempts after a connection failure | settings.ini | exponential backoff |\n")
ANSWER = f"Here is the call, then the settings it reads.\n\n```python\n{LINE}\nprint(result)\n```\n\n{TABLE}\nThat is all."


def _cut_words(segment) -> list[str]:
    """Each line end of a table cell or a code line that falls inside a word ("configur|ation"), and each
    code line laid out on more than one line."""
    cut = []
    block = segment.document().begin()
    while block.isValid():
        layout, text = block.layout(), block.text()
        in_table = isinstance(segment.document().frameAt(block.position()), QTextTable)
        if LINE[:20] in text and layout.lineCount() > 1:
            cut.append(f"code line on {layout.lineCount()} lines: {text[:30]}")
        elif in_table:
            for i in range(layout.lineCount() - 1):
                end = layout.lineAt(i).textStart() + layout.lineAt(i).textLength()
                if 0 < end < len(text) and text[end - 1].isalnum() and text[end].isalnum():
                    cut.append(f"{text[:end]}|{text[end:]}")
        block = block.next()
    return cut


def _segment(qtbot, width: int, markdown: str = ANSWER, palette=None) -> MarkdownSegment:
    segment = MarkdownSegment(palette=palette) if palette else MarkdownSegment()
    qtbot.add_widget(segment)
    segment.resize(width, 100)
    segment.show()
    segment.set_markdown(markdown)
    return segment


def _code_block(segment) -> int:
    """The number of the wide block that holds the long code line."""
    at = segment.toPlainText().index(LINE[:20])
    return next(i for i, (first, last, _s) in enumerate(segment.wide_blocks()) if first <= at <= last)


def _point_of(segment, position: int, index: int) -> QPoint:
    """Where the letter at ``position`` of wide block ``index`` is on screen, as it is scrolled now."""
    cursor = QTextCursor(segment.document())
    cursor.setPosition(position)
    rect = segment.cursorRect(cursor)
    return QPoint(rect.x() - segment.wide_blocks()[index][2] + 3, rect.center().y())


def _wheel(target, pos: QPoint, angle: QPoint, modifiers=Qt.KeyboardModifier.NoModifier) -> QWheelEvent:
    event = QWheelEvent(QPointF(pos), QPointF(target.mapToGlobal(pos)), QPoint(), angle, Qt.MouseButton.NoButton,
                        modifiers, Qt.ScrollPhase.NoScrollPhase, False)
    event.setAccepted(False)
    QApplication.sendEvent(target, event)
    return event


def test_in_a_700_and_a_450_px_window_code_keeps_its_lines_and_a_table_its_words(make_window, server, qloop):
    server.queue(Stream(tokens(ANSWER)))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "How do I call it?")) == "done"
    for width in (700, 450):  # the chats list beside the chat; folded away below 560
        win.resize(width, 640)
        qloop.run(wait_until(lambda: win.width() == width and win.sidebar.isVisible() == (width > 560)))
        segment = win.view.answers()[-1].segments()[0]
        qloop.run(wait_until(lambda: segment.width() <= win.view.viewport().width()))
        assert _cut_words(segment) == [], width
        assert segment.width() <= win.view.viewport().width()  # nothing sticks out of the chat
        index = _code_block(segment)  # the code block scrolls sideways...
        assert segment.scroll_wide(index, 10_000) > 0
        end = segment.toPlainText().index(LINE) + len(LINE)  # ...to the end of its line
        assert 0 < _point_of(segment, end, index).x() <= segment.viewport().width()
        segment.scroll_wide(index, 0)


def test_the_mouse_wheel_scrolls_the_conversation_and_shift_wheel_the_block_under_it(qtbot):
    segment = _segment(qtbot, 414)
    index = _code_block(segment)
    over_code = _point_of(segment, segment.toPlainText().index(LINE[:20]), index)
    before = segment.grab().toImage()
    plain = _wheel(segment.viewport(), over_code, QPoint(0, -120))
    assert not plain.isAccepted() and segment.wide_blocks()[index][2] == 0  # left to the conversation
    shifted = _wheel(segment.viewport(), over_code, QPoint(0, -120), Qt.KeyboardModifier.ShiftModifier)
    assert shifted.isAccepted() and segment.wide_blocks()[index][2] > 0
    sideways = _wheel(segment.viewport(), over_code, QPoint(-120, 0))  # a tilt wheel or a swipe
    assert sideways.isAccepted() and segment.wide_blocks()[index][2] > segment.wide_blocks()[index][2] // 2 > 0
    # Only the block moved: the paragraph above it and the code block's header (Copy code) stayed.
    after = segment.grab().toImage()
    header = segment.cursorRect(QTextCursor(segment.document().find("Copy code"))).bottom()
    assert all(before.pixel(x, y) == after.pixel(x, y) for y in range(0, header) for x in range(before.width()))
    code_y = over_code.y()
    assert any(before.pixel(x, code_y) != after.pixel(x, code_y) for x in range(before.width()))
    # Over the paragraph, shift+wheel is not the segment's to take.
    above = _wheel(segment.viewport(), QPoint(20, 5), QPoint(0, -120), Qt.KeyboardModifier.ShiftModifier)
    assert not above.isAccepted()


def test_a_click_and_a_selection_in_a_scrolled_block_land_on_the_letters_shown(qtbot):
    segment = _segment(qtbot, 414)
    index = _code_block(segment)
    segment.scroll_wide(index, 300)
    start = segment.toPlainText().index("retries=3")
    end = start + len("retries=3")
    first, last = _point_of(segment, start, index), _point_of(segment, end, index)
    assert 0 < first.x() < last.x() < segment.viewport().width()  # on screen once scrolled
    QTest.mousePress(segment.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     first - QPoint(3, 0))
    QTest.mouseMove(segment.viewport(), last - QPoint(3, 0))
    QTest.mouseRelease(segment.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       last - QPoint(3, 0))
    assert segment.textCursor().selectedText() == "retries=3"
    assert segment.wide_blocks()[index][2] == 300  # selecting did not scroll it
    segment.copy()
    assert QApplication.clipboard().text() == "retries=3"


def test_copy_code_stays_in_reach_and_a_re_render_keeps_the_block_where_it_was_scrolled(qtbot):
    segment = _segment(qtbot, 414)
    index = _code_block(segment)
    segment.scroll_wide(index, 250)
    link = QTextCursor(segment.document())
    link.setPosition(segment.toPlainText().index("Copy code") + 3)
    with qtbot.waitSignal(segment.codeCopied) as copied:
        QTest.mouseClick(segment.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         segment.cursorRect(link).center())
    assert copied.args == [f"{LINE}\nprint(result)\n"]
    segment.set_markdown(ANSWER + " More text streamed in.")  # the answer streams on in this segment
    assert segment.wide_blocks()[_code_block(segment)][2] == 250


def test_the_find_bars_current_match_scrolls_its_block_into_view(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens(ANSWER)))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "How do I call it?")) == "done"
    win.resize(700, 640)
    qloop.run(wait_until(lambda: win.width() == 700))
    segment = win.view.answers()[-1].segments()[0]
    qloop.run(wait_until(lambda: bool(segment.wide_blocks())))
    win.composer.setFocus()
    qtbot.keyClick(win.composer, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    win.find_bar.box.setText("timeout=30")
    assert win.find_bar.count.text() == "1 of 1"
    index = _code_block(segment)
    shift = segment.wide_blocks()[index][2]
    start = segment.toPlainText().index("timeout=30")
    assert shift > 0 and 0 <= _point_of(segment, start, index).x() < segment.viewport().width() - 40
    marks = [s.cursor.selectedText() for s in segment.extraSelections()]
    assert marks == ["timeout=30"]


def test_a_wide_window_looks_as_before(qtbot):
    """At 900 px everything fits: the lines, the table and the painting are those of the old wrapping."""
    markdown = ANSWER.replace(LINE, LINE[:60])
    segment = _segment(qtbot, 900, markdown)
    assert segment.wide_blocks() == []
    old = QTextBrowser()
    qtbot.add_widget(old)
    old.resize(900, 100)
    old.setFrameShape(QFrame.Shape.NoFrame)
    old.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    old.document().setDocumentMargin(0)
    old.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    old.setHtml(render(markdown).html.replace("white-space:pre;", "white-space:pre-wrap;"))
    old.show()

    def lines(view):
        out, block = [], view.document().begin()
        while block.isValid():
            layout = block.layout()
            out.append([(layout.lineAt(i).textStart(), layout.lineAt(i).textLength(), round(layout.lineAt(i).y()))
                        for i in range(layout.lineCount())])
            block = block.next()
        return out

    assert lines(segment) == lines(old)
    assert segment.document().size() == old.document().size()


def test_a_long_word_in_a_paragraph_still_wraps_in_the_narrowest_answer(qtbot):
    digest = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"  # 64 characters
    segment = _segment(qtbot, 300, f"The file's digest is {digest} as printed.", palette=DARK)
    assert segment.document().size().width() <= 300 and segment.wide_blocks() == []
    segment.selectAll()
    segment.copy()
    assert QApplication.clipboard().text() == f"The file's digest is {digest} as printed."
    assert BREAK_POINT in segment.toPlainText()


def test_the_bar_under_a_wide_block_drags_and_left_and_right_scroll_it_from_the_keyboard(qtbot):
    segment = _segment(qtbot, 414)
    index = _code_block(segment)
    track, thumb = segment._bar_rects(index)
    assert track.top() > segment.cursorRect(QTextCursor(segment.document().find("print(result)"))).bottom()
    QTest.mousePress(segment.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     thumb.center().toPoint())
    QTest.mouseMove(segment.viewport(), thumb.center().toPoint() + QPoint(100, 0))
    QTest.mouseRelease(segment.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       thumb.center().toPoint() + QPoint(100, 0))
    dragged = segment.wide_blocks()[index][2]
    assert dragged > 100 and not segment.textCursor().hasSelection()  # the bar, not a selection
    link = QTextCursor(segment.document())
    link.setPosition(segment.toPlainText().index("Copy code") + 1)
    segment.setFocus()
    segment.setTextCursor(link)  # as Tab puts it on the Copy code link
    assert segment.wide_blocks()[index][2] == dragged  # the header does not scroll: nothing to bring back
    QTest.keyClick(segment, Qt.Key.Key_Left)
    assert segment.wide_blocks()[index][2] < dragged
    QTest.keyClick(segment, Qt.Key.Key_Right)
    assert segment.wide_blocks()[index][2] == dragged


_TALL_MIDDLE = ("| Step | What happens | Where | Note |\n|---|---|---|---|\n"
                "| 1 | the server reads its configuration file and checks every setting against the schema | "
                "ApplicationServerConfiguration | ok |\n")  # (a longer name breaks)


def test_the_bar_under_a_table_whose_last_cell_is_short_is_under_the_whole_table(qtbot):
    # The bar was drawn under the last cell ("ok"), across the taller cells' lines, and scrolling moved only
    # what was above it: the table tore in two.
    seg = MarkdownSegment()
    qtbot.add_widget(seg)
    seg.resize(360, 100)
    seg.show()
    seg.set_markdown("A table:\n\n" + _TALL_MIDDLE + "\nAfter it.")
    [(first, _last, _shift)] = seg.wide_blocks()
    table = seg.document().frameAt(first + 1)
    while not isinstance(table, QTextTable):
        table = table.parentFrame()
    bottoms = []
    for column in range(table.columns()):
        cursor = QTextCursor(seg.document())
        cursor.setPosition(table.cellAt(table.rows() - 1, column).lastPosition())
        bottoms.append(seg.cursorRect(cursor).bottom())
    track, _thumb = seg._bar_rects(0)
    assert track.top() > max(bottoms)
    wide = seg._wide[0]
    assert wide.bottom > max(bottoms)  # the band that scrolls holds every line of the table


def test_a_long_word_of_running_text_goes_whole_to_the_next_line_and_a_path_breaks_after_a_slash(qtbot):
    # Break points every 8 letters cut "…der Donaudampf|schifffahrts…" and "…/tinyrag/c|onfiguration/…" at
    # a line's end, though the word would have fitted whole on the next line.
    word = "Donaudampfschifffahrtsgesellschaftskapitän"
    path = "/home/someone/projects/tinyrag/configuration/settings.json"
    seg = MarkdownSegment()
    qtbot.add_widget(seg)
    seg.resize(560, 100)
    seg.show()
    for text in (f"Der Kapitän der Gesellschaft sagt, dass das Schiff morgen ablegt, und der {word} bestätigt es.",
                 f"Siehe auch die Datei unter dem Pfad {path} bitte, und dann noch einmal."):
        seg.set_markdown(text)
        block = seg.document().begin()
        layout, shown = block.layout(), block.text()
        lines = [shown[layout.lineAt(i).textStart():layout.lineAt(i).textStart() + layout.lineAt(i).textLength()]
                 .replace(BREAK_POINT, "") for i in range(layout.lineCount())]
        assert len(lines) > 1, lines
        if word in text:
            assert any(word in line for line in lines), lines  # whole on one line
        else:  # cut, it is cut after one of its slashes or dots
            [start] = [line for line in lines if "/home" in line]
            assert path in start or start.rstrip().endswith(("/", ".")), lines


def _top_of_block_at(segment, text: str) -> float:
    """Where what starts with ``text`` is painted from: a paragraph's first line, or a table's top border."""
    doc = segment.document()
    cursor = QTextCursor(doc)
    cursor.setPosition(segment.toPlainText().index(text))
    top = segment.cursorRect(cursor).top()
    table = doc.frameAt(cursor.position())
    if isinstance(table, QTextTable):
        fmt = table.format()
        top -= fmt.cellPadding() + fmt.border() + fmt.cellSpacing()
    return top


def _bottom_of_line(segment, text: str) -> float:
    cursor = QTextCursor(segment.document())
    cursor.setPosition(segment.toPlainText().index(text))
    return segment.cursorRect(cursor).bottom()


_WIDE_CODE = "```bash\necho " + "very-long-argument " * 12 + "\n```\n"


@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
@pytest.mark.parametrize("after", ["This paragraph follows the code block directly.\n",
                                   "\n| Alpha | Beta |\n|---|---|\n| 1 | 2 |\n"], ids=["paragraph", "table"])
def test_a_wide_code_blocks_bar_is_inside_its_box_clear_of_the_block_after_it(qtbot, palette, after):
    # The bar was drawn 12 px under the code box, outside it: it crossed the top border of the table after it,
    # and touched the paragraph after it.
    seg = _segment(qtbot, 450, "Look:\n\n" + _WIDE_CODE + after, palette=palette)
    [_block] = seg.wide_blocks()
    track, thumb = seg._bar_rects(0)
    code_bottom = _bottom_of_line(seg, "echo very")
    box = seg.document().frameAt(seg.toPlainText().index("echo very")).format()
    box_bottom = code_bottom + box.cellPadding() + box.border()
    assert code_bottom < track.top() and track.bottom() <= box_bottom - box.border()  # in the box, under the code
    assert track.left() > box.border() and track.right() < seg.viewport().width() - box.border()
    assert thumb.right() <= track.right() + 0.5
    assert track.bottom() < _top_of_block_at(seg, after.strip(" |\n")[:5])
    assert seg._wide[0].bottom >= box_bottom  # the band that scrolls holds the whole box


@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
def test_a_wide_tables_bar_is_right_under_its_border_clear_of_the_paragraph_after_it(qtbot, palette):
    # The bar was drawn 15 px under the table's border, touching the paragraph after it.
    table = ("| " + " | ".join(f"Column{i}-longword" for i in range(12)) + " |\n|" + "---|" * 12 + "\n| "
             + " | ".join("x" * 12 for _ in range(12)) + " |\n")
    seg = _segment(qtbot, 450, "Wide table:\n\n" + table + "\nAfter the table a paragraph.", palette=palette)
    [_block] = seg.wide_blocks()
    track, thumb = seg._bar_rects(0)
    fmt = seg.document().frameAt(seg.toPlainText().index("xxxx")).format()
    border = _bottom_of_line(seg, "xxxx") + fmt.cellPadding() + fmt.border()
    assert border < track.top() <= border + 3
    assert track.bottom() < _top_of_block_at(seg, "After the table")
    assert thumb.right() <= track.right() + 0.5


@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
@pytest.mark.parametrize("markdown", ["Look:\n\n" + _WIDE_CODE + "\nAfter.",
                                      "1. In a list:\n\n   " + _WIDE_CODE.replace("\n", "\n   ") + "\n2. After."],
                         ids=["answer", "list"])
def test_a_wide_code_box_keeps_its_borders_at_the_answers_edges_and_its_code_scrolls_inside(qtbot, palette,
                                                                                              markdown):
    # The box was painted as wide as its longest line: its right border was past the answer's edge and the code
    # ended mid-letter there with nothing to mark it; scrolled, its left border went away with the code (in a
    # list, the code went on over the list's indent, and the bar under it started left of the box).
    from PySide6.QtGui import QColor

    seg = _segment(qtbot, 450, markdown, palette=palette)
    [_block] = seg.wide_blocks()
    box = seg.document().frameAt(seg.toPlainText().index("echo very")).format()
    padding, border = int(box.cellPadding()), int(box.border())
    cursor = QTextCursor(seg.document())
    cursor.setPosition(seg.toPlainText().index("echo very"))
    code_top, code_bottom = seg.cursorRect(cursor).top(), seg.cursorRect(cursor).bottom()
    width = seg.viewport().width()
    header = int(code_top) - 8  # the line of Copy code, which does not scroll
    cursor.setPosition(seg.toPlainText().index("bash"))
    left = seg.cursorRect(cursor).x() - padding - border - 1  # the box's left border: 0, or the list's indent
    background = seg.viewport().grab().toImage().pixel(0, int(code_bottom) + 12)
    assert seg._bar_rects(0)[0].left() > left + border
    for shift in (0, 120, 10_000):  # at the start, partway, at its end
        assert seg.scroll_wide(0, shift) > 0 or shift == 0
        image = seg.viewport().grab().toImage()
        for y in [header] + list(range(int(code_top) + 1, int(code_bottom))):
            for edge, inside in ((width - 1, range(width - border - padding, width - border)),
                                 (left, range(left + border + 1, left + border + padding))):  # (Qt: 2 px)
                assert QColor(image.pixel(edge, y)) == QColor(palette.code_border), (shift, edge, y)
                if y != header:
                    assert {QColor(image.pixel(x, y)).name() for x in inside} == {palette.code_bg}, (shift, edge, y)
            assert all(image.pixel(x, y) == background for x in range(left)), (shift, y)  # a list's bare indent


def test_a_go_runs_outcome_under_a_wide_block_stays_in_sight_while_the_code_scrolls(qtbot):
    # The outcome was in the band that scrolls: its lines (wrapped to the answer) went out of sight with the code.
    from tinyrag_desktop.ui.markdown_render import RunView

    code = 'package main\nfunc main() { println("' + "x" * 120 + '") }\n'
    markdown = "Run it:\n\n```go\n" + code + "```\n\nAfter."
    html = render(markdown, LIGHT, run_go=True, runs={0: RunView(code, status="exit 0", output="hello output\n")}).html
    seg = MarkdownSegment()
    qtbot.add_widget(seg)
    seg.resize(450, 100)
    seg.show()
    seg.set_markdown(markdown, html=html)
    cursor = QTextCursor(seg.document())
    cursor.setPosition(seg.toPlainText().index("hello output"))
    row = seg.cursorRect(cursor)
    assert row.top() > seg._wide[0].bar  # under the code and its bar, in the box

    top = int(seg._wide[0].bar) + 8  # under the bar (whose thumb moves): the outcome's status line and output

    def outcome():
        return seg.viewport().grab().toImage().copy(0, top, seg.viewport().width(), row.bottom() - top)

    shown = outcome()
    assert seg.scroll_wide(0, 300) == 300
    assert outcome() == shown
