"""What a later round's failure says is told by the words on screen: a round that showed only a tool's card
wrote none ("the text so far is kept" was said of nothing), and a refusal before any word of this round is a
request that did not fit, not a context that "filled up as it wrote"."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.engine.conftest import collect
from tests.engine.test_engine import block, of, tokens, visible
from tests.sse_server import Raw, Stream
from tinyrag_desktop.engine.errors import ContextTooLong
from tinyrag_desktop.engine.events import EngineError, ToolFinished
from tinyrag_desktop.engine.llm_stream import message_deltas
from tinyrag_desktop.engine.llm_whole import whole_deltas

# llama.cpp's refusal of a request longer than its context, in the stream itself
_REFUSAL = {"error": {"code": 400, "message": "the request exceeds the available context size, try increasing it",
                      "type": "exceed_context_size_error", "n_prompt_tokens": 5000, "n_ctx": 4096}}
_FILLED = "filled up as it wrote"
_KEPT = "The text so far is kept."


async def run(engine, timeout: float = 20.0) -> list:
    return await asyncio.wait_for(collect(engine), timeout)  # a hang fails here, not at the suite's end


def _first_round(words: bool) -> Stream:
    return Stream(tokens(("Let me work it out. " if words else "") + block("calculate", "6 * 7")))


@pytest.mark.parametrize("words", [True, False], ids=["words-then-call", "call-only"])
async def test_a_later_round_refused_before_its_first_word_did_not_fit(llm, make_engine, words) -> None:
    # It said "The answer was cut off: the model's context filled up as it wrote", as soon as round 1 had
    # shown anything, where the HTTP 400 route says the request did not fit
    llm.queue(_first_round(words))
    for _ in range(6):  # each shorter request is refused too
        llm.queue(Raw(["error: " + json.dumps(_REFUSAL) + "\n\n"]))
    events = await run(make_engine())
    (err,) = of(events, EngineError)
    assert of(events, ToolFinished)[0].status == "ok"
    assert err.message.startswith("The model's context is full (its context holds 4,096 tokens)"), err.message
    assert _FILLED not in err.message
    assert (_KEPT in err.message) == words


def test_a_refusal_fills_the_context_only_after_this_replys_own_words() -> None:
    data = json.dumps(_REFUSAL)
    with pytest.raises(ContextTooLong) as earlier:
        message_deltas(data, "error", begun=True)
    with pytest.raises(ContextTooLong) as own:
        message_deltas(data, "error", answering=True)
    assert _FILLED not in str(earlier.value) and _KEPT in str(earlier.value)
    assert _FILLED in str(own.value) and _KEPT in str(own.value)
    # a whole reply's chunks: its words, then the refusal
    chunk = json.dumps({"choices": [{"index": 0, "delta": {"content": "Herons"}, "finish_reason": None}]})
    with pytest.raises(ContextTooLong) as whole:
        whole_deltas(chunk + "\n" + data)
    assert _FILLED in str(whole.value)


async def test_a_later_round_that_breaks_off_after_only_a_card_keeps_no_text(llm, make_engine) -> None:
    # Round 1 showed a card and no words; the transcript, which holds its tool block, said there were
    llm.queue(_first_round(False), Stream(["never sent"], cut_after=0))
    events = await run(make_engine())
    (err,) = of(events, EngineError)
    assert not visible(events).strip()
    assert err.message.startswith("The connection to the model server broke off before any of the answer came")
    assert _KEPT not in err.message


async def test_a_later_round_filtered_after_only_a_card_keeps_no_text(llm, make_engine) -> None:
    llm.queue(_first_round(False), Stream([], finish="content_filter"))
    (err,) = of(await run(make_engine()), EngineError)
    assert err.message.startswith("The server's content filter held the answer back: none of it came")
    assert "so far is kept" not in err.message, err.message
