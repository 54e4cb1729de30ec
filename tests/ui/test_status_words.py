"""The status bar's word for a server that answered with an error: not "unreachable", which it is not."""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler

import pytest

from tests.loopback import serving

from .conftest import wait_until


class _Answers(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        code, body = {"/locked/models": (401, b'{"error": {"message": "Invalid API key"}}'),
                      "/missing/models": (404, b"404 page not found"),
                      "/web/models": (200, b"<html><body>Welcome to nginx</body></html>")}[self.path]
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.mark.parametrize(("path", "words", "why"), [
    ("locked", "API key refused", "refused the request (401)"),
    ("missing", "wrong address", "found nothing at that address (404)"),  # it said "server error"
    ("web", "not a model server", "did not answer /models as an OpenAI-compatible server does"),
])
def test_a_server_that_answered_with_an_error_is_not_called_unreachable(make_window, qloop, path, words, why):
    # A wrong API key showed a red "unreachable", and the welcome page said no model server answered: the
    # user went to start a server that was running.
    with serving(_Answers) as root:
        win = make_window(f"{root}/{path}")
        qloop.run(wait_until(lambda: win.status.state == "warn"))  # amber: it answers, but cannot be used
        assert win.status.reach.text() == words
        win.welcome.server_checked(win.status.state)  # as the window does after each check
        assert not win.welcome.visible()
        # and the model menu does not say the server did not answer
        win.status.model_menu.aboutToShow.emit()
        [hint] = [a.text() for a in win.status.model_menu.actions() if a.text().startswith("No models listed")]
        assert hint == f"No models listed: {words}"
        assert why in win.status.reason and why in win.status.reach.toolTip()
        qloop.run(win.status.cancel())
