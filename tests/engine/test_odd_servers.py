"""Servers that answer in shapes the format does not allow: the answer ends with a reason, never hangs."""

from __future__ import annotations

import asyncio
import itertools
import json
import re

import httpx
import pytest

from tests.engine.conftest import collect
from tests.engine.test_engine import of, visible
from tests.sse_server import Raw, Status, Stream
from tinyrag_desktop.engine.errors import ServerUnreachable
from tinyrag_desktop.engine.events import Done, EngineError, ToolFinished
from tinyrag_desktop.engine.llm import LLMClient
from tinyrag_desktop.engine.llm_stream import NativeCalls
from tinyrag_desktop.settings import Settings


def chunk(delta: object = None, **extra: object) -> str:
    obj = {"choices": [{"index": 0, "delta": delta if delta is not None else {}, "finish_reason": None}], **extra}
    return f"data: {json.dumps(obj)}\n\n"


async def run(engine, timeout: float = 15.0) -> list:
    return await asyncio.wait_for(collect(engine), timeout)  # a hang fails here, not at the suite's end


@pytest.mark.parametrize("pieces", [
    [chunk({"content": "Hi"}), 'data: {"choices": [{"delta": "Hello"}]}\n\n'],  # delta is a string
    [chunk({"content": "Hi"}), 'data: {"choices": 5}\n\n'],                     # choices is not a list
])
async def test_a_chunk_of_the_wrong_shape_is_skipped_and_the_answer_ends(llm, make_engine, pieces) -> None:
    llm.queue(Raw(pieces + ["data: [DONE]\n\n"]))
    events = await run(make_engine())
    assert visible(events) == "Hi" and isinstance(events[-1], Done)


async def test_a_reply_that_breaks_the_reader_ends_in_words_with_the_text_kept(llm, make_engine) -> None:
    # gzip promised, plain bytes sent: httpx cannot decode them
    llm.queue(Raw([chunk({"content": "Hi"}) * 3], headers={"Content-Encoding": "gzip"}))
    events = await run(make_engine())
    (err,) = of(events, EngineError)
    assert "could not be decoded" in err.message or "could not be read" in err.message
    assert isinstance(events[-1], Done)


async def test_error_null_in_every_chunk_is_not_an_error(llm, make_engine) -> None:
    llm.queue(Raw([chunk({"content": "Hello."}, error=None), "data: [DONE]\n\n"]))
    events = await run(make_engine())
    assert visible(events) == "Hello." and not of(events, EngineError)


async def test_keep_alives_do_not_keep_the_first_token_wait_open(llm, make_engine) -> None:
    llm.queue(Raw([": keep-alive\n\n"] * 40, gap=0.1))  # 4 s of keep-alives, then the server hangs up
    (err,) = of(await run(make_engine(first_token_timeout=1.0)), EngineError)
    assert err.kind == "timeout"  # not "stream_interrupted": the wait ended before the server did


async def test_keep_alives_after_the_first_words_do_not_keep_a_stopped_answer_waiting(llm, make_engine) -> None:
    # The first-token timeout is also the longest pause between two later tokens; each keep-alive comment
    # or empty delta reset httpx's read timeout, so such an answer waited for ever (the server's hang-up
    # after 4 s ends it here, as "stream_interrupted", when the wait was not ended first).
    for filler in (": keep-alive\n\n", chunk({"content": ""})):
        llm.queue(Raw([chunk({"content": "Some words"})] + [filler] * 40, gap=0.1))
        events = await run(make_engine(first_token_timeout=1.0))
        (err,) = of(events, EngineError)
        assert visible(events) == "Some words"
        assert err.kind == "stream_interrupted" and "read timeout" in err.message, err.message


async def test_a_slow_native_call_keeps_the_answer_going(llm, make_engine) -> None:
    # A native call's arguments streaming slowly are progress, as words are: no timeout while they come.
    pieces = [chunk({"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "calculate", "arguments": ""}}]})]
    pieces += [chunk({"tool_calls": [{"index": 0, "function": {"arguments": part}}]})
               for part in ['{"', 'query', '": "', '6', ' * ', '7', '"}']]
    finish = {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}
    llm.queue(Raw(pieces + [f"data: {json.dumps(finish)}\n\n", "data: [DONE]\n\n"], gap=0.4),
              Stream(["It is 42."]))
    events = await run(make_engine(first_token_timeout=1.0))
    assert not of(events, EngineError)
    assert "It is 42." in visible(events)


async def test_a_whole_json_reply_instead_of_a_stream_is_used(llm, make_engine) -> None:
    reply = {"object": "chat.completion", "choices": [{"index": 0, "finish_reason": "stop",
                                                       "message": {"role": "assistant", "content": "Whole."}}]}
    llm.queue(Raw([json.dumps(reply)], content_type="application/json"))
    events = await run(make_engine())
    assert visible(events) == "Whole." and not of(events, EngineError)


_WHOLE = json.dumps({"object": "chat.completion", "choices": [
    {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Whole."}}]})


@pytest.mark.parametrize("pieces, content_type", [
    ([_WHOLE], "text/event-stream"),                            # labelled as a stream
    ([_WHOLE, "\n\ndata: [DONE]\n\n"], "text/event-stream"),   # a proxy's: the reply framed with [DONE]
    ([_WHOLE + "\ndata: [DONE]\n\n"], "application/json"),
    ([json.dumps({"choices": [{"delta": {"content": "Who"}}]}) + "\n",  # the chunks without "data:"
      json.dumps({"choices": [{"delta": {"content": "le."}, "finish_reason": "stop"}]}) + "\n"], "text/event-stream"),
])
async def test_a_whole_json_reply_however_framed_is_used(llm, make_engine, pieces, content_type) -> None:
    # Sent for stream=true by proxies: the text was lost, and the answer said to be "cut off" or "empty", or
    # the reply "not JSON" (for the [DONE] after it)
    llm.queue(Raw(pieces, content_type=content_type))
    events = await run(make_engine())
    assert visible(events) == "Whole." and not of(events, EngineError)


@pytest.mark.parametrize("pieces", [
    ["\ufeff" + chunk({"content": "Whole"}), chunk({"content": "."}), "data: [DONE]\n\n"],
    ["\ufeff" + _WHOLE],
])
async def test_a_reply_that_starts_with_a_byte_order_mark_is_read_from_its_first_words(llm, make_engine, pieces) -> None:
    # the stream's first words were lost (".", no error); the whole reply was "not JSON"
    llm.queue(Raw(pieces))
    events = await run(make_engine())
    assert visible(events) == "Whole." and not of(events, EngineError)


@pytest.mark.parametrize("reply, said", [
    (Raw([chunk({"content": "Part"}), 'data: {"error": {"code": 500, "message": "", "type": ""}}\n\n']),
     "The model server reported an error during the answer without saying what it was. The text so far is kept."),
    (Raw([chunk({"content": "Part"}), "event: error\ndata: {}\n\n"]),
     "The model server reported an error during the answer without saying what it was. The text so far is kept."),
    (Raw([chunk({"content": "Part"}), 'data: {"error": {"message": "", "type": "server_error"}}\n\n']),
     "The model server reported an error during the answer. The text so far is kept. The server said: server_error"),
    (Status(500, {"error": {"message": "", "type": "server_error"}}),
     "The model server failed (500) and could not answer. The server said: server_error"),
    (Status(500, '{"error": ' + '{"message": ' * 900 + '"out of memory"' + "}" * 901),  # nested, 900 deep
     "The model server failed (500) and could not answer. The server said: out of memory"),
])
async def test_an_error_without_a_message_is_said_without_its_brackets(llm, make_engine, reply, said) -> None:
    # "…during the answer: . The text so far is kept.", "…: {}.", "The server said: {"error": {"message": ""…"
    llm.queue(reply)
    (err,) = of(await run(make_engine()), EngineError)
    assert err.message == said


async def test_an_error_object_labelled_as_a_stream_says_the_servers_words(llm, make_engine) -> None:
    llm.queue(Raw([json.dumps({"error": {"message": "upstream model is overloaded"}})], content_type="text/event-stream"))
    (err,) = of(await run(make_engine()), EngineError)
    assert err.message.endswith(": upstream model is overloaded")


async def test_a_web_page_instead_of_a_stream_says_to_check_the_url(llm, make_engine) -> None:
    llm.queue(Raw(["<!DOCTYPE html><html><body>Welcome to nginx</body></html>"], content_type="text/html"))
    (err,) = of(await run(make_engine()), EngineError)
    assert err.kind == "bad_response" and "web page" in err.message and "/v1" in err.message


@pytest.mark.parametrize("content_type", ["text/plain", "", "text/event-stream"])
async def test_a_web_page_labelled_otherwise_says_to_check_the_url_too(llm, make_engine, content_type) -> None:
    # A captive portal's page as text/plain, or with no type: it said "The answer was cut off: the server
    # closed the stream before the model finished"
    llm.queue(Raw(["\n<html><head><title>Captive portal login</title></head>", "<body>Sign in</body></html>"],
                  content_type=content_type))
    (err,) = of(await run(make_engine()), EngineError)
    assert err.kind == "bad_response" and "web page" in err.message and "/v1" in err.message


async def test_an_html_error_page_is_shown_as_its_title(llm, make_engine) -> None:
    llm.queue(Status(502, "<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>x{}</style></head>"
                          "<body><h1>502 Bad Gateway</h1><hr>nginx</body></html>"))
    (err,) = of(await run(make_engine()), EngineError)
    assert "502 Bad Gateway" in err.message and "<" not in err.message


async def test_a_context_overflow_is_not_called_a_missing_model(llm, make_engine) -> None:
    llm.models = ["scripted", "other"]
    llm.queue(Status(400, {"error": {"message": "This model's maximum context length is 4096 tokens."}}))
    (err,) = of(await run(make_engine(chat_model="llama3.2")), EngineError)
    assert err.kind != "model_not_found" and "maximum context length" in err.message


async def test_rate_limit_says_how_long_the_server_asks_to_wait(llm, make_engine) -> None:
    llm.queue(Raw(['{"error": {"message": "slow down"}}'], status=429, content_type="application/json",
                  headers={"Retry-After": "20"}))
    (err,) = of(await run(make_engine()), EngineError)
    assert err.kind == "rate_limited" and "20 s" in err.message and "slow down" in err.message


async def test_rate_limit_says_how_long_when_the_server_gives_a_date(llm, make_engine) -> None:
    # Retry-After may be an HTTP date (RFC 9110) as well as seconds: it was not mentioned at all
    from datetime import datetime, timedelta, timezone
    from email.utils import format_datetime

    soon = format_datetime(datetime.now(timezone.utc) + timedelta(seconds=90), usegmt=True)
    llm.queue(Raw(["Too Many Requests"], status=429, content_type="text/plain", headers={"Retry-After": soon}))
    (err,) = of(await run(make_engine()), EngineError)
    waited = re.search(r"\(it asks to wait (\d+) s\)", err.message)
    assert err.kind == "rate_limited" and waited and 0 < int(waited.group(1)) <= 90, err.message
    assert "Too Many Requests" in err.message


@pytest.mark.parametrize("value", ["Wed, 21 Oct 2015 07:28:00 GMT", "soon", "Wed, 99 Foo 2026 77:00:00 GMT"])
async def test_a_retry_after_gone_by_or_unreadable_is_left_out(llm, make_engine, value) -> None:
    llm.queue(Raw(["Too Many Requests"], status=429, content_type="text/plain", headers={"Retry-After": value}))
    (err,) = of(await run(make_engine()), EngineError)
    assert err.kind == "rate_limited" and err.message.endswith("The server said: Too Many Requests"), err.message


async def test_an_empty_delta_beside_a_whole_message_does_not_say_the_answer_twice(llm, make_engine) -> None:
    # A last chunk of "delta": {} and the whole reply as "message": the message was taken for the delta,
    # and the answer read "Hello world.Hello world."
    last = {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": "Hello world."}}]}
    llm.queue(Raw([chunk({"content": "Hello "}), chunk({"content": "world."}), f"data: {json.dumps(last)}\n\n",
                   "data: [DONE]\n\n"]))
    events = await run(make_engine())
    assert visible(events) == "Hello world." and events[-1].transcript == "Hello world."
    assert not of(events, EngineError)


async def test_https_to_a_plain_http_server_suggests_http(llm, make_engine) -> None:
    (err,) = of(await run(make_engine(base_url=llm.base_url.replace("http://", "https://"))), EngineError)
    assert err.kind == "server_unreachable" and "http://" in err.message and "secure" in err.message


@pytest.mark.parametrize("reply, words", [
    (Raw([": ping - 2026-12-04 18:00:00\r\n\r\n", chunk({"role": "assistant", "content": ""})]),
     "The server closed the stream before any of the answer came."),
    (Stream(["never sent"], cut_after=0), "The connection to the model server broke off before any of the answer came."),
])
async def test_a_stream_that_ends_before_its_first_words_says_none_came(llm, make_engine, reply, words) -> None:
    # text-generation-webui with no model loaded, a server that crashed: "The answer was cut off … The text so
    # far is kept", of an answer with no text
    llm.queue(reply)
    events = await run(make_engine())
    (err,) = of(events, EngineError)
    assert err.kind == "stream_interrupted" and err.message.startswith(words)
    assert "text so far" not in err.message and "the server's log says why" in err.message and not visible(events)


@pytest.mark.parametrize("pieces, words", [
    ([chunk({"role": "assistant"}), 'data: {"choices": []}\n\n'], "empty answer"),
    ([chunk({"reasoning_content": "Let me think about greetings."})], "only reasoned"),
])
async def test_an_answer_with_nothing_in_it_says_so(llm, make_engine, pieces, words) -> None:
    llm.queue(Raw(pieces + [f"data: {json.dumps({'choices': [{'delta': {}, 'finish_reason': 'stop'}]})}\n\n",
                            "data: [DONE]\n\n"]))
    (err,) = of(await run(make_engine()), EngineError)
    assert words in err.message


async def test_a_stream_labelled_as_json_is_still_read(llm, make_engine) -> None:
    llm.queue(Raw([chunk({"content": "Still "}), chunk({"content": "fine."}), "data: [DONE]\n\n"],
                  content_type="application/json"))
    events = await run(make_engine())
    assert visible(events) == "Still fine." and not of(events, EngineError)


@pytest.mark.parametrize("address", [
    "127.0.0.1:8080/v1",           # the scheme left out
    "localhost:8080/v1",
    "ftp://127.0.0.1/v1",
    "http://",
    "http://127.0.0.1:99999/v1",   # no such port
    "http://[::1/v1",
])
async def test_an_unusable_server_address_is_said_in_words(make_engine, address) -> None:
    # The settings refuse such an address (from the file, a flag or the dialog); the engine still says it
    # in words should one reach it: the answer said "Request URL is missing an 'http://' or 'https://'
    # protocol", or "could not be read (ExceptionGroup: unhandled errors in a TaskGroup ...)".
    engine = make_engine()
    engine.settings = Settings({**engine.settings.values, "base_url": address})  # past the settings' check
    (err,) = of(await run(engine), EngineError)
    assert err.kind == "server_unreachable"
    assert f"“{address}”" in err.message and "http://127.0.0.1:11434/v1" in err.message
    for programmer_words in ("Request URL", "ExceptionGroup", "TaskGroup", "InvalidURL", "could not be read"):
        assert programmer_words not in err.message


async def test_the_status_check_of_an_unusable_address_says_it_in_words() -> None:
    async with httpx.AsyncClient() as http:
        with pytest.raises(ServerUnreachable) as caught:
            await LLMClient(http, "127.0.0.1:8080/v1").list_models()
    assert "“127.0.0.1:8080/v1”" in caught.value.message and "http://" in caught.value.message


def _escaped(text: str) -> str:
    """A content delta as a server writes it whose JSON escapes each half of a character beyond the first
    65,536 on its own (json.dumps would join a pair it is given whole)."""
    return 'data: {"choices": [{"index": 0, "delta": {"content": "' + text + '"}, "finish_reason": null}]}\n\n'


async def test_a_character_sent_in_two_halves_is_joined_and_a_tool_given_it_runs(llm, make_engine) -> None:
    # The halves stayed apart, Python cannot encode one alone, and the tool's task died: the answer waited
    # for its result for good.
    llm.queue(Raw([chunk({"content": 'Smile: <tool name="echo"><query>'}), _escaped("\\ud83d"),
                   _escaped("\\ude00"), chunk({"content": "</query></tool>"}), "data: [DONE]\n\n"]),
              Raw([chunk({"content": "Done."}), "data: [DONE]\n\n"]))
    events = await run(make_engine())
    (finished,) = of(events, ToolFinished)
    assert finished.status == "ok" and finished.query == "\U0001F600" and finished.result == "echo: \U0001F600"
    assert finished.result_bytes == len("echo: \U0001F600".encode())
    assert visible(events).startswith("Smile: ") and isinstance(events[-1], Done)


@pytest.mark.parametrize("pieces, shown", [
    ([_escaped("a\\ud83d"), _escaped("b")], "a\ufffdb"),  # a first half with no second
    ([_escaped("a\\ude00b")], "a\ufffdb"),                # a second half alone
    ([_escaped("end \\ud83d")], "end \ufffd"),            # a first half at the very end
    ([_escaped("\\ud83d\\ude00 whole")], "\U0001F600 whole"),
])
async def test_half_characters_are_shown_as_a_replacement_sign(llm, make_engine, pieces, shown) -> None:
    llm.queue(Raw(pieces + ["data: [DONE]\n\n"]))
    events = await run(make_engine())
    assert visible(events) == shown and isinstance(events[-1], Done)


async def test_a_stream_that_never_ends_its_line_ends_in_words(llm, make_engine, monkeypatch) -> None:
    # Bytes without a line end, for ever: 9 GB after a minute, and no answer. Past the limit it is refused
    # with the text so far kept.
    from tinyrag_desktop.engine import sse

    monkeypatch.setattr(sse, "MAX_HELD", 50_000)
    llm.queue(Raw([chunk({"content": "Hi"}), "data: {\"choices\": [" + "1, " * 1000] + ["7, " * 1000] * 200))
    events = await run(make_engine())
    (err,) = of(events, EngineError)
    assert "without ending it" in err.message and "The text so far is kept" in err.message
    assert visible(events) == "Hi" and isinstance(events[-1], Done)


async def test_a_json_reply_without_end_is_read_no_further(llm, make_engine, monkeypatch) -> None:
    from tinyrag_desktop.engine import llm as llm_module

    monkeypatch.setattr(llm_module, "MAX_HELD", 50_000)
    llm.queue(Raw(['{"choices": [{"message": {"content": "' + "a" * 1000] * 200, content_type="application/json"))
    (err,) = of(await run(make_engine()), EngineError)
    assert "went on past" in err.message


async def test_a_native_call_that_never_ends_is_stopped_in_words(llm, make_engine) -> None:
    # A server streaming a call's arguments a few characters at a time, for ever: 273 MB after a minute,
    # and no event. Past what one tool block may hold (200,000 characters) the answer stops, in words.
    call = {"index": 0, "id": "c1", "function": {"name": "calculate", "arguments": '{"query": "'}}
    start = chunk({"tool_calls": [call]})
    more = chunk({"tool_calls": [{"index": 0, "function": {"arguments": "1+" * 8}}]})
    llm.queue(Raw(itertools.chain([chunk({"content": "Let me add. "}), start], itertools.repeat(more))))
    events = await run(make_engine())
    (err,) = of(events, EngineError)
    assert err.kind == "bad_response", err
    assert "'calculate' longer than 200,000 characters" in err.message
    assert visible(events) == "Let me add. " and isinstance(events[-1], Done)


class _Piece(str):
    """A piece of a call's arguments that counts the characters copied to add it to what came before it."""

    copied = 0

    def __radd__(self, before: str) -> str:
        _Piece.copied += len(before)
        return str(before) + str(self)


def test_a_native_call_in_many_pieces_is_joined_once() -> None:
    # Each piece was added to all that had come: 12 MB in small pieces took 87 s (quadratic)
    calls, _Piece.copied = NativeCalls(), 0
    calls.add([{"index": 0, "id": "c1", "function": {"name": "calculate", "arguments": '{"query": "'}}])
    for _ in range(20_000):
        calls.add([{"index": 0, "function": {"arguments": _Piece("1+")}}])
    calls.add([{"index": 0, "function": {"arguments": '1"}'}}])
    assert calls.size() == len("calculate") + 11 + 40_000 + 3
    assert calls.as_blocks() == '<tool name="calculate"><query>' + "1+" * 20_000 + "1</query></tool>"
    assert _Piece.copied < 100_000  # was 400 million characters


@pytest.mark.parametrize("max_tokens, says", [(0, "num_predict"), (256, "256 tokens")])
async def test_an_answer_of_reasoning_alone_names_a_limit_that_is_there(llm, make_engine, max_tokens, says) -> None:
    # It said "(see Thinking) … Raise Max tokens in Settings": `ask` shows no Thinking, no setting has that
    # name, and at 0 (the default) there was nothing to raise.
    llm.queue(Raw([chunk({"reasoning_content": "Let me think."}),
                   f"data: {json.dumps({'choices': [{'delta': {}, 'finish_reason': 'length'}]})}\n\n"]))
    (err,) = of(await run(make_engine(max_tokens=max_tokens)), EngineError)
    assert "only reasoned" in err.message and says in err.message
    assert "Thinking" not in err.message and "Max tokens" not in err.message


@pytest.mark.parametrize("max_tokens", [0, 256])
async def test_an_answer_of_reasoning_alone_that_the_model_ended_blames_no_limit(llm, make_engine, max_tokens) -> None:
    # finish_reason "stop": the model ended its reply, no limit cut it; it was told "its reasoning may have
    # used up the server's limit", and to raise num_predict.
    llm.queue(Raw([chunk({"reasoning_content": "Let me think."}),
                   f"data: {json.dumps({'choices': [{'delta': {}, 'finish_reason': 'stop'}]})}\n\n"]))
    (err,) = of(await run(make_engine(max_tokens=max_tokens)), EngineError)
    assert "only reasoned" in err.message and "ended its reply without writing one" in err.message
    assert "limit" not in err.message and "num_predict" not in err.message and "tokens" not in err.message


DEEP = "[" * 100_000  # brackets inside brackets: Python's JSON reader stops at about a thousand


@pytest.mark.parametrize("reply", [
    Raw([chunk({"content": "Hi"}), f"data: {DEEP}\n\n"]),
    Raw([chunk({"content": "Hi"}), 'data: {"choices": ' + DEEP + "\n\n"]),
    Raw([DEEP], content_type="application/json"),
])
async def test_a_message_nested_past_reading_ends_the_answer_in_words(llm, make_engine, reply) -> None:
    # "could not be read (RecursionError: maximum recursion depth exceeded …)", from the engine's catch-all
    llm.queue(reply)
    events = await run(make_engine())
    (err,) = of(events, EngineError)
    assert err.kind == "bad_response" and "nested too deeply to read" in err.message, err.message
    assert "Recursion" not in err.message and isinstance(events[-1], Done)


async def test_a_native_call_whose_arguments_are_nested_past_reading_is_given_to_the_tool(llm, make_engine) -> None:
    call = {"index": 0, "id": "c1", "function": {"name": "calculate", "arguments": DEEP}}
    finish = {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}
    llm.queue(Raw([chunk({"tool_calls": [call]}), f"data: {json.dumps(finish)}\n\n", "data: [DONE]\n\n"]),
              Stream(["It cannot be worked out."]))
    events = await run(make_engine())
    assert not of(events, EngineError) and [e.status for e in of(events, ToolFinished)] == ["error"]
