"""The words under and in an answer: its footer line (rounds, tools, time, model), said aloud too, and the
line shown while the model has not answered yet, and the label that shows the footer."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QLabel, QWidget

from .activity import WAITING
from .plain_text import plain_label
from .status import model_label

WAIT_SAID_AFTER = 5  # seconds of waiting for the first words before the line says how long


def footer_text(stats: dict[str, Any]) -> str:
    """The line under an answer: its rounds and tools when it used any, its time, whether it was stopped, and
    the model asked for it.

    A plain answer says only its time: "1 round · 0 tools run" under every one of them was noise."""
    rounds = int(stats.get("rounds", 0))
    secs = int(stats.get("elapsed_ms", 0)) / 1000
    parts = [f"{secs:.1f} s"]
    if rounds > 1 or int(stats.get("tools_run", 0)):
        parts[:0] = [f"{rounds} round{'s' if rounds != 1 else ''}", _tools_text(stats)]
    if model := str(stats.get("model") or ""):
        parts.append(model_label(model))
    if stats.get("outcome") == "stopped":
        parts.append("stopped")
    if left_out := int(stats.get("left_out", 0)):
        parts.append(f"{left_out} earlier message{'s' if left_out != 1 else ''} not read")
    if shortened := int(stats.get("shortened", 0)):  # sent without all its tools' results, or its middle
        parts.append(f"{shortened} earlier answer{'s' if shortened != 1 else ''} read in part")
    return " · ".join(parts)



def spoken(footer: str) -> str:
    """The footer's figures as a screen reader should say them: "2 rounds, 1 tool run, 0.1 seconds"."""
    parts = footer.replace("\u00a0", " ").split(" · ")
    return ", ".join(part[:-2] + " seconds" if part.endswith(" s") and part[:-2].replace(".", "").isdigit()
                     else part for part in parts if part)


def _tools_text(stats: dict[str, Any]) -> str:
    """``tools_run`` counts every call that was started (``Done.tools_run`` plus the denied commands, see
    ``finish``); ``tools_denied`` says how many of them were commands the user denied (they never ran),
    ``tools_stopped`` how many of the others the user's Stop (or a failed stream) ended before they finished."""
    tools = int(stats.get("tools_run", 0))
    denied = min(tools, int(stats.get("tools_denied", 0)))
    ran = tools - denied
    stopped = min(ran, int(stats.get("tools_stopped", 0)))
    plural = "s" if ran != 1 else ""
    if stopped and stopped == ran:
        text = f"{ran} tool{plural} stopped"
    else:
        text = f"{ran} tool{plural} run" + (f" ({stopped} stopped)" if stopped else "")
    if not denied:
        return text
    said = f"{denied} command{'s' if denied != 1 else ''} denied"
    # "1 tool run" for a command the user denied read as if it had run; "0 tools run" beside it is noise
    return said if not ran else f"{text} · {said}"


def waiting_words(seconds: float) -> str:
    """The line shown until the model's first words: after a few seconds, how long, and why it may last."""
    if seconds < WAIT_SAID_AFTER:
        return WAITING
    return f"{WAITING} {int(seconds)} s (a model the server has to load first can take a minute)"


class FooterLabel(QLabel):
    """The footer line: wraps between its parts, never inside one, and a part wider than the line (a long
    model name in a narrow window) is shortened in its middle. Qt wrapped at a hyphen: "qwen2.5:7b-" on one
    line, "instruct" on the next."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        plain_label(self)  # the model's name (the server's word) is in it
        self.setWordWrap(True)
        self._full = ""

    def set_footer(self, text: str) -> None:
        self._full = text
        self._fit()

    def full_text(self) -> str:
        return self._full

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        # Its longest part (up to a 40-character model name) would otherwise set the conversation's minimum
        # width; a part wider than the line is shortened instead (see _fit).
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), self.fontMetrics().horizontalAdvance("0" * 10)), hint.height())

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        metrics = self.fontMetrics()
        room = self.contentsRect().width()
        parts = [part if metrics.horizontalAdvance(part) <= room or room <= 0
                 else metrics.elidedText(part, Qt.TextElideMode.ElideMiddle, room) for part in self._full.split(" · ")]
        text = "\u00a0· ".join(_unbroken(part) for part in parts) if self._full else ""  # no line starts "·"
        if text != self.text():
            self.setText(text)


def _unbroken(part: str) -> str:
    """``part`` with no place to wrap in it: no-break spaces, and a word joiner after each sign Qt may break
    after ("-", "/")."""
    return "".join(c + ("" if c.isalnum() or c == " " else "\u2060") for c in part).replace(" ", "\u00a0")
