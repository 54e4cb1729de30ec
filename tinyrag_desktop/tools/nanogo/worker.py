"""The sandbox process: reads Go source on stdin, compiles and runs it, exits 0 ok, 1 panic, 2 compile, 3 limit
(4: its memory cap, said by the parent).

Started as ``python -m tinyrag_desktop.tools.nanogo.worker`` (or, in a frozen build, as the executable with
``--nanogo-worker`` as first argument, which ``tinyrag_desktop.__main__`` hands to :func:`main`).
"""

from __future__ import annotations

import os
import sys
import threading
import time

from ... import lifeline

EXIT_OK, EXIT_PANIC, EXIT_COMPILE, EXIT_LIMIT, EXIT_MEMORY = 0, 1, 2, 3, 4
# The main goroutine's thread stack: below 256 MiB, the most CPython on Windows accepts (thread_nt.h; 512 MiB
# raised ValueError there on every run). The recursion limit (interp.RECURSION_LIMIT) ends a runaway
# recursion long before it: 64 MiB already held every recursion shape tried on Linux.
MAIN_STACK = 255 * 1024 * 1024
FLUSH_EVERY = 0.02  # seconds: at most this much of the output is lost when a limit kills the process


class _Out:
    """Program stdout: buffered, cut at the output cap. What is buffered goes to the pipe once it passes a
    few KB, and otherwise within ``FLUSH_EVERY`` seconds (:func:`_flusher`): a program the parent kills
    at a limit (the wall clock, memory; the kernel at the CPU limit) has its output up to then in the pipe,
    where the parent reads it. Writing every print at once cost a print-heavy program up to 2.5 times
    its time; the flusher costs nothing measurable."""

    def __init__(self, cap: int):
        self.cap, self.total, self.buf, self.size = cap, 0, [], 0
        self.lock = threading.RLock()  # reentrant: a write past the cap flushes, then _die flushes again

    def write(self, s: str) -> None:
        b = s.encode("utf-8", "surrogateescape")
        with self.lock:
            if self.total + len(b) > self.cap:
                b = b[: self.cap - self.total]
                self.buf.append(b)
                self._flush()
                _die(EXIT_LIMIT, f"nanoGo: output limit exceeded: output cut at {self.cap} bytes\n")
            self.total += len(b)
            self.buf.append(b)
            self.size += len(b)
            if self.size > 8192:
                self._flush()

    def flush(self) -> None:
        with self.lock:
            self._flush()

    def _flush(self) -> None:
        if self.buf:
            data = b"".join(self.buf)
            self.buf, self.size = [], 0
            _write_all(1, data)


def _write_all(fd: int, data: bytes) -> None:
    while data:
        n = os.write(fd, data)
        data = data[n:]


OUT: _Out | None = None


def _flusher(memory_mb: int) -> None:
    """Send what the program printed to the pipe every FLUSH_EVERY seconds (a thread of its own), and, when
    ``memory_mb`` is set (the app cannot watch this process's memory itself), end the program once this
    process holds more than that."""
    over = _memory_watch(memory_mb) if memory_mb else None
    while True:
        time.sleep(FLUSH_EVERY)
        if over is not None and over():
            _die(EXIT_MEMORY, "")
        out = OUT
        if out is not None and out.size:
            try:
                out.flush()
            except OSError:  # the parent is gone: nobody reads any more
                return


def _die(code: int, message: str) -> None:
    if OUT is not None:
        try:
            OUT.flush()
        except OSError:
            pass
    from .interp import ERR
    if ERR:
        _write_all(2, "".join(ERR).encode("utf-8", "surrogateescape"))
        ERR.clear()
    if message:
        _write_all(2, message.encode("utf-8", "surrogateescape"))
    os._exit(code)


def _memory_watch(memory_mb: int):
    """What tells whether this process holds more than ``memory_mb`` MB, or None where that cannot be read.
    Used where the app cannot read the worker's memory in /proc (macOS, Windows). It reads the resident size
    now (memory.own_size_reader), as the app does in /proc on Linux: the cap is on the worker's size. Not the
    peak (ru_maxrss), but where nothing else can be read: a process may start with its parent's (Linux counts
    the memory the app held when it started the worker), and taken as the start, a worker that began above
    the cap (an app that once held gigabytes) let a runaway grow up to it."""
    from .memory import own_size_reader

    size = own_size_reader()
    if size is not None:
        return lambda: size() > memory_mb
    try:
        import resource
    except ImportError:
        return None
    unit = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KB on Linux and the BSDs

    def peak() -> float:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * unit / (1024 * 1024)

    limit = max(memory_mb, peak())  # a peak taken from the parent is not this program's
    return lambda: peak() > limit


def _limits(cpu_seconds: float, memory_mb: int) -> None:
    try:
        import resource
    except ImportError:  # not POSIX: the parent's wall clock and memory watch still apply
        return
    if cpu_seconds > 0:
        soft = max(1, int(cpu_seconds + 0.999))
        resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 1))
    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    except (ValueError, OSError):
        pass


def _run(source: str, max_output: int, memory_mb: int) -> None:
    global OUT
    from . import runtime
    from .errors import CompileError
    from .compiler import compile_source
    from .interp import ProgramExit, execute

    runtime.MAX_ALLOC = max(64, memory_mb) * 1024 * 1024
    try:
        code, ns = compile_source(source)
    except CompileError as e:
        _die(EXIT_COMPILE, e.report("prog.go"))
    except RecursionError:
        _die(EXIT_COMPILE, "prog.go:1:1: program too deeply nested\n")
    if os.environ.get("NANOGO_DUMP"):
        _write_all(2, code.encode())
    OUT = _Out(max_output)

    def on_fatal(status, text):
        _die(EXIT_LIMIT if status == "limit" else EXIT_PANIC, text)

    try:
        execute(code, ns, OUT.write, on_fatal)
    except ProgramExit as e:
        _die(EXIT_LIMIT if e.status == "limit" else EXIT_PANIC, e.message)
    _die(EXIT_OK, "")


def _guarded(source: str, max_output: int, memory_mb: int) -> None:
    try:
        _run(source, max_output, memory_mb)
    except BaseException as e:  # a bug in nanoGo itself: say so rather than die silently
        import traceback
        detail = "".join(traceback.format_exception(e)) if os.environ.get("NANOGO_DEBUG") else ""
        _die(EXIT_PANIC, f"{detail}fatal error: nanoGo internal error: {type(e).__name__}: {e}\n")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # --watch-memory-mb: the cap this process watches itself (0: the app watches it, in /proc)
    opts = {"--max-output": 65536, "--memory-mb": 512, "--cpu-seconds": 0.0, "--watch-memory-mb": 0}
    it = iter(argv)
    for a in it:
        if a in opts:
            opts[a] = type(opts[a])(next(it))
    _limits(opts["--cpu-seconds"], opts["--memory-mb"])
    lifeline.watch()  # ends this process when the app has gone (a `for {}` would run to its CPU limit)
    source = sys.stdin.buffer.read().decode("utf-8", "surrogateescape")
    sys.stdin.close()
    threading.Thread(target=_flusher, args=(opts["--watch-memory-mb"],), name="nanogo-flusher",
                     daemon=True).start()  # with the usual stack
    threading.stack_size(MAIN_STACK)
    t = threading.Thread(target=_guarded, args=(source, opts["--max-output"], opts["--memory-mb"]), daemon=True)
    t.start()
    t.join()
    return 0


if __name__ == "__main__":
    main()
