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


# -- an earlier answer that does not fit whole: its results go before it does -------------------------------

PAGE = "The Rhine cruise costs 1,890 dollars per person, meals and excursions included. " * 18  # ~1,450 chars


def _cruise_exchange() -> list[dict[str, str]]:
    results = results_message([(f"call_{n}", "page", "ok", f"https://cruises.example/{n}", PAGE) for n in range(3)],
                              1500, "Compare these three cruise pages for me.")
    return [{"role": "user", "content": "Compare these three cruise pages for me."},
            {"role": "assistant", "content": '<tool name="page"><url>https://cruises.example/0</url></tool>'},
            {"role": "user", "content": results},
            {"role": "assistant", "content": "The Rhine cruise costs **1,890 dollars** per person. " * 12}]


def _shortest(history, room_for: list[dict[str, str]], more: int = 0):
    """Fitting cut to a budget with room beside SYSTEM and TAIL for ``room_for`` (and ``more`` tokens)."""
    from tinyrag_desktop.engine.context import Fitting

    fitting = Fitting([SYSTEM], history, list(TAIL), max_tokens=0, setting=0)
    fitting.budget = sum(map(ctxmod.cost, [SYSTEM, *TAIL, *room_for])) + more
    return fitting, fitting._shortest()


def test_a_follow_up_gets_the_answer_with_its_results_cut_when_it_does_not_fit_whole():
    # "and in euros?" went with none of the chat: the answer did not fit with its three pages, and was left
    # out with them, though its words alone fitted
    history = _cruise_exchange()
    without = [*history[:2], {"role": "user", "content": "<tool_results>"}, history[3]]
    fitting, convo = _shortest(history, without, more=600)  # room for each page cut to MIN_RESULT
    assert convo[:2] == [SYSTEM, history[0]] and convo[-2:] == [history[3], *TAIL]
    sent = convo[3]["content"]
    assert sent.startswith("<tool_results>") and len(sent) < len(history[2]["content"]) / 2
    assert sent.count("1,890 dollars per person") >= 3 and ctxmod.RESULT_LEFT_OUT not in sent
    assert sent.count("<result ") == 3 and "https://cruises.example/2" in sent  # each call still has its result
    assert fitting.left_out == 0 and fitting.shortened == 1


def test_results_are_left_out_before_the_answer_and_kept_tags_say_so():
    history = _cruise_exchange()
    fitting, convo = _shortest(history, [*history[:2], history[3]], more=300)  # not for MIN_RESULT each
    sent = convo[3]["content"]
    assert sent.count(ctxmod.RESULT_LEFT_OUT) == 3 and "1,890 dollars per person, meals" not in sent
    assert convo[-2] == history[3] and fitting.left_out == 0 and fitting.shortened == 1


def test_an_older_answers_results_go_before_the_latest_ones():
    older, latest = _cruise_exchange(), _cruise_exchange()
    latest[0] = {"role": "user", "content": "And the Danube one?"}
    fitting, convo = _shortest([*older, *latest], [*older[:2], older[3], *latest], more=300)
    assert convo[-5:-1] == latest  # whole
    assert convo[1] == older[0] and ctxmod.RESULT_LEFT_OUT in convo[3]["content"]
    assert fitting.left_out == 0 and fitting.shortened == 1


def test_the_latest_long_answer_goes_with_its_middle_left_out_rather_than_not_at_all():
    # "Make it shorter" after a cover letter a little longer than the room: the letter was not sent
    letter = "Dear hiring manager,\n\n" + "I am writing to apply for the analyst position at your firm. " * 90 + (
        "\n\nYours sincerely,\nAnna")
    history = [{"role": "user", "content": "Write me a cover letter."}, {"role": "assistant", "content": letter}]
    fitting, convo = _shortest(history, history, more=-100)
    assert convo[1] == history[0] and convo[-1] == TAIL[-1]
    sent = convo[2]["content"]
    assert sent.startswith("Dear hiring manager,") and sent.endswith("Yours sincerely,\nAnna")
    assert "characters of this answer left out here" in sent and len(sent) < len(letter)
    assert sum(map(ctxmod.cost, convo)) <= fitting.budget
    assert fitting.left_out == 0 and fitting.shortened == 1
    # an earlier answer, not the latest, goes whole or not at all
    fitting, convo = _shortest([*history, {"role": "user", "content": "Thanks!"},
                                {"role": "assistant", "content": "You are welcome."}], history, more=-100)
    assert letter[:40] not in str(convo) and fitting.left_out == 2


@hyp_settings(max_examples=200, deadline=None)
@given(answers=st.lists(st.tuples(st.integers(0, 600), st.booleans()), max_size=10), budget=st.integers(0, 12000))
def test_what_fit_chat_keeps_is_the_latest_exchanges_in_their_roles_within_the_budget(answers, budget):
    history: list[dict[str, str]] = []
    for n, (size, tools) in enumerate(answers):
        history += (_answer_with_tools(n, size) if tools else
                    [{"role": "user", "content": f"Question {n}? " + "w " * size},
                     {"role": "assistant", "content": "a " * size}])
    fitted = ctxmod.fit_chat([SYSTEM], history, TAIL, budget)
    kept = fitted.convo[1:-1]
    assert fitted.convo[0] == SYSTEM and fitted.convo[-1] == TAIL[-1]
    assert [m["role"] for m in kept] == [m["role"] for m in history[fitted.left:]]
    assert all(a == b for a, b in zip(kept, history[fitted.left:]) if ctxmod.is_question(b))
    assert fitted.shortened <= sum(map(ctxmod.is_question, kept))
    if kept:
        assert sum(map(ctxmod.cost, fitted.convo)) <= budget
    whole = fit([SYSTEM], history, TAIL, budget)[1]
    assert fitted.left <= whole  # never less of the chat than whole messages alone kept
