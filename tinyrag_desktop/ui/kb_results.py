"""The Knowledge panel's Search tab results: how a passage is drawn and how much of it is shown."""

from __future__ import annotations

import html

from PySide6.QtCore import QModelIndex, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

# A result's data: its location (Qt.UserRole; None for a message), and under this role the anchor it opens
# at (the id in its HTML page the passage is under; None: the page's top).
ANCHOR_ROLE = Qt.ItemDataRole.UserRole + 1


class HitDelegate(QStyledItemDelegate):
    """Draws a search result as three parts: where it is (bold), its file or address (grey), the passage.

    The item's text stays those three lines, for screen readers, copying and tests; only the look changes.
    """

    def _document(self, option: QStyleOptionViewItem, index: QModelIndex) -> QTextDocument:
        heading, location, passage = (str(index.data()).split("\n", 2) + ["", ""])[:3]
        muted = option.palette.color(QPalette.ColorRole.PlaceholderText).name()
        document = QTextDocument()
        document.setDefaultFont(option.font)
        document.setDocumentMargin(4)
        document.setHtml(f"<b>{html.escape(heading)}</b><br><span style='color:{muted}; font-size:small'>"
                         f"{html.escape(location)}</span><br>{html.escape(passage).replace(chr(10), '<br>')}")
        document.setTextWidth(max(option.rect.width(), 120))
        return document

    def _note(self, option: QStyleOptionViewItem, index: QModelIndex) -> QTextDocument:
        """A message ("No passage mentions …", an error), wrapped to the panel as the passages are: a long one
        was cut at its right edge. In its own colour when it has one (a note's muted one)."""
        brush = index.data(Qt.ItemDataRole.ForegroundRole)
        colour = (brush.color() if isinstance(brush, QBrush) else brush if isinstance(brush, QColor)
                  else option.palette.color(QPalette.ColorRole.Text)).name()
        document = QTextDocument()
        document.setDefaultFont(option.font)
        document.setDocumentMargin(4)
        document.setHtml(f"<span style='color:{colour}'>{html.escape(str(index.data()))}</span>")
        document.setTextWidth(max(option.rect.width(), 120))
        return document

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        if index.data(Qt.ItemDataRole.UserRole) is None:  # a message, not a passage
            document = self._note(option, index)
            painter.save()
            painter.translate(option.rect.topLeft())
            document.drawContents(painter)
            painter.restore()
            return
        self.initStyleOption(option, index)
        option.text = ""
        style = option.widget.style() if option.widget else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, option, painter, option.widget)  # background
        document = self._document(option, index)
        painter.save()
        painter.translate(option.rect.topLeft())
        document.drawContents(painter)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:  # noqa: N802 - Qt's name
        view = option.widget
        if view is not None:
            option.rect.setWidth(view.viewport().width() - 8)
        note = index.data(Qt.ItemDataRole.UserRole) is None
        document = self._note(option, index) if note else self._document(option, index)
        return QSize(int(document.idealWidth()), int(document.size().height()))


def preview(text: str, limit: int = 300, most_lines: int = 8) -> str:
    """A passage's start as the Search tab lists it: each paragraph a line, its lines as wrapped in its
    file joined (the list wraps them to its own width), but a table's rows each on a line of their own
    (joined, "Option | Default | Meaning `port` | 8080 |…" ran on as one line). Code is joined too: an
    indent does not tell code from a paragraph indented in its file (git's manuals indent with tabs)."""
    lines: list[str] = []
    for paragraph in text.split("\n\n"):
        rows = [row for row in paragraph.split("\n") if row.strip()]
        if len(rows) > 1 and all(" | " in row for row in rows):
            lines += [" ".join(row.split()) for row in rows]
        elif rows:
            lines.append(" ".join(paragraph.split()))
    shown, used = [], 0
    for line in lines[:most_lines]:
        if used + len(line) > limit:
            shown.append(line[:max(limit - used, 0)].rstrip() + "…")
            break
        shown.append(line)
        used += len(line)
    else:
        if len(lines) > most_lines:
            shown[-1] += " …"
    return "\n".join(shown)
