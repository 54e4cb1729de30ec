"""The red box an answer's inline error is shown in, with its buttons beside the message or below it."""

from __future__ import annotations

from typing import Iterable

from PySide6.QtCore import QEvent, QRectF, Qt
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import QBoxLayout, QFrame, QHBoxLayout, QLabel, QPushButton

from ..engine.errors import CHOOSE_ANOTHER
from ..engine.llm import START_HINT
from ..tool_words import settings_field, settings_tab, window_words
from .enter_presses import enter_presses
from .theme import colors

# The message keeps at least this many average characters a line beside the buttons; with less (large text,
# a narrow window) the buttons go below it: at 18 pt three buttons squeezed it into a column five lines tall.
MIN_LINE_CHARS = 40
# The welcome page's words for opening the Server URL, said by an error about a server that cannot be reached
# too: the same button read "Enter a server address…" on the page and "Open Settings" in the error below it.
ENTER_ADDRESS = "Enter a server address…"
OPEN_SETTINGS = "Open Settings"  # an error's remedy in Settings, any other
SERVER_HELP = "How to start a server…"  # the welcome page again: its steps and the built-in model


def no_server(message: str) -> bool:
    """Whether ``message`` (in the window's words) says no model server answers, with how to start one."""
    return window_words(START_HINT) in message


# What an error beside its "Choose a model…" button says in place of CHOOSE_ANOTHER
_CHOOSE_BESIDE = "Choose one of those to use instead."


def model_button_words(text: str) -> str:
    """``text`` (already in the window's words) as an error beside its "Choose a model…" button says it:
    "Choose one in Settings." sent the user away from the button next to the words (the command line keeps
    them)."""
    return text.replace(window_words(CHOOSE_ANOTHER), _CHOOSE_BESIDE)


def error_settings_tab(text: str) -> str | None:
    """The Settings tab an error's remedy is on (tool_words.settings_tab), from its words as they came or as
    shown beside "Choose a model…" (model_button_words), which is how an answer's error is stored: reopened,
    a missing model's error lost its Open Settings button, its "in Settings" replaced."""
    return settings_tab(_as_said(text))


def error_settings_field(text: str) -> str | None:
    """The field an error's remedy is in (tool_words.settings_field: "api_key" for a refused key), read as
    error_settings_tab reads its tab; Open Settings puts the keyboard there."""
    return settings_field(_as_said(text))


def _as_said(text: str) -> str:
    """An error's words as they came, from the ones shown beside "Choose a model…" (model_button_words)."""
    return text.replace(_CHOOSE_BESIDE, window_words(CHOOSE_ANOTHER))


class ErrorBox(QFrame):
    """The inline error's red box, painted (no style sheet in the conversation, see theme.py)."""

    def lay_out(self, message: QLabel, buttons: Iterable[QPushButton]) -> None:
        """``message`` with ``buttons`` at its right, or below it when room is short (see :meth:`fit`)."""
        self._message = message
        self._buttons = tuple(buttons)
        enter_presses(*self._buttons)  # Enter on "Choose a model…" did nothing (see enter_presses.py)
        self._row = QBoxLayout(QBoxLayout.Direction.LeftToRight, self)
        self._row.setContentsMargins(10, 8, 10, 8)
        self._row.addWidget(message, 1)
        line = QHBoxLayout()
        line.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        for button in self._buttons:
            line.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
        self._row.addLayout(line)

    def below(self) -> bool:
        """Whether the buttons are under the message."""
        return self._row.direction() == QBoxLayout.Direction.TopToBottom

    def fit(self) -> None:
        """Buttons beside the message while it keeps :data:`MIN_LINE_CHARS` a line, below it otherwise."""
        if not hasattr(self, "_row"):
            return
        shown = [b for b in self._buttons if not b.isHidden()]
        beside = sum(b.sizeHint().width() for b in shown) + self._row.spacing() * len(shown)
        margins = self._row.contentsMargins()
        room = self.width() - margins.left() - margins.right() - beside
        short = room < self._message.fontMetrics().averageCharWidth() * MIN_LINE_CHARS
        want = QBoxLayout.Direction.TopToBottom if short else QBoxLayout.Direction.LeftToRight
        if self._row.direction() != want:
            self._row.setDirection(want)

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self.fit()

    def changeEvent(self, event) -> None:  # noqa: N802
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # larger text, the same width: the message narrower
            self.fit()

    def paintEvent(self, event) -> None:  # noqa: N802
        c = colors()
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(c.error, 1))
        painter.setBrush(c.errorbg)
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), 8, 8)
        painter.end()
