"""Test helper: a process that starts children (a runner), killed with SIGKILL; are its children gone after it?

Linux only: processes are found in /proc. ``Runner(code)`` runs ``code`` in a new Python (this checkout on its
path); ``descendants()`` lists what it started; ``kill()`` sends SIGKILL; ``wait_gone(pids)`` waits for them
to end (a generous deadline, not a speed check). Whatever is still running at the end is killed, so that a
failing test leaves no process burning a processor.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GONE_WITHIN = 10.0  # seconds: the children end within about one; this only bounds a failing test


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name: [state, ppid, pgrp, …]; None when it has gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return raw[raw.rindex(")") + 2:].split()


def alive(pid: int, started: str | None = None) -> bool:
    """Whether ``pid`` runs (a zombie has ended); with ``started``, still the same process (not a reused pid)."""
    fields = _stat(pid)
    if fields is None or fields[0] in ("Z", "X"):
        return False
    return started is None or fields[19] == started


def start_time(pid: int) -> str | None:
    fields = _stat(pid)
    return fields[19] if fields else None


def command_of(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode("utf-8", "replace").split("\0")[:-1]
    except OSError:
        return []


def all_pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def wait_until(predicate, timeout: float = 30.0, what: str = "the condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


class Runner:
    """``code`` run by a new Python, to be killed; the processes it started are found by ancestry and by
    process group (a child in a session of its own keeps its group when its parent dies)."""

    def __init__(self, code: str, cwd: Path | None = None) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
        # a session of its own: its group, and so the groups of the children it leaves in it, are not this one's
        self.proc = subprocess.Popen([sys.executable, "-c", code], env=env, cwd=cwd or ROOT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        self.seen: dict[int, str] = {}  # every descendant seen, with its start time

    def descendants(self) -> list[int]:
        """Processes below the runner now (while it lives: ancestry), and those of groups seen before."""
        parents = {pid: fields for pid in all_pids() if (fields := _stat(pid)) is not None}
        found: set[int] = set()
        frontier = {self.proc.pid}
        while frontier:
            children = {pid for pid, f in parents.items() if int(f[1]) in frontier and pid not in found}
            found |= children
            frontier = children
        groups = {int(parents[pid][2]) for pid in found}
        for pid, started in self.seen.items():
            fields = _stat(pid)
            if fields is not None and fields[19] == started:
                groups.add(int(fields[2]))
        found |= {pid for pid, f in parents.items() if int(f[2]) in groups and f[0] not in "ZX"}
        found -= {self.proc.pid, os.getpid()}
        for pid in found:
            if alive(pid):
                self.seen.setdefault(pid, start_time(pid) or "")
        return sorted(pid for pid in found if alive(pid))

    def wait_for_children(self, check, what: str) -> list[int]:
        """Wait until ``check(pids)`` holds for the runner's descendants; returns them."""
        def ready():
            if self.proc.poll() is not None:
                raise AssertionError(f"the runner ended ({self.proc.returncode}) before {what}")
            pids = self.descendants()
            return pids if check(pids) else None
        return wait_until(ready, what=what)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def survivors(self, timeout: float = GONE_WITHIN) -> list[int]:
        """The runner's descendants still running after ``timeout`` seconds (an empty list once all are gone)."""
        deadline = time.monotonic() + timeout
        while True:
            left = [pid for pid, started in self.seen.items() if alive(pid, started)]
            if not left or time.monotonic() > deadline:
                return left
            time.sleep(0.05)

    def close(self) -> None:
        """Kill the runner and whatever it left (after a failed test)."""
        if self.proc.poll() is None:
            self.kill()
        for pid, started in self.seen.items():
            if alive(pid, started):
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass

    def __enter__(self) -> "Runner":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
