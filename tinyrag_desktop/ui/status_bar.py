"""A status bar whose passing messages are shortened with "…" where they do not fit, whole in the tooltip.

QStatusBar draws a message on one line and cuts it off at the first permanent widget, mid-word and with
nothing to say it was cut: in the 784 px first window, "Found Ollama at http://127.0.0.1:11434/v1 with the
model llama…" ended in "llam". The message shown is shortened to the room Qt draws it in (left of the first
permanent widget shown), again whenever that room changes; ``currentMessage`` and ``messageChanged`` stay
the whole text, and the tooltip and the accessible description hold it whole while it is shortened.

A message is said to a screen reader as it is shown ("Copied to the clipboard", "Still answering: press Esc…"):
away from the focus, Orca said none of them. ``show_quietly`` shows one without (a link's address under the mouse).
"""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QStatusBar, QWidget

from .access import announce
from .plain_text import plain_tip

# QStatusBar's own margins around a message (qstatusbar.cpp, messageRect), and a little air before the "…"
_LEFT, _RIGHT, _GAP = 6, 12, 2


class ElidingStatusBar(QStatusBar):
    """``showMessage`` as QStatusBar's, the text shortened with "…" to the room it is drawn in."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = ""  # the message as given
        self._shown = ""  # as drawn: the whole message or its shortened form
        self._until: float | None = None  # when the message goes (monotonic), None: until replaced
        self._permanent: list[QWidget] = []
        self._showing = False  # within QStatusBar.showMessage
        self.messageChanged.connect(lambda message: message or self._uncut())

    # the permanent widgets, watched: their moves change the message's room
    def addPermanentWidget(self, widget: QWidget, stretch: int = 0) -> None:  # noqa: N802 - Qt's name
        super().addPermanentWidget(widget, stretch)
        self._permanent.append(widget)
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() in (QEvent.Type.Move, QEvent.Type.Resize, QEvent.Type.Show, QEvent.Type.Hide):
            self._fit()
        return super().eventFilter(watched, event)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit()

    def showMessage(self, text: str, timeout: int = 0) -> None:  # noqa: N802 - Qt's name
        self.show_quietly(text, timeout)
        if text:
            announce(self, text)

    def show_quietly(self, text: str, timeout: int = 0) -> None:
        """``showMessage`` without saying it to a screen reader."""
        self._full = self._shown = text
        self._until = time.monotonic() + timeout / 1000 if timeout > 0 else None
        # Not shortened while Qt says it: its listeners hide the server's label, whose Hide would fit the
        # message again within the emit, and the listeners after them got the shortened text.
        self._showing = True
        try:
            super().showMessage(text, timeout)
        finally:
            self._showing = False
        self._fit()

    def currentMessage(self) -> str:  # noqa: N802 - Qt's name
        shown = super().currentMessage()
        return self._full if shown and shown == self._shown else shown

    def _uncut(self) -> None:
        self.setToolTip("")
        self.setAccessibleDescription("")

    def message_room(self) -> int:
        """The width (px) a message is drawn in, as QStatusBar works it out."""
        left, right = _LEFT, self.width() - _RIGHT
        rtl = self.layoutDirection() == Qt.LayoutDirection.RightToLeft
        shown = [w for w in self._permanent if w.isVisible()]
        if shown:
            if rtl:
                left = max(left, max(w.x() + w.width() for w in shown) + _GAP)
            else:
                right = min(right, min(w.x() for w in shown) - _GAP)
        return max(0, right - left)

    def _fit(self) -> None:
        """Draw the message whole if it fits, else shortened with "…"; the timeout it was given runs on."""
        shown = super().currentMessage()
        if self._showing or not shown or shown != self._shown or not self.isVisible():
            return  # no message, or one Qt showed itself (an action's status tip): left as it is
        room = self.message_room()
        fitted = self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight, room - _GAP) \
            if room > 0 else self._full
        cut = fitted != self._full
        self.setToolTip(plain_tip(self._full) if cut else "")  # a link's address, a file's name: as written
        self.setAccessibleDescription(self._full if cut else "")
        if fitted == shown:
            return
        left = 0
        if self._until is not None:
            left = int((self._until - time.monotonic()) * 1000)
            if left <= 0:
                return  # about to go anyway
        self._shown = fitted
        # said once, whole: messageChanged carries what was given (the listeners read it), not each cut
        blocked = self.blockSignals(True)
        try:
            super().showMessage(fitted, left)
        finally:
            self.blockSignals(blocked)
