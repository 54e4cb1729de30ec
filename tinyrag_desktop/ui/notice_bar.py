"""The notice above the conversation: what the user must know (a damaged file kept aside, a setting not
understood, an answer that could not be saved), every line whole, until dismissed. A status bar message
went after 15 s, cut short, and only the last of several was seen."""

from __future__ import annotations

from typing import Iterable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget


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
        self.hide()

    def show_notices(self, notices: Iterable[str]) -> None:
        """Show ``notices``, one per line (nothing when all are empty)."""
        text = "\n".join(n for n in notices if n)
        if text:
            self.label.setText(text)
            self.setAccessibleDescription(text)
            self.show()

    def withdraw(self, starting: str) -> None:
        """Hide the notice when it is the one that starts with ``starting``: it no longer holds."""
        if self.isVisible() and self.label.text().startswith(starting):
            self.hide()
