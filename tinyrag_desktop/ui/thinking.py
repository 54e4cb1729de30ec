"""An answer's "Thinking" section: the model's reasoning under a toggle that says how long it took."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QPalette, QTextCursor
from PySide6.QtWidgets import QFrame, QPlainTextEdit, QToolButton, QVBoxLayout, QWidget

from .access import expanded_changed, expander
from .theme import colors, paint_focus_ring


@expander  # a button that opens and closes, named by its words: it was "Thinking, collapsed", a check box
class ThinkingToggle(QToolButton):
    """The "Thinking" toggle, with a focus ring a keyboard user can see. A screen reader hears what it shows
    ("Thought for 4 s") and whether the reasoning is shown, as for a tool card."""

    @property
    def expanded(self) -> bool:
        return self.isChecked()

    def set_expanded(self, on: bool) -> None:
        self.setChecked(on)

    def paintEvent(self, event) -> None:  # noqa: N802
        super().paintEvent(event)
        paint_focus_ring(self)


class ThinkingSection(QFrame):
    """The model's reasoning: a "Thinking" toggle above the answer, collapsed by default."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("thinking")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 4)
        layout.setSpacing(2)
        self.toggle = ThinkingToggle(self)
        self.toggle.setObjectName("thinkingToggle")
        self.toggle.setText("Thinking")
        self.toggle.setCheckable(True)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setAutoRaise(True)
        self.toggle.toggled.connect(self._on_toggle)
        self.toggle.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.body = QPlainTextEdit(self)
        self.body.setObjectName("thinkingText")
        self.body.setReadOnly(True)
        self.body.setFrameShape(QFrame.Shape.NoFrame)
        pal = self.body.palette()
        pal.setColor(QPalette.ColorRole.Base, colors().note)
        pal.setColor(QPalette.ColorRole.Text, colors().muted)
        self.body.setPalette(pal)
        self.body.setAccessibleName("Model reasoning")
        self.body.hide()
        layout.addWidget(self.toggle)
        layout.addWidget(self.body)
        # The reasoning as it came: Qt's plain text changes it (a no-break space becomes a space, "\r\n" and
        # U+2028 a line break), so what is stored, and what take_back compares, is this.
        self._text: list[str] = []
        self._since: float | None = None  # when the first reasoning streamed in (time.monotonic)
        self._last = 0.0  # when the last of it came

    def append(self, text: str, live: bool = True, since: float | None = None) -> None:
        """Add reasoning; ``live``: as it streams (the toggle says "Thinking…" and then how long it took),
        not read back from a stored chat; ``since``: when it began, if before now (it streamed as answer
        text until its </think> showed what it was)."""
        # Appending at the end costs the same however long the reasoning already is.
        cursor = self.body.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(text)
        self._text.append(text)
        if live:
            self._last = time.monotonic()
            if self._since is None:
                self._since = self._last if since is None else since
            self.toggle.setText("Thinking…")
        self._fit()

    def settle(self) -> None:
        """The reasoning is over (the answer began, or ended): the toggle says how long it took."""
        if self._since is not None and self.toggle.text() == "Thinking…":
            seconds = round(self._last - self._since)
            self.toggle.setText("Thought for a moment" if seconds < 1 else f"Thought for {seconds} s")

    def take_back(self, text: str) -> str:
        """Remove ``text`` from the end of the reasoning (it was the answer after all); what is left."""
        whole = self.text()
        if text and whole.endswith(text):
            whole = whole[: len(whole) - len(text)]
            self._text = [whole]
            self.body.setPlainText(whole)
            self._fit()
        return whole

    def _fit(self) -> None:
        # As tall as the reasoning (in wrapped lines), up to a limit; then it scrolls.
        doc = self.body.document()
        lines = sum(doc.findBlockByNumber(i).layout().lineCount() or 1 for i in range(min(doc.blockCount(), 40)))
        spacing = self.body.fontMetrics().lineSpacing()
        self.body.setFixedHeight(min(220, max(1, lines) * spacing + 14))

    def text(self) -> str:
        if len(self._text) > 1:
            self._text[:] = ["".join(self._text)]
        return self._text[0] if self._text else ""

    def _on_toggle(self, on: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        expanded_changed(self.toggle)
        self.body.setVisible(on)
        if on:
            QTimer.singleShot(0, self._fit)  # line wrapping is known once the text box has its width
