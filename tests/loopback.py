"""The loopback HTTP server the test servers share: threads per request, quiet when a client hangs up."""

from __future__ import annotations

import sys
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator


class QuietHTTPServer(ThreadingHTTPServer):
    """A client that stops reading (a cancelled answer, a probe that timed out) is expected, not an error."""

    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """Serve ``handler`` on a free loopback port for the block; yields the base URL (no trailing slash)."""
    httpd = QuietHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


class Silent(BaseHTTPRequestHandler):
    """Takes a request (GET, or POST with its body), sets ``asked``, then says nothing until ``release`` is set,
    as a server busy for a minute does; then answers 200 with ``page`` (a POST gets nothing)."""

    asked: threading.Event
    release: threading.Event
    page = b"<html><head><title>Late</title></head><body><p>A page that came far too late to be wanted.</p></body></html>"

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.asked.set()
        self.release.wait(60)
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(self.page)))
            self.end_headers()
            self.wfile.write(self.page)
        except OSError:  # the client went away on Cancel
            pass

    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.asked.set()
        self.release.wait(60)


@contextmanager
def silent_server() -> Iterator[tuple[str, type[Silent]]]:
    """A Silent server for the block: its base URL, and its handler class (``asked``, ``release``); released
    at the end, so that no request is left waiting."""
    handler = type("SilentHere", (Silent,), {"asked": threading.Event(), "release": threading.Event()})
    with serving(handler) as url:
        try:
            yield url, handler
        finally:
            handler.release.set()


def coded_pages(bodies: dict[str, tuple[str, bytes]]) -> type[BaseHTTPRequestHandler]:
    """A handler serving each path of ``bodies`` as an HTML page sent with that Content-Encoding, as is."""

    class Coded(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            encoding, body = bodies[self.path]
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Encoding", encoding)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return Coded
