"""The chats sidebar's list: its rows, day headings and tooltips, the delegate that paints a row, and the
small dialog that renames a chat found by a search."""

from __future__ import annotations

import datetime
import math
import time
from typing import Callable

from PySide6.QtCore import QEvent, QItemSelectionModel, QPoint, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPen
from PySide6.QtWidgets import (QAbstractItemView, QApplication, QInputDialog, QLineEdit, QListWidget,
                               QListWidgetItem, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QToolTip,
                               QWidget)

from ..times import local_clock, local_date, seconds
from .plain_text import plain_tip
from .theme import colors, draw_ring

# The headings of chats whose stored time is days ahead (a clock or a file gone wrong; after the year 9999 no
# calendar holds it, see times.py), or before the year 1 or no number at all.
LATER = "Later"
LONG_AGO = "Long ago"


def _ahead(ts: object, now: float) -> bool:
    """Whether ``ts`` is a time after ``now``: a number, 10**400 and infinity included."""
    return isinstance(ts, (int, float)) and not isinstance(ts, bool) and ts > now


def _when(ts: float) -> str:
    now = time.time()
    number = seconds(ts)
    age = now - number if number is not None else -math.inf if _ahead(ts, now) else math.inf
    if age < -86400:  # more than a clock set back a little: the heading says Later
        return "later"
    if age < 60:
        return "just now"
    if age < 3600:
        return f"{int(age // 60)} min ago"
    clock = local_clock(number)
    if clock is None:
        return "long ago"
    if age < 86400:
        return time.strftime("%H:%M", clock)
    return time.strftime("%d %b", clock)


def day_group(ts: float, now: float | None = None) -> str:
    """The heading a chat last used at ``ts`` is listed under: Today, Yesterday, Previous 7 days,
    Previous 30 days, then its month ("March 2026"), by the local calendar; Later for a day after tomorrow
    (a clock set back a little is still Today), Long ago for no time at all."""
    now = time.time() if now is None else now
    today = local_date(now) or datetime.date.today()
    day = local_date(ts)
    if day is None:  # beyond the calendar, or no number
        return LATER if _ahead(ts, now) else LONG_AGO
    days = (today - day).days
    if days < -1:
        return LATER
    if days <= 0:
        return "Today"
    if days == 1:
        return "Yesterday"
    if days < 7:
        return "Previous 7 days"
    if days < 30:
        return "Previous 30 days"
    return f"{_MONTHS[day.month - 1]} {day.year}"


def last_used_order(ts: object) -> tuple:
    """A last-used time as the list is sorted by it (SQLite's order of the column, newest first): no time,
    then numbers, then text; any two compare without error."""
    if isinstance(ts, (int, float)) and not isinstance(ts, bool):
        return (1, ts)
    if isinstance(ts, str):
        return (2, ts)
    return (0, 0)


def snippet_repeats_title(title: str, snippet: str) -> bool:
    """True when a search snippet only says the chat's title again: the first question names the chat, and
    its words found show a part of it, from a word or two before them. Both may be cut short with "…"."""
    a, b = (" ".join(t.strip("…").split()).casefold() for t in (title, snippet))
    if not a:
        return False
    if b in a or a in b:
        return True
    # a title cut short ("… that g") whose end the snippet starts with ("that goes on …")
    return any(a.endswith(b[:k]) for k in range(min(len(a), len(b)), 11, -1))


# Month names in English, as the rest of the window is written (strftime's would follow the C locale).
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


# What a screen reader says of a day heading: "Chats from today, heading" (a month: "Chats from March 2026").
_HEARD = {LATER: "Chats from later dates", LONG_AGO: "Chats from long ago",
          "Today": "Chats from today", "Yesterday": "Chats from yesterday",
          "Previous 7 days": "Chats from the previous 7 days", "Previous 30 days": "Chats from the previous 30 days"}


def day_heading(text: str, font: QFont, colour: QColor) -> QListWidgetItem:
    """A day heading: not a chat, so the arrows, clicks and the focus pass it by."""
    item = QListWidgetItem(text)
    item.setFlags(Qt.ItemFlag.NoItemFlags)
    font.setBold(True)
    font.setPointSizeF(max(7.0, font.pointSizeF() * 0.85))
    item.setFont(font)
    item.setForeground(colour)
    # Read as what it is, not as one more chat ("Today" among the titles): a list item has no heading role.
    item.setData(Qt.ItemDataRole.AccessibleTextRole, f"{_HEARD.get(text, f'Chats from {text}')}, heading")
    item.setData(Qt.ItemDataRole.AccessibleDescriptionRole, "The chats below were last used then")
    return item


ANSWERING = "\nStill answering"  # the tooltip's last line while the chat's answer is being written
TIP_ROLE = Qt.ItemDataRole.UserRole + 1  # a chat row's (title, last used, persona, search snippet), for its tooltip


def is_search_hit(item: QListWidgetItem) -> bool:
    """A row a chat search found: it shows its title over the words found, so it is not editable in place (F2
    and Rename ask for its title in a dialog instead)."""
    return not item.flags() & Qt.ItemFlag.ItemIsEditable


def chat_tip(item: QListWidgetItem) -> str:
    """A chat row's tooltip: its title, when it was last used ("5 min ago", as of now), its persona and the
    words a search found. Made again each time it shows: one made with the row said "just now" all day."""
    title, updated, persona, snippet = item.data(TIP_ROLE)
    if not is_search_hit(item):
        title = item.text()  # renamed in place
    tip = f"{title}\n{_when(updated)}"
    if persona:
        tip += f" · {persona}"
    if snippet:
        tip += f"\n{snippet}"
    return tip + ANSWERING if item.toolTip().endswith(ANSWERING) else tip


class _FocusRing(QStyledItemDelegate):
    """Rings the current chat in the accent colour while the list has the keyboard focus.

    The chrome's style sheet turns Qt's dotted focus rectangle off (it looked like a rendering glitch),
    which left a keyboard user no sign of being in the list at all.
    """

    # Titles cut at their end that would read the same ("Summarise the report for Q1" and "… for Q2", both
    # "Summarise the report f…") are cut in their middle instead, so that their ends tell them apart; the
    # others keep their beginning, which says most of a question.
    _clashes: tuple[tuple, frozenset[str]] = ((), frozenset())

    def _elide_mode(self, option, title: str) -> Qt.TextElideMode:
        metrics, width = option.fontMetrics, self._text_width(option)
        cut = metrics.elidedText(title, Qt.TextElideMode.ElideRight, width)
        return Qt.TextElideMode.ElideMiddle if cut != title and cut in self._clashing(metrics, width) \
            else Qt.TextElideMode.ElideRight

    def _clashing(self, metrics, width: int) -> frozenset[str]:
        """The titles cut at their end that more than one row in sight shows (those out of sight are not
        compared: the 3,000 rows of a long history would be cut at every width the list is dragged to)."""
        view = self.parent()
        if not isinstance(view, QListWidget):
            return frozenset()
        first = view.indexAt(QPoint(0, 0)).row()
        last = view.indexAt(QPoint(0, view.viewport().height() - 1)).row()
        last = view.count() - 1 if last < 0 else last
        rows = range(max(0, first), last + 1)
        titles = tuple((view.item(r).text() if view.item(r) is not None else "").partition("\n")[0] for r in rows)
        key = (width, metrics.height(), titles)
        if key != self._clashes[0]:
            seen: dict[str, int] = {}
            for title in titles:
                cut = metrics.elidedText(title, Qt.TextElideMode.ElideRight, width)
                if cut != title:
                    seen[cut] = seen.get(cut, 0) + 1
            self._clashes = (key, frozenset(cut for cut, count in seen.items() if count > 1))
        return self._clashes[1]

    @staticmethod
    def _text_width(option) -> int:
        """The width a row's text is cut to, as Qt's own item drawing has it."""
        style = option.widget.style() if option.widget is not None else QApplication.style()
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, option.widget)
        margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, option, option.widget) + 1
        return rect.width() - 2 * margin

    def paint(self, painter: QPainter, option, index) -> None:
        title, _, snippet = (index.data(Qt.ItemDataRole.DisplayRole) or "").partition("\n")
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        mode = self._elide_mode(opt, title)
        if snippet:
            self._paint_hit(painter, option, index, title, snippet, mode)
        else:
            option = QStyleOptionViewItem(option)
            option.textElideMode = mode
            super().paint(painter, option, index)
        view = self.parent()
        if option.state & QStyle.StateFlag.State_HasFocus and view is not None and view.hasFocus():
            painter.save()
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(QPen(colors().accent, 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(QRectF(option.rect).adjusted(1, 1, -1, -1), 6, 6)
            painter.restore()

    def sizeHint(self, option, index) -> QSize:  # noqa: N802 - Qt's name
        """A row as tall with the answering badge (an icon) as without: it was 2 px taller, and the rows under
        it moved down as an answer began and back as it ended."""
        hint = super().sizeHint(option, index)
        if index.data(Qt.ItemDataRole.DecorationRole) is None:
            return hint
        plain = QStyleOptionViewItem(option)
        self.initStyleOption(plain, index)
        plain.features &= ~QStyleOptionViewItem.ViewItemFeature.HasDecoration
        plain.icon = QIcon()
        plain.decorationSize = QSize(0, 0)
        style = plain.widget.style() if plain.widget is not None else QApplication.style()
        text = style.sizeFromContents(QStyle.ContentsType.CT_ItemViewItem, plain, QSize(), plain.widget)
        return QSize(hint.width(), text.height())

    def createEditor(self, parent: QWidget, option, index) -> QWidget:  # noqa: N802 - Qt's name
        editor = super().createEditor(parent, option, index)
        editor.setAccessibleName("Chat title")  # F2's box had no name: a screen reader said only "edit"
        return editor

    def setEditorData(self, editor: QWidget, index) -> None:  # noqa: N802 - Qt's name
        """Put the row's title in the F2 box, unless the box already holds it or words typed there.

        Qt calls this again at every change to the row being edited, whatever changed: an answer ending in
        that chat (its time, its running badge) put the old title back over what was being typed, and
        Enter kept the old title."""
        if isinstance(editor, QLineEdit) and (editor.isModified() or editor.text() == index.data()):
            return
        super().setEditorData(editor, index)

    def _paint_hit(self, painter: QPainter, option, index, title: str, snippet: str,
                   mode: Qt.TextElideMode = Qt.TextElideMode.ElideRight) -> None:
        """A search hit: its title, and under it the words found in the muted colour, each line cut short
        with "…" (the words found looked like a second title)."""
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, opt.widget)
        margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, opt, opt.widget) + 1  # as Qt's own
        rect.adjust(margin, 0, -margin, 0)
        metrics, line = opt.fontMetrics, opt.fontMetrics.height()
        top = rect.top() + max(0, (rect.height() - 2 * line) // 2)
        painter.save()
        for text, colour, y, cut in ((title, colors().text, top, mode),
                                     (snippet, colors().muted, top + line, Qt.TextElideMode.ElideRight)):
            painter.setPen(colour)
            painter.drawText(QRectF(rect.left(), y, rect.width(), line), Qt.AlignmentFlag.AlignLeft
                             | Qt.AlignmentFlag.AlignVCenter, metrics.elidedText(text, cut, rect.width()))
        painter.restore()


# The roles whose change leaves a row as tall as it was (the badge too: see _FocusRing.sizeHint).
_SAME_SIZE = frozenset(int(role) for role in (TIP_ROLE, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.DecorationRole,
                                              Qt.ItemDataRole.AccessibleDescriptionRole))


class Place:
    """Where the list was scrolled to and which row the keyboard was on (see ChatList.place)."""

    top: str | None = None  # the first chat in sight (None: the list was at its top)
    offset = 0  # how far below the list's top that chat's row was (a heading above it was in sight)
    ringed: str | None = None  # the row the focus made current, not opened


class ChatList(QListWidget):
    """The list of chats; moving the keyboard into it shows where it is, without opening a chat.

    Qt makes the first row current when the list gets the focus with none current (Tab from the search
    box in a new chat): that opened the newest chat as if the user had chosen it. Arrows and Enter open.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.focusing = False
        self.setItemDelegate(_FocusRing(self))

    def focusInEvent(self, event) -> None:  # noqa: N802 - Qt's name
        self.focusing = self.currentItem() is None
        try:
            super().focusInEvent(event)
        finally:
            self.focusing = False
        self.viewport().update()

    def focusOutEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().focusOutEvent(event)
        self.viewport().update()

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().paintEvent(event)
        if self.hasFocus() and self.currentItem() is None:  # no row to ring (no chats yet): the list is ringed
            painter = QPainter(self.viewport())
            draw_ring(painter, self.viewport().rect(), 6.0)
            painter.end()

    def dataChanged(self, top_left, bottom_right, roles=()) -> None:  # noqa: N802 - Qt's name
        """A row's tooltip, answering badge or what a screen reader says of it changed: that row is painted
        again. Qt's list laid out every row again at any change (a question and its answer: four), and
        painted every row in sight again, each with this delegate: the fuller the list, the slower each
        answer."""
        if roles and top_left == bottom_right and {int(role) for role in roles} <= _SAME_SIZE:
            QAbstractItemView.dataChanged(self, top_left, bottom_right, roles)  # not QListView's: no layout
            return
        super().dataChanged(top_left, bottom_right, roles)

    def scrollTo(self, index, hint=QAbstractItemView.ScrollHint.EnsureVisible) -> None:  # noqa: N802 - Qt's name
        """Bring ``index`` into sight, and its day heading with it when it is the first chat under one: a chat
        asked in, moved first with the list scrolled down, came in sight as its top row, "Today" just above."""
        super().scrollTo(index, hint)
        above = index.siblingAtRow(index.row() - 1)
        if hint == QAbstractItemView.ScrollHint.EnsureVisible and above.isValid() \
                and not above.data(Qt.ItemDataRole.UserRole):
            super().scrollTo(above, hint)

    def viewportEvent(self, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.ToolTip and (item := self.itemAt(event.pos())) is not None:
            if item.data(TIP_ROLE) is not None:
                item.setToolTip(chat_tip(item))
            if item.toolTip():  # shown escaped: a title or a found snippet can hold <img src=…> (plain_text)
                QToolTip.showText(event.globalPos(), plain_tip(item.toolTip()), self.viewport(),
                                  self.visualItemRect(item))
                return True
        return super().viewportEvent(event)

    def place(self) -> Place:
        """Where the list is: the first chat in sight and its distance from the top (none at the very top),
        and the row the keyboard is on when that is not the open chat's (ringed, not highlighted)."""
        place = Place()
        if self.verticalScrollBar().value() > 0:
            first = max(0, self.indexAt(QPoint(1, 1)).row())
            for row in range(first, self.count()):
                item = self.item(row)
                if item.data(Qt.ItemDataRole.UserRole):
                    place.top, place.offset = item.data(Qt.ItemDataRole.UserRole), self.visualItemRect(item).top()
                    break
        current = self.currentItem()
        if current is not None and not current.isSelected():
            place.ringed = current.data(Qt.ItemDataRole.UserRole)
        return place

    def restore_place(self, place: Place, item_for: Callable[[str], QListWidgetItem | None]) -> None:
        """The list filled again as it was at ``place``; ``item_for``: a chat's row now."""
        ringed = item_for(place.ringed) if place.ringed else None
        if ringed is not None and self.currentItem() is None:
            self.focusing = True  # made current again as the focus made it: not opened
            try:
                self.setCurrentItem(ringed, QItemSelectionModel.SelectionFlag.NoUpdate)
            finally:
                self.focusing = False
        top = item_for(place.top) if place.top else None
        if top is None:
            self.scrollToTop()
            return
        self.scrollToItem(top, QAbstractItemView.ScrollHint.PositionAtTop)
        bar = self.verticalScrollBar()
        for _ in range(self.count()):  # a heading above it was in sight: back by a row (or the pixels)
            shown_at = self.visualItemRect(top).top()
            if shown_at >= place.offset or bar.value() == bar.minimum():
                break
            per_item = self.verticalScrollMode() == QAbstractItemView.ScrollMode.ScrollPerItem
            bar.setValue(bar.value() - (1 if per_item else place.offset - shown_at))


def ask_title(parent: QWidget, title: str, then: Callable[[str], object]) -> None:
    """Ask for a chat's new title in a small dialog, and give it to ``then`` (stripped; an empty or unchanged
    one is no rename). A search hit shows its title over the words found, so its row cannot be edited in
    place; the search and its hits stay as they were."""
    dialog = QInputDialog(parent)
    dialog.setObjectName("renameChatDialog")
    dialog.setWindowTitle("Rename chat")
    dialog.setLabelText("Title of the chat:")
    dialog.setTextValue(title)
    edit = dialog.findChild(QLineEdit)
    if edit is not None:  # QInputDialog's own box showed about 25 characters of a title
        edit.setMinimumWidth(edit.fontMetrics().averageCharWidth() * 50)

    def given(text: str) -> None:
        if text.strip() and text.strip() != title:  # an empty title is refused by the store
            then(text.strip())

    dialog.textValueSelected.connect(given)
    dialog.finished.connect(dialog.deleteLater)
    dialog.open()
