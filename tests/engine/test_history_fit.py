"""Fitting a chat whose earlier answers come back with their tools' results (ChatStore.history): a results
message is part of its answer, never the question a kept part of the chat starts with."""

from __future__ import annotations

from hypothesis import given, settings as hyp_settings, strategies as st

from tinyrag_desktop.engine import context as ctxmod
from tinyrag_desktop.engine.context import fit, is_question
from tinyrag_desktop.engine.prompts import results_message

SYSTEM = {"role": "system", "content": "You are helpful. " * 20}
TAIL = [{"role": "user", "content": "What was 2**200 again?"}]


def _results(text: str) -> dict[str, str]:
    return {"role": "user", "content": results_message([("call_1", "calculate", "ok", "calculator", text)], 1500,
                                                       "What is 2**200?")}


def _answer_with_tools(n: int, size: int = 200) -> list[dict[str, str]]:
    """A question and an answer that called a tool: call, results, the rest."""
    return [{"role": "user", "content": f"Question {n}? " + "w " * size},
            {"role": "assistant", "content": f'Let me compute. <tool name="calculate"><query>{n}</query></tool>'},
            _results(f"result {n} " + "r " * size),
            {"role": "assistant", "content": f"It is {n}. " + "a " * size}]


def test_a_results_message_is_no_question():
    assert not is_question(_results("42"))
    assert is_question({"role": "user", "content": "What is 2**200?"})
    assert not is_question({"role": "assistant", "content": "<tool_results>"})


def test_a_cut_that_falls_inside_an_answer_leaves_that_answer_out_whole():
    history = [*_answer_with_tools(1), *_answer_with_tools(2)]
    # room for the second exchange and the first answer's results and rest, not for its question and call:
    # the old rule started the kept part at the results message, a user message with no question
    room = sum(map(ctxmod.cost, [SYSTEM, *TAIL, *history[2:]]))
    convo, left = fit([SYSTEM], history, TAIL, room)
    assert left == 4 and convo == [SYSTEM, *history[4:], *TAIL]
    assert fit([SYSTEM], history, TAIL, 10**6) == ([SYSTEM, *history, *TAIL], 0)


@hyp_settings(max_examples=200, deadline=None)
@given(answers=st.lists(st.tuples(st.integers(0, 600), st.booleans()), max_size=12), budget=st.integers(0, 12000))
def test_what_is_kept_starts_with_a_question_and_holds_whole_answers(answers, budget):
    history: list[dict[str, str]] = []
    for n, (size, tools) in enumerate(answers):
        history += (_answer_with_tools(n, size) if tools else
                    [{"role": "user", "content": f"Question {n}? " + "w " * size},
                     {"role": "assistant", "content": "a " * size}])
    convo, left = fit([SYSTEM], history, TAIL, budget)
    assert convo == [SYSTEM, *history[left:], *TAIL]
    assert left == len(history) or is_question(history[left])
    if left and left < len(history):  # what was kept fits
        assert sum(map(ctxmod.cost, convo)) <= budget


def test_the_messages_left_out_are_counted_as_the_window_shows_them():
    # A question and its two-round answer left out were "6 earlier messages not read", of a chat of 4.
    from tinyrag_desktop.chat_history import UNANSWERED
    from tinyrag_desktop.engine.context import Fitting, messages_shown

    two_rounds = [*_answer_with_tools(1)[:3], {"role": "assistant", "content": "again <tool name=\"x\">"},
                  _results("more"), {"role": "assistant", "content": "done"}]
    assert messages_shown(two_rounds) == 2
    assert messages_shown([{"role": "user", "content": "a?"}, {"role": "assistant", "content": UNANSWERED},
                           {"role": "user", "content": "b?"}, {"role": "assistant", "content": "B."}]) == 4
    history = [*two_rounds, {"role": "user", "content": "Second?"}, {"role": "assistant", "content": "Yes."}]
    room = sum(map(ctxmod.cost, [SYSTEM, *TAIL, *history[-2:]])) + 5
    fitting = Fitting([SYSTEM], history, list(TAIL), max_tokens=0, setting=0)
    fitting.budget = room
    fitting._shortest()
    assert fitting.left_out == 2
