"""The knowledge panel's import summary as a person reads it: which web page failed, and why."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler

import pytest

from tests.kb.test_panel import _import
from tests.loopback import QuietHTTPServer
from tinyrag_desktop.kb import ImportItem


class _Pages(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        if self.path.startswith("/missing"):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = b"<html><head><title>Herons</title></head><body><h1>Herons</h1><p>Herons wade.</p></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def site():
    server = QuietHTTPServer(("127.0.0.1", 0), _Pages)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_failed_web_page_is_named_by_its_address_not_the_last_part_of_its_path(qtbot, panel, site):
    host = site.removeprefix("http://")
    report = _import(qtbot, panel, [ImportItem("url", f"{site}/herons"), ImportItem("url", f"{site}/missing/page"),
                                    ImportItem("wikipedia", "")])
    assert len(report.added) == 1 and len(report.failed) == 2
    lines = panel.status_label.text().split("\n")
    # It said "✗ page: the server answered 404 Not Found": which page, of which site?
    assert f"✗ {host}/missing/page: the server answered 404 Not Found" in lines
    assert any(line.startswith("✗ (nothing given): ") for line in lines), lines  # was "✗ : Give the title…"
    assert f"{site}/missing/page: the server answered 404" in panel.status_label.toolTip()
