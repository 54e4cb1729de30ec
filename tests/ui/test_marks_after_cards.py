"""A full stop or comma the model writes right after a tool block ends the text before the card."""

from __future__ import annotations

import pytest

from tests.sse_server import Stream
from tinyrag_desktop.chats import ChatStore
from tinyrag_desktop.engine.events import ToolFinished, ToolStarted
from tinyrag_desktop.ui.answer import AnswerWidget

from .conftest import ask_and_wait, tokens


def _shown(answer: AnswerWidget) -> list[str]:
    return ["[card]" if type(p).__name__ == "ToolCard" else p.toPlainText() for p in answer.parts()]


def test_a_full_stop_after_a_block_ends_the_sentence_before_its_card(make_window, server, qloop, qtbot):
    # The "." came alone at the start of the line after the card: ". Then I double it."
    server.queue(Stream(tokens('For the exact value, see <tool name="calculate"><query>6*7</query></tool>. '
                               'Then I double it <tool name="calculate"><query>42*2</query></tool>, which '
                               'gives 84. Done:\n<tool name="calculate"><query>84/2</query></tool>.\n', 2)),
                 Stream(tokens("That is all.", 2)))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "What is 6*7, doubled?")) == "done"
    answer = win.view.answers()[-1]
    expected = ["For the exact value, see.", "[card]", "Then I double it,", "[card]", "which gives 84. Done:",
                "[card]", "That is all."]  # after "Done:" and a line break the "." has no sentence to end
    assert _shown(answer) == expected
    # what was streamed is kept as it came: the marks move on the screen only
    assert answer.content() == "For the exact value, see . Then I double it , which gives 84. Done:\n.\n\nThat is all."
    stored = ChatStore(win.data_dir).messages(win.chat_id)[-1]
    again = AnswerWidget.from_stored(stored)
    qtbot.addWidget(again)
    assert _shown(again) == expected  # a reopened chat shows them the same way


def _card(answer: AnswerWidget, n: str) -> None:
    answer.tool_started(ToolStarted(n, "calculate", "1+1"))
    answer.tool_finished(ToolFinished(n, "calculate", "1+1", "calculator", None, 5, "ok", 1, "2"))


@pytest.mark.parametrize(("before", "after", "shown"), [
    ("see ", ".", ["see.", "[card]"]),
    ("see", "...", ["see...", "[card]"]),                      # marks that come in pieces
    ("(see ", ") and more", ["(see)", "[card]", "and more"]),
    ("", ". Hello", ["[card]", "Hello"]),                      # nothing before the card: nothing to end
    ("A list:\n\n- item\n", ".", ["A list:\n\nitem", "[card]"]),
])
def test_marks_attach_only_to_a_sentence(qtbot, before, after, shown):
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.show()
    answer.append_text(before)
    if before:
        answer.flush()  # the text before the card may be on screen already, or not: both
    _card(answer, "1")
    for ch in after:
        answer.append_text(ch)
    answer.flush()
    got = [s.replace("\u2029", "\n").replace("\u2022", "").replace("\t", "") for s in _shown(answer)]
    assert [" ".join(s.split()) for s in got] == [" ".join(s.split()) for s in shown]
    assert answer.content() == before + after


def test_a_mark_after_cards_in_a_row_ends_the_text_before_the_first(qtbot):
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.append_text("Two sums")  # not rendered yet when the cards come
    _card(answer, "1")
    _card(answer, "2")
    answer.append_text(". Both are 2.")
    answer.flush()
    assert _shown(answer) == ["Two sums.", "[card]", "[card]", "Both are 2."]
