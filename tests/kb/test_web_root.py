"""A site's front page is one source whether its address ends with a slash or not."""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler

import pytest

from tests.loopback import serving
from tinyrag_desktop.kb import Importer, open_store
from tinyrag_desktop.kb.web import normalize_url

PAGE = (b"<html><head><title>Harbour Guide</title></head><body><article><h1>Harbour Guide</h1>"
        b"<p>The harbour master assigns moorings to visiting sailing boats every afternoon in summer.</p>"
        b"</article></body></html>")


class _Front(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path not in ("/", "/?lang=en"):
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)


def test_a_front_page_named_with_and_without_its_slash_is_one_source(tmp_path):
    with serving(_Front) as server, open_store(tmp_path / "data") as kb:
        report = Importer(kb).run([server, server + "/", server + "#top"])
        # http://host and http://host/ ask the server the same thing; they were stored as two sources.
        assert report.added == [server + "/"] and len(report.unchanged) == 2
        assert [s.location for s in kb.sources()] == [server + "/"]


def test_a_front_page_imported_without_its_slash_by_an_earlier_version_is_updated_in_place(tmp_path):
    with serving(_Front) as server, open_store(tmp_path / "data") as kb:
        Importer(kb).run([server + "/"])
        # stored as an earlier version stored it: without the slash
        kb.conn.execute("UPDATE sources SET location = ?", (server,))
        report = Importer(kb, force=True).run([server])  # Re-import of that source
        assert report.updated == [server] and [s.location for s in kb.sources()] == [server]


@pytest.mark.parametrize("given, stored", [
    ("http://example.org", "http://example.org/"),
    ("HTTPS://Example.org:443", "https://example.org/"),
    ("http://example.org?q=1", "http://example.org/?q=1"),
    ("http://example.org/docs", "http://example.org/docs"),
    ("http://[::1]:8080", "http://[::1]:8080/"),
])
def test_normalize_url_gives_a_front_page_its_slash(given, stored):
    assert normalize_url(given) == stored
