"""The qasync event loop, completed with what asyncio's own loop does for async generators.

asyncio's ``run_forever`` installs hooks so that an async generator left unfinished (an HTTP stream that
stopped at an error) is closed by a task on the loop. qasync runs Qt's loop instead and installs none, so
such a generator was closed by the garbage collector outside any task: httpx's connection code then
printed "async generator ignored GeneratorExit" and anyio's "exit cancel scope in a different task"
tracebacks on the console after every answer that ended in a server error.

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

from PySide6.QtCore import QSocketNotifier, QTimer


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
