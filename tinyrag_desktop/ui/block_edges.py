"""Where a code block's or a table's box is on screen, and the fade at the edge a wide block is cut at."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QLinearGradient, QPainter, QTextTable
from PySide6.QtWidgets import QWidget

from .theme import colors

FADE = 24  # pixels over which a table or a line cut at the answer's edge fades out: more of it is beyond (a caret
# or a match the block scrolls to is put at least as far from the edge: SidewaysBlocks._reveal)


def frame_edge(frame) -> float:
    """The room between a table's border and its cells' text (its padding, border and spacing); 0 for a frame
    that is no table."""
    if not isinstance(frame, QTextTable):
        return 0.0
    fmt = frame.format()
    return fmt.cellPadding() + fmt.border() + fmt.cellSpacing()


def edge_table(doc, end: int) -> QTextTable | None:
    """The table the document starts (``end`` 0) or ends (-1) with, if it does (Qt puts an empty line before a
    table at its start and after one at its end)."""
    block = doc.firstBlock().next() if end == 0 else doc.lastBlock().previous()
    frame = doc.frameAt(block.position()) if block.isValid() else None
    while frame is not None and frame.parentFrame() is not None and frame.parentFrame().parentFrame() is not None:
        frame = frame.parentFrame()
    return frame if isinstance(frame, QTextTable) else None


def box_bottom(doc, frame) -> float:
    """Where the box of a top-level frame (a code block, a table, a quote) ends on screen: under its lowest
    line, the padding and border of each table that holds that line. Qt's frameBoundingRect is off by the
    first cell's place and holds the margins: the bar put under it crossed the block that follows.

    ``doc`` is the frame's document, held by the caller: taken from ``frame.document()`` while no Python object
    of it was alive, the next use of the document crashed the window (PySide 6.11, a table cut while streaming)."""
    layout = doc.documentLayout()
    start = frame.firstPosition()
    if isinstance(frame, QTextTable):  # its lowest line is in its last row (not always in its last cell)
        start = min(frame.cellAt(frame.rows() - 1, column).firstPosition() for column in range(frame.columns()))
    lowest = 0.0
    block = doc.findBlock(start)
    while block.isValid() and block.position() <= frame.lastPosition():
        below, holder = layout.blockBoundingRect(block).bottom(), doc.frameAt(block.position())
        while holder is not None and holder is not frame:  # a code block in a quote: the inner box's room too
            below += frame_edge(holder) + holder.frameFormat().bottomMargin()
            holder = holder.parentFrame()
        if holder is frame:
            lowest = max(lowest, below + frame_edge(frame))
        block = block.next()
    return lowest


def paint_fades(viewport: QWidget, cuts: list[tuple[QRectF, bool, bool]]) -> None:
    """A table (or a line) cut at the answer's edge fades out there, on each side where more of it is: its
    columns beyond the edge looked like none, the last one seen cut mid-letter, with only the thin bar under
    it to say otherwise. ``cuts``: each such block's band (its top and height), and whether more of it is on
    the left and on the right."""
    painter = QPainter(viewport)
    width = viewport.width()
    solid, clear = QColor(colors().bg), QColor(colors().bg)
    clear.setAlpha(0)
    for band, left, right in cuts:
        for more, edge, inner in ((left, 0, FADE), (right, width, width - FADE)):
            if more:
                fade = QLinearGradient(inner, 0, edge, 0)
                fade.setColorAt(0, clear)
                fade.setColorAt(1, solid)
                painter.fillRect(QRectF(min(edge, inner), band.top(), FADE, band.height()), fade)
    painter.end()
