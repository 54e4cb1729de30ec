"""A code block's "Copy code" link says "Copied ✓" for a moment once clicked, where the eye is."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QTextCursor
from PySide6.QtTest import QTest

from tinyrag_desktop.ui import segment_links
from tinyrag_desktop.ui.markdown_render import COPIED, COPY_CODE
from tinyrag_desktop.ui.segments import MarkdownSegment

TWO_BLOCKS = "First:\n\n```sh\necho one\n```\n\nThen:\n\n```python\nprint(2)\n```\n"


def _segment(qtbot, markdown: str = TWO_BLOCKS) -> MarkdownSegment:
    segment = MarkdownSegment()
    qtbot.add_widget(segment)
    segment.resize(500, 100)
    segment.show()
    segment.set_markdown(markdown)
    return segment


def _links(segment) -> list[str]:
    """The words of each code block's copy link, in order."""
    return [line.split("  ", 1)[1].strip() for line in segment.toPlainText().split("\n")
            if COPY_CODE in line or COPIED in line]


def test_a_click_on_copy_code_says_copied_then_copy_code_again(qtbot, monkeypatch):
    monkeypatch.setattr(segment_links, "COPIED_MS", 100)
    segment = _segment(qtbot)
    link = QTextCursor(segment.document())
    link.setPosition(segment.toPlainText().rindex(COPY_CODE) + 3)
    with qtbot.waitSignal(segment.codeCopied) as copied:
        QTest.mouseClick(segment.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         segment.cursorRect(link).center())
    assert copied.args == ["print(2)\n"] and QGuiApplication.clipboard().text() == "print(2)\n"
    assert _links(segment) == [COPY_CODE, COPIED] and segment.copied == 1
    segment.set_markdown(TWO_BLOCKS + "\nMore text streamed in.")  # rendered again meanwhile: still said
    assert _links(segment) == [COPY_CODE, COPIED]
    with qtbot.waitSignal(segment._copied_timer.timeout, timeout=2000):
        pass
    assert _links(segment) == [COPY_CODE, COPY_CODE] and segment.copied == -1


def test_from_the_keyboard_the_link_keeps_the_focus_and_a_second_copy_moves_the_word(qtbot):
    segment = _segment(qtbot)
    with qtbot.waitActive(segment):
        segment.activateWindow()
    segment.setFocus(Qt.FocusReason.OtherFocusReason)
    assert segment.focusNextPrevChild(True)  # as Tab does in the text: the first link is selected
    assert segment.textCursor().selectedText() == COPY_CODE
    with qtbot.waitSignal(segment.codeCopied):
        QTest.keyClick(segment, Qt.Key.Key_Return)
    assert _links(segment) == [COPIED, COPY_CODE]
    assert segment.textCursor().selectedText() == COPIED  # Enter again copies again: the focus stayed on it
    segment.copy_code(1)
    assert _links(segment) == [COPY_CODE, COPIED]


def test_a_selection_copied_leaves_out_the_header_whatever_the_link_says(qtbot):
    segment = _segment(qtbot, "Run:\n\n```sh\necho one\n```\n")
    segment.copy_code(0)
    cursor = segment.document().find("sh  " + COPIED)
    cursor.setPosition(segment.document().find("echo one").selectionEnd(), QTextCursor.MoveMode.KeepAnchor)
    segment.setTextCursor(cursor)
    assert segment.createMimeDataFromSelection().text() == "echo one"


def test_a_wide_blocks_header_stays_out_of_its_sideways_scroll_while_it_says_copied(qtbot):
    # A wide block's header (its language and links) is found by its "Copy code" words: rendered again with
    # "Copied ✓" in it, the header scrolled sideways with the code.
    segment = _segment(qtbot, f"Intro\n\n```python\nx = {'a' * 200}\n```\n")
    segment.resize(400, 100)
    qtbot.waitUntil(lambda: bool(segment.wide_blocks()))
    top = segment._wide[0].top
    segment.copy_code(0)
    segment.set_markdown(segment.markdown() + "\nMore text streamed in.")
    assert _links(segment) == [COPIED] and segment._wide[0].top == top
