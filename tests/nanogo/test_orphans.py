"""A nanoGo worker ends soon after the app that started it is killed (SIGKILL), not at its CPU limit.

It ran on, re-parented to PID 1, burning a processor until its CPU limit (the tool timeout, up to ten
minutes). Each test starts a real runner that runs ``for {}`` and kills it with SIGKILL."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from tests.orphans import Runner

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds processes in /proc")

LOOP = "package main\\n\\nfunc main() {\\n\\tfor {\\n\\t}\\n}\\n"

# The ways the app runs a Go program: the tool and the window's Run link (asyncio, from the event loop's
# thread), the window's fallback (the blocking runner in a worker thread), and `tinyrag nanogo` (blocking,
# in the main thread). A 120 s limit: the old worker outlived the runner by that much.
RUNNERS = {
    "async": "import asyncio\n"
             "from tinyrag_desktop.tools.nanogo import run_sandboxed_async\n"
             f"asyncio.run(run_sandboxed_async('{LOOP}', timeout=120))\n",
    "thread": "import threading\n"
              "from tinyrag_desktop.tools.nanogo import run_sandboxed\n"
              f"t = threading.Thread(target=run_sandboxed, args=('{LOOP}',), kwargs=dict(timeout=120))\n"
              "t.start(); t.join()\n",
    "main": "from tinyrag_desktop.tools.nanogo import run_sandboxed\n"
            f"run_sandboxed('{LOOP}', timeout=120)\n",
}


def _busy_worker(runner: Runner) -> list[int]:
    """The worker, once it runs the loop (it has used some CPU time past its start)."""
    def running(pids: list[int]) -> bool:
        return len(pids) == 1 and _cpu_ticks(pids[0]) > 50  # half a second of CPU: well into `for {}`
    return runner.wait_for_children(running, "the worker to run the loop")


def _cpu_ticks(pid: int) -> int:
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    fields = raw[raw.rindex(")") + 2:].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


@pytest.mark.parametrize("how", sorted(RUNNERS))
def test_worker_ends_with_its_killed_parent(how):
    with Runner(RUNNERS[how]) as runner:
        worker = _busy_worker(runner)
        runner.kill()
        assert runner.survivors() == [], f"the worker {worker} outlived its parent"


@pytest.mark.parametrize("how", ["async", "main"])
def test_a_stopped_worker_ends_too(how):
    """Started from the main thread, the worker asks the kernel to kill it with its parent (PR_SET_PDEATHSIG):
    it ends even when none of its threads can run, here stopped (SIGSTOP) before the runner is killed."""
    with Runner(RUNNERS[how]) as runner:
        worker = _busy_worker(runner)[0]
        os.kill(worker, signal.SIGSTOP)
        runner.kill()
        assert runner.survivors() == [], f"the stopped worker {worker} outlived its parent"
