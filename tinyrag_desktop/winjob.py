"""Windows: the app's children in a Job Object that ends them when the app ends, however it ends.

On Linux and macOS the lifeline does this (lifeline.py). Windows has no ``pass_fds``, and there the nanoGo
worker, an import's readers and PDF helper, a shell command and the built-in model server ran on after the
app was killed or crashed. Now each is put, as soon as it has started (:func:`adopted`), in one job made with
``JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE``. The job's only handle is the app's (never inherited), so Windows
closes it when the app's process ends, and then ends every process in the job: the child, and what it has
started since (a child's children are in its job). ``JOB_OBJECT_LIMIT_BREAKAWAY_OK`` lets a program that
asks to leave the job leave it, rather than fail to start.

The app itself is not in the job: a browser it opens for a link stays open when it quits.

A shell command also gets a job of its own (:func:`own_job`), nested in the app's, to end it with everything
it started: ``taskkill /T`` finds a process's children by their parent, and so misses those of a parent that
has exited, such as what a command left running in the background ("start /b server") holding its output open.

Everywhere else :func:`adopted` does nothing. The Windows calls are not run by the tests (they run on
Linux): they are driven through a stand-in for kernel32, and the structure is checked against the size the
Windows SDK gives it. Any call that fails leaves the child as it was before, running on its own.
"""

from __future__ import annotations

import ctypes
import logging
import sys
import threading
from typing import Any, TypeVar

log = logging.getLogger(__name__)

_ON_WINDOWS = sys.platform == "win32"
# From the Windows SDK (winnt.h): the information class, the limit flags, the process rights asked for.
_EXTENDED_LIMIT_INFORMATION = 9  # JobObjectExtendedLimitInformation
KILL_ON_JOB_CLOSE = 0x2000  # JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
BREAKAWAY_OK = 0x0800  # JOB_OBJECT_LIMIT_BREAKAWAY_OK
PROCESS_RIGHTS = 0x0100 | 0x0001  # PROCESS_SET_QUOTA | PROCESS_TERMINATE: what AssignProcessToJobObject needs


class _BasicLimits(ctypes.Structure):
    """JOBOBJECT_BASIC_LIMIT_INFORMATION (LARGE_INTEGER, DWORD, SIZE_T and ULONG_PTR, in that order)."""
    _fields_ = [("PerProcessUserTimeLimit", ctypes.c_int64), ("PerJobUserTimeLimit", ctypes.c_int64),
                ("LimitFlags", ctypes.c_uint32), ("MinimumWorkingSetSize", ctypes.c_size_t),
                ("MaximumWorkingSetSize", ctypes.c_size_t), ("ActiveProcessLimit", ctypes.c_uint32),
                ("Affinity", ctypes.c_size_t), ("PriorityClass", ctypes.c_uint32),
                ("SchedulingClass", ctypes.c_uint32)]


class _IoCounters(ctypes.Structure):
    """IO_COUNTERS: six ULONGLONGs."""
    _fields_ = [(name, ctypes.c_uint64) for name in ("ReadOperationCount", "WriteOperationCount",
                                                     "OtherOperationCount", "ReadTransferCount",
                                                     "WriteTransferCount", "OtherTransferCount")]


class ExtendedLimits(ctypes.Structure):
    """JOBOBJECT_EXTENDED_LIMIT_INFORMATION: 144 bytes in a 64-bit process, 112 in a 32-bit one."""
    _fields_ = [("BasicLimitInformation", _BasicLimits), ("IoInfo", _IoCounters),
                ("ProcessMemoryLimit", ctypes.c_size_t), ("JobMemoryLimit", ctypes.c_size_t),
                ("PeakProcessMemoryUsed", ctypes.c_size_t), ("PeakJobMemoryUsed", ctypes.c_size_t)]


def job_limits(flags: int = KILL_ON_JOB_CLOSE | BREAKAWAY_OK) -> ExtendedLimits:
    """The job's limits: its processes end when its last handle closes; one may leave it if it asks to."""
    limits = ExtendedLimits()
    limits.BasicLimitInformation.LimitFlags = flags
    return limits


def _kernel32() -> Any:
    """kernel32, its functions given their types: handles as pointers, so a 64-bit handle is not cut to 32 bits."""
    k32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
    handle, dword, ok = ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int
    for name, args, result in (("CreateJobObjectW", (handle, ctypes.c_wchar_p), handle),
                               ("SetInformationJobObject", (handle, ctypes.c_int, handle, dword), ok),
                               ("OpenProcess", (dword, ok, dword), handle),
                               ("AssignProcessToJobObject", (handle, handle), ok),
                               ("TerminateJobObject", (handle, ctypes.c_uint), ok),
                               ("CloseHandle", (handle,), ok)):
        function = getattr(k32, name)
        function.argtypes, function.restype = args, result
    return k32


_MADE = threading.Lock()  # children are started from several threads (an import's, asyncio.to_thread)
_JOB: tuple[Any, Any] | None = None  # (kernel32, the job's handle) once made; (None, None) when it could not be


def _job() -> tuple[Any, Any]:
    """kernel32 and the app's job, made at the first child; (None, None) when Windows would not make it."""
    global _JOB
    with _MADE:
        if _JOB is None:
            _JOB = _new_job()
        return _JOB


def _new_job() -> tuple[Any, Any]:
    try:
        k32 = _kernel32()
        return k32, _made_job(k32, job_limits())
    except (OSError, AttributeError) as exc:
        log.warning("Child processes will not end with the app if it is killed: no job object (%s)", exc)
        return None, None


def _made_job(k32: Any, limits: ExtendedLimits) -> Any:
    """A new job with ``limits``; OSError when Windows refuses."""
    job = k32.CreateJobObjectW(None, None)
    if not job:
        raise _last_error()
    if not k32.SetInformationJobObject(job, _EXTENDED_LIMIT_INFORMATION, ctypes.addressof(limits),
                                       ctypes.sizeof(limits)):
        error = _last_error()
        k32.CloseHandle(job)
        raise error
    return job


def _last_error() -> OSError:
    """The failure of the kernel32 call just made, in Windows' words."""
    return ctypes.WinError(ctypes.get_last_error())  # type: ignore[attr-defined]


_Child = TypeVar("_Child")


def adopted(child: _Child) -> _Child:
    """``child`` (a ``subprocess.Popen`` or an asyncio ``Process`` just started), put in the app's job on
    Windows so that it ends with the app; elsewhere, and when Windows refuses, ``child`` as it was."""
    if _ON_WINDOWS:
        try:
            _assign(child.pid)  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 (the child has started: its caller must get it, to stop it later)
            log.exception("Process %s will not end with the app if it is killed", child.pid)  # type: ignore
    return child


def _assign(pid: int) -> None:
    k32, job = _job()
    if job is not None and _put(k32, job, pid) is False:
        log.warning("Process %s will not end with the app if it is killed: %s", pid, _last_error())


def _put(k32: Any, job: Any, pid: int) -> bool | None:
    """Whether process ``pid`` could be put in ``job``; None when it could not be opened (ended already,
    nothing to end later; or refused), which the log says."""
    process = k32.OpenProcess(PROCESS_RIGHTS, False, pid)
    if not process:
        log.debug("Process %s could not be opened to put it in a job: %s", pid, _last_error())
        return None
    try:
        return bool(k32.AssignProcessToJobObject(job, process))
    finally:
        k32.CloseHandle(process)


class OwnJob:
    """A shell command's own job (:func:`own_job`)."""

    def __init__(self, k32: Any, handle: Any) -> None:
        self._k32, self._handle = k32, handle

    def end(self) -> None:
        """End every process in the job, then let it go."""
        if self._handle is not None and not self._k32.TerminateJobObject(self._handle, 1):
            log.warning("A command's processes could not all be ended: %s", _last_error())
        self.close()

    def close(self) -> None:
        """Let the job go; what still runs in it runs on, and ends with the app (the app's job holds it)."""
        handle, self._handle = self._handle, None
        if handle is not None:
            self._k32.CloseHandle(handle)


def own_job(child: object) -> OwnJob | None:
    """On Windows, a job of ``child``'s own (a shell command just started and :func:`adopted`), nested in the
    app's job, whose :meth:`OwnJob.end` ends it and everything it has started since; None elsewhere, and
    when Windows refuses (then ``taskkill /T`` is what is left). What the command started before it was put
    in the job (in its first moments) is not in it: ``taskkill /T`` still finds that while the command runs."""
    if not _ON_WINDOWS:
        return None
    try:
        k32 = _job()[0] or _kernel32()
        handle = _made_job(k32, job_limits(BREAKAWAY_OK))
    except Exception as exc:  # noqa: BLE001 (as below)
        log.warning("A command's background processes may outlive it: no job of its own (%s)", exc)
        return None
    job = OwnJob(k32, handle)
    try:  # not opened (refused, or ended already): a job it is not in would end nothing, so none
        if _put(k32, handle, child.pid):  # type: ignore[attr-defined]
            return job
        log.warning("A command's background processes may outlive it: %s", _last_error())
    except Exception:  # noqa: BLE001 (the command has started: it must run, ended as before)
        log.exception("A command's background processes may outlive it")
    job.close()
    return None
