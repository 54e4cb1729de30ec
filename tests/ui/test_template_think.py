"""The window when a model starts its reply inside reasoning its chat template opened (see
tests/engine/test_template_opened_think.py): the text before its </think> moves from the answer into
Thinking, and is stored there."""

from __future__ import annotations

import pytest

from tests.sse_server import Stream
from tinyrag_desktop.chats import ChatStore

from .conftest import ask_and_wait, tokens, wait_until

THOUGHT = "The user greets me.\nI will answer kindly.\n"


def shown_text(answer) -> str:
    return "".join(seg.markdown() for seg in answer.segments() if seg.isVisible())


def test_the_reasoning_before_a_bare_close_moves_into_thinking(make_window, server, qloop):
    # slowly enough that the reasoning is on screen as answer text before its </think> comes
    server.queue(Stream(tokens(THOUGHT, 3) + tokens("</think>\n\nHello **there**.", 3), delay=0.01),
                 Stream(tokens("Weighing it " + '<tool name="calculate"><query>1+1</query></tool>'
                               + " no.</think>Two.")),
                 Stream(tokens("Just an answer.")))
    win = make_window(server.base_url)
    seen_as_text = []
    win.bridge.text.connect(lambda t: seen_as_text.append(t))
    assert qloop.run(ask_and_wait(win, "Hi")) == "done"
    answer = win.view.answers()[-1]
    assert "".join(seen_as_text).startswith(THOUGHT)  # it was shown as text first
    assert answer.reasoning() == THOUGHT and answer._thinking.isVisible()
    assert answer.content() == "\n\nHello **there**." and shown_text(answer).strip() == "Hello **there**."
    stored = ChatStore(win.data_dir).messages(win.chat_id)[-1]
    assert (stored.content, stored.reasoning) == ("\n\nHello **there**.", THOUGHT)

    # the next reply starts as reasoning: the block in it is no card
    assert qloop.run(ask_and_wait(win, "1+1?")) == "done"
    answer = win.view.answers()[-1]
    assert answer.cards() == [] and answer.content() == "Two."
    assert answer.reasoning().startswith("Weighing it <tool")

    # a reply that never closes its presumed reasoning is the answer: Thinking goes again
    assert qloop.run(ask_and_wait(win, "And?")) == "done"
    answer = win.view.answers()[-1]
    assert answer.content() == "Just an answer." and answer.reasoning() == "" and answer._thinking is None
    assert shown_text(answer) == "Just an answer."


def test_a_close_in_the_middle_of_a_line_moves_the_reasoning_into_thinking(make_window, server, qloop):
    # "…is 4.</th" + "ink>The answer…": the whole reply stayed in the answer, "</think>" shown in it
    server.queue(Stream(["Two and two make four, so the answer is 4.</th", "ink>The answer is **4**."]))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "2+2?")) == "done"
    answer = win.view.answers()[-1]
    assert answer.reasoning() == "Two and two make four, so the answer is 4." and answer._thinking.isVisible()
    assert answer.content() == "The answer is **4**." and shown_text(answer) == "The answer is **4**."
    stored = ChatStore(win.data_dir).messages(win.chat_id)[-1]
    assert (stored.content, stored.reasoning) == ("The answer is **4**.", "Two and two make four, so the answer is 4.")


def test_reasoning_taken_back_from_the_answer_is_timed_from_its_first_words(qtbot, monkeypatch):
    # It said "Thought for a moment": the clock started when the text was taken back, at the </think>
    from types import SimpleNamespace

    from tinyrag_desktop.ui import answer as answer_module
    from tinyrag_desktop.ui import thinking
    from tinyrag_desktop.ui.answer import AnswerWidget

    now = [100.0]
    clock = SimpleNamespace(monotonic=lambda: now[0])
    monkeypatch.setattr(answer_module, "time", clock)
    monkeypatch.setattr(thinking, "time", clock)
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.begin()
    answer.append_text(THOUGHT)
    now[0] = 104.2
    answer.retract(THOUGHT, "text")
    answer.append_reasoning(THOUGHT)
    assert answer._thinking.toggle.text() == "Thinking…"
    answer.append_text("Hello.")
    assert answer._thinking.toggle.text() == "Thought for 4 s" and answer.content() == "Hello."


@pytest.mark.parametrize("said", ["Bonjour\xa0! Voici la réponse.", "line one\r\nline two", "a\u2028b"])
def test_a_presumed_reply_taken_back_leaves_nothing_in_thinking_whatever_its_characters(qtbot, said):
    # Qt's plain text turned the no-break space into a space (and "\r\n", U+2028 into "\n"): the reply was
    # not found at the end of Thinking, stayed there, and was stored as reasoning beside the answer
    from tinyrag_desktop.ui.answer import AnswerWidget

    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.begin()
    answer.append_reasoning(said)
    assert answer.reasoning() == said  # as it came, not as Qt shows it
    answer.retract(said, "reasoning")
    answer.append_text(said)
    assert answer.reasoning() == "" and answer._thinking is None and answer.content() == said


def test_an_empty_reasoning_block_shows_no_thinking_section(make_window, server, qloop):
    # Qwen3 with thinking off sends "<think>\n\n</think>": an empty "Thought for a moment" was left
    server.queue(Stream(["<think>\n", "\n</think>", "Paris is the capital of France."]))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Capital of France?")) == "done"
    answer = win.view.answers()[-1]
    assert answer.content() == "Paris is the capital of France." and answer._thinking is None
    win.new_chat()
    win.open_chat(win.sidebar.ids()[0])
    qloop.run(wait_until(lambda: not win.loading))
    assert win.view.answers()[-1]._thinking is None  # nor when the chat is opened again


def test_the_wait_for_the_first_words_says_how_long_after_a_few_seconds(qtbot):
    from PySide6.QtWidgets import QLabel

    from tinyrag_desktop.ui.answer import AnswerWidget
    from tinyrag_desktop.ui.answer_footer import WAIT_SAID_AFTER, waiting_words

    answer = AnswerWidget()
    qtbot.add_widget(answer)
    answer.begin()
    label = answer.findChild(QLabel, "waiting")
    assert label.text() == "Waiting for the model…"
    qtbot.waitUntil(lambda: label.text().startswith("Waiting for the model… 5 s"), timeout=(WAIT_SAID_AFTER + 5) * 1000)
    answer.append_text("Here.")
    assert answer.findChild(QLabel, "waiting") is None or not answer.findChild(QLabel, "waiting").isVisible()

    assert waiting_words(1.0) == "Waiting for the model…"
    assert waiting_words(WAIT_SAID_AFTER + 40.4) == (
        f"Waiting for the model… {WAIT_SAID_AFTER + 40} s (a model the server has to load first can take a minute)")
