"""The qasync event loop, completed with what asyncio's own loop does for async generators.

asyncio's ``run_forever`` installs hooks so that an async generator left unfinished (an HTTP stream that
stopped at an error) is closed by a task on the loop. qasync runs Qt's loop instead and installs none, so
such a generator was closed by the garbage collector outside any task: httpx's connection code then
printed "async generator ignored GeneratorExit" and anyio's "exit cancel scope in a different task"
tracebacks on the console after every answer that ended in a server error.

:class:`TidyEventLoop` stops a cancelled callback's Qt timer at once. qasync left it running until its time
came: httpx sets a read timeout around every network read and cancels it when the read is done, so a
streamed answer left one Qt timer (with its callback's task and closures) per network piece for the
length of the timeout: 776 of them after ten short answers, each kept alive for up to two minutes.

A callback Qt runs outside the loop's run finds the loop running, as asyncio's own callbacks always do.
qasync's ``run_until_complete`` has Qt process its events one last time after ``run_forever`` has unset
the running loop, and a task step that came due then (an answer's, when the run waited for something
else) could not start a task: "no running event loop", the answer ended in an error, and its unawaited
coroutine was reported in the next test. ``processEvents`` and a modal dialog's ``exec`` outside the run
(tests between two runs, the start-up error box) ran callbacks the same way.

It also lets Python's signal handlers run: Qt's loop waits in C++, where Python never looks at the signals
that arrived, so Ctrl+C in the terminal did nothing and ``kill`` ended the window without saving it.
"""

from __future__ import annotations

import asyncio
import signal
import socket
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import qasync
from PySide6.QtCore import QObject, QSocketNotifier, QTimer, QTimerEvent


class _Timers(QObject):
    """The loop's timed callbacks, one Qt timer each, as qasync's _SimpleTimer keeps them, but a callback
    cancelled is forgotten, and its timer stopped, at once."""

    def __init__(self) -> None:
        super().__init__()
        self._handles: dict[int, asyncio.Handle] = {}
        self._stopped = False

    def start(self, handle: asyncio.Handle, delay: float) -> int:
        timer_id = self.startTimer(int(max(0.0, delay) * 1000))
        self._handles[timer_id] = handle
        return timer_id

    def forget(self, timer_id: int) -> None:
        if self._handles.pop(timer_id, None) is not None:
            self.killTimer(timer_id)

    def timerEvent(self, event: QTimerEvent) -> None:  # noqa: N802 - Qt's name
        timer_id = event.timerId()
        self.killTimer(timer_id)
        handle = self._handles.pop(timer_id, None)
        if handle is not None and not self._stopped and not handle.cancelled():
            _run_as_running(handle)

    def stop(self) -> None:
        """The loop is closing: no callback runs any more (as qasync's timer does)."""
        self._stopped = True

    def set_debug(self, enabled: bool) -> None:
        pass  # qasync's timer logs each callback in debug mode; asyncio's own debug checks still run


def _run_as_running(handle: asyncio.Handle) -> None:
    """Run ``handle`` with its loop as the thread's running loop, as it is inside ``run_forever``; Qt also
    fires the loop's timers where it processes events outside the run (see the module's docstring)."""
    if asyncio.events._get_running_loop() is not None:  # inside the run, or a nested Qt loop within it
        handle._run()
        return
    asyncio.events._set_running_loop(handle._loop)
    try:
        handle._run()
    finally:
        asyncio.events._set_running_loop(None)


class _Handle(asyncio.Handle):
    __slots__ = ("_timers", "_timer_id")

    def cancel(self) -> None:
        if not self.cancelled():
            super().cancel()  # also lets go of the callback and its arguments
            self._timers.forget(self._timer_id)


class TidyEventLoop(qasync.QEventLoop):
    """qasync's loop, whose cancelled timed callbacks let go of their Qt timers at once, and whose callbacks
    find the loop running wherever Qt runs them (see above)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._timer = _Timers()

    def call_later(self, delay, callback, *args, context=None):  # noqa: ANN001 - asyncio's signature
        if not callable(callback) or asyncio.iscoroutinefunction(callback):
            raise TypeError(f"a callback must be a plain callable, not {type(callback).__name__}")
        handle = _Handle(callback, args, self, context=context)
        handle._timers = self._timer
        handle._timer_id = self._timer.start(handle, delay)
        return handle


@contextmanager
def asyncgen_hooks(loop: asyncio.AbstractEventLoop) -> Iterator[None]:
    """While the block runs, unfinished async generators are closed by tasks on ``loop``, as asyncio does."""
    before = sys.get_asyncgen_hooks()
    firstiter = getattr(loop, "_asyncgen_firstiter_hook", None)  # asyncio.BaseEventLoop's own hooks
    finalizer = getattr(loop, "_asyncgen_finalizer_hook", None)
    if firstiter is None or finalizer is None:
        yield
        return
    sys.set_asyncgen_hooks(firstiter=firstiter, finalizer=finalizer)
    try:
        yield
    finally:
        try:
            if not loop.is_closed():
                loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            sys.set_asyncgen_hooks(*before)


@contextmanager
def signals_noted(signals: tuple[str, ...] = ("SIGINT", "SIGTERM")) -> Iterator[list[int]]:
    """While the block runs, Ctrl+C (SIGINT) and SIGTERM are noted in the list it yields instead of acting.

    The window is built in this block: a KeyboardInterrupt raised inside Qt's calls left a half-built
    window, the data folder claimed, and now and then a crash on the way out (a busy machine takes seconds
    to get there). The caller acts on what was noted once the window can close as its Quit does.
    """
    noted: list[int] = []
    wanted = [getattr(signal, name) for name in signals if hasattr(signal, name)]
    try:
        before = {sig: signal.signal(sig, lambda sig, _frame: noted.append(sig)) for sig in wanted}
    except ValueError:  # not the main thread: Python delivers signals there only
        yield noted
        return
    try:
        yield noted
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


@contextmanager
def on_signals(action: Callable[[], None], signals: tuple[str, ...] = ("SIGINT", "SIGTERM")) -> Iterator[None]:
    """While the block runs, Ctrl+C (SIGINT) and SIGTERM (``kill``, a session ending) call ``action`` on
    the GUI thread. Python writes each signal's number to a socket it is given (set_wakeup_fd); a Qt socket
    notifier on the other end wakes the loop, and Python then runs the handler."""
    wanted = [getattr(signal, name) for name in signals if hasattr(signal, name)]
    reader, writer = socket.socketpair()
    reader.setblocking(False)
    writer.setblocking(False)
    try:
        before_fd = signal.set_wakeup_fd(writer.fileno())
    except ValueError:  # not the main thread: Python delivers signals there only
        reader.close()
        writer.close()
        yield
        return
    notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read)

    def drain() -> None:
        try:
            reader.recv(512)
        except OSError:
            pass

    notifier.activated.connect(drain)
    before = {sig: signal.signal(sig, lambda _sig, _frame: QTimer.singleShot(0, action)) for sig in wanted}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
        signal.set_wakeup_fd(before_fd)
        notifier.setEnabled(False)
        notifier.deleteLater()
        reader.close()
        writer.close()
