"""What a screen reader is told about an answer: its figures, whether it is still running, finished, stopped or
failed (and an announcement when it ends in view), and its text without Markdown's marks."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QAccessible

from tests.sse_server import Stream
from tinyrag_desktop.ui.answer import AnswerWidget, spoken
from tinyrag_desktop.ui.segments import MarkdownSegment

from .conftest import ask_and_wait, ask_then_stop, tokens, wait_signal, wait_until


@pytest.fixture(params=[False, True], ids=["no reader", "reader on"])
def reader(request):
    """Run with Qt's accessibility off, and on as with a screen reader (the announcement is then sent)."""
    was = QAccessible.isActive()
    QAccessible.setActive(request.param)
    yield request.param
    QAccessible.setActive(was)


def test_the_footer_and_the_answer_say_their_figures_and_state(make_window, server, qloop, reader):
    server.queue(Stream(tokens('<tool name="calculate"><query>6 * 7</query></tool>')),
                 Stream(tokens("It is **42**."), delay=0.05))
    win = make_window(server.base_url)
    said_while_running = []

    async def ask():  # one run of the loop: stopped mid-stream, it left the stream a task to end outside it
        answered = wait_signal(win.answerFinished)
        win.composer.setPlainText("What is 6 * 7?")
        assert win.send()
        await wait_until(lambda: win.view.answers()[-1].cards())
        said_while_running.append(win.view.answers()[-1].accessibleName())
        return await answered

    assert qloop.run(ask()) == "done"
    assert said_while_running == ["Assistant answer, still answering"]
    answer = win.view.answers()[-1]
    footer = answer.footer()
    assert footer.startswith("2 rounds · 1 tool run · ") and footer.endswith(" s · scripted")
    name = answer._footer.accessibleName()
    assert name.startswith("Answer statistics: 2 rounds, 1 tool run, ") and name.endswith(" seconds, scripted")
    assert answer.accessibleName() == "Assistant answer, finished"
    assert answer.accessibleDescription() == name.removeprefix("Answer statistics: ")
    assert answer.announced == ["Answer finished"]


def test_a_stopped_and_a_failed_answer_say_so(make_window, server, qloop):
    server.queue(Stream(tokens("word " * 2000), delay=0.002))
    win = make_window(server.base_url)
    assert qloop.run(ask_then_stop(win, "Talk a lot", lambda a: len(a.content()) > 100)) == "stopped"
    answer = win.view.answers()[-1]
    assert answer.accessibleName() == "Assistant answer, stopped"
    assert answer.accessibleDescription().endswith("stopped")  # its figures: "…, 0.3 seconds, scripted, stopped"
    assert answer.announced == ["Answer stopped"]
    server.queue(Stream(tokens("This answer will be cut off before it ends properly."), cut_after=5))
    assert qloop.run(ask_and_wait(win, "Hi")) == "error"
    answer = win.view.answers()[-1]
    assert answer.accessibleName() == "Assistant answer, failed"
    assert answer.accessibleDescription() == answer.error
    assert answer.announced == [f"Answer failed: {answer.error}"]
    chat = win.chat_id
    win.new_chat()
    win.open_chat(chat)
    qloop.run(wait_until(lambda: not win.loading and len(win.view.answers()) == 2))
    first, second = win.view.answers()
    assert first.accessibleName() == "Assistant answer, stopped" and second.accessibleName() == "Assistant answer, failed"
    assert first.announced == second.announced == []  # reopened: nothing new to announce


def test_an_answer_whose_stream_just_ends_is_no_longer_said_to_be_answering(qtbot):
    answer = AnswerWidget()
    qtbot.add_widget(answer)
    answer.begin()
    assert answer.state == "answering"
    answer.streaming = False  # what the window does when the stream ends without Done or an error
    assert answer.accessibleName() == "Assistant answer, ended"


def test_spoken_figures():
    assert spoken("2\u00a0rounds · 1\u00a0tool\u00a0run · 0.1\u00a0s · scripted") == \
        "2 rounds, 1 tool run, 0.1 seconds, scripted"
    assert spoken("12.0 s · stopped") == "12.0 seconds, stopped"


def test_the_answer_texts_description_is_its_words_not_its_markdown(qtbot):
    seg = MarkdownSegment()
    qtbot.add_widget(seg)
    seg.set_markdown("## Result\n\nHere is **bold**, *italic* and `code`.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
                     "```python\nprint(1)\n```\n")
    said = seg.accessibleDescription()
    assert said == "Result Here is bold, italic and code. a b 1 2 print(1)"
    seg.set_markdown("word " * 300)
    said = seg.accessibleDescription()
    assert len(said) <= 501 and said.endswith("word…")
