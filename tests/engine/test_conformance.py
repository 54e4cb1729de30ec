"""Conformance of the engine to spec/xml-tool-protocol.txt: safety rules, defaults and SSE payloads.

Each test names the spec line it proves; the parser's rules are in tests/protocol/test_conformance.py.
The model is the loopback server of tests/sse_server.py, streaming hostile answers in small pieces.
"""

from __future__ import annotations

import asyncio
import logging
import time
from http.server import BaseHTTPRequestHandler

import pytest

from tests.engine.conftest import collect
from tests.engine.test_engine import block, of, tokens, visible
from tests.loopback import serving, silent_server
from tests.sse_server import Stream
from tinyrag_desktop.engine import Engine, EngineConfig
from tinyrag_desktop.engine.events import Done, Reasoning, Route, Text, ToolFinished, ToolStarted
from tinyrag_desktop.settings import Settings, defaults
from tinyrag_desktop.tools import ToolResult, ToolSpec
from tinyrag_desktop.tools.registry import default_registry

# -- block format (spec lines 13-40): the tools and their inner elements ---------------------------------


def test_the_spec_tools_take_the_spec_elements() -> None:
    elements = {spec.name: spec.element for spec in default_registry().all()}
    assert {name: elements.get(name) for name in
            ("rag_knowledge", "url_fetch", "nanogo", "websearch", "calculate", "wikipedia")} == {
        "rag_knowledge": "query", "url_fetch": "url", "nanogo": "source",
        "websearch": "query", "calculate": "query", "wikipedia": "query"}


def test_no_generic_http_or_sql_tool_is_exposed() -> None:
    # Spec lines 64-65: the model gets url_fetch (plain text) and rag_knowledge (one fixed SELECT), nothing
    # that takes a method, headers or SQL. A new tool must be added here on purpose.
    assert sorted(default_registry().names()) == sorted(
        ["rag_knowledge", "calculate", "url_fetch", "websearch", "wikipedia", "nanogo", "shell"])


# -- safety rules (spec lines 57-67) ---------------------------------------------------------------------


def test_the_limits_default_to_the_spec() -> None:
    expected = (5, 3, 3, 30.0)
    cfg = EngineConfig()
    assert (cfg.max_tools_total, cfg.max_tools_per_round, cfg.max_continuations, cfg.tool_timeout) == expected
    cfg = EngineConfig.from_settings(defaults())  # what the app and the CLI use
    assert (cfg.max_tools_total, cfg.max_tools_per_round, cfg.max_continuations, cfg.tool_timeout) == expected


async def test_by_default_a_request_has_at_most_four_rounds(llm, make_engine) -> None:
    llm.queue(*[Stream(tokens(f"Round {i}: " + block("echo", f"r{i}"))) for i in range(8)])
    events = await collect(make_engine())  # no EngineConfig: the defaults, from the settings
    assert len(llm.requests) == 4 and events[-1].rounds == 4
    # the fourth round's call runs (its card shows the result) though the model reads it no more
    assert [e.query for e in of(events, ToolStarted)] == ["r0", "r1", "r2", "r3"]


async def test_by_default_the_tool_timeout_is_thirty_seconds(llm, make_engine, monkeypatch) -> None:
    asked: list[float | None] = []
    real = asyncio.timeout

    def recording(delay: float | None) -> asyncio.Timeout:
        asked.append(delay)
        return real(delay)

    monkeypatch.setattr(asyncio, "timeout", recording)
    llm.queue(Stream(tokens(block("echo", "x"))), Stream(["ok"]))
    await collect(make_engine())
    assert 30.0 in asked


async def test_by_default_at_most_five_calls_run_per_answer(llm, make_engine) -> None:
    llm.queue(*[Stream(tokens(" ".join(block("echo", f"{r}.{i}") for i in range(2)))) for r in range(4)])
    events = await collect(make_engine())
    results = of(events, ToolFinished)
    assert [r.status for r in results].count("ok") == 5 and events[-1].tools_run == 5
    assert [r.error for r in results if r.status == "skipped"] == [
        "limit reached: at most 5 tool calls per answer"] * 3


async def test_duplicates_are_skipped_across_rounds_but_not_across_requests(llm, make_engine) -> None:
    engine = make_engine()
    llm.queue(Stream(tokens(block("echo", "same"))), Stream(tokens("again " + block("echo", "same"))),
              Stream(["from the first result"]),  # the round after a refused repeat (see test_engine)
              Stream(tokens(block("echo", "same"))), Stream(["fin"]))
    first = of(await collect(engine), ToolFinished)
    assert [r.status for r in first] == ["ok", "skipped"] and "duplicate" in first[1].error
    second = of(await collect(engine), ToolFinished)  # the seen map belongs to one request
    assert [r.status for r in second] == ["ok"]


async def test_a_duplicate_is_the_same_tool_however_its_name_is_spelt(llm, make_engine, registry) -> None:
    ran: list[str] = []

    async def counting(content: str, ctx) -> ToolResult:
        ran.append(content)
        return ToolResult("ok")

    registry.register(ToolSpec("web_search", "query", "Counts.", counting, "x"))
    spellings = ["web_search", "Web_Search", "websearch", "web-search", "WEB SEARCH"]
    llm.queue(Stream(tokens("".join(block(name, "tinyRAG") for name in spellings))), Stream(["fin"]))
    results = of(await collect(make_engine(EngineConfig(max_tools_per_round=10))), ToolFinished)
    assert ran == ["tinyRAG"]
    assert sorted(r.status for r in results) == ["ok"] + ["skipped"] * 4  # the run one may finish last
    assert {r.tool for r in results} == {"web_search"}  # the card and the model see the tool's own name


async def test_a_call_corrected_to_the_right_element_is_no_duplicate(llm, make_engine) -> None:
    llm.queue(Stream(tokens(block("fetch", "https://example.org"))),  # refused: fetch takes <url>
              Stream(tokens(block("fetch", "https://example.org", "url"))),  # as the note told it
              Stream(tokens(block("fetch", "https://example.org", "url"))), Stream(["fin"]))
    results = of(await collect(make_engine()), ToolFinished)
    assert [(r.param, r.status) for r in results] == [("query", "error"), ("url", "ok"), ("url", "skipped")]


async def test_invalid_blocks_are_logged_shown_and_not_run(llm, make_engine, caplog) -> None:
    bad = ['<tool name=""><query>x</query></tool>', '<tool name="echo"><query>  </query></tool>',
           '<tool name="echo"><query>x</tool>', f'<tool name="echo">{block("echo", "inner")}</tool>']
    text = " | ".join(bad) + " | end"
    llm.queue(Stream(tokens(text, 2)))
    with caplog.at_level(logging.WARNING, logger="tinyrag_desktop.engine.engine"):
        events = await collect(make_engine())
    assert of(events, ToolStarted) == [] and of(events, ToolFinished) == []
    assert visible(events) == text and events[-1].transcript == text
    logged = [r.getMessage() for r in caplog.records if "invalid tool block" in r.getMessage()]
    assert len(logged) == len(bad)


async def test_disabled_shell_and_nanogo_never_run(llm, settings, http, tmp_path) -> None:
    text = block("shell", "echo pwned") + block("nanogo", "fmt.Println(2 + 2)", "source")
    llm.queue(Stream(tokens(text)), Stream(["fin"]))
    assert settings.allow_shell_exec is False and settings.allow_nanogo is False  # spec lines 66-67
    engine = Engine(settings=settings, data_dir=tmp_path, http=http, registry=default_registry())
    events = await collect(engine)
    assert of(events, ToolStarted) == []
    results = of(events, ToolFinished)
    assert [(r.tool, r.status) for r in results] == [("shell", "error"), ("nanogo", "error")]
    assert all("disabled" in r.error for r in results)


async def test_the_spec_nanogo_example_runs_when_allowed(llm, settings, http, tmp_path) -> None:
    llm.queue(Stream(tokens(block("nanogo", "fmt.Println(2 + 2)", "source"))), Stream(["It printed 4."]))
    engine = Engine(settings=settings.replace(allow_nanogo=True), data_dir=tmp_path, http=http,
                    registry=default_registry())
    (result,) = of(await collect(engine), ToolFinished)
    assert (result.status, result.result.strip()) == ("ok", "4")


# -- rule 2 through the engine: a block split anywhere runs once, as soon as it is complete ----------------


async def test_a_block_split_at_every_position_runs_exactly_once(llm, make_engine) -> None:
    text = "Voilà: " + block("echo", "ünï 😀 &amp; <![CDATA[<b>]]>") + " fin"
    engine = make_engine(EngineConfig(max_continuations=0))
    for k in range(len(text) + 1):
        llm.queue(Stream([text[:k], text[k:]]))
        events = await collect(engine)
        assert [s.query for s in of(events, ToolStarted)] == ["ünï 😀 & <b>"], k
        assert [r.status for r in of(events, ToolFinished)] == ["ok"], k
        assert visible(events) == "Voilà:  fin", k


async def test_with_no_round_after_the_first_tools_are_offered_and_a_call_runs(llm, make_engine) -> None:
    # DESIGN: at most 1 + max_continuations rounds, and the limits skip calls by count. A call in the only
    # round runs, and the user reads its result on its card; the model is told no result will come back.
    llm.queue(Stream(tokens("Let me see. " + block("echo", "x"))))
    events = await collect(make_engine(EngineConfig(max_continuations=0)))
    assert [(r.query, r.status) for r in of(events, ToolFinished)] == [("x", "ok")] and len(llm.requests) == 1
    assert "echo" in llm.requests[0]["messages"][0]["content"]
    assert "raise “Rounds after the first” in Settings → Limits" in visible(events)


@pytest.mark.parametrize("cut_after", [None, 4, 5, 12, 14])  # None: the stream ends normally, mid-block
async def test_a_block_cut_off_by_the_end_of_the_stream_never_runs(llm, make_engine, cut_after) -> None:
    text = "Checking " + block("echo", "x")
    pieces = tokens(text)[:-1] if cut_after is None else tokens(text)
    llm.queue(Stream(pieces, cut_after=cut_after), Stream(["unexpected"]))
    events = await collect(make_engine())
    assert of(events, ToolStarted) == [] and of(events, ToolFinished) == []
    if cut_after is None:  # the model ended its reply in the block: told why it did not run, it may write it again
        assert len(llm.requests) == 2
        assert "it is not a valid block (the block was not closed with </tool>" in llm.requests[1]["messages"][-1]["content"]
        assert visible(events) == "".join(pieces) + "\n\nunexpected"
    else:  # the stream broke off: the answer ends there
        assert len(llm.requests) == 1 and visible(events) == "".join(pieces[:cut_after])  # the partial XML is text


@pytest.mark.parametrize("size", [1, 10_000])  # every boundary at once; everything in one chunk
async def test_every_valid_block_gets_exactly_one_result_at_its_place(llm, make_engine, size) -> None:
    valid = [
        block("echo", "a"),  # runs
        block("echo", " a "),  # duplicate
        block("nope", "x"),  # unknown tool
        block("off", "y"),  # disabled
        block("fetch", "q"),  # wrong inner element
        block("fail", "z"),  # runs, fails
        "<tool name='echo'  >\n <query>b</query>\n</tool>",  # runs (third this round)
        block("echo", "c"),  # over the per-round limit
    ]
    text = (f"Start {valid[0]}{valid[1]} mid {valid[2]}\n{valid[3]}{valid[4]}"
            f' <tool name="echo"><query>bad</tool> {valid[5]}'
            f"\n```\n{block('echo', 'fenced')}\n```\n`{block('echo', 'inline')}` {valid[6]} {valid[7]} end")
    llm.queue(Stream(tokens(text, size)), Stream(["fin"]))
    events = await collect(make_engine())
    starts, results = of(events, ToolStarted), of(events, ToolFinished)
    assert [s.query for s in starts] == ["a", "z", "b"]
    assert len(results) == len(valid) and len({r.id for r in results}) == len(valid)
    assert {s.id for s in starts} <= {r.id for r in results}
    assert [r.status for r in results].count("skipped") == 2
    # In stream order: each valid block's raw XML is its tool_start or (not run) its tool_result, in place;
    # the rest is visible text. Results of running tools may come later, so only those are left out.
    placed = []
    for ev in events:
        if isinstance(ev, Text):
            placed.append(ev.text)
        elif isinstance(ev, ToolStarted) or (isinstance(ev, ToolFinished) and ev.elapsed_ms == 0
                                             and ev.status != "ok" and ev.id not in {s.id for s in starts}):
            placed.append(ev.raw)
    assert "".join(placed) == text + "\n\nfin"
    assert events[-1].transcript == text + "\n\nfin"  # the raw XML stays in the transcript (spec line 73)


async def test_an_answer_that_mentions_think_still_runs_its_blocks(llm, make_engine) -> None:
    text = "Models wrap thoughts in `<think>` tags. " + block("echo", 'say "<think>"') + " done"
    llm.queue(Stream(tokens("<think>plan</think>" + text, 2)), Stream(["fin"]))
    events = await collect(make_engine())
    assert [s.query for s in of(events, ToolStarted)] == ['say "<think>"']
    assert "".join(e.text for e in of(events, Reasoning)) == "plan"
    assert visible(events) == text.replace(block("echo", 'say "<think>"'), "") + "\n\nfin"


# -- tool failures are results ----------------------------------------------------------------------------


async def test_a_tool_that_crashes_is_an_error_result_and_the_answer_goes_on(llm, make_engine, registry) -> None:
    async def crash(content: str, ctx) -> ToolResult:
        raise RuntimeError("boom")

    registry.register(ToolSpec("crash", "query", "Crashes.", crash, "x"))
    llm.queue(Stream(tokens(block("crash", "x") + " still here")), Stream(["fin"]))
    events = await collect(make_engine())
    (result,) = of(events, ToolFinished)
    assert result.status == "error" and "RuntimeError: boom" in result.error
    assert visible(events).endswith("still here\n\nfin") and isinstance(events[-1], Done)


# -- SSE payloads (spec lines 86-91) ---------------------------------------------------------------------


async def test_the_events_carry_the_spec_payloads(llm, make_engine) -> None:
    llm.queue(Stream(tokens(block("echo", "ünï 😀"))), Stream(["fin"]))
    events = await collect(make_engine())
    route = of(events, Route)[0].to_json()
    start = of(events, ToolStarted)[0].to_json()
    result = of(events, ToolFinished)[0].to_json()
    assert {"mode", "reason", "hints"} <= route.keys() and route["event"] == "route"
    assert {"id", "tool", "query"} <= start.keys() and start["event"] == "tool_start"
    assert {"id", "tool", "query", "source", "error", "result_bytes"} <= result.keys()
    assert result["event"] == "tool_result" and result["id"] == start["id"]
    assert (result["tool"], result["query"], result["source"], result["error"]) == (
        "echo", "ünï 😀", "echo-source", None)
    assert result["result_bytes"] == len("echo: ünï 😀".encode()) == 16  # bytes, not characters


async def test_a_tool_that_keeps_time_gets_the_whole_timeout_and_says_so_itself(llm, settings, http, tmp_path) -> None:
    # nanoGo stopped itself at 95% of the timeout: its card said "4.8 s" beside "within the 5-second tool
    # timeout". It now runs for the whole timeout, and the engine's own stop waits a moment longer.
    llm.queue(Stream(tokens(block("nanogo", "for {\n}", "source"))), Stream(["It looped."]))
    engine = Engine(settings=settings.replace(allow_nanogo=True, tool_timeout=1.0), data_dir=tmp_path, http=http,
                    registry=default_registry())
    (result,) = of(await collect(engine), ToolFinished)
    assert result.error == "The program did not finish within the 1-second tool timeout and was stopped."
    assert result.elapsed_ms >= 1000


class _Drip(BaseHTTPRequestHandler):
    """A page that never ends, a line every 50 ms; or, at /silent, headers and then nothing."""

    def do_GET(self) -> None:  # noqa: N802
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        for _ in range(200):
            if self.path != "/silent":
                self.wfile.write(b"tick\n")
                self.wfile.flush()
            time.sleep(0.05)

    def log_message(self, *args: object) -> None:
        pass


async def test_url_fetch_keeps_to_the_tool_timeout_and_says_what_stopped_it(llm, settings, http, tmp_path) -> None:
    # Spec line 63, "Per-tool timeout": url_fetch gave up at its own 25 s under any setting, and said "near the
    # 60-second tool timeout" of a page it had cut at 21 s. Its result comes back before the engine's stop.
    with serving(_Drip) as base:
        llm.queue(Stream(tokens(block("url_fetch", f"{base}/feed", "url") + " " + block("url_fetch", f"{base}/silent",
                                                                                          "url"))),
                  Stream(["Read."]))
        engine = Engine(settings=settings.replace(tool_timeout=1.0, url_fetch_allow_private=True), data_dir=tmp_path,
                        http=http, registry=default_registry())
        feed, silent = of(await collect(engine), ToolFinished)
    assert feed.status == "ok" and feed.elapsed_ms < 1500  # before the engine stops it, 0.5 s after the timeout
    assert feed.result.startswith(f"URL: {base}/feed\n\ntick\ntick\n")
    assert feed.result.endswith(" close to the 1-second tool timeout; only its first"
                                f" {feed.result.count('tick') * 5} bytes were read.]")
    assert silent.status == "error" and silent.elapsed_ms >= 1000  # in its own words, not the engine's stop
    assert silent.error == f"The page did not finish loading within the 1-second tool timeout: {base}/silent"




async def test_a_silent_wikipedia_or_searxng_is_said_in_the_tools_words_before_the_engine_stops_it(
        llm, settings, http, tmp_path) -> None:
    # Their requests waited exactly the tool timeout, when the engine stops a tool that does not keep time:
    # the engine won, and the reader saw "did not finish within the 1-second tool timeout and was stopped"
    # instead of which server sent nothing, for how long.
    with silent_server() as (base, _):
        llm.queue(Stream(tokens(block("wikipedia", "Ada Lovelace") + " " + block("websearch", "Ada Lovelace"))),
                  Stream(["Nothing came."]))
        extra = {**settings.extra, "wikipedia_api_url": f"{base}/api.php"}
        engine = Engine(settings=Settings(settings.replace(tool_timeout=1.0, searxng_url=base).values, extra),
                        data_dir=tmp_path, http=http, registry=default_registry())
        wiki, search = of(await collect(engine), ToolFinished)
    assert (wiki.status, wiki.error) == ("error", "Wikipedia (en) sent nothing for 0.5 seconds, and the request was "
                                                  "given up.")
    assert (search.status, search.error) == ("error", f"The SearXNG instance at {base} sent nothing for 0.5 seconds, "
                                                      "and the request was given up.")

async def test_at_a_limit_of_zero_a_call_is_skipped_as_no_calls_allowed(llm, make_engine) -> None:
    llm.queue(Stream(tokens(block("echo", "x"))), Stream(["fin"]))
    (result,) = of(await collect(make_engine(EngineConfig(max_tools_total=0))), ToolFinished)
    assert (result.status, result.error) == ("skipped", "limit reached: no tool calls per answer")
