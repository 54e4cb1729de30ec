"""The parent side of the sandbox: start the worker process, enforce wall time and memory, collect results."""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

# Set by a frozen build (PyInstaller): the worker is the app's own executable with this flag first.
WORKER_FLAG = "--nanogo-worker"
_STATUS = {0: "ok", 1: "panic", 2: "compile_error", 3: "limit"}
_POLL = 0.02


@dataclass(frozen=True)
class RunResult:
    """What a sandboxed run produced. ``exit_code`` follows the CLI: 0 ok, 1 panic or limit, 2 compile error."""

    stdout: str
    stderr: str
    exit_code: int
    status: str  # "ok" | "compile_error" | "panic" | "limit"


def worker_command(max_output: int, memory_mb: int, cpu_seconds: float) -> list[str]:
    if getattr(sys, "frozen", False):
        cmd = [sys.executable, WORKER_FLAG]
    else:
        # -S: without the site module, which runs every .pth file of the environment (an editable
        # install's import hook among them: a third of a hello-world's start-up); _env() names the
        # folders the worker imports from instead.
        cmd = [sys.executable, "-S", "-m", "tinyrag_desktop.tools.nanogo.worker"]
    return cmd + ["--max-output", str(max_output), "--memory-mb", str(memory_mb),
                  "--cpu-seconds", str(cpu_seconds)]


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


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)
    except (OSError, ValueError, IndexError):
        return 0.0


def _result(code: int | None, out: bytes, err: bytes, why: str | None, timeout: float, memory_mb: int,
            max_output: int) -> RunResult:
    stdout = out[:max_output].decode("utf-8", "replace")
    stderr = err.decode("utf-8", "replace")
    if why == "timeout":
        return RunResult(stdout, f"nanoGo: time limit exceeded: killed after {timeout:g}s\n", 1, "limit")
    if why == "memory":
        return RunResult(stdout, f"nanoGo: memory limit exceeded ({memory_mb} MB)\n"
                         "fatal error: runtime: out of memory\n", 1, "limit")
    if code is not None and code < 0:
        sig = -code
        if sig == signal.SIGXCPU or sig == getattr(signal, "SIGKILL", 9) and not stderr:
            return RunResult(stdout, "nanoGo: CPU time limit exceeded\n", 1, "limit")
        if sig == signal.SIGSEGV:
            return RunResult(stdout, "runtime: goroutine stack exceeds 1000000000-byte limit\n"
                             "fatal error: stack overflow\n", 1, "panic")
        return RunResult(stdout, f"nanoGo: the program was killed by signal {sig}\n", 1, "limit")
    status = _STATUS.get(code, "panic")
    exit_code = {"ok": 0, "compile_error": 2}.get(status, 1)
    return RunResult(stdout, stderr, exit_code, status)


def run_sandboxed(source: str, *, timeout: float, memory_mb: int = 512, max_output: int = 65536) -> RunResult:
    """Compile and run Go source in a separate process; blocks until it ends or a limit kills it."""
    proc = subprocess.Popen(worker_command(max_output, memory_mb, timeout), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(),
                            start_new_session=(os.name == "posix"))
    deadline = time.monotonic() + timeout
    why = None
    import threading
    chunks: dict = {"out": [], "err": []}

    def pump(stream, key):
        for block in iter(lambda: stream.read1(65536) if hasattr(stream, "read1") else stream.read(65536), b""):
            chunks[key].append(block)

    readers = [threading.Thread(target=pump, args=(proc.stdout, "out"), daemon=True),
               threading.Thread(target=pump, args=(proc.stderr, "err"), daemon=True)]
    for r in readers:
        r.start()
    try:
        proc.stdin.write(source.encode("utf-8", "surrogateescape"))
        proc.stdin.close()
    except (BrokenPipeError, OSError):
        pass
    try:
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
    finally:
        if proc.poll() is None:
            _kill(proc)
    proc.wait()
    for r in readers:
        r.join(timeout=2)
    for stream in (proc.stdout, proc.stderr):
        stream.close()
    return _result(proc.returncode, b"".join(chunks["out"]), b"".join(chunks["err"]), why, timeout, memory_mb,
                   max_output)


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


async def run_sandboxed_async(source: str, *, timeout: float, memory_mb: int = 512,
                              max_output: int = 65536) -> RunResult:
    """The same as run_sandboxed, without blocking the event loop; cancelling kills the child at once."""
    import asyncio

    proc = await asyncio.create_subprocess_exec(
        *worker_command(max_output, memory_mb, timeout), stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=_env(),
        start_new_session=(os.name == "posix"))
    why = None

    async def watch():
        nonlocal why
        while proc.returncode is None:
            if memory_mb and _rss_mb(proc.pid) > memory_mb:
                why = "memory"
                _kill(proc)
                return
            await asyncio.sleep(_POLL * 2)

    watcher = asyncio.ensure_future(watch())
    try:
        out, err = await asyncio.wait_for(proc.communicate(source.encode("utf-8", "surrogateescape")), timeout)
    except asyncio.TimeoutError:
        why = "timeout"
        _kill(proc)
        out, err = await proc.communicate()
    except BaseException:
        _kill(proc)
        raise
    finally:
        watcher.cancel()
        if proc.returncode is None:
            _kill(proc)
    return _result(proc.returncode, out, err, why, timeout, memory_mb, max_output)
