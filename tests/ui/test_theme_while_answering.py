"""The theme changed while an answer streams in the open chat: the finished answers take the new colours at
once (they waited for the answer's end: light code boxes under light text), and the answer streaming goes on
as it was, its text in the new colours too: the same widget, its cards, its place, Stop."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QApplication

from tests.sse_server import Gate, Stream
from tests.ui.conftest import ask_and_wait, keep_picture, tokens, wait_signal, wait_until
from tests.ui.test_theme_keeps_place import RICH, _top_message
from tinyrag_desktop.ui.markdown_render import DARK, LIGHT

CALL = '<tool name="calculate"><query>6 * 7</query></tool>'
HEAD = "Answer 1.\n\n```python\ndef g():\n    return 1\n```\n\n" + CALL  # all of it before the gate
REST = "\n\n| a | b |\n|---|---|\n| 1 | x |\n\nmore text"


def _backgrounds(answer) -> set[str]:
    """The background colours of ``answer``'s code boxes and table headers, as its segments show them now."""
    html = "".join(seg.toHtml() for seg in answer.segments())
    return set(re.findall(r'bgcolor="(#[0-9a-f]{6})"', html.lower()))


def _shoot(win, name: str) -> None:
    keep_picture(win, f"{name}.png")


def test_a_theme_changed_while_the_open_chat_answers_recolours_the_finished_answers_at_once(
        make_window, server, qloop):
    win = make_window(server.base_url, theme="light")
    server.queue(Stream(tokens(RICH.format(n=0), 16)))
    assert qloop.run(ask_and_wait(win, "Question 0")) == "done"
    gate = Gate()
    server.queue(Stream([HEAD] + tokens(REST, 16), gate=gate), Stream(tokens("It is 42.", 3)))
    finished = wait_signal(win.answerFinished)
    win.composer.setPlainText("Question 1")
    assert win.send()
    qloop.run(wait_until(lambda: win.view.answers()[-1].cards() and win.view.answers()[-1].cards()[0].status == "done"))
    earlier, streaming = win.view.answers()
    # the text before the card is drawn at the next frame (answers redraw at most every FRAME_MS), not with it
    qloop.run(wait_until(lambda: "return 1" in streaming.segments()[0].toPlainText()))
    assert _backgrounds(earlier) == _backgrounds(streaming) == {LIGHT.code_bg}
    _shoot(win, "before")

    win.apply_settings(win.settings.replace(theme="dark"))
    qloop.run(wait_until(lambda: not win.loading))
    assert _backgrounds(win.view.answers()[0]) == {DARK.code_bg}  # at once, not once the answer ends
    assert win.view.answers()[1] is streaming and streaming.streaming  # the same answer, going on
    qloop.run(wait_until(lambda: _backgrounds(streaming) == {DARK.code_bg}))  # its text shown so far too
    assert [card.status for card in streaming.cards()] == ["done"]
    assert not win.stop_button.isHidden()
    _shoot(win, "during")

    ended = []  # the answer as it ended, before its chat is built again from the history
    win.answerFinished.connect(lambda _o: ended.append(("".join(s.toPlainText() for s in streaming.segments()),
                                                        _backgrounds(streaming))))
    gate.opened.set()
    assert qloop.run(finished) == "done"
    shown, backgrounds = ended[0]
    assert [shown.count(words) for words in ("Answer 1.", "return 1", "more text", "It is 42.")] == [1, 1, 1, 1]
    assert backgrounds == {DARK.code_bg}  # its table too, streamed in after the change
    qloop.run(wait_until(lambda: not win.loading))
    _shoot(win, "after")
    answers = win.view.answers()
    assert len(answers) == 2 and all(_backgrounds(a) == {DARK.code_bg} for a in answers)
    stored = [m.content for m in win.store.messages(win.chat_id) if m.role == "assistant"]
    # every word once, in its place (the text around the card, then the second round's)
    assert stored[-1] == answers[-1].content() == HEAD.replace(CALL, "") + REST + "\n\nIt is 42."


def test_stop_the_place_read_and_the_focus_are_kept_when_the_theme_changes_while_answering(
        make_window, server, qloop, monkeypatch):
    from tinyrag_desktop.ui import window_chats

    monkeypatch.setattr(window_chats, "LOAD_BUDGET", 0.0)  # built in slices, as a long chat is
    win = make_window(server.base_url, theme="light")
    win.resize(900, 600)
    for n in range(4):
        server.queue(Stream(tokens(RICH.format(n=n), 16)))
        assert qloop.run(ask_and_wait(win, f"Question {n}")) == "done"
    gate = Gate()
    server.queue(Stream([HEAD.replace(CALL, "")] + tokens(REST, 16), gate=gate))
    finished = wait_signal(win.answerFinished)
    win.composer.setPlainText("Question 4")
    assert win.send()
    qloop.run(wait_until(lambda: win.view.answers()[-1].segments()))
    streaming = win.view.answers()[-1]
    win.activateWindow()
    qloop.run(wait_until(win.isActiveWindow))
    reading = streaming.segments()[0]
    reading.setFocus()  # clicked into, to select some of it
    bar = win.view.verticalScrollBar()
    bar.setValue(bar.maximum() // 3)  # up, reading an earlier answer while this one is written
    top = _top_message(win)
    assert top and not win.view.following()

    win.apply_settings(win.settings.replace(theme="dark"))
    qloop.run(wait_until(lambda: not win.loading))
    qloop.run(wait_until(lambda: _top_message(win) == top))  # the message read stays at the top
    assert all(_backgrounds(a) == {DARK.code_bg} for a in win.view.answers())
    assert win.view.answers()[-1] is streaming
    assert QApplication.focusWidget() is reading  # out of sight while the chat was built, then given back
    win.stop_button.click()
    assert qloop.run(finished) == "stopped"
    gate.opened.set()
    qloop.run(wait_until(lambda: not win.loading))  # built again once more: the stopped answer's cards and all
    stored = [m for m in win.store.messages(win.chat_id) if m.role == "assistant"]
    assert len(stored) == len(win.view.answers()) == 5
    assert stored[-1].status == "stopped" and stored[-1].content == streaming.content() == HEAD.replace(CALL, "")


def test_the_answer_streaming_takes_the_colours_at_once_and_holds_back_its_half_written_row(qtbot):
    from tinyrag_desktop.ui.answer import AnswerWidget

    answer = AnswerWidget(palette=LIGHT)
    qtbot.add_widget(answer)
    answer.setFixedWidth(700)
    answer.show()
    answer.begin()
    answer.append_text("```python\nx = 1\n```\n\n| a | b |\n|---|---|\n| 1 | x |\n| 2 | hal")
    answer._render_step()
    shown = answer.segments()[-1].toPlainText()
    assert "hal" not in shown and _backgrounds(answer) == {LIGHT.code_bg}
    answer.take_colours(DARK)
    qtbot.waitUntil(lambda: _backgrounds(answer) == {DARK.code_bg})  # the code box and the table's header
    assert answer.segments()[-1].toPlainText() == shown  # its row still held back until it is whole
    answer.append_text("f |\nthe end")
    answer._render_step()
    assert "half" in answer.segments()[-1].toPlainText() and _backgrounds(answer) == {DARK.code_bg}
