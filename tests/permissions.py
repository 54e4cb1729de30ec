"""Running a command so that file permissions hold, for tests of read-only files and folders."""

from __future__ import annotations

import os
import shutil

import pytest


def as_a_user(cmd: list[str]) -> list[str]:
    """``cmd`` run so that file permissions hold: root (who runs CI) ignores them, so it runs as nobody."""
    if os.geteuid() != 0:
        return cmd
    if not shutil.which("setpriv"):
        pytest.skip("runs as root without setpriv: a read-only file would not stop it")
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
