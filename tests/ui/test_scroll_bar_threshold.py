"""A conversation as tall as the view, give or take the scroll bar: the bar shows or not, once, and the column
keeps its width either way.

The column's margins followed the bar only once the view's inside had been resized, after the scroll area had
tried the canvas at its new width: without the bar the column was 14 px wider for a moment, its text a few
pixels shorter, short enough to need no bar, and with the bar taller again. At a height within a few pixels of
the view's, the scroll area showed the bar and hid it inside its own resize, deeper each time, until the
program died (after about a hundred answers in a narrow chat beside the knowledge panel)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtWidgets import QWidget

from tinyrag_desktop.chats import StoredMessage
from tinyrag_desktop.ui.chat_view import ChatView

ANSWER = "The quick brown fox jumps over the lazy dog, then naps in the sun. " * 14


class _Resizes(QObject):
    """Counts a widget's resizes and the widths it was given; past ``cap`` resizes in a row it swallows them,
    so that a bar shown and hidden without end (as on the old code) fails the test instead of crashing it."""

    def __init__(self, cap: int = 40) -> None:
        super().__init__()
        self.count, self.cap, self.widths = 0, cap, set()

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Resize:
            self.count += 1
            self.widths.add(event.size().width())
            return self.count > self.cap
        return False


def test_the_column_keeps_its_width_and_the_bar_settles_at_every_height_around_the_conversations(qtbot, qapp):
    view = ChatView()
    qtbot.add_widget(view)
    view.resize(456, 900)  # the chat's width beside the knowledge panel in a 1,100 px window
    view.show()
    view.add_stored(StoredMessage(1, "user", "What does the fox do?"))
    view.add_stored(StoredMessage(2, "assistant", ANSWER, stats={"elapsed_ms": 900, "model": "scripted"}))
    canvas, column = view.widget(), view.findChild(QWidget, "chatColumn")
    qtbot.waitUntil(lambda: column.height() == view.viewport().height() - 32)  # laid out, no bar
    width = column.width()
    canvas_resizes, column_widths = _Resizes(), _Resizes()
    canvas.installEventFilter(canvas_resizes)
    column.installEventFilter(column_widths)
    bar = view.verticalScrollBar()
    seen = []
    for height in range(700, 100, -1):  # the bar appears somewhere on the way down, at each pixel
        canvas_resizes.count = 0
        view.resize(456, height)
        qapp.processEvents()
        qapp.processEvents()  # the bar shown or hidden (a queued call), and what follows from it
        assert canvas_resizes.count <= 4, f"the bar flipped at {height} px: {canvas_resizes.count} resizes"
        assert bar.isVisible() == (canvas.height() > view.viewport().height())
        seen.append(bar.isVisible())
        if seen[-30:] == [True] * 30:
            break
    assert not seen[0]  # the heights went across the line
    assert column_widths.widths == {width}  # never wider or narrower for a moment


@pytest.mark.parametrize("direction", [Qt.LayoutDirection.LeftToRight, Qt.LayoutDirection.RightToLeft])
def test_the_column_stays_in_place_when_the_bar_comes_in_either_direction(qtbot, qapp, direction):
    # Right to left, the bar is on the left, but its room was kept on the right: the column jumped 14 px
    # away from it as it came, out of line with the message box below.
    view = ChatView()
    qtbot.add_widget(view)
    view.setLayoutDirection(direction)
    view.resize(456, 900)
    view.show()
    view.add_stored(StoredMessage(1, "user", "What does the fox do?"))
    view.add_stored(StoredMessage(2, "assistant", ANSWER, stats={"elapsed_ms": 900, "model": "scripted"}))
    column, bar = view.findChild(QWidget, "chatColumn"), view.verticalScrollBar()
    qtbot.waitUntil(lambda: column.height() == view.viewport().height() - 32)
    without = column.mapTo(view, QPoint(0, 0)).x(), column.width()
    view.resize(456, 200)
    qtbot.waitUntil(bar.isVisible)
    qapp.processEvents()
    assert (column.mapTo(view, QPoint(0, 0)).x(), column.width()) == without
    bar_edges = bar.mapTo(view, QPoint(0, 0)).x(), bar.mapTo(view, QPoint(bar.width(), 0)).x()
    left, right = without[0], without[0] + without[1]
    assert right <= bar_edges[0] or left >= bar_edges[1]  # clear of the bar, wherever it is
