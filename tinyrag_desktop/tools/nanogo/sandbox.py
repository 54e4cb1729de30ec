"""The parent side of the sandbox: start the worker process, enforce wall time and memory, collect results."""

from __future__ import annotations

import functools
import math
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Callable

from ...crash_codes import crash_words
from ...lifeline import child_options
from ...winjob import adopted
from .errors import SandboxError
from .memory import resident_mb as _rss_mb

# Set by a frozen build (PyInstaller): the worker is the app's own executable with this flag first.
WORKER_FLAG = "--nanogo-worker"
_STATUS = {0: "ok", 1: "panic", 2: "compile_error", 3: "limit"}
_OVER_MEMORY = 4  # the worker's exit status when it saw itself over its memory cap (worker.EXIT_MEMORY)
_POLL = 0.02
_STACK_OVERFLOW = 0xC00000FD  # a Windows process's exit status when its stack overflowed (see crash_codes)
_OVERFLOWED = "runtime: goroutine stack exceeds 1000000000-byte limit\nfatal error: stack overflow\n"


@dataclass(frozen=True)
class RunResult:
    """What a sandboxed run produced. ``exit_code`` follows the CLI: 0 ok, 1 panic or limit, 2 compile error."""

    stdout: str
    stderr: str
    exit_code: int
    status: str  # "ok" | "compile_error" | "panic" | "limit" ("stopped" in Interrupted's result)


class Interrupted(KeyboardInterrupt):
    """Ctrl+C during :func:`run_sandboxed`: the worker was killed; ``result`` holds what the program printed
    until then (status "stopped", exit code 130). A KeyboardInterrupt, so callers that stop on one still do."""

    def __init__(self, result: RunResult) -> None:
        super().__init__()
        self.result = result


# What a limit message ends with: where the limit is set, in the window and on the command line.
RAISE_TIMEOUT = "raise 'Tool timeout' in Settings or pass --tool-timeout SECONDS"
RAISE_MEMORY = "raise 'nanoGo memory (MB)' in Settings, or nanogo_memory_mb in settings.json"


def cpu_limit(timeout: float) -> int:
    """The worker's CPU time limit, in whole seconds, for a wall-clock ``timeout``: a second more than it. A
    busy program uses its CPU time as fast as the wall clock runs, and with the same limit the two raced:
    the same program was stopped at "time limit" one run and at "CPU time limit" the next. The wall clock,
    watched here, now ends it first. (A worker whose parent has gone ends at once: see lifeline.py.)"""
    return max(1, math.ceil(timeout)) + 1


def worker_command(max_output: int, memory_mb: int, cpu_seconds: float) -> list[str]:
    """The worker's command line; ``cpu_seconds`` is its CPU time limit (see :func:`cpu_limit`)."""
    if getattr(sys, "frozen", False):
        cmd = [sys.executable, WORKER_FLAG]
    else:
        # -S: without the site module, which runs every .pth file of the environment (an editable
        # install's import hook among them: a third of a hello-world's start-up); _env() names the
        # folders the worker imports from instead.
        cmd = [sys.executable, "-S", "-m", "tinyrag_desktop.tools.nanogo.worker"]
    cmd += ["--max-output", str(max_output), "--memory-mb", str(memory_mb), "--cpu-seconds", str(cpu_seconds)]
    if memory_mb and not app_watches_memory():
        cmd += ["--watch-memory-mb", str(memory_mb)]  # the worker watches its own memory instead
    return cmd


def app_watches_memory() -> bool:
    """Whether this process can read the worker's memory (:func:`_rss_mb`): only where there is /proc (Linux).
    Elsewhere (macOS, Windows) the worker watches its own."""
    return os.path.exists(f"/proc/{os.getpid()}/statm")


@functools.lru_cache(maxsize=1)
def _import_folders() -> tuple[str, ...]:
    """The folders holding the packages the worker imports beyond the standard library (this app and
    tree-sitter's Go grammar), found as this process finds them, without importing them."""
    import importlib.util

    folders: list[str] = []
    for name in ("tinyrag_desktop", "tree_sitter", "tree_sitter_go"):
        spec = importlib.util.find_spec(name)
        places = list(spec.submodule_search_locations or []) if spec else []
        if places and (folder := os.path.dirname(places[0])) not in folders:
            folders.append(folder)
    return tuple(folders)


def _env() -> dict:
    # A small, clean environment: the program cannot read the host's variables anyway, but the worker
    # should not inherit debugging hooks either. Python may cache the compiled interpreter's modules as
    # it would for the app (unless told not to): compiling them again at every run cost a start-up of
    # 0.29 s instead of 0.12.
    keep = ("PATH", "SYSTEMROOT", "LANG", "LC_ALL", "PYTHONPATH", "PYTHONDONTWRITEBYTECODE", "NANOGO_DEBUG",
            "NANOGO_DUMP")
    env = {k: v for k, v in os.environ.items() if k in keep}
    if not getattr(sys, "frozen", False):
        env["PYTHONPATH"] = os.pathsep.join([*_import_folders(), *filter(None, [env.get("PYTHONPATH")])])
    env["PYTHONIOENCODING"] = "utf-8"
    env["PYTHONHASHSEED"] = "0"
    return env


def _result(code: int | None, out: bytes, err: bytes, why: str | None, timeout: float, memory_mb: int,
            max_output: int, elapsed: float = math.inf) -> RunResult:
    stdout = out[:max_output].decode("utf-8", "replace")
    stderr = err.decode("utf-8", "replace")
    if why == "timeout":
        return RunResult(stdout, f"nanoGo: time limit exceeded: killed after {timeout:g}s, the tool timeout "
                         f"({RAISE_TIMEOUT})\n", 1, "limit")
    if why == "memory" or code == _OVER_MEMORY:
        return RunResult(stdout, f"nanoGo: memory limit exceeded ({memory_mb} MB; {RAISE_MEMORY})\n"
                         "fatal error: runtime: out of memory\n", 1, "limit")
    if code is not None and code < 0:
        sig = -code
        cpu = cpu_limit(timeout)
        # SIGKILL: the hard limit, a second after the soft one, when SIGXCPU did not end the worker; not
        # when the worker ran for less time than that (something else killed it: the system, short of memory)
        if sig == signal.SIGXCPU or sig == getattr(signal, "SIGKILL", 9) and not stderr and elapsed >= cpu:
            return RunResult(stdout, f"nanoGo: CPU time limit exceeded: killed after {cpu}s of CPU time, the "
                             f"limit that goes with the {timeout:g}s tool timeout ({RAISE_TIMEOUT})\n", 1, "limit")
        if sig == signal.SIGSEGV:
            return RunResult(stdout, _OVERFLOWED, 1, "panic")
        return RunResult(stdout, f"nanoGo: the program was killed by signal {sig}\n", 1, "limit")
    if code == _STACK_OVERFLOW:  # Windows' SIGSEGV of a too deep recursion
        return RunResult(stdout, _OVERFLOWED, 1, "panic")
    if crash := crash_words(code):
        return RunResult(stdout, f"{stderr}nanoGo: the program's process crashed ({crash})\n", 1, "limit")
    status = _STATUS.get(code, "panic")
    exit_code = {"ok": 0, "compile_error": 2}.get(status, 1)
    return RunResult(stdout, stderr, exit_code, status)


def run_sandboxed(source: str, *, timeout: float, memory_mb: int = 512, max_output: int = 65536) -> RunResult:
    """Compile and run Go source in a separate process; blocks until it ends or a limit kills it. Ctrl+C
    kills it too, and raises :class:`Interrupted` with what the program printed until then. Raises
    SandboxError when the worker cannot be started."""
    import threading

    started = time.monotonic()
    command = worker_command(max_output, memory_mb, cpu_limit(timeout))
    try:
        proc = adopted(subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        start_new_session=(os.name == "posix"), **child_options(_env())))
    except OSError as exc:
        raise _cannot_start(command, exc) from exc
    deadline = time.monotonic() + timeout
    why = None
    interrupted = False
    chunks: dict = {"out": [], "err": []}

    def pump(stream, key):
        # Read as the worker writes, not at its end: what a program killed at a limit printed before it is
        # then here already (the worker sends its output to the pipe at least every few hundredths of a second).
        for block in iter(lambda: stream.read1(65536) if hasattr(stream, "read1") else stream.read(65536), b""):
            chunks[key].append(block)

    readers = [threading.Thread(target=pump, args=(proc.stdout, "out"), daemon=True),
               threading.Thread(target=pump, args=(proc.stderr, "err"), daemon=True)]
    for r in readers:
        r.start()
    try:
        try:
            proc.stdin.write(source.encode("utf-8", "surrogateescape"))
            proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        while proc.poll() is None:
            if time.monotonic() > deadline:
                why = "timeout"
                break
            if memory_mb and _rss_mb(proc.pid) > memory_mb:
                why = "memory"
                break
            try:  # returns within a few milliseconds of the worker's exit, not at the next full poll
                proc.wait(timeout=_POLL)
            except subprocess.TimeoutExpired:
                pass
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if proc.poll() is None:
            _kill(proc)
    proc.wait()
    for r in readers:
        r.join(timeout=2)
    for stream in (proc.stdout, proc.stderr):
        stream.close()
    out, err = b"".join(chunks["out"]), b"".join(chunks["err"])
    if interrupted:
        raise Interrupted(RunResult(out[:max_output].decode("utf-8", "replace"), err.decode("utf-8", "replace"),
                                    130, "stopped"))
    return _result(proc.returncode, out, err, why, timeout, memory_mb, max_output, time.monotonic() - started)


def _cannot_start(command: list[str], exc: OSError) -> SandboxError:
    """The worker could not be started (its interpreter not allowed to run, missing, too many processes):
    why, in words, with the program that was to run."""
    return SandboxError(f"{(exc.strerror or str(exc)).lower()}: {command[0]}")


def _kill(proc) -> None:
    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except (ProcessLookupError, PermissionError, OSError):
        try:
            proc.kill()
        except OSError:
            pass


_REAPING: set = set()  # the waits below, kept alive until they end (the loop holds tasks only weakly)


def _reap(proc) -> None:
    """Wait for a killed worker in the background: a cancelled run left it a zombie, its pipes open, until
    the next garbage collection found them ("subprocess … is still running", "unclosed transport")."""
    import asyncio

    async def wait() -> None:
        try:
            await asyncio.wait_for(proc.wait(), 5.0)
        except (TimeoutError, asyncio.CancelledError, ProcessLookupError):
            pass

    try:
        task = asyncio.ensure_future(wait())
    except RuntimeError:  # no running loop (it is closing): the child was killed, nothing to wait on
        return
    _REAPING.add(task)
    task.add_done_callback(_REAPING.discard)


async def run_sandboxed_async(source: str, *, timeout: float, memory_mb: int = 512,
                              max_output: int = 65536, output: bytearray | None = None,
                              on_output: Callable[[bytes], None] | None = None) -> RunResult:
    """The same as run_sandboxed, without blocking the event loop; cancelling kills the child at once.
    ``output``, when given, holds the program's standard output as it comes: what it had printed when the
    run was cancelled (the window's Stop) is there to show. ``on_output`` is given each piece of it as it
    comes (the answer's tool, whose run is cancelled with the answer). Raises SandboxError when the worker
    cannot be started."""
    import asyncio

    started = time.monotonic()
    command = worker_command(max_output, memory_mb, cpu_limit(timeout))
    try:
        proc = adopted(await asyncio.create_subprocess_exec(
            *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, start_new_session=(os.name == "posix"), **child_options(_env())))
    except OSError as exc:
        raise _cannot_start(command, exc) from exc
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    why = None
    out, err = (bytearray() if output is None else output), bytearray()

    async def drain(stream: asyncio.StreamReader, keep: bytearray, told: Callable[[bytes], None] | None) -> None:
        # Kept as it comes (communicate() kept it in a coroutine the time limit cancelled: a program stopped
        # at a limit showed none of the output it had printed before it).
        while block := await stream.read(65536):
            keep += block
            if told is not None:
                told(block)

    async def feed() -> None:
        try:
            proc.stdin.write(source.encode("utf-8", "surrogateescape"))
            await proc.stdin.drain()
        except (BrokenPipeError, ConnectionResetError):  # the worker ended before reading it all
            pass
        finally:
            proc.stdin.close()

    async def watch():
        nonlocal why
        while proc.returncode is None:
            if memory_mb and _rss_mb(proc.pid) > memory_mb:
                why = "memory"
                _kill(proc)
                return
            await asyncio.sleep(_POLL * 2)

    readers = [asyncio.ensure_future(drain(proc.stdout, out, on_output)),
               asyncio.ensure_future(drain(proc.stderr, err, None))]
    for reader in readers:  # a pipe that failed is said by the result; asyncio would print its error at exit
        reader.add_done_callback(lambda task: task.cancelled() or task.exception())
    watcher = asyncio.ensure_future(watch())
    try:
        try:
            async with asyncio.timeout(timeout):
                await feed()
                await proc.wait()
                await asyncio.wait(readers)  # the worker is alone in its session: its pipes close as it ends
        except TimeoutError:
            why = "timeout"
            _kill(proc)
            await proc.wait()
            await asyncio.wait(readers, timeout=2.0)
    except BaseException:  # cancelled (Stop, the engine): kill the worker at once
        _kill(proc)
        _reap(proc)
        raise
    finally:
        watcher.cancel()
        for reader in readers:
            reader.cancel()
        if proc.returncode is None:
            _kill(proc)
    return _result(proc.returncode, bytes(out), bytes(err), why, timeout, memory_mb, max_output,
                   time.monotonic() - started)
