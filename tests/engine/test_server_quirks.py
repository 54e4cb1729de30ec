"""What real servers do that the format leaves open: a reply cut at its length limit, [DONE] before the
connection closes, native function calls, content as a list of parts, an error event, a redirect, a model
still loading, an embedding model listed first, an empty reasoning block."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.engine.conftest import collect
from tests.engine.test_engine import of, visible
from tests.sse_server import Raw, ScriptedLLMServer, Status, Stream
from tinyrag_desktop.engine.events import Done, EngineError, ToolFinished


def chunk(delta: object = None, finish: str | None = None, index: int = 0, **extra: object) -> str:
    obj = {"choices": [{"index": index, "delta": delta if delta is not None else {}, "finish_reason": finish}], **extra}
    return f"data: {json.dumps(obj)}\n\n"


async def run(engine, question: str = "question", timeout: float = 20.0) -> list:
    return await asyncio.wait_for(collect(engine, question), timeout)


@pytest.mark.parametrize("max_tokens, words", [
    (50, "the longest reply allowed, 50 tokens (“Longest reply (tokens)” in Settings → Advanced)"),
    (0, "the server's limit on the length of a reply, or filled its context"),
])
async def test_an_answer_cut_at_the_length_limit_says_so_and_keeps_its_text(llm, make_engine, max_tokens,
                                                                              words) -> None:
    # it looked finished: "Pour the water into" and the footer, stored as done
    llm.queue(Stream(["1. Open the lid\n", "2. Pour the water into"], finish="length"))
    events = await run(make_engine(max_tokens=max_tokens))
    assert visible(events) == "1. Open the lid\n2. Pour the water into"
    (err,) = of(events, EngineError)
    assert err.kind == "length" and words in err.message and "The text so far is kept" in err.message
    assert isinstance(events[-1], Done)
    if max_tokens:
        assert llm.requests[-1]["max_tokens"] == max_tokens


@pytest.mark.parametrize("finish, tokens, kind, words", [
    # OpenAI's, Azure's filter
    ("content_filter", ["The recipe: mix the"], "content_filter",
     "The server's content filter stopped the answer here. The text so far is kept"),
    ("content_filter", [], "content_filter", "The server's content filter held the answer back: none of it came."),
    # vLLM's, when its engine stops a request (a shutdown, a pause), then [DONE]
    ("abort", ["The first step is"], "stream_interrupted",
     "The server stopped the answer before the model finished it (its reason: “abort”). The text so far is kept"),
    ("abort", [], "stream_interrupted", "The server stopped the answer before any of it came (its reason: “abort”)."),
])
async def test_an_answer_the_server_stopped_itself_says_so(llm, make_engine, finish, tokens, kind, words) -> None:
    # The answer looked finished (exit status 0), or was "an empty answer" from the model, to try another for
    llm.queue(Stream(tokens, finish=finish))
    events = await run(make_engine())
    (err,) = of(events, EngineError)
    assert err.kind == kind and err.message.startswith(words)
    assert visible(events) == "".join(tokens) and isinstance(events[-1], Done)


async def test_done_ends_the_answer_though_the_server_keeps_the_connection_open(llm, make_engine) -> None:
    # the answer waited for the server to hang up: 20 s later, or "stopped sending" after the read timeout
    whole = chunk({"content": "All here."}) + chunk(finish="stop") + "data: [DONE]\n\n"
    llm.queue(Raw([whole], gap=8.0))  # the connection held open 8 s after [DONE]
    events = await run(make_engine(first_token_timeout=2.0))
    assert visible(events) == "All here." and not of(events, EngineError)


async def test_native_function_calls_run_as_tool_blocks(llm, make_engine) -> None:
    # dropped before: the answer ended at "Let me calculate that." or was "an empty answer"
    call = {"index": 0, "id": "c1", "type": "function", "function": {"name": "calculate", "arguments": ""}}
    llm.queue(Raw([chunk({"content": "Let me calculate that. "}), chunk({"tool_calls": [call]}),
                   chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"query": "6 *'}}]}),
                   chunk({"tool_calls": [{"index": 0, "function": {"arguments": ' 7"}'}}]}),
                   chunk(finish="tool_calls"), "data: [DONE]\n\n"]),
              Stream(["It is 42."]))
    events = await run(make_engine())
    (result,) = of(events, ToolFinished)
    assert result.tool == "calculate" and result.status == "ok" and "42" in result.result
    assert visible(events).startswith("Let me calculate that.") and visible(events).endswith("It is 42.")
    assert '<tool name="calculate"><query>6 * 7</query></tool>' in events[-1].transcript


async def test_a_whole_json_reply_without_the_json_label_is_read(llm, make_engine) -> None:
    body = json.dumps({"choices": [{"message": {"content": "Whole."}, "finish_reason": "stop"}]})
    for content_type in ("text/plain", ""):
        llm.queue(Raw([body], content_type=content_type))
        events = await run(make_engine())
        assert visible(events) == "Whole." and not of(events, EngineError), content_type


async def test_content_sent_as_a_list_of_parts_is_its_text(llm, make_engine) -> None:
    llm.queue(Raw([chunk({"content": [{"type": "text", "text": "Hello"}]}),
                   chunk({"content": [{"type": "text", "text": " world"}]}, finish="stop"), "data: [DONE]\n\n"]))
    assert visible(await run(make_engine())) == "Hello world"



async def test_content_sent_as_one_part_is_its_text_and_a_value_with_none_is_no_text(llm, make_engine) -> None:
    # {"type": "text", …} was shown as Python's dict ("{'type': 'text', 'text': 'Hello'}"), true as "True"
    llm.queue(Raw([chunk({"content": "a "}), chunk({"content": {"type": "text", "text": "hello"}}),
                   chunk({"content": True}), chunk({"content": {"type": "image_url", "image_url": {"url": "x"}}}),
                   chunk({"content": [{"type": "text", "text": " world"}, False]}), chunk({"content": 42}),
                   chunk({}, finish="stop"), "data: [DONE]\n\n"]))
    assert visible(await run(make_engine())) == "a hello world42"


async def test_only_the_first_choice_is_the_answer_of_a_reply_with_several(llm, make_engine) -> None:
    # A server making two choices sent both, in the same chunks or their own: they were woven into one answer
    # ("A0 B1 B2 A3"), and the second's finish_reason could end it
    two = 'data: {"choices": [{"index": 0, "delta": {"content": "A0 "}}, {"index": 1, "delta": {"content": "B1 "}}]}\n\n'
    llm.queue(Raw([two, 'data: {"choices": [{"index": 1, "delta": {"content": "B2"}, "finish_reason": "stop"}]}\n\n',
                   chunk({"content": "A3 "}), chunk({"content": "B3"}, index=1), chunk({"content": "A4"}),
                   chunk({}, finish="stop"), "data: [DONE]\n\n"]))
    assert visible(await run(make_engine())) == "A0 A3 A4"


async def test_choices_in_their_own_chunks_are_one_answer_until_an_index_goes_back(llm, make_engine) -> None:
    # Two choices, each chunk its own: they are told apart once an index goes back (B1, before it, is shown)
    llm.queue(Raw([chunk({"content": "A0 "}), chunk({"content": "B1 "}, index=1), chunk({"content": "A2 "}),
                   chunk({"content": "B3"}, index=1), chunk({"content": "A4"}), chunk({}, finish="stop"),
                   "data: [DONE]\n\n"]))
    assert visible(await run(make_engine())).endswith("A2 A4")


async def test_a_server_giving_every_chunk_an_index_of_its_own_gives_the_whole_answer(llm, make_engine) -> None:
    # Foundry Local (0.7), TGI before 2.0.2: each chunk a new index; index 0 alone was "Wh", and no error
    llm.queue(Raw([chunk({"content": "Wh"}), chunk({"content": "isper"}, index=1), chunk({"content": "s."}, index=2),
                   chunk({}, finish="stop", index=3), "data: [DONE]\n\n"]))
    events = await run(make_engine())
    assert visible(events) == "Whispers." and not of(events, EngineError)


async def test_a_whole_reply_whose_one_choice_has_index_1_is_the_answer(llm, make_engine) -> None:
    # Gemini's OpenAI-compatible reply, not streamed: its one choice has index 1 (it was "an empty answer")
    reply = {"choices": [{"index": 1, "message": {"role": "assistant", "content": "Herons fish."},
                          "finish_reason": "stop"}]}
    llm.queue(Status(200, reply))
    events = await run(make_engine())
    assert visible(events) == "Herons fish." and not of(events, EngineError)

async def test_an_error_event_says_the_servers_words(llm, make_engine) -> None:
    llm.queue(Raw([chunk({"content": "Par"}), 'event: error\ndata: {"message": "The model crashed (exit code 139)"}\n\n']))
    (err,) = of(await run(make_engine()), EngineError)
    assert "The model crashed (exit code 139)" in err.message


@pytest.mark.parametrize("error", [
    # vLLM (some versions): its error object as a data message, mid-stream, then [DONE]
    'data: {"object": "error", "message": "CUDA error: an illegal memory access was encountered", '
    '"type": "InternalServerError", "param": null, "code": 500}\n\n',
    # llama.cpp's server: a field of its own, `error:`, not `data:`
    'error: {"code": 500, "message": "CUDA error: an illegal memory access was encountered", '
    '"type": "server_error"}\n\n',
])
async def test_an_error_in_the_stream_after_words_says_the_servers_words_and_keeps_them(llm, make_engine,
                                                                                        error) -> None:
    # Both were dropped: the answer ended at "Partial answer", exit status 0, nothing said.
    llm.queue(Raw([chunk({"content": "Partial "}), chunk({"content": "answer"}), error, "data: [DONE]\n\n"]))
    events = await run(make_engine())
    (err,) = of(events, EngineError)
    assert err.kind == "server_error"
    assert err.message == ("The model server reported an error during the answer. The text so far is kept. "
                           "The server said: CUDA error: an illegal memory access was encountered")
    assert visible(events) == "Partial answer" and events[-1].transcript == "Partial answer"


async def test_an_unexpected_endpoint_reply_hints_at_the_v1(llm, make_engine) -> None:
    llm.queue(Raw([json.dumps({"error": "Unexpected endpoint or method. (POST /chat/completions)"})],
                  content_type="application/json"))
    (err,) = of(await run(make_engine()), EngineError)
    assert "Unexpected endpoint" in err.message and "Server URL ends with /v1" in err.message


@pytest.mark.parametrize("location, said", [
    ("https://models.example/v1/chat/completions", "sends requests on to https://models.example/v1 (307). Use "
                                                  "that address as the Server URL"),
    ("/v2/chat/completions", "sends requests on to http://127.0.0.1:{port}/v2 (307)"),  # relative: resolved
    ("/v1/chat/completions", "sends requests back to the same address (307), so no answer can come"),
    ("", "sends requests elsewhere (307) without saying where"),
])
async def test_a_redirect_names_the_server_url_it_points_to(llm, make_engine, location, said) -> None:
    # it named the address as sent ("/v2/chat/completions"), which as the Server URL gave a 404
    llm.queue(Raw([""], status=307, headers={"Location": location} if location else {}))
    (err,) = of(await run(make_engine()), EngineError)
    assert said.format(port=llm.base_url.split(":")[-1].split("/")[0]) in err.message


async def test_done_ends_the_answer_whatever_follows_it_in_the_same_piece(llm, make_engine) -> None:
    # "not json" after [DONE] in one packet made the whole answer an error; content after it was shown
    llm.queue(Raw([chunk({"content": "All here."}) + "data: [DONE]\n\ndata: not json\n\n"
                   + chunk({"content": " EXTRA"})]))
    events = await run(make_engine())
    assert visible(events) == "All here." and not of(events, EngineError)


async def test_a_finish_reason_ends_the_answer_though_no_done_comes_and_the_connection_stays(llm, make_engine):
    llm.queue(Raw([chunk({"content": "Whole."}) + chunk(finish="stop")], gap=8.0))
    events = await run(make_engine(first_token_timeout=2.0))
    assert visible(events) == "Whole." and not of(events, EngineError)


async def test_ollamas_calls_each_with_index_0_are_separate_calls(llm, make_engine) -> None:
    # Ollama sends each call whole, all with index 0: they were run together as "calculatecalculate"
    first = {"index": 0, "id": "call_a", "function": {"name": "calculate", "arguments": {"query": "9*9"}}}
    second = {"index": 0, "id": "call_b", "function": {"name": "calculate", "arguments": {"query": "8*8"}}}
    llm.queue(Raw([chunk({"tool_calls": [first]}), chunk({"tool_calls": [second]}), chunk(finish="tool_calls"),
                   "data: [DONE]\n\n"]), Stream(["81 and 64."]))
    events = await run(make_engine())
    assert sorted(r.result.split()[-1] for r in of(events, ToolFinished)) == ["64", "81"]


async def test_calls_ended_by_done_alone_and_a_legacy_function_call_are_run(llm, make_engine) -> None:
    call = {"index": 0, "id": "c", "function": {"name": "calculate", "arguments": '{"query": "2+3"}'}}
    llm.queue(Raw([chunk({"content": "Let me check. "}), chunk({"tool_calls": [call]}), "data: [DONE]\n\n"]),
              Stream(["5."]))
    (result,) = of(await run(make_engine()), ToolFinished)
    assert result.status == "ok" and result.result.split()[-1] == "5"
    legacy = {"name": "calculate", "arguments": '{"query": "4*4"}'}
    llm.queue(Raw([chunk({"function_call": legacy}), chunk(finish="function_call"), "data: [DONE]\n\n"]),
              Stream(["16."]))
    (result,) = of(await run(make_engine()), ToolFinished)
    assert result.status == "ok" and result.result.split()[-1] == "16"


async def test_native_call_arguments_that_are_not_text_reach_the_tool(llm, make_engine) -> None:
    # {"expression": 42} or {"a": 6, "b": 7} became an empty, invalid block that no tool saw
    one = {"index": 0, "id": "c", "function": {"name": "calculate", "arguments": {"expression": 42}}}
    llm.queue(Raw([chunk({"tool_calls": [one]}), chunk(finish="tool_calls"), "data: [DONE]\n\n"]),
              Stream(["42."]))
    events = await run(make_engine())
    (result,) = of(events, ToolFinished)
    assert result.status == "ok" and result.result.split()[-1] == "42"
    assert '<tool name="calculate"><query>42</query></tool>' in events[-1].transcript
    two = {"index": 0, "id": "c", "function": {"name": "calculate", "arguments": '{"a": 6, "b": 7}'}}
    llm.queue(Raw([chunk({"tool_calls": [two]}), chunk(finish="tool_calls"), "data: [DONE]\n\n"]),
              Stream(["Sorry."]))
    events = await run(make_engine())
    (result,) = of(events, ToolFinished)
    assert result.tool == "calculate" and result.status == "error"  # the calculator's own words, not "invalid"
    assert '<query>{"a": 6, "b": 7}</query>' in events[-1].transcript


async def test_a_model_still_loading_is_said_so(llm, make_engine) -> None:
    llm.queue(Status(503, {"error": {"message": "Loading model", "code": 503}}))
    (err,) = of(await run(make_engine()), EngineError)
    assert err.message.startswith("The model is still loading on the server (503). Try again in a moment.")


async def test_with_no_model_chosen_the_first_chat_model_is_taken_not_an_embedding_one(make_engine) -> None:
    with ScriptedLLMServer(models=("nomic-embed-text:latest", "llama3.2:latest")) as server:
        server.queue(Stream(["Hi."]))
        engine = make_engine(base_url=server.base_url, chat_model="")
        events = await run(engine)
        assert visible(events) == "Hi." and server.requests[-1]["model"] == "llama3.2:latest"
