"""The wikipedia tool and get_article against a fake MediaWiki API on loopback (redirects, search,
disambiguation, language fallback, errors)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from tinyrag_desktop.tools.registry import ToolContext
from tinyrag_desktop.tools.web import wikipedia
from tinyrag_desktop.tools.wikipedia_api import (ArticleNotFound, Disambiguation, WikipediaError, edition,
                                                 get_article, lead_section, plain_text)

from tests.loopback import silent_server
from tinyrag_desktop.tools.errors import ToolError

from .conftest import LoopbackServer, RequestHandler

RAG_EXTRACT = (
    "Retrieval-augmented generation (RAG) is a technique that lets a language model look up documents "
    "before it answers.\nIt was described in 2020.\n\n"
    "== History ==\nThe idea grew out of open-domain question answering.\n\n"
    "=== Early systems ===\nEarly systems used sparse retrieval.\n\n\n\n"
    "== See also ==\nLarge language model"
)


@dataclass
class FakeWiki:
    """One edition: articles (title → extract), redirects, disambiguation pages (title → linked titles)."""

    lang: str
    articles: dict[str, str] = field(default_factory=dict)
    redirects: dict[str, str] = field(default_factory=dict)
    disambiguation: dict[str, list[str]] = field(default_factory=dict)

    def page(self, title: str, follow: bool) -> tuple[dict, list]:
        normalized = title[:1].upper() + title[1:]
        hops = []
        if follow and normalized in self.redirects:
            hops.append({"from": normalized, "to": self.redirects[normalized]})
            normalized = self.redirects[normalized]
        url = f"https://{self.lang}.wikipedia.org/wiki/{normalized.replace(' ', '_')}"
        if normalized in self.disambiguation:
            return ({"ns": 0, "title": normalized, "pageid": 9, "pageprops": {"disambiguation": ""},
                     "fullurl": url, "extract": f"{normalized} may refer to:",
                     "links": [{"ns": 0, "title": t} for t in self.disambiguation[normalized]]}, hops)
        if normalized in self.articles:
            return ({"ns": 0, "title": normalized, "pageid": 7, "fullurl": url,
                     "extract": self.articles[normalized]}, hops)
        return {"ns": 0, "title": normalized, "missing": True}, hops

    def search(self, words: str) -> list[dict]:
        terms = words.lower().split()
        hits = [t for t, text in self.articles.items() if all(w in (t + " " + text).lower() for w in terms)]
        return [{"ns": 0, "title": t} for t in hits]

    def answer(self, h: RequestHandler) -> None:
        q = {k: v[0] for k, v in h.query.items()}
        if q.get("format") != "json" or q.get("action") != "query":
            h.send_json({"error": {"code": "badvalue", "info": "Unrecognized value for parameter action"}})
            return
        if q.get("list") == "search":
            suggestion = {"searchinfo": {"suggestion": "retrieval augmented"}} if "retreival" in q["srsearch"] else {}
            h.send_json({"batchcomplete": True, "query": {"search": self.search(q["srsearch"]), **suggestion}})
            return
        page, hops = self.page(q["titles"], follow=q.get("redirects") == "1")
        if q.get("prop") != "links":
            page.pop("links", None)
        h.send_json({"batchcomplete": True, "query": {"redirects": hops, "pages": [page]}})


@pytest.fixture
def wiki(server: LoopbackServer) -> tuple[LoopbackServer, str]:
    en = FakeWiki("en", articles={
        "Retrieval-augmented generation": RAG_EXTRACT,
        "Mercury (planet)": "Mercury is the first planet from the Sun.",
        "Mercury (element)": "Mercury is a chemical element.",
        "Python (programming language)": "Python is a programming language.\n\n== Syntax ==\nIndentation.",
    }, redirects={"RAG (machine learning)": "Retrieval-augmented generation"},
        disambiguation={"Mercury": ["Mercury (planet)", "Mercury (element)", "Mercury (mythology)"]})
    de = FakeWiki("de", articles={
        "Python (Programmiersprache)": "Python ist eine Programmiersprache.\n\n== Geschichte ==\nSeit 1991.",
    })
    server.add("/en/api.php", en.answer)
    server.add("/de/api.php", de.answer)
    return server, server.url("/{lang}/api.php")


def ctx(data_dir: Path, api_url: str, **settings: object) -> ToolContext:
    return ToolContext(settings={"wikipedia_api_url": api_url, "lang": "en", **settings}, data_dir=data_dir)


async def test_exact_title_gives_summary_then_text(wiki, data_dir: Path) -> None:
    server, api = wiki
    result = await wikipedia("Retrieval-augmented generation", ctx(data_dir, api))
    text = result.text
    assert text.startswith("Title: Retrieval-augmented generation\n"
                           "URL: https://en.wikipedia.org/wiki/Retrieval-augmented_generation\n")
    summary_at = text.index("Summary:\nRetrieval-augmented generation (RAG) is a technique")
    assert summary_at < text.index("History\nThe idea grew out") < text.index("Early systems\nEarly systems used")
    assert "==" not in text and "\n\n\n" not in text
    assert text.count("It was described in 2020.") == 1  # the summary is not repeated
    assert result.source == "https://en.wikipedia.org/wiki/Retrieval-augmented_generation"
    first = server.seen[0]
    assert first.query["titles"] == ["Retrieval-augmented generation"] and first.query["redirects"] == ["1"]
    assert first.headers["user-agent"].startswith("tinyRAG-Desktop/")


async def test_redirect_is_followed(wiki) -> None:
    _, api = wiki
    article = await get_article(None, "RAG (machine learning)", "en", api_url=api)
    assert article.title == "Retrieval-augmented generation"
    assert article.summary.startswith("Retrieval-augmented generation (RAG)")
    assert article.text.startswith(article.summary)
    assert article.lang == "en"


async def test_search_when_title_is_not_exact(wiki) -> None:
    server, api = wiki
    async with httpx.AsyncClient() as http:
        article = await get_article(http, "language model documents technique", "en", api_url=api)
    assert article.title == "Retrieval-augmented generation"
    assert [r.query.get("list", ["page"])[0] for r in server.seen] == ["page", "search", "page"]


async def test_search_suggestion_is_used_when_there_are_no_hits(wiki) -> None:
    _, api = wiki
    article = await get_article(None, "retreival augmented", "en", api_url=api)
    assert article.title == "Retrieval-augmented generation"


async def test_disambiguation_page_lists_options(wiki, data_dir: Path) -> None:
    _, api = wiki
    with pytest.raises(Disambiguation) as info:
        await get_article(None, "mercury", "en", api_url=api)
    assert info.value.options == ("Mercury (planet)", "Mercury (element)", "Mercury (mythology)")
    result = await wikipedia("Mercury", ctx(data_dir, api))
    assert "“Mercury” is a disambiguation page on en.wikipedia" in result.text
    assert "- Mercury (planet)\n- Mercury (element)\n- Mercury (mythology)" in result.text


async def test_settings_language_edition_is_used(wiki, data_dir: Path) -> None:
    _, api = wiki
    result = await wikipedia("Python Programmiersprache", ctx(data_dir, api, lang="de-DE"))
    assert result.text.startswith("Title: Python (Programmiersprache)\nURL: https://de.wikipedia.org/")
    assert "Summary:\nPython ist eine Programmiersprache." in result.text
    assert "No article in the" not in result.text


async def test_english_fallback_when_the_edition_has_no_match(wiki, data_dir: Path) -> None:
    server, api = wiki
    result = await wikipedia("Retrieval-augmented generation", ctx(data_dir, api, lang="de"))
    assert "(No article in the de edition; this is the en one.)" in result.text
    assert "Summary:\nRetrieval-augmented generation (RAG)" in result.text
    assert {r.path for r in server.seen} == {"/de/api.php", "/en/api.php"}


async def test_no_match_anywhere(wiki) -> None:
    _, api = wiki
    with pytest.raises(ArticleNotFound, match="searched de.wikipedia or en.wikipedia"):
        await get_article(None, "zzyzx quux", "de", api_url=api)


async def test_result_is_cut_to_the_limit(wiki, data_dir: Path) -> None:
    _, api = wiki
    result = await wikipedia("Retrieval-augmented generation", ctx(data_dir, api, result_max_chars=250))
    assert len(result.text) <= 250
    assert "more characters left out" in result.text


async def test_api_error_and_non_api_answers(server: LoopbackServer) -> None:
    server.add("/w/api.php", lambda h: h.send_json({"error": {"code": "maxlag", "info": "Waiting for db"}}))
    server.static("/html/api.php", "<html>not an api</html>")
    server.static("/busy/api.php", "slow down", "text/plain", status=429)
    with pytest.raises(WikipediaError, match="refused the request: Waiting for db"):
        await get_article(None, "x", "en", api_url=server.url("/w/api.php"))
    with pytest.raises(WikipediaError, match="did not answer with JSON"):
        await get_article(None, "x", "en", api_url=server.url("/html/api.php"))
    with pytest.raises(WikipediaError, match="limiting how often"):
        await get_article(None, "x", "en", api_url=server.url("/busy/api.php"))


async def test_unreachable_api_fails_fast() -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.monotonic()
    with pytest.raises(WikipediaError, match="Could not connect"):
        await get_article(None, "x", "en", api_url=f"http://127.0.0.1:{port}/api.php")
    assert time.monotonic() - started < 3


async def test_a_silent_wikipedia_is_waited_for_no_longer_than_the_tool_timeout(data_dir: Path) -> None:
    # Each request waited up to 15 s, whatever the tool timeout; the message did not say how long. It waits a
    # little less than the tool timeout, so that its words come before the engine's stop.
    with silent_server() as (base, _):
        with pytest.raises(ToolError, match=r"^Wikipedia \(en\) sent nothing for 0\.25 seconds, and the request was "
                                            r"given up\.$"):
            await asyncio.wait_for(wikipedia("x", ctx(data_dir, base + "/api.php", tool_timeout=0.5)), 5)


async def test_offline_mode(data_dir: Path) -> None:
    from tinyrag_desktop.tools.errors import ToolError

    with pytest.raises(ToolError, match="offline mode"):
        await wikipedia("anything", ToolContext(settings={"network_tools": False}, data_dir=data_dir))


async def test_empty_query(wiki) -> None:
    _, api = wiki
    with pytest.raises(WikipediaError, match="Give the title"):
        await get_article(None, "  \n ", "en", api_url=api)


@pytest.mark.parametrize(("lang", "code"), [("en", "en"), ("de-DE", "de"), ("pt_BR", "pt"), ("zh-yue", "zh-yue"),
                                            ("", "en"), ("../../etc", "en"), ("simple", "simple")])
def test_edition_codes(lang: str, code: str) -> None:
    assert edition(lang) == code


def test_headings_become_plain_lines() -> None:
    assert lead_section(RAG_EXTRACT).endswith("It was described in 2020.")
    assert plain_text("Intro\n== A ==\nx\n=== B ===\ny") == "Intro\nA\nx\nB\ny"


# ---- property tests: the API's JSON and the settings' language are outside input --------------------------

from hypothesis import given, settings as hsettings, strategies as st  # noqa: E402


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["query", "pages", "search", "searchinfo", "suggestion", "title", "missing", "extract",
                         "pageprops", "disambiguation", "links", "fullurl", "error", "info", "redirects"]),
        inner, max_size=4),
    max_leaves=12,
)


@hsettings(max_examples=80, deadline=None)
@given(_json)
async def test_any_api_answer_gives_an_article_or_a_tool_error(answer: object) -> None:
    transport = httpx.MockTransport(lambda request: httpx.Response(200, json=answer))
    async with httpx.AsyncClient(transport=transport) as http:
        try:
            article = await get_article(http, "Anything", "de", api_url="http://wiki.test/{lang}/api.php")
        except ToolError:
            return
    assert isinstance(article.title, str) and isinstance(article.text, str) and article.text


@given(st.text(max_size=30))
def test_edition_is_always_a_plain_code(lang: str) -> None:
    code = edition(lang)
    assert code == "simple" or code.replace("-", "").isalpha() and code.isascii() and code == code.lower()


@pytest.mark.parametrize(("message", "words"), [
    ("[Errno -2] Name or service not known", "its server name could not be looked up"),
    ("[Errno -3] Temporary failure in name resolution", "its server name could not be looked up"),
    ("[Errno 101] Network is unreachable", "the network is unreachable"),
])
def test_connection_failures_are_said_without_errno(message, words):
    from tinyrag_desktop.tools.netutil import describe_http_error

    said = describe_http_error(httpx.ConnectError(message), "Wikipedia (en)")
    assert words in said and "Errno" not in said and said.startswith("Could not connect to Wikipedia (en)")


async def test_a_refused_connection_is_said_without_errno():
    from tests.sse_server import free_port
    from tinyrag_desktop.tools.netutil import describe_http_error

    async with httpx.AsyncClient() as http:
        with pytest.raises(httpx.ConnectError) as caught:
            await http.get(f"http://127.0.0.1:{free_port()}/w/api.php")
    said = describe_http_error(caught.value, "Wikipedia (en)")
    assert said == "Could not connect to Wikipedia (en): the connection was refused."
