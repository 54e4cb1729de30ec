"""A blocking network call that Cancel does not have to wait for.

A blocking read cannot be interrupted: a server that takes its time (or a host that never answers a
connection) held Cancel up for the whole time-out, 30 seconds for a page, 120 for an embedding batch. The
call runs on a thread of its own instead, and the importing thread waits for it, looking at Cancel every
tenth of a second. On Cancel that thread is left to end by itself, within its time-out.
"""

from __future__ import annotations

import threading
from typing import Callable, TypeVar

from .errors import Cancelled

T = TypeVar("T")

POLL = 0.1  # seconds between two looks at Cancel while the call has not returned


def cancellable(call: Callable[[], T], cancelled: Callable[[], bool], name: str) -> T:
    """What ``call()`` returns (or raises); Cancelled as soon as ``cancelled()`` turns true before that.
    ``name`` names the thread (seen in a debugger or a crash's traceback)."""
    outcome: list[T | BaseException] = []
    done = threading.Event()

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as exc:  # handed to the waiting thread, which raises it
            outcome.append(exc)
        finally:
            done.set()

    threading.Thread(target=run, name=name, daemon=True).start()
    while not done.wait(POLL):
        if cancelled():
            raise Cancelled("the import was cancelled")
    [result] = outcome
    if isinstance(result, BaseException):
        raise result
    return result
