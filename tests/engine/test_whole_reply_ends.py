"""A whole reply sent for a streamed question ends where the server says so ([DONE], a finish_reason), though
the connection stays open; a reply's first piece of blanks and a byte-order mark is no reply at all; and a
later round that fails says that the answer's words on screen are kept, not that none of it came."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from hypothesis import given, settings, strategies as st

from tests.engine.conftest import collect
from tests.engine.test_engine import block, of, tokens, visible
from tests.sse_server import Raw, Stream
from tinyrag_desktop.engine import llm as llm_module
from tinyrag_desktop.engine.llm import LLMClient
from tinyrag_desktop.engine.events import EngineError, ToolFinished
from tinyrag_desktop.engine.llm_whole import ReplyEnd, whole_deltas

_WHOLE = json.dumps({"object": "chat.completion", "choices": [
    {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Whole."}}]})


def chunk(delta: object = None, finish: str | None = None) -> str:
    return json.dumps({"choices": [{"index": 0, "delta": delta or {}, "finish_reason": finish}]})


async def run(engine, timeout: float = 20.0) -> list:
    return await asyncio.wait_for(collect(engine), timeout)  # a hang fails here, not at the suite's end


@pytest.mark.parametrize("pieces, content_type", [
    ([_WHOLE + "\n\ndata: [DONE]\n\n"], "text/event-stream"),  # a proxy's: the reply framed with [DONE]
    ([_WHOLE, "\n\ndata: [DONE]\n\n"], "text/event-stream"),
    ([_WHOLE], "application/json"),                              # its finish_reason says it is whole
    ([" \n" + _WHOLE], "text/plain"),
    ([chunk({"content": "Who"}) + "\n" + chunk({"content": "le."}, "stop") + "\n"], "text/event-stream"),
])
async def test_a_whole_reply_ends_though_the_server_keeps_the_connection_open(llm, make_engine, pieces,
                                                                              content_type) -> None:
    # It was read until the server hung up: the answer waited for the read timeout (120 s; 2 s here), then
    # said the connection broke off before the answer came, its text lost
    llm.queue(Raw(pieces, content_type=content_type, gap=8.0))  # held open 8 s after each piece
    events = await run(make_engine(first_token_timeout=2.0))
    assert visible(events) == "Whole." and not of(events, EngineError)


@pytest.mark.parametrize("content_type", ["application/json", "text/plain"])
async def test_a_whole_reply_held_open_is_given_before_the_rest_is_read(monkeypatch, content_type) -> None:
    # It was given only once the rest had been read: DONE_GRACE (0.5 s) late on a connection held open
    monkeypatch.setattr(llm_module, "DONE_GRACE", 3600.0)
    given = asyncio.Event()

    class HeldOpen(httpx.AsyncByteStream):
        async def __aiter__(self):
            yield (_WHOLE + "\n\ndata: [DONE]\n\n").encode()
            await given.wait()  # the server says no more until the reply was given

    async def read() -> list:
        handler = lambda request: httpx.Response(200, headers={"content-type": content_type}, stream=HeldOpen())
        async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http:
            deltas = []
            async for delta in LLMClient(http, "http://127.0.0.1:9/v1").stream_chat([], model="m"):
                deltas.append(delta)
                given.set()
            return deltas

    deltas = await asyncio.wait_for(read(), 10)
    assert [(d.content, d.finish_reason) for d in deltas] == [("Whole.", "stop")]


async def test_an_error_object_held_open_is_said_at_once(llm, make_engine) -> None:
    llm.queue(Raw([json.dumps({"error": {"message": "upstream model is overloaded"}})], gap=8.0))
    (err,) = of(await run(make_engine(first_token_timeout=2.0)), EngineError)
    assert err.message.endswith(": upstream model is overloaded")


@pytest.mark.parametrize("pieces", [
    ["\ufeff", _WHOLE],             # a byte-order mark alone in the first piece
    ["\ufeff\n" + _WHOLE],          # and before a newline
    ["\ufeff", "\n", "data: " + chunk({"content": "Whole."}, "stop") + "\n\n"],
])
async def test_a_first_piece_of_a_byte_order_mark_and_blanks_is_no_reply_yet(llm, make_engine, pieces) -> None:
    # "The server closed the stream before any of the answer came": the reply after it was read as a stream
    llm.queue(Raw(pieces, gap=0.05))
    events = await run(make_engine())
    assert visible(events) == "Whole." and not of(events, EngineError)


# Round 1 writes words and a call; round 2, after the result, fails before any words of its own
_SECOND = [
    (Stream([], finish="content_filter"),
     "The server's content filter stopped the answer here. The text so far is kept"),
    (Stream([], finish="abort"),
     "The server stopped the answer before the model finished it (its reason: “abort”). The text so far is kept"),
    (Stream(["never sent"], cut_after=0),
     "The connection to the model server broke off in the middle of the answer. The text so far is kept."),
    (Raw([": keep-alive\n\n"]), "The answer was cut off: the server closed the stream before the model finished. "
                                "The text so far is kept."),
    (Raw(["data: " + json.dumps({"error": {"message": "out of memory"}}) + "\n\n"]),
     "The model server reported an error during the answer. The text so far is kept. The server said: out of memory"),
    (Raw([json.dumps({"error": {"message": "out of memory"}})], content_type="application/json"),
     "The model server reported an error during the answer. The text so far is kept. The server said: out of memory"),
]


@pytest.mark.parametrize("second, said", _SECOND,
                         ids=["filter", "abort", "broke-off", "closed", "error", "whole-error"])
async def test_a_later_round_that_fails_keeps_the_words_on_screen(llm, make_engine, second, said) -> None:
    # It said "none of it came", "before any of it came", "broke off before any of the answer came: the model
    # may have failed to load", of an answer whose first round was on screen
    llm.queue(Stream(tokens("Let me work it out. " + block("calculate", "6 * 7"))), second)
    events = await run(make_engine())
    (result,) = of(events, ToolFinished)
    (err,) = of(events, EngineError)
    assert result.status == "ok" and visible(events).startswith("Let me work it out.")
    assert err.message.startswith(said), err.message


def _replies() -> st.SearchStrategy[str]:
    """Whole replies as servers send them, their words full of brackets, quotes and backslashes."""
    words = st.text(alphabet='{}[]"\\ab\n', max_size=12)
    whole = words.map(lambda w: json.dumps({"choices": [{"message": {"content": w}, "finish_reason": "stop"}]}))
    chunks = st.lists(words, min_size=1, max_size=3).map(
        lambda ws: "\n".join([*(chunk({"content": w}) for w in ws), chunk({}, "stop")]))
    stream = st.lists(words, min_size=1, max_size=3).map(
        lambda ws: "".join(f"data: {chunk({'content': w})}\n\n" for w in ws) + "data: [DONE]\n\n")
    return st.one_of(whole, chunks, stream, whole.map(lambda r: r + "\n\ndata: [DONE]\n\n"))


@settings(max_examples=200, deadline=None)
@given(reply=_replies(), after=st.sampled_from(["", "\n\ndata: not json", '{"choices": [{"delta": {"content": "X']),
       cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=6))
def test_the_end_is_found_however_the_reply_is_cut(reply, after, cuts) -> None:
    text = reply + after
    points = sorted({0, *(c for c in cuts if c < len(text)), len(text)})
    end = ReplyEnd()
    ended = False
    for start, stop in zip(points, points[1:]):
        ended = end.feed(text[start:stop])
        if ended:
            break
    assert ended  # at [DONE] or the finish_reason, whatever follows in the same piece or not at all
    assert whole_deltas(end.text()) == whole_deltas(reply.rstrip())
