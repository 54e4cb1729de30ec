"""A link in an answer shows where it goes, before it is clicked: in a tooltip and in the status bar."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QUrl
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from tests.sse_server import Stream
from tinyrag_desktop.ui.segments import MarkdownSegment

from .conftest import ask_and_wait, tokens
from .test_images import _images, _point, _segment

CANNOT_OPEN = "(this location cannot be opened)"  # as a source that cannot be opened says
LONG = ("https://docs.example.org/en/latest/user-guide/installation/advanced/"
        "configuration-options-for-addresses-that-are-really-very-long-indeed/index.html")


def _tip_at(seg: MarkdownSegment, point: QPoint) -> str:
    """The tooltip the segment shows for the mouse resting at ``point``; "" when it shows none."""
    # A hidden tooltip fades out and keeps its text a while: a known one stands for "none shown".
    QToolTip.showText(seg.mapToGlobal(QPoint(0, 0)), "(none)", seg)
    assert QToolTip.text() == "(none)"
    event = QHelpEvent(QEvent.Type.ToolTip, point, seg.viewport().mapToGlobal(point))
    QApplication.sendEvent(seg.viewport(), event)
    shown = QToolTip.text() if QToolTip.isVisible() else ""
    return "" if shown == "(none)" else shown


def test_hovering_a_link_shows_its_address_shortened_in_the_middle(qtbot):
    seg = _segment(qtbot, f"Read [the guide]({LONG}) or [the site](https://example.org/).\n\n"
                          "![local](pictures/b.png)\n\n```python\nx = 1\n```\n")
    tip = _tip_at(seg, _point(seg, "the guide"))
    assert tip and tip != LONG and "…" in tip  # shortened...
    assert tip.startswith("https://docs.example.org/") and tip.endswith("/index.html")  # ...where it says least
    assert _tip_at(seg, _point(seg, "the site")) == "https://example.org/"
    assert _tip_at(seg, _point(seg, "local")) == f"pictures/b.png\n{CANNOT_OPEN}"
    assert _tip_at(seg, _point(seg, "Copy code")) == ""  # it says what it does
    assert _tip_at(seg, _point(seg, "Read")) == ""  # plain text has no tip


def test_the_status_bar_shows_a_hovered_links_address_and_copy_keeps_the_markdown(make_window, server, qloop):
    answer_text = (f"See ![architecture diagram](https://example.org/a.png) and [the guide]({LONG}).\n\n"
                   "![](/home/me/pictures/flow%20chart.png)")
    server.queue(Stream(tokens(answer_text)))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Show me the architecture")) == "done"
    answer = win.view.answers()[-1]
    [seg] = [s for s in answer.segments() if s.isVisible()]
    assert _images(seg.document()) == []
    assert "Image: architecture diagram" in seg.document().toPlainText()
    seg.highlighted.emit(QUrl("https://example.org/a.png"))
    assert win.statusBar().currentMessage() == "https://example.org/a.png"
    seg.highlighted.emit(QUrl(LONG))
    shown = win.statusBar().currentMessage()
    assert "…" in shown and shown.startswith("https://docs.example.org/") and shown.endswith("/index.html")
    seg.highlighted.emit(QUrl())  # the mouse left the link
    assert win.statusBar().currentMessage() == ""
    seg.highlighted.emit(QUrl("copy-code:0"))
    assert win.statusBar().currentMessage() == ""
    # a message the link covered comes back when the mouse leaves it (it was wiped)
    win.statusBar().showMessage("The answer in “Tell me a story” is ready.", 8000)
    seg.highlighted.emit(QUrl("https://example.org/a.png"))
    assert win.statusBar().currentMessage() == "https://example.org/a.png"
    seg.highlighted.emit(QUrl())
    assert win.statusBar().currentMessage() == "The answer in “Tell me a story” is ready."
    assert answer.copy_markdown().startswith(answer_text)  # Copy gives the Markdown as written
