"""An async MediaWiki API client: find an article by title or search, follow redirects, return its text.

``get_article(http, title, lang)`` is the one entry point (the wikipedia tool and the knowledge base's
"import a Wikipedia article" both use it). It asks the edition for ``lang`` first and falls back to the
English one when nothing there matches. Steps, each one API request:

1. exact title (``titles=…&redirects=1``): redirects and title normalisation are followed by the server;
2. if that page is missing, a full-text search in the same edition (and its spelling suggestion) picks
   the best title, which is then read as in 1;
3. a disambiguation page (``pageprops.disambiguation``) is not an article: :class:`Disambiguation` is
   raised with the titles it links to, so the caller can ask again with one of them.

The text comes from the TextExtracts extension as plain text; section headings (``== History ==``) become
plain lines. Errors are :class:`WikipediaError` (a ToolError) with a message for a person.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import httpx

from .errors import ToolError
from .netutil import USER_AGENT, answer_json, as_dict, as_list, capped, client_for, describe_http_error, plain_get

DEFAULT_API_URL = "https://{lang}.wikipedia.org/w/api.php"
FALLBACK_LANG = "en"
MAX_QUERY_CHARS = 250  # MediaWiki titles are at most 255 bytes; longer text is not a title anyway
MAX_OPTIONS = 40
_TIMEOUT = httpx.Timeout(15.0, connect=5.0)

# Editions whose code has a hyphen of its own; for others "pt-BR" or "en_US" means the part before it.
_HYPHENATED = frozenset({
    "zh-min-nan", "zh-yue", "zh-classical", "be-tarask", "roa-rup", "roa-tara", "map-bms", "nds-nl",
    "bat-smg", "fiu-vro", "cbk-zam",
})
_HEADING = re.compile(r"^(={2,6})\s*(.*?)\s*\1\s*$", re.MULTILINE)


class WikipediaError(ToolError):
    """Wikipedia could not be asked, or did not answer with an article."""


class ArticleNotFound(WikipediaError):
    """No article matches the title, neither exactly nor by search, in any edition tried."""


class Disambiguation(WikipediaError):
    """The title names a disambiguation page; ``options`` are the article titles it lists."""

    def __init__(self, title: str, options: tuple[str, ...], lang: str, url: str) -> None:
        self.title, self.options, self.lang, self.url = title, options, lang, url
        listed = "; ".join(options) if options else "(the page lists no articles)"
        super().__init__(f"“{title}” is a disambiguation page on {lang}.wikipedia. It may refer to: {listed}")


@dataclass(frozen=True, slots=True)
class Article:
    """A Wikipedia article: ``summary`` is its lead section, ``text`` the whole article (summary included)."""

    title: str
    url: str
    summary: str
    text: str
    lang: str


def edition(lang: str | None) -> str:
    """The Wikipedia edition code for an answer language such as ``de``, ``pt-BR`` or ``en_US``."""
    code = (lang or "").strip().lower().replace("_", "-")
    if code in _HYPHENATED:
        return code
    code = code.split("-", 1)[0]
    return code if re.fullmatch(r"[a-z]{2,3}|simple", code) else FALLBACK_LANG


def api_url_for(lang: str, api_url: str | None = None) -> str:
    """The API endpoint of an edition; ``api_url`` may hold ``{lang}`` (a self-hosted wiki need not)."""
    template = api_url or DEFAULT_API_URL
    return template.replace("{lang}", lang)


def plain_text(extract: str) -> str:
    """TextExtracts' wiki-style headings turned into plain heading lines, blank runs squeezed."""
    text = _HEADING.sub(lambda m: m.group(2), extract)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip()


def lead_section(extract: str) -> str:
    """The text before the first section heading."""
    match = _HEADING.search(extract)
    lead = extract[: match.start()] if match else extract
    return plain_text(lead)


async def _call(http: httpx.AsyncClient, url: str, params: dict[str, str], lang: str,
                timeout: httpx.Timeout) -> dict[str, Any]:
    """One API request; returns the decoded JSON or raises WikipediaError saying what went wrong."""
    query = {"format": "json", "formatversion": "2", "utf8": "1", **params}
    where = f"Wikipedia ({lang})"
    try:
        response = await plain_get(http, url, params=query, headers={"User-Agent": USER_AGENT}, timeout=timeout)
    except httpx.HTTPError as exc:
        raise WikipediaError(describe_http_error(exc, where)) from exc
    if response.status_code == 429:
        raise WikipediaError(f"{where} is limiting how often it is asked; try again in a minute.")
    if response.status_code != 200:
        raise WikipediaError(f"{where} answered {response.status_code} {response.reason_phrase}.")
    try:
        data = answer_json(response)
    except ValueError as exc:
        raise WikipediaError(f"{where} did not answer with JSON; is {url} a MediaWiki API?") from exc
    if not isinstance(data, dict):
        raise WikipediaError(f"{where} answered with something that is not an API result.")
    if "error" in data:
        err = as_dict(data["error"])
        raise WikipediaError(f"{where} refused the request: {err.get('info') or err.get('code') or 'unknown'}.")
    return data


def _first_page(data: dict[str, Any]) -> dict[str, Any] | None:
    pages = as_dict(data.get("query")).get("pages")
    if isinstance(pages, dict):  # formatversion=1 servers answer a dict keyed by page id
        pages = list(pages.values())
    pages = as_list(pages)
    return pages[0] if pages and isinstance(pages[0], dict) else None


async def _read_page(http: httpx.AsyncClient, url: str, title: str, lang: str,
                     timeout: httpx.Timeout) -> dict[str, Any] | None:
    """The page called ``title`` (redirects followed), or None when it does not exist."""
    data = await _call(http, url, {
        "action": "query", "titles": title, "redirects": "1",
        "prop": "extracts|pageprops|info", "explaintext": "1", "exsectionformat": "wiki",
        "ppprop": "disambiguation", "inprop": "url",
    }, lang, timeout)
    page = _first_page(data)
    if page is None or page.get("missing") or page.get("invalid") or not isinstance(page.get("title"), str):
        return None
    return page


async def _search_title(http: httpx.AsyncClient, url: str, query: str, lang: str, timeout: httpx.Timeout) -> str | None:
    """The best search hit's title; with no hits, the best hit for the search's spelling suggestion."""
    for attempt in range(2):
        data = await _call(http, url, {
            "action": "query", "list": "search", "srsearch": query, "srlimit": "5",
            "srnamespace": "0", "srinfo": "suggestion", "srprop": "",
        }, lang, timeout)
        result = as_dict(data.get("query"))
        hits = [h.get("title") for h in as_list(result.get("search")) if isinstance(h, dict) and h.get("title")]
        if hits:
            return str(hits[0])
        suggestion = as_dict(result.get("searchinfo")).get("suggestion")
        if not suggestion or attempt or str(suggestion) == query:
            return None
        query = str(suggestion)  # "Did you mean …": search once more with the corrected words
    return None


async def _disambiguation_options(http: httpx.AsyncClient, url: str, title: str, lang: str,
                                  timeout: httpx.Timeout) -> tuple[str, ...]:
    data = await _call(http, url, {
        "action": "query", "titles": title, "prop": "links", "plnamespace": "0", "pllimit": "max",
    }, lang, timeout)
    page = _first_page(data) or {}
    titles = [link.get("title") for link in as_list(page.get("links")) if isinstance(link, dict)]
    return tuple(str(t) for t in titles if t)[:MAX_OPTIONS]


async def _find_in_edition(http: httpx.AsyncClient, query: str, lang: str, api_url: str | None,
                           timeout: httpx.Timeout) -> Article | None:
    url = api_url_for(lang, api_url)
    page = await _read_page(http, url, query, lang, timeout)
    if page is None:
        hit = await _search_title(http, url, query, lang, timeout)
        if hit is None:
            return None
        page = await _read_page(http, url, hit, lang, timeout)
        if page is None:  # the index named a page that is gone since: nothing to read here
            return None
    title = str(page["title"])
    page_url = str(page.get("fullurl") or page.get("canonicalurl") or "")
    if "disambiguation" in as_dict(page.get("pageprops")):
        options = await _disambiguation_options(http, url, title, lang, timeout)
        raise Disambiguation(title, options, lang, page_url)
    extract = str(page.get("extract") or "")
    if not extract.strip():
        raise WikipediaError(f"The article “{title}” on {lang}.wikipedia has no text the API can give.")
    return Article(title=title, url=page_url, summary=lead_section(extract), text=plain_text(extract), lang=lang)


async def get_article(http: httpx.AsyncClient | None, title: str, lang: str = FALLBACK_LANG, *,
                      api_url: str | None = None, seconds: float | None = None) -> Article:
    """The article best matching ``title`` in the ``lang`` edition, else in the English one.

    ``http`` is an httpx.AsyncClient (None: a client of our own for this call). ``api_url`` overrides the
    endpoint, e.g. ``http://127.0.0.1:8080/{lang}/api.php`` for tests or a self-hosted MediaWiki. ``seconds``
    (the tool timeout) caps each request's timeouts. Raises ArticleNotFound, Disambiguation or WikipediaError.
    """
    query = " ".join(title.split())[:MAX_QUERY_CHARS]
    if not query:
        raise WikipediaError("Give the title of a Wikipedia article, or words to search for.")
    code = edition(lang)
    editions = [code] if code == FALLBACK_LANG else [code, FALLBACK_LANG]
    timeout = _TIMEOUT if seconds is None else capped(_TIMEOUT, seconds)
    async with client_for(http, timeout) as client:
        for each in editions:
            article = await _find_in_edition(client, query, each, api_url, timeout)
            if article is not None:
                return article
    tried = " or ".join(f"{e}.wikipedia" for e in editions)
    raise ArticleNotFound(f"No Wikipedia article matches “{query}” (searched {tried}).")
