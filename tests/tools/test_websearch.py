"""websearch: SearXNG's JSON API for real on loopback; ddgs (which needs the internet) through a stand-in
DDGS class that raises what the real one raises, to check the words the user reads."""

from __future__ import annotations

import asyncio
from pathlib import Path

import ddgs
import pytest
from ddgs.exceptions import DDGSException, RatelimitException, TimeoutException

from tinyrag_desktop.tools.errors import ToolError
from tinyrag_desktop.tools.registry import ToolContext
from tinyrag_desktop.tools.web import websearch
from tinyrag_desktop.tools.websearch import SearchError, searxng_endpoint

from tests.loopback import silent_server

from .conftest import LoopbackServer, RequestHandler

RESULTS = [
    {"title": f"Result number {n}", "url": f"https://site{n}.example/page", "content": f"Snippet {n}  text.",
     "engine": "bing"} for n in range(1, 9)
]


def searx(h: RequestHandler) -> None:
    if h.query.get("format") != ["json"]:
        h.send_bytes(403, b"Forbidden", "text/html")
        return
    query = h.query["q"][0]
    h.send_json({"query": query, "number_of_results": len(RESULTS), "results": RESULTS,
                 "answers": [], "suggestions": [], "unresponsive_engines": []})


def ctx(data_dir: Path, **settings: object) -> ToolContext:
    return ToolContext(settings={"websearch_results": 5, **settings}, data_dir=data_dir)


async def test_searxng_results_are_listed(server: LoopbackServer, data_dir: Path) -> None:
    server.add("/searx/search", searx)
    result = await websearch("local  RAG\ndesktop", ctx(data_dir, searxng_url=server.url("/searx/"),
                                                         websearch_results=3))
    assert result.text.splitlines()[:4] == [
        "Web results for “local RAG desktop” (SearXNG):", "",
        "1. Result number 1", "   https://site1.example/page"]
    assert "   Snippet 1 text." in result.text
    assert "3. Result number 3" in result.text and "Result number 4" not in result.text
    assert result.source == server.url("/searx/search")
    seen = server.seen[0]
    assert seen.query["q"] == ["local RAG desktop"] and seen.query["format"] == ["json"]


async def test_searxng_with_no_results(server: LoopbackServer, data_dir: Path) -> None:
    server.add("/search", lambda h: h.send_json({"results": [], "unresponsive_engines": []}))
    result = await websearch("qwertyuiop", ctx(data_dir, searxng_url=server.url("")))
    assert result.text == "No web results for “qwertyuiop” (SearXNG)."


async def test_searxng_blocked_engines_are_named(server: LoopbackServer, data_dir: Path) -> None:
    server.add("/search", lambda h: h.send_json({
        "results": [], "unresponsive_engines": [["google", "CAPTCHA"], ["duckduckgo", "too many requests"]]}))
    with pytest.raises(SearchError, match=r"did not answer \(google: CAPTCHA, duckduckgo: too many requests\)"
                                          r".*blocking or rate-limiting"):
        await websearch("anything", ctx(data_dir, searxng_url=server.url("/")))


@pytest.mark.parametrize(("status", "words"), [(403, "JSON output may be off"), (429, "rate-limiting"),
                                               (502, "answered 502 Bad Gateway")])
async def test_searxng_refusals_in_plain_words(server: LoopbackServer, data_dir: Path, status: int,
                                               words: str) -> None:
    server.static("/search", "no", "text/html", status=status)
    with pytest.raises(SearchError, match=words):
        await websearch("anything", ctx(data_dir, searxng_url=server.url("/")))


async def test_searxng_that_is_not_json(server: LoopbackServer, data_dir: Path) -> None:
    server.static("/search", "<html>a login page</html>")
    with pytest.raises(SearchError, match="did not answer with JSON"):
        await websearch("anything", ctx(data_dir, searxng_url=server.url("/")))


async def test_searxng_unreachable(data_dir: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(SearchError, match="Could not connect to the SearXNG instance"):
        await websearch("anything", ctx(data_dir, searxng_url=f"http://127.0.0.1:{port}"))


def test_searxng_endpoint() -> None:
    assert searxng_endpoint("https://searx.example/") == "https://searx.example/search"
    assert searxng_endpoint("https://searx.example/search") == "https://searx.example/search"


class FakeDDGS:
    """Stands in for ddgs.DDGS: records the call, then returns ``rows`` or raises ``error``."""

    rows: list[dict] = []
    error: Exception | None = None
    calls: list[tuple[str, int, object]] = []

    def __init__(self, timeout: int | None = 5, **_: object) -> None:
        self.timeout = timeout

    def text(self, query: str, max_results: int | None = 10, **_: object) -> list[dict]:
        FakeDDGS.calls.append((query, max_results, self.timeout))
        if FakeDDGS.error is not None:
            raise FakeDDGS.error
        return FakeDDGS.rows[:max_results]


@pytest.fixture
def fake_ddgs(monkeypatch: pytest.MonkeyPatch) -> type[FakeDDGS]:
    FakeDDGS.rows, FakeDDGS.error, FakeDDGS.calls = [], None, []
    monkeypatch.setattr(ddgs, "DDGS", FakeDDGS)
    return FakeDDGS


async def test_ddgs_results_are_formatted(fake_ddgs: type[FakeDDGS], data_dir: Path) -> None:
    fake_ddgs.rows = [{"title": f"T{n}", "href": f"https://e{n}.example/", "body": f"B{n}"} for n in range(9)]
    result = await websearch("tiny rag", ctx(data_dir, websearch_results=2))
    assert result.text == ("Web results for “tiny rag” (DuckDuckGo via ddgs):\n\n"
                           "1. T0\n   https://e0.example/\n   B0\n\n2. T1\n   https://e1.example/\n   B1")
    assert fake_ddgs.calls == [("tiny rag", 2, 10)]
    assert result.source == "duckduckgo"


@pytest.mark.parametrize(("error", "words"), [
    (RatelimitException("https://duckduckgo.com 202 Ratelimit"), "DuckDuckGo is rate-limiting searches"),
    (DDGSException("https://html.duckduckgo.com/html 202 Ratelimit"), "rate-limiting"),
    (TimeoutException("https://lite.duckduckgo.com/lite/ timed out"), "timed out"),
    (DDGSException("403 Forbidden"), "blocked the search"),
    (DDGSException("ConnectError: dns error: failed to lookup address"), "Could not reach the search engines"),
    (DDGSException("something odd"), r"The web search failed \(DDGSException: something odd\)"),
])
async def test_ddgs_failures_in_plain_words(fake_ddgs: type[FakeDDGS], data_dir: Path, error: Exception,
                                            words: str) -> None:
    fake_ddgs.error = error
    with pytest.raises(SearchError, match=words):
        await websearch("anything", ctx(data_dir))


async def test_a_search_waits_no_longer_than_the_tool_timeout_and_says_how_long(fake_ddgs: type[FakeDDGS],
                                                                              data_dir: Path) -> None:
    # ddgs waited 10 s (in a thread no one can stop) under a 3-second tool timeout, and SearXNG 15 s; a
    # timeout said "timed out" and no more. They wait a little less, so that their words come before the
    # engine's stop (tests/engine/test_conformance.py).
    fake_ddgs.error = TimeoutException("https://lite.duckduckgo.com/lite/ timed out")
    with pytest.raises(SearchError, match=r"^The web search timed out: the search engines did not answer within "
                                          r"2\.5 seconds; the network may be down or slow\.$"):
        await websearch("anything", ctx(data_dir, tool_timeout=3.0))
    assert fake_ddgs.calls == [("anything", 5, 2.5)]
    with silent_server() as (base, _):
        with pytest.raises(SearchError, match=r"^The SearXNG instance at http://127\.0\.0\.1:\d+ sent nothing for "
                                              r"0\.25 seconds, and the request was given up\.$"):
            await asyncio.wait_for(websearch("anything", ctx(data_dir, searxng_url=base, tool_timeout=0.5)), 5)


async def test_ddgs_no_results_is_not_an_error(fake_ddgs: type[FakeDDGS], data_dir: Path) -> None:
    fake_ddgs.error = DDGSException("No results found.")
    result = await websearch("zzzz", ctx(data_dir))
    assert result.text == "No web results for “zzzz” (DuckDuckGo via ddgs)."


async def test_empty_query_and_offline(fake_ddgs: type[FakeDDGS], data_dir: Path) -> None:
    with pytest.raises(SearchError, match="Give some words"):
        await websearch("   ", ctx(data_dir))
    with pytest.raises(ToolError, match="offline mode"):
        await websearch("anything", ctx(data_dir, network_tools=False))
    assert fake_ddgs.calls == []


# ---- property test: a SearXNG answer is outside input -------------------------------------------------------

import httpx  # noqa: E402
from hypothesis import given, settings as hsettings, strategies as st  # noqa: E402

from tinyrag_desktop.tools.websearch import searxng_search  # noqa: E402

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["results", "url", "title", "content", "unresponsive_engines"]), inner, max_size=4),
    max_leaves=12,
)


@hsettings(max_examples=80, deadline=None)
@given(_json)
async def test_any_searxng_answer_gives_hits_or_a_search_error(answer: object) -> None:
    transport = httpx.MockTransport(lambda request: httpx.Response(200, json=answer))
    async with httpx.AsyncClient(transport=transport) as http:
        try:
            hits = await searxng_search(http, "http://searx.test", "q", 5)
        except ToolError:
            return
    assert len(hits) <= 5 and all(isinstance(h.url, str) and h.url for h in hits)
