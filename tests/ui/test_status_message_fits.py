"""A long status bar message is shortened with "…" where it does not fit, whole in its tooltip.

The first start's "Found Ollama at http://127.0.0.1:11434/v1 with the model llama3.2:latest…" was cut
off mid-word, with nothing to say it went on, in the 784 px first window (QStatusBar clips, it does not
shorten).
"""

from __future__ import annotations

from .conftest import keep_picture, wait_until

FOUND = ("Found Ollama at http://127.0.0.1:11434/v1 with the model llama3.2:latest; it is set up for you. "
         "Ask your first question below.")


def _drawn(bar) -> str:
    """The text QStatusBar draws (its own currentMessage, not the window's whole one)."""
    from PySide6.QtWidgets import QStatusBar

    return QStatusBar.currentMessage(bar)


def test_a_long_message_in_a_narrow_window_is_shortened_with_an_ellipsis(make_window, server, qloop):
    win = make_window(server.base_url)
    win.resize(784, 600)
    bar = win.statusBar()
    qloop.run(wait_until(lambda: win.width() == 784))
    said = []
    bar.messageChanged.connect(said.append)
    bar.showMessage(FOUND, 8000)
    qloop.run(wait_until(lambda: _drawn(bar).endswith("…")))
    assert said == [FOUND]  # said whole, once: not each shortened form
    drawn = _drawn(bar)
    assert FOUND.startswith(drawn[:-1]) and len(drawn) < len(FOUND)
    assert bar.fontMetrics().horizontalAdvance(drawn) <= bar.message_room()
    assert bar.currentMessage() == FOUND  # the window's code (and its tests) read the whole message
    assert bar.toolTip() == FOUND and bar.accessibleDescription() == FOUND
    keep_picture(win, "status_784.png")

    win.resize(1900, 700)  # room again: whole, and no tooltip repeating it
    qloop.run(wait_until(lambda: _drawn(bar) == FOUND))
    assert bar.toolTip() == ""
    bar.clearMessage()
    assert bar.currentMessage() == "" and bar.toolTip() == ""


def test_a_short_message_is_drawn_whole(make_window, server, qloop):
    win = make_window(server.base_url)
    win.resize(784, 600)
    bar = win.statusBar()
    qloop.run(wait_until(lambda: win.width() == 784))
    bar.showMessage("Copied to the clipboard", 3000)
    assert _drawn(bar) == "Copied to the clipboard" == bar.currentMessage() and bar.toolTip() == ""
