"""Reading what a program wrote to a pseudo-terminal (the tests of `ask` on a terminal)."""

from __future__ import annotations

import os


def read_to_end(master: int) -> bytes:
    """All a pseudo-terminal's other side wrote, once that side is closed; ``master`` is closed after."""
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the other side is closed and all of it read
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    return b"".join(chunks)
