"""Stalls: the longest the GUI thread goes without running a 2 ms timer (bench_history, bench_open)."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, QTimer


class Stalls:
    """The longest the GUI thread goes without running a 2 ms timer while this is entered (seconds): the
    longest the window could not answer a click or a key. (One turn of the asyncio loop can run several of
    Qt's events, with input handled between them, so the length of a turn would overstate it.)"""

    def __init__(self) -> None:
        self.longest = 0.0
        self._last = 0.0
        self._timer = QTimer()
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(2)
        self._timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        self.longest, self._last = max(self.longest, now - self._last), now

    def __enter__(self) -> "Stalls":
        self._timer.start()
        self._last = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self._tick()  # a stall that lasted to the end counts too
        self._timer.stop()
