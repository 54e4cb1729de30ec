"""A code block whose first line is longer than a piece (a minified blob, then thousands of ordinary lines) is
rendered in pieces of a few thousand characters, as a stream cuts it, when its chat is opened and when the
answer came faster than it was shown: reading 6,000, then 24,000, then 96,000 characters ahead, the cutting
passed the block's end and rendered it in one piece, the window stalled 0.3 to 0.6 s. The pieces show the same
lines, coloured the same, as the block rendered in one piece, and Copy code in each copies all of it."""

from __future__ import annotations

import re

from tinyrag_desktop.chats import StoredMessage
from tinyrag_desktop.engine.events import Done
from tinyrag_desktop.ui.answer import AnswerWidget
from tinyrag_desktop.ui.answer_cuts import LOOK_AHEAD
from tinyrag_desktop.ui.segments import MarkdownSegment

from .test_answer_end_sliced import backlogged
from .test_open_long_answers import _opened

CODE = "blob = '" + "a" * 30_000 + "'\n" + "".join(f"value_{i} = compute({i}, {i * 7 % 100})\n" for i in range(3000))
TEXT = f"Before the code.\n\n```python\n{CODE}```\n\nAfter the code.\n"
HEADER = "python  Copy code"  # each piece's


def _lines(segments) -> list[str]:
    """The lines ``segments`` show, but the blank ones and each code block's header."""
    return [line for seg in segments for line in seg.toPlainText().split("\n") if line.strip() and line != HEADER]


def _code_html(segments) -> str:
    """The coloured lines of the code blocks ``segments`` show, as rendered."""
    return "\n".join(code for seg in segments for code in re.findall(r"<pre [^>]*>(.*?)</pre>", seg._html, re.S))


def _shows_what_one_piece_shows(qtbot, segments) -> None:
    whole = MarkdownSegment()
    qtbot.add_widget(whole)
    whole.set_markdown(TEXT)
    pieces = [seg for seg in segments if seg.code_blocks()]
    assert len(pieces) > 10
    # no piece lays out more than the characters the cutting reads ahead (the blob's line shows its start)
    assert max(len(seg.toPlainText()) for seg in segments) < LOOK_AHEAD + 100
    assert _lines(segments) == _lines([whole])
    assert _lines(segments)[1].endswith("more characters, Copy code keeps all)")  # the blob's line, its start
    assert _code_html(pieces) == _code_html([whole])
    for piece in (pieces[0], pieces[len(pieces) // 2], pieces[-1]):
        assert piece.copy_code(0) == CODE


def test_a_stored_block_whose_first_line_is_long_opens_in_pieces_that_show_it_whole(
        qloop, qtbot, make_window, server, tmp_path):
    answer = _opened(qloop, make_window, server, tmp_path, TEXT)
    _shows_what_one_piece_shows(qtbot, answer.segments())


def test_the_block_come_faster_than_shown_renders_in_pieces_at_the_answers_end(qtbot) -> None:
    answer = backlogged(qtbot, TEXT)
    answer.finish(Done(1, 0, 10))
    qtbot.waitUntil(lambda: not answer.building, timeout=30000)
    assert answer.content() == TEXT
    _shows_what_one_piece_shows(qtbot, answer.segments())


def test_a_block_after_a_long_paragraph_is_cut_after_its_first_line_too(qtbot) -> None:
    # Its first line ends past the 6,000 characters read first: reading 24,000 then, the piece held the line and
    # some 17,000 characters of code after it.
    text = "word " * 800 + f"\n\n```python\nx = '{'a' * 2500}'\n{CODE[CODE.index(chr(10)) + 1:]}```\n"
    answer = AnswerWidget.from_stored(StoredMessage(1, "assistant", text, stats={"rounds": 1}))
    qtbot.add_widget(answer)
    segments = answer.segments()
    assert max(len(seg.toPlainText()) for seg in segments) < LOOK_AHEAD + 1000
    assert "".join(seg.markdown() for seg in segments) == text
