"""A web page that redirects is one source, stored under the address it finally came from."""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler

import pytest

from tests.loopback import serving
from tinyrag_desktop.kb import ImportItem, Importer, open_store, search

PAGE = b"""<html><head><title>Harbour Guide</title></head><body><article><h1>Harbour Guide</h1>
<p>The harbour master assigns moorings to visiting sailing boats every afternoon in summer.</p>
<p>Spring tides in the estuary rise more than six metres, so moor with long lines and check them often.</p>
</article></body></html>"""


class _Handler(BaseHTTPRequestHandler):
    """/b is the page; /a sends it on to /b (when ``moved``), or is the same page itself (before it moved)."""

    moved = True

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path == "/a" and self.moved:
            self.send_response(301)
            self.send_header("Location", "/b")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif self.path in ("/a", "/b"):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(PAGE)))
            self.end_headers()
            self.wfile.write(PAGE)
        else:
            self.send_error(404)


@pytest.fixture
def server():
    handler = type("Handler", (_Handler,), {"moved": True})
    with serving(handler) as url:
        yield url, handler


def _run(kb, url):
    return Importer(kb, chunk_size=400).run([ImportItem("url", url)])


@pytest.mark.parametrize("order", [("/a", "/b"), ("/b", "/a")], ids=["redirect-first", "target-first"])
def test_a_redirecting_address_and_its_target_are_one_source(server, data_dir, order):
    base, _ = server
    with open_store(data_dir) as kb:
        first = _run(kb, base + order[0])
        assert first.added == [base + "/b"]  # stored under the address the page came from
        second = _run(kb, base + order[1])
        # It stored a second source, with the same passages, under the other address.
        assert second.unchanged == [base + "/b"] and not second.added
        assert [s.location for s in kb.sources()] == [base + "/b"]
    assert [h.location for h in search(data_dir, "harbour moorings", 5)] == [base + "/b"]


def test_a_page_stored_before_it_redirected_is_updated_not_doubled(server, data_dir):
    base, handler = server
    handler.moved = False
    with open_store(data_dir) as kb:
        assert _run(kb, base + "/a").added == [base + "/a"]
        handler.moved = True  # the site moved the page; /a now sends it on to /b
        again = _run(kb, base + "/a")
        assert again.updated == [base + "/b"] and not again.added
        assert [s.location for s in kb.sources()] == [base + "/b"]
        # and an older source under the address asked for goes too when the target is stored already
        handler.moved = False
        _run(kb, base + "/a")
        handler.moved = True
        assert _run(kb, base + "/a").unchanged == [base + "/b"]
        assert [s.location for s in kb.sources()] == [base + "/b"]


def test_the_page_under_its_new_address_replaces_the_old_in_one_transaction(server, data_dir):
    """Stored under /b and removed from /a in one commit: a kill between the two can leave neither both
    nor none."""
    base, handler = server
    handler.moved = False
    with open_store(data_dir) as kb:
        _run(kb, base + "/a")
        handler.moved = True
        statements: list[str] = []
        kb.conn.set_trace_callback(statements.append)
        try:
            assert _run(kb, base + "/a").updated == [base + "/b"]
        finally:
            kb.conn.set_trace_callback(None)
        writes = [s.split()[0].upper() for s in statements
                  if s.split()[0].upper() in ("BEGIN", "COMMIT", "INSERT", "DELETE", "UPDATE")]
        assert writes.count("BEGIN") == writes.count("COMMIT") == 1, writes
        begin, commit = writes.index("BEGIN"), writes.index("COMMIT")
        assert "INSERT" in writes[begin:commit] and "DELETE" in writes[begin:commit]
        assert [s.location for s in kb.sources()] == [base + "/b"]
    assert [h.location for h in search(data_dir, "harbour moorings", 5)] == [base + "/b"]
