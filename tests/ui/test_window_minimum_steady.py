"""The window's minimum width stays put from one answer to the next.

It went down by a few pixels as each answer started (the last answer's Regenerate hidden) and up again as it
ended (the new one's shown): new size hints for the window manager twice an answer, and in the offscreen
platform a "This plugin does not support propagateSizeHints()" line each time."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject

from tests.sse_server import Stream

from .conftest import ask_and_wait, held_answer, tokens, wait_until


class _Minimums(QObject):
    """The window's minimum width as each of its layout requests comes (the one before set it)."""

    def __init__(self, window) -> None:
        super().__init__()
        self.window, self.seen = window, []

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.LayoutRequest:
            self.seen.append(self.window.minimumWidth())
        return False


def test_the_windows_minimum_width_does_not_change_at_every_answer(make_window, server, qloop):
    win = make_window(server.base_url)
    win.resize(1100, 760)  # the chat narrow beside the knowledge panel: its minimum counts in the window's
    win.kb_dock.show()
    # a calculation first: its footer ("2 rounds · 1 tool run · …") with Copy and Regenerate is the widest
    # thing in the chat, so that the chat's minimum is the window's
    answer = [Stream(tokens('Let me work it out.\n<tool name="calculate"><query>6*7</query></tool>', 8)),
              Stream(tokens("It is 42, " + "with some words in it " * 6, 8))]
    server.queue(*answer)
    assert qloop.run(ask_and_wait(win, "First")) == "done"
    minimums = _Minimums(win)
    win.installEventFilter(minimums)
    for n in range(3):
        server.queue(*answer)
        assert qloop.run(ask_and_wait(win, f"Question {n}")) == "done"
    minimums.seen.append(win.minimumWidth())
    assert len(minimums.seen) > 3 and len(set(minimums.seen)) == 1, minimums.seen


def test_the_knowledge_panel_closed_during_an_answer_lets_the_window_narrow_at_once(make_window, server, qloop):
    # The minimum was lowered only between answers: closed while an answer was written, the panel left the
    # window unable to be made narrower than with it (612 px) until the answer ended.
    win = make_window(server.base_url)
    win.resize(1100, 760)
    alone = win.minimumWidth()
    win.kb_dock.show()
    qloop.run(wait_until(lambda: win.minimumWidth() > alone + 100))
    gate, finished = held_answer(win, server, "Question")
    qloop.run(wait_until(lambda: len(server.requests) == 1))
    win.kb_dock.hide()
    qloop.run(wait_until(lambda: win.minimumWidth() == alone, timeout=3.0))
    assert win._answer is not None  # still being written
    gate.opened.set()
    qloop.run(finished)
    assert win.minimumWidth() == alone
