"""Which way a piece of text runs, for widgets that paint text themselves (Arabic, Hebrew and Latin mixed).

Qt's text widgets find a paragraph's direction from its first strong character (like HTML's ``dir="auto"``),
but text painted with ``QPainter.drawText`` runs in the widget's direction: in this left-to-right window an
Arabic chat title or tool query with a Latin word in it came out with its words in the wrong order.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QStyle

from .markdown_render import is_right_to_left

__all__ = ["is_right_to_left", "set_text_direction", "text_direction"]


def text_direction(text: str) -> Qt.LayoutDirection:
    return Qt.LayoutDirection.RightToLeft if is_right_to_left(text) else Qt.LayoutDirection.LeftToRight


def set_text_direction(painter: QPainter, text: str, alignment: Qt.AlignmentFlag,
                       layout: Qt.LayoutDirection = Qt.LayoutDirection.LeftToRight) -> Qt.AlignmentFlag:
    """Make ``painter`` lay ``text`` out in its own direction; returns ``alignment`` made absolute.

    The text keeps the place the window's layout gives it (left in this window): only the order of its
    words follows the text, so "…" of an elided right-to-left title ends up at its end, on the left.
    """
    painter.setLayoutDirection(text_direction(text))
    return QStyle.visualAlignment(layout, alignment) | Qt.AlignmentFlag.AlignAbsolute
