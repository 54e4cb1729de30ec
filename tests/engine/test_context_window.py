"""A chat longer than the model's context: the engine sends the latest messages that fit, with the system
prompt and the question always, whatever kind of local server it talks to (engine/context.py)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings as hyp_settings, strategies as st

from tests.engine.conftest import collect
from tests.sse_server import Status, Stream
from tinyrag_desktop.engine import context as ctxmod
from tinyrag_desktop.engine.context import Fitting, estimate, fit, is_refusal, refused_window
from tinyrag_desktop.engine.events import Done, EngineError, Text

SYSTEM = {"role": "system", "content": "You are helpful. " * 20}


@pytest.fixture(autouse=True)
def _nothing_learned(monkeypatch):
    monkeypatch.setattr("tinyrag_desktop.engine.engine._REFUSED_AT", {})
    monkeypatch.setattr("tinyrag_desktop.engine.engine._TOLD", {})
    monkeypatch.setattr("tinyrag_desktop.engine.engine._TAKEN_AFTER", {})


def forget_told():
    from tinyrag_desktop.engine import engine

    engine._TOLD.clear()


def chat(exchanges: int, question: str = "And the last question?") -> list[dict[str, str]]:
    """A chat of ``exchanges`` earlier questions and answers (about 1,100 characters each), then ``question``."""
    out = []
    for n in range(exchanges):
        out.append({"role": "user", "content": f"Question {n}: tell me about topic {n}. " * 5})
        out.append({"role": "assistant", "content": f"Answer {n} says a good deal about topic {n}. " * 20})
    return [*out, {"role": "user", "content": question}]


def served_tokens(body: dict) -> int:
    """What a server's tokenizer makes of a request, about: a token a word or a mark, as BPE tokenizers give
    plain English (4.5 to 5 characters a token), and the template's marks around each message."""
    return sum(len(re.findall(r"\w+|[^\w\s]", m["content"])) for m in body["messages"]) + 4 * len(body["messages"])


def refusing(limit: int, words: str | dict):
    """A server's refusal of a request over ``limit`` tokens (its own count), with its own words."""
    def refuse(body: dict) -> Status | None:
        return Status(400, words) if served_tokens(body) > limit else None
    return refuse


def answer(events) -> str:
    return "".join(e.text for e in events if isinstance(e, Text))


async def run(engine, messages) -> list:
    return [ev async for ev in engine.run(messages)]


# -- the pieces ---------------------------------------------------------------------------------------------

def test_estimates_kept_for_the_next_request_do_not_keep_the_texts() -> None:
    """Each request counts the history again, so estimates are kept; the texts themselves were kept with them
    (8,192 of them: tool results of 8,000 characters and long answers' trial cuts made 65 to 250 MB)."""
    import gc
    import tracemalloc

    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        texts = [f"result {n} " + "word " * 20_000 for n in range(40)]  # 100,000 characters each, 4 MB
        counts = [estimate(text) for text in texts]
        del texts
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert kept < 400_000
    again = f"result {7} " + "word " * 20_000
    assert estimate(again) == counts[7]  # the same text (another string), the same estimate


def test_estimate_is_on_the_high_side_for_english_and_counts_wide_characters_whole() -> None:
    english = "The quick brown fox jumps over the lazy dog. " * 10
    assert len(english) / 4.5 <= estimate(english) <= len(english) / 3.5  # a tokenizer makes about 100
    code = "".join(f"    total_{n} = compute(argument_{n}, limit=3)\n" for n in range(20))
    assert estimate(code) >= len(code) / 3
    assert estimate("知识库里有什么") >= 7


def test_fit_keeps_head_and_tail_and_the_latest_history_starting_with_a_question() -> None:
    history = chat(10)[:-1]
    tail = [{"role": "user", "content": "now?"}]
    convo, left = fit([SYSTEM], history, tail, budget=1500)
    assert convo[0] is SYSTEM and convo[-1] is tail[0]
    kept = convo[1:-1]
    assert kept == history[left:] and 0 < left < len(history)
    assert kept[0]["role"] == "user"
    assert sum(map(ctxmod.cost, convo)) <= 1500
    assert fit([SYSTEM], history, tail, budget=10**6) == ([SYSTEM, *history, *tail], 0)


@hyp_settings(max_examples=200, deadline=None)
@given(sizes=st.lists(st.integers(0, 3000), max_size=30), budget=st.integers(0, 20000))
def test_fit_property(sizes, budget) -> None:
    history = [{"role": "user" if n % 2 == 0 else "assistant", "content": "x" * size}
               for n, size in enumerate(sizes)]
    tail = [{"role": "user", "content": "q"}]
    convo, left = fit([SYSTEM], history, tail, budget)
    assert convo == [SYSTEM, *history[left:], *tail]
    assert 0 <= left <= len(history)
    assert left == len(history) or history[left]["role"] == "user"
    if left:  # something was left out: what was kept fits, and one more question-led suffix would not
        assert sum(map(ctxmod.cost, convo)) <= budget or left == len(history)


@pytest.mark.parametrize("words, window", [
    ('{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it",'
     '"type":"exceed_context_size_error","n_prompt_tokens":5120,"n_ctx":4096}}', 4096),  # llama.cpp
    ("This model's maximum context length is 8192 tokens. However, you requested 9000 tokens "
     "(8000 in the messages, 1000 in the completion).", 8192),  # vLLM, OpenAI
    ("Trying to keep the first 6000 tokens when context the overflows. However, the model is loaded with "
     "context length of only 4096 tokens, which is not enough.", 4096),  # LM Studio
    ("the request exceeds the available context size. try increasing the context size", None),  # older llama.cpp
])
def test_refusals_are_recognised_and_their_window_read(words, window) -> None:
    assert is_refusal(words)
    assert refused_window(words) == window


@pytest.mark.parametrize("words", ["model 'x' not found", "invalid temperature", "Bad Request", ""])
def test_other_errors_are_not_refusals(words) -> None:
    assert not is_refusal(words)


async def test_a_refusal_without_a_window_cuts_a_quarter_and_says_when_nothing_is_left_to_cut() -> None:
    tail = [{"role": "user", "content": "q" * 3000}]
    fitting = Fitting([SYSTEM], chat(6)[:-1], tail)
    sent = await fitting.convo()
    assert len(sent) == 14  # nothing known: everything is sent
    assert fitting.refused(None, sent)
    shorter = await fitting.convo()
    assert len(shorter) < len(sent) and fitting.left_out > 0
    assert sum(map(ctxmod.cost, shorter)) <= sum(map(ctxmod.cost, sent)) * 3 // 4
    while fitting.refused(None, shorter):
        shorter = await fitting.convo()
    assert shorter == [SYSTEM, *tail]  # only the system prompt and the question were left


# -- the engine against each kind of server ------------------------------------------------------------------

async def test_llama_cpp_window_from_props_one_request_that_fits(llm, make_engine) -> None:
    llm.pages["/props"] = {"default_generation_settings": {"n_ctx": 2048}}
    llm.refuse = refusing(2048, {"error": {"code": 400, "message": "the request exceeds the available context "
                                           "size, try increasing it", "n_ctx": 2048}})
    llm.queue(Stream(["Here ", "it is."]))
    events = await run(make_engine(), chat(40))
    assert answer(events) == "Here it is." and not [e for e in events if isinstance(e, EngineError)]
    assert len(llm.requests) == 1  # told the window, it never sent too much
    sent = llm.requests[0]["messages"]
    assert sent[0]["role"] == "system" and "<tool" in sent[0]["content"]  # the tool instructions stay
    assert sent[-1]["content"].startswith("And the last question?")
    assert served_tokens(llm.requests[0]) <= 2048
    done = events[-1]
    assert isinstance(done, Done) and done.window == 2048 and 0 < done.left_out < 80
    assert done.to_json()["left_out"] == done.left_out


async def test_ollama_window_of_a_loaded_model_and_its_silent_cut_never_happens(llm, make_engine) -> None:
    llm.pages["/api/ps"] = {"models": [{"name": "scripted:latest", "model": "scripted:latest",
                                        "context_length": 4096}]}
    llm.queue(Stream(["ok"]))
    events = await run(make_engine(), chat(60))
    assert answer(events) == "ok"
    # Ollama cuts a longer request from the front without a word: the request must fit on its own
    assert served_tokens(llm.requests[0]) <= 4096
    assert llm.requests[0]["messages"][0]["role"] == "system"
    assert events[-1].window == 4096 and events[-1].left_out > 0


async def test_ollama_model_not_loaded_reads_num_ctx_else_assumes_its_default(llm, make_engine) -> None:
    llm.pages["/api/ps"] = {"models": []}
    llm.pages["/api/show"] = {"parameters": "temperature 0.7\nnum_ctx 8192\nstop \"<|im_end|>\""}
    llm.queue(Stream(["a"]))
    events = await run(make_engine(), chat(60))
    assert events[-1].window == 8192 and served_tokens(llm.requests[0]) <= 8192
    assert served_tokens(llm.requests[0]) > 4096  # the larger window is used, not the default
    del llm.pages["/api/show"]
    forget_told()
    llm.queue(Stream(["b"]))
    events = await run(make_engine(), chat(60))
    assert events[-1].window == 0 and served_tokens(llm.requests[1]) <= 4096  # a guess: no number is said


async def test_vllm_window_from_models(llm, make_engine) -> None:
    llm.pages["/v1/models"] = {"object": "list", "data": [{"id": "scripted", "max_model_len": 3000}]}
    llm.queue(Stream(["v"]))
    events = await run(make_engine(), chat(30))
    assert events[-1].window == 3000 and served_tokens(llm.requests[0]) <= 3000


async def test_lm_studio_window_of_the_loaded_model(llm, make_engine) -> None:
    llm.pages["/api/v0/models"] = {"object": "list", "data": [
        {"id": "lmstudio-community/other", "state": "not-loaded", "max_context_length": 8192},
        {"id": "scripted", "state": "loaded", "max_context_length": 32768, "loaded_context_length": 5000}]}
    llm.queue(Stream(["l"]))
    events = await run(make_engine(), chat(40))
    assert events[-1].window == 5000 and served_tokens(llm.requests[0]) <= 5000
    llm.pages["/api/v0/models"]["data"][1] = {"id": "scripted", "state": "not-loaded", "max_context_length": 32768}
    forget_told()
    llm.queue(Stream(["m"]))
    events = await run(make_engine(), chat(40))
    assert events[-1].window == 0 and served_tokens(llm.requests[-1]) <= 4096  # loaded with 4,096 unless told


async def test_a_server_that_cannot_say_is_answered_after_its_refusals_and_remembered(llm, make_engine) -> None:
    words = ("Trying to keep the first 9000 tokens when context the overflows. However, the model is loaded "
             "with context length of only 3000 tokens, which is not enough.")
    llm.refuse = refusing(3000, {"error": {"message": words}})
    llm.queue(Stream(["after ", "the refusal"]))
    events = await run(make_engine(), chat(40))
    assert answer(events) == "after the refusal"
    assert not [e for e in events if isinstance(e, EngineError)]
    assert len(llm.requests) >= 2 and served_tokens(llm.requests[-1]) <= 3000
    assert events[-1].window == 3000 and events[-1].left_out > 0
    asked = len(llm.requests)
    llm.queue(Stream(["next"]))  # the next question starts from the window the refusal named
    await run(make_engine(), chat(41))
    assert len(llm.requests) == asked + 1


async def test_a_refusal_that_names_no_window_is_met_by_shorter_requests(llm, make_engine) -> None:
    llm.refuse = refusing(2500, "the request exceeds the available context size. try increasing the context size")
    llm.queue(Stream(["fits now"]))
    events = await run(make_engine(), chat(40))
    assert answer(events) == "fits now"
    sizes = [served_tokens(r) for r in llm.requests]
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == len(sizes)
    assert sizes[-1] <= 2500 and events[-1].left_out > 0


@pytest.mark.parametrize("max_tokens", [0, 700])
async def test_the_size_taken_after_refusals_that_name_no_window_is_where_the_next_question_starts(
        llm, make_engine, max_tokens) -> None:
    # Ollama's and llama.cpp's older words name no window: every question of a long chat went through the
    # same refusals again (8,492, 6,340, 4,726 tokens refused before 3,381 was taken, at each question)
    llm.refuse = refusing(2500, {"error": "the input length exceeds the context length"})
    llm.queue(Stream(["fits now"]), Stream(["at once"]), Stream(["again"]))
    events = await run(make_engine(max_tokens=max_tokens), chat(40))
    assert answer(events) == "fits now" and len(llm.requests) >= 3
    taken = served_tokens(llm.requests[-1])
    asked = len(llm.requests)
    events = await run(make_engine(max_tokens=max_tokens), chat(41))
    assert answer(events) == "at once" and len(llm.requests) == asked + 1
    assert served_tokens(llm.requests[-1]) >= taken * 0.9  # as much of the chat as before, not less
    assert events[-1].window == 0  # a guess, never said as the model's context
    # another model on the same server learns its own
    events = await run(make_engine(max_tokens=max_tokens, chat_model="other"), chat(41))
    assert len(llm.requests) >= asked + 3


async def test_a_question_longer_than_the_window_is_said_in_words(llm, make_engine) -> None:
    llm.pages["/props"] = {"default_generation_settings": {"n_ctx": 1024}}
    llm.refuse = refusing(1024, {"error": {"message": "the request exceeds the available context size",
                                           "n_ctx": 1024}})
    events = await run(make_engine(), chat(3, question="Summarise this: " + "word " * 3000))
    (error,) = [e for e in events if isinstance(e, EngineError)]
    assert error.kind == "context_too_long"
    assert "This question is longer than the model can read at once (about 3," in error.message
    assert "the model's context holds 1,024 tokens" in error.message
    assert "Traceback" not in error.message and "OLLAMA_CONTEXT_LENGTH" in error.message
    assert llm.requests == []  # Ollama would have cut its front without a word: it is not sent at all


async def test_a_short_chat_asks_the_server_nothing(llm, make_engine) -> None:
    llm.pages["/props"] = {"default_generation_settings": {"n_ctx": 512}}
    llm.queue(Stream(["short"]))
    events = await collect(make_engine(), "hello")
    assert answer(events) == "short" and llm.asked == []
    assert events[-1].left_out == 0 and events[-1].window == 0


async def test_the_setting_is_used_up_to_what_the_server_says(llm, make_engine) -> None:
    llm.pages["/props"] = {"default_generation_settings": {"n_ctx": 100000}}
    llm.queue(Stream(["set"]))
    events = await run(make_engine(context_tokens=2000), chat(40))
    assert events[-1].window == 2000 and served_tokens(llm.requests[0]) <= 2000
    llm.pages["/props"] = {"default_generation_settings": {"n_ctx": 3000}}
    forget_told()
    llm.queue(Stream(["more"]))
    events = await run(make_engine(context_tokens=32768), chat(40))  # set beyond what the model was given
    assert events[-1].window == 3000 and served_tokens(llm.requests[1]) <= 3000
    del llm.pages["/props"]  # a server that cannot say: the setting
    forget_told()
    llm.queue(Stream(["own"]))
    events = await run(make_engine(context_tokens=2500), chat(40))
    assert events[-1].window == 2500 and served_tokens(llm.requests[2]) <= 2500


async def test_rounds_after_a_tool_cut_more_of_the_chat_and_keep_the_results(llm, make_engine) -> None:
    llm.pages["/props"] = {"default_generation_settings": {"n_ctx": 3000}}
    llm.refuse = refusing(3000, {"error": {"message": "exceeds the available context size", "n_ctx": 3000}})
    llm.queue(Stream(['<tool name="echo"><query>' + "long input " * 300 + "</query></tool>"]),
              Stream(["done"]))
    events = await run(make_engine(), chat(40))
    assert answer(events).endswith("done")
    first, second = (r["messages"] for r in llm.requests)
    assert "<tool_results>" in second[-1]["content"] and "echo: long input" in second[-1]["content"]
    assert len(second) < len(first) + 2  # the round's reply and results took the place of older messages
    assert all(served_tokens(r) <= 3000 for r in llm.requests)
    assert json.loads(json.dumps(events[-1].to_json()))["window"] == 3000


async def test_tool_results_are_cut_to_the_room_a_small_window_leaves(llm, make_engine, registry) -> None:
    from tinyrag_desktop.tools import ToolResult, ToolSpec

    async def long_page(content, ctx):
        return ToolResult("A long page. " * 2000, source="page")

    registry.register(ToolSpec("page", "query", "A long page.", long_page, "x"))
    llm.pages["/api/ps"] = {"models": [{"name": "scripted", "context_length": 4096}]}
    llm.queue(Stream(['<tool name="page"><query>a</query></tool><tool name="page"><query>b</query></tool>'
                      '<tool name="page"><query>c</query></tool>']), Stream(["read"]))
    events = await run(make_engine(), chat(2))
    assert answer(events).endswith("read")
    second = llm.requests[1]
    assert served_tokens(second) <= 4096  # three results of 8,000 characters would not fit: Ollama cut the front
    results = second["messages"][-1]["content"]
    assert results.count("A long page.") > 3 * 30 and "more characters cut]" in results
    assert second["messages"][0]["role"] == "system"


async def test_a_follow_up_after_a_pasted_note_still_sends_the_note(llm, make_engine) -> None:
    note = "The quarterly report says the garden centre sold more roses than tulips this spring. " * 100
    history = [{"role": "user", "content": "Summarise this:\n\n" + note},
               {"role": "assistant", "content": "Roses outsold tulips this spring at the garden centre. " * 8},
               {"role": "user", "content": "Make it shorter."}]
    llm.pages["/api/ps"] = {"models": [{"name": "scripted", "context_length": 4096}]}
    llm.queue(Stream(["Roses won."]))
    events = await run(make_engine(), history)
    sent = llm.requests[0]["messages"]
    assert any(m["content"].startswith("Summarise this") for m in sent)  # 2,000 tokens of a 4,096 window
    assert events[-1].left_out == 0 and served_tokens(llm.requests[0]) <= 4096


async def test_an_ollama_model_not_loaded_is_loaded_and_its_window_read(llm, make_engine) -> None:
    loaded: list[dict] = []
    llm.pages["/api/ps"] = lambda: {"models": loaded}
    llm.pages["/api/generate"] = lambda: loaded.append({"name": "scripted:latest", "context_length": 16384}) or {
        "model": "scripted", "done": True}
    llm.queue(Stream(["big"]))
    events = await run(make_engine(), chat(30))
    assert "/api/generate" in llm.asked and events[-1].left_out == 0  # 16,384 holds the whole chat
    assert events[-1].window == 0 and served_tokens(llm.requests[0]) > 4096
    asked = len(llm.asked)
    llm.queue(Stream(["again"]))
    await run(make_engine(), chat(31))
    assert len(llm.asked) == asked  # told a minute ago: not asked again


async def test_earlier_rounds_results_are_cut_when_nothing_else_is_left(llm, make_engine, registry) -> None:
    from tinyrag_desktop.tools import ToolResult, ToolSpec

    async def page(content, ctx):
        return ToolResult(f"Page {content}. " + "Words about gardens and roses. " * 300, source="page")

    registry.register(ToolSpec("page", "query", "A page.", page, "x"))
    llm.pages["/props"] = {"default_generation_settings": {"n_ctx": 2048}}
    llm.refuse = refusing(2048, {"error": {"message": "the request exceeds the available context size",
                                           "n_ctx": 2048}})
    llm.queue(*(Stream([f'<tool name="page"><query>{n}</query></tool>']) for n in range(3)), Stream(["All read."]))
    events = await run(make_engine(max_tools_per_round=1, max_continuations=3), chat(1))
    assert answer(events).endswith("All read.") and not [e for e in events if isinstance(e, EngineError)]
    assert all(served_tokens(r) <= 2048 for r in llm.requests) and len(llm.requests) == 4
    last = llm.requests[-1]["messages"]
    results = [m["content"] for m in last if m["content"].startswith("<tool_results>")]
    assert len(results) == 3 and "more characters cut]" in results[0]  # the oldest, written again shorter
    assert all(r.rstrip().endswith("And the last question?") for r in results)  # its tags and question kept
    assert last[0]["role"] == "system" and "Page 2." in last[-1]["content"]


async def test_longest_reply_set_to_the_whole_window_still_answers(llm, make_engine) -> None:
    llm.pages["/v1/models"] = {"object": "list", "data": [{"id": "scripted", "max_model_len": 4096}]}
    llm.refuse = lambda body: Status(400, {"error": {"message": "This model's maximum context length is 4096 "
                                                     "tokens. However, you requested more."}}) if (
        served_tokens(body) + body.get("max_tokens", 0) > 4096) else None
    llm.queue(Stream(["fine"]))
    events = await run(make_engine(max_tokens=4096), chat(30))
    assert answer(events) == "fine" and len(llm.requests) == 1
    assert 64 <= llm.requests[0]["max_tokens"] <= 4096 - served_tokens(llm.requests[0])


@pytest.mark.parametrize("field", ["data", "error"])
async def test_a_refusal_inside_the_stream_is_met_by_a_shorter_request(llm, make_engine, field) -> None:
    # "error": llama.cpp's server writes it as a field of its own, `error: {"code": 400, …}`, then [DONE]; it
    # was dropped, and the user was told "The model sent an empty answer", with no shorter request sent
    from tests.sse_server import Raw

    error = {"code": 400, "message": "the request exceeds the available context size, try increasing it",
             "type": "exceed_context_size_error", "n_prompt_tokens": 5000, "n_ctx": 2500}
    sent = f"data: {json.dumps({'error': error})}\n\n" if field == "data" else f"error: {json.dumps(error)}\n\n"
    llm.queue(Raw([sent, "data: [DONE]\n\n"]), Stream(["shorter"]))
    events = await run(make_engine(), chat(40))
    assert answer(events) == "shorter" and len(llm.requests) == 2
    assert events[-1].window == 2500 and served_tokens(llm.requests[1]) <= 2500


async def test_the_prompts_passages_are_cut_before_the_question_is_refused() -> None:
    made: list[int] = []

    def head_with(chars: int) -> list[dict[str, str]]:
        made.append(chars)
        return [{"role": "system", "content": "Passages: " + "p " * (chars // 2)}]

    tail = [{"role": "user", "content": "A question of some length. " * 40}]
    fitting = Fitting(head_with(8000), [], tail, setting=2000, smaller_head=head_with)
    convo = await fitting.convo()
    assert made[1:] and made[-1] < 8000 and ctxmod.tokens(convo) <= fitting.budget
    assert convo[-1] is tail[0]


async def test_a_pasted_base64_blob_longer_than_the_window_is_said_not_sent(llm, make_engine) -> None:
    import base64

    blob = base64.b64encode(bytes(range(256)) * 27).decode()[:9040]  # about 6,500 tokens in cl100k
    llm.pages["/api/ps"] = {"models": [{"name": "scripted", "context_length": 4096}]}
    events = await run(make_engine(), [{"role": "user", "content": "What is in this file?\n" + blob}])
    (error,) = [e for e in events if isinstance(e, EngineError)]
    assert error.kind == "context_too_long" and llm.requests == []  # Ollama would have cut its front


async def test_a_new_chats_tool_results_refused_are_cut_and_sent_again(llm, make_engine, registry) -> None:
    from tinyrag_desktop.tools import ToolResult, ToolSpec

    async def page(content, ctx):
        return ToolResult("Words about gardens and roses. " * 260, source="page")

    registry.register(ToolSpec("page", "query", "A page.", page, "x"))
    llm.refuse = refusing(1500, "the request exceeds the available context size, try increasing it")
    llm.queue(Stream(['<tool name="page"><query>a</query></tool>']), Stream(["Read it."]))
    events = await run(make_engine(), [{"role": "user", "content": "Compare the pages."}])
    assert answer(events).endswith("Read it.") and not [e for e in events if isinstance(e, EngineError)]
    last = llm.requests[-1]["messages"][-1]["content"]
    assert "more characters cut]" in last and "</tool_results>" in last and "Compare the pages." in last
    assert last.count("Words about gardens") > 20  # cut to the room there is, not to a few words
    assert served_tokens(llm.requests[-1]) <= 1500


async def test_a_refusal_in_the_stream_after_text_is_not_sent_again(llm, make_engine) -> None:
    from tests.sse_server import Raw, sse_events

    started = sse_events(Stream(["Here is the first part. "]))[:3]
    error = {"error": {"message": "the request exceeds the available context size", "n_ctx": 2048}}
    llm.queue(Raw([*started, f"data: {json.dumps(error)}\n\n"]))
    events = await run(make_engine(), chat(1))
    assert answer(events) == "Here is the first part. " and len(llm.requests) == 1
    assert [e.kind for e in events if isinstance(e, EngineError)] == ["context_too_long"]


async def test_a_context_filled_as_the_model_wrote_says_so_and_keeps_the_text(llm, make_engine) -> None:
    # llama.cpp's server, when the answer fills the context: `error: {…"Context size has been exceeded."…}`,
    # then [DONE]. The error was dropped: the answer stopped mid-way, with exit status 0 and nothing said.
    from tests.sse_server import Raw, sse_events

    started = sse_events(Stream(["The first part ", "of a long answer"]))[:4]
    error = {"code": 500, "message": "Context size has been exceeded.", "type": "server_error"}
    llm.queue(Raw([*started, f"error: {json.dumps(error)}\n\n", "data: [DONE]\n\n"]))
    events = await run(make_engine(), chat(1))
    assert answer(events) == "The first part of a long answer" and len(llm.requests) == 1
    (err,) = [e for e in events if isinstance(e, EngineError)]
    assert err.kind == "context_too_long" and "filled up as it wrote" in err.message
    assert "The text so far is kept" in err.message and "Context size has been exceeded." in err.message
    assert "did not fit" not in err.message  # the question did fit: it was answered in part
    assert isinstance(events[-1], Done) and events[-1].transcript == "The first part of a long answer"


@pytest.mark.parametrize("text, tokens", [  # counted with OpenAI's cl100k tokenizer
    ("Москва — столица России, город федерального значения, административный центр. " * 20, 721),
    ("القاهرة هي عاصمة جمهورية مصر العربية وأكبر مدنها، وتعد من أكبر المدن. " * 20, 961),
    ("Great job 🎉🎉 👍 😀😂🤣 ✅ 🚀 🔥 " * 20, 461),
    ('Η Αθήνα είναι η πρωτεύουσα της Ελλάδας και μία από τις αρχαιότερες πόλεις του κόσμου. ' * 30, 2101),  # greek
    ('Київ — столиця України, одне з найбільших і найстаріших міст Східної Європи. ' * 30, 1591),  # ukrainian
    ('Београд је главни град Србије и један од најстаријих градова у Европи. ' * 30, 1441),  # serbian
    ('ירושלים היא עיר הבירה של ישראל ואחת הערים העתיקות בעולם. ' * 30, 1560),  # hebrew
    ('اسلام آباد پاکستان کا دارالحکومت ہے اور یہ ایک خوبصورت شہر ہے۔ ' * 30, 1620),  # urdu
    ('Երևանը Հայաստանի մայրաքաղաքն է և աշխարհի հնագույն քաղաքներից մեկը: ' * 30, 3720),  # armenian
    ('Warszawa jest stolicą Polski i największym miastem w kraju, położonym nad Wisłą. ' * 30, 871),  # polish
    ("Ankara, Türkiye'nin başkenti ve İstanbul'dan sonra en kalabalık ikinci şehridir. " * 30, 783),  # turkish
    ('12 345 6789 10 11 1213 14 15 16 17 1819 20 21 22 23 24 2526 27 28 29 ' * 30, 1320),  # spaced_ints
    ('3.14 2.718 1.414 1.732 0.577 2.302 6.022 1.602 9.109 ' * 30, 1080),  # floats_spaced
    ('Jan\t12\t345\t67\t890\t1\t23\r\nFeb\t456\t7\t89\t0\t123\t45\r\n' * 40, 1120),  # tsv
    ('\t \t  \t   x\t\t y \t\n' * 40, 280),  # tabs_spaces
    ('ＡＢＣ１２３ｘｙｚ\u3000！？' * 40, 720),  # fullwidth
    ('éàôüí Việt Nam' * 40, 721),  # combining
    ('ˈfəʊnəʊ ɪntəˈnæʃənəl ˈælfəbɪt ðə kwɪk braʊn' * 40, 1840),  # ipa
    ('አዲስ አበባ የኢትዮጵያ ዋና ከተማ ናት። ' * 40, 2401),  # amharic
    ('ᠮᠣᠩᠭᠣᠯ ᠤᠯᠤᠰ ' * 40, 1201),  # mongolian
    ('\ue0a0 \uf113 \ue615 \uf07c ' * 40, 560),  # private_use
    ('ｶﾀｶﾅ ﾃｽﾄ ' * 40, 640),  # halfwidth_kana
])
def test_the_estimate_is_not_below_a_real_tokenizers_count(text, tokens) -> None:
    assert estimate(text) >= tokens


def test_a_base64_blob_is_counted_as_a_tokenizer_splits_it() -> None:
    import base64

    blob = base64.b64encode(bytes(range(256)) * 8).decode()
    assert estimate(blob) >= len(blob) / 1.45  # cl100k: about 1.4 characters a token


def test_a_short_result_takes_no_room_from_the_long_ones_beside_it() -> None:
    from tinyrag_desktop.engine.context import _level

    assert _level([7, 8000, 8000], 6000, 8000) == 2996  # "2+2 = 4" whole, the pages share the rest
    assert _level([100, 200], 6000, 8000) == 8000  # all fit: the setting is the limit
    assert _level([3000, 3000, 3000], 6000, 8000) == 2000


async def test_a_long_pasted_question_is_said_again_short_after_each_rounds_results(llm, make_engine, registry) -> None:
    from tinyrag_desktop.tools import ToolResult, ToolSpec

    async def page(content, ctx):
        return ToolResult(f"Page {content}: notes about the garden. " * 60, source="page")

    registry.register(ToolSpec("page", "query", "A page.", page, "x"))
    llm.pages["/api/ps"] = {"models": [{"name": "scripted", "context_length": 4096}]}
    note = "My notes on the garden this year, roses first and the tulips after them. " * 75
    llm.queue(Stream(['<tool name="page"><query>a</query></tool>']), Stream(["Compared."]))
    events = await run(make_engine(), [{"role": "user", "content": note + "\nCompare with the page."}])
    assert answer(events).endswith("Compared.") and not [e for e in events if isinstance(e, EngineError)]
    results = llm.requests[-1]["messages"][-1]["content"]
    assert results.count("My notes on the garden") <= 5 and results.rstrip().endswith("…")


def test_earlier_messages_come_back_when_the_results_were_cut_enough() -> None:
    history = chat(3)[:-1]
    tail = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "<tool …>"},
            {"role": "user", "content": "r" * 12000}]

    def rewrite(limit):
        return "r" * limit

    fitting = Fitting([SYSTEM], history, tail[:2], setting=4096)
    fitting.add_results(tail[2], rewrite, 12000)
    fitting.budget = 2500
    convo = fitting._shortest()
    assert ctxmod.tokens(convo) <= 2500 and len(convo) > 4  # some of the chat is sent beside the cut results


def test_the_least_context_setting_holds_the_instructions_with_every_tool(settings) -> None:
    """The schema's least "Context to use" holds the app's instructions with every tool on, the passages cut
    to their least, a short question and the least reply: below it (10, 600) every question failed."""
    from tinyrag_desktop.engine import prompts
    from tinyrag_desktop.settings import MIN_CONTEXT_TOKENS
    from tinyrag_desktop.tools import default_registry

    every = settings.replace(allow_shell_exec=True, allow_nanogo=True, network_tools=True)
    tools = default_registry().enabled(every)
    head = [{"role": "system", "content": prompts.system_prompt(persona="You are helpful.", tools=tools,
                                                                 context="A passage. " * (ctxmod.MIN_PASSAGES // 11))},
            *prompts.example_turns(tools)]
    question = {"role": "user", "content": "What does the report say about the roses sold this spring?"}
    assert ctxmod.tokens([*head, question]) + ctxmod.MIN_REPLY <= MIN_CONTEXT_TOKENS


async def test_a_question_over_the_context_setting_names_the_setting_not_the_server(llm, make_engine) -> None:
    """The server's model holds 100,000 tokens; "Context to use" is what refused the question, and it is
    named (the error said "the model's context holds 1,536 tokens" and told the user to change the server)."""
    llm.pages["/props"] = {"default_generation_settings": {"n_ctx": 100000}}
    events = await run(make_engine(context_tokens=1536), chat(0, question="Summarise this: " + "word " * 3000))
    (error,) = [e for e in events if isinstance(e, EngineError)]
    assert error.kind == "context_too_long"
    assert error.message.startswith("Context to use in Settings → Limits is 1,536 tokens"), error.message
    assert "OLLAMA_CONTEXT_LENGTH" not in error.message and llm.requests == []


# -- what is named when nothing is left to cut ------------------------------------------------------------------

LLAMA_CPP_OLD = {"error": {"code": 400, "message": "the request exceeds the available context size. try increasing "
                                                   "the context size or enable context shift"}}
OLLAMA_REFUSAL = {"error": "the input length exceeds the context length"}


@pytest.mark.parametrize("words", [LLAMA_CPP_OLD, OLLAMA_REFUSAL,
                                   {"error": {"message": "the request exceeds the available context size",
                                              "n_ctx": 4096}}])
async def test_a_first_question_too_long_for_a_server_that_only_refuses_blames_the_question(
        llm, make_engine, words) -> None:
    # a new chat, a pasted report, a server that cannot say its window: "the question with the chat's latest
    # messages did not fit … even cut short … start a new chat" was said of a chat of one question
    llm.refuse = refusing(4096, words)
    events = await run(make_engine(), chat(0, question="Summarise this report:\n" + "Revenue rose 4%. " * 1500))
    (error,) = [e for e in events if isinstance(e, EngineError)]
    assert error.kind == "context_too_long" and len(llm.requests) == 1
    assert error.message.startswith("This question is longer than the model can read at once (about "), error.message
    assert "new chat" not in error.message and "latest messages" not in error.message
    assert ("the model's context holds 4,096 tokens" in error.message) == ("n_ctx" in str(words))


PERSONA = "You are Captain Hook, a pirate. " + "Always speak like a pirate, mention the sea, and end with Arrr. " * 230


async def test_a_persona_too_long_for_the_window_is_named_not_the_question(llm, make_engine) -> None:
    llm.pages["/props"] = {"default_generation_settings": {"n_ctx": 4096}}
    events = [e async for e in make_engine().run([{"role": "user", "content": "hi"}], system=PERSONA)]
    (error,) = [e for e in events if isinstance(e, EngineError)]
    assert error.kind == "context_too_long" and llm.requests == []
    assert error.message.startswith("The persona is longer than the model can read at once (about 3,"), error.message
    assert " with the app's instructions and the question); the model's context holds 4,096 tokens. " in (
        error.message)
    assert "Settings → Personas" in error.message and "question is longer" not in error.message
    # a server that cannot say its window, and refuses without naming it
    del llm.pages["/props"]
    forget_told()
    llm.refuse = refusing(2048, OLLAMA_REFUSAL)
    events = [e async for e in make_engine().run([{"role": "user", "content": "hi"}], system=PERSONA)]
    (error,) = [e for e in events if isinstance(e, EngineError)]
    assert error.message.startswith("The persona is longer than the model can read at once (about 3,")
    assert "context holds" not in error.message
    # and beside a question longer than it, the question is named
    events = [e async for e in make_engine().run([{"role": "user", "content": "Read: " + "word " * 5000}],
                                                 system=PERSONA)]
    (error,) = [e for e in events if isinstance(e, EngineError)]
    assert error.message.startswith("This question is longer"), error.message


async def test_a_persona_over_the_context_setting_names_both(llm, make_engine) -> None:
    events = [e async for e in make_engine(context_tokens=2048).run([{"role": "user", "content": "hi"}],
                                                                    system=PERSONA)]
    (error,) = [e for e in events if isinstance(e, EngineError)]
    assert error.message.startswith("Context to use in Settings → Limits is 2,048 tokens (or pass --context-tokens), "
                                    "and the persona is too long for it (about 3,"), error.message
    assert "raise Context to use" in error.message


async def test_a_short_question_refused_for_the_apps_instructions_names_them_not_the_question(
        llm, settings, http, tmp_path) -> None:
    # A three-word question was told "This question is longer than the model can read at once (about 1,170
    # tokens with the app's instructions). Shorten it…": the instructions and the tools' descriptions were
    # nearly all of it, and shortening the question would never help.
    from tinyrag_desktop.engine import Engine
    from tinyrag_desktop.tools import default_registry

    def make_engine(**changes) -> Engine:  # the app's own tools, whose descriptions it sends
        return Engine(settings=settings.replace(**changes), data_dir=tmp_path, http=http, registry=default_registry())

    llm.refuse = refusing(400, LLAMA_CPP_OLD)
    events = await run(make_engine(network_tools=True, allow_shell_exec=True), chat(0, question="context test again"))
    (error,) = [e for e in events if isinstance(e, EngineError)]
    assert error.kind == "context_too_long"
    assert error.message.startswith("The model's context is too small for the app's instructions and the "
                                    "descriptions of its tools (about "), error.message
    assert "question is longer" not in error.message and "Shorten" not in error.message
    assert "Ollama: OLLAMA_CONTEXT_LENGTH, or num_ctx in its Modelfile" in error.message
    # the settings that take tools out of what is sent, as the app sends them: these two were on
    assert error.message.endswith("or offer fewer tools: turn off “Network tools” (or pass --offline) and “Allow "
                                  "shell commands” in Settings → Tools."), error.message
    # with those off, the instructions are shorter, and only the tools that are always offered are left
    events = await run(make_engine(network_tools=False), chat(0, question="context test again"))
    (error,) = [e for e in events if isinstance(e, EngineError)]
    assert error.message.startswith("The model's context is too small for the app's instructions"), error.message
    assert "fewer tools" not in error.message

