"""A model whose chat template opens its <think> starts its reply inside its reasoning (DeepSeek-R1's
distills, QwQ, Qwen3's thinking models, served without a reasoning parser): only its </think> shows it.

The text before that close is taken back from the answer and sent again as reasoning; the model's next
replies start as reasoning, so no tool block in them runs; one that then never closes its reasoning was an
answer after all, and is sent as text, its blocks run.
"""

from __future__ import annotations

import json
import random

import pytest

from tests.engine.conftest import collect
from tests.engine.test_engine import block, of, visible
from tests.sse_server import Raw, Status, Stream
from tinyrag_desktop.engine import engine as engine_module
from tinyrag_desktop.engine.events import Done, EngineError, Reasoning, Retract, Text, ToolStarted
from tinyrag_desktop.engine.reply import thought_past_a_call


def pieces(text: str, seed: int = 0) -> list[str]:
    """``text`` cut into random pieces of 1 to 6 characters, as servers stream tokens."""
    rng, out, at = random.Random(seed), [], 0
    while at < len(text):
        size = rng.randint(1, 6)
        out.append(text[at : at + size])
        at += size
    return out


def reasoning(events: list) -> str:
    return "".join(e.text for e in of(events, Reasoning))


def answer(events: list) -> str:
    """The answer as the window shows it in the end: the text taken back (Retract) taken out."""
    shown = ""
    for event in events:
        if isinstance(event, Text):
            shown += event.text
        elif isinstance(event, Retract) and event.channel == "text":
            assert shown.endswith(event.text)
            shown = shown[: len(shown) - len(event.text)]
    return shown


THOUGHT = "The user wants a sum. Maybe\n```\n</think>\n```\nis how tags look.\n"


@pytest.mark.parametrize("seed", range(4))
async def test_the_text_before_a_bare_close_is_taken_back_as_reasoning(llm, make_engine, seed) -> None:
    llm.queue(Stream(pieces(THOUGHT + "</think>\n\nIt is **4**.", seed)))
    events = await collect(make_engine())
    [retract] = of(events, Retract)
    assert (retract.text, retract.channel) == (THOUGHT, "text")
    shown = [e for e in events if isinstance(e, (Text, Retract))]
    # the text before it was the reasoning, shown first as text; after it, the answer
    assert "".join(e.text for e in shown[: shown.index(retract)]) == THOUGHT
    assert reasoning(events) == THOUGHT
    assert "".join(e.text for e in shown[shown.index(retract) + 1 :]) == "\n\nIt is **4**."
    done = events[-1]
    assert isinstance(done, Done) and done.transcript == "\n\nIt is **4**."  # what is kept and sent back


@pytest.mark.parametrize("streamed", [["So the answer is 4.</think>The answer is **4**."],
                                    ["So the answer is 4.</th", "ink>The answer is **4**."],
                                    pieces("So the answer is 4.</think>The answer is **4**.", 7)])
async def test_a_close_in_the_middle_of_a_line_ends_the_reasoning_too(llm, make_engine, streamed) -> None:
    # some models close their reasoning right after its last word: the whole reply was shown as the answer,
    # "</think>" and all
    llm.queue(Stream(streamed))
    events = await collect(make_engine())
    assert reasoning(events) == "So the answer is 4." and answer(events) == "The answer is **4**."
    assert events[-1].transcript == "The answer is **4**."


async def test_the_next_replies_start_as_reasoning_and_run_no_block_in_it(llm, make_engine) -> None:
    llm.queue(Stream(pieces("Easy.\n</think>\nHello!")),
              Stream(pieces("I could call " + block("echo", "thought") + " but no.\n</think>\n\nIt is "
                            + block("echo", "x"))),
              Stream(pieces("Done thinking.</think>It is x.")))
    first = await collect(make_engine())
    assert answer(first) == "\nHello!" and reasoning(first) == "Easy.\n" and first[-1].transcript == "\nHello!"
    events = await collect(make_engine())  # a new request to the same model: its reply starts as reasoning
    assert [s.query for s in of(events, ToolStarted)] == ["x"]  # the block in its reasoning never ran
    assert of(events, Retract) == []
    assert reasoning(events) == "I could call " + block("echo", "thought") + " but no.\n" + "Done thinking."
    assert answer(events) == visible(events) == "\n\nIt is \n\nIt is x."  # nothing taken back
    # the server was sent the answer, not the reasoning
    assert llm.requests[2]["messages"][-2]["content"] == "\n\nIt is " + block("echo", "x")


async def test_a_reply_that_never_closes_its_presumed_reasoning_was_the_answer(llm, make_engine) -> None:
    llm.queue(Stream(pieces("Hm.\n</think>\nHi.")),
              Stream(pieces("Plain answer, then " + block("echo", "late"))),
              Stream(pieces("It echoed.")))
    await collect(make_engine())
    events = await collect(make_engine())
    [retract] = of(events, Retract)
    assert (retract.text, retract.channel) == ("Plain answer, then " + block("echo", "late"), "reasoning")
    assert [s.query for s in of(events, ToolStarted)] == ["late"]  # run once it was known to be the answer
    assert visible(events) == "Plain answer, then \n\nIt echoed."
    # and the model is no longer presumed to start in its reasoning
    llm.queue(Stream(pieces("Fine.")))
    again = await collect(make_engine())
    assert visible(again) == "Fine." and of(again, Retract) == [] and reasoning(again) == ""


async def test_a_server_that_parts_reasoning_out_ends_the_presumption(llm, make_engine) -> None:
    llm.queue(Stream(pieces("Hm.\n</think>\nHi.")),
              Stream(pieces("The answer. " + block("echo", "y")), reasoning=["Thinking apart."]),
              Stream(pieces("ok")))
    await collect(make_engine())
    events = await collect(make_engine())
    assert reasoning(events) == "Thinking apart." and of(events, Retract) == []
    assert [s.query for s in of(events, ToolStarted)] == ["y"]
    assert visible(events) == "The answer. \n\nok"


async def test_a_block_before_the_bare_close_keeps_the_text_around_its_card(llm, make_engine) -> None:
    # A card already shown is not taken back, nor the text around it; the close itself is dropped.
    llm.queue(Stream(pieces("Let me " + block("echo", "early") + " see.\n</think>\nAnswer.")),
              Stream(pieces("Got it.</think>fin")))
    events = await collect(make_engine())
    assert of(events, Retract) == [] and [s.query for s in of(events, ToolStarted)] == ["early"]
    assert visible(events) == "Let me  see.\n\nAnswer.\n\nfin"  # the close is dropped
    assert reasoning(events) == "Got it."  # the next round started as reasoning


async def test_an_answer_showing_the_tag_in_a_code_block_is_left_alone(llm, make_engine) -> None:
    text = "Models end their thoughts with\n```\n</think>\n```\nas here."
    llm.queue(Stream(pieces(text)))
    events = await collect(make_engine())
    assert visible(events) == text and of(events, Retract) == [] and reasoning(events) == ""


@pytest.mark.parametrize("after, says", [(["\n\n"], "The model only reasoned and gave no answer"),
                                         (["\n\nIt is"], "The answer was cut short")])
async def test_reasoning_sent_apart_then_a_bare_close_still_counts_when_the_reply_runs_out(
        llm, make_engine, after, says) -> None:
    # The server sent the reasoning as reasoning_content, and the close in the text with nothing before it:
    # the engine forgot the model had reasoned, and a reply that then ran out of tokens was "cut short"
    llm.queue(Stream(["</th", "ink>", *after], reasoning=["Let me ", "think."], finish="length"))
    events = await collect(make_engine())
    (err,) = of(events, EngineError)
    assert err.message.startswith(says) and reasoning(events) == "Let me think."


@pytest.mark.parametrize("end", ["cut", "length"])
async def test_presumed_reasoning_cut_short_stays_reasoning(llm, make_engine, end) -> None:
    # A reply that broke off, or ran out of tokens, inside its reasoning was reasoning still: it is not made
    # the answer, and the model is still presumed to start in it.
    thought = ["Long ", "thoughts ", block("echo", "no")]
    llm.queue(Stream(pieces("Hm.\n</think>\nHi.")),
              Stream(thought, cut_after=3) if end == "cut" else Stream(thought, finish="length"))
    await collect(make_engine())
    events = await collect(make_engine())
    assert of(events, Retract) == [] and of(events, ToolStarted) == []
    assert reasoning(events) == "".join(thought)
    assert engine_module._OPENS_THINKING  # still presumed


async def test_reasoning_that_imagines_its_calls_results_is_not_made_the_answer(llm, make_engine) -> None:
    # Still thinking, the model wrote a block and went on as if its results had come; the server stopped it
    # at <tool_results>, with no </think>: it was made the answer, and the block ran (the review's case)
    llm.queue(Stream(pieces("Hm.\n</think>\nHi.")),
              Stream(["I might call ", block("echo", "thought"), " and would then see "]))
    await collect(make_engine())
    events = await collect(make_engine())
    assert of(events, ToolStarted) == [] and of(events, Retract) == []
    assert reasoning(events) == "I might call " + block("echo", "thought") + " and would then see "
    assert engine_module._OPENS_THINKING  # still presumed



async def test_an_answer_that_goes_on_past_its_call_and_ends_its_turn_runs_the_call(llm, make_engine) -> None:
    # A sentence after the call, then the end of the turn, with no </think>: the answer, not reasoning that
    # imagined the results. It stayed reasoning: the call never ran, and a second round was asked for.
    said = "Let me compute. " + block("echo", "25") + " Then I will explain."
    llm.queue(Stream(pieces("Hm, 2+2 is 4.</think>The answer is 4.")), Stream(pieces(said)), Stream(["It is 25."]))
    await collect(make_engine())
    events = await collect(make_engine())
    retract, *_ = of(events, Retract)  # and the next round's, presumed to be reasoning too until it ends
    assert (retract.text, retract.channel) == (said, "reasoning")
    assert [s.query for s in of(events, ToolStarted)] == ["25"]
    assert visible(events) == "Let me compute.  Then I will explain.\n\nIt is 25."
    assert not engine_module._OPENS_THINKING  # the second round's reply, with no call, shows it


async def test_a_sentence_after_a_call_alone_does_not_unlearn_the_model(llm, make_engine) -> None:
    # Reasoning the server stopped at the results it began to imagine may end on a whole sentence too ("Now let
    # me look at the result.\n"): the model was noted in thinking-models.json as not thinking for good
    said = "I might call " + block("echo", "x") + "\n\nNow let me look at the result.\n"
    llm.queue(Stream(pieces("Hm.\n</think>\nHi.")), Stream(pieces(said)), Status(500, {"error": "stopped"}))
    await collect(make_engine())
    events = await collect(make_engine())
    assert [s.query for s in of(events, ToolStarted)] == ["x"]  # taken as the answer all the same
    assert engine_module._OPENS_THINKING


async def test_an_answer_that_never_closes_its_presumed_reasoning_with_no_call_unlearns_the_model(
        llm, make_engine) -> None:
    llm.queue(Stream(pieces("Hm.\n</think>\nHi.")), Stream(pieces("It is 4.")))
    await collect(make_engine())
    assert visible(await collect(make_engine())) == "It is 4."
    assert not engine_module._OPENS_THINKING


async def test_reasoning_the_server_says_it_stopped_past_its_call_stays_reasoning(llm, make_engine) -> None:
    # vLLM, which honoured the stop sequence, says so in its last chunk ("stop_reason"): the whole sentence
    # before it was taken as the answer, the call run, and the model noted as not thinking
    thought = "I might call " + block("echo", "x") + "\n\nNow let me look at the result.\n"
    last = {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop", "stop_reason": "<tool_res"}]}
    llm.queue(Stream(pieces("Hm.\n</think>\nHi.")),
              Raw([_chunk(thought), f"data: {json.dumps(last)}\n\n", "data: [DONE]\n\n"]))
    await collect(make_engine())
    events = await collect(make_engine())
    assert of(events, ToolStarted) == [] and of(events, Retract) == [] and reasoning(events) == thought
    assert engine_module._OPENS_THINKING


@pytest.mark.parametrize("end", ["．", "｡", "؟", "।", "。"])
def test_a_sentence_ended_in_another_script_after_a_call_is_an_answer(end) -> None:
    assert not thought_past_a_call("计算 " + block("echo", "25") + " 然后我会解释" + end, False)
    assert thought_past_a_call("计算 " + block("echo", "25") + " 然后我会解释", False)


def _chunk(text: str) -> str:
    chunk = {"choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]}
    return f"data: {json.dumps(chunk)}\n\n"


async def test_reasoning_the_engine_saw_stopped_past_its_call_stays_reasoning(llm, make_engine) -> None:
    # A server that ignores the stop sequences: the engine sees the made-up results start, whole sentence or not
    thought = "I might call " + block("echo", "x") + " Then I see.\n"
    llm.queue(Stream(pieces("Hm.\n</think>\nHi.")), Stream([thought, "<tool_results>25</tool_results>"]))
    await collect(make_engine())
    events = await collect(make_engine())
    assert of(events, ToolStarted) == [] and of(events, Retract) == [] and reasoning(events) == thought
    assert engine_module._OPENS_THINKING

async def test_the_next_start_knows_the_model_from_its_first_reply(llm, make_engine, tmp_path) -> None:
    # Learnt anew at every start, the first reply of each session showed its reasoning as the answer and
    # ran the blocks in it; the data folder keeps what was learnt
    llm.queue(Stream(pieces("Hm.\n</think>\nHi.")))
    await collect(make_engine())
    assert json.loads((tmp_path / engine_module.THINKING_MODELS).read_text()) == [[llm.base_url, "scripted"]]
    engine_module._OPENS_THINKING.clear()  # as a new process starts
    engine_module._READ_FROM.clear()
    llm.queue(Stream(pieces("Call " + block("echo", "no") + " maybe.</think>Hello.")))
    events = await collect(make_engine())
    assert of(events, ToolStarted) == [] and answer(events) == "Hello."
    # a reply that shows the presumption wrong takes the model out of the file too
    llm.queue(Stream(pieces("A plain answer.")))
    await collect(make_engine())
    assert json.loads((tmp_path / engine_module.THINKING_MODELS).read_text()) == []


async def test_a_model_noted_by_another_program_meanwhile_stays_in_the_file(llm, make_engine, tmp_path) -> None:
    # `ask` in a terminal noted a model after the window had read the file: the window's next note wrote its
    # own list over the file, and the next start no longer knew that model
    llm.queue(Stream(pieces("A plain answer.")))
    await collect(make_engine())  # the file read, with nothing in it
    other = ["http://127.0.0.1:9/v1", "qwq"]
    (tmp_path / engine_module.THINKING_MODELS).write_text(json.dumps([other]))
    llm.queue(Stream(pieces("Hm.\n</think>\nHi.")))
    await collect(make_engine())
    noted = json.loads((tmp_path / engine_module.THINKING_MODELS).read_text())
    assert sorted(noted) == sorted([other, [llm.base_url, "scripted"]])


@pytest.mark.parametrize("damage", ["{not json", "[" * 100_000])
async def test_a_damaged_file_of_models_is_learnt_again(llm, make_engine, tmp_path, damage, caplog) -> None:
    # brackets nested 100,000 deep ended the answer in a RecursionError (the fuzzing review's case)
    (tmp_path / engine_module.THINKING_MODELS).write_text(damage)
    llm.queue(Stream(pieces("Hm.\n</think>\nHi.")))
    events = await collect(make_engine())
    assert answer(events) == "\nHi." and (llm.base_url, "scripted") in engine_module._OPENS_THINKING
    assert f"could not read {tmp_path / engine_module.THINKING_MODELS}" in caplog.text


async def test_the_close_is_noted_in_the_data_folder_off_the_event_loop(llm, make_engine, monkeypatch) -> None:
    # Noted on the loop, a file held by another program (its lock) stopped every answer and the window's
    # events for up to a second.
    import threading

    noted = []
    monkeypatch.setattr(engine_module, "_learn", lambda *args: noted.append(threading.current_thread()))
    llm.queue(Stream(pieces(THOUGHT + "</think>\n\nIt is **4**.")))
    await collect(make_engine())
    assert noted and threading.main_thread() not in noted
