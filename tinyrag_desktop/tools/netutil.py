"""Small pieces the network tools share: settings look-up, the HTTP client, result cutting, error wording."""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import logging
from typing import Any, AsyncIterator, Mapping

import httpx

from .. import __version__
from ..content_coding import ACCEPT_ENCODING, BodyDecoder, DamagedBody, RefusedCoding
from ..http_clients import async_client
from ..kb.html_encoding import web_text

# Wikipedia asks API clients for a descriptive User-Agent; sites answer browsers-only pages less often to it.
USER_AGENT = f"tinyRAG-Desktop/{__version__} (local desktop assistant; +https://github.com/tinyrag)"

log = logging.getLogger(__name__)

OFFLINE_REASON = "network tools are off (offline mode); turn on 'Network tools' in Settings"


def setting(settings: Mapping[str, Any], key: str, default: Any = None) -> Any:
    """A settings value, looking also in ``Settings.extra`` (keys the schema does not know, e.g. overrides
    such as ``wikipedia_api_url`` that a power user or a test writes into settings.json)."""
    try:
        value = settings.get(key)
    except Exception:  # a Mapping whose get raises on odd keys: treat as absent
        value = None
    if value is None:
        extra = getattr(settings, "extra", None)
        if isinstance(extra, Mapping):
            value = extra.get(key)
    return default if value is None else value


def as_dict(value: Any) -> dict[str, Any]:
    """``value`` if it is a JSON object, else an empty one: API answers are outside input."""
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    """``value`` if it is a JSON array, else an empty one."""
    return value if isinstance(value, list) else []


def network_enabled(settings: Mapping[str, Any]) -> bool:
    return bool(setting(settings, "network_tools", True))


def result_limit(settings: Mapping[str, Any]) -> int:
    """The longest result the model gets back (``result_max_chars``), never below a useful floor."""
    try:
        return max(200, int(setting(settings, "result_max_chars", 8000)))
    except (TypeError, ValueError):
        return 8000


def cut_text(text: str, max_chars: int) -> str:
    """``text`` cut to at most ``max_chars`` characters, ending with a note of how much was left out.

    The cut falls on a line or word boundary when one is near, so the model does not read half a word
    as if it were the end of the page.
    """
    if len(text) <= max_chars:
        return text
    note_room = 80 if max_chars >= 120 else 12
    keep = max(0, max_chars - note_room)
    head = text[:keep]
    for sep in ("\n", " "):
        pos = head.rfind(sep)
        if pos >= keep * 0.8:
            head = head[:pos]
            break
    left_out = len(text) - len(head)
    note = (f"\n\n[… {left_out:,} more characters left out ({len(text):,} in all)]" if note_room > 12
            else "\n[… cut]")
    return head.rstrip() + note


def cut_middle(text: str, max_chars: int) -> str:
    """``text`` cut to about ``max_chars`` characters by leaving out its middle: a third from the start, the
    rest from the end, each cut at a line break when one is near, and a note of how much was left out."""
    if len(text) <= max_chars:
        return text
    room = max(0, max_chars - 70)
    head, tail = text[: room // 3], text[len(text) - (room - room // 3):] if room else ""
    cut = head.rfind("\n")
    if cut >= len(head) * 0.7:
        head = head[:cut]
    cut = tail.find("\n")
    if 0 <= cut <= len(tail) * 0.3:
        tail = tail[cut + 1:]
    head, tail = head.rstrip("\n"), tail.lstrip("\n")
    left_out = len(text) - len(head) - len(tail)
    return f"{head}\n\n[… {left_out:,} more characters left out in the middle ({len(text):,} in all)]\n\n{tail}"


def timeout_words(seconds: float) -> str:
    """The tool timeout as the user set it, for a message: "the 10-second tool timeout"."""
    return f"the {seconds:g}-second tool timeout"


def seconds_words(seconds: float) -> str:
    """A span of time for a message: "10 seconds", "1 second", "0.5 seconds"."""
    return f"{seconds:.3g} second{'' if seconds == 1 else 's'}"


def tool_timeout(settings: Mapping[str, Any]) -> float:
    """The seconds a tool may run (``tool_timeout``), after which the engine stops it."""
    try:
        return float(setting(settings, "tool_timeout", 30.0))
    except (TypeError, ValueError):
        return 30.0


def before_the_stop(seconds: float) -> float:
    """A little less than ``seconds``, the tool timeout, at which the engine stops a tool that does not keep to
    it itself: a wait bounded by this ends first, so the user reads what the tool says ("… sent nothing for 9
    seconds"), not the engine's bare stop. Half a second less at least (two seconds at most), as url_fetch's
    own bound comes that much before the engine's stop of it (engine.tool_grace)."""
    return max(seconds / 2, seconds - min(2.0, max(0.5, seconds * 0.1)))


def capped(timeout: httpx.Timeout, seconds: float) -> httpx.Timeout:
    """``timeout`` with no part longer than a little less than ``seconds``, the tool timeout (before_the_stop):
    the engine stops the tool then, so a longer wait would never end as its own message says."""
    seconds = before_the_stop(seconds)

    def cap(part: float | None) -> float:
        return seconds if part is None else min(part, seconds)
    return httpx.Timeout(connect=cap(timeout.connect), read=cap(timeout.read), write=cap(timeout.write),
                         pool=cap(timeout.pool))


@contextlib.asynccontextmanager
async def client_for(http: httpx.AsyncClient | None, timeout: httpx.Timeout) -> AsyncIterator[httpx.AsyncClient]:
    """The engine's shared client when there is one; otherwise a client of our own, closed afterwards."""
    if http is not None:
        yield http
        return
    async with async_client(timeout=timeout, follow_redirects=False) as own:
        yield own


# Marks the requests the web tools send (an extension, which httpx hands to no server): the cookies their
# answers set are not kept (_WebToolCookies).
_WEB_TOOL = "tinyrag_web_tool"
_MOST_REDIRECTS = 10


class _WebToolCookies(http.cookiejar.DefaultCookiePolicy):
    """A client's cookie policy that keeps no cookie a site sets in answer to a web tool, and the others as
    the default policy does. The web tools share the engine's client, whose jar the LLM server's requests
    carry: a fetched page's cookie went to the LLM server when both were on one host."""

    def set_ok(self, cookie: http.cookiejar.Cookie, request: Any) -> bool:
        sent = getattr(request, "request", None)  # httpx's wrapper holds the httpx.Request
        if sent is not None and sent.extensions.get(_WEB_TOOL):
            return False
        return super().set_ok(cookie, request)


async def send_web(client: httpx.AsyncClient, request: httpx.Request, *, stream: bool = False) -> httpx.Response:
    """``request`` (built from scratch, never from the client's defaults, which may carry the LLM server's
    API key, cookies or base URL) sent through ``client`` as it is, no redirect followed; ``client``'s
    cookie jar keeps no cookie the answer sets."""
    request.extensions[_WEB_TOOL] = True
    client.cookies.jar.set_policy(_WebToolCookies())
    return await client.send(request, stream=stream, auth=None, follow_redirects=False)


# The most an API's answer (Wikipedia's, a SearXNG instance's) may unpack to: the longest articles' extracts
# are about 1 MB.
MOST_ANSWER_BYTES = 16 * 1024 * 1024


class AnswerRefused(httpx.TransportError):
    """An answer not read: larger than MOST_ANSWER_BYTES unpacked, or packed in a way that is refused."""


async def _read_answer(response: httpx.Response) -> httpx.Response:
    """``response`` (streamed) read whole, unpacked here within MOST_ANSWER_BYTES (content_coding.py), as a
    response of its own; raises AnswerRefused, or DecodingError for a body that does not unpack."""
    if response.is_stream_consumed:  # made in this process with its content (a test's MockTransport): read
        return response
    try:
        decoder = BodyDecoder(response.headers.get("content-encoding", ""))
    except RefusedCoding as exc:
        raise AnswerRefused(str(exc)) from None
    parts: list[bytes] = []
    size = 0
    try:
        async for raw in response.aiter_raw():
            parts.append(decoder.decode(raw, MOST_ANSWER_BYTES - size + 1))
            size += len(parts[-1])
            if size > MOST_ANSWER_BYTES:
                break
        else:
            parts.append(decoder.finish(MOST_ANSWER_BYTES - size + 1))
            size += len(parts[-1])
    except DamagedBody as exc:
        raise httpx.DecodingError(str(exc)) from None
    if size > MOST_ANSWER_BYTES:
        raise AnswerRefused(f"the answer is larger than {MOST_ANSWER_BYTES // 2**20} MB")
    headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() not in ("content-encoding",
                                                                                    "content-length")]
    return httpx.Response(response.status_code, headers=headers, content=b"".join(parts), request=response.request)


def answer_json(response: httpx.Response) -> Any:
    """An API's answer (Wikipedia's, a SearXNG instance's) as JSON, its text read as url_fetch and ``kb add``
    read a page's (html_encoding.web_text): a server that names UTF-8 but sends Windows-1252 gives "Café",
    not "did not answer with JSON". Raises ValueError for an answer that is not JSON."""
    return json.loads(web_text(response.content, response.charset_encoding, page=False))


async def plain_get(client: httpx.AsyncClient, url: str, *, params: Mapping[str, str], headers: Mapping[str, str],
                    timeout: httpx.Timeout) -> httpx.Response:
    """A GET built from scratch, not from the client's defaults (see send_web), redirects followed here (httpx
    puts the client's cookies on each hop it follows), the answer read within MOST_ANSWER_BYTES."""
    headers = {"Accept-Encoding": ACCEPT_ENCODING, **headers}
    request = httpx.Request("GET", url, params=params, headers=headers, extensions={"timeout": timeout.as_dict()})
    try:
        for _ in range(_MOST_REDIRECTS + 1):
            streamed = await send_web(client, request, stream=True)
            try:
                response = await _read_answer(streamed)
            finally:
                await streamed.aclose()
            if not response.has_redirect_location:
                return response
            target = response.url.join(response.headers["location"])
            if target.scheme not in ("http", "https"):
                raise httpx.UnsupportedProtocol(f"a redirect to {target.scheme}: is not followed", request=request)
            request = httpx.Request("GET", target, headers=headers, extensions={"timeout": timeout.as_dict()})
        raise httpx.TooManyRedirects(f"more than {_MOST_REDIRECTS} redirects", request=request)
    except ExceptionGroup as group:
        raise ungrouped(group) from None


def connect_failure(exc: httpx.ConnectError) -> str:
    """What kind of failure a ConnectError is, from the words the system and anyio give it: "name" (the
    host name could not be looked up), "refused", "certificate", "unreachable", or "" (something else)."""
    text = str(exc).lower()
    if any(sign in text for sign in ("name or service", "nodename", "getaddrinfo", "name resolution",
                                     "temporary failure in name")):
        return "name"
    if "refused" in text or "all connection attempts failed" in text:  # anyio's words for refused
        return "refused"
    if "certificate" in text:
        return "certificate"
    return "unreachable" if "unreachable" in text else ""


def _leaves(group: BaseExceptionGroup) -> list[BaseException]:
    out: list[BaseException] = []
    for exc in group.exceptions:
        out.extend(_leaves(exc) if isinstance(exc, BaseExceptionGroup) else [exc])
    return out


def ungrouped(group: ExceptionGroup) -> httpx.HTTPError:
    """The network error an ExceptionGroup stands for. anyio connects in a task group, and an error there
    that is not an OSError (the event loop's own, say) reaches httpx, and us, wrapped in a group that httpx
    does not translate: the card said "ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)"."""
    leaves = _leaves(group)
    log.warning("a request failed with an exception group", exc_info=group)
    for leaf in leaves:
        if isinstance(leaf, httpx.HTTPError):
            return leaf
    for leaf in leaves:
        if isinstance(leaf, TimeoutError):
            return httpx.ConnectTimeout(str(leaf))
    first = leaves[0] if leaves else group
    return httpx.ConnectError(str(first) if isinstance(first, OSError) else "")


def _allowed(exc: httpx.TimeoutException, kind: str) -> float | None:
    """The seconds the request that timed out allowed for ``kind`` ("connect", "read"): the bound that applied."""
    try:
        value = (exc.request.extensions.get("timeout") or {}).get(kind)
    except RuntimeError:  # an exception made without its request
        return None
    return value if isinstance(value, (int, float)) else None


def describe_http_error(exc: httpx.HTTPError, what: str) -> str:
    """One sentence, for a person, saying why a request to ``what`` failed."""
    if isinstance(exc, httpx.ConnectTimeout):
        allowed = _allowed(exc, "connect")
        within = f"within {seconds_words(allowed)}" if allowed else "in time"
        return f"Could not connect to {what}: it did not answer {within} (is the network down?)."
    if isinstance(exc, httpx.ReadTimeout) and (allowed := _allowed(exc, "read")):
        return f"{what} sent nothing for {seconds_words(allowed)}, and the request was given up."
    if isinstance(exc, httpx.TimeoutException):
        return f"{what} took too long to answer and the request was given up."
    if isinstance(exc, httpx.ConnectError):
        why = connect_failure(exc)
        if why == "name":
            return f"Could not connect to {what}: its server name could not be looked up. Check the network connection."
        if why == "refused":
            return f"Could not connect to {what}: the connection was refused."
        if why == "certificate":
            return f"Could not connect to {what}: its certificate could not be verified ({exc})."
        if why == "unreachable":
            return f"Could not connect to {what}: the network is unreachable. Check the network connection."
        return f"Could not connect to {what}. Check the network connection."
    if isinstance(exc, AnswerRefused):
        return f"{what} sent an answer that is refused: {exc}."
    if isinstance(exc, httpx.DecodingError):  # a gzip or deflate body that does not unpack
        return f"{what} sent a compressed page that could not be decompressed: the page it sent is damaged."
    if isinstance(exc, httpx.RemoteProtocolError):
        return f"{what} closed the connection or answered with something that is not HTTP."
    if isinstance(exc, httpx.HTTPStatusError):
        status = exc.response.status_code
        return f"{what} answered {status} {exc.response.reason_phrase}."
    return f"The request to {what} failed ({type(exc).__name__}: {exc})."
