"""url_fetch against loopback servers: articles, redirects, the private-address guard, limits and decoding."""

from __future__ import annotations

import asyncio
import ipaddress
import json
import time
from pathlib import Path

import httpx
import pytest

from tinyrag_desktop.tools.errors import ToolError
from tinyrag_desktop.tools.fetch import BlockedAddress, FetchError, FetchLimits, FetchPolicy, fetch
from tinyrag_desktop.tools.registry import ToolContext, default_registry
from tinyrag_desktop.tools.web import url_fetch

from .conftest import Handler, LoopbackServer, RequestHandler
from .pages import (ARTICLE_HTML, ARTICLE_SENTENCES, CYRILLIC_TEXT, FRENCH_TEXT, PNG_BYTES, cyrillic_page,
                    minimal_pdf)

LOCAL_ONLY = FetchPolicy(trusted_networks=(ipaddress.ip_network("127.0.0.1/32"),))


def ctx(data_dir: Path, **settings: object) -> ToolContext:
    return ToolContext(settings={"url_fetch_allow_private": True, **settings}, data_dir=data_dir)


async def test_article_page_reads_as_text_without_page_chrome(server: LoopbackServer, data_dir: Path) -> None:
    url = server.static("/news/local-rag", ARTICLE_HTML)
    result = await url_fetch(url, ctx(data_dir))
    lines = result.text.splitlines()
    assert lines[0] == "Title: How local RAG works"
    assert lines[1] == f"URL: {url}"
    for sentence in ARTICLE_SENTENCES:
        assert sentence in " ".join(result.text.split())
    for chrome in ("NAVIGATION-WORLD", "ADVERT-BUY-NOW", "ADVERT-SUBSCRIBE", "TRACKING-PIXEL-SCRIPT",
                   "DOCUMENT-WRITE-SCRIPT", "STYLE-CONTENT", "FOOTER-COPYRIGHT", "<p>", "<article"):
        assert chrome not in result.text
    assert result.source == url
    assert [r.method for r in server.seen] == ["GET"]
    sent = server.seen[0].headers
    assert "authorization" not in sent and "cookie" not in sent
    assert sent["host"] == f"127.0.0.1:{server.port}"
    assert sent["connection"] == "close"  # a pinned connection is never reused for another host name


async def test_shared_client_headers_never_reach_the_site(server: LoopbackServer, data_dir: Path) -> None:
    url = server.static("/page", ARTICLE_HTML)
    async with httpx.AsyncClient(headers={"Authorization": "Bearer sk-secret"}, cookies={"s": "1"}) as shared:
        context = ToolContext(settings={"url_fetch_allow_private": True}, data_dir=data_dir, http=shared)
        result = await url_fetch(url, context)
    assert "How local RAG works" in result.text
    assert "authorization" not in server.seen[0].headers
    assert "cookie" not in server.seen[0].headers


async def test_loopback_refused_when_private_addresses_are_off(server: LoopbackServer, data_dir: Path) -> None:
    url = server.static("/secret", "<p>router admin</p>")
    for address in (url, server.url("/secret", host="localhost")):
        with pytest.raises(BlockedAddress, match="loopback"):
            await url_fetch(address, ctx(data_dir, url_fetch_allow_private=False))
    assert server.seen == []  # refused before any connection


async def test_a_refused_host_name_is_named_as_written(server: LoopbackServer, data_dir: Path) -> None:
    # It said "127.0.0.1 is a loopback address" for http://localhost:…, an address nobody had written.
    with pytest.raises(BlockedAddress) as refused:
        await url_fetch(server.url("/secret", host="localhost"), ctx(data_dir, url_fetch_allow_private=False))
    assert str(refused.value).startswith(("localhost (127.0.0.1) is a loopback address", "localhost (::1) is a loopback"))
    with pytest.raises(BlockedAddress) as literal:  # an address written as one is named once
        await url_fetch(server.url("/secret"), ctx(data_dir, url_fetch_allow_private=False))
    assert str(literal.value).startswith("127.0.0.1 is a loopback address")


async def test_loopback_allowed_when_private_addresses_are_on(server: LoopbackServer, data_dir: Path) -> None:
    url = server.static("/notes.txt", "local notes", "text/plain; charset=utf-8")
    result = await url_fetch(url, ctx(data_dir, url_fetch_allow_private=True))
    assert result.text.endswith("local notes")
    assert server.paths_seen() == ["/notes.txt"]


async def test_redirects_are_followed_and_final_url_shown(server: LoopbackServer, data_dir: Path) -> None:
    final = server.static("/final", "you made it", "text/plain")
    server.redirect("/hop2", "/final", status=307)
    server.redirect("/hop1", server.url("/hop2"), status=301)
    result = await url_fetch(server.url("/hop1"), ctx(data_dir))
    assert f"URL: {final}" in result.text and result.text.endswith("you made it")
    assert server.paths_seen() == ["/hop1", "/hop2", "/final"]


async def test_too_many_redirects(server: LoopbackServer, data_dir: Path) -> None:
    for n in range(7):
        server.redirect(f"/r{n}", f"/r{n + 1}")
    with pytest.raises(FetchError, match="Too many redirects"):
        await url_fetch(server.url("/r0"), ctx(data_dir))
    assert len(server.seen) == 6  # the first request and five redirects, no more


@pytest.mark.parametrize(("target", "error", "words"), [
    ("http://169.254.169.254/latest/meta-data/", BlockedAddress, "link-local"),
    ("http://10.0.0.1/admin", BlockedAddress, "private network"),
    ("http://[::ffff:192.168.1.1]/", BlockedAddress, "private network"),
    ("http://127.0.0.2:{port}/final", BlockedAddress, "loopback"),
    ("file:///etc/passwd", FetchError, "Only http"),
])
async def test_redirect_to_refused_address_is_rechecked(server: LoopbackServer, target: str,
                                                        error: type[FetchError], words: str) -> None:
    server.static("/final", "should never be read", "text/plain")
    server.redirect("/go", target.format(port=server.port))
    with pytest.raises(error, match=words):
        await fetch(server.url("/go"), policy=LOCAL_ONLY, limits=FetchLimits(total=5))
    assert server.paths_seen() == ["/go"]


async def test_connection_goes_to_the_checked_address(server: LoopbackServer) -> None:
    """DNS rebinding: the name is resolved once per hop, and the connection uses that very address."""
    server.add("/host", lambda h: h.send_bytes(200, h.headers["Host"].encode(), "text/plain"))
    answers = [["127.0.0.1"], ["10.9.9.9"]]  # a rebinding server: public-looking first, private after
    calls: list[str] = []

    async def rebinding_resolver(host: str, port: int) -> list[str]:
        calls.append(host)
        return answers[min(len(calls) - 1, 1)]

    page = await fetch(f"http://news.example:{server.port}/host", policy=LOCAL_ONLY, resolver=rebinding_resolver)
    # news.example does not resolve on this machine: the request reached the server only via the pinned IP.
    assert page.body == f"news.example:{server.port}".encode()
    assert calls == ["news.example"]


async def test_a_name_with_any_private_address_is_refused() -> None:
    async def mixed(host: str, port: int) -> list[str]:
        return ["93.184.216.34", "192.168.0.10"]

    with pytest.raises(BlockedAddress, match="192.168.0.10"):
        await fetch("http://mixed.example/", resolver=mixed)


async def test_unresolvable_name_fails_fast() -> None:
    async def nxdomain(host: str, port: int) -> list[str]:
        raise OSError(-2, "Name or service not known")

    with pytest.raises(FetchError, match="could not be resolved"):
        await fetch("https://nowhere.invalid/", resolver=nxdomain)


@pytest.mark.parametrize("url", ["ftp://example.com/x", "javascript:alert(1)", "data:text/plain,hi",
                                 "file:///etc/passwd", "example.com/page", "http://user:pw@example.com/"])
async def test_other_schemes_and_shapes_refused(url: str, data_dir: Path) -> None:
    with pytest.raises(ToolError):
        await url_fetch(url, ctx(data_dir))


async def test_closed_port_fails_fast(data_dir: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.monotonic()
    with pytest.raises(FetchError, match="Could not connect"):
        await url_fetch(f"http://127.0.0.1:{port}/", ctx(data_dir))
    assert time.monotonic() - started < 3


async def test_slow_server_is_given_up_on_total_timeout(server: LoopbackServer) -> None:
    def late(h: RequestHandler) -> None:  # each wait under the read timeout, the whole over the total
        h.server.owner.release.wait(0.9)
        h.send_response(200)
        h.send_header("Content-Type", "text/plain")
        h.end_headers()
        h.wfile.flush()
        h.server.owner.release.wait(0.9)

    server.add("/slow", late)
    started = time.monotonic()
    with pytest.raises(FetchError, match="took longer than 1.5 s"):
        await fetch(server.url("/slow"), policy=LOCAL_ONLY, limits=FetchLimits(connect=1, read=1, total=1.5))
    assert 1.4 < time.monotonic() - started < 3


def _trickle(h: RequestHandler) -> None:
    h.send_response(200)
    h.send_header("Content-Type", "text/plain")
    h.end_headers()
    while not h.server.owner.release.wait(0.1):  # a line every 0.1 s: never a read timeout, never an end
        h.wfile.write(b"tick\n")
        h.wfile.flush()


async def test_a_page_that_never_ends_is_kept_as_far_as_it_came(server: LoopbackServer) -> None:
    # It was given up at the total time, and the lines already read were lost.
    started = time.monotonic()
    fetched = await fetch(server.add("/feed", _trickle), policy=LOCAL_ONLY,
                          limits=FetchLimits(connect=1, read=1, total=1.5))
    assert time.monotonic() - started < 1.5  # before the total time: the rest is left for reading it
    assert (fetched.truncated, fetched.cut) == (True, "time")
    assert fetched.body.startswith(b"tick\ntick\n") and set(fetched.body.split()) == {b"tick"}


def _stalls_after(first: bytes, *, close: bool) -> Handler:
    def handler(h: RequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "text/html; charset=utf-8")
        h.send_header("Content-Length", str(len(first) * 10))
        h.end_headers()
        h.wfile.write(first)
        h.wfile.flush()
        if not close:
            h.server.owner.release.wait(5)
        h.close_connection = True
    return handler


@pytest.mark.parametrize(("close", "cut"), [(False, "stalled"), (True, "closed")])
async def test_a_page_that_stops_arriving_keeps_what_came(server: LoopbackServer, close: bool, cut: str) -> None:
    first = b"<html><title>Half</title><body><p>The first paragraph arrived whole.</p>"
    fetched = await fetch(server.add("/half", _stalls_after(first, close=close)), policy=LOCAL_ONLY,
                          limits=FetchLimits(connect=1, read=0.5, total=5))
    assert (fetched.body, fetched.truncated, fetched.cut) == (first, True, cut)


async def test_silent_server_is_given_up_on_read_timeout(server: LoopbackServer) -> None:
    server.add("/silent", lambda h: h.server.owner.release.wait(10))
    started = time.monotonic()
    with pytest.raises(FetchError, match="127.0.0.1 sent nothing for 0.5 seconds, and the request was given up"):
        await fetch(server.url("/silent"), policy=LOCAL_ONLY, limits=FetchLimits(connect=1, read=0.5, total=5))
    assert time.monotonic() - started < 2


async def test_huge_body_is_cut_at_the_cap_and_says_so(server: LoopbackServer, data_dir: Path) -> None:
    line = b"All work and no play makes Jack a dull boy.\n"
    server.static("/huge.txt", line * (6 * 1024 * 1024 // len(line)), "text/plain")
    page = await fetch(server.url("/huge.txt"), policy=LOCAL_ONLY)
    assert page.truncated and len(page.body) == 5 * 1024 * 1024
    result = await url_fetch(server.url("/huge.txt"), ctx(data_dir, result_max_chars=2000))
    assert "download stopped at 5 MB" in result.text
    assert "more characters left out" in result.text
    assert len(result.text) <= 2000


async def test_cap_counts_decompressed_bytes(server: LoopbackServer) -> None:
    server.gzip("/bomb.txt", b"a" * (20 * 1024 * 1024))  # about 20 KB on the wire
    page = await fetch(server.url("/bomb.txt"), policy=LOCAL_ONLY)
    assert page.truncated and len(page.body) == 5 * 1024 * 1024


async def test_binary_is_refused_with_a_reason(server: LoopbackServer, data_dir: Path) -> None:
    server.static("/logo.png", PNG_BYTES, "image/png")
    server.static("/download", b"PK\x03\x04" + b"\x00" * 200, "application/octet-stream")
    with pytest.raises(ToolError, match=r"PNG image \(image/png"):
        await url_fetch(server.url("/logo.png"), ctx(data_dir))
    with pytest.raises(ToolError, match="ZIP archive"):
        await url_fetch(server.url("/download"), ctx(data_dir))


async def test_binary_of_no_known_kind_names_its_content_type_once(server: LoopbackServer,
                                                                  data_dir: Path) -> None:
    server.static("/blob", bytes(range(256)) * 100, "application/octet-stream")
    with pytest.raises(ToolError) as caught:
        await url_fetch(server.url("/blob"), ctx(data_dir))
    message = str(caught.value)
    assert " is binary data (application/octet-stream, 25.0 KB); url_fetch reads web pages" in message
    assert message.count("application/octet-stream") == 1


@pytest.mark.parametrize(("body", "content_type", "expected"), [
    (cyrillic_page(declare_in_meta=False), "text/html; charset=windows-1251", CYRILLIC_TEXT),
    (cyrillic_page(declare_in_meta=True), "text/html", CYRILLIC_TEXT),
    (cyrillic_page(declare_in_meta=False), "text/html", CYRILLIC_TEXT),
    (FRENCH_TEXT.encode("iso-8859-1"), "text/plain; charset=ISO-8859-1", FRENCH_TEXT),
    ((FRENCH_TEXT + "\n") .encode("cp1252") * 20, "text/plain", FRENCH_TEXT),
], ids=["header", "meta", "detected", "latin1-header", "cp1252-detected"])
async def test_non_utf8_pages_are_decoded(server: LoopbackServer, data_dir: Path, body: bytes,
                                          content_type: str, expected: str) -> None:
    url = server.static("/page", body, content_type)
    result = await url_fetch(url, ctx(data_dir))
    assert expected in result.text


async def test_json_is_pretty_printed(server: LoopbackServer, data_dir: Path) -> None:
    data = {"name": "tinyRAG", "tools": ["url_fetch", "wikipedia"], "nested": {"ok": True, "city": "Zürich"}}
    url = server.static("/api", json.dumps(data, separators=(",", ":")), "application/json")
    result = await url_fetch(url, ctx(data_dir))
    body = result.text.split("\n\n", 1)[1]
    assert json.loads(body) == data
    assert '\n  "tools": [\n    "url_fetch",' in body and "Zürich" in body


async def test_pdf_is_turned_into_text(server: LoopbackServer, data_dir: Path) -> None:
    pdf = minimal_pdf(["Quarterly report of the lighthouse keepers", "Lamps lit: 365"], title="Lighthouse")
    url = server.static("/report", pdf, "application/octet-stream")
    result = await url_fetch(url, ctx(data_dir))
    assert result.text.startswith("Title: Lighthouse\n")
    assert "Quarterly report of the lighthouse keepers" in result.text and "Lamps lit: 365" in result.text


async def test_http_error_status_is_reported(server: LoopbackServer, data_dir: Path) -> None:
    with pytest.raises(FetchError, match="404 Not Found"):
        await url_fetch(server.url("/missing"), ctx(data_dir))


async def test_long_page_is_cut_with_a_note(server: LoopbackServer, data_dir: Path) -> None:
    words = " ".join(f"word{n}" for n in range(5000))
    url = server.static("/long.txt", words, "text/plain")
    result = await url_fetch(url, ctx(data_dir, result_max_chars=600))
    assert len(result.text) <= 600
    assert "more characters left out" in result.text
    assert "word0 word1" in result.text


async def test_offline_mode_refuses_and_hides_the_tools(server: LoopbackServer, data_dir: Path) -> None:
    url = server.static("/page", "hi", "text/plain")
    with pytest.raises(ToolError, match="offline mode"):
        await url_fetch(url, ctx(data_dir, network_tools=False))
    assert server.seen == []
    registry = default_registry()
    offline = {spec.name for spec in registry.enabled({"network_tools": False})}
    online = {spec.name for spec in registry.enabled({"network_tools": True})}
    assert {"url_fetch", "websearch", "wikipedia"} <= online
    assert not {"url_fetch", "websearch", "wikipedia"} & offline
    assert "offline mode" in registry.get("url_fetch").disabled_reason


async def test_fetch_can_be_cancelled(server: LoopbackServer) -> None:
    server.add("/hang", lambda h: h.server.owner.release.wait(10))
    task = asyncio.ensure_future(fetch(server.url("/hang"), policy=LOCAL_ONLY))
    while not server.seen:  # the request has reached the server
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


# ---- property tests: everything here parses text a hostile page or model controls -------------------------

from hypothesis import example, given, settings as hsettings, strategies as st  # noqa: E402

from tinyrag_desktop.tools.fetch import address_problem, check_address, check_url  # noqa: E402
from tinyrag_desktop.tools.readable import classify, decode, parse_content_type, to_readable  # noqa: E402

_token = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-+.", min_size=1, max_size=12)


@hsettings(deadline=None)
@given(st.text(max_size=200))
def test_check_url_accepts_only_absolute_http_urls(raw: str) -> None:
    try:
        url = check_url(raw)
    except ToolError:
        return
    assert url.scheme in ("http", "https") and url.host and not url.userinfo


@hsettings(deadline=None)
@given(st.sampled_from(["http", "https"]), st.from_regex(r"[a-z][a-z0-9-]{0,20}(\.[a-z]{2,6}){1,2}", fullmatch=True),
       st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789/-_.~", max_size=40))
def test_check_url_keeps_valid_urls(scheme: str, host: str, path: str) -> None:
    url = check_url(f"{scheme}://{host}/{path}")
    assert url.scheme == scheme and url.host == host


@hsettings(deadline=None)
@given(st.ip_addresses(v=4))
def test_ipv4_verdict_matches_ipaddress_and_survives_ipv6_mapping(ip: ipaddress.IPv4Address) -> None:
    public = ip.is_global and not ip.is_multicast
    assert (address_problem(ip) is None) == public
    mapped = ipaddress.IPv6Address(f"::ffff:{ip}")
    assert (address_problem(mapped) is None) == public
    if not public:
        with pytest.raises(BlockedAddress):
            check_address(mapped, FetchPolicy())
    check_address(mapped, FetchPolicy(allow_private=True))  # the setting lifts the guard


@hsettings(deadline=None)
@given(st.ip_addresses(v=6))
def test_ipv6_never_passes_when_not_global(ip: ipaddress.IPv6Address) -> None:
    if not ip.is_global or ip.is_multicast:
        assert address_problem(ip) is not None


@hsettings(deadline=None)
@given(st.text(max_size=120))
def test_content_type_parser_never_raises(header: str) -> None:
    ctype = parse_content_type(header)
    assert ctype.mime == "" or (ctype.mime.count("/") == 1 and ctype.mime == ctype.mime.lower())
    assert ctype.charset is None or isinstance(decode("é".encode(), ctype.charset, ctype.mime), str)


@hsettings(deadline=None)
@given(_token, _token, st.sampled_from(["utf-8", "windows-1251", "ISO-8859-1", "shift_jis", "koi8-r"]),
       st.booleans(), st.text(alphabet=" \t", max_size=3))
def test_content_type_round_trip(kind: str, sub: str, charset: str, quoted: bool, space: str) -> None:
    value = f'"{charset}"' if quoted else charset
    ctype = parse_content_type(f"{kind}/{sub};{space}charset={value}; q=1")
    assert ctype.mime == f"{kind}/{sub}"
    assert ctype.charset == charset
    word = {"utf-8": "naïve Ж", "ISO-8859-1": "naïve", "shift_jis": "日本語"}.get(charset, "Жук")
    assert decode(word.encode(charset), charset, f"{kind}/{sub}") == word


@hsettings(max_examples=60, deadline=None)
@given(st.binary(max_size=400), st.one_of(st.none(), st.text(max_size=20)), st.text(max_size=30))
def test_decode_and_classify_never_raise(body: bytes, declared: str | None, mime: str) -> None:
    assert isinstance(decode(body, declared, mime), str)
    assert classify(parse_content_type(mime), body) in ("html", "text", "json", "xml", "pdf", "binary")


@hsettings(max_examples=40, deadline=None)
@given(st.binary(max_size=300), st.sampled_from(["", "text/html", "text/plain", "application/json",
                                                 "application/xml", "application/pdf", "image/png"]))
@example(b"<html", "text/plain")  # found by hypothesis
@example(b"<!doctype html><html><body><p>Hi</p></body></html>", "")
@example(b"a <html> tag", "text/plain")
def test_to_readable_gives_text_or_a_tool_error(body: bytes, content_type: str) -> None:
    try:
        readable = to_readable(body, content_type, "http://example.com/", truncated=False, max_chars=1000)
    except ToolError:
        return
    assert isinstance(readable.text, str)
    page = body.removeprefix(b"\xef\xbb\xbf").lstrip().lower().startswith((b"<!doctype html", b"<html"))
    if content_type == "text/plain" and not page:  # the server says it is text: shown as it came
        assert readable.text == decode(body, None, content_type).strip()
    elif readable.kind == "html":  # a page, whatever the server called it: never its markup
        assert "<html" not in readable.text.lower()


def test_https_request_is_pinned_but_keeps_its_name_for_tls() -> None:
    """No TLS server here; check the request httpx gets: IP in the URL, the name in Host and SNI."""
    from tinyrag_desktop.tools.fetch import _pinned_request

    url = check_url("https://bücher.example:8443/a?b=1")
    request = _pinned_request(url, ipaddress.ip_address("2001:db8::7"), FetchLimits(), "en")
    assert request.url.host == "2001:db8::7" and request.url.port == 8443 and request.url.query == b"b=1"
    assert request.headers["host"] == "xn--bcher-kva.example:8443"
    assert request.extensions["sni_hostname"] == "xn--bcher-kva.example"
    assert request.method == "GET" and "authorization" not in request.headers


@hsettings(deadline=None)
@given(st.text(max_size=3000), st.integers(min_value=20, max_value=4000))
def test_cut_text_respects_the_limit(text: str, max_chars: int) -> None:
    from tinyrag_desktop.tools.netutil import cut_text

    out = cut_text(text, max_chars)
    assert len(out) <= max_chars
    if len(text) <= max_chars:
        assert out == text
    else:
        kept = out.rsplit("\n[…", 1)[0].rstrip()
        assert text.startswith(kept)


async def test_trusted_networks_setting_opens_only_those(server: LoopbackServer, data_dir: Path) -> None:
    """url_fetch_trusted_networks (a hand-edited settings.json key) lets one intranet range through."""
    server.static("/wiki", "intranet page", "text/plain")
    server.redirect("/elsewhere", f"http://127.0.0.2:{server.port}/wiki")
    context = ctx(data_dir, url_fetch_allow_private=False, url_fetch_trusted_networks=["127.0.0.1/32", "bogus"])
    result = await url_fetch(server.url("/wiki"), context)
    assert result.text.endswith("intranet page")
    with pytest.raises(BlockedAddress, match="127.0.0.2 is a loopback address"):
        await url_fetch(server.url("/elsewhere"), context)


async def test_xml_feed_is_read_without_expanding_entities(server: LoopbackServer, data_dir: Path) -> None:
    feed = """<?xml version="1.0"?>
<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<rss version="2.0"><channel><title>Lighthouse news</title>
<item><title>Lamp replaced</title><description>The old lamp was replaced. &xxe;</description></item>
</channel></rss>"""
    url = server.static("/feed.xml", feed, "application/rss+xml")
    result = await url_fetch(url, ctx(data_dir))
    assert result.text.startswith("Title: Lighthouse news\n")
    assert "Lamp replaced" in result.text and "The old lamp was replaced." in result.text
    assert "root:" not in result.text and "<item>" not in result.text


@pytest.mark.parametrize(("body", "title", "text"), [
    ("<w:t>P", "", "P"),  # six bytes: "url_fetch failed unexpectedly: ValueError: Invalid tag name 'w:t'"
    ('<doc><x:title>Minutes</x:title><x:p a="1">Hello</x:p></doc>', "Minutes", "Hello"),
])
async def test_xml_whose_prefixes_are_declared_nowhere_is_read(server: LoopbackServer, data_dir: Path, body: str,
                                                              title: str, text: str) -> None:
    url = server.static("/doc.xml", body, "application/xml")
    result = await url_fetch(url, ctx(data_dir))
    assert result.text.startswith(f"Title: {title}\n" if title else "URL: ")
    assert text in result.text and "Error" not in result.text


async def test_a_page_holding_a_number_too_long_to_read_is_read(server: LoopbackServer, data_dir: Path) -> None:
    # "&#" and 5,000 digits: html.unescape raised "ValueError: Exceeds the limit (4300 digits) for integer
    # string conversion" while the page's joiners were given stand-ins
    url = server.static("/long", "<html><body><p>Hello \u200d there &#" + "1" * 5000 + "; friend.</p></body></html>")
    result = await url_fetch(url, ctx(data_dir))
    assert "Hello \u200d there \ufffd friend." in result.text


async def test_script_only_page_says_there_is_no_text(server: LoopbackServer, data_dir: Path) -> None:
    page = "<html><head><title>App</title></head><body><div id=root></div><script>render()</script></body></html>"
    result = await url_fetch(server.static("/app", page), ctx(data_dir))
    assert result.text.endswith("(No readable text found; the page may build its content with JavaScript.)")
    assert "render()" not in result.text
    assert result.source == ""  # it gave the answer nothing: not listed among its sources
    readable = await url_fetch(server.static("/text", "<html><body><p>The lamp was lit.</p></body></html>"),
                               ctx(data_dir))
    assert readable.source.endswith("/text")


async def test_very_large_page_is_read_in_part_and_says_so(server: LoopbackServer, data_dir: Path) -> None:
    paragraphs = "".join(f"<p>Paragraph {n} tells of lamps, ships and the keepers of the light.</p>"
                         for n in range(25000))
    page = f"<html><head><title>Logbook</title><script>{'var x = 1;' * 100000}</script></head>" \
           f"<body><article>{paragraphs}</article></body></html>"
    result = await url_fetch(server.static("/log", page), ctx(data_dir, result_max_chars=3000))
    assert result.text.startswith("Title: Logbook\n")
    assert "Paragraph 0 tells of lamps" in result.text and "var x" not in result.text
    assert result.text.endswith("[The page is very large; only its first 1 MB of markup was read.]")
    assert len(result.text) <= 3000


@hsettings(deadline=None)
@given(st.lists(st.sampled_from(["<script>", "</script>", "<style", ">", "<!--", "-->", "a", "<svg/>",
                                  "</SCRIPT >", " ", "<p>visible</p>"]), max_size=40).map("".join))
def test_strip_invisible_never_grows_or_raises(html: str) -> None:
    from tinyrag_desktop.tools.readable import strip_invisible

    out = strip_invisible(html)
    assert len(out) <= len(html)
    if "<" not in html.replace("<p>", "").replace("</p>", ""):
        assert out == html  # nothing to strip: unchanged


async def test_https_connects_to_the_pinned_address_and_checks_the_name(tls_server) -> None:
    """Real TLS: the connection goes to the resolved IP, the certificate is checked for the URL's name."""
    import ssl

    from .conftest import TLSServer

    assert isinstance(tls_server, TLSServer)
    server = tls_server.server
    server.static("/hello", "over tls", "text/plain")

    async def resolver(host: str, port: int) -> list[str]:
        return ["127.0.0.1"]

    trust = ssl.create_default_context(cafile=str(tls_server.cafile))
    async with httpx.AsyncClient(verify=trust) as http:
        page = await fetch(f"https://news.example:{server.port}/hello", http=http, policy=LOCAL_ONLY,
                           resolver=resolver)
        assert page.body == b"over tls" and page.url == f"https://news.example:{server.port}/hello"
        assert server.seen[0].headers["host"] == f"news.example:{server.port}"
        # The same address under another name: the certificate does not name it, so no connection.
        with pytest.raises(FetchError, match="CERTIFICATE_VERIFY_FAILED|certificate"):
            await fetch(f"https://evil.example:{server.port}/hello", http=http, policy=LOCAL_ONLY,
                        resolver=resolver)
    assert len(server.seen) == 1


@pytest.mark.parametrize("mime", ["text/plain", "text/markdown", "application/javascript"])
def test_a_web_page_served_as_plain_text_is_read_as_a_page(mime: str) -> None:
    # raw.githubusercontent.com serves .html files as text/plain: the model was given the markup and scripts.
    page = (b"\xef\xbb\xbf  <!DOCTYPE html><html><head><title>T</title><script>var x = 1;</script></head>"
            b"<body><p>The readable words.</p></body></html>")
    assert classify(parse_content_type(mime), page) == "html"
    text = to_readable(page, mime, "https://example.org/page.html", truncated=False, max_chars=1000).text
    assert "The readable words." in text and "<script>" not in text and "var x" not in text
    # Text that only mentions markup stays text.
    assert classify(parse_content_type("text/plain"), b"Write <html> at the top of the file.") == "text"


@pytest.mark.timeout(30)
def test_an_xml_declaration_left_open_over_many_lines_is_read_at_once() -> None:
    # lxml reads an XML declaration's encoding with a regular expression quadratic in its spaces, and the
    # page was parsed three times: 60,000 line ends took 16 s, in a thread that cannot be stopped; these
    # 200,000 took about three minutes. The declaration says nothing of a decoded page: it is dropped.
    page = b'<?xml version="1' + b"\n" * 200_000 + b'.0" enc'
    readable = to_readable(page, "text/html", "https://example.org/", truncated=False, max_chars=1000)
    assert readable.text == ""


def test_a_page_after_an_xml_declaration_is_read() -> None:
    page = ('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html><html><head><title>Otters</title></head>'
            "<body><p>Otters hold hands while they sleep.</p></body></html>").encode()
    readable = to_readable(page, "text/html", "https://example.org/", truncated=False, max_chars=1000)
    assert readable.title == "Otters" and "Otters hold hands while they sleep." in readable.text
