"""A large web page: Cancel while it is read (trafilatura does not stop midway) leaves it out and says
"cancelled"; a page over a few megabytes is read by our own reader, as a local HTML file is."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler

import pytest

from tests.loopback import serving
from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb import web
from tinyrag_desktop.kb.models import Block, Document


def _page(size: int) -> bytes:
    """An article page of about ``size`` bytes: sections of paragraphs, words varied enough to read slowly."""
    parts = ["<html><head><title>Harbour manual</title></head><body><main><h1>Harbour manual</h1>"]
    n, length = 0, len(parts[0])
    while length < size:
        parts.append(f"<h2>Berth {n}</h2><p>Berth {n} takes vessels of up to {n % 90 + 10} metres; moorings "
                     f"are checked every {n % 7 + 1} days by the harbour master, word{n} and tally{n * 7}.</p>")
        length += len(parts[-1])
        n += 1
    parts.append("</main></body></html>")
    return "".join(parts).encode()


class _Pages(BaseHTTPRequestHandler):
    pages: dict[str, bytes] = {}
    sent = threading.Event()

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        body = self.pages[self.path]
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()
        type(self).sent.set()


@pytest.fixture
def server():
    _Pages.pages = {"/big.html": _page(700_000), "/small.html": _page(4_000), "/huge.html": _page(3_000_000)}
    _Pages.sent = threading.Event()
    with serving(_Pages) as url:
        yield url


def test_cancel_while_a_large_page_is_read_leaves_it_out_and_says_cancelled(server, data_dir):
    kb = open_store(data_dir)
    cancel = threading.Event()
    cancelled_at: list[float] = []

    def cancel_once_sent() -> None:
        _Pages.sent.wait(30)
        time.sleep(0.3)  # the download is over: the page is being read
        cancelled_at.append(time.monotonic())
        cancel.set()

    threading.Thread(target=cancel_once_sent, daemon=True).start()
    try:
        report = Importer(kb, cancel=cancel).run([f"{server}/big.html"])
        returned = time.monotonic()
        assert report.cancelled and not report.added, report.failed
        assert "cancelled" in report.in_words()
        assert kb.sources() == []
        assert returned - cancelled_at[0] < 5  # not the whole reading (the reader process is stopped)
    finally:
        kb.close()


def test_cancel_while_a_small_page_is_read_stores_nothing(server, data_dir, monkeypatch):
    kb = open_store(data_dir)
    cancel = threading.Event()

    def read_then_cancel(self: web.Fetched) -> Document:
        cancel.set()  # Cancel pressed while the page was being read, here in the importing process
        return Document("Harbour", "url", (Block("text", "Moorings are checked weekly."),))

    monkeypatch.setattr(web.Fetched, "document", read_then_cancel)
    try:
        report = Importer(kb, cancel=cancel).run([f"{server}/small.html"])
        assert report.cancelled and not report.added
        assert kb.sources() == []
    finally:
        kb.close()


def test_a_large_page_is_read_whole_in_a_reader_process(server, data_dir):
    kb = open_store(data_dir)
    try:
        report = Importer(kb).run([f"{server}/big.html"])
    finally:
        kb.close()
    assert report.added == [f"{server}/big.html"], report.failed
    assert search(data_dir, "tally7000", 1)[0].text.startswith("Berth 1000 ")


def test_a_page_of_megabytes_is_read_by_our_reader_not_trafilatura(server, data_dir, monkeypatch):
    import trafilatura

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("trafilatura was asked to read a page of megabytes")

    monkeypatch.setattr(trafilatura, "extract", refuse)
    data = _page(3_000_000)
    assert len(data) > web.TRAFILATURA_MOST_BYTES
    doc = web.html_document(data, f"{server}/huge.html")
    assert doc.type == "url" and doc.title == "Harbour manual"
    assert any("tally" in b.text for b in doc.blocks)
    kb = open_store(data_dir)
    try:
        report = Importer(kb).run([f"{server}/huge.html"])
    finally:
        kb.close()
    assert report.added, report.failed
    assert search(data_dir, "word10000", 1)[0].location == f"{server}/huge.html"
