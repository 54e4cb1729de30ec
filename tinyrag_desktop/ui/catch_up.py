"""Catching up with what another program writes into the data folder while the window is open beside it:
``kb add`` into the knowledge base (the knowledge panel, kb_watch.py), an ``--ask`` run into the chat history
(the chats list, window_chats.py).

Each looks every CATCH_UP_EVERY_MS, only while what it lists is in sight, with one cheap question that says
whether the file changed (SQLite's data_version): nothing is read again when nothing changed. Coming back to
the window looks at once, as before; the timer is for a window left in sight beside a terminal, which is
never activated again and showed nothing new.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QWidget

# How often a list in sight is checked against its database. One PRAGMA when nothing changed: 4 µs.
CATCH_UP_EVERY_MS = 2000


def in_sight(widget: QWidget) -> bool:
    """Whether ``widget`` is shown in a window that is not minimized (a minimized window's widgets are still
    "visible" to Qt: each commit of another program was read again out of sight)."""
    return widget.isVisible() and not widget.window().isMinimized()


def catch_up_timer(owner: QObject, look: Callable[[], object]) -> QTimer:
    """A timer, not started, that calls ``look`` every CATCH_UP_EVERY_MS; ``look`` asks in_sight itself."""
    timer = QTimer(owner)
    timer.setInterval(CATCH_UP_EVERY_MS)
    timer.timeout.connect(look)
    return timer
