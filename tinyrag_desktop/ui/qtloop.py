"""The qasync event loop, completed with what asyncio's own loop does for async generators.

asyncio's ``run_forever`` installs hooks so that an async generator left unfinished (an HTTP stream that
stopped at an error) is closed by a task on the loop. qasync runs Qt's loop instead and installs none, so
such a generator was closed by the garbage collector outside any task: httpx's connection code then
printed "async generator ignored GeneratorExit" and anyio's "exit cancel scope in a different task"
tracebacks on the console after every answer that ended in a server error.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from contextlib import contextmanager


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
