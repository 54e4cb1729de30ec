"""Ctrl+A in an answer's text selects the whole answer: Ctrl+C then copies what its Copy button copies, the tool
cards before its first text and after its last included."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from tests.sse_server import Stream
from tests.ui.conftest import ask_and_wait, ask_then_stop, keep_picture, tokens

CTRL = Qt.KeyboardModifier.ControlModifier
LOOP = 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("started")\n\tfor {\n\t}\n}\n'


def _select_all_and_copy(win, answer, where: str) -> str:
    """Ctrl+A then Ctrl+C with the caret in the answer's first text segment; what the clipboard got."""
    win.activateWindow()
    answer.segments()[0].enter_caret("start")
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_A, CTRL)
    keep_picture(win, f"select_all_{where}.png")
    QApplication.clipboard().clear()
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_C, CTRL)
    return QApplication.clipboard().text()


def _copy_button(answer) -> str:
    QApplication.clipboard().clear()
    answer.findChild(QWidget, "copyAnswer").click()
    return QApplication.clipboard().text()


def test_an_answer_that_opens_with_cards_is_copied_whole(make_window, server, qloop):
    # It copied "Six times seven is 42." alone: from the first text to the last, the two cards above left out.
    server.queue(Stream(tokens('<tool name="calculate"><query>6*7</query></tool>'
                               '<tool name="calculate"><query>2+2</query></tool>')),
                 Stream(tokens("Six times seven is 42, and two and two make 4.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Work it out")) == "done"
    answer = win.view.answers()[-1]
    assert answer.parts()[0] in answer.cards()  # the answer opens with its cards
    copied = _select_all_and_copy(win, answer, "cards_first")
    assert all(card._selected for card in answer.cards())  # shown selected with the text, as they are copied
    assert copied == _copy_button(answer)
    assert copied.index("`6*7`") < copied.index("`2+2`") < copied.index("Six times seven")
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Up)  # the caret moves: the selection goes, all of it
    assert not any(card._selected for card in answer.cards())


def test_an_answer_that_ends_with_a_card_is_copied_whole(make_window, server, qloop):
    # a card after the last text: a Go program stopped while it ran, with the answer's end line under it
    server.queue(Stream(tokens(f'Running it now.\n<tool name="nanogo"><source>{LOOP}</source></tool>')))
    win = make_window(server.base_url, allow_nanogo=True)

    def printed(answer) -> bool:
        return bool(answer.cards()) and "started" in answer.cards()[0].printed_so_far()

    assert qloop.run(ask_then_stop(win, "Run it", printed, timeout=30), timeout=40) == "stopped"
    answer = win.view.answers()[-1]
    assert answer.parts()[-1] in answer.cards()
    copied = _select_all_and_copy(win, answer, "card_last")
    assert copied == _copy_button(answer)
    assert copied.index("Running it now.") < copied.index("(stopped)") < copied.index("*[Answer stopped]*")
