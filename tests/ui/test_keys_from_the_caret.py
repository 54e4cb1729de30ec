"""Tab and Shift+Tab from a caret in an answer's words (where Tab comes to read it, or where Down left it) go to
the links beside it and then on out of the answer: a keyboard-only user is never kept going round its links. A
screen reader says each link Tab comes to."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.sse_server import Stream
from tinyrag_desktop.ui import access

from .conftest import ask_and_wait, tokens

CALL = '<tool name="calculate"><query>6 * 7</query></tool>'
ANSWER = "The answer is **42**.\n\n```python\nprint(42)\n```\n\nSee [the guide](https://example.com) for more."


def _key(key, modifiers=Qt.KeyboardModifier.NoModifier):
    QTest.keyClick(QApplication.focusWidget(), key, modifiers)
    return QApplication.focusWidget()


def _stop():
    """Where the focus is: the widget, and the text selected in it (a link Tab stopped on)."""
    focus = QApplication.focusWidget()
    return focus, focus.textCursor().selectedText() if hasattr(focus, "textCursor") else ""


def _answered(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens(CALL)), Stream(tokens(ANSWER)))
    win = make_window(server.base_url)
    with qtbot.waitActive(win):
        win.activateWindow()
    assert qloop.run(ask_and_wait(win, "What is 6*7?")) == "done"
    answer = win.view.answers()[-1]
    [text] = [s for s in answer.segments() if s in win.tab_stops()]
    return win, answer, text


def test_shift_tab_from_the_answers_words_reaches_its_card_and_the_question(make_window, server, qloop, qtbot):
    # Shift+Tab from Copy went to the last link, the first, the caret at the start, then the last link again,
    # round and round: the tool card and the question above could not be reached by keyboard.
    win, answer, text = _answered(make_window, server, qloop, qtbot)
    [card] = answer.cards()
    answer.copy_button.setFocus(Qt.FocusReason.TabFocusReason)
    walked = []
    for _ in range(8):
        _key(Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
        walked.append(_stop())
        if walked[-1][0] is win.view.questions()[-1].text_view:
            break
    assert walked == [(text, "the guide"), (text, "Copy code"), (text, ""), (card, ""),
                      (win.view.questions()[-1].text_view, "")]


def test_tab_and_shift_tab_from_a_caret_go_to_the_links_beside_it_then_out(make_window, server, qloop, qtbot):
    # Qt looks for links from the text's start when nothing is selected: Tab from a caret after every link
    # went back to the first one, above where the user was reading.
    win, answer, text = _answered(make_window, server, qloop, qtbot)
    text.setFocus(Qt.FocusReason.TabFocusReason)
    between = text.toPlainText().index("See")  # after Copy code, before the link
    cursor = QTextCursor(text.document())
    cursor.setPosition(between)
    text.setTextCursor(cursor)
    assert _key(Qt.Key.Key_Tab) is text and _stop()[1] == "the guide"
    text.setTextCursor(cursor)
    assert _key(Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier) is text and _stop()[1] == "Copy code"
    text.moveCursor(QTextCursor.MoveOperation.End)
    assert _key(Qt.Key.Key_Tab) is answer.copy_button


def test_each_link_tab_comes_to_is_said(make_window, server, qloop, qtbot, monkeypatch):
    # Orca said "Answer text selected" for the first link and nothing for the next: a label's new name or
    # selection is not news to it.
    said: list[str] = []
    monkeypatch.setattr(access, "_send", lambda event: said.append(event.message()))
    win, answer, text = _answered(make_window, server, qloop, qtbot)
    said.clear()  # the answer's own news
    answer.copy_button.setFocus(Qt.FocusReason.TabFocusReason)
    for _ in range(4):
        _key(Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert said == ["Link: the guide", "Link: Copy code"]  # then the caret and the card: no link
    _key(Qt.Key.Key_Tab)  # back to the words, at the caret
    _key(Qt.Key.Key_Tab)
    assert _stop() == (text, "Copy code") and said[-1] == "Link: Copy code" and len(said) == 3


def test_a_link_is_said_again_when_the_focus_comes_back_to_it(make_window, server, qloop, qtbot, monkeypatch):
    # A click elsewhere and back, or Tab back onto the link, said nothing: the text remembered the link as
    # said until Tab itself left it.
    said: list[str] = []
    monkeypatch.setattr(access, "_send", lambda event: said.append(event.message()))
    win, answer, text = _answered(make_window, server, qloop, qtbot)
    answer.copy_button.setFocus(Qt.FocusReason.TabFocusReason)
    _key(Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert _stop() == (text, "the guide") and said[-1] == "Link: the guide"
    said.clear()
    answer.copy_button.setFocus(Qt.FocusReason.MouseFocusReason)  # a click on Copy
    text.setFocus(Qt.FocusReason.BacktabFocusReason)  # and Shift+Tab back: the link still selected
    assert _stop() == (text, "the guide")
    assert said == ["Link: the guide"]
