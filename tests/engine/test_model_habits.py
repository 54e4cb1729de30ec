"""What real small local models write, played against the engine: empty rounds after tools, calls in other
chat templates' formats, blocks left open, made-up results, calls in reasoning, other names for the tools."""

from __future__ import annotations

import pytest

from tests.engine.conftest import collect
from tests.engine.test_engine import of, tokens, visible
from tests.sse_server import Stream
from tinyrag_desktop.engine import EngineConfig, advice
from tinyrag_desktop.engine.events import Done, EngineError, Text, ToolFinished, ToolStarted
from tinyrag_desktop.markdown_prep import invalid_blocks, invalid_mark, round_pieces

CALL = '<tool name="calculate"><query>2+2</query></tool>'


def told(llm, request: int) -> str:
    """What the engine said to the model at the end of that request (its last user message)."""
    return llm.requests[request]["messages"][-1]["content"]


# -- A: nothing to read after the tools ran ---------------------------------------------------------------

@pytest.mark.parametrize("blank", [
    Stream([]),  # the server stopped it at once: it began by copying <tool_results>
    Stream([], reasoning=tokens("The result is 4 so I answer 4.")),  # reasoning only, ended by the model
    Stream(tokens("<think>The result is 4.</think>\n")),
])
async def test_an_empty_round_after_tools_gets_one_more_round_told_to_answer(llm, make_engine, blank) -> None:
    # The answer ended on the card, not a word said, and `ask` exited 0.
    llm.queue(Stream(tokens(CALL)), blank, Stream(tokens("It is 4.")))
    events = await collect(make_engine(), "What is 2+2?")
    assert [r.status for r in of(events, ToolFinished)] == ["ok"] and not of(events, EngineError)
    assert len(llm.requests) == 3 and visible(events).endswith("It is 4.")
    note = told(llm, 2)
    assert "Your last message was empty" in note and "Do not write <tool_results> or <result> tags" in note
    assert "<tool_results>" not in note.split("Note:", 1)[0]  # no results sent again, only the note


async def test_an_answer_still_empty_after_that_round_ends_with_words_why(llm, make_engine) -> None:
    llm.queue(Stream(tokens(CALL)), Stream([]), Stream([], reasoning=["Hmm."]), Stream(["never asked"]))
    events = await collect(make_engine(), "What is 2+2?")
    assert len(llm.requests) == 3 and not of(events, EngineError)
    said = visible(events)
    assert "after its tools ran, the model only reasoned and wrote no answer" in said
    assert "never asked" not in said and "never asked" not in events[-1].transcript
    notes = [e for e in of(events, Text) if e.note]
    assert len(notes) == 1 and "The answer ends here" in notes[0].text


async def test_an_empty_round_after_tools_with_no_round_left_ends_with_words_why(llm, make_engine) -> None:
    llm.queue(Stream(tokens(CALL)), Stream([]), Stream(["never asked"]))
    events = await collect(make_engine(EngineConfig(max_continuations=1)), "What is 2+2?")
    assert len(llm.requests) == 2  # at most 1 + max_continuations rounds
    assert "after its tools ran, the model wrote no answer" in visible(events)


async def test_an_empty_reply_with_no_tools_is_still_an_error(llm, make_engine) -> None:
    llm.queue(Stream([]), Stream(["never asked"]))
    events = await collect(make_engine())
    (err,) = of(events, EngineError)
    assert "empty answer" in err.message and len(llm.requests) == 1


# -- B: calls in other chat templates' formats ------------------------------------------------------------

@pytest.mark.parametrize("written", [
    '<tool_call>\n{"name": "calculate", "arguments": {"query": "2+2"}}\n</tool_call>',  # Qwen 2.5, Hermes
    '{"name": "calculate", "parameters": {"query": "2+2"}}',  # Llama 3.x
    '<|python_tag|>{"name": "calculate", "parameters": {"query": "2+2"}}<|eom_id|>',
    '<|python_tag|>calculate.call(query="2+2")',
    '[TOOL_CALLS] [{"name": "calculate", "arguments": {"query": "2+2"}}]',  # Mistral
    '[TOOL_CALLS]calculate[ARGS]{"query": "2+2"}',
    '<|tool_call|>[{"name": "calculate", "arguments": {"query": "2+2"}}]<|/tool_call|>',  # Phi-4
    '```tool_code\ncalculate(query="2+2")\n```',  # Gemma
    '<function=calculate>{"query": "2+2"}</function>',  # Llama 3.1, custom tools
    'Let me use the calculator.\n```json\n{"name": "calculator", "arguments": {"query": "2+2"}}\n```\n',
])
async def test_a_call_in_another_templates_format_is_not_run_and_gets_one_round_to_write_it(
        llm, make_engine, written) -> None:
    # It showed as the answer, with no round to correct it.
    llm.queue(Stream(tokens(written)), Stream(tokens(CALL)), Stream(tokens("It is 4.")))
    events = await collect(make_engine(), "What is 2+2?")
    (start,) = of(events, ToolStarted)
    assert start.round == 2 and (start.tool, start.query) == ("calculate", "2+2")  # only the block ran
    assert visible(events).startswith(written) and visible(events).endswith("It is 4.")
    # The reader sees the call as written, then why it did not run (it was raw JSON and no word).
    assert visible(events)[len(written):].startswith(f"\n\n*{advice.FOREIGN_ASIDE}*\n\n")
    note = told(llm, 1)
    assert "was not run: it is written in another format" in note
    assert f"only a block like this one, written as plain text, calls a tool: {CALL}" in note


@pytest.mark.parametrize("answer", [
    '{"name": "Alice", "arguments": {"age": 30}}',  # JSON the user asked for, naming no tool
    'Here is the record:\n```json\n{"name": "nobody", "parameters": {"query": "x"}}\n```',
    "```python\nprint(total(query='x'))\n```",
    'I could call {"name": "calculate", "arguments": {"query": "2+2"}} but 2+2 is simply 4.',  # not at the end
])
async def test_json_or_code_that_calls_no_tool_of_ours_is_an_answer(llm, make_engine, answer) -> None:
    llm.queue(Stream(tokens(answer)), Stream(["never asked"]))
    events = await collect(make_engine())
    assert len(llm.requests) == 1 and visible(events) == answer  # and no aside on it


async def test_a_call_in_another_format_to_a_tool_that_is_off_is_an_answer(llm, make_engine) -> None:
    llm.queue(Stream(tokens('{"name": "off", "arguments": {"query": "x"}}')), Stream(["never asked"]))
    await collect(make_engine())
    assert len(llm.requests) == 1


# -- C, E: a block left open at a normal end, or written without <query> or quotes ------------------------

@pytest.mark.parametrize("written, why", [
    ('I will calculate. <tool name="calculate"><query>2+2</query>', "the block was not closed with </tool>"),
    ('<tool name="calculate"><query>2+2', "the block was not closed with </tool>"),
    ('<tool name="calculate"><query>2+2</query></tool >', "its end tag has a space in it; it must be exactly </tool>"),
    ('<tool name="calculate">2+2</tool>', "the block has no content element"),
    ('<tool name=calculate><query>2+2</query></tool>', "attribute values must be quoted"),
])
async def test_a_block_written_wrong_is_not_run_and_the_model_is_told_the_real_reason(
        llm, make_engine, written, why) -> None:
    # Left open at a normal end, it got no round more; without <query> or quotes, the model was told it
    # wrote "other than exactly <tool name=…>".
    llm.queue(Stream(tokens(written)), Stream(tokens(CALL)), Stream(tokens("It is 4.")))
    events = await collect(make_engine(), "What is 2+2?")
    (start,) = of(events, ToolStarted)
    assert start.round == 2 and visible(events).endswith("It is 4.")
    note = told(llm, 1)
    assert "was not run: it is not a valid block (" in note and why in note
    assert "written other than exactly" not in note
    # The window marks the block as a call not run, with the same reason; the next round's words, read on
    # their own as the engine read them, are not taken into a block never closed (they showed as code in it).
    (done,) = of(events, Done)
    pieces = round_pieces(done.transcript, done.round_starts)
    assert [piece.strip() for piece in pieces] == [written, CALL, "It is 4."]
    found = [block for piece in pieces for block in invalid_blocks(piece)[1]]
    assert len(found) == 1 and why in found[0][1] and "It is 4." not in found[0][0]


async def test_a_block_cut_at_the_length_limit_gets_no_round_more(llm, make_engine) -> None:
    llm.queue(Stream(tokens('Let me check. <tool name="calculate"><query>2+'), finish="length"), Stream(["no"]))
    events = await collect(make_engine())
    (err,) = of(events, EngineError)
    assert err.kind == "length" and len(llm.requests) == 1



@pytest.mark.parametrize("after", ["", "\n\nThat should do it."])
async def test_a_block_past_the_parsers_limit_is_marked_whole_and_the_model_told_to_keep_it_short(
        llm, make_engine, after) -> None:
    # Cut at 200,000 characters, its rest came as prose: the block was shown as text with no reason, and the
    # answer ended on it, the model never told
    huge = '<tool name="calculate"><query>' + "1+" * 110_000 + "1</query></tool>"
    streamed = ["Try ", *(huge[at : min(at + 4096, len(huge) - 3)] for at in range(0, len(huge) - 3, 4096)),
                huge[-3:], after]  # its end tag split too
    llm.queue(Stream(streamed), Stream(tokens(CALL)), Stream(tokens("It is 4.")))
    events = await collect(make_engine(), "What is 2+2?")
    if after:  # the message went on after it: the answer, not a call waiting
        assert len(llm.requests) == 1
    else:
        (start,) = of(events, ToolStarted)
        assert start.round == 2 and visible(events).endswith("It is 4.")
        assert ("was not run: it is longer than a tool call may be (no </tool> within 200000 characters)"
                in told(llm, 1))
    (done,) = of(events, Done)
    first = round_pieces(done.transcript, done.round_starts)[0]
    shown, found = invalid_blocks(first)
    assert found == [(huge, "no </tool> within 200000 characters")]
    assert shown == "Try " + invalid_mark(0) + after


@pytest.mark.parametrize("context_tokens", [0, 131072])
async def test_a_block_past_the_parsers_limit_is_not_sent_back_whole(llm, make_engine, context_tokens) -> None:
    # Sent back whole with the note to write it again, the round after it needed some 187,000 tokens: with a
    # context of 131,072 it failed, "this question is longer than that … shorten the question"
    huge = '<tool name="calculate"><query>' + "1+" * 110_000 + "1</query></tool>"
    llm.queue(Stream(["Try ", *(huge[at:at + 4096] for at in range(0, len(huge), 4096))]), Stream(["It is 4."]))
    events = await collect(make_engine(context_tokens=context_tokens), "What is 2+2?")
    assert not of(events, EngineError) and visible(events).endswith("It is 4.")
    sent_back = llm.requests[1]["messages"][-2]["content"]
    assert sent_back.startswith('Try <tool name="calculate"><query>1+1+') and sent_back.endswith("+1</query></tool>")
    assert f" … ({len(huge):,} characters of this tool call left out) … " in sent_back and len(sent_back) < 3_000


def test_only_blocks_past_the_limit_are_cut_in_what_is_sent_back() -> None:
    short, long = '<tool name="echo"><query>hi</query></tool>', '<tool name="echo"><query>' + "x" * 50
    reply = f"A {short} B {long}</query></tool>{short} C {long}"
    assert advice.without_long_blocks(reply, most=len(short)) == (
        f"A {short} B <tool name" " … (90 characters of this tool call left out) … " "ry></tool>"
        f"{short} C <tool name" " … (75 characters of this tool call left out) … " "xxxxxxxxxx")
    assert advice.without_long_blocks(reply, most=len(reply)) == reply


# -- D: results the model makes up ------------------------------------------------------------------------

@pytest.mark.parametrize("made_up", [
    '\n<tool_response>\n{"result": 5}\n</tool_response>\nThe result is 5.',  # Qwen, Hermes
    '\n<tool_result name="calculate">5</tool_result>\nSo 2+2 is 5.',
    '\n<tool_results>\n<result id="call_1">5</result>\n</tool_results>\nSo 2+2 is 5.',
])
async def test_results_made_up_after_a_call_are_never_shown(llm, make_engine, made_up) -> None:
    # The scripted server, like some real ones, does not stop where asked: the engine stops the reply itself.
    llm.queue(Stream(tokens(CALL + made_up)), Stream(tokens("It is 4.")))
    events = await collect(make_engine(), "What is 2+2?")
    said = visible(events)
    assert "5" not in said and "tool_res" not in said and said.endswith("It is 4.")
    assert llm.requests[1]["messages"][-2]["content"] == CALL + "\n"  # what was stopped is not sent back either
    assert "5" not in events[-1].transcript
    assert all(r["stop"] == ["<tool_res", '<result id="call_'] for r in llm.requests)


async def test_a_round_that_begins_by_echoing_a_result_is_stopped_and_told_to_answer(llm, make_engine) -> None:
    echoed = '<result id="call_1" tool="calculate" status="ok" source="calculator">\n2+2 = 4\n</result>\nSo 4.'
    llm.queue(Stream(tokens(CALL)), Stream(tokens(echoed)), Stream(tokens("It is 4.")))
    events = await collect(make_engine(), "What is 2+2?")
    assert "<result" not in visible(events) and visible(events).endswith("It is 4.")
    assert "Your last message was empty" in told(llm, 2)


async def test_a_result_tag_written_as_code_before_any_call_is_kept(llm, make_engine) -> None:
    text = "Results come back as `<result>` elements."  # not a stop sequence: nothing is cut
    llm.queue(Stream(tokens(text)))
    events = await collect(make_engine())
    assert visible(events) == text


# -- F: a call written in the reasoning only --------------------------------------------------------------

@pytest.mark.parametrize("reply", [
    Stream([], reasoning=tokens("I should call " + CALL)),
    Stream(tokens("<think>I should call " + CALL + "</think>")),
])
async def test_a_call_in_the_reasoning_only_is_not_run_and_the_model_is_told_where_to_write_it(
        llm, make_engine, reply) -> None:
    # It was blamed on a length limit ("its reasoning may have used up the server's limit…").
    llm.queue(reply, Stream(tokens(CALL)), Stream(tokens("It is 4.")))
    events = await collect(make_engine(), "What is 2+2?")
    (start,) = of(events, ToolStarted)
    assert start.round == 2 and not of(events, EngineError) and visible(events).endswith("It is 4.")
    assert "A tool call in your reasoning is not run" in told(llm, 1)


async def test_a_call_in_the_reasoning_again_ends_with_an_error_that_blames_no_limit(llm, make_engine) -> None:
    reply = Stream([], reasoning=tokens("I should call " + CALL))
    llm.queue(reply, reply, Stream(["never asked"]))
    events = await collect(make_engine())
    (err,) = of(events, EngineError)
    assert len(llm.requests) == 2 and "only reasoned" in err.message and "limit" not in err.message


# -- G: other names for the tools -------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["calculator", "calc", "Calculator"])
async def test_a_common_other_name_for_a_tool_runs_that_tool_and_the_model_is_told_its_name(
        llm, make_engine, name) -> None:
    llm.queue(Stream(tokens(f'<tool name="{name}"><query>2+2</query></tool>')), Stream(tokens("It is 4.")))
    events = await collect(make_engine(), "What is 2+2?")
    (result,) = of(events, ToolFinished)
    assert (result.tool, result.status) == ("calculate", "ok")
    assert f"There is no tool called “{name}”; your call ran as calculate" in told(llm, 1)


async def test_an_other_name_for_a_tool_that_is_not_there_is_still_unknown(llm, make_engine) -> None:
    llm.queue(Stream(tokens('<tool name="wiki"><query>x</query></tool>')), Stream(["ok"]))
    events = await collect(make_engine())
    (result,) = of(events, ToolFinished)
    assert result.status == "error" and "There is no tool called “wiki”" in result.error
