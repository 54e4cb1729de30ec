"""The Knowledge panel's Search tab results: how a passage is drawn and how much of it is shown."""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache
from typing import Sequence

from PySide6.QtCore import QModelIndex, QSize, Qt
from PySide6.QtGui import QAbstractTextDocumentLayout, QBrush, QColor, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from ..kb.textform import has_cjk

# A result's data: its location (Qt.UserRole; None for a message), and under this role the anchor it opens
# at (the id in its HTML page the passage is under; None: the page's top).
ANCHOR_ROLE = Qt.ItemDataRole.UserRole + 1
_TIGHT = "margin-top:0; margin-bottom:0;"  # paragraphs spaced as the lines of one were


class HitDelegate(QStyledItemDelegate):
    """Draws a search result as three parts: where it is (bold), its file or address (grey), the passage.

    The item's text stays those three lines, for screen readers, copying and tests; only the look changes.
    """

    def _document(self, option: QStyleOptionViewItem, index: QModelIndex) -> QTextDocument:
        heading, location, passage = (str(index.data()).split("\n", 2) + ["", ""])[:3]
        # A selected result in the selection's own text colour, as the sources list draws its rows: the grey
        # location, and the text in the palette's, were hard to read on the blue.
        muted = _ink(option, QPalette.ColorRole.PlaceholderText).name()
        document = QTextDocument()
        document.setDefaultFont(option.font)
        document.setDocumentMargin(4)
        # Each part, and each line of the passage, a paragraph of its own, laid out in its own direction: as
        # lines of one paragraph, an English passage under a Hebrew heading ran right to left (".Hebrew and
        # Arabic title forklift text"). A location is a path or an address: left to right.
        lines = "".join(f"<p style='{_TIGHT}'>{html.escape(line)}</p>" for line in passage.split("\n"))
        document.setHtml(f"<p style='{_TIGHT}'><b>{html.escape(heading)}</b></p><p dir='ltr' style='{_TIGHT} "
                         f"color:{muted}; font-size:small'>{html.escape(location)}</p>{lines}")
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


def _ink(option: QStyleOptionViewItem, role: QPalette.ColorRole) -> QColor:
    """The colour of ``role`` on the row ``option`` draws: the highlighted text's on a selected row (of the
    palette's group the style draws the selection in: inactive when the list has not the focus)."""
    state = option.state
    group = (QPalette.ColorGroup.Disabled if not state & QStyle.StateFlag.State_Enabled
             else QPalette.ColorGroup.Active if state & QStyle.StateFlag.State_Active
             else QPalette.ColorGroup.Inactive)
    selected = bool(state & QStyle.StateFlag.State_Selected)
    return option.palette.color(group, QPalette.ColorRole.HighlightedText if selected else role)


def preview(text: str, limit: int = 300, most_lines: int = 8, words: Sequence[str] = ()) -> str:
    """A passage as the Search tab lists it: each paragraph a line, its lines as wrapped in its file joined
    (the list wraps them to its own width), but a table's rows each on a line of their own (joined, "Option |
    Default | Meaning `port` | 8080 |…" ran on as one line). Code is joined too: an indent does not tell code
    from a paragraph indented in its file (git's manuals indent with tabs).

    It starts where the search's ``words`` are when its start would not show them, after "…", as a search
    engine's snippet does: a CSV or log passage is fifty rows, and row 99817 of "invoice 99817" was cut off."""
    lines: list[str] = []
    for paragraph in text.split("\n\n"):
        rows = [row for row in paragraph.split("\n") if row.strip()]
        if len(rows) > 1 and (all(" | " in row for row in rows) or _records(rows)):
            lines += [" ".join(row.split()) for row in rows]
        elif rows:
            lines.append(" ".join(paragraph.split()))
    found = _where(lines, words)
    if found is not None and not _in_sight(lines, found, limit, most_lines):
        row, at = found
        start = 0 if at < _CONTEXT + 20 else lines[row].rfind(" ", 0, at - _CONTEXT) + 1
        lines = [("… " if start == 0 else "…") + lines[row][start:]] + lines[row + 1:]
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


_CONTEXT = 40  # characters shown before the words found, when they are far into a line


_LOG_LINE = re.compile(r"\[?\d{1,4}[-/.:]\d|[A-Z][a-z]{2} +\d{1,2} \d\d:")  # 2026-01-01 …, [12:00:01], Dec  2 13:00:


def _records(rows: list[str]) -> bool:
    """Whether ``rows`` are records a line each, as CSV and JSON Lines passages ("id: 7; name: …") and logs
    are: joined, the log line of "request 250" was somewhere in a run of fifty."""
    return all("; " in row and ": " in row for row in rows) or all(_LOG_LINE.match(row) for row in rows)


def _where(lines: Sequence[str], words: Sequence[str]) -> tuple[int, int] | None:
    """The line holding the most of ``words`` (the first such), and where in it the first of them is."""
    patterns = [_pattern(word) for word in words if word.strip()]
    if not patterns:
        return None
    best: tuple[int, int, int] | None = None  # (words found, line, where)
    for row, line in enumerate(lines):
        folded = _fold(line)
        places = [found.start() for found in (pattern.search(folded) for pattern in patterns) if found]
        if places and (best is None or len(places) > best[0]):
            best = (len(places), row, min(places))
            if len(places) == len(patterns):
                break
    return None if best is None else best[1:]


def _in_sight(lines: Sequence[str], found: tuple[int, int], limit: int, most_lines: int) -> bool:
    row, at = found
    return row < most_lines and sum(len(line) for line in lines[:row]) + at + _CONTEXT <= limit


def _pattern(word: str) -> re.Pattern[str]:
    """A search word as it may be written in a passage: a longer word in its other forms ("invoices" finds
    "invoice"), a short word whole or with an s, a number whole; Chinese or Japanese characters anywhere
    ("数 据 库")."""
    word = _fold(word)
    if has_cjk(word):
        return re.compile(re.escape(word.replace(" ", "")))
    if any(ch.isdigit() for ch in word):
        return re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")
    if len(word) <= 4:  # "tea" is not "team", but "teas" is tea
        return re.compile(rf"(?<!\w){re.escape(word)}(?:e?s)?(?!\w)")
    return re.compile(rf"(?<!\w){re.escape(word[:max(4, len(word) - 2)])}\w*")


def _fold(text: str) -> str:
    """``text`` in lower case without accents, a character for a character (places in it are the text's)."""
    return "".join(map(_fold_char, text))


@lru_cache(maxsize=4096)
def _fold_char(ch: str) -> str:
    folded = unicodedata.normalize("NFKD", ch.lower())[:1]
    return folded if len(folded) == 1 else ch


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
