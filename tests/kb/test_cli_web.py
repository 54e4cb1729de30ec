"""``kb add URL`` against a loopback server that answers badly: each failure is one line in words, exit 1.

Never the internet: every address is 127.0.0.1.
"""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from tests.loopback import serving
from tinyrag_desktop.cli import main

from .conftest import make_pdf


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def _send(self, status: int, ctype: str, body: bytes, **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path == "/loop":
            self._send(302, "text/plain", b"", Location="/loop-back")
        elif self.path == "/loop-back":
            self._send(302, "text/plain", b"", Location="/loop")
        elif self.path == "/empty":
            self._send(200, "text/html", b"")
        elif self.path == "/blank":
            self._send(200, "text/html; charset=utf-8", b" \r\n\t\n")
        elif self.path == "/comment":
            self._send(200, "text/html", b"<!-- nothing here yet -->")
        elif self.path == "/fragment":  # no <html>: trafilatura logs "empty HTML tree" as an error
            self._send(200, "text/html", b"<p>The ferry leaves the harbour at seven every morning in summer.</p>")
        elif self.path == "/feed":
            self._send(200, "text/html", b'<?xml version="1.0"?><rss><channel><title>Ferry news</title>'
                                         b"<item><description>The ferry now stops at the island.</description>"
                                         b"</item></channel></rss>")
        elif self.path == "/report.pdf":
            self._send(200, "application/pdf", make_pdf(["Lobster catches doubled this season."]))
        else:
            self._send(404, "text/html", b"<h1>Not found</h1>")


@pytest.fixture(scope="module")
def server():
    with serving(_Handler) as url:
        yield url


def add(capsys: pytest.CaptureFixture[str], data: Path, *items: str) -> tuple[int, str, str]:
    code = main(["kb", "add", *items, "--data-dir", str(data)])
    out, err = capsys.readouterr()
    return code, out, err


def failures(err: str) -> list[str]:
    return [line for line in err.splitlines() if not line.startswith("[")]


def test_a_redirect_loop_is_said_as_one(server, tmp_path, capsys):
    # httpx's TooManyRedirects was told as "the connection broke off while the page was downloading"
    code, out, err = add(capsys, tmp_path / "data", f"{server}/loop")
    assert code == 1 and out.startswith("0 added")
    assert failures(err) == [f"failed: {server}/loop: could not be downloaded: the page sent it on to another "
                             "address too many times (it may redirect in a loop); open it in a browser to see "
                             "where it ends, and import that address"]


@pytest.mark.parametrize("path", ["/empty", "/blank"])
def test_an_empty_page_is_said_to_be_empty_without_a_parser_library_s_log_lines(server, tmp_path, capsys, path):
    # was "not readable as HTML (Document is empty)" after three "tinyrag: lxml parsing failed: …" lines
    code, out, err = add(capsys, tmp_path / "data", server + path)
    assert code == 1
    assert failures(err) == [f"failed: {server}{path}: the page is empty: the server sent no text"]


def test_a_page_of_nothing_but_a_comment_logs_nothing_on_the_console(server, tmp_path, capsys):
    code, out, err = add(capsys, tmp_path / "data", f"{server}/comment")
    assert code == 1
    assert [line for line in failures(err) if not line.startswith("failed: ")] == [], err


def test_a_pdf_by_url_is_imported_and_a_404_beside_it_is_listed(server, tmp_path, capsys):
    code, out, err = add(capsys, tmp_path / "data", f"{server}/report.pdf", f"{server}/gone")
    assert code == 1 and out.startswith("1 added")  # the 404 failed: a script can tell (it exited 0)
    assert failures(err) == [f"failed: {server}/gone: the server answered 404 Not Found"]


class _Large(BaseHTTPRequestHandler):
    """Pages over a 1 MB limit: one that says its size, one that does not."""

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        if self.path == "/said":
            self.send_header("Content-Length", str(3 * 2**20))
        self.end_headers()
        try:
            for _ in range(3 * 16):
                self.wfile.write(b"<p>" + b"word " * 13_000 + b"</p>\n")
        except OSError:  # the client stopped reading at the limit
            pass


@pytest.fixture
def large_server():
    with serving(_Large) as url:
        yield url


def test_a_page_over_the_limit_is_refused_with_its_size_when_the_server_says_it(large_server):
    # the README: "A file or page over 64 MB is refused with its size"; a page said only "larger than 64 MB"
    from tinyrag_desktop.kb.errors import FetchError
    from tinyrag_desktop.kb.web import fetch_url

    with pytest.raises(FetchError) as said:
        fetch_url(f"{large_server}/said", 2**20)
    assert str(said.value) == "the page is too large (3 MB; the limit is 1 MB)"
    with pytest.raises(FetchError) as unsaid:
        fetch_url(f"{large_server}/streamed", 2**20)
    assert str(unsaid.value) == "the page is too large (over 1 MB; the limit is 1 MB)"


@pytest.mark.parametrize("path", ["/fragment", "/feed"])
def test_a_page_imported_well_prints_no_parser_library_s_errors(server, tmp_path, capsys, path):
    # "tinyrag: parsed tree length: 0, wrong data type or not valid HTML" and "tinyrag: empty HTML tree:
    # None" were printed beside "1 added"
    code, out, err = add(capsys, tmp_path / "data", server + path)
    assert code == 0 and out.startswith("1 added")
    assert failures(err) == [], err
