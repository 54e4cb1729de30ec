"""Importing a URL and a Wikipedia article, against loopback HTTP servers only."""

from __future__ import annotations

import json
import sys
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from hypothesis import given, settings as examples, strategies as st

from tests.loopback import serving
from tinyrag_desktop.kb import ImportItem, Importer, open_store, search
from tinyrag_desktop.kb.errors import Cancelled, FetchError, ReadError
from tinyrag_desktop.kb.web import fetch_url
from tinyrag_desktop.settings import Settings, defaults

from .conftest import make_pdf

PAGE = b"""<html><head><title>Harbour Guide</title></head><body>
<nav><a href="/">Home</a> <a href="/x">Other page</a></nav>
<article><h1>Harbour Guide</h1>
<p>The harbour master assigns moorings to visiting sailing boats every afternoon in summer.</p>
<h2>Tides</h2>
<p>Spring tides in the estuary rise more than six metres, so moor with long lines and check them often.</p>
<p>The tide tables are posted at the fuel dock and updated each week by the harbour office.</p>
</article><footer>Footer links</footer></body></html>"""

EXTRACT = ("Narwhals are medium-sized toothed whales that live in Arctic waters.\n\n"
           "== Description ==\nThe narwhal's tusk is an elongated upper left canine tooth.\n\n"
           "== Behaviour ==\nNarwhals migrate seasonally between fjords and the pack ice.")


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def _send(self, status: int, ctype: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        url = urlparse(self.path)
        if url.path == "/page.html":
            self._send(200, "text/html; charset=utf-8", PAGE)
        elif url.path == "/report.pdf":
            self._send(200, "application/pdf", make_pdf(["Lobster catches doubled this season."]))
        elif url.path in ("/api.php", "/de/api.php"):
            params = parse_qs(url.query)
            title = params.get("titles", [""])[0]
            if title.lower() == "narwhal" and url.path == "/api.php":
                page = {"title": "Narwhal", "extract": EXTRACT, "fullurl": "https://en.wikipedia.org/wiki/Narwhal"}
            elif title.lower() == "narwal" and url.path == "/de/api.php":
                page = {"title": "Narwal", "extract": "Der Narwal ist ein Wal der Arktis.",
                        "fullurl": "https://de.wikipedia.org/wiki/Narwal"}
            else:
                page = {"title": title, "missing": True}
            if params.get("list") == ["search"]:
                self._send(200, "application/json", json.dumps({"query": {"search": []}}).encode())
                return
            self._send(200, "application/json", json.dumps({"query": {"pages": [page]}}).encode())
        elif url.path == "/moved":  # a site that moved: the browser is sent on by a meta refresh
            self._send(200, "text/html", b'<html><head><title>Moved</title><meta http-equiv="refresh" '
                                         b'content="0; url=page.html"></head><body>Redirecting...</body></html>')
        elif url.path == "/loop":  # a refresh to itself is no page to follow
            self._send(200, "text/html", b'<meta http-equiv="refresh" content="0;url=/loop"><p>Loop page.</p>')
        elif url.path == "/trickle":  # a byte every 50 ms: never idle long enough for the read time-out
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", "10000")
            self.end_headers()
            try:
                for _ in range(10000):
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.05)
            except OSError:
                pass
        else:
            self._send(404, "text/plain", b"not found")


@pytest.fixture
def server():
    with serving(_Handler) as url:
        yield url


def _import(data_dir: Path, items, settings=None):
    kb = open_store(data_dir)
    try:
        return Importer(kb, settings=settings).run(items)
    finally:
        kb.close()


def test_url_import_keeps_readable_text_and_sections(server, data_dir, monkeypatch):
    report = _import(data_dir, [f"{server}/page.html", f"{server}/report.pdf"])
    assert not report.failed, report.failed
    hit = search(data_dir, "how high do spring tides rise", 1)[0]
    assert hit.location == f"{server}/page.html"
    assert hit.title == "Harbour Guide"
    assert "Tides" in hit.heading
    # The navigation and footer are not indexed. (Without the spelling tolerance, which would read the
    # missing "links" as "lines", a word the article does use.)
    monkeypatch.setattr(sys.modules["tinyrag_desktop.kb.search"], "SPELLING", False)
    assert search(data_dir, "Footer links Home", 5) == []
    monkeypatch.undo()
    assert search(data_dir, "lobster catches", 1)[0].location == f"{server}/report.pdf"
    again = _import(data_dir, [f"{server}/page.html"])
    assert again.unchanged == [f"{server}/page.html"]


def test_url_errors_are_reasons(server, data_dir):
    report = _import(data_dir, [f"{server}/missing", "http://127.0.0.1:1/closed", "https://exa mple/bad"])
    reasons = [f.reason for f in report.failed]
    assert "404" in reasons[0]
    assert "could not be downloaded" in reasons[1]
    assert len(reasons) == 3


def test_wikipedia_import_by_title(server, data_dir):
    settings = Settings(defaults().values, {"wikipedia_api_url": f"{server}/api.php"})
    report = _import(data_dir, [ImportItem("wikipedia", "narwhal")], settings)
    assert not report.failed, report.failed
    hit = search(data_dir, "what is the tusk of a narwhal", 1)[0]
    assert hit.title == "Narwhal"
    assert hit.location == "https://en.wikipedia.org/wiki/Narwhal"
    assert hit.heading == "Narwhal > Description"
    missing = _import(data_dir, [ImportItem("wikipedia", "no such thing")], settings)
    assert "No Wikipedia article" in missing.failed[0].reason


def test_wikipedia_import_asks_the_edition_an_item_names(server, data_dir):
    # A re-import of an article from de.wikipedia.org names its edition; the settings' language is English.
    settings = Settings(defaults().values, {"lang": "en", "wikipedia_api_url": f"{server}/{{lang}}/api.php"})
    report = _import(data_dir, [ImportItem("wikipedia", "Narwal", lang="de")], settings)
    assert report.added == ["https://de.wikipedia.org/wiki/Narwal"], report.failed
    english = _import(data_dir, [ImportItem("wikipedia", "Narwal")], settings)
    assert english.failed and not english.added  # the English edition has no "Narwal" here


def test_import_item_parsing():
    assert ImportItem.parse("https://x.org/a") == ImportItem("url", "https://x.org/a")
    assert ImportItem.parse("wikipedia: Narwhal") == ImportItem("wikipedia", "Narwhal")
    assert ImportItem.parse("notes/a.md") == ImportItem("path", "notes/a.md")


def test_one_page_is_one_source_whatever_the_case_port_or_fragment(server, data_dir):
    host_port = server.removeprefix("http://")
    forms = [f"{server}/page.html", f"{server}/page.html#tides", f"HTTP://{host_port.upper()}/page.html"]
    report = _import(data_dir, forms)
    assert report.added == [f"{server}/page.html"] and len(report.unchanged) == 2
    with open_store(data_dir) as kb:
        assert [s.location for s in kb.sources()] == [f"{server}/page.html"]


def test_a_url_with_a_password_is_refused_not_stored(server, data_dir):
    report = _import(data_dir, [server.replace("http://", "http://me:secret@") + "/page.html"])
    assert "password" in report.failed[0].reason and not report.added
    with open_store(data_dir) as kb:
        assert kb.sources() == []  # nothing fetched, nothing stored


def test_a_page_sent_too_slowly_is_given_up_on_and_cancel_stops_it(server):
    started = time.monotonic()
    with pytest.raises(FetchError, match="too slowly"):
        fetch_url(f"{server}/trickle", 1 << 20, deadline=0.5)
    assert time.monotonic() - started < 5
    with pytest.raises(Cancelled):
        fetch_url(f"{server}/trickle", 1 << 20, cancelled=lambda: time.monotonic() - started > 1.0)


def test_binary_bytes_served_as_a_web_page_are_refused():
    from tinyrag_desktop.kb.web import Fetched

    noise = bytes(range(1, 32)) * 300  # control codes, no zero byte
    with pytest.raises(ReadError, match="binary data"):
        Fetched("http://127.0.0.1/x.html", "text/html", noise).document()


def test_a_downloaded_page_nested_too_deep_is_read_whole():
    from tinyrag_desktop.kb.web import html_document

    posts = "".join(f"<div class=post><p>Forum post number {n} about moorings.</p>" for n in range(400))
    doc = html_document(f"<html><head><title>Forum</title></head><body>{posts}</body></html>".encode(),
                        "http://127.0.0.1/forum")
    text = " ".join(b.text for b in doc.blocks)
    assert "post number 0 " in text and "post number 399 " in text


def test_url_errors_a_user_can_cause_are_said_without_programmer_words(data_dir):
    # Typed into "Add a web page": the panel said "could not be downloaded (UnsupportedProtocol: Request URL
    # is missing an 'http://' or 'https://' protocol.)" or "(ConnectError: [Errno 111] Connection refused)".
    wrong = ["127.0.0.1:1/page.html", "ftp://127.0.0.1:1/file.txt", "http://127.0.0.1:1/closed", "https://exa mple/bad",
             "http://127.0.0.1:99999/page.html"]
    reasons = [f.reason for f in _import(data_dir, [ImportItem("url", u) for u in wrong]).failed]
    assert len(reasons) == len(wrong)
    assert "http://" in reasons[0] and "https://" in reasons[0]
    assert "ftp://" in reasons[1] and "only http:// and https://" in reasons[1]
    assert "connection refused" in reasons[2] and "127.0.0.1:1" in reasons[2]
    for reason in reasons:
        for programmer_words in ("Error", "Errno", "Request URL", "Protocol:", "Invalid", "Port out of range"):
            assert programmer_words not in reason, reason


def test_a_page_that_only_sends_the_browser_on_is_followed(server, data_dir):
    # It was stored as a source titled "Moved" whose text was "Redirecting...".
    report = _import(data_dir, [f"{server}/moved"])
    assert not report.failed, report.failed
    hit = search(data_dir, "how high do spring tides rise", 1)[0]
    assert hit.title == "Harbour Guide" and hit.location == f"{server}/page.html"
    assert search(data_dir, "Redirecting", 5) == []
    looped = _import(data_dir, [f"{server}/loop"])  # read as the page it is, once
    assert not looped.failed and search(data_dir, "loop page", 1)[0].location == f"{server}/loop"


@examples(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.sampled_from(["text/html", "", "text/plain"]))
def test_any_page_gives_a_web_address_or_none_to_follow(data, content_type):
    from tinyrag_desktop.kb.web import Fetched, meta_refresh_target

    page = b'<meta http-equiv="refresh" content="' + data + b'">'
    for body in (data, page):
        target = meta_refresh_target(Fetched("http://127.0.0.1:8/dir/a.html", content_type, body))
        assert target is None or target.startswith(("http://", "https://"))
