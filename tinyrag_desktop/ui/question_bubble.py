"""UserBubble: a question in the conversation, as the user typed it; a long one folded to its first lines.

A 3,000-line log sent as a question made the conversation 41,518 px tall, with no way to fold it. A question
longer than FOLD_OVER lines shows its first FOLD_LINES, with "Show all (3,000 lines)" under them ("Show less"
once open); a question restored from the history comes folded too. Only its height is cut: its text is whole,
so selecting all of it and copying it, the find bar and a screen reader get the whole question, and so does
the model.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QPainter, QPalette, QPen, QTextOption
from PySide6.QtWidgets import QFrame, QHBoxLayout, QSizePolicy, QTextBrowser, QVBoxLayout, QWidget

from .focus_ring import ActionButton
from .segments import reveal_caret
from .theme import colors

FOLD_LINES = 12  # lines a long question shows folded
FOLD_OVER = 20  # a question of more lines than this is folded (one a few lines over FOLD_LINES is shown whole)


class QuestionText(QTextBrowser):
    """The question's text: plain, selectable, as tall as its lines, asking for its natural width (up to ~75
    characters; a plain word-wrapped QLabel guessed a narrow width and stacked a short question into a column).

    It wraps at spaces and, inside a word longer than the line (a pasted address, hash or log line), anywhere.
    A QLabel cannot break a word: one such word set the conversation's minimum width, so the window could not
    be made narrower than it, and the word ran past the bubble's edge. No break characters are put into the
    text, so what the user selects and copies is what they typed.

    Folded, it is as tall as its first FOLD_LINES lines and never scrolls itself: the wheel scrolls the
    conversation, and a caret moved below the fold (the arrows, a find) opens it. Select all leaves it folded.
    """

    fitted = Signal()  # its height was set again: whether it folds may have changed (a new width)
    unfoldWanted = Signal()  # the caret went below the fold

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = text
        self.folded = True  # a long question shows its first lines until "Show all"
        self.fold_height = 0  # px of its first FOLD_LINES lines; 0 when it is short enough to show whole
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                     | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        # One Tab stop: the arrows move a caret in it, and a screen reader reads each line it comes to.
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.cursorPositionChanged.connect(self._caret_moved)
        self.verticalScrollBar().valueChanged.connect(self._keep_top)
        self.keyboard_focus = False  # the focus came by the keyboard (the bubble shows a ring)
        self.viewport().setAutoFillBackground(False)  # the bubble paints the background
        pal = self.palette()
        pal.setColor(QPalette.ColorRole.Base, Qt.GlobalColor.transparent)
        self.setPalette(pal)
        self.document().setDocumentMargin(0)
        self.document().documentLayout().documentSizeChanged.connect(self._fit)
        self.setPlainText(text)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def text(self) -> str:
        return self._text

    def is_folded(self) -> bool:
        """Shown cut to its first lines (it is long, and "Show all" was not pressed)."""
        return self.folded and self.fold_height > 0

    def set_folded(self, on: bool) -> None:
        self.folded = on
        self._fit()

    def unfold_to(self, rect: QRect) -> None:
        """Open the question if ``rect`` (in its viewport: a match the find bar goes to) is below the fold."""
        if self.is_folded() and rect.bottom() > self.fold_height:
            self.unfoldWanted.emit()

    def focusInEvent(self, event) -> None:  # noqa: N802
        super().focusInEvent(event)
        if event.reason() != Qt.FocusReason.ActiveWindowFocusReason:
            self.keyboard_focus = event.reason() != Qt.FocusReason.MouseFocusReason
        self.parentWidget().update()  # the bubble rings its text while the keyboard is in it

    def focusOutEvent(self, event) -> None:  # noqa: N802
        super().focusOutEvent(event)
        self.parentWidget().update()

    def wheelEvent(self, event) -> None:  # noqa: N802
        if self.is_folded():  # the conversation scrolls, as over a question shown whole
            event.ignore()
            return
        super().wheelEvent(event)

    def _keep_top(self, value: int) -> None:
        """Folded, its first lines stay in view: select all moved its caret to the end, which scrolled it."""
        if value and self.is_folded():
            self.verticalScrollBar().setValue(0)

    def _caret_moved(self) -> None:
        if not self.hasFocus():
            return
        if self.is_folded() and self.cursorRect().bottom() > self.fold_height:
            cursor = self.textCursor()
            if cursor.selectionStart() == 0 and cursor.selectionEnd() >= self.document().characterCount() - 1:
                return  # select all, to copy: the question stays folded, and the conversation where it is
            self.unfoldWanted.emit()
        reveal_caret(self)

    def _fit(self, _size=None) -> None:
        self.fold_height = self._first_lines_height()
        full = int(self.document().size().height() + 0.999)
        height = self.fold_height if self.is_folded() else full
        if height != self.height():
            self.setFixedHeight(height)
        if not self.is_folded():
            self.verticalScrollBar().setValue(0)
        self.fitted.emit()

    def _first_lines_height(self) -> int:
        """The height of the first FOLD_LINES lines as laid out (wrapped lines count), when there are more
        than FOLD_OVER of them; else 0."""
        doc = self.document()
        layout = doc.documentLayout()
        seen, height = 0, 0
        block = doc.begin()
        while block.isValid():
            top = layout.blockBoundingRect(block).top()  # a line's y is from its block's top
            lines = block.layout()
            for i in range(lines.lineCount()):
                seen += 1
                if seen == FOLD_LINES:
                    line = lines.lineAt(i)
                    height = int(top + line.y() + line.height() + 0.999)
                elif seen > FOLD_OVER:
                    return height
            block = block.next()
        return 0

    def sizeHint(self) -> QSize:  # noqa: N802
        metrics = self.fontMetrics()
        natural = max((metrics.horizontalAdvance(line) for line in self._text.splitlines() or [""]), default=0)
        return QSize(min(natural + 6, metrics.averageCharWidth() * 75), self.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(min(self.sizeHint().width(), self.fontMetrics().averageCharWidth() * 8), self.height())


class UserBubble(QFrame):
    """A question, as the user typed it (plain text, selectable), on a painted rounded background."""

    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colors().bubble)
        painter.drawRoundedRect(QRectF(self.rect()), 12, 12)
        if self.text_view.hasFocus() and self.text_view.keyboard_focus:
            painter.setPen(QPen(colors().accent, 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(QRectF(self.rect()).adjusted(1, 1, -1, -1), 11, 11)
        painter.end()

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("userBubble")
        self.setAccessibleName("Your question")
        column = QVBoxLayout(self)
        column.setContentsMargins(12, 8, 12, 8)
        column.setSpacing(2)
        self.text_view = QuestionText(text, self)
        self.text_view.setObjectName("userText")
        # A short name, as the answer's words have ("Answer text"): unnamed, it was the one nameless text of
        # the conversation to an accessibility checker. Its words are read as its text, inside "Your question".
        self.text_view.setAccessibleName("Question text")
        column.addWidget(self.text_view)
        self.fold_button = ActionButton(self)
        self.fold_button.setObjectName("foldQuestion")
        self.fold_button.setAutoRaise(True)
        self.fold_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.fold_button.clicked.connect(lambda: self._set_folded(not self.text_view.folded))
        self.fold_button.hide()
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.fold_button)
        row.addStretch(1)
        column.addLayout(row)
        self.text_view.fitted.connect(self._show_fold)
        self.text_view.unfoldWanted.connect(lambda: self._set_folded(False))
        self._show_fold()
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)

    def text(self) -> str:
        return self.text_view.text()

    def _set_folded(self, on: bool) -> None:
        """Fold or open the question; what the user looks at stays where it is on the screen (the
        conversation's reveal): folded, the button they pressed (the question's top may be far above); opened,
        the line that was under the fold, not the conversation's end, which it followed."""
        view = self.text_view
        area = self.parentWidget()
        while area is not None and not hasattr(area, "reveal"):
            area = area.parentWidget()
        if area is not None:
            at = view.fold_height
            area.reveal(*((self.fold_button, self.fold_button.rect) if on
                          else (view.viewport(), lambda: QRect(0, at, 1, 1))))
        view.set_folded(on)

    def _show_fold(self) -> None:
        """"Show all (3,000 lines)" under a long question folded, "Show less" under one opened; nothing under
        a short one."""
        view = self.text_view
        self.fold_button.setVisible(view.fold_height > 0)
        text = view.text()
        lines = text.count("\n") + 1
        size = f"{lines:,} lines" if lines > FOLD_LINES else f"{len(text):,} characters"
        folded = view.is_folded()
        self.fold_button.setText(f"Show all ({size})" if folded else "Show less")
        self.fold_button.setAccessibleName(f"Show all of the question, {size}" if folded
                                           else "Show less of the question")
        self.fold_button.setToolTip("Show the whole question" if folded else "Fold the question to its first lines")
        view.setAccessibleDescription(f"Folded: its first {FOLD_LINES} lines are shown" if folded else "")
