"""The network tools: url_fetch, websearch and wikipedia, offered only while network tools are on."""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Mapping

from ..settings_extra import TRUSTED_NETWORKS, WIKIPEDIA_API_URL, usable_api_url, usable_networks
from .errors import ToolError
from .fetch import FetchError, FetchLimits, FetchPolicy, FetchTimeout, fetch
from .netutil import (OFFLINE_REASON, cut_text, network_enabled, result_limit, seconds_words, setting, timeout_words,
                      tool_timeout)
from .readable import MAX_HTML_CHARS, to_readable
from .registry import ToolContext, ToolResult, ToolSpec
from .websearch import search
from .wikipedia_api import Disambiguation, edition, get_article

_FETCH_LIMITS = FetchLimits()


# Why a page was read only in part, other than its size (see fetch.Fetched.cut), with the bound that applied.
_CUT_NOTES = {
    "time": "[The page was still arriving after {body}, close to {time}; only its first {size} were read.]",
    "stalled": "[Nothing more of the page came for {stall} after its first {size}; the rest was not read.]",
    "closed": "[The site closed the connection after {size}, before the page ended; the rest was not read.]",
}


def _size_words(size: int) -> str:
    return f"{size:,} bytes" if size < 10_000 else f"{size / 1024:,.0f} KB"


def _require_network(ctx: ToolContext) -> None:
    # The engine does not offer these tools offline; this guards a block the model writes anyway.
    if not network_enabled(ctx.settings):
        raise ToolError(f"This tool is not available: {OFFLINE_REASON}.")


def fetch_limits(settings: Mapping[str, Any]) -> FetchLimits:
    """The fetch limits: the total time is the tool timeout the user set, whatever it is (spec: "Per-tool
    timeout"), which the engine's stop follows a little later (engine.tool_grace), so the user reads our
    message, not the engine's bare "timed out". Connecting and the wait between two reads stay shorter."""
    total = max(0.1, tool_timeout(settings))
    return FetchLimits(connect=min(_FETCH_LIMITS.connect, total), read=min(_FETCH_LIMITS.read, total), total=total,
                       max_bytes=_FETCH_LIMITS.max_bytes, max_redirects=_FETCH_LIMITS.max_redirects)


def fetch_policy(settings: Mapping[str, Any]) -> FetchPolicy:
    # A typo in the hand-edited list must not open everything: only its networks (settings_extra).
    return FetchPolicy(allow_private=bool(setting(settings, "url_fetch_allow_private", False)),
                       trusted_networks=usable_networks(setting(settings, TRUSTED_NETWORKS, None)))


async def url_fetch(content: str, ctx: ToolContext) -> ToolResult:
    """Fetch a web page (or text, JSON, XML, PDF) and return it as plain text, title and final URL first."""
    _require_network(ctx)
    max_chars = result_limit(ctx.settings)
    limits = fetch_limits(ctx.settings)
    try:
        fetched = await fetch(content, http=ctx.http, policy=fetch_policy(ctx.settings), limits=limits,
                              accept_language=edition(str(setting(ctx.settings, "lang", "en"))))
    except FetchTimeout as exc:
        # The limit the user set, as every tool says it ("9 s" stood on a card whose setting was 10 s).
        raise FetchError(f"The page did not finish loading within {timeout_words(limits.total)}: {exc.url}") from None
    # Stop or the tool's timeout cancels this coroutine, not the thread: the event tells a PDF's reading to
    # end (its helper is killed), which would otherwise go on, holding the one PDF reader an import waits for.
    stop = threading.Event()
    try:
        readable = await asyncio.to_thread(to_readable, fetched.body, fetched.content_type, fetched.url,
                                           truncated=fetched.truncated, max_chars=max_chars, cut=fetched.cut,
                                           cancelled=stop.is_set)
    finally:
        stop.set()
    header = []
    if readable.title:
        header.append(f"Title: {readable.title}")
    header.append(f"URL: {fetched.url}")
    notes = [readable.note] if readable.note else []
    if fetched.cut in _CUT_NOTES:  # what came is kept, and said to be only part of the page
        notes.append(_CUT_NOTES[fetched.cut].format(size=_size_words(len(fetched.body)),
                                                    body=seconds_words(limits.body_seconds),
                                                    time=timeout_words(limits.total), stall=seconds_words(limits.read)))
    elif fetched.truncated:
        mb = f"{_FETCH_LIMITS.max_bytes / (1024 * 1024):g} MB"
        if readable.note:  # one note, not two that read as a contradiction (1 MB read, 5 MB downloaded)
            notes = [f"[The page is larger than {mb}; only its start was read: the first "
                     f"{MAX_HTML_CHARS // 1_000_000} MB of its markup, scripts and styles left aside.]"]
        else:
            notes.append(f"[The download stopped at {mb}; the rest of the page was not read.]")
    body = readable.text or "(No readable text found; the page may build its content with JavaScript.)"
    head = "\n".join(header) + "\n\n"
    tail = ("\n\n" + "\n".join(notes)) if notes else ""
    text = head + cut_text(body, max(0, max_chars - len(head) - len(tail))) + tail
    # A page with no text to read gave the answer nothing: it is not listed among the answer's sources.
    return ToolResult(text, source=fetched.url if readable.text else "")


async def websearch(content: str, ctx: ToolContext) -> ToolResult:
    """Search the web; titles, URLs and snippets of the top results."""
    _require_network(ctx)
    text, source = await search(content, ctx.settings, ctx.http)
    return ToolResult(cut_text(text, result_limit(ctx.settings)), source=source)


async def wikipedia(content: str, ctx: ToolContext) -> ToolResult:
    """A Wikipedia article in the settings' language (English as a fallback): summary, then the text."""
    _require_network(ctx)
    lang = str(setting(ctx.settings, "lang", "en"))
    api_url = usable_api_url(setting(ctx.settings, WIKIPEDIA_API_URL, None))
    max_chars = result_limit(ctx.settings)
    try:
        article = await get_article(ctx.http, content, lang, api_url=api_url, seconds=tool_timeout(ctx.settings))
    except Disambiguation as dis:
        options = "\n".join(f"- {title}" for title in dis.options) or "(the page lists no articles)"
        text = (f"“{dis.title}” is a disambiguation page on {dis.lang}.wikipedia, not an article. "
                f"Ask again with one of these titles:\n{options}")
        return ToolResult(cut_text(text, max_chars), source=dis.url)
    rest = article.text
    if article.summary and rest.startswith(article.summary):
        rest = rest[len(article.summary):].lstrip()
    head = f"Title: {article.title}\nURL: {article.url}\n"
    if article.lang != edition(lang):
        head += f"(No article in the {edition(lang)} edition; this is the {article.lang} one.)\n"
    body = f"Summary:\n{article.summary}"
    if rest:
        body += f"\n\n{rest}"
    return ToolResult(head + "\n" + cut_text(body, max(0, max_chars - len(head) - 1)), source=article.url)


def _network_on(settings: Mapping[str, object]) -> bool:
    return bool(settings.get("network_tools", True))


TOOLS = [
    ToolSpec(
        name="url_fetch", element="url", icon="🌐", run=url_fetch, keeps_time=True,
        description="Fetch a web page (or a text, JSON or PDF file) by URL and read it as plain text.",
        example="https://example.com/docs/api",
        enabled=_network_on, disabled_reason=OFFLINE_REASON,
    ),
    ToolSpec(
        name="websearch", element="query", icon="🔎", run=websearch,
        description="Search the web; returns titles, URLs and snippets of the top results.",
        example="tinyRAG streaming architecture",
        enabled=_network_on, disabled_reason=OFFLINE_REASON,
    ),
    ToolSpec(
        name="wikipedia", element="query", icon="📖", run=wikipedia,
        description="Read a Wikipedia article (summary first) by title or by words to search for.",
        example="Retrieval-augmented generation",
        enabled=_network_on, disabled_reason=OFFLINE_REASON,
    ),
]
