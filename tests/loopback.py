"""The loopback HTTP server the test servers share: threads per request, quiet when a client hangs up."""

from __future__ import annotations

import sys
from http.server import ThreadingHTTPServer


class QuietHTTPServer(ThreadingHTTPServer):
    """A client that stops reading (a cancelled answer, a probe that timed out) is expected, not an error."""

    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)
