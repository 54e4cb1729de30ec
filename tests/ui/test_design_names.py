"""DESIGN's widgets tests can find: `composer`, `send`, `stop` and `chatView`, looked up by objectName on the
real main window (other tests use the window's attributes, which a rename of the names would not fail)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QPlainTextEdit, QScrollArea, QWidget

from tests.sse_server import Stream

from .conftest import tokens, wait_signal, wait_until


def _only(win, kind, name: str):
    found = win.findChildren(kind, name)
    assert len(found) == 1, (name, found)  # one each: findChild's pick would otherwise be luck
    return found[0]


def test_the_named_widgets_are_there_and_a_question_goes_through_them(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens("It is forty-two, said slowly enough to stop.", 3), delay=0.05),
                 Stream(tokens("It is 42.")))
    win = make_window(server.base_url)
    composer = _only(win, QPlainTextEdit, "composer")
    send, stop = _only(win, QAbstractButton, "send"), _only(win, QAbstractButton, "stop")
    chat_view = _only(win, QScrollArea, "chatView")
    assert win.findChild(QWidget, "composer") is composer is win.composer and chat_view is win.view
    assert send.isVisible() and send.isEnabled()

    async def ask_by_name(question: str, stop_it: bool) -> str:
        finished = wait_signal(win.answerFinished, timeout=15)
        composer.setPlainText(question)
        qtbot.mouseClick(send, Qt.MouseButton.LeftButton)
        if stop_it:  # Stop shows while the answer is written, and ends it
            await wait_until(lambda: bool(chat_view.answers()) and "It is" in chat_view.answers()[-1].content())
            assert stop.isVisible() and stop.isEnabled()
            qtbot.mouseClick(stop, Qt.MouseButton.LeftButton)
        return await finished

    assert qloop.run(ask_by_name("What is 6 * 7, slowly?", stop_it=True)) == "stopped"
    assert qloop.run(ask_by_name("What is 6 * 7?", stop_it=False)) == "done"
    answers = chat_view.answers()
    assert len(answers) == 2 and answers[-1].content() == "It is 42."
    assert composer.toPlainText() == ""
