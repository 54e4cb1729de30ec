"""How much memory a nanoGo worker holds now (its resident size): the cap ``nanogo_memory_mb`` is on it.

On Linux the app reads the worker's in /proc (sandbox.py). On macOS, which has no /proc, the worker reads its
own, from its Mach task (worker.py, ``--watch-memory-mb``). On Windows its own job holds it to the cap
(winjob.cap_own_memory). The Mach call is not run by the tests (they run on Linux): it is driven through a
stand-in for libc, and the structure is checked against the size the macOS SDK gives it.
"""

from __future__ import annotations

import ctypes
import os
import sys
from typing import Any, Callable

_MB = 1024 * 1024
_MACH_TASK_BASIC_INFO = 20  # the flavor of task_info (mach/task_info.h)


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
    """What reads this process's resident size now, in MB: in /proc (Linux), from its Mach task (macOS); None
    where neither can be read."""
    if os.path.exists("/proc/self/statm"):
        pid = os.getpid()
        return lambda: resident_mb(pid)
    if sys.platform != "darwin":
        return None
    try:
        return _mach_size_reader(_libc())
    except (OSError, AttributeError, ValueError):
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
