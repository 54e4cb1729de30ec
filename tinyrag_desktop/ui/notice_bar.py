"""The notice above the conversation: what the user must know (a damaged file kept aside, a setting not
understood, an answer that could not be saved), every line whole, until dismissed. A status bar message
went after 15 s, cut short, and only the last of several was seen."""

from __future__ import annotations

import re
from typing import Iterable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget


_CODE = re.compile(r"`([^`\n]+)`")


class NoticeBar(QFrame):
    """Hidden until :meth:`show_notices`; its Dismiss button hides it."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("noticeBar")
        self.setAccessibleName("Notice")
        row = QHBoxLayout(self)
        row.setContentsMargins(16, 8, 8, 8)
        self.label = QLabel("", self)
        self.label.setObjectName("noticeText")
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        dismiss = QPushButton("Dismiss", self)
        dismiss.setObjectName("dismissNotice")
        dismiss.setAccessibleName("Dismiss the notice")
        dismiss.clicked.connect(self.hide)
        row.addWidget(self.label, 1)
        row.addWidget(dismiss, 0, Qt.AlignmentFlag.AlignTop)
        self._lines: list[str] = []  # as given, before code was put in quotes
        self.hide()

    def show_notices(self, notices: Iterable[str]) -> None:
        """Show ``notices``, one per line, in place of what it showed (nothing when all are empty). A command
        written as code (`ollama pull llama3.2`) is shown in quotes: the bar is plain text, and the backticks
        were shown."""
        lines = [n for n in notices if n]
        if lines:
            self._lines = lines
            text = _CODE.sub(lambda m: f"“{m.group(1)}”", "\n".join(lines))
            self.label.setText(text)
            self.setAccessibleDescription(text)
            self.show()

    def add(self, notice: str) -> None:
        """Show ``notice`` below what the bar shows (a dismissed bar's old lines are not shown again)."""
        shown = self._lines if not self.isHidden() else []
        if notice not in shown:
            self.show_notices([*shown, notice])

    def withdraw(self, notice: str, *, starting: bool = False) -> None:
        """Take ``notice`` (with ``starting``, every line that starts with it) out of the bar: it no longer
        holds. The bar goes when nothing else is in it."""
        if self.isHidden():
            return
        rest = [line for line in self._lines if not (line.startswith(notice) if starting else line == notice)]
        if len(rest) == len(self._lines):
            return
        if rest:
            self.show_notices(rest)
        else:
            self._lines = []
            self.hide()
