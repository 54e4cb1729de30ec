"""The welcome page follows a theme changed while it is shown: "How to install the built-in model…" stayed dark
text on the dark background after light → dark (its own style sheet kept the colours it was polished with)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QColor

from tests.sse_server import free_port
from tinyrag_desktop.firstrun import Attempt, ProbeResult

from .conftest import wait_until


def _lightness(widget) -> tuple[float, int, int]:
    """The mean (the background's, mostly), darkest and lightest of ``widget``'s pixels, as the window paints
    them now (its own grab would draw it on its own palette's background)."""
    window = widget.window()
    image = window.grab(QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())).toImage()
    values = [QColor(image.pixel(x, y)).lightness() for y in range(image.height()) for x in range(image.width())]
    return sum(values) / len(values), min(values), max(values)


def test_the_built_in_model_fold_follows_the_theme(make_window, qloop):
    async def probe():
        return ProbeResult(None, (Attempt("Ollama", "http://127.0.0.1:11434/v1", False, "nothing listens"),))

    win = make_window(f"http://127.0.0.1:{free_port()}/v1", probe=probe, theme="light")
    qloop.run(wait_until(win.welcome.visible))
    panel = win.welcome.panel
    more = panel.builtin_more
    assert more.isVisible()
    assert _lightness(more)[1] < 100  # dark words on the light page
    win.apply_settings(win.settings.replace(theme="dark"))
    qloop.run(wait_until(lambda: _lightness(panel.title)[0] < 100))  # the page drawn dark
    mean, _darkest, lightest = _lightness(more)
    assert mean < 100 and lightest > 150, (mean, lightest)  # light words on it
    win.apply_settings(win.settings.replace(theme="light"))
    qloop.run(wait_until(lambda: _lightness(panel.title)[0] > 150))
    mean, darkest, _lightest = _lightness(more)
    assert mean > 150 and darkest < 100, (mean, darkest)
