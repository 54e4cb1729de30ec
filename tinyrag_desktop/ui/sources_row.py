"""The "Sources" line under an answer: each file or web page the answer drew on, as a link that opens it."""

from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QLabel, QLayout, QLayoutItem, QSizePolicy, QToolButton, QWidget, QWidgetItem

from .plain_text import plain_label, plain_tip
from ..hidden_text import shown_name
from ..source_list import unknown_words
from .sources import OFFERED_CAPTION, SourceEntry, cited_as, open_source, source_url, unique_labels
from .theme import paint_focus_ring

__all__ = ["SourceLink", "SourcesRow"]


class _FlowLayout(QLayout):
    """Items left to right, wrapping to a new line when the row is full (Qt has no built-in flow layout)."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 2) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self.setSpacing(spacing)
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802
        self._items.append(item)

    def insertWidget(self, index: int, widget: QWidget) -> None:  # noqa: N802
        self.addChildWidget(widget)
        self._items.insert(index, QWidgetItem(widget))
        self.invalidate()

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        # False on purpose: a height-for-width child makes every layout pass of the answer (and of the
        # whole chat column) ask all its items twice. The row fixes its own height instead (SourcesRow._fit).
        return False

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        return self._place(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802
        super().setGeometry(rect)
        self._place(rect, move=True)

    def sizeHint(self) -> QSize:  # noqa: N802
        return self.minimumSize()

    def minimumSize(self) -> QSize:  # noqa: N802
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        return size

    def _place(self, rect: QRect, move: bool) -> int:
        """Lay the items out in lines (centred on each line's height); returns the height used."""
        gap = self.spacing()
        lines: list[list[tuple[QLayoutItem, QSize]]] = [[]]
        x = rect.x()
        for item in self._items:
            if item.widget() is not None and item.widget().isHidden():
                continue
            hint = item.sizeHint()
            if x + hint.width() > rect.right() + 1 and lines[-1]:
                lines.append([])
                x = rect.x()
            lines[-1].append((item, hint))
            x += hint.width() + gap
        y = rect.y()
        for line in lines:
            height = max((hint.height() for _, hint in line), default=0)
            x = rect.x()
            for item, hint in line:
                if move:
                    item.setGeometry(QRect(QPoint(x, y + (height - hint.height()) // 2), hint))
                x += hint.width() + gap
            y += height + gap
        return max(0, y - gap - rect.y())


class SourceLink(QToolButton):
    """One source: a flat, focusable link button; Enter, Space or a click opens it."""

    openFailed = Signal(str)  # why the source could not be opened, in words

    def __init__(self, location: str, label: str, link_colour: str, parent: QWidget | None = None,
                 numbers: Sequence[int] = ()) -> None:
        super().__init__(parent)
        self.setObjectName("sourceLink")
        self.location = location
        self.numbers = tuple(numbers)
        self.group = ""  # the caption of its group in the row ("" when there is none)
        self.anchor: str | None = None  # where in the page it opens (see SourceEntry)
        self._label = label
        self.setAutoRaise(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        openable = source_url(location) is not None
        self.setEnabled(openable)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        shown = shown_name(location)
        self.setToolTip(plain_tip(shown if openable else f"{shown}\n(this location cannot be opened)"))
        self.setAccessibleDescription(location)
        pal = self.palette()
        pal.setColor(QPalette.ColorRole.ButtonText, QColor(link_colour))
        self.setPalette(pal)
        font = self.font()
        font.setPointSizeF(max(7.0, font.pointSizeF() * 0.9))
        self.setFont(font)
        self.set_label(label)
        self.clicked.connect(self.open)

    def paintEvent(self, event) -> None:  # noqa: N802
        super().paintEvent(event)
        paint_focus_ring(self)

    def open(self) -> bool:
        problem = open_source(self.location, self.anchor)
        if problem:
            self.openFailed.emit(problem)
        return problem is None

    def set_label(self, label: str) -> None:
        self._label = label
        shown = f"{cited_as(self.numbers)} {label}".strip()
        self.setText(shown.replace("&", "&&"))  # a lone & would become a mnemonic
        cited = f", cited as {', '.join(str(n) for n in self.numbers)}" if self.numbers else ""
        self.setAccessibleName(f"Open source {label}{cited}")

    def label(self) -> str:
        """The file's or page's short name, without its numbers."""
        return self._label

    def shown(self) -> str:
        """What the link says: its numbers and its name ("[1, 3] guide.md")."""
        return self.text().replace("&&", "&")


class SourcesRow(QWidget):
    """The quiet "Sources" line; hidden until the answer has a source, then one link per entry (see arrange)."""

    openFailed = Signal(str)

    def __init__(self, parent: QWidget | None = None, link_colour: str = "#2563eb") -> None:
        super().__init__(parent)
        self.setObjectName("answerSources")
        self.setAccessibleName("Sources this answer used")
        self._link_colour = link_colour
        self._links: list[SourceLink] = []
        self._entries: list[SourceEntry] = []
        self._groups: dict[str, QLabel] = {}
        self._flow = _FlowLayout(self)
        self._caption = self._quiet_label("Sources", "sourcesCaption")
        self._flow.addWidget(self._caption)
        self._unknown: tuple[int, ...] = ()
        self._unknown_label = self._group_label("")  # the numbers cited that name no source, after the links
        self._unknown_label.setObjectName("sourcesUnknown")
        self._unknown_label.hide()
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.hide()

    def set_offered(self, offered: bool) -> None:
        """Caption the line "Given to the model" (an answer that did not finish: all it was given) or
        "Sources" (what a finished answer drew on)."""
        self._caption.setText(OFFERED_CAPTION if offered else "Sources")
        self.setAccessibleName("Sources given to the model" if offered else "Sources this answer used")

    def _quiet_label(self, text: str, name: str) -> QLabel:
        label = plain_label(QLabel(self))  # the format first: a query's <img src=…> was read at once
        label.setText(text)
        label.setObjectName(name)
        label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        font = label.font()
        font.setPointSizeF(max(7.0, font.pointSizeF() * 0.9))
        label.setFont(font)
        label.setContentsMargins(0, 0, 4, 0)
        label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        return label

    def _group_label(self, caption: str) -> QLabel:
        label = self._quiet_label(caption, "sourcesGroup")
        label.setContentsMargins(10, 0, 4, 0)  # set apart from the group before it
        return label

    def set_entries(self, entries: Sequence[SourceEntry], unknown: Sequence[int] = ()) -> None:
        """Show ``entries`` in order, then the numbers the answer cites that none of them has (``unknown``);
        a link already shown for the same entry is kept (and its focus)."""
        entries = [e for e in entries if e.location.strip()]
        if entries == self._entries and tuple(unknown) == self._unknown:
            return
        self._entries, self._unknown = list(entries), tuple(unknown)
        old = {(link.group, link.location, link.numbers): link for link in self._links}
        while self._flow.count() > 1:  # all but the caption; the widgets are kept or deleted below
            self._flow.takeAt(1)
        locations = list(dict.fromkeys(e.location.strip() for e in entries))
        labels = dict(zip(locations, unique_labels(locations)))  # a file of two groups: one label
        links, groups = [], {}
        for entry in entries:
            loc = entry.location.strip()
            if entry.group and entry.group not in groups:
                groups[entry.group] = self._groups.pop(entry.group, None) or self._group_label(entry.group)
                self._flow.addWidget(groups[entry.group])
            link = old.pop((entry.group, loc, entry.numbers), None)
            if link is None:
                link = SourceLink(loc, labels[loc], self._link_colour, self, entry.numbers)
                link.group = entry.group
                link.openFailed.connect(self.openFailed)
            link.anchor = entry.anchor
            link.set_label(labels[loc])
            self._flow.addWidget(link)
            links.append(link)
        for widget in [*old.values(), *self._groups.values()]:
            widget.hide()
            widget.deleteLater()
        self._links, self._groups = links, groups
        if links:
            # As tall as a link, text centred: the caption's words then sit on the links' line.
            for label in (self._caption, *groups.values()):
                label.setFixedHeight(links[0].sizeHint().height())
                label.show()
            for link in links:
                link.show()
            said = unknown_words(self._unknown)
            self._unknown_label.setText(said)
            self._unknown_label.setVisible(bool(said))
            if said:
                self._unknown_label.setFixedHeight(links[0].sizeHint().height())
                self._flow.addWidget(self._unknown_label)
            self.setAccessibleDescription(", ".join(
                f"{cited_as(lk.numbers)} {lk.location}".strip() for lk in links) + (f". {said}" if said else ""))
        self.setVisible(bool(links))
        self._flow.invalidate()
        self._fit()

    def entries(self) -> list[SourceEntry]:
        return list(self._entries)

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        height = self._flow.heightForWidth(max(1, self.width()))
        if height != self.height():
            self.setFixedHeight(height)

    def locations(self) -> list[str]:
        """Each location once, in the order shown."""
        return list(dict.fromkeys(link.location for link in self._links))

    def links(self) -> list[SourceLink]:
        return list(self._links)

    def groups(self) -> list[str]:
        """The captions of the groups shown ("Search “kittens”:"); none while numbers need no group."""
        return list(self._groups)
