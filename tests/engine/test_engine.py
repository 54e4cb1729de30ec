"""The engine against a loopback server that streams scripted SSE in small random pieces."""

from __future__ import annotations

import asyncio

import pytest

from tests.engine.conftest import collect
from tests.sse_server import Hang, Status, Stream, free_port
from tinyrag_desktop.engine import EngineConfig, advice
from tinyrag_desktop.engine.events import (Done, EngineError, ModelChosen, Reasoning, Route, Text, ToolFinished,
                                           ToolStarted)


def block(tool: str, content: str, param: str = "query") -> str:
    return f'<tool name="{tool}"><{param}>{content}</{param}></tool>'


def tokens(text: str, size: int = 3) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def of(events: list, kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def visible(events: list) -> str:
    return "".join(e.text for e in of(events, Text))


def answer(events: list) -> list:
    """The events without the engine's asides on the text (why a call shown as code did not run)."""
    return [e for e in events if not (isinstance(e, Text) and e.aside)]


async def test_one_tool_and_a_continuation(llm, make_engine) -> None:
    llm.queue(
        Stream(tokens("Let me compute. " + block("calculate", "3 * (17 + 5) / 2") + " ")),
        Stream(tokens("The answer is 33.")),
    )
    events = await collect(make_engine(), "What is 3 * (17 + 5) / 2?")
    assert isinstance(events[0], Route) and events[0].mode == "tools" and "calculate" in events[0].hints
    (start,) = of(events, ToolStarted)
    (result,) = of(events, ToolFinished)
    assert (start.tool, start.query, start.id) == ("calculate", "3 * (17 + 5) / 2", result.id)
    assert result.status == "ok" and result.result.endswith("= 33") and result.source == "calculator"
    assert result.result_bytes == len(result.result.encode()) and result.error is None
    assert events.index(start) < events.index(result)
    assert visible(events).startswith("Let me compute. ") and visible(events).endswith("The answer is 33.")
    done = events[-1]
    assert isinstance(done, Done) and (done.rounds, done.tools_run) == (2, 1)
    assert block("calculate", "3 * (17 + 5) / 2") in done.transcript  # raw XML stays in the transcript
    # The continuation sent the round's text and the results back, delimited as untrusted data.
    second = llm.requests[1]["messages"]
    assert second[-2]["role"] == "assistant" and block("calculate", "3 * (17 + 5) / 2") in second[-2]["content"]
    assert second[-1]["role"] == "user" and "<tool_results>" in second[-1]["content"]
    assert "= 33" in second[-1]["content"] and "untrusted" in second[-1]["content"]
    assert llm.requests[0]["stream"] is True and llm.requests[0]["model"] == "scripted"
    # Every round asks the server to stop where a model starts inventing its tools' results.
    assert all(r["stop"] == ["<tool_res", '<result id="call_'] for r in llm.requests)


async def test_tool_starts_while_the_stream_goes_on(llm, make_engine) -> None:
    llm.queue(Stream(tokens(block("echo", "early") + " and a long tail " * 30, 2), delay=0.005), Stream(["ok"]))
    events = await collect(make_engine())
    result = of(events, ToolFinished)[0]
    first_round_text = "".join(e.text for e in of(events[events.index(result) :], Text))
    assert "a long tail" in first_round_text, "the result arrived only after the whole stream"


async def test_five_blocks_in_one_round_respect_the_per_round_limit(llm, make_engine) -> None:
    text = " ".join(block("echo", f"n{i}") for i in range(5))
    llm.queue(Stream(tokens(text)), Stream(["done"]))
    events = await collect(make_engine())
    results = of(events, ToolFinished)
    assert [r.status for r in results].count("ok") == 3
    skipped = [r for r in results if r.status == "skipped"]
    assert len(skipped) == 2 and all("per round" in r.error for r in skipped)
    assert len(of(events, ToolStarted)) == 3
    assert len({r.id for r in results}) == 5


async def test_total_limit_across_rounds_and_skipped_calls_use_no_budget(llm, make_engine) -> None:
    llm.queue(
        Stream(tokens(" ".join(block("echo", f"a{i}") for i in range(4)))),  # 3 run, 1 skipped
        Stream(tokens(" ".join(block("echo", f"b{i}") for i in range(3)))),  # 2 run (total 5), 1 skipped
        Stream(tokens("final")),
    )
    events = await collect(make_engine())
    statuses = [r.status for r in of(events, ToolFinished)]
    assert statuses.count("ok") == 5 and statuses.count("skipped") == 2
    assert any("per answer" in (r.error or "") for r in of(events, ToolFinished))
    assert events[-1].tools_run == 5


async def test_duplicates_are_skipped(llm, make_engine) -> None:
    llm.queue(Stream(tokens(block("echo", "same") + block("echo", " same ") + block("echo", "other"))),
              Stream(["fin"]))
    results = of(await collect(make_engine()), ToolFinished)
    assert [r.status for r in results] == ["ok", "skipped", "ok"] or [r.status for r in results].count("skipped") == 1
    dup = [r for r in results if r.status == "skipped"][0]
    assert "duplicate" in dup.error and dup.query == "same"


async def test_continuation_cap(llm, make_engine) -> None:
    llm.queue(*[Stream(tokens(block("echo", f"r{i}"))) for i in range(10)])
    events = await collect(make_engine(EngineConfig(max_continuations=2, max_tools_total=50)))
    assert events[-1].rounds == 3 and len(llm.requests) == 3
    assert len(of(events, ToolStarted)) == 3
    # the last result can never be read: the answer says so rather than end on a card, and what allows more
    said = visible(events)
    assert "still calling tools at the limit of 3 rounds per answer" in said
    assert "raise “Rounds after the first” in Settings → Limits (or --max-continuations)" in said
    assert "still calling" not in events[-1].transcript  # the app's words, not the model's


async def test_an_answer_ended_by_the_per_answer_limit_names_that_limit_not_the_rounds(llm, make_engine) -> None:
    # The calls ran out, not the rounds: the note said to raise “Rounds after the first”, and more rounds
    # would only have been refused the same way.
    rounds = [[f"{i}+{n}" for n in range(count)] for i, count in enumerate([3, 4, 1, 1])]
    llm.queue(*[Stream(tokens("".join(block("calculate", q) for q in qs))) for qs in rounds])
    events = await collect(make_engine(EngineConfig(max_tools_total=5, max_tools_per_round=3, max_continuations=3)))
    assert len(llm.requests) == 4 and events[-1].tools_run == 5
    said = visible(events)
    assert "the model's last tool call was not run (limit reached: at most 5 tool calls per answer)" in said
    assert "raise “Tool calls per answer” in Settings → Limits (or --max-tools-total) to allow more tool calls." \
        in said
    assert "Rounds after the first" not in said and "--max-continuations" not in said


async def test_the_results_that_start_the_last_round_say_it_is_the_last(llm, make_engine) -> None:
    # The model was never told: it called a tool in its last round, and the answer ended on the card.
    llm.queue(*[Stream(tokens(block("echo", f"r{i}"))) for i in range(2)], Stream(["It echoes r0 and r1."]))
    events = await collect(make_engine(EngineConfig(max_continuations=2)))
    assert visible(events).endswith("It echoes r0 and r1.") and len(llm.requests) == 3
    told = [r["messages"][-1]["content"] for r in llm.requests[1:]]
    assert "last round" not in told[0]
    assert "This is your last round: the result of any tool call you write now would not come back" in told[1]
    assert told[1].rstrip().endswith("question")  # the question still comes last


async def test_a_round_of_nothing_but_a_repeated_call_gets_one_more_round_to_answer(llm, make_engine) -> None:
    # The second round only repeated the first call: refused as a duplicate, it ended the answer on the
    # cards, with no text and no word of why.
    llm.queue(Stream(tokens("Let me compute. " + block("calculate", "6*7"))),
              Stream(tokens(block("calculate", "6*7"))),
              Stream(tokens("It is 42.")))
    events = await collect(make_engine(), "What is 6*7?")
    assert [r.status for r in of(events, ToolFinished)] == ["ok", "skipped"]
    assert len(llm.requests) == 3 and events[-1].rounds == 3 and events[-1].tools_run == 1
    assert visible(events).rstrip().endswith("It is 42.")
    told = llm.requests[2]["messages"][-1]["content"]
    assert "duplicate call" in told and "answer the question now from the results you already have" in told


async def test_a_repeated_call_in_the_last_round_ends_the_answer_with_why(llm, make_engine) -> None:
    llm.queue(Stream(tokens(block("calculate", "6*7"))), Stream(tokens(block("calculate", "6*7"))),
              Stream(["not asked for"]))
    events = await collect(make_engine(EngineConfig(max_continuations=1)), "What is 6*7?")
    assert len(llm.requests) == 2 and events[-1].rounds == 2  # the limit on rounds holds
    text = visible(events)
    assert "the model only repeated a tool call that had already run" in text
    assert "at most 2 rounds per answer" in text and "not asked for" not in text
    assert "raise “Rounds after the first” in Settings → Limits" in text  # never told: a round more may help


async def test_a_call_repeated_after_the_model_was_told_ends_the_answer_with_advice_that_fits(llm, make_engine) -> None:
    # Told that a repeated call does not run, it repeated it to the last round; the note said to raise
    # “Rounds after the first”, which would only have given it more rounds to repeat it in.
    llm.queue(*[Stream(tokens(block("calculate", "6*7"))) for _ in range(5)])
    events = await collect(make_engine(), "What is 6*7?")
    assert len(llm.requests) == 4 and [r.status for r in of(events, ToolFinished)] == ["ok"] + ["skipped"] * 3
    text = visible(events)
    assert "the model only repeated a tool call that had already run, instead of answering from its result" in text
    assert "Ask again, perhaps in other words, or choose another model in Settings." in text
    assert "Rounds after the first" not in text


async def test_a_repeated_call_the_model_writes_on_after_ends_the_answer_as_before(llm, make_engine) -> None:
    llm.queue(Stream(tokens(block("calculate", "6*7"))),
              Stream(tokens("Again: " + block("calculate", "6*7") + " So it is 42.")),
              Stream(["not asked for"]))
    events = await collect(make_engine(), "What is 6*7?")
    assert len(llm.requests) == 2 and visible(events).endswith(" So it is 42.")


async def test_a_tool_that_hangs_is_stopped_at_its_timeout(llm, make_engine, hanging) -> None:
    llm.queue(Stream(tokens(block("hang", "forever"))), Stream(["after"]))
    events = await collect(make_engine(EngineConfig(tool_timeout=0.3)))
    (result,) = of(events, ToolFinished)
    assert result.status == "error" and "0.3-second tool timeout" in result.error
    assert hanging.cancelled
    assert visible(events).endswith("after")


async def test_failing_unknown_disabled_and_wrong_element_tools_are_error_results(llm, make_engine) -> None:
    llm.queue(
        Stream(tokens(block("fail", "x") + block("nope", "y") + block("off", "z") + block("fetch", "q"))),
        Stream(["sorry"]),
    )
    events = await collect(make_engine(EngineConfig(max_tools_per_round=10)))
    by_tool = {r.tool: r for r in of(events, ToolFinished)}
    assert by_tool["fail"].status == "error" and "cannot do x" in by_tool["fail"].error
    assert "no tool called" in by_tool["nope"].error and "calculate (<query>)" in by_tool["nope"].error
    assert "disabled" in by_tool["off"].error and "--allow-off" in by_tool["off"].error
    assert "takes <url>" in by_tool["fetch"].error
    assert [s.tool for s in of(events, ToolStarted)] == ["fail"]  # the others were never run
    # The model is told, so it can correct itself next round, with the right syntax outside the results.
    sent = llm.requests[1]["messages"][-1]["content"]
    note = sent.split("</tool_results>", 1)[1]
    assert "Note: There is no tool called “nope”" in note and '<tool name="calculate"><query>' in note


async def test_invalid_nested_and_fenced_blocks_are_text(llm, make_engine) -> None:
    nested = '<tool name="a"><query>' + block("echo", "inner") + "</query></tool>"
    text = f'Bad: <tool name=""><query>x</query></tool> nested: {nested}\n```\n{block("echo", "fenced")}\n```\n'
    llm.queue(Stream(tokens(text, 2)), Stream(["Sorry: no tool then."]))
    events = await collect(make_engine())
    assert of(events, ToolStarted) == [] and of(events, ToolFinished) == []
    assert visible(answer(events)) == text + "\nSorry: no tool then."
    # The reader is told why the call shown as code did not run (the invalid blocks are marked where shown).
    fenced = advice.code_aside("a fenced code block")
    assert [e.text for e in events if isinstance(e, Text) and e.aside] == [f"\n\n*{fenced}*\n\n"]
    # The message ended on the fenced call, waiting for its result: the model is told why none came.
    assert events[-1].rounds == 2 and len(llm.requests) == 2
    note = llm.requests[1]["messages"][-1]["content"]
    assert note.startswith("Note: The tool call your last message ends with was not run: it is inside a fenced code "
                           "block") and "<tool_results>" not in note


@pytest.mark.parametrize("outer", ['<tool name="echo">hi ', "<tool name=echo>"])
async def test_a_call_nested_in_a_block_already_invalid_does_not_run(llm, make_engine, outer) -> None:
    # The outer block, invalid before the inner "<tool " came, ended there: calculate ran, and the window
    # showed '<tool name="echo">hi </tool> done' around its card (spec rule 4: nested blocks are a parse error).
    nested = outer + block("calculate", "1+1") + "</tool>"
    llm.queue(Stream(tokens(nested + " done", 2)), Stream(["Sorry: no tool then."]))
    events = await collect(make_engine())
    assert of(events, ToolStarted) == [] and of(events, ToolFinished) == []
    assert visible(answer(events)).startswith(nested + " done")
    assert nested in events[-1].transcript


@pytest.mark.parametrize("written, where", [
    ("```xml\n" + block("echo", "hi") + "\n```", "a fenced code block"),
    ("`" + block("echo", "hi") + "`", "an inline code span (between backticks)"),
    ("\n    " + block("echo", "hi"), "an indented code block (lines four spaces in)"),  # after a blank line
    ('<tool\nname="echo"><query>hi</query></tool>', ""),  # no space after <tool
    ('<TOOL name="echo"><query>hi</query></TOOL>', ""),
    ('<tool name=""><query>hi</query></tool>', ""),  # invalid: the note gives the parser's reason
    ("<!-- " + block("echo", "hi") + " -->", "an HTML comment (<!-- … -->)"),  # hidden from the reader
    # in a Markdown construct (spec rule 5): invalid blocks that say where they are
    ("> " + block("echo", "hi"), "a quote, its line starting with >"),
    ("- " + block("echo", "hi"), "a list item, its line starting with a list marker (- or 1.)"),
    ("**" + block("echo", "hi") + "**", "emphasis, * or _ just before it"),
    ("<details>" + block("echo", "hi") + "</details>", "an HTML element, <details> just before it"),
    ("| " + block("echo", "hi") + " |", "a table row, its line starting with |"),
    ("## " + block("echo", "hi"), "a heading, its line starting with #"),
    ("~~" + block("echo", "hi") + "~~", "strikethrough, ~~ just before it"),
    ("[" + block("echo", "hi") + "](https://example.com/x)", "a link's text or an image's alt text, [ just before it"),
])
async def test_a_call_written_wrong_at_the_end_gets_one_more_round_to_write_it_right(llm, make_engine,
                                                                                     written, where) -> None:
    # The answer ended on the code block, with no result and no word why (small models write calls so).
    llm.queue(Stream(tokens("Let me check.\n" + written + "\n")), Stream(tokens(block("echo", "hi"))),
              Stream(["It says hi."]))
    events = await collect(make_engine())
    assert [(r.tool, r.status) for r in of(events, ToolFinished)] == [("echo", "ok")]
    assert visible(events).endswith("It says hi.") and events[-1].rounds == 3
    note = llm.requests[1]["messages"][-1]["content"]
    assert "was not run" in note and '<tool name="calculate"><query>2 + 2</query></tool>' in note
    asides = [e.text.strip() for e in events if isinstance(e, Text) and e.aside]
    if 'name=""' in written:
        assert "it is not a valid block (the block has no name" in note
        assert asides == []  # the window marks an invalid block where it is shown, `ask` at the end
    elif where.startswith(("a quote", "a list", "emphasis", "an HTML element", "a table", "a heading", "strike",
                           "a link")):  # marked where it is shown
        assert f"was not run: it is inside {where}. If you need the tool, write the call again as plain text, on its " \
               "own" in note
        assert asides == []
    else:  # shown as code: the reader is told why it did not run (the code named), once, after it
        aside = advice.code_aside(where) if where else advice.MISWRITTEN_ASIDE
        assert asides == [f"*{aside}*"]
        assert (f"it is inside {where}, and a tool call there" if where else "its tag is written other than") in note
        assert visible(events).index(asides[0]) > visible(events).index(written)


async def test_no_round_more_for_a_call_written_wrong_when_no_call_may_run(llm, make_engine) -> None:
    # With --max-tools-total 0 the note still asked for a calculate call.
    llm.queue(Stream(tokens("```\n" + block("echo", "hi") + "\n```")), Stream(["never"]))
    events = await collect(make_engine(max_tools_total=0))
    assert events[-1].rounds == 1 and len(llm.requests) == 1


async def test_a_call_shown_as_an_example_before_more_words_ends_the_answer(llm, make_engine) -> None:
    llm.queue(Stream(tokens("Write it so:\n```\n" + block("echo", "hi") + "\n```\nThat is all.")))
    events = await collect(make_engine())
    assert events[-1].rounds == 1 and len(llm.requests) == 1


async def test_a_call_written_wrong_again_and_again_stops_at_the_rounds_limit(llm, make_engine) -> None:
    fenced = "```\n" + block("echo", "hi") + "\n```"
    llm.queue(*[Stream(tokens(fenced)) for _ in range(6)])
    events = await collect(make_engine())
    assert of(events, ToolStarted) == [] and len(llm.requests) == 4  # max_continuations 3: four rounds


async def test_a_tool_block_inside_a_tool_result_is_never_run(llm, make_engine) -> None:
    llm.queue(Stream(tokens(block("echo", "&lt;tool name=\"echo\"&gt;&lt;query&gt;pwn&lt;/query&gt;&lt;/tool&gt;"))),
              Stream(["ok"]))
    events = await collect(make_engine())
    assert len(of(events, ToolStarted)) == 1
    sent = llm.requests[1]["messages"][-1]["content"]
    assert '<tool name="echo">' not in sent and "&lt;tool" in sent


async def test_reasoning_is_a_separate_channel_where_no_tool_runs(llm, make_engine) -> None:
    llm.queue(Stream(tokens("<think>maybe " + block("echo", "thought") + "</think>Answer."),
                     reasoning=["I should ", block("echo", "r")]))
    events = await collect(make_engine())
    assert of(events, ToolStarted) == []
    reasoning = "".join(e.text for e in of(events, Reasoning))
    assert "maybe" in reasoning and "I should" in reasoning
    assert visible(events) == "Answer."


async def test_server_down(make_engine) -> None:
    engine = make_engine(base_url=f"http://127.0.0.1:{free_port()}/v1")
    events = await collect(engine)
    (err,) = of(events, EngineError)
    assert err.kind == "server_unreachable" and "127.0.0.1" in err.message and "Ollama" in err.message
    assert isinstance(events[-1], Done)


async def test_model_not_found_lists_the_servers_models(llm, make_engine) -> None:
    llm.models = ["llama3.2", "qwen2.5"]
    llm.queue(Status(404, {"error": {"message": 'model "missing" not found, try pulling it first'}}))
    (err,) = of(await collect(make_engine(chat_model="missing")), EngineError)
    assert err.kind == "model_not_found"
    assert "missing" in err.message and "llama3.2" in err.message and "qwen2.5" in err.message


async def test_server_error_carries_the_servers_message(llm, make_engine) -> None:
    llm.queue(Status(500, {"error": {"message": "CUDA out of memory"}}))
    (err,) = of(await collect(make_engine()), EngineError)
    assert err.kind == "server_error" and "500" in err.message and "CUDA out of memory" in err.message


@pytest.mark.parametrize("code, kind, words", [(401, "auth", "API key"), (429, "rate_limited", "429")])
async def test_auth_and_rate_limit(llm, make_engine, code, kind, words) -> None:
    llm.queue(Status(code, {"error": {"message": "nope"}}))
    (err,) = of(await collect(make_engine()), EngineError)
    assert err.kind == kind and words in err.message


async def test_a_stream_cut_halfway_keeps_the_text_and_says_so(llm, make_engine) -> None:
    llm.queue(Stream(["Hello", " wor", "ld", " and more"], cut_after=3))
    events = await collect(make_engine())
    assert visible(events) == "Hello world"
    (err,) = of(events, EngineError)
    assert err.kind == "stream_interrupted" and "kept" in err.message
    assert events[-1].transcript == "Hello world"


async def test_a_stream_cut_after_a_block_still_reports_the_tool(llm, make_engine) -> None:
    llm.queue(Stream(tokens(block("echo", "x")) + ["more"], cut_after=len(tokens(block("echo", "x"))) + 1))
    events = await collect(make_engine())
    assert [r.status for r in of(events, ToolFinished)] == ["ok"]
    assert of(events, EngineError)[0].kind == "stream_interrupted"


async def test_no_first_token_in_time(llm, make_engine) -> None:
    llm.queue(Hang(3))
    (err,) = of(await collect(make_engine(first_token_timeout=1.0)), EngineError)
    assert err.kind == "timeout" and "within 1 second." in err.message


async def test_crlf_streams_and_no_model_chosen(llm, make_engine) -> None:
    llm.queue(Stream(tokens("Plain answer."), crlf=True))
    events = await collect(make_engine(chat_model=""))
    assert visible(events) == "Plain answer." and not of(events, EngineError)
    assert llm.requests[0]["model"] == "scripted"  # the server's first model


async def test_the_model_asked_is_told_before_its_first_words(llm, make_engine) -> None:
    # Only the model's words and Done named the server's default: an answer stopped before them could not.
    llm.models = ["nomic-embed-text", "qwen2.5-7b-instruct"]
    llm.queue(Stream(tokens("Hi.")))
    events = await collect(make_engine(chat_model=""))
    assert [type(e) for e in events[:3]] == [Route, ModelChosen, Text]
    assert events[1].model == "qwen2.5-7b-instruct" and events[1].progress  # `ask --jsonl` leaves it out


async def test_cancel_stops_stream_and_tools(llm, make_engine, hanging) -> None:
    # How fast (the 200 ms target) is measured by benchmarks/bench_cancel.py, not asserted here.
    llm.queue(Stream(tokens(block("hang", "x") + " and then a very slow tail" * 50, 2), delay=0.05))
    engine = make_engine()
    seen: list = []

    async def consume() -> None:
        async for ev in engine.run([{"role": "user", "content": "q"}]):
            seen.append(ev)

    task = asyncio.create_task(consume())
    await asyncio.wait_for(hanging.started.wait(), 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert hanging.cancelled
    assert of(seen, ToolStarted) and not of(seen, Done)


async def test_result_is_cut_to_the_limit_with_a_note(llm, make_engine, registry) -> None:
    from tinyrag_desktop.tools import ToolResult, ToolSpec

    async def big(content, ctx):
        return ToolResult("x" * 5000)

    registry.register(ToolSpec("big", "query", "Big.", big, "x"))
    llm.queue(Stream(tokens(block("big", "x"))), Stream(["ok"]))
    await collect(make_engine(EngineConfig(result_max_chars=1000)))
    sent = llm.requests[1]["messages"][-1]["content"]
    assert "x" * 1000 in sent and "x" * 1001 not in sent and "4000 more characters cut" in sent


async def test_time_spent_asking_the_user_does_not_count_against_the_tool(llm, settings, http, registry, tmp_path) -> None:
    from tinyrag_desktop.engine import Engine
    from tinyrag_desktop.tools import ToolResult, ToolSpec

    async def asks(content, ctx):
        assert await ctx.confirm("asks", content)
        await asyncio.sleep(0.2)
        return ToolResult("ran")

    async def slow_user(tool: str, text: str) -> bool:
        await asyncio.sleep(0.6)  # longer than the tool timeout
        return True

    registry.register(ToolSpec("asks", "query", "Asks first.", asks, "x"))
    llm.queue(Stream(tokens(block("asks", "x"))), Stream(["ok"]))
    engine = Engine(settings=settings, data_dir=tmp_path, http=http, registry=registry, confirm=slow_user,
                    config=EngineConfig(tool_timeout=0.5))
    (result,) = of(await collect(engine), ToolFinished)
    assert result.status == "ok" and result.result == "ran"


async def test_max_tokens_is_sent_only_when_set(llm, make_engine) -> None:
    llm.queue(Stream(["a"]), Stream(["b"]))
    await collect(make_engine())
    await collect(make_engine(max_tokens=256))
    assert "max_tokens" not in llm.requests[0] and llm.requests[1]["max_tokens"] == 256


@pytest.mark.parametrize("ending", ["| 1 | 2 |\n", "> quoted\n", "- an item\n"])
async def test_the_text_after_a_tool_round_is_a_paragraph_of_its_own(llm, make_engine, ending) -> None:
    # After a table row, a quote or a list item ending in one newline, the next round's first words were
    # read as one more row, quote line or item.
    llm.queue(Stream(tokens(block("calculate", "2 + 2") + "\n| a | b |\n|---|---|\n" * (ending[0] == "|") + ending)),
              Stream(tokens("It is 4.")))
    shown = visible(await collect(make_engine(), "What is 2 + 2?"))
    assert shown.endswith(f"{ending}\nIt is 4.")


async def test_a_call_quoted_before_more_words_ends_the_answer(llm, make_engine) -> None:
    # Not the message's end: a quote (or emphasis) around an example call, then words, asks the model nothing.
    llm.queue(Stream(tokens("> " + block("echo", "hi") + "\n\nThat is how a call is written.")),
              Stream(tokens("**" + block("echo", "hi") + "** and so on.")))
    events = await collect(make_engine())
    assert events[-1].rounds == 1 and len(llm.requests) == 1 and of(events, ToolStarted) == []


async def test_a_call_after_a_stray_backtick_runs_and_one_in_a_code_span_does_not(llm, make_engine) -> None:
    # "Let`s": a backtick never closed is a character, not the start of code; the call after it ran not at all.
    llm.queue(Stream(tokens("Let`s compute " + block("echo", "hi"))), Stream(["It says hi."]))
    events = await collect(make_engine())
    assert [(r.tool, r.status) for r in of(events, ToolFinished)] == [("echo", "ok")]
    assert not [e for e in events if isinstance(e, Text) and e.aside]
    llm.queue(Stream(tokens("Write `" + block("echo", "hi") + "` like that.")))
    events = await collect(make_engine())
    assert of(events, ToolStarted) == [] and events[-1].rounds == 1
