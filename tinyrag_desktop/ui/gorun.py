"""Run buttons on an answer's ```go blocks: each run is an asyncio task around the nanoGo sandbox.

The sandbox runs the program in a child process (``run_sandboxed_async``), so the window never waits on it;
cancelling a task kills its child at once. A :class:`GoRuns` belongs to one text segment and keys its runs
by the block's number in that segment, so a re-render of the streaming segment keeps them; the segment, its
answer, the chat view and the window all cancel their runs when they go away.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .markdown_render import GO_LANGS, RunView

log = logging.getLogger(__name__)

__all__ = ["GO_LANGS", "GoRuns", "RunLimits", "describe", "run_limits"]

DEFAULT_TIMEOUT = 30.0
DEFAULT_MEMORY_MB = 512
MAX_OUTPUT = 65536  # bytes of a program's output shown under its block
LIVE_EVERY = 0.5  # seconds between looks at what a running program has printed


@dataclass(frozen=True, slots=True)
class RunLimits:
    """What a run from the window may use: the same limits the ``nanogo`` tool gets from the settings."""

    timeout: float = DEFAULT_TIMEOUT
    memory_mb: int = DEFAULT_MEMORY_MB


def run_limits(settings: Mapping[str, Any] | None) -> RunLimits | None:
    """The limits to run with, or None when the settings do not allow running Go (``allow_nanogo`` off)."""
    if settings is None or not settings.get("allow_nanogo"):
        return None
    try:
        timeout = float(settings.get("tool_timeout", DEFAULT_TIMEOUT))
    except (TypeError, ValueError):
        timeout = DEFAULT_TIMEOUT
    try:
        memory = int(settings.get("nanogo_memory_mb", DEFAULT_MEMORY_MB))
    except (TypeError, ValueError):
        memory = DEFAULT_MEMORY_MB
    return RunLimits(max(0.5, timeout), max(16, memory))


def describe(result: Any) -> tuple[str, str]:
    """A sandbox RunResult as (status in words, error text shown after the output)."""
    err = str(result.stderr or "")
    status = str(result.status)
    if status == "ok":
        return f"exit {result.exit_code}", err
    if status == "compile_error":
        return "compile error", err
    if status == "panic":
        err = err.split("\n\ngoroutine ")[0]  # the trace names interpreter frames, not the user's code
        if "all goroutines are asleep" in err:
            return "deadlock", err
        if "stack overflow" in err or "stack exceeds" in err:
            return "stack overflow", err
        return ("panic" if err.startswith("panic") else "runtime error"), err
    lowered = err.lower()
    for words, limit in (("cpu time", "CPU time limit"), ("time limit", "time limit"),
                         ("memory limit", "memory limit"), ("output limit", "output limit")):
        if words in lowered:
            return f"stopped: {limit}", err
    return "stopped", err


@dataclass(slots=True)
class _Run:
    source: str
    task: asyncio.Task[None] | None = None
    view: RunView = field(default_factory=lambda: RunView(""))
    printed: bytearray = field(default_factory=bytearray)  # its standard output so far, shown after a Stop


class GoRuns:
    """The runs of one segment's Go blocks, by block number; ``changed`` is called when a view changes."""

    def __init__(self, changed: Callable[[int], None]) -> None:
        self._changed = changed
        self._runs: dict[int, _Run] = {}

    def views(self) -> dict[int, RunView]:
        return {index: run.view for index, run in self._runs.items()}

    def running(self) -> bool:
        return any(run.view.running for run in self._runs.values())

    def start(self, index: int, source: str, limits: RunLimits) -> asyncio.Task[None]:
        """Run ``source`` (block ``index``); a run of the same block still going is stopped first."""
        self.stop(index, quiet=True)
        run = _Run(source, view=RunView(source, running=True))
        self._runs[index] = run
        run.task = asyncio.ensure_future(self._run(index, run, limits))
        self._changed(index)
        return run.task

    def stop(self, index: int, quiet: bool = False) -> bool:
        """Stop block ``index``'s run; its box then says "stopped". False when nothing was running."""
        run = self._runs.get(index)
        if run is None or run.task is None or run.task.done():
            return False
        run.task.cancel()
        # what it printed until now stays (the box was emptied: a long program's output was lost to Stop)
        printed = bytes(run.printed[:MAX_OUTPUT]).decode("utf-8", "replace")
        run.view = RunView(run.source, status="stopped", output=printed, error="Stopped before it finished.")
        if not quiet:
            self._changed(index)
        return True

    def cancel_all(self) -> list[asyncio.Task[None]]:
        """Cancel every run still going (the segment is closing); the tasks, for callers that await them."""
        tasks = [run.task for run in self._runs.values() if run.task is not None and not run.task.done()]
        for task in tasks:
            task.cancel()
        self._changed = lambda _index: None  # the segment may be gone: nothing to re-render any more
        return tasks

    async def _show_printed(self, index: int, run: _Run) -> None:
        """While ``run`` goes on, show what it has printed, every LIVE_EVERY seconds when it printed more (a
        long program showed "Running…" alone until it ended)."""
        shown = 0
        while True:
            await asyncio.sleep(LIVE_EVERY)
            if len(run.printed) != shown and self._runs.get(index) is run and run.view.running:
                shown = len(run.printed)
                printed = bytes(run.printed[:MAX_OUTPUT]).decode("utf-8", "replace")
                run.view = RunView(run.source, running=True, output=printed)
                self._changed(index)

    async def _run(self, index: int, run: _Run, limits: RunLimits) -> None:
        live = asyncio.ensure_future(self._show_printed(index, run))
        try:
            await self._run_it(index, run, limits)
        finally:
            live.cancel()

    async def _run_it(self, index: int, run: _Run, limits: RunLimits) -> None:
        from ..tools.nanogo import run_sandboxed, run_sandboxed_async  # lazy: loaded at the first Run

        try:
            try:
                result = await run_sandboxed_async(run.source, timeout=limits.timeout, memory_mb=limits.memory_mb,
                                                   max_output=MAX_OUTPUT, output=run.printed)
            except NotImplementedError:
                # An event loop without subprocess support: the blocking runner in a thread still keeps the
                # window responsive; a Stop then only takes effect when its own time limit kills the child.
                result = await asyncio.to_thread(run_sandboxed, run.source, timeout=limits.timeout,
                                                 memory_mb=limits.memory_mb)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # e.g. the worker could not start: say so under the block
            log.exception("nanoGo run from the window failed")
            view = RunView(run.source, status="could not run", error=f"The sandbox did not start: {exc}")
        else:
            status, error = describe(result)
            view = RunView(run.source, status=status, output=result.stdout, error=error)
        if self._runs.get(index) is run:
            run.view = view
            self._changed(index)
