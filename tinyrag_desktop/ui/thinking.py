"""An answer's "Thinking" section: the model's reasoning under a toggle that says how long it took."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from PySide6.QtCore import QMimeData, Qt, QTimer
from PySide6.QtGui import QPalette, QTextCursor
from PySide6.QtWidgets import QFrame, QPlainTextEdit, QToolButton, QVBoxLayout, QWidget

from .access import expanded_changed, expander
from .long_text import BLOCK_SHOWN, more_note
from .theme import colors, paint_focus_ring


# Characters of a line of reasoning shown at most, as of an answer's paragraph; the rest: see ThinkingSection._show
LINE_SHOWN = BLOCK_SHOWN
FIT_EVERY_MS = 50  # the reasoning shown is fitted at most this often while it streams in


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


@dataclass(slots=True)
class _Cut:
    """A line of the reasoning shown cut: where its note is shown (``at``), the note, and the characters of the
    reasoning it stands for (``start`` to ``end``)."""

    at: int
    start: int
    end: int = 0
    note: str = ""


class ReasoningText(QPlainTextEdit):
    """The reasoning's text. A selection that covers the note of a line cut is copied with all of that line."""

    def __init__(self, copied: Callable[[int, int], str | None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._copied = copied

    def createMimeDataFromSelection(self) -> QMimeData:  # noqa: N802
        cursor = self.textCursor()
        whole = self._copied(cursor.selectionStart(), cursor.selectionEnd())
        if whole is None:
            return super().createMimeDataFromSelection()
        data = QMimeData()  # (plain text: Qt's own fills its text in from the selection when first read)
        data.setText(whole)
        return data


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
        self.body = ReasoningText(self.selection_copied, self)
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
        # Characters of the reasoning, of its last line, and of that line shown (see _show); its lines cut
        self._length = self._line = self._line_shown = 0
        self._cuts: list[_Cut] = []
        self._cut_open = False  # the last line is cut (the last of _cuts)
        self._note_stale = False  # and its note does not say so yet
        self._fit_timer = QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(FIT_EVERY_MS)
        self._fit_timer.timeout.connect(self._fit)

    def append(self, text: str, live: bool = True, since: float | None = None) -> None:
        """Add reasoning; ``live``: as it streams (the toggle says "Thinking…" and then how long it took),
        not read back from a stored chat; ``since``: when it began, if before now (it streamed as answer
        text until its </think> showed what it was)."""
        self._show(text)
        self._text.append(text)
        if live:
            self._last = time.monotonic()
            if self._since is None:
                self._since = self._last if since is None else since
            self.toggle.setText("Thinking…")
        if self.body.isVisible() and not self._fit_timer.isActive():
            self._fit_timer.start()  # once for the pieces that come meanwhile: each fit lays the text out

    def _show(self, text: str) -> None:
        """Show ``text`` after the reasoning shown: of a line longer than LINE_SHOWN, its start and a note of how
        much more there is (Qt laid the whole line out again at each piece: 200,000 characters on one line came
        in at 40 ms a piece, the window frozen meanwhile). Appending costs the same however long the reasoning is."""
        cursor = QTextCursor(self.body.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        for number, part in enumerate(text.split("\n")):
            if number:  # a line ends
                self._note_settled(cursor)
                self._cut_open = False
                cursor.insertText("\n")
                self._length += 1
                self._line = self._line_shown = 0
            if self._line_shown == self._line < LINE_SHOWN:
                shown = part[:LINE_SHOWN - self._line]
                cursor.insertText(shown)
                self._line_shown += len(shown)
            self._line += len(part)
            self._length += len(part)
            if self._line > self._line_shown:
                if not self._cut_open:
                    self._cuts.append(_Cut(cursor.position(), self._length - self._line + self._line_shown))
                self._cut_open = self._note_stale = True

    def _note_settled(self, cursor: QTextCursor | None = None) -> None:
        """The note of the last line cut says how much of it is not shown: written when the line ends and when the
        reasoning is seen, not at each piece (each change lays the line out again)."""
        if not self._note_stale:
            return
        cut = self._cuts[-1]
        cut.end = self._length
        cursor = cursor or QTextCursor(self.body.document())
        cursor.setPosition(cut.at)
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cut.note = " " + more_note(cut.end - cut.start, "character", "Copy")
        cursor.insertText(cut.note)
        self._note_stale = False

    def selection_copied(self, start: int, end: int) -> str | None:
        """What copying the reasoning shown from ``start`` to ``end`` gives when it covers a note: the text it
        stands for in place of the note (it says "Copy keeps all"); None when it covers none."""
        self._note_settled()
        cuts = [cut for cut in self._cuts if start <= cut.at < end]
        if not cuts:
            return None
        whole, parts, at = self.text(), [], start
        for cut in cuts:
            parts += [self._shown_text(at, cut.at), whole[cut.start:cut.end]]
            at = cut.at + len(cut.note)
        return "".join(parts) + (self._shown_text(at, end) if at < end else "")

    def line_cuts(self) -> tuple[tuple[int, int, int, int], ...]:
        """Each line of the reasoning cut: where its note is shown (from, to) and the characters of the reasoning
        it stands for (from, to), for Find in chat (see find_matches.LeftOut)."""
        self._note_settled()
        return tuple((cut.at, cut.at + len(cut.note), cut.start, cut.end) for cut in self._cuts)

    def _shown_text(self, start: int, end: int) -> str:
        cursor = QTextCursor(self.body.document())
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        return cursor.selection().toPlainText()

    def settle(self) -> None:
        """The reasoning is over (the answer began, or ended): the toggle says how long it took."""
        self._note_settled()
        if self._since is not None and self.toggle.text() == "Thinking…":
            seconds = round(self._last - self._since)
            self.toggle.setText("Thought for a moment" if seconds < 1 else f"Thought for {seconds} s")

    def take_back(self, text: str) -> str:
        """Remove ``text`` from the end of the reasoning (it was the answer after all); what is left."""
        whole = self.text()
        if text and whole.endswith(text):
            whole = whole[: len(whole) - len(text)]
            self._text = [whole]
            self.body.clear()
            self._line = self._line_shown = self._length = 0
            self._cuts, self._cut_open = [], False
            self._show(whole)
            self._fit()
        return whole

    def _fit(self) -> None:
        # As tall as the reasoning (in wrapped lines), up to a limit; then it scrolls.
        self._note_settled()
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
