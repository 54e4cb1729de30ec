"""A shell command, and what it started in its process group, end soon after the app is killed (SIGKILL).

They ran on, re-parented to PID 1: the command had a session of its own, so nothing stopped it. Each test
runs real commands from a runner that is then killed."""

from __future__ import annotations

import asyncio
import sys

import pytest

from tests.orphans import Runner, command_of, wait_until
from tinyrag_desktop.tools.shell import run_command

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds processes in /proc")


def _runner(command: str) -> str:
    return ("import asyncio, tempfile\n"
            "from pathlib import Path\n"
            "from tinyrag_desktop.tools.shell import run_command\n"
            f"asyncio.run(run_command({command!r}, Path(tempfile.mkdtemp()), 600.0))\n")


def _sleeps(pids: list[int]) -> list[int]:
    return [pid for pid in pids if command_of(pid)[:1] == ["sleep"]]


@pytest.mark.parametrize("command, sleeps", [
    ("sleep 300", 1),  # run without a shell
    ("sleep 301 & sleep 302; echo done", 2),  # a shell, its command, and a grandchild in the background
])
def test_commands_end_with_their_killed_parent(command, sleeps):
    with Runner(_runner(command)) as runner:
        started = runner.wait_for_children(lambda pids: len(_sleeps(pids)) == sleeps, "the commands to start")
        runner.kill()
        assert runner.survivors() == [], f"of {started}, these outlived their parent"


def test_nothing_is_left_after_a_command(tmp_path):
    """The guard's watchdog leaves once the command has ended: its process group is empty."""
    done = asyncio.run(run_command("sh -c 'echo $$'", tmp_path, 30.0))
    group = int(done.stdout)
    wait_until(lambda: not _group_members(group), timeout=10, what=f"process group {group} to be empty")


def _group_members(group: int) -> list[int]:
    from tests.orphans import _stat, all_pids

    return [pid for pid in all_pids() if (fields := _stat(pid)) and int(fields[2]) == group
            and fields[0] not in "ZX"]
