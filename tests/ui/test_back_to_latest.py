"""Reading above a streaming answer: "Latest" (and End) go back down to it, Home goes to the chat's start.

The answer went on out of sight with no way back but the scroll bar, and Home and End did nothing."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.sse_server import Stream

from .conftest import ask_and_wait, tokens, wait_signal, wait_until

LONG = "\n\n".join(f"Paragraph {n}: " + "some words here " * 12 for n in range(60))


def test_latest_shows_while_reading_above_an_answer_and_goes_back_down_to_it(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens(LONG, 16), delay=0.004))
    win = make_window(server.base_url)
    view, bar = win.view, win.view.verticalScrollBar()

    async def scenario():
        finished = wait_signal(win.answerFinished, timeout=30)
        win.ask("Long")
        await wait_until(lambda: bar.maximum() > 3 * view.viewport().height())
        assert not view.latest.isVisible()  # following the answer: nothing to go back to
        bar.setValue(0)  # the user scrolls up to read
        await wait_until(view.latest.isVisible)
        assert bar.value() == 0  # the answer goes on below without pulling the view down
        qtbot.mouseClick(view.latest, Qt.MouseButton.LeftButton)
        assert bar.value() == bar.maximum() and not view.latest.isVisible()
        await finished
        assert bar.value() == bar.maximum()  # and follows it again to its end

    qloop.run(scenario(), timeout=40)


def test_home_and_end_go_to_the_start_and_the_end_of_the_conversation(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens(LONG, 64)))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Long")) == "done"
    view, bar = win.view, win.view.verticalScrollBar()
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Home)
    assert bar.value() == 0 and view.latest.isVisible()
    qtbot.keyClick(view, Qt.Key.Key_End)
    assert bar.value() == bar.maximum() > 0 and not view.latest.isVisible()


def test_latest_sits_under_the_text_not_over_it(make_window, server, qloop):
    # Floating over the bottom of the view it hid the ends of the lines there ("…lazy dog. ne[Latest]"), and a
    # match the find bar went to could be under it.
    server.queue(Stream(tokens(LONG, 64)))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Long")) == "done"
    view, bar = win.view, win.view.verticalScrollBar()
    for value in (bar.maximum() // 2, 0):  # scrolled up to read, then to the chat's start
        bar.setValue(value)
        qloop.run(wait_until(view.latest.isVisible))
        assert not view.latest.geometry().intersects(view.viewport().geometry())  # where the text is drawn
        assert view.rect().contains(view.latest.geometry())
        assert bar.value() == value  # what the user scrolled to stays where it is
    view.scroll_to_bottom()
    assert not view.latest.isVisible() and view.viewport().geometry().bottom() == view.rect().bottom()
    assert bar.value() == bar.maximum()
