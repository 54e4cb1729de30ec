"""How much memory a nanoGo worker holds now (its resident size): the cap ``nanogo_memory_mb`` is on it.

On Linux the app reads the worker's in /proc (sandbox.py). Elsewhere the worker reads its own (worker.py,
``--watch-memory-mb``): on macOS from its Mach task, on Windows its working set (GetProcessMemoryInfo), which is
what Linux counts as resident. Not a job object's ProcessMemoryLimit on Windows: that counts memory committed,
and Windows commits a thread's whole stack when it starts it (the program's main thread asks for hundreds of
MB, each goroutine's for 4 MB), so a program with a few dozen goroutines would have been stopped as over the cap.
The macOS and Windows calls are not run by the tests (they run on Linux): they are driven through stand-ins
for libc and kernel32, and the structures are checked against the sizes the SDKs give them.
"""

from __future__ import annotations

import ctypes
import os
import sys
from typing import Any, Callable

_MB = 1024 * 1024
_MACH_TASK_BASIC_INFO = 20  # the flavor of task_info (mach/task_info.h)
_SYSTEM = sys.platform
_OWN_STATM = "/proc/self/statm"


def resident_mb(pid: int) -> float:
    """The resident size of process ``pid`` in MB, read in /proc (Linux); 0.0 where it cannot be read."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / _MB
    except (OSError, ValueError, IndexError):
        return 0.0


class TaskBasicInfo(ctypes.Structure):
    """mach_task_basic_info: three mach_vm_size_t, two time_value_t (two integer_t each), two integer_t."""
    _fields_ = [("virtual_size", ctypes.c_uint64), ("resident_size", ctypes.c_uint64),
                ("resident_size_max", ctypes.c_uint64), ("user_time", ctypes.c_int32 * 2),
                ("system_time", ctypes.c_int32 * 2), ("policy", ctypes.c_int32), ("suspend_count", ctypes.c_int32)]


def _libc() -> Any:
    return ctypes.CDLL(None)


def own_size_reader() -> Callable[[], float] | None:
    """What reads this process's resident size now, in MB: in /proc (Linux), from its Mach task (macOS), its
    working set (Windows); None where none of them can be read."""
    if os.path.exists(_OWN_STATM):
        pid = os.getpid()
        return lambda: resident_mb(pid)
    try:
        if _SYSTEM == "darwin":
            return _mach_size_reader(_libc())
        if _SYSTEM == "win32":
            return _windows_size_reader(_kernel32())
    except (OSError, AttributeError, ValueError):
        pass
    return None


def _mach_task(libc: Any) -> Any:
    """mach_task_self(): a macro for the global it reads."""
    return ctypes.c_uint32.in_dll(libc, "mach_task_self_")


def _mach_size_reader(libc: Any) -> Callable[[], float] | None:
    """task_info(mach_task_self(), MACH_TASK_BASIC_INFO)'s resident_size; None when the call fails."""
    task, info, count = _mach_task(libc), TaskBasicInfo(), ctypes.c_uint32()

    def read() -> bool:
        count.value = ctypes.sizeof(info) // 4  # in natural_t (32-bit) words: MACH_TASK_BASIC_INFO_COUNT
        return libc.task_info(task, _MACH_TASK_BASIC_INFO, ctypes.pointer(info), ctypes.pointer(count)) == 0

    if not read():
        return None
    return lambda: info.resident_size / _MB if read() else 0.0


class ProcessMemoryCounters(ctypes.Structure):
    """PROCESS_MEMORY_COUNTERS (psapi.h): two DWORDs, then eight SIZE_Ts."""
    _fields_ = [("cb", ctypes.c_uint32), ("PageFaultCount", ctypes.c_uint32),
                *((name, ctypes.c_size_t) for name in (
                    "PeakWorkingSetSize", "WorkingSetSize", "QuotaPeakPagedPoolUsage", "QuotaPagedPoolUsage",
                    "QuotaPeakNonPagedPoolUsage", "QuotaNonPagedPoolUsage", "PagefileUsage", "PeakPagefileUsage"))]


def _kernel32() -> Any:
    """kernel32, its two functions given their types (a handle is a pointer: whole on 64-bit Windows)."""
    k32 = ctypes.WinDLL("kernel32")  # type: ignore[attr-defined]
    k32.GetCurrentProcess.argtypes, k32.GetCurrentProcess.restype = (), ctypes.c_void_p
    k32.K32GetProcessMemoryInfo.argtypes = (ctypes.c_void_p, ctypes.POINTER(ProcessMemoryCounters), ctypes.c_uint32)
    k32.K32GetProcessMemoryInfo.restype = ctypes.c_int
    return k32


def _windows_size_reader(k32: Any) -> Callable[[], float] | None:
    """K32GetProcessMemoryInfo(GetCurrentProcess())'s WorkingSetSize; None when the call fails."""
    process, counters = k32.GetCurrentProcess(), ProcessMemoryCounters()
    counters.cb = ctypes.sizeof(counters)

    def read() -> bool:
        return bool(k32.K32GetProcessMemoryInfo(process, ctypes.pointer(counters), counters.cb))

    if not read():
        return None
    return lambda: counters.WorkingSetSize / _MB if read() else 0.0
