"""A job for a reader process that takes as long as a very long file: the reader is busy with it meanwhile.
In a module of its own, which the reader imports to unpickle it (test_reader_orphans.py)."""

from __future__ import annotations

import os
import time


class SlowRead:
    """Write ``started`` (the reader's pid), read for ``seconds``, then fail (it has no file): the reader
    process answers nothing meanwhile."""

    data = b""
    name = "slow.txt"

    def __init__(self, seconds: float, started: str) -> None:
        self.seconds = seconds
        self.started = started

    def run(self, cancelled=None):
        with open(self.started, "w") as f:
            f.write(str(os.getpid()))
        time.sleep(self.seconds)
        raise RuntimeError("read for as long as it was told")
