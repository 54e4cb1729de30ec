"""Streams that end in a way servers really send, cut into small random pieces: what the answer says, and that
the text so far is kept (the engine's events the window shows, and `ask`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.engine.test_cli_ask import ask
from tests.engine.test_engine import block, of, visible
from tests.engine.test_odd_servers import chunk, run
from tests.sse_server import Raw, ScriptedLLMServer, Stream
from tinyrag_desktop.engine.events import Done, EngineError, ToolFinished

WORDS = [chunk({"content": "Hello "}), chunk({"content": "world"})]
UNSAID = "The model server reported an error during the answer without saying what it was. The text so far is kept."


def legacy(text: str, finish: str | None = None) -> str:
    """A chunk as the completions API streams it (``choices[0].text``), as some llama.cpp and koboldcpp builds
    send it on the chat endpoint."""
    obj = {"object": "text_completion", "choices": [{"index": 0, "text": text, "finish_reason": finish}]}
    return f"data: {json.dumps(obj)}\n\n"


def jsonl(proc) -> list[dict]:
    return [json.loads(line) for line in proc.stdout.splitlines()]


@pytest.mark.parametrize("ending", [
    ["event: error\n\n"],                                # no data, then the server hangs up
    ["event: error\n\n", "data: [DONE]\n\n"],            # no data, then the stream "ends" as if whole
    ["event: error\ndata:\n\n", "data: [DONE]\n\n"],     # blank data
    ["event: error\ndata:   \n\n"],
], ids=["no data", "no data, then [DONE]", "blank data, then [DONE]", "blank data"])
async def test_an_error_event_without_words_says_the_server_failed_and_keeps_the_text(llm, make_engine,
                                                                                       ending) -> None:
    # It ended as a whole answer ("Hello world", no error) or "was cut off: the server closed the stream"
    llm.queue(Raw(WORDS + ending, scatter=True))
    events = await run(make_engine())
    (err,) = of(events, EngineError)
    assert (err.event, err.kind, err.message) == ("error", "server_error", UNSAID)
    assert visible(events) == "Hello world"
    assert isinstance(events[-1], Done) and events[-1].transcript == "Hello world"


async def test_an_error_event_whose_data_is_not_json_says_its_words(llm, make_engine) -> None:
    llm.queue(Raw(WORDS + ["event: error\ndata: CUDA error: out of memory\n\n"], scatter=True))
    events = await run(make_engine())
    (err,) = of(events, EngineError)
    assert err.message == ("The model server reported an error during the answer. The text so far is kept. "
                           "The server said: CUDA error: out of memory")
    assert visible(events) == "Hello world"


STOPPED = "model runner has unexpectedly stopped, this may be due to resource limitations"
KEPT = "The model server reported an error during the answer. The text so far is kept."
OLLAMA_FAILED = f"{KEPT} The server said: {STOPPED}"


@pytest.mark.parametrize("error", [
    json.dumps({"error": {"message": STOPPED, "type": "api_error", "param": None, "code": None}}) + "\n",
    json.dumps({"error": STOPPED}) + "\n",  # as Ollama writes it once its stream has begun: no "data:"
    f"data: {json.dumps({'error': {'message': STOPPED, 'type': 'api_error'}})}\n\n",
    f"data: {json.dumps({'error': STOPPED})}\n\n",
], ids=["bare object", "bare text", "data object", "data text"])
async def test_ollama_failing_in_the_middle_says_its_words_and_keeps_the_text(llm, make_engine, error) -> None:
    # Without "data:" it was "The answer was cut off: the server closed the stream before the model finished"
    llm.queue(Raw(WORDS + [error], scatter=True))
    events = await run(make_engine())
    (err,) = of(events, EngineError)
    assert (err.kind, err.message) == ("server_error", OLLAMA_FAILED)
    assert visible(events) == "Hello world" and events[-1].transcript == "Hello world"


@pytest.mark.parametrize("ending, words, said", [
    (chunk({"content": "!"}).removesuffix("\n") + json.dumps({"error": STOPPED}) + "\n\n", "Hello world!", STOPPED),
    ('event: error\n{"message": "CUDA out of memory"}\n\n', "Hello world", "CUDA out of memory"),
], ids=["words, then a bare error line", "event: error, then a bare object"])
async def test_a_bare_error_line_comes_after_the_words_before_it(llm, make_engine, ending, words, said) -> None:
    # The bare line went ahead of the message still being read: "!" was lost after the error; and the object an
    # "event: error" named was read as a message, the error "without saying what it was"
    llm.queue(Raw(WORDS + [ending], scatter=True))
    events = await run(make_engine())
    (err,) = of(events, EngineError)
    assert err.message == f"{KEPT} The server said: {said}"
    assert visible(events) == words and events[-1].transcript == words


@pytest.mark.parametrize("content_type", ["text/event-stream", "application/json", "text/plain", ""])
async def test_an_empty_reply_says_the_server_sent_nothing(llm, make_engine, content_type) -> None:
    # LM Studio at times answers 200 and closes the connection without a byte: it was "closed the stream before
    # any of the answer came. The model may have failed to load…", or "JSON that holds no answer: ''"
    llm.queue(Raw([], content_type=content_type))
    events = await run(make_engine())
    (err,) = of(events, EngineError)
    assert err.kind == "stream_interrupted"
    assert err.message == ("The model server took the question but sent nothing back: an empty reply, with no "
                           "words and no error. The server's own log says why; try again.")
    assert visible(events) == "" and isinstance(events[-1], Done)


async def test_an_empty_reply_after_a_tool_keeps_the_text_so_far(llm, make_engine) -> None:
    llm.queue(Stream(["Computing. ", *block("calculate", "6 * 7")]), Raw([]))
    events = await run(make_engine())
    (err,) = of(events, EngineError)
    assert "sent nothing back" in err.message and "The text so far is kept." in err.message
    assert visible(events).strip() == "Computing." and of(events, ToolFinished)[0].status == "ok"


async def test_chunks_of_the_completions_api_are_read_as_the_answer(llm, make_engine) -> None:
    # choices[0].text instead of choices[0].delta.content: the answer was empty, without an error
    call = block("calculate", "6 * 7")
    llm.queue(Raw([legacy("Let me "), legacy("compute. "), legacy(call[:20]), legacy(call[20:]),
                   legacy("", "stop"), "data: [DONE]\n\n"], scatter=True),
              Raw([legacy("It is "), legacy("42.", "stop"), "data: [DONE]\n\n"], scatter=True))
    events = await run(make_engine())
    assert not of(events, EngineError)
    (result,) = of(events, ToolFinished)
    assert result.tool == "calculate" and result.status == "ok" and "42" in result.result
    assert visible(events) == "Let me compute. \n\nIt is 42."
    assert call in events[-1].transcript


async def test_a_whole_reply_of_the_completions_api_is_read_as_the_answer(llm, make_engine) -> None:
    reply = {"object": "text_completion", "choices": [{"index": 0, "text": "Whole.", "finish_reason": "stop"}]}
    llm.queue(Raw([json.dumps(reply)], content_type="application/json", scatter=True))
    events = await run(make_engine())
    assert visible(events) == "Whole." and not of(events, EngineError)


def test_ask_says_an_error_event_without_words_and_keeps_the_text(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Raw(WORDS + ["event: error\n\n", "data: [DONE]\n\n"], scatter=True))
        lines = jsonl(ask(llm.base_url, tmp_path, "--jsonl"))
        llm.queue(Raw(WORDS + ["event: error\n\n", "data: [DONE]\n\n"], scatter=True))
        plain = ask(llm.base_url, tmp_path)
    assert "".join(e["text"] for e in lines if e["event"] == "text") == "Hello world"
    assert [e for e in lines if e["event"] == "error"] == [{"event": "error", "message": UNSAID,
                                                             "kind": "server_error"}]
    assert plain.returncode == 1 and plain.stdout.startswith("Hello world")
    assert UNSAID in plain.stderr and "Traceback" not in plain.stderr


def test_ask_says_ollamas_words_when_it_fails_in_the_middle(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Raw(WORDS + [json.dumps({"error": STOPPED}) + "\n"], scatter=True))
        lines = jsonl(ask(llm.base_url, tmp_path, "--jsonl"))
    assert "".join(e["text"] for e in lines if e["event"] == "text") == "Hello world"
    assert [e for e in lines if e["event"] == "error"] == [{"event": "error", "message": OLLAMA_FAILED,
                                                             "kind": "server_error"}]


def test_ask_says_an_empty_reply_was_nothing(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Raw([]))
        lines = jsonl(ask(llm.base_url, tmp_path, "--jsonl"))
        llm.queue(Raw([], content_type="application/json"))
        plain = ask(llm.base_url, tmp_path)
    (err,) = [e for e in lines if e["event"] == "error"]
    assert err["kind"] == "stream_interrupted" and "sent nothing back" in err["message"]
    assert plain.returncode == 1 and "sent nothing back" in plain.stderr and "Traceback" not in plain.stderr


def test_ask_reads_chunks_of_the_completions_api(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Raw([legacy("It is "), legacy("42.", "stop"), "data: [DONE]\n\n"], scatter=True))
        lines = jsonl(ask(llm.base_url, tmp_path, "--jsonl"))
    assert "".join(e["text"] for e in lines if e["event"] == "text") == "It is 42."
    assert lines[-1]["event"] == "done" and not [e for e in lines if e["event"] == "error"]
