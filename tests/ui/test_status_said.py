"""The status bar's passing messages are said to a screen reader as they are shown (the focus is elsewhere: Orca
said none of them); a link's address under the mouse is not."""

from __future__ import annotations

from tests.sse_server import Stream
from tinyrag_desktop.ui import access

from .conftest import ask_and_wait, tokens


def test_a_message_is_said_and_a_links_address_under_the_mouse_is_not(make_window, server, qloop, monkeypatch):
    said: list[str] = []
    monkeypatch.setattr(access, "_send", lambda event: said.append(event.message()))
    server.queue(Stream(tokens("See [the guide](https://example.com/guide).")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Where is the guide?")) == "done"
    said.clear()
    win.view.answers()[-1].copy_button.click()
    assert said == ["Copied to the clipboard"]
    win.status.show_link("https://example.com/guide")
    win.status.show_link("")  # the mouse left: "Copied…" is shown again, not said again
    assert win.statusBar().currentMessage() == "Copied to the clipboard" and said == ["Copied to the clipboard"]
