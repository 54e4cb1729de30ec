"""Safe fetching for url_fetch: GET only, http(s) only, every hop's address checked, bounded in time and size.

A model that has read a hostile page may ask for any URL, so this module treats the URL as hostile:

- Only ``http`` and ``https``; no user names or passwords in the URL; GET and nothing else.
- The host name is resolved here, every address it resolves to is checked, and the connection goes to
  the checked address (the URL's host is replaced by the IP; the ``Host`` header and, for https, the TLS
  server name and certificate check keep the original name). Checking at resolve time and then letting
  the HTTP library resolve again would leave a window for DNS rebinding (a name that answers a public
  address to the check and ``127.0.0.1`` to the connect); pinning the address closes it without a
  transport of our own, so the engine's shared client can be used as is. Requests say
  ``Connection: close``, since the pool knows a pinned connection by its IP alone. (Behind an HTTP
  proxy from the environment, the proxy makes the connection; the check still applies to the address.)
- Loopback, private, link-local, multicast, reserved and unspecified addresses (also when embedded in
  IPv6 forms such as ``::ffff:127.0.0.1``) are refused unless the policy allows private addresses.
- Redirects are followed by hand, at most ``max_redirects``; each hop goes through the same checks.
- Connect, read and total timeouts; the body is read up to ``max_bytes`` (unpacked here as it comes, so a
  small gzip bomb is cut too; a body packed twice over is refused: content_coding.py), then reading stops
  and the result says so. A body that is still arriving
  near the end of the total time (a live feed, a page that never ends), that stalls, or whose connection
  closes early is kept as far as it came, and ``Fetched.cut`` says why; only an empty one is an error.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass, field
from typing import Awaitable, Callable, Iterable
from urllib.parse import urlsplit

import httpx

from ..content_coding import ACCEPT_ENCODING, BodyDecoder, DamagedBody, RefusedCoding
from ..host_names import host_name_problem
from .errors import ToolError
from .netutil import USER_AGENT, client_for, describe_http_error, send_web, ungrouped

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], Awaitable[list[str]]]

_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_ACCEPT = ("text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,"
           "application/pdf;q=0.8,*/*;q=0.5")


class FetchError(ToolError):
    """The URL could not be fetched; the message says why, for a person and the model."""


class BlockedAddress(FetchError):
    """The URL leads to an address the policy refuses (loopback, private network, …)."""


class FetchTimeout(FetchError):
    """The page took longer than the limit; ``url`` is the address being read when time ran out."""

    def __init__(self, message: str, url: str) -> None:
        super().__init__(message)
        self.url = url


# The reason for an HTTP error status, first, in words: the card's one line showed the URL and no reason.
_STATUS_WORDS = {
    400: "The site did not understand the request", 401: "The page needs a login",
    403: "The site refused access to the page", 404: "Page not found", 405: "The site does not serve this page",
    410: "The page is gone", 429: "The site is refusing requests for now (too many)",
    451: "The page is not available for legal reasons", 500: "The site had an internal error",
    502: "The site's server is not reachable behind its gateway", 503: "The site is unavailable for now",
    504: "The site's server did not answer its gateway in time",
}


def status_words(code: int, phrase: str) -> str:
    """An HTTP error status as a reason a person reads: "Page not found (404 Not Found)"."""
    kind = "The site could not serve the page" if code >= 500 else "The site refused the request"
    status = f"{code} {phrase}" if phrase else str(code)
    return f"{_STATUS_WORDS.get(code, kind)} ({status})"


@dataclass(frozen=True, slots=True)
class FetchLimits:
    """How long and how much: timeouts in seconds, the body cap in bytes, redirects followed."""

    connect: float = 5.0
    read: float = 10.0
    total: float = 25.0
    max_bytes: int = 5 * 1024 * 1024
    max_redirects: int = 5

    @property
    def body_seconds(self) -> float:
        """How long a body still arriving is read; what came is kept then (see _BODY_SHARE)."""
        return self.total * _BODY_SHARE


@dataclass(frozen=True, slots=True)
class FetchPolicy:
    """Which addresses may be reached. ``trusted_networks`` are reachable even when private ones are not
    (say, one intranet wiki) and let tests treat a loopback server as "public"."""

    allow_private: bool = False
    trusted_networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()


@dataclass(frozen=True, slots=True)
class Fetched:
    """A downloaded body: ``url`` is the final URL after redirects; ``truncated`` if it is not whole, and
    ``cut`` why: "size" (the cap), "time" (still arriving when time ran out), "stalled" (nothing more came
    within the read timeout) or "closed" (the server closed the connection before the end)."""

    url: str
    status: int
    content_type: str
    body: bytes
    truncated: bool
    redirects: tuple[str, ...] = field(default=())
    cut: str = ""


_BAD_PORT = "The URL's port is not a number between 1 and 65535."


def check_url(raw: str) -> httpx.URL:
    """``raw`` as an absolute http(s) URL, or FetchError saying what is wrong with it."""
    text = raw.strip()
    if not text:
        raise FetchError("No URL was given.")
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in text):
        raise FetchError("The URL contains spaces or control characters; encode them (%20) first.")
    try:
        parts = urlsplit(text)
        parts.port  # stricter than httpx, which takes 70000, -1, +80 and ٨٠ as ports
    except ValueError as exc:
        if "port" in str(exc).lower():  # "Port out of range 0-65535", "Port could not be cast to integer"
            raise FetchError(_BAD_PORT) from None
        if "IPv6" in str(exc):  # "Invalid IPv6 URL" (a "[" never closed), "'zz' does not appear to be an IPv4…"
            raise FetchError("The URL's server name is not written right: only an IPv6 address goes in square "
                             "brackets, and whole, as in http://[2001:db8::1]:8080/.") from None
        # "netloc 'a℀b' contains invalid characters under NFKC normalization"
        raise FetchError("The URL's server name holds characters that are not allowed in one.") from None
    if problem := host_name_problem(parts.hostname or ""):
        raise FetchError(f"The URL's server name is not valid: {problem}.")
    try:
        url = httpx.URL(text)
    except (httpx.InvalidURL, ValueError, TypeError) as exc:
        raise FetchError(f"That is not a valid URL ({exc}).") from None
    scheme = url.scheme.lower()
    if not scheme:
        raise FetchError("The URL needs a scheme: write it as https://… .")
    if scheme not in ("http", "https"):
        raise FetchError(f"Only http:// and https:// URLs can be fetched, not {scheme}: URLs.")
    if not url.host:
        raise FetchError("The URL has no host name.")
    if url.userinfo:
        raise FetchError("URLs with a user name or password in them are refused.")
    try:
        port = url.port
    except (httpx.InvalidURL, ValueError):
        raise FetchError(_BAD_PORT) from None
    # httpx takes any number as a port; the connection would then fail with the network library's
    # internals ("ExceptionGroup: unhandled errors in a TaskGroup") in place of a reason.
    if port is not None and not 0 < port < 65536:
        raise FetchError(_BAD_PORT)
    return url


def _embedded_v4(ip: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address hidden in an IPv6 one (mapped, 6to4, Teredo, NAT64), which is where it really goes."""
    if not isinstance(ip, ipaddress.IPv6Address):
        return None
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    if ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def address_problem(ip: IPAddress) -> str | None:
    """Why ``ip`` is not a public internet address (``"a loopback address"``…), or None when it is."""
    embedded = _embedded_v4(ip)
    target = embedded if embedded is not None else ip  # an embedded IPv4 address is where it really goes
    if target.is_loopback:
        return "a loopback address (this computer)"
    if target.is_unspecified:
        return "the unspecified address"
    if target.is_link_local:
        return "a link-local address"
    if target.is_multicast:
        return "a multicast address"
    if target.is_private:
        return "a private network address"
    if target.is_reserved:
        return "a reserved address"
    if not target.is_global:
        return "not a public internet address"
    return None


def check_address(ip: IPAddress, policy: FetchPolicy, host: str = "") -> None:
    """Raise BlockedAddress unless ``policy`` lets a connection go to ``ip``; the reason names ``host``, the
    name the URL gave, before it: "localhost (127.0.0.1) is a loopback address" (the address alone named
    something neither the user nor the model wrote)."""
    if policy.allow_private or any(ip in net for net in policy.trusted_networks):
        return
    problem = address_problem(ip)
    if problem:
        raise BlockedAddress(
            f"{f'{host} ({ip})' if host else ip} is {problem}; url_fetch does not reach such addresses unless 'Let URL fetch reach "
            "private addresses' (url_fetch_allow_private) is on in Settings.")


async def system_resolver(host: str, port: int) -> list[str]:
    """The addresses the system resolver gives for ``host``, in its order of preference."""
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    seen: list[str] = []
    for family, _type, _proto, _canon, sockaddr in infos:
        if family in (socket.AF_INET, socket.AF_INET6):
            addr = str(sockaddr[0]).split("%", 1)[0]  # drop an IPv6 zone id such as %eth0
            if addr not in seen:
                seen.append(addr)
    return seen


async def resolve_checked(url: httpx.URL, policy: FetchPolicy, resolver: Resolver) -> IPAddress:
    """The address to connect to for ``url``: every address the name has must pass the policy."""
    host = url.host
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        check_address(literal, policy)
        return literal
    try:
        found = await resolver(url.raw_host.decode("ascii"), url.port or _default_port(url))
    except (OSError, UnicodeError) as exc:
        raise FetchError(f"The host name {host} could not be resolved ({exc}); check the URL or "
                         "the network connection.") from None
    addresses = _parse_addresses(found)
    if not addresses:
        raise FetchError(f"The host name {host} has no address.")
    # All of them, not just the first: a name that mixes a public and a private address is refused.
    for ip in addresses:
        check_address(ip, policy, host)
    return addresses[0]


def _parse_addresses(found: Iterable[str]) -> list[IPAddress]:
    out: list[IPAddress] = []
    for item in found:
        try:
            out.append(ipaddress.ip_address(item))
        except ValueError:
            continue
    return out


def _default_port(url: httpx.URL) -> int:
    return 443 if url.scheme == "https" else 80


def _pinned_request(url: httpx.URL, ip: IPAddress, limits: FetchLimits, accept_language: str) -> httpx.Request:
    """A GET for ``url`` that connects to ``ip`` and still names the original host to the server."""
    timeout = httpx.Timeout(limits.read, connect=limits.connect)
    extensions: dict[str, object] = {"timeout": timeout.as_dict()}
    if url.scheme == "https":
        extensions["sni_hostname"] = url.raw_host.decode("ascii")
    headers = {
        "Host": url.netloc.decode("ascii"),
        "User-Agent": f"Mozilla/5.0 (compatible; {USER_AGENT})",
        "Accept": _ACCEPT,
        "Accept-Language": accept_language,
        "Accept-Encoding": ACCEPT_ENCODING,
        # The pool knows the connection by IP only: never hand a TLS connection checked for one host name
        # to a request for another name on the same address.
        "Connection": "close",
    }
    # A fresh Request, not client.build_request: the shared client's default headers (an API key for
    # the LLM server) and cookies must never go to an arbitrary web site.
    return httpx.Request("GET", url.copy_with(host=str(ip)), headers=headers, extensions=extensions)


# The share of the total time after which a body still arriving is kept as it is: the rest is left for
# reading it into text within the tool's timeout.
_BODY_SHARE = 0.85


async def _read_capped(response: httpx.Response, max_bytes: int, deadline: float) -> tuple[bytes, str]:
    """The body up to ``max_bytes`` and, once some of it came, until ``deadline`` (loop time), and why it was
    cut ("" if whole). Before its first byte only the total time limits it: there is nothing to keep."""
    decoder = BodyDecoder(response.headers.get("content-encoding", ""))  # RefusedCoding: said by the caller
    parts: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(None) as limit:
            # Raw, and unpacked here: httpx unpacks a piece whole, past any cap (see content_coding.py).
            async for raw in response.aiter_raw():
                if not size and raw:
                    limit.reschedule(deadline)
                room = max_bytes - size
                chunk = decoder.decode(raw, room + 1)
                if len(chunk) > room:
                    parts.append(chunk[:room])
                    return b"".join(parts), "size"
                parts.append(chunk)
                size += len(chunk)
            room = max_bytes - size
            chunk = decoder.finish(room + 1)
            if len(chunk) > room:
                parts.append(chunk[:room])
                return b"".join(parts), "size"
            parts.append(chunk)
    except DamagedBody:
        raise httpx.DecodingError("the page does not unpack") from None  # worded by describe_http_error
    except (TimeoutError, httpx.ReadTimeout, httpx.RemoteProtocolError, httpx.ReadError) as exc:
        if not size:
            raise
        cut = ("time" if isinstance(exc, TimeoutError) else "stalled" if isinstance(exc, httpx.ReadTimeout)
               else "closed")
        return b"".join(parts), cut
    return b"".join(parts), ""


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


async def _fetch_hops(client: httpx.AsyncClient, url: httpx.URL, policy: FetchPolicy, limits: FetchLimits,
                      resolver: Resolver, accept_language: str) -> Fetched:
    body_deadline = asyncio.get_running_loop().time() + limits.body_seconds
    hops: list[str] = []
    for _ in range(limits.max_redirects + 1):
        ip = await resolve_checked(url, policy, resolver)
        request = _pinned_request(url, ip, limits, accept_language)
        try:
            response = await send_web(client, request, stream=True)
        except httpx.HTTPError as exc:
            raise FetchError(describe_http_error(exc, url.host)) from None
        except ExceptionGroup as group:  # a connect error the network library left wrapped (see ungrouped)
            raise FetchError(describe_http_error(ungrouped(group), url.host)) from None
        try:
            if response.status_code in _REDIRECTS and "location" in response.headers:
                target = response.headers["location"]
                try:
                    url = check_url(str(url.join(target)))
                except (httpx.InvalidURL, ValueError) as exc:
                    raise FetchError(f"{url} redirects to {target!r}, which is not a valid URL ({exc}).") from None
                except FetchError as exc:  # keep the kind (BlockedAddress) for callers that tell them apart
                    raise type(exc)(f"{url} redirects to {target!r}, which is refused: {exc}") from None
                hops.append(str(url))
                continue
            if response.status_code >= 400:  # the reason first, the address after it (the card cut it off)
                raise FetchError(f"{status_words(response.status_code, response.reason_phrase)}: {url}")
            body, cut = await _read_capped(response, limits.max_bytes, body_deadline)
        except RefusedCoding as exc:  # the reason first, the address after it
            raise FetchError(f"{_capital(str(exc))}: {url}") from None
        except httpx.HTTPError as exc:
            raise FetchError(describe_http_error(exc, url.host)) from None
        except ExceptionGroup as group:
            raise FetchError(describe_http_error(ungrouped(group), url.host)) from None
        finally:
            await response.aclose()
        return Fetched(str(url), response.status_code, response.headers.get("content-type", ""),
                       body, bool(cut), tuple(hops), cut)
    raise FetchError(f"Too many redirects (more than {limits.max_redirects}); the last one led to {url}.")


async def fetch(raw_url: str, *, http: httpx.AsyncClient | None = None, policy: FetchPolicy = FetchPolicy(),
                limits: FetchLimits = FetchLimits(), resolver: Resolver = system_resolver,
                accept_language: str = "en") -> Fetched:
    """GET ``raw_url`` under ``policy`` and ``limits``; raises FetchError (or BlockedAddress) on failure."""
    url = check_url(raw_url)
    lang = accept_language if accept_language == "en" else f"{accept_language}, en;q=0.5"
    timeout = httpx.Timeout(limits.read, connect=limits.connect)
    try:
        async with asyncio.timeout(limits.total):
            async with client_for(http, timeout) as client:
                return await _fetch_hops(client, url, policy, limits, resolver, lang)
    except TimeoutError:
        raise FetchTimeout(f"The page took longer than {limits.total:g} s to load: {url}", str(url)) from None
