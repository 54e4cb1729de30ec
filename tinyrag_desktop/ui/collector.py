"""Python's cycle collector, run in the GUI thread only, so Qt objects in cycles die where they live.

Python collects reference cycles in whichever thread happens to allocate when a threshold is crossed: an
HTTP thread, a ``to_thread`` worker, the knowledge-base import. When the garbage holds a QObject that owns
a Python wrapper (an old event loop's timers, a dialog left in a cycle), its C++ destructor then runs in
that thread. Qt cannot stop a timer from another thread ("QObject::~QObject: Timers cannot be stopped from
another thread"), leaves it registered, and the GUI thread later fires it at freed memory: a crash, at
random, long after the cause. This was seen in the window tests, one run in two.

So the automatic collector is switched off and a GUI-thread timer runs the same generational collections
when their thresholds are due. Reference counting, which frees nearly everything, is unchanged.

What exists when the app's loop starts (the modules, Qt's types, the window) lives as long as the app, and
is frozen out of the collector's sight (``gc.freeze``): a full collection walked it every time, 60 to 75 ms
with a long chat open (the wrappers of Qt objects are slow to walk), a stall of the window; the objects
made afterwards take it 10 to 15 ms. A cycle among the frozen objects that becomes garbage later stays
until the block ends (the app's loop: when it quits).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QObject, QTimer

TICK_MS = 250  # how often the GUI thread looks at the allocation counts
# How often while nothing is allocated: a window left open woke 4 times a second, for nothing.
IDLE_TICK_MS = 2000


def collect_due() -> int:
    """Collect the oldest generation whose threshold is crossed, as the automatic collector would."""
    counts, thresholds = gc.get_count(), gc.get_threshold()
    for generation in (2, 1, 0):
        if thresholds[generation] and counts[generation] > thresholds[generation]:
            return gc.collect(generation)
    return 0


@contextmanager
def gui_thread_gc(parent: QObject) -> Iterator[QTimer]:
    """While the block runs, only the thread of ``parent`` (the GUI thread) collects cycles."""
    was_enabled = gc.isenabled()
    timer = QTimer(parent)
    timer.setInterval(TICK_MS)
    last = gc.get_count()

    def tick() -> None:
        nonlocal last
        quiet = gc.get_count() == last  # nothing allocated or freed since the last look
        collect_due()
        last = gc.get_count()
        timer.setInterval(IDLE_TICK_MS if quiet else TICK_MS)

    timer.timeout.connect(tick)
    gc.disable()
    gc.freeze()
    timer.start()
    try:
        yield timer
    finally:
        timer.stop()
        timer.deleteLater()
        gc.unfreeze()
        gc.collect()
        if was_enabled:
            gc.enable()
