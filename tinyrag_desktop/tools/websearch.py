"""Web search for the websearch tool: DuckDuckGo through the ddgs library, or a self-hosted SearXNG instance.

SearXNG is used when the ``searxng_url`` setting is set (its JSON API, ``/search?format=json``, must be
enabled in the instance's ``search.formats``). Otherwise ``DDGS().text(...)`` runs in a worker thread,
since ddgs is blocking; the thread cannot be killed, so ddgs' own timeout bounds it. Failures are
SearchError with a message in plain words: blocked, rate-limited, timed out, or unreachable.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Mapping

import httpx

from ..hidden_passwords import hide_passwords
from .errors import ToolError
from .netutil import (USER_AGENT, answer_json, as_list, before_the_stop, capped, client_for, describe_http_error,
                      plain_get, seconds_words, setting, tool_timeout)

DDGS_TIMEOUT = 10  # seconds ddgs waits for its engines (or a little less than the tool timeout, if shorter)
_SEARXNG_TIMEOUT = httpx.Timeout(15.0, connect=5.0)
_RATE_WORDS = ("ratelimit", "rate limit", "too many requests", "429", "202 ")
_BLOCK_WORDS = ("403", "forbidden", "captcha", "blocked", "access denied")
_NET_WORDS = ("connect", "name or service", "nodename", "dns", "network is unreachable", "resolve")


class SearchError(ToolError):
    """The search could not be done; the message says why (blocked, rate-limited, unreachable…)."""


@dataclass(frozen=True, slots=True)
class SearchHit:
    title: str
    url: str
    snippet: str


def searxng_endpoint(base_url: str) -> str:
    """``https://searx.example`` or ``…/search`` → the search endpoint URL."""
    base = base_url.strip().rstrip("/")
    return base if base.endswith("/search") else base + "/search"


async def searxng_search(http: httpx.AsyncClient | None, base_url: str, query: str, max_results: int,
                         *, language: str | None = None, seconds: float | None = None) -> list[SearchHit]:
    """The top ``max_results`` hits from a SearXNG instance's JSON API; ``seconds`` (the tool timeout) caps the
    request's timeouts."""
    timeout = _SEARXNG_TIMEOUT if seconds is None else capped(_SEARXNG_TIMEOUT, seconds)
    url = searxng_endpoint(base_url)
    params = {"q": query, "format": "json", "pageno": "1"}
    if language:
        params["language"] = language
    async with client_for(http, timeout) as client:
        try:
            response = await plain_get(client, url, params=params, timeout=timeout,
                                       headers={"User-Agent": USER_AGENT, "Accept": "application/json"})
        except httpx.HTTPError as exc:
            said = describe_http_error(exc, f"the SearXNG instance at {hide_passwords(base_url)}")
            raise SearchError(said[:1].upper() + said[1:]) from None  # "the SearXNG instance … took": a sentence
    if response.status_code == 429:
        raise SearchError("The SearXNG instance is rate-limiting searches (429 Too Many Requests); "
                          "wait a minute and try again.")
    if response.status_code == 403:
        raise SearchError("The SearXNG instance refused the search (403 Forbidden). Its JSON output may be "
                          "off: add 'json' to search.formats in its settings.yml, or check its limiter.")
    if response.status_code != 200:
        raise SearchError(f"The SearXNG instance answered {response.status_code} {response.reason_phrase}.")
    try:
        data = answer_json(response)
    except ValueError:
        raise SearchError(f"{url} did not answer with JSON; is searxng_url the root of a SearXNG "
                          "instance with JSON output enabled?") from None
    if not isinstance(data, dict):
        raise SearchError(f"{url} answered JSON that is not a SearXNG result.")
    hits = [_hit(item.get("title"), item.get("url"), item.get("content"))
            for item in as_list(data.get("results")) if isinstance(item, dict) and item.get("url")]
    if not hits:
        broken = _unresponsive(data.get("unresponsive_engines"))
        if broken:
            raise SearchError(f"No results: the search engines behind SearXNG did not answer ({broken}); "
                              "they may be blocking or rate-limiting the instance.")
    return hits[:max_results]


def _unresponsive(value: Any) -> str:
    items = []
    for entry in as_list(value):
        if isinstance(entry, (list, tuple)) and entry:
            name = str(entry[0])
            items.append(f"{name}: {entry[1]}" if len(entry) > 1 and entry[1] else name)
    return ", ".join(items)


def _hit(title: Any, url: Any, snippet: Any) -> SearchHit:
    return SearchHit(" ".join(str(title or url or "").split()), str(url or ""), " ".join(str(snippet or "").split()))


def _ddgs_text(query: str, max_results: int, seconds: float) -> list[dict[str, Any]]:
    from ddgs import DDGS

    return DDGS(timeout=seconds).text(query, max_results=max_results)


def explain_ddgs_error(exc: BaseException, seconds: float = DDGS_TIMEOUT) -> str | None:
    """What a ddgs failure means, in plain words; None for "no results" (not an error for the user)."""
    from ddgs.exceptions import RatelimitException, TimeoutException

    text = f"{exc}".lower()
    if isinstance(exc, RatelimitException) or any(w in text for w in _RATE_WORDS):
        return ("DuckDuckGo is rate-limiting searches from this connection. Wait a minute and try again, "
                "or set a SearXNG instance (searxng_url) in Settings.")
    if isinstance(exc, TimeoutException) or "timed out" in text or "timeout" in text:
        return (f"The web search timed out: the search engines did not answer within {seconds_words(seconds)}; "
                "the network may be down or slow.")
    if any(w in text for w in _BLOCK_WORDS):
        return ("The search engines blocked the search (they answered 'forbidden' or asked for a CAPTCHA). "
                "Try again later, or set a SearXNG instance (searxng_url) in Settings.")
    if "no results found" in text:
        return None
    if any(w in text for w in _NET_WORDS):
        return "Could not reach the search engines; check the network connection."
    return f"The web search failed ({type(exc).__name__}: {exc})."


async def ddgs_search(query: str, max_results: int, seconds: float = DDGS_TIMEOUT) -> list[SearchHit]:
    """The top hits from DuckDuckGo and friends via ddgs, run in a worker thread that waits ``seconds`` for
    an engine (it cannot be stopped, so it must not outlast the tool timeout)."""
    try:
        rows = await asyncio.to_thread(_ddgs_text, query, max_results, seconds)
    except Exception as exc:  # ddgs wraps its engines' many failures; each one is mapped to words here
        message = explain_ddgs_error(exc, seconds)
        if message is None:
            return []
        raise SearchError(message) from None
    return [_hit(r.get("title"), r.get("href") or r.get("url"), r.get("body") or r.get("snippet"))
            for r in rows or [] if isinstance(r, dict) and (r.get("href") or r.get("url"))][:max_results]


def format_hits(query: str, hits: list[SearchHit], engine: str) -> str:
    if not hits:
        return f"No web results for “{query}” ({engine})."
    lines = [f"Web results for “{query}” ({engine}):", ""]
    for number, hit in enumerate(hits, start=1):
        lines.append(f"{number}. {hit.title}")
        lines.append(f"   {hit.url}")
        if hit.snippet:
            lines.append(f"   {hit.snippet}")
        lines.append("")
    return "\n".join(lines).rstrip()


async def search(query: str, settings: Mapping[str, Any], http: httpx.AsyncClient | None) -> tuple[str, str]:
    """(result text, source) for ``query`` under ``settings``; raises SearchError."""
    query = " ".join(query.split())
    if not query:
        raise SearchError("Give some words to search for.")
    try:
        count = max(1, min(20, int(setting(settings, "websearch_results", 5))))
    except (TypeError, ValueError):
        count = 5
    base = str(setting(settings, "searxng_url", "") or "").strip()
    if base:
        lang = str(setting(settings, "lang", "") or "") or None
        hits = await searxng_search(http, base, query, count, language=lang, seconds=tool_timeout(settings))
        return format_hits(query, hits, "SearXNG"), searxng_endpoint(base)
    hits = await ddgs_search(query, count, min(DDGS_TIMEOUT, before_the_stop(tool_timeout(settings))))
    return format_hits(query, hits, "DuckDuckGo via ddgs"), "duckduckgo"
