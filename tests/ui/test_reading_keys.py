"""The reading caret in code and tables wider than the answer, its marked line on code, and a selection across
an answer's segments (Ctrl+A, Shift+Down): an answer reads as one text, and copies as one."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.sse_server import Stream
from tinyrag_desktop.ui.answer import AnswerWidget
from tinyrag_desktop.ui.markdown_render import DARK, LIGHT

from .conftest import ask_and_wait, tokens

LONG_LINE = "    return f'Hello {name}' + 'x' * 80 + 'a very long line that should scroll sideways in a narrow window'"
CODE = f"Here is code:\n\n```python\ndef hello(name):\n{LONG_LINE}\n```\n\nDone.\n"
WIDE = ("| " + " | ".join(f"Column {i}" for i in range(30)) + " |\n|" + "---|" * 30 + "\n"
        + "".join("| " + " | ".join(f"r{r}c{i}" for i in range(30)) + " |\n" for r in range(3)))
CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


def _answer(qtbot, markdown: str, width: int = 450, palette=LIGHT) -> AnswerWidget:
    answer = AnswerWidget(palette=palette)
    qtbot.add_widget(answer)
    answer.resize(width, 500)
    answer.append_text(markdown)
    answer.flush()
    answer.show()
    with qtbot.waitActive(answer):
        answer.activateWindow()
    return answer


def _key(key, modifiers=Qt.KeyboardModifier.NoModifier):
    QTest.keyClick(QApplication.focusWidget(), key, modifiers)
    return QApplication.focusWidget()


def _down_to(seg, starts: str) -> None:
    """Down from the segment's start until the caret is on the line that starts with ``starts``."""
    seg.setFocus(Qt.FocusReason.TabFocusReason)
    for _ in range(20):
        if seg.textCursor().block().text().startswith(starts):
            return
        _key(Qt.Key.Key_Down)
    raise AssertionError(f"no line starts with {starts!r}")


def _seen(seg) -> tuple[int, int]:
    """The caret's place on screen, across (its wide block scrolled), and the width it has to be seen in."""
    at = seg.textCursor().position()
    shift = next((s for first, last, s in seg.wide_blocks() if first <= at <= last), 0)
    return seg.cursorRect().x() - shift, seg.viewport().width()


def test_left_and_right_move_the_caret_along_a_code_line_wider_than_the_answer(qtbot):
    # They scrolled the code instead: after six Rights the caret stood where it was, and after End then
    # five Lefts it was out of sight.
    seg = _answer(qtbot, CODE).segments()[0]
    _down_to(seg, "    return")
    assert seg.wide_blocks(), "the code line is wider than the answer"
    start = seg.textCursor().position()
    for step in range(1, 7):
        _key(Qt.Key.Key_Right)
        assert seg.textCursor().position() == start + step
    _key(Qt.Key.Key_End)
    end = seg.textCursor().position()
    assert end == start + len(LONG_LINE)
    x, width = _seen(seg)
    assert 0 <= x <= width and seg.wide_blocks()[0][2] > 0  # the code scrolled to show the caret
    for step in range(1, 6):
        _key(Qt.Key.Key_Left)
        assert seg.textCursor().position() == end - step
        x, width = _seen(seg)
        assert 0 <= x <= width
    _key(Qt.Key.Key_Left, SHIFT)  # Shift selects along the code line
    _key(Qt.Key.Key_Left, SHIFT)
    assert seg.textCursor().selectedText() == LONG_LINE[-7:-5]
    _key(Qt.Key.Key_Home)
    x, width = _seen(seg)
    assert seg.textCursor().position() == start and 0 <= x <= width and seg.wide_blocks()[0][2] == 0
    _key(Qt.Key.Key_End, SHIFT)
    assert seg.textCursor().selectedText() == LONG_LINE
    assert 0 <= _seen(seg)[0] <= width


def test_the_caret_moves_along_a_wide_tables_row_and_the_table_scrolls_to_keep_it_in_view(qtbot):
    seg = _answer(qtbot, "A wide table:\n\n" + WIDE + "\nAfter it.\n").segments()[0]
    _down_to(seg, "Column 0")
    shown = []
    for _ in range(120):  # along the header row, cell after cell, far past the answer's right edge
        before = seg.textCursor().position()
        _key(Qt.Key.Key_Right)
        assert seg.textCursor().position() > before
        x, width = _seen(seg)
        assert 0 <= x <= width
        shown.append(seg.textCursor().block().text())
    assert seg.wide_blocks()[0][2] > 0 and "Column 9" in shown
    # Tab stops on the table (Left and Right scroll it, see test_wide_tables); Down reads in it again
    seg.enter_caret("start")
    _key(Qt.Key.Key_Tab)
    assert seg.key_wide() == 0
    _key(Qt.Key.Key_Right)
    assert seg.wide_blocks()[0][2] > 0
    _key(Qt.Key.Key_Down)
    assert seg.key_wide() is None
    before = seg.textCursor().position()
    _key(Qt.Key.Key_Right)
    assert seg.textCursor().position() == before + 1


@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
def test_the_caret_s_line_is_marked_inside_a_code_block(qtbot, palette):
    # The code block's background was painted over the mark: the caret's line showed unmarked in code.
    from tinyrag_desktop.ui.theme import apply_theme, colors

    apply_theme(QApplication.instance(), "dark" if palette is DARK else "light")
    try:
        seg = _answer(qtbot, CODE, width=900, palette=palette).segments()[0]
        _down_to(seg, "def hello")
        y = seg.cursorRect().center().y()
        x = seg.width() - 30  # in the code box, right of the line's letters
        code_bg = QColor(palette.code_bg)
        seg.clearFocus()
        assert seg.grab().toImage().pixelColor(x, y) == code_bg
        seg.setFocus(Qt.FocusReason.TabFocusReason)
        image = seg.grab().toImage()
        marked = image.pixelColor(x, y)
        assert marked != code_bg
        assert sum(abs(a - b) for a, b in zip(marked.getRgb()[:3], code_bg.getRgb()[:3])) >= 15  # to be seen
        above = image.pixelColor(x, y - seg.cursorRect().height())  # the header line (python  Copy code): not marked
        assert above == code_bg
        assert colors().dark == (palette is DARK)
    finally:
        apply_theme(QApplication.instance(), "light")


TOOL_ANSWER = ('First paragraph of the answer.\n\nSecond paragraph, before the tool.\n\n'
               'Now the tool: <tool name="calculate"><query>2+2</query></tool>')
AFTER_TOOL = "After the tool, line one.\n\nLast line."


def _tool_answer(make_window, server, qloop):
    server.queue(Stream(tokens(TOOL_ANSWER)), Stream(tokens(AFTER_TOOL)))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Add two and two")) == "done"
    answer = win.view.answers()[-1]
    texts = [p for p in answer.parts() if p in answer.segments()]
    assert len(texts) == 2 and len(answer.cards()) == 1
    return win, answer, texts


def test_ctrl_a_selects_the_whole_answer_and_ctrl_c_copies_it_as_the_copy_button_does(make_window, server, qloop,
                                                                                      qtbot):
    # Ctrl+A selected the text of the segment the caret was in, and Ctrl+C copied nothing after the card.
    win, answer, (first, second) = _tool_answer(make_window, server, qloop)
    with qtbot.waitActive(win):
        win.activateWindow()
    first.enter_caret("start")
    _key(Qt.Key.Key_A, CTRL)
    assert all(seg.textCursor().hasSelection() for seg in (first, second))
    QApplication.clipboard().clear()
    _key(Qt.Key.Key_C, CTRL)
    copied = QApplication.clipboard().text()
    assert copied == answer.to_markdown()  # the card as Copy writes it, where it stands
    assert copied.index("Second paragraph") < copied.index("Calculator") < copied.index("Last line.")
    # a key that moves the caret ends the selection, in every segment; and so does a click
    _key(Qt.Key.Key_Up)
    assert not any(seg.textCursor().hasSelection() for seg in (first, second))
    _key(Qt.Key.Key_A, CTRL)
    start = first.cursorRect(QTextCursor(first.document())).center()
    QTest.mouseClick(first.viewport(), Qt.MouseButton.LeftButton, pos=start)
    assert not any(seg.textCursor().hasSelection() for seg in (first, second))
    _key(Qt.Key.Key_C, CTRL)  # nothing selected: the clipboard keeps what it had
    assert QApplication.clipboard().text() == copied


def test_shift_down_selects_on_across_the_card_and_shift_up_back(make_window, server, qloop, qtbot):
    win, answer, (first, second) = _tool_answer(make_window, server, qloop)
    with qtbot.waitActive(win):
        win.activateWindow()
    first.enter_caret("start")
    _key(Qt.Key.Key_Down)  # from the second paragraph
    for _ in range(30):
        if _key(Qt.Key.Key_Down, SHIFT) is second and second.textCursor().hasSelection():
            break
    assert QApplication.focusWidget() is second
    QApplication.clipboard().clear()
    _key(Qt.Key.Key_C, CTRL)
    copied = QApplication.clipboard().text()
    card = next(chunk for chunk in answer.to_markdown().split("\n\n") if chunk.startswith("> "))
    assert "Calculator" in card
    assert copied == f"Second paragraph, before the tool.\nNow the tool:\n\n{card}\n\nAfter the tool, line one."
    assert answer.cards()[0]._selected  # shown selected, as the text around it: it is copied with it
    for _ in range(30):
        if _key(Qt.Key.Key_Up, SHIFT) is first and not second.textCursor().hasSelection():
            break
    assert QApplication.focusWidget() is first and not second.textCursor().hasSelection()
    assert not answer.cards()[0]._selected
    _key(Qt.Key.Key_C, CTRL)
    assert QApplication.clipboard().text() == "Second paragraph, before the tool.\n"  # to the start of the line below
