"""A source that cannot be read again says its earlier version stays after a semicolon, not in a second pair
of brackets: "nothing answers at 127.0.0.1:45865 (connection refused) (the version imported 2026-12-05
stays in the knowledge base)"."""

from __future__ import annotations

import re
from http.server import BaseHTTPRequestHandler

from tests.loopback import serving
from tinyrag_desktop.kb import Importer, ImportItem, open_store


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        body = b"<html><head><title>Herons</title></head><body><main><p>Herons wade.</p></main></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


def test_a_page_whose_server_is_gone_says_its_earlier_version_stays_after_a_semicolon(data_dir):
    with serving(_Page) as url:
        with open_store(data_dir) as kb:
            assert Importer(kb).run([ImportItem("url", f"{url}/herons")]).added
    with open_store(data_dir) as kb:  # the server stopped: nothing answers at its port
        report = Importer(kb, force=True).run([ImportItem("url", f"{url}/herons")])
    [failure] = report.failed
    assert re.search(r"\(connection refused\); the version imported \d{4}-\d\d-\d\d stays in the knowledge base$",
                     failure.reason), failure.reason
