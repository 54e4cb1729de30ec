"""A message's words by keyboard, as a screen reader reads them: Tab comes to each question's and each answer's
text once, and a caret reads it line by line, on through the segments a long answer is cut into (Qt's own text
accessibility says where the caret is; Orca 43 reads the line it comes to)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.sse_server import Stream
from tinyrag_desktop.ui.answer import AnswerWidget

from .conftest import ask_and_wait, tokens, wait_until

PARAGRAPH = ("Paragraph {n} says something useful about the subject, in words a reader can follow line by line. "
             "It goes on for a while so that it wraps.")
# long enough to be cut into two segments (see markdown_render.freeze_point)
LONG = ("Alpha line of the answer.\n\nBeta second paragraph.\n\n"
        + "\n\n".join(PARAGRAPH.format(n=n) for n in range(3, 16)) + "\n\nOmega last words.\n")


@pytest.fixture
def reader():
    """Qt's accessibility on, as with a screen reader."""
    was = QAccessible.isActive()
    QAccessible.setActive(True)
    yield
    QAccessible.setActive(was)


def _said():
    """What a screen reader is told of the focused widget: its role, name, its whole text, and the line the caret
    is on (as the text interface gives its caret and text; the line cut from them as Qt lays it out)."""
    focus = QApplication.focusWidget()
    face = QAccessible.queryAccessibleInterface(focus)
    text = face.textInterface()
    assert text is not None, f"{focus!r} has no text a screen reader can read"
    caret = text.cursorPosition()
    cursor = QTextCursor(focus.document())
    cursor.setPosition(caret)
    cursor.movePosition(QTextCursor.MoveOperation.StartOfLine)
    cursor.movePosition(QTextCursor.MoveOperation.EndOfLine, QTextCursor.MoveMode.KeepAnchor)
    return face.role(), face.text(QAccessible.Text.Name), text.text(0, text.characterCount()), cursor.selectedText()


def _key(key, modifiers=Qt.KeyboardModifier.NoModifier):
    QTest.keyClick(QApplication.focusWidget(), key, modifiers)
    return QApplication.focusWidget()


def test_tab_comes_to_each_messages_words_once_and_the_caret_reads_every_line(make_window, server, qloop, qtbot,
                                                                                reader):
    # The words were no Tab stop and had no caret: Orca read them only with its flat review or after Ctrl+A.
    server.queue(Stream(tokens(LONG)))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Tell me things")) == "done"
    with qtbot.waitActive(win):
        win.activateWindow()
    answer = win.view.answers()[-1]
    first, last = answer.segments()[0], answer.segments()[-1]
    assert len(answer.segments()) >= 2  # cut as it streamed (where depends on the pieces' timing): still one stop
    question = win.view.questions()[-1].text_view
    stops = win.tab_stops()
    assert question in stops and [s for s in answer.segments() if s in stops] == [first]

    win.view.setFocus(Qt.FocusReason.TabFocusReason)
    assert _key(Qt.Key.Key_Tab) is question
    role, _name, text, line = _said()
    assert role == QAccessible.Role.StaticText and text == "Tell me things" and line == "Tell me things"
    assert _key(Qt.Key.Key_Tab) is first
    role, name, text, line = _said()
    assert (role, name, line) == (QAccessible.Role.StaticText, "Answer text", "Alpha line of the answer.")
    assert text.startswith("Alpha line of the answer.\nBeta second paragraph.\n")
    read = [(first, line)]  # each line Down comes to, and the segment it is in
    for _ in range(100):  # Down reads each line, and goes on in the next segment at the end of one
        focus = _key(Qt.Key.Key_Down)
        if focus is last and read[-1] == (last, _said()[3]):
            break  # the answer's last line: Down stays there
        read.append((focus, _said()[3]))
    lines = [line for _seg, line in read]
    assert lines[1] == "Beta second paragraph." and lines[-1] == "Omega last words."
    assert all(f"Paragraph {n} says" in " ".join(lines) for n in range(3, 16))
    assert " ".join(lines).replace("  ", " ").count("so that it wraps.") == 13  # each line once
    assert [seg for seg, _line in read if seg is not read[0][0]][0] is answer.segments()[1]  # went on into it
    back = [(_key(Qt.Key.Key_Up), _said()[3]) for _ in range(len(read) - 1)]
    assert back == read[-2::-1]  # Up reads them again backwards, back into the segments before
    assert _key(Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier) is first
    assert first.textCursor().position() == 0
    assert _key(Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier) is last
    assert last.textCursor().atEnd()
    # Tab leaves the words for Copy; Shift+Tab from there comes back to them, and then to the question
    assert _key(Qt.Key.Key_Tab) is answer.copy_button
    assert _key(Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier) is first
    assert _key(Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier) is question


def test_the_caret_in_an_answer_still_streaming_stays_where_the_reader_put_it(qtbot):
    answer = AnswerWidget()
    qtbot.add_widget(answer)
    answer.resize(500, 400)
    answer.begin()
    answer.append_text("One.\n\nTwo.\n\n")
    answer.flush()
    answer.show()
    with qtbot.waitActive(answer):
        answer.activateWindow()
    seg = answer.segments()[0]
    seg.setFocus(Qt.FocusReason.TabFocusReason)
    QTest.keyClick(seg, Qt.Key.Key_Down)
    at = seg.textCursor().position()
    assert at > 0 and seg.textCursor().block().text() == "Two."
    answer.append_text("Three, as it streams.")
    answer.flush()  # rendered again: the caret went back to the start, and a screen reader read line 1 again
    assert "Three" in seg.toPlainText()
    assert seg.textCursor().position() == at


def test_the_keyboard_caret_s_line_is_marked(qtbot):
    answer = AnswerWidget()
    qtbot.add_widget(answer)
    answer.resize(500, 300)
    answer.append_text("Short line.\n\nAnother.\n")
    answer.flush()
    answer.show()
    with qtbot.waitActive(answer):
        answer.activateWindow()
    seg = answer.segments()[0]
    seg.clearFocus()  # (the window's activation gave it the focus, as the first stop)
    y = seg.cursorRect().center().y()
    unfocused = seg.grab().toImage().pixelColor(seg.width() - 4, y)
    seg.setFocus(Qt.FocusReason.TabFocusReason)
    focused = seg.grab().toImage().pixelColor(seg.width() - 4, y)
    assert focused != unfocused  # where the keyboard reads shows, not only a one-pixel caret


def test_tab_comes_to_earlier_messages_shown_later_before_the_newer_ones(make_window, server, qloop):
    # An earlier page of a long chat ("Show earlier messages") is made after the messages below it, and Tab,
    # which follows the order widgets were made in within the conversation, came to it after them.
    server.queue(Stream(tokens("The answer.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Later question")) == "done"
    earlier = win.view.add_question("Earlier question", at=0)
    qloop.run(wait_until(earlier.text_view.isVisible))
    texts = [w for w in win.tab_stops() if w.objectName() in ("userText", "answerText")]
    later, answer = win.view.questions()[-1].text_view, win.view.answers()[-1].segments()[0]
    assert texts == [earlier.text_view, later, answer]


def test_a_question_the_keyboard_is_in_is_ringed(qtbot):
    from tinyrag_desktop.ui.chat_view import UserBubble

    bubble = UserBubble("What is a heron?")
    qtbot.add_widget(bubble)
    bubble.show()
    with qtbot.waitActive(bubble):
        bubble.activateWindow()
    bubble.text_view.clearFocus()
    edge = bubble.grab().toImage().pixelColor(1, bubble.height() // 2)
    bubble.text_view.setFocus(Qt.FocusReason.TabFocusReason)
    assert bubble.grab().toImage().pixelColor(1, bubble.height() // 2) != edge
    bubble.text_view.clearFocus()
    bubble.text_view.setFocus(Qt.FocusReason.MouseFocusReason)  # a click to select: no ring
    assert bubble.grab().toImage().pixelColor(1, bubble.height() // 2) == edge


def test_a_questions_words_are_named_as_an_answers_are(qtbot):
    # `_BubbleText:userText name=''`: the one nameless text of the conversation, beside "Answer text".
    from tinyrag_desktop.ui.chat_view import UserBubble

    bubble = UserBubble("What is a heron?")
    qtbot.add_widget(bubble)
    face = QAccessible.queryAccessibleInterface(bubble.text_view)
    assert face.text(QAccessible.Text.Name) == "Question text"
    assert face.textInterface().text(0, face.textInterface().characterCount()) == "What is a heron?"
    assert QAccessible.queryAccessibleInterface(bubble).text(QAccessible.Text.Name) == "Your question"
