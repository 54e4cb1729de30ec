"""The bundle smoke test's own helpers (packaging/smoke_test.py), which otherwise run only against a built
bundle, in CI after the build: finding what a killed app had started, and knowing the guard by its flag."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.orphans import wait_until

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not sys.platform.startswith(("linux", "darwin")), reason="processes of a POSIX system")


def _smoke_test():
    spec = importlib.util.spec_from_file_location("smoke_test", ROOT / "packaging" / "smoke_test.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_descendants_finds_a_grandchild_below_a_program_with_parentheses_in_its_name(tmp_path: Path) -> None:
    smoke = _smoke_test()
    # /proc/PID/stat writes the program's name in parentheses: one that holds ") " must not shift the fields
    odd = tmp_path / "odd (name) x"
    odd.symlink_to("/bin/sh")
    parent = subprocess.Popen([str(odd), "-c", "(sleep 123; true) & wait"], start_new_session=True)

    def grandchild() -> tuple[int, int, dict[int, str]] | None:
        """(the sleep, its parent, all found below the shell) once the sleep runs."""
        table, below = smoke._processes(), smoke._descendants(parent.pid)
        for pid, args in below.items():
            if args == "sleep 123" and pid in table:
                return pid, table[pid][0], below
        return None

    try:
        sleeper, subshell, below = wait_until(grandchild, what="the sleep below the shell's subshell")
        own_ppid = smoke._processes()[parent.pid][0]
    finally:
        os.killpg(parent.pid, signal.SIGKILL)
        parent.wait()
    assert subshell != parent.pid and subshell in below  # two levels down, and the level between found too
    assert parent.pid not in below and own_ppid == os.getpid()  # the fields after the odd name read right


def test_the_guard_is_known_by_its_flag_whatever_path_started_it() -> None:
    smoke = _smoke_test()
    # the app starts itself by its real path, not by the launcher's link it was started through
    real = "/home/ann/.local/lib/tinyrag-desktop/tinyrag-desktop --child-guard /bin/sh -c sleep 300 & sleep 301"
    assert smoke._started_as(real, "--child-guard")
    assert smoke._started_as("/Apps/tiny rag/tinyrag-desktop --nanogo-worker", "--nanogo-worker")
    assert not smoke._started_as("/bin/sh -c echo --child-guarded", "--child-guard")
