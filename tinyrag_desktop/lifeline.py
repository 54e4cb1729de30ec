"""Child processes that end with the app, however the app ends (closed, crashed, SIGKILL, the OOM killer).

A child outlived an app that was killed: re-parented to PID 1, a nanoGo worker running ``for {}`` burned a
processor until its CPU limit (up to ten minutes), and a shell command's processes, an import's readers and
the built-in model server ran on until someone stopped them by hand. Now every child is given the lifeline:

- The lifeline is a pipe, one per app process. The app holds its write end as long as it lives, and writes
  nothing to it; each child gets the read end (``pass_fds``; its number in ``$TINYRAG_LIFELINE``). When the
  app ends, however it ends, the kernel closes the write end, and the read end says end of file, in every
  child at once. Both ends are close-on-exec in the app, so no other program it starts holds the write end.
- A child that is our own Python (the nanoGo worker, the import's readers) watches the read end in a thread
  of its own (:func:`watch`) and exits at end of file.
- A program that cannot watch it (a shell command, llama.cpp's server) is started through the guard
  (:func:`guard_command`): a small Python that forks a watchdog into the program's process group, then
  becomes the program (exec), so the app sees the program itself, its pid and its exit status, as before.
  At end of file the watchdog kills the whole group, with what the program started in the background; it
  leaves by itself once the program has ended.
- On Linux a child started from the app's main thread also asks the kernel for SIGKILL when its parent
  ends (``PR_SET_PDEATHSIG``): at once, even when the child's own threads cannot run. Not from another
  thread: the kernel sends it when the *thread* that started the child ends, which for a worker thread
  (``asyncio.to_thread``, an import's thread) is long before the app does.

Windows has no ``pass_fds``: there each child is put in a job object that ends it with the app
(winjob.py). macOS has no PDEATHSIG: the pipe does it.

This file is also the guard's program (``python -S -I lifeline.py PROGRAM ARGS…``; in a frozen build the
app's executable with :data:`GUARD_FLAG` first), so it imports nothing outside the standard library, and
only what it needs when it needs it: the guard's start-up is added to every shell command's.
"""

from __future__ import annotations

import _thread
import os
import stat
import sys

ENV = "TINYRAG_LIFELINE"  # "FD,MAIN": the read end's number, and 1 when started from the app's main thread
GUARD_FLAG = "--child-guard"  # first argument of a frozen executable that should be the guard
_GUARD_SCRIPT = os.path.abspath(__file__)
_IS_LINUX = sys.platform.startswith("linux")
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
_SIGKILL = 9  # on Linux and macOS; not imported from signal, which a nanoGo worker's start would pay for
# A child asks for PDEATHSIG only once it has run this long (seconds): most nanoGo runs end sooner, and need
# not load ctypes for it (a few milliseconds of a hello-world's start); the pipe covers them meanwhile.
PDEATHSIG_AFTER = 0.2
# How often the guard's watchdog looks whether its program has ended (seconds): it leaves then.
WATCHDOG_POLL = 0.2

_ENDS: tuple[int, int] | None = None  # (read, write), made at the first child


# _thread, not threading: the guard runs this file, and its start needs no threading module
_MADE = _thread.allocate_lock()


def _read_end() -> int | None:
    """The lifeline's read end, the pipe made on first use; None where children cannot be given it."""
    global _ENDS
    if os.name != "posix":
        return None
    with _MADE:
        if _ENDS is None:
            ends = os.pipe()  # both ends close-on-exec: only pass_fds hands the read end on
            _ENDS = (_above_stdio(ends[0]), _above_stdio(ends[1]))
        return _ENDS[0]


def _above_stdio(fd: int) -> int:
    """``fd``, or a copy of it numbered 3 or more when it is 0, 1 or 2 (the app started with its stdin
    closed, ``<&-``): as 0 the read end was the child's stdin too, which the child's own pipe replaced, and
    a nanoGo worker took its source for the lifeline (a run ended as "panic", with no output)."""
    if fd > 2:
        return fd
    import fcntl

    try:
        moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
    except OSError:
        return fd
    os.close(fd)
    return moved


# Set by the bundle's first runtime hook (packaging/rthook_environment.py): JSON of the variables PySide6's
# runtime hook then changes (QT_PLUGIN_PATH …), each as it was before, or null when it was not set.
SAVED_ENV = "TINYRAG_ENV_BEFORE_BUNDLE"
# PyInstaller's bootloader puts its folder first in these, and the value before in NAME_ORIG when there was one.
_LIBRARY_PATHS = ("LD_LIBRARY_PATH", "LIBPATH")


def outside_environment(env=None) -> dict[str, str]:
    """``env`` (by default this process's) as a program outside the bundle should get it. In a frozen build
    PyInstaller's bootloader and PySide6's runtime hook point ``LD_LIBRARY_PATH`` and ``QT_PLUGIN_PATH`` into
    the bundle: a shell command's ``curl``, llama-server or the browser behind a link then loaded the
    bundle's copies of libssl or libstdc++ (the build machine's, older than a newer system's own) instead of
    their own. Here they are as they were when the app started, and the bootloader's own variables
    (``_PYI_…``) are left out. Outside a frozen build, a copy of ``env``."""
    env = dict(os.environ if env is None else env)
    bundle = getattr(sys, "_MEIPASS", None)
    if not getattr(sys, "frozen", False) or not bundle:
        return env
    for name in _LIBRARY_PATHS:
        before = env.pop(name + "_ORIG", None)
        if before is not None:
            env[name] = before
        elif name in env:  # not set before the bootloader set it: what it added goes
            _put(env, name, _outside(env[name], bundle))
    saved = env.pop(SAVED_ENV, None)
    if saved:
        import json

        try:
            for name, value in json.loads(saved).items():
                _put(env, name, value)
        except (ValueError, AttributeError, TypeError):  # not ours after all: the fallback below
            pass
    for name in ("QT_PLUGIN_PATH", "QML2_IMPORT_PATH", "DYLD_LIBRARY_PATH", "PATH"):
        if name in env:  # without the saved values (a bundle built without the hook): the bundle's folders go
            _put(env, name, _outside(env[name], bundle))
    for name in [name for name in env if name.startswith("_PYI_") or name == "_MEIPASS2"]:
        del env[name]
    return env


def _outside(value: str, bundle: str) -> str | None:
    """A list of folders (``a:b``) without those inside ``bundle``; None when none is left."""
    inside = os.path.normcase(os.path.abspath(bundle))
    kept = [part for part in value.split(os.pathsep) if part and not (
        os.path.normcase(os.path.abspath(part)) + os.sep).startswith(inside + os.sep)]
    return os.pathsep.join(kept) if kept else None


def _put(env: dict[str, str], name: str, value: str | None) -> None:
    if value is None:
        env.pop(name, None)
    else:
        env[name] = value


def leave_bundle_environment() -> None:
    """Give this process's environment (:func:`outside_environment`) to what it starts without
    :func:`child_options` from now on: the browser or file viewer ``QDesktopServices`` starts through
    xdg-open, a ``subprocess.run``. Only once Qt has read its plugin path (after QApplication is made); the
    process's own libraries are unaffected, since the loader reads ``LD_LIBRARY_PATH`` only when it starts."""
    outside = outside_environment()
    for name in [name for name in os.environ if name not in outside]:
        del os.environ[name]
    for name, value in outside.items():
        if os.environ.get(name) != value:
            os.environ[name] = value


def child_options(env: dict[str, str] | None = None) -> dict:
    """Keyword arguments for ``subprocess.Popen`` (or asyncio's ``create_subprocess_exec``) that give a child
    the lifeline: its environment (``env``, or this process's, as :func:`outside_environment` gives it) with
    :data:`ENV` set, and ``pass_fds``. On Windows only the environment."""
    env = outside_environment(env)
    fd = _read_end()
    if fd is None:
        return {"env": env}
    import threading

    env[ENV] = f"{fd},{int(threading.current_thread() is threading.main_thread())}"
    return {"env": env, "pass_fds": (fd,)}


def guard_command(argv: list[str]) -> list[str]:
    """The command line that runs ``argv`` through the guard, to be started with :func:`child_options` and
    in a session of its own (``start_new_session``): its process group is what the watchdog kills. On
    Windows ``argv`` itself."""
    if os.name != "posix":
        return list(argv)
    if getattr(sys, "frozen", False):
        return [sys.executable, GUARD_FLAG, *argv]
    # -S: no site module (an environment's .pth files cost more than the guard's whole start); -I: nothing
    # from the environment or this file's folder shadows the standard library.
    return [sys.executable, "-S", "-I", _GUARD_SCRIPT, *argv]


def _taken() -> tuple[int, bool] | None:
    """In a child: the lifeline it was given (fd, started from the main thread), taken out of the environment
    so that its own children do not see it; None when it has none."""
    value = os.environ.pop(ENV, "")
    try:
        fd, main = (int(part) for part in value.split(","))
        if not stat.S_ISFIFO(os.fstat(fd).st_mode):  # not the pipe: watching it would end this process at once
            return None
        os.set_inheritable(fd, False)  # its own children do not hold it either
    except (ValueError, OSError):  # none, or not open here: a variable set by hand, say
        return None
    return fd, bool(main)


def watch(on_gone=None) -> bool:
    """In a child: call ``on_gone`` (by default, end this process at once) as soon as the app that started it
    has gone. Watches in a daemon thread; returns False, and watches nothing, without a lifeline."""
    taken = _taken()
    if taken is None:
        return False
    import threading

    fd, main = taken
    threading.Thread(target=_watch, args=(fd, main, on_gone), name="lifeline", daemon=True).start()
    return True


def _watch(fd: int, main: bool, on_gone) -> None:
    if main and _IS_LINUX and not _ended(fd, PDEATHSIG_AFTER):
        _die_with_parent()  # the app ending from now on kills this process at once; before, the pipe said so
    _ended(fd, None)
    if on_gone is not None:
        on_gone()
    else:
        os._exit(1)


def _ended(fd: int, timeout: float | None) -> bool:
    """Whether the app has gone, waiting for it up to ``timeout`` seconds (None: as long as it takes)."""
    if timeout is not None:
        import select

        poller = select.poll()  # not select.select: the fd may be past FD_SETSIZE in a busy app
        poller.register(fd, select.POLLIN)
        if not poller.poll(timeout * 1000):
            return False
    try:
        while os.read(fd, 512):  # nobody writes: only end of file comes
            pass
    except OSError:
        pass
    return True


def _die_with_parent() -> None:
    """Linux: ask for SIGKILL when the thread that started this process ends (see the module docstring)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, _SIGKILL, 0, 0, 0)
    except (OSError, AttributeError, ImportError):  # no prctl here: the pipe still says when the app has gone
        pass


def guard_main(argv: list[str]) -> int:
    """The guard: fork the watchdog, then become ``argv`` (the program, looked up on the PATH). Returns only
    when the program cannot be run: 127, having said why on standard error."""
    if not argv:
        os.write(2, b"usage: lifeline.py PROGRAM [ARGUMENT...]\n")
        return 2
    import signal

    taken = _taken()
    if taken is not None:
        fd, main = taken
        leader = os.getpid()
        if os.fork() == 0:
            try:
                _watchdog(fd, leader)
            finally:
                os._exit(0)
        os.close(fd)
        if main and _IS_LINUX:
            _die_with_parent()  # stays set through the exec: the program itself dies with the app
    # Python ignores these two; a program started by subprocess gets them back as they were (restore_signals)
    for name in ("SIGPIPE", "SIGXFSZ"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    # A frozen guard is the bundle's executable, whose bootloader pointed LD_LIBRARY_PATH into the bundle
    # again: the program gets the environment the app gave this guard.
    leave_bundle_environment()
    try:
        os.execvp(argv[0], argv)
    except OSError as exc:
        os.write(2, f"Could not run {argv[0]}: {exc.strerror or exc}\n".encode("utf-8", "replace"))
    return 127


def _watchdog(fd: int, leader: int) -> None:
    """In the program's process group, for as long as the program runs: kill the whole group once the app has
    gone. Holds none of the program's streams, so that readers of its output see them end with it."""
    import select
    import signal

    null = os.open(os.devnull, os.O_RDWR)
    for std in (0, 1, 2):
        os.dup2(null, std)
    os.close(null)
    # Sent to the whole group (the model server's stop, a terminal's Ctrl+C): the program answers them; the
    # watchdog stays until the program has ended, in case the app dies meanwhile.
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    while True:
        if poller.poll(WATCHDOG_POLL * 1000) and _ended(fd, None):  # readable: end of file, the app has gone
            if os.getpgrp() == leader:  # the program's own group: it (unless PDEATHSIG was first), what it
                os.killpg(leader, _SIGKILL)  # started, and this watchdog, which keeps the group's id from reuse
            elif os.getppid() == leader:  # started in the app's group, not a session of its own: the program alone
                os.kill(leader, _SIGKILL)
            return
        if os.getppid() != leader:  # the program has ended (this process was re-parented): nothing to guard
            return

if __name__ == "__main__":
    sys.exit(guard_main(sys.argv[1:]))
