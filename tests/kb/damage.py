"""A knowledge base damaged as disks and programs damage one, for the tests of what the CLI and the window say."""

from __future__ import annotations

import os
from pathlib import Path

HOW = ["garbage", "pages"]


def damage(db: Path, how: str) -> None:
    """``garbage``: another file saved under its name; ``pages``: pages in the middle overwritten, its
    header intact."""
    if how == "garbage":
        db.write_bytes(os.urandom(64 * 1024))
    else:
        with open(db, "r+b") as f:
            f.seek(3 * 4096)
            f.write(os.urandom(6 * 4096))
