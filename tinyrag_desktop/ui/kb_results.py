"""The Knowledge panel's Search tab results: how a passage is drawn and how much of it is shown."""

from __future__ import annotations

import html
import re

from PySide6.QtCore import QModelIndex, QSize, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout, QBrush, QColor, QFont, QFontInfo, QFontMetrics, QFontMetricsF, QPainter, QPalette,
    QTextDocument,
)
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from ..kb.excerpt import preview
from .markdown_render import MONO_FAMILY

# preview is kb's (kb search shows passages the same way), offered here as before
__all__ = ["ALSO_ROLE", "ANCHOR_ROLE", "CODE_ROLE", "HitDelegate", "preview", "shown_heading", "syntax_note"]

# A result's data: its location (Qt.UserRole; None for a message), and under this role the anchor it opens
# at (the id in its HTML page the passage is under; None: the page's top).
ANCHOR_ROLE = Qt.ItemDataRole.UserRole + 1
# Whether the result is a passage of a program or configuration file (its source's type): shown as code.
CODE_ROLE = Qt.ItemDataRole.UserRole + 2
# Whether the result's third line says which other files hold the same passage ("also in: b.log, c.log").
ALSO_ROLE = Qt.ItemDataRole.UserRole + 3
_TIGHT = "margin-top:0; margin-bottom:0;"  # paragraphs spaced as the lines of one were


def set_code_tabs(document: QTextDocument, code_font: QFont) -> None:
    """Tabs in ``document`` four of ``code_font``'s spaces apart, as in an answer's code blocks: Qt's default
    (80 pixels) made a Go program's tabs ten characters wide, three levels of indent most of a narrow panel."""
    option = document.defaultTextOption()
    option.setTabStopDistance(4 * QFontMetricsF(code_font).horizontalAdvance(" "))
    document.setDefaultTextOption(option)


class HitDelegate(QStyledItemDelegate):
    """Draws a search result as three parts: where it is (bold), its file or address (grey, on one line), the
    passage; and between the last two, in grey too, the other files that hold the same passage, if any.

    The item's text stays those lines, for screen readers, copying and tests; only the look changes.
    """

    def _document(self, option: QStyleOptionViewItem, index: QModelIndex) -> QTextDocument:
        heading, location, passage = (str(index.data()).split("\n", 2) + ["", ""])[:3]
        also = ""
        if index.data(ALSO_ROLE):
            also, passage = (passage.split("\n", 1) + [""])[:2]
        # A selected result in the selection's own text colour, as the sources list draws its rows: the grey
        # location, and the text in the palette's, were hard to read on the blue.
        muted = _ink(option, QPalette.ColorRole.PlaceholderText).name()
        document = QTextDocument()
        document.setDefaultFont(option.font)
        document.setDocumentMargin(4)
        # Each part, and each line of the passage, a paragraph of its own, laid out in its own direction: as
        # lines of one paragraph, an English passage under a Hebrew heading ran right to left (".Hebrew and
        # Arabic title forklift text"). A location is a path or an address: left to right.
        # A program's lines in the code blocks' font, their indents kept: a passage of code lines up.
        code = bool(index.data(CODE_ROLE))
        if code:
            mono = QFont(option.font)
            mono.setFamilies([family.strip("' ") for family in MONO_FAMILY.split(",")])
            set_code_tabs(document, mono)
        width = max(option.rect.width(), 120)
        if code:
            lines = _code_lines(passage, QFontMetricsF(mono).horizontalAdvance(" "), width - 8)
        else:
            lines = "".join(f"<p style='{_TIGHT}'>{html.escape(line)}</p>" for line in passage.split("\n"))
        # In small type, on one line, cut in the middle (its start and its end kept): a long path took four
        # lines of each result in a narrow panel. The other files holding the passage, if any, under it alike.
        small = QFont(option.font)
        small.setPixelSize(max(8, round(QFontInfo(option.font).pixelSize() * 0.8)))  # as CSS's "small"
        grey = f"<p dir='ltr' style='{_TIGHT} color:{muted}; font-size:{small.pixelSize()}px'>"
        fit = QFontMetrics(small)
        places = "".join(grey + html.escape(fit.elidedText(line, Qt.TextElideMode.ElideMiddle, width - 8)) + "</p>"
                         for line in ((location, also) if also else (location,)))
        document.setHtml(f"<p style='{_TIGHT}'><b>{html.escape(heading)}</b></p>{places}{lines}")
        document.setTextWidth(width)
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
        context = QAbstractTextDocumentLayout.PaintContext()  # drawContents took the app's text colour
        context.palette.setColor(QPalette.ColorRole.Text, _ink(option, QPalette.ColorRole.Text))
        document.documentLayout().draw(painter, context)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:  # noqa: N802 - Qt's name
        view = option.widget
        if view is not None:
            option.rect.setWidth(view.viewport().width() - 8)
        note = index.data(Qt.ItemDataRole.UserRole) is None
        document = self._note(option, index) if note else self._document(option, index)
        return QSize(int(document.idealWidth()), int(document.size().height()))


# Where a wrapped line of code may break besides its spaces: after an opening bracket, a comma, a dot, an
# "=" and the like, before the next word (without, "add(resolved," broke as "add(resolv" / "ed,").
_CODE_BREAK = re.compile(r"(?<=[(\[{,.;=:/|&+])(?=[^\s)\]},.;:])")
# A zero-width space, in type too small to make its line taller: the code font has none, and the one it was
# drawn in made a line with one three pixels taller than the others.
_BREAK = "<span style='font-size:1px'>\u200b</span>"
_HANG = 2  # the columns a wrapped line of code starts to the right of its line's own indent


def _code_lines(passage: str, column: float, width: float) -> str:
    """``passage``'s lines as HTML paragraphs in the code font, each wrapped as an editor's soft wrap does:
    at a space or a punctuation mark, its wrapped part starting ``_HANG`` columns right of the line's own
    indent (``column`` is a space's width), so a wrapped line is not read as a line of its own; without, a
    wrapped line went on at the left edge. The indent the lines share is left out, and the rest is kept to
    at most half the ``width``: a passage from inside a class was a narrow panel's first half blank. A
    leading "…" (preview: the passage starts further on) stands in the first columns of its line's indent;
    it was a line of its own, the code under it at the left edge."""
    rows = []
    for line in passage.split("\n"):
        cut = line.startswith("… ")
        body = line[2:] if cut else line
        code = body.lstrip(" \t")
        indent = body[:len(body) - len(code)]
        rows.append((cut, len(indent.expandtabs(4)), code))
    shared = min((indent for _, indent, code in rows if code), default=0)
    most = max(0, int(width / 2 / column) - _HANG)
    out = []
    for cut, indent, code in rows:
        indent = min(indent - shared, most) if code else 0
        # Its indent no place to break at: the line's first word would be left alone on a line of spaces.
        lead = ("…" + "\u00a0" * (indent - 1) if indent >= 2 else "… ") if cut else "\u00a0" * indent
        hang = (indent + _HANG) * column
        out.append(f"<p dir='ltr' style=\"{_TIGHT} margin-left:{hang:.1f}px; text-indent:{-hang:.1f}px; "
                   f"white-space:pre-wrap; font-family:{MONO_FAMILY}\">"
                   f"{html.escape(lead + _CODE_BREAK.sub(chr(0x200B), code)).replace(chr(0x200B), _BREAK)}</p>")
    return "".join(out)


def _ink(option: QStyleOptionViewItem, role: QPalette.ColorRole) -> QColor:
    """The colour of ``role`` on the row ``option`` draws: the highlighted text's on a selected row (of the
    palette's group the style draws the selection in: inactive when the list has not the focus)."""
    state = option.state
    group = (QPalette.ColorGroup.Disabled if not state & QStyle.StateFlag.State_Enabled
             else QPalette.ColorGroup.Active if state & QStyle.StateFlag.State_Active
             else QPalette.ColorGroup.Inactive)
    selected = bool(state & QStyle.StateFlag.State_Selected)
    return option.palette.color(group, QPalette.ColorRole.HighlightedText if selected else role)


_OPERATORS = re.compile(r"(?<![\w-])-(?=[^\W\d])|\*|[\"“”„]|\b(?:AND|OR|NOT|NEAR)\b")


def syntax_note(query: str) -> str:
    """What the Search tab says beneath the results of a question written in a search engine's syntax
    (``zebra*``, ``-zebrafish``, ``"exact words"``, ``NEAR``): that the words themselves were searched for,
    since nothing said so and ``-zebrafish`` found passages about zebrafish ("" for a plain question)."""
    found = {match.group() for match in _OPERATORS.finditer(query)}
    if not found:
        return ""
    names = []
    if "*" in found:
        names.append("*")
    if "-" in found:
        names.append("-")
    if found & {'"', "“", "”", "„"}:
        names.append("quotes")
    names += [word for word in ("AND", "OR", "NOT", "NEAR") if word in found]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"
    one = len(names) == 1 and names[0] != "quotes"
    return (f"Searched for the words themselves: {listed} {'has' if one else 'have'} no special "
            "meaning here.")


def shown_heading(heading: str, title: str) -> str:
    """A result's heading as the Search tab shows it: the place in its document ("Guide > Install"), or its
    title. A part that repeats the one before it cut at another length is shown once: a page whose long
    <title> and <h1> are the same text read "Quarterly Operations Review … > Quarterly Operations Review …"
    (the title is stored cut at one length and the heading at another, so they do not look the same)."""
    kept: list[str] = []
    for part in (heading or title).split(" > "):
        if kept and _same_cut(kept[-1], part):
            kept[-1] = max(kept[-1], part, key=len)
            continue
        kept.append(part)
    return " > ".join(kept)


def _same_cut(one: str, other: str) -> bool:
    shorter, longer = sorted((one.strip().rstrip("…").casefold(), other.strip().rstrip("…").casefold()), key=len)
    return len(shorter) >= 60 and longer.startswith(shorter)
