"""Cycles holding Qt objects are destroyed in the GUI thread, never in the worker that allocated last."""

from __future__ import annotations

import gc
import threading

from PySide6.QtCore import QObject, Qt, QTimer

from tinyrag_desktop.ui.collector import IDLE_TICK_MS, TICK_MS, collect_due, gui_thread_gc


class _Cycle:
    pass


def _garbage_holding(destroyed_in: list[str], running_timer: bool) -> None:
    """Leave behind a reference cycle that owns a QObject (with a running timer: an old event loop's kind)."""
    cycle = _Cycle()
    cycle.me = cycle
    cycle.obj = QObject()
    if running_timer:
        QTimer(cycle.obj).start(60_000)
    cycle.obj.destroyed.connect(lambda: destroyed_in.append(threading.current_thread().name),
                                Qt.ConnectionType.DirectConnection)


def _churn_in_a_worker() -> None:
    """Allocate cyclic garbage in another thread, enough to cross every generation's threshold."""
    def churn():
        for _ in range(200_000):
            item: list = []
            item.append(item)

    worker = threading.Thread(target=churn, name="worker")
    worker.start()
    worker.join()


def test_without_it_a_worker_thread_destroys_the_qt_object():
    destroyed_in: list[str] = []
    gc.collect()  # other tests' garbage may hold Qt timers: it must not reach the worker
    gc.enable()
    try:
        _garbage_holding(destroyed_in, running_timer=False)  # a timer dying in a worker would crash the run
        _churn_in_a_worker()
    finally:
        gc.disable()
    assert destroyed_in == ["worker"]


def test_with_it_the_gui_thread_destroys_it_on_its_next_tick(qtbot):
    destroyed_in: list[str] = []
    gc.collect()
    gc.enable()  # the suite runs with the collector off; start as a plain interpreter does
    try:
        with gui_thread_gc(QObject()) as timer:
            assert not gc.isenabled() and timer.isActive()
            _garbage_holding(destroyed_in, running_timer=True)
            _churn_in_a_worker()
            assert destroyed_in == []
            qtbot.waitUntil(lambda: destroyed_in == ["MainThread"], timeout=5000)
        assert gc.isenabled()
    finally:
        gc.disable()


def test_collect_due_collects_only_past_a_threshold():
    gc.collect()
    assert collect_due() == 0
    generation0 = gc.get_threshold()[0]
    for _ in range(generation0 + 10):
        item: list = []
        item.append(item)
    assert collect_due() >= generation0


def test_an_idle_window_is_woken_less_often_until_something_is_allocated(qapp):
    # Looking 4 times a second was the only thing that woke a window left open; it slows down while
    # nothing is allocated and speeds up again at the first allocation.
    with gui_thread_gc(QObject()) as timer:
        assert timer.interval() == TICK_MS
        timer.timeout.emit()  # a first look, after the set-up's own allocations
        timer.timeout.emit()
        assert timer.interval() == IDLE_TICK_MS
        kept = [[] for _ in range(100)]
        timer.timeout.emit()
        assert timer.interval() == TICK_MS and kept


def test_what_exists_when_it_starts_is_left_out_of_collections_until_it_ends(qapp):
    # A full collection walked every object of the app, the window's Qt wrappers among them: 60 to 75 ms
    # with a long chat open. What exists when the loop starts is frozen; a collection walks the rest.
    gc.collect()
    held = [[] for _ in range(20_000)]  # stands in for what start-up made
    walked: list[int] = []

    def count(phase: str, info: dict) -> None:
        if phase == "start" and info["generation"] == 2:
            walked.append(len(gc.get_objects()))

    gc.callbacks.append(count)
    try:
        with gui_thread_gc(QObject()):
            frozen = gc.get_freeze_count()
            assert frozen >= len(held)
            made = [[] for _ in range(100)]
            assert gc.get_freeze_count() == frozen  # what came after is not frozen
            gc.collect()
            cycle: list = []
            cycle.append(cycle)  # garbage made after the start is still collected
            alive = [weakref_to(cycle)]
            del cycle
            gc.collect()
            assert alive[0]() is None
        assert gc.get_freeze_count() == 0  # thawed at the end: nothing stays out of reach
        assert walked and walked[0] < len(held)  # the frozen objects were not walked
        assert held and made
    finally:
        gc.callbacks.remove(count)


class _Weak:
    pass


def weakref_to(cycle: list):
    """A weak reference that dies with ``cycle`` (lists cannot be weakly referenced: a member can)."""
    import weakref

    member = _Weak()
    cycle.append(member)
    return weakref.ref(member)
