"""Running a command so that file permissions hold, for tests of read-only files and folders."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
_NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


def as_a_user(cmd: list[str]) -> list[str]:
    """``cmd`` run so that file permissions hold: root (who runs CI) ignores them, so it runs as nobody.

    Skips the test when nobody cannot run the app from this checkout (a clone in a folder only root may
    read, as ``mktemp -d`` makes): the test would only show that, not what it is about."""
    if os.geteuid() != 0:
        return cmd
    if not shutil.which("setpriv"):
        pytest.skip("runs as root without setpriv: a read-only file would not stop it")
    if not _nobody_can_import():
        pytest.skip(f"the user nobody cannot read this checkout ({REPO}) to run the app")
    return [*_NOBODY, *cmd]


@functools.cache
def _nobody_can_import() -> bool:
    env = {**os.environ, "PYTHONPATH": str(REPO), "HOME": "/tmp"}
    probe = subprocess.run([*_NOBODY, sys.executable, "-c", "import tinyrag_desktop"], env=env, cwd="/",
                           capture_output=True, timeout=60)
    return probe.returncode == 0


def owned_by_the_user(top: Path) -> None:
    """``top`` and all below it given to the user as_a_user runs commands as (nobody, when this is root)."""
    if os.geteuid() == 0:
        for path in (top, *top.rglob("*")):
            shutil.chown(path, 65534, 65534)
