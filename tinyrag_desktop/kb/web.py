"""Importing from the web: a page by URL (httpx + trafilatura) and a Wikipedia article by title.

The user names these sources themselves in the panel or on the command line, so unlike the model's
``url_fetch`` tool, loopback and private addresses are allowed (an intranet wiki is a fine source).
trafilatura finds the readable part of an arbitrary page; its XML output keeps headings, lists, tables
and code apart, which the chunker needs. When it finds nothing, the page is read with our own lxml reader.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import re
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Awaitable, Callable, Mapping, TypeVar
from urllib.parse import unquote, urljoin, urlsplit, urlunsplit

import httpx
import lxml.etree
import lxml.html

from ..content_coding import ACCEPT_ENCODING, BodyDecoder, DamagedBody, RefusedCoding
from ..hidden_text import first_hidden
from ..host_names import host_name_problem, plain_dots
from ..http_clients import sync_client
from .decoding import collecting_notes
from .errors import Cancelled, FetchError, NoText, ReadError
from .html_encoding import served_as_utf8, utf8_page
from .html_parsing import parse_within_limits
from .html_reader import parse_html
from .links import MAX_LINKS, Link, context
from .models import Block, Document
from .readers import (
    GZIP_MAGIC, SUPPORTED, is_html_page, file_type, gunzip, is_compressed, read_bytes, sniff, with_utf16_bom,
)
from .waiting import POLL, cancellable

USER_AGENT = "tinyRAG-Desktop knowledge import (+https://github.com/tinyrag)"
TIMEOUT = httpx.Timeout(30.0, connect=10.0)  # for each wait: connecting, and between two pieces of the page
DEADLINE = 60.0  # for the whole page: a server sending a byte a second never trips the per-read time-out
_DEFAULT_PORTS = {"http": 80, "https": 443}
# A page larger than this is read with our own lxml reader (html_reader.py), as a local HTML file is, not
# trafilatura: a 10 MB page took trafilatura 17 to 29 s (0.4 MB/s), our reader 2.5 s. A page this large
# is a manual or a dump more often than an article among ads, which trafilatura is for.
TRAFILATURA_MOST_BYTES = 2 * 1024 * 1024
# The charset a Content-Type names: ``text/html; charset=windows-1251``, ``charset="Shift_JIS"``.
_CHARSET_PARAM = re.compile(r";\s*charset\s*=\s*[\"']?\s*([^\s;\"']+)", re.I)
_T = TypeVar("_T")


# A server named without the address's scheme: a name of two or more labels ("example.org"), "localhost",
# an IPv4 address or an IPv6 one in brackets, a port perhaps; or any one-label name with a port ("nas:8080").
_TYPED_HOST = re.compile(r"(?:(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9-]{2,63}|\[[0-9a-f:.]+\])"
                         r"(?::\d{1,5})?|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?:\d{1,5})", re.I)
# Names only this machine or its network answers to: such servers (a folder served with python -m
# http.server, a wiki on the NAS) speak plain http, where https:// found "could not be reached".
_LOCAL_SUFFIXES = (".localhost", ".local", ".lan", ".home.arpa", ".internal")


def typed_address(text: str) -> str | None:
    """The web address ``text`` means when typed without its scheme (``example.org/guide`` is
    https://example.org/guide, ``localhost:8000/notes.html`` and ``192.168.1.5/wiki`` are http://…), ``text``
    itself when it has one, None when it names no server."""
    text = text.strip()
    if "://" in text:
        return text
    host = re.split(r"[/?#]", text, maxsplit=1)[0]
    if not _TYPED_HOST.fullmatch(host):
        return None
    return f"{'http' if _is_local(host) else 'https'}://{text}"


def _is_local(host: str) -> bool:
    name = host[1:host.index("]")] if host.startswith("[") else host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    name = name.lower()
    if name == "localhost" or name.endswith(_LOCAL_SUFFIXES) or "." not in name and ":" not in name:
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    return address.is_private or address.is_loopback or address.is_link_local


def normalize_url(url: str) -> str:
    """The form a URL is stored under, so one page is one source: scheme and host in lower case, the host's
    dots ASCII ones (a CJK "。" is one), no default port, a front page's "/", no ``#fragment`` (a place in
    the page, not another page). Refuses a URL holding a password.
    """
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:  # "Port out of range 0-65535", "Invalid IPv6 URL"
        raise FetchError("not a valid web address: its server name or port is wrong") from exc
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        if invisible := first_hidden(url):
            raise FetchError(f"not a valid web address: it holds an invisible character ({invisible}); "
                             "type it again rather than copy it")
        if "://" in url and scheme:
            raise FetchError(f"only http:// and https:// addresses can be imported, not {scheme}://")
        raise FetchError("not a web address: it should start with http:// or https://")
    if not parts.hostname:
        raise FetchError("not a web address: it names no server")
    if problem := host_name_problem(parts.hostname):
        raise FetchError(f"not a valid web address: {problem}")
    if parts.password is not None:
        raise FetchError("the URL holds a password, which would be stored and shown in plain text; "
                         "download the page and import the file instead")
    host = plain_dots(parts.hostname.lower())
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    if port is not None and port != _DEFAULT_PORTS.get(parts.scheme.lower()):
        host += f":{port}"
    if parts.username:
        host = f"{parts.username}@{host}"
    # An empty path asks the server for "/" (RFC 9110, 4.2.3): http://host and http://host/ are one page.
    # One stored without it by an earlier version is found by its own address on re-import (ingest).
    return urlunsplit((parts.scheme.lower(), host, parts.path or "/", parts.query, ""))


@dataclass(frozen=True, slots=True)
class Fetched:
    """A downloaded page: its bytes, content type (the server's Content-Type header, parameters and all)
    and the URL it finally came from."""

    url: str
    content_type: str
    data: bytes

    @property
    def mime(self) -> str:
        """The content type without its parameters, in lower case: "text/html"."""
        return self.content_type.split(";")[0].strip().lower()

    @property
    def charset(self) -> str | None:
        """The encoding the server names in the content type ("windows-1251"), if it names one."""
        found = _CHARSET_PARAM.search(self.content_type)
        return found.group(1) if found else None

    def document(self) -> Document:
        """The page read as its content type and bytes say; an encoding it had to guess is in its notes."""
        with collecting_notes() as notes:
            doc = self._document()
        return replace(doc, notes=tuple(notes)) if notes else doc

    def _document(self) -> Document:
        ctype = self.mime
        name = self.url.rstrip("/").rsplit("/", 1)[-1] or self.url
        if not self.data.strip():
            raise ReadError("the page is empty: the server sent no text")
        data, path = self.data, Path(unquote(urlsplit(self.url).path).rstrip("/"))
        if data.startswith(GZIP_MAGIC):  # a .txt.gz served as it is (application/gzip), not unpacked by httpx
            from .ingest import MAX_FILE_BYTES

            data = gunzip(data, MAX_FILE_BYTES)
            path = Path(path.name[:-3]) if is_compressed(path) else path
            name = name[:-3] if name.lower().endswith(".gz") else name
        found = sniff(with_utf16_bom(data))
        # a PDF's or a Word file's own signature wins, as in a file: served as text/html, a PDF was read as tags
        kind = ("pdf" if found == "pdf" else _zip_claim(ctype, path) if found == "zip"
                else served_kind(ctype, path, data))
        if kind not in ("pdf", "docx", "zip") and found is not None:
            raise ReadError(_not_text(found, ctype))
        if kind == "html" or kind not in ("pdf", "docx", "zip", "xml") and is_html_page(data) \
                or kind == "xml" and data.lstrip()[:200].lower().find(b"<html") >= 0:  # XHTML
            from .walls import refuse_walls

            # a JavaScript app's empty page, a sign-in form: refused, saying how to import the page after all
            return refuse_walls(data, lambda: self._html(data), web=True)
        if kind in ("pdf", "docx", "zip"):
            return read_bytes(data, kind, name)
        # Text in the encoding its server names, which the readers read as UTF-8; else as a file's bytes are
        return read_bytes(served_as_utf8(data, self.charset) or data, kind, name)

    def _html(self, data: bytes) -> Document:
        try:
            return html_document(data, self.url, self.charset)
        except NoText:  # a page of links (a reading list), named by its address: read as its links
            from .link_pages import link_page

            try:
                return link_page(served_as_utf8(data, self.charset) or data, self.url, "url")
            except NoText:
                pass
            raise


def _zip_claim(mime: str, path: Path) -> str:
    """What a ZIP archive served as ``mime`` from ``path`` claims to be: a Word document when its type or
    name says so, else an archive, which read_bytes reads only if it holds a Word document's body after all.
    Every ZIP was taken for a Word document: an archive served as application/zip was "not a Word document"."""
    return "docx" if _SERVED_KINDS.get(mime) == "docx" or path.suffix.lower() == ".docx" else "zip"


# Content types that name the reader of a page whatever its address says.
READ_KINDS = "text, HTML, PDF, Word, CSV, JSON or XML"  # what a page can be, as kb add says it
_SERVED_KINDS = {"application/pdf": "pdf", "application/x-pdf": "pdf",
                 "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
                 "text/html": "html", "application/xhtml+xml": "html",
                 "text/xml": "xml", "application/xml": "xml", "application/rss+xml": "xml",
                 "application/atom+xml": "xml", "application/json": "json", "application/x-ndjson": "json",
                 "application/jsonl": "json", "application/ld+json": "json", "text/csv": "csv",
                 "application/csv": "csv", "text/markdown": "markdown", "text/x-markdown": "markdown",
                 "text/x-rst": "rst", "text/x-log": "log"}


def _not_text(found: str, mime: str) -> str:
    """Why a page whose bytes are ``found`` (binary, a PNG image) is refused. A server's content type is a
    claim, not a fact: "though" only where it claims text. It read "binary data, not text, though the server
    calls it application/octet-stream", which says binary itself."""
    if mime.startswith("text/") or _SERVED_KINDS.get(mime) not in (None, "pdf", "docx") \
            or mime.endswith(("+xml", "+json")):
        return f"the page is {found} data, not text, though the server calls it {mime}"
    served = f" (the server sends it as {mime})" if mime else " (the server names no type)"
    return f"the page is {found} data{served}, not a document tinyRAG reads ({READ_KINDS})"


def served_kind(mime: str, path: Path, data: bytes) -> str:
    """The reader for a page served as ``mime`` (no parameters, lower case) from an address whose path is
    ``path``, ``data`` its bytes (unpacked): what kb add reads from disk is read from a URL too. The content
    type decides when it names a format (text/csv, application/pdf); a vague one (text/plain,
    application/octet-stream, application/vnd.ms-excel, as servers call a .csv; none) leaves it to the
    address's extension, then to the bytes. read_bytes still lets a PDF's or a Word file's bytes win."""
    kind = _SERVED_KINDS.get(mime)
    if kind is None and mime.endswith("+xml"):
        kind = "xml"
    elif kind is None and mime.endswith("+json"):
        kind = "json"
    if kind is not None:
        return kind
    if path.suffix.lower() in SUPPORTED or is_compressed(path) and Path(path.name[:-3]).suffix.lower() in SUPPORTED:
        return file_type(path)
    found = sniff(with_utf16_bom(data))
    if found == "pdf":
        return "pdf"
    if found == "zip":
        return "docx"  # read_bytes says what other ZIP archive it is
    if found is not None:
        return "text"  # refused as the binary data it is (Fetched._document)
    if is_html_page(data):
        return "html"
    if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:5] == b"<?xml":
        return "xml"
    if mime.startswith("text/") or not mime or mime in _VAGUE:
        return "text"
    raise ReadError(f"the page is {mime}, not a document tinyRAG reads ({READ_KINDS})")


# Content types that say nothing of a page's format: its address, then its bytes, tell it.
_VAGUE = frozenset({"application/octet-stream", "binary/octet-stream", "application/unknown",
                    "application/x-download", "application/force-download", "application/download",
                    "application/gzip", "application/x-gzip", "application/vnd.ms-excel"})


def fetch_url(url: str, max_bytes: int, *, client: httpx.Client | None = None,
              cancelled: Callable[[], bool] | None = None, deadline: float = DEADLINE) -> Fetched:
    """GET ``url`` (redirects followed), at most ``max_bytes`` within ``deadline`` seconds; raises FetchError
    saying why not, or Cancelled as soon as ``cancelled()`` turns true, before the server answers too.

    With ``cancelled``, the request runs on a thread of its own (see waiting.py); on Cancel that thread
    stops reading as soon as the answer starts, and ends within the time-out if none comes."""
    if cancelled is None:
        return _fetch_following(url, max_bytes, client, None, deadline)
    return cancellable(lambda: _fetch_following(url, max_bytes, client, cancelled, deadline), cancelled, "kb-fetch")


def _fetch_following(url: str, max_bytes: int, client: httpx.Client | None, cancelled: Callable[[], bool] | None,
                     deadline: float) -> Fetched:
    """_fetch, and a page that only sends the browser on (``<meta http-equiv="refresh" content="0;
    url=…">``, as moved sites and documentation roots do) followed as a redirect is: it was stored as a
    source titled "Moved" whose text was "Redirecting…"."""
    fetched = _fetch(url, max_bytes, client, cancelled, deadline)
    seen = {fetched.url}
    for _ in range(_META_HOPS):
        target = meta_refresh_target(fetched)
        if target is None or target in seen:
            break
        seen.add(target)
        fetched = _fetch(target, max_bytes, client, cancelled, deadline)
    return fetched


_META_HOPS = 3
_META_MOST_BYTES = 16_384  # a page that only sends the browser on is small; a real page with a refresh is not
_META_REFRESH = re.compile(
    rb"""<meta\s[^>]*?http-equiv\s*=\s*["']?refresh["']?[^>]*>""", re.IGNORECASE)
_META_CONTENT = re.compile(rb"""content\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)
_REFRESH_VALUE = re.compile(r"""^\s*(\d+(?:\.\d*)?)?\s*[;,]?\s*(?:url\s*=\s*)?["']?([^"']*)["']?\s*$""",
                            re.IGNORECASE)


def meta_refresh_target(fetched: Fetched) -> str | None:
    """Where a small HTML page's refresh sends the browser at once (within 10 s): an http(s) address, or
    None for any other page."""
    data = fetched.data
    if len(data) > _META_MOST_BYTES or "html" not in fetched.content_type.lower() and not is_html_page(data):
        return None
    tag = _META_REFRESH.search(data)
    content = _META_CONTENT.search(tag.group(0)) if tag else None
    if content is None:
        return None
    value = next(v for v in content.groups() if v is not None).decode("latin-1")
    match = _REFRESH_VALUE.match(value)
    if match is None or not match.group(2).strip() or float(match.group(1) or 0) > 10:
        return None
    target = urljoin(fetched.url, match.group(2).strip())
    return target if urlsplit(target).scheme in ("http", "https") else None


def _fetch(url: str, max_bytes: int, client: httpx.Client | None, cancelled: Callable[[], bool] | None,
           deadline: float) -> Fetched:
    own = client is None
    http = client or sync_client(timeout=TIMEOUT, follow_redirects=True, headers={"User-Agent": USER_AGENT})
    give_up = time.monotonic() + deadline
    try:
        with http.stream("GET", url, headers={"Accept-Encoding": ACCEPT_ENCODING}) as response:
            if response.status_code != 200:
                raise FetchError(f"the server answered {response.status_code} {response.reason_phrase}")
            limit = f"the limit is {max_bytes / 2**20:.0f} MB"
            announced = response.headers.get("content-length", "").strip()
            if announced.isdigit() and int(announced) > max_bytes:  # said before a byte is downloaded
                raise FetchError(f"the page is too large ({int(announced) / 2**20:.0f} MB; {limit})")
            try:
                decoder = BodyDecoder(response.headers.get("content-encoding", ""))
            except RefusedCoding as exc:
                raise FetchError(str(exc)) from None
            too_large = f"the page is too large (over {max_bytes / 2**20:.0f} MB; {limit})"
            chunks, size = [], 0
            # Raw, and unpacked here within the limit: httpx unpacks a piece whole (see content_coding.py).
            for raw in response.iter_raw():
                part = decoder.decode(raw, max_bytes - size + 1)
                size += len(part)
                if size > max_bytes:  # a page that did not say its size: how much more there was is unknown
                    raise FetchError(too_large)
                if cancelled is not None and cancelled():
                    raise Cancelled("the import was cancelled")
                if time.monotonic() > give_up:
                    raise FetchError(f"the server sent the page too slowly (not finished after {deadline:.0f} s)")
                chunks.append(part)
            part = decoder.finish(max_bytes - size + 1)
            if size + len(part) > max_bytes:
                raise FetchError(too_large)
            chunks.append(part)
            return Fetched(str(response.url), response.headers.get("content-type", "").strip(), b"".join(chunks))
    except DamagedBody as exc:
        raise FetchError(f"could not be downloaded: {_why_not(httpx.DecodingError(str(exc)), url)}") from None
    except httpx.InvalidURL as exc:
        raise FetchError("not a valid web address") from exc
    except UnicodeError as exc:  # httpx followed a redirect to a name the network library cannot encode
        raise FetchError("could not be downloaded: the page sent it on to an address whose server name is not "
                         "valid (an empty or too long part, as in www.ex..ample.com)") from exc
    except httpx.TimeoutException as exc:
        raise FetchError("the server took too long to answer") from exc
    except httpx.HTTPError as exc:
        raise FetchError(f"could not be downloaded: {_why_not(exc, url)}") from exc
    finally:
        if own:
            http.close()


def _why_not(exc: httpx.HTTPError, url: str) -> str:
    """httpx's reason ("[Errno 111] Connection refused", "UnsupportedProtocol: …") in a person's words."""
    from ..tools.netutil import connect_failure  # only on a failure: the tools package is not needed else

    host = urlsplit(url).netloc.rpartition("@")[2]
    if isinstance(exc, httpx.UnsupportedProtocol):
        return "the page sent it on to an address that is not http:// or https://"
    if isinstance(exc, httpx.TooManyRedirects):
        return ("the page sent it on to another address too many times (it may redirect in a loop); "
                "open it in a browser to see where it ends, and import that address")
    if isinstance(exc, httpx.DecodingError):  # a gzip or deflate body that does not unpack
        return "the server sent a compressed page that could not be decompressed (the page it sent is damaged)"
    if isinstance(exc, httpx.ConnectError):
        why = connect_failure(exc)
        if why == "refused":
            return f"nothing answers at {host} (connection refused)"
        if why == "name":
            return f"the server name {urlsplit(url).hostname} was not found: check the address and the network"
        return f"the server at {host} could not be reached"
    return "the connection broke off while the page was downloading"


_TRAF_BLOCKS = {"p": "text", "item": "text", "quote": "text", "code": "code", "table": "table"}


def _trafilatura_blocks(xml: str, links: list[Link] | None = None, hrefs: Mapping[str, str] | None = None) -> list[Block]:
    """Blocks from trafilatura's XML; the links in paragraphs and list items (its ``<ref>``) go to ``links``.

    trafilatura resolves a relative link against the site's root, not the page ("b.html" on /docs/a.html
    becomes /b.html), so the page's own href for the same anchor text (``hrefs``) is preferred.
    """
    root = lxml.etree.fromstring(xml.encode("utf-8"), lxml.etree.XMLParser(resolve_entities=False))
    main = root.find("main")
    blocks: list[Block] = []
    heading = ""
    for el in (main if main is not None else root).iter():
        tag = el.tag
        if tag == "head":
            level = int(el.get("rend", "h2")[1:] or 2) if el.get("rend", "").startswith("h") else 2
            text = " ".join("".join(el.itertext()).split())
            if text:
                blocks.append(Block("heading", text, level))
                heading = text[:200]
        elif tag == "table":
            rows = [" | ".join(" ".join("".join(c.itertext()).split()) for c in row) for row in el.iter("row")]
            text = "\n".join(r for r in rows if r.strip(" |"))
            if text:
                blocks.append(Block("table", text))
        elif tag in ("p", "item", "quote") and el.getparent() is not None and el.getparent().tag not in ("cell", "quote"):
            text = "".join(el.itertext())
            text = text.strip("\n") if tag == "quote" else " ".join(text.split())
            if text.strip():
                blocks.append(Block("code" if tag == "quote" and "\n" in text else "text", text))
                for ref in el.iter("ref") if links is not None and tag != "quote" else ():
                    anchor = " ".join("".join(ref.itertext()).split())
                    href = (hrefs or {}).get(anchor) or ref.get("target") or ""
                    link = context(text, anchor, href, heading)
                    if link is not None and len(links) < MAX_LINKS:
                        links.append(link)
    return blocks


def html_document(data: bytes, url: str, charset: str | None = None) -> Document:
    """A web page's readable text as blocks: trafilatura's extraction, or our reader when it finds nothing.
    ``charset`` is the encoding its server named, which outranks the page's own <meta charset>."""
    import trafilatura

    large = len(data) > TRAFILATURA_MOST_BYTES
    # In the server's encoding, given in UTF-8: trafilatura reads UTF-8 bytes as UTF-8, and guesses others
    # (a <meta charset> aside) by their look; our reader reads them as UTF-8 whatever <meta> they hold.
    served = served_as_utf8(data, charset)
    data = data if served is None else served
    if large:  # our reader, as for a local HTML file: seconds, not a minute
        doc = parse_html(data, url)
        return Document(doc.title, "url", doc.blocks, doc.links, doc.notes)
    hrefs: dict[str, str] = {}
    # a page that names no encoding: as our reader reads it, not as Latin-1
    data, encoding = (data, "utf-8") if served is not None else utf8_page(data)
    try:
        page = parse_within_limits(data, encoding)
    except ReadError:
        # No document to lxml (a page of only comments or an XML declaration): trafilatura, which parses
        # with lxml too, would find nothing either and log errors onto the console; our reader says why.
        doc = parse_html(data, url)
        return Document(doc.title, "url", doc.blocks, doc.links)
    if page is None:
        # libxml2 stopped early (a page nested too deep, a huge text): trafilatura, which parses the
        # same way, would see only the part before that point; our reader reads it all
        doc = parse_html(data, url)
        return Document(doc.title, "url", doc.blocks, doc.links)
    title_el = page.find(".//title")
    title = " ".join(title_el.text_content().split()) if title_el is not None else ""
    for a in page.iter("a"):
        if a.get("href"):
            hrefs.setdefault(" ".join(a.text_content().split()), a.get("href"))
    # trafilatura logs a page it does not take for a whole HTML document ("<p>…</p>" alone, a feed) as an
    # ERROR ("empty HTML tree"), which the console shows beside a successful import; our reader reads such
    # a page, and says why when it cannot. Set at each use: setting up the log resets it to WARNING.
    logging.getLogger("trafilatura").setLevel(logging.CRITICAL)
    xml = trafilatura.extract(data, url=url, output_format="xml", include_tables=True, include_comments=False,
                              include_formatting=False, include_links=True)
    links: list[Link] = []
    blocks = _trafilatura_blocks(xml, links, hrefs) if xml else []
    if sum(len(b.text) for b in blocks if b.kind != "heading") < 40:
        doc = parse_html(data, title or url)
        return Document(doc.title, "url", doc.blocks, doc.links)
    return Document((title or url)[:300], "url", tuple(blocks), tuple(links))


@dataclass(frozen=True, slots=True)
class WikiArticle:
    title: str
    url: str
    text: str
    lang: str


async def wikipedia_article(title: str, settings: Mapping[str, Any], lang: str = "",
                            cancelled: Callable[[], bool] | None = None) -> WikiArticle:
    """The article best matching ``title`` in the ``lang`` edition (empty: the settings' language), through
    the shared MediaWiki client; raises Cancelled as soon as ``cancelled()`` turns true, while a request is
    waiting for its answer too (each may take 15 seconds)."""
    # Lazy: the tools package is only needed for this one kind of import.
    from ..tools.errors import ToolError
    from ..settings_extra import WIKIPEDIA_API_URL, usable_api_url
    from ..tools.netutil import setting
    from ..tools.wikipedia_api import get_article

    lang = lang or str(setting(settings, "lang", "en") or "en")
    api_url = usable_api_url(setting(settings, WIKIPEDIA_API_URL, None))
    try:
        article = await _unless_cancelled(get_article(None, title, lang, api_url=api_url), cancelled)
    except ToolError as exc:
        raise FetchError(str(exc)) from exc
    return WikiArticle(article.title, article.url, article.text, article.lang)


async def _unless_cancelled(work: Awaitable[_T], cancelled: Callable[[], bool] | None) -> _T:
    """``work``'s result, or Cancelled (and ``work`` cancelled) once ``cancelled()`` turns true."""
    if cancelled is None:
        return await work
    task = asyncio.ensure_future(work)
    while not task.done():
        await asyncio.wait({task}, timeout=POLL)
        if not task.done() and cancelled():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            raise Cancelled("the import was cancelled")
    return task.result()
