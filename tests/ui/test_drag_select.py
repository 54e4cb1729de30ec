"""A selection dragged with the mouse across an answer's segments (prose into a code block, back up, over a tool
card, past the chat's edge) and the text menu's Select All of the whole answer: Copy copies them as the keyboard's
selection across the segments does (reading.Span)."""

from __future__ import annotations


import pytest

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QContextMenuEvent, QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QScrollArea

from tests.sse_server import Stream
from tinyrag_desktop.ui.answer import AnswerWidget

from .conftest import ask_and_wait, keep_picture, tokens

LEFT = Qt.MouseButton.LeftButton
WORDS = " ".join(["word"] * 40)
PROSE = "\n\n".join(f"Paragraph {i} {WORDS}" for i in range(8))  # long: the streaming view cuts after it
CODE = "Here is the code:\n\n```python\nprint('hello')\nx = 1\n```\n"
AFTER_CODE = "\nThat prints hello.\n"
# from "Paragraph 7" in the first segment to "That prints| hello." in the second, its code block between
DRAGGED = f"Paragraph 7 {WORDS}\nHere is the code:\nprint('hello')\nx = 1\n\nThat prints"  # (an empty line after code, as Qt shows it)


def _code_answer(qtbot, height: int = 900) -> tuple[QScrollArea, AnswerWidget, list]:
    """An answer in a scrolling view: long prose in its first segment, the code block in its second."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    answer = AnswerWidget()
    area.setWidget(answer)
    qtbot.add_widget(area)
    area.resize(470, height)
    answer.append_text(PROSE + "\n\n" + CODE)
    answer.flush()
    answer.append_text(AFTER_CODE)  # in the code block's segment: it is short
    answer.flush()
    area.show()
    with qtbot.waitActive(area):
        area.activateWindow()
    segments = answer.segments()
    assert len(segments) == 2 and "x = 1" in segments[1].toPlainText() and "x = 1" not in segments[0].toPlainText()
    return area, answer, segments


def _spot(seg, before: str, offset: int = 0) -> QPoint:
    """The point (in ``seg``'s view) of the place in its text ``offset`` characters after where ``before`` starts."""
    cursor = QTextCursor(seg.document())
    cursor.setPosition(seg.toPlainText().index(before) + offset)
    return seg.cursorRect(cursor).center()


def _drag(began, start: QPoint, seg, end: QPoint, release: bool = True) -> None:
    """Press at ``start`` in ``began`` and move to ``end`` in ``seg``: the segment pressed keeps the mouse, as Qt
    gives it, and is told where the mouse is in its own coordinates."""
    view = began.viewport()
    there = view.mapFromGlobal(seg.viewport().mapToGlobal(end))
    QTest.mousePress(view, LEFT, pos=start)
    QTest.mouseMove(view, view.rect().center() if began is seg else start)
    QTest.mouseMove(view, there)
    if release:
        QTest.mouseRelease(view, LEFT, pos=there)


def _copy() -> str:
    QApplication.clipboard().clear()
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    return QApplication.clipboard().text()


def _menu(seg, at: QPoint):
    """The text menu a right click at ``at`` in ``seg`` shows."""
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, at, seg.viewport().mapToGlobal(at))
    QApplication.sendEvent(seg.viewport(), event)
    menu = QApplication.activePopupWidget()
    assert menu is not None
    return menu


def _trigger(menu, name: str) -> None:
    action = next(a for a in menu.actions() if a.objectName() == name)
    assert action.isEnabled()
    action.trigger()
    menu.close()


def test_a_drag_from_prose_into_the_code_block_below_copies_all_of_it_in_order(qtbot):
    # The drag stopped at the end of the first segment: the code block and the words after it were not
    # selected, and Ctrl+C copied the first segment's part only.
    area, answer, (first, second) = _code_answer(qtbot)
    _drag(first, _spot(first, "Paragraph 7"), second, _spot(second, "That prints", 11))
    assert first.textCursor().hasSelection() and second.textCursor().hasSelection()
    assert not first.selected_whole() and not second.selected_whole()  # partly, each from or to the mouse
    assert QApplication.focusWidget() is second  # the caret where the drag ended
    assert _copy() == DRAGGED
    # the keyboard goes on with it from there, as after Shift+Down
    QTest.keyClick(second, Qt.Key.Key_Left, Qt.KeyboardModifier.ShiftModifier)
    assert _copy() == DRAGGED[:-1]
    QTest.keyClick(second, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    # the text menu's Copy, on the part of it in the first segment, copies all of it too
    QApplication.clipboard().clear()
    _trigger(_menu(first, _spot(first, "Paragraph 7", 3)), "edit-copy")
    assert QApplication.clipboard().text() == DRAGGED
    keep_picture(area, "code_drag.png")
    # a click elsewhere in the answer's text ends it, in every segment
    QTest.mouseClick(first.viewport(), LEFT, pos=_spot(first, "Paragraph 3"))
    assert not first.textCursor().hasSelection() and not second.textCursor().hasSelection()


def test_a_drag_up_from_under_the_code_block_selects_the_same_and_copies_it_in_reading_order(qtbot):
    area, answer, (first, second) = _code_answer(qtbot)
    _drag(second, _spot(second, "That prints", 11), first, _spot(first, "Paragraph 7"))
    assert QApplication.focusWidget() is first
    assert first.textCursor().position() == first.toPlainText().index("Paragraph 7")  # the caret: at the mouse
    assert _copy() == DRAGGED


def test_back_in_the_segment_it_began_in_the_drag_is_that_segments_own_again(qtbot):
    area, answer, (first, second) = _code_answer(qtbot)
    start = _spot(first, "Paragraph 6")
    _drag(first, start, second, _spot(second, "Here is", 7), release=False)
    assert second.textCursor().hasSelection()
    _drag_back = first.viewport()
    QTest.mouseMove(_drag_back, _spot(first, "Paragraph 7"))
    QTest.mouseRelease(_drag_back, LEFT, pos=_spot(first, "Paragraph 7"))
    assert not second.textCursor().hasSelection()
    assert QApplication.focusWidget() is first
    assert _copy() == f"Paragraph 6 {WORDS}\n"


def test_a_drag_and_a_double_click_within_one_segment_select_in_it_as_before(qtbot):
    area, answer, (first, second) = _code_answer(qtbot)
    _drag(first, _spot(first, "Paragraph 2"), first, _spot(first, "Paragraph 3", 9))
    assert not second.textCursor().hasSelection()
    assert _copy() == f"Paragraph 2 {WORDS}\nParagraph"
    QTest.mouseDClick(second.viewport(), LEFT, pos=_spot(second, "prints", 2))
    assert QApplication.focusWidget() is second and _copy() == "prints"  # the word


def test_the_text_menus_select_all_selects_the_whole_answer(qtbot):
    # It selected the text of the segment clicked in only, and Copy then copied that segment alone.
    area, answer, (first, second) = _code_answer(qtbot)
    _trigger(_menu(second, _spot(second, "Here is")), "select-all")
    assert first.selected_whole() and second.selected_whole()
    assert _copy() == answer.to_markdown()
    _trigger(_menu(first, _spot(first, "Paragraph 1")), "select-all")  # the same from the first segment
    assert first.selected_whole() and second.selected_whole()
    assert _copy() == answer.to_markdown()


@pytest.mark.parametrize("edge", ["next segment", "gap"])
def test_a_drag_past_the_bottom_of_the_chat_scrolls_it_and_selects_on(qtbot, edge):
    # the bottom edge of the view over the segment after the one pressed in, or over the gap between them
    # (below the text of the one pressed in: Qt's own drag does not scroll there, the caret at its end in view)
    area, answer, (first, second) = _code_answer(qtbot, height=300)
    bar = area.verticalScrollBar()
    top = second.mapTo(answer, QPoint(0, 0)).y()
    bottom = first.mapTo(answer, QPoint(0, first.height())).y()
    assert top - bottom >= 4
    bar.setValue(top - 260 if edge == "next segment" else bottom + 2 - area.viewport().height())
    before = bar.value()
    view = first.viewport()
    start = _spot(first, "Paragraph 7")
    below = view.mapFromGlobal(area.viewport().mapToGlobal(QPoint(40, area.viewport().height() + 30)))
    QTest.mousePress(view, LEFT, pos=start)
    QTest.mouseMove(view, below)
    assert bar.value() > before  # the conversation scrolled towards the mouse
    assert second.textCursor().hasSelection()  # and the selection went on into what came into view
    QTest.mouseRelease(view, LEFT, pos=below)
    assert _copy().startswith(f"Paragraph 7 {WORDS}\nHere is")


TOOL_ANSWER = ('First paragraph of the answer.\n\nSecond paragraph, before the tool.\n\n'
               'Now the tool: <tool name="calculate"><query>2+2</query></tool>')
AFTER_TOOL = "After the tool, line one.\n\nLast line."


def test_a_drag_over_a_tool_card_selects_it_whole_with_the_text_around(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens(TOOL_ANSWER)), Stream(tokens(AFTER_TOOL)))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Add two and two")) == "done"
    with qtbot.waitActive(win):
        win.activateWindow()
    answer = win.view.answers()[-1]
    first, second = [p for p in answer.parts() if p in answer.segments()]
    _drag(first, _spot(first, "Second"), second, _spot(second, "After the tool, line", 20))
    card = next(chunk for chunk in answer.to_markdown().split("\n\n") if chunk.startswith("> "))
    assert "Calculator" in card
    keep_picture(win, "card_drag.png")
    assert _copy() == f"Second paragraph, before the tool.\nNow the tool:\n\n{card}\n\nAfter the tool, line"
    # a click outside the answer's text (the question box) ends it
    QTest.mouseClick(win.composer.viewport(), LEFT, pos=QPoint(10, 10))
    assert not first.textCursor().hasSelection() and not second.textCursor().hasSelection()


LINKED = ("| " + " | ".join(f"Column {i}" for i in range(20)) + " |\n|" + "---|" * 20 + "\n| "
          + " | ".join(f"c{i}" for i in range(19)) + " | [far](https://example.com/far) |\n\nSee [near](https://example.com/near).\n")


def test_the_text_menu_copies_a_links_address_also_in_a_table_scrolled_sideways(qtbot):
    # the menu is made by the segment now (for its Select All): a link right-clicked is still the one it offers
    answer = AnswerWidget()
    qtbot.add_widget(answer)
    answer.resize(450, 500)
    answer.append_text(LINKED)
    answer.flush()
    answer.show()
    seg = answer.segments()[0]
    assert seg.wide_blocks()
    shift = seg.scroll_wide(0, 10_000)  # to its right end, where the link is
    assert shift > 0
    for words, address in (("near", "https://example.com/near"), ("far", "https://example.com/far")):
        at = _spot(seg, words, 1)
        if words == "far":
            at.setX(at.x() - shift)  # where it is on screen
        QApplication.clipboard().clear()
        _trigger(_menu(seg, at), "link-copy")
        assert QApplication.clipboard().text() == address


def test_a_drag_past_the_top_of_the_chat_scrolls_it_up_and_selects_on(qtbot):
    area, answer, (first, second) = _code_answer(qtbot, height=300)
    bar = area.verticalScrollBar()
    bar.setValue(second.mapTo(answer, QPoint(0, 0)).y() - 40)  # the first segment's end above the view's top
    before = bar.value()
    view = second.viewport()
    above = view.mapFromGlobal(area.viewport().mapToGlobal(QPoint(40, -30)))
    QTest.mousePress(view, LEFT, pos=_spot(second, "Here is", 7))
    QTest.mouseMove(view, above)
    assert bar.value() < before
    assert first.textCursor().hasSelection() and not first.selected_whole()
    QTest.mouseRelease(view, LEFT, pos=above)
    assert QApplication.focusWidget() is first and _copy().endswith("word\nHere is")
