"""The worker's own memory watch (``--watch-memory-mb``, macOS and Windows): the cap is on its size now, as the
app's watch in /proc is on Linux, not on growth past a peak it may have taken from the app. Run here on Linux,
where the worker watches itself when told to; macOS's Mach call and Windows' GetProcessMemoryInfo are driven
through stand-ins for libc and kernel32 (the real calls are not run by these tests)."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tinyrag_desktop.tools.nanogo import memory, sandbox

# As on macOS (no /proc for the app to read the worker's memory in), from an app that holds 400 MB: a
# runaway that grows to about 250 MB, then runs on.
_RUNAWAY_FROM_A_BIG_APP = """
from tinyrag_desktop.tools.nanogo import sandbox
sandbox._rss_mb = lambda pid: 0.0
sandbox.app_watches_memory = lambda: False
big = bytearray(400 * 1024 * 1024)
for i in range(0, len(big), 4096):
    big[i] = 1
src = ("var all [][]int\\nfor i := 0; i < 300; i++ {\\n\\tall = append(all, make([]int, 100000))\\n}\\n"
       "for len(all) > 0 {\\n}")
res = sandbox.run_sandboxed(src, timeout=10, memory_mb=100)
print(res.status, res.exit_code)
print(res.stderr)
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="the worker's statm: Linux")
def test_a_worker_started_from_an_app_bigger_than_the_cap_still_stops_a_runaway():
    # Linux starts a process with the peak its parent had: the worker took 400 MB as its start and let the
    # program grow up to it, so this one ran on to the tool timeout ("time limit exceeded").
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-c", _RUNAWAY_FROM_A_BIG_APP], capture_output=True, text=True,
                          timeout=60, env=env)
    status, _, stderr = done.stdout.partition("\n")
    assert status == "limit 1", done.stdout + done.stderr
    assert stderr.startswith("nanoGo: memory limit exceeded (100 MB;"), stderr


def test_the_mach_structure_has_the_size_the_macos_sdk_gives_it():
    assert ctypes.sizeof(memory.TaskBasicInfo) == 12 * 4  # MACH_TASK_BASIC_INFO_COUNT natural_t words
    assert memory.TaskBasicInfo.resident_size.offset == 8


class _Libc:
    """libc's task_info as the watch calls it: fills in the resident size, or fails (KERN_FAILURE)."""

    def __init__(self, resident: int, result: int = 0) -> None:
        self.resident, self.result, self.calls = resident, result, []

    def task_info(self, task, flavor, info, count):
        self.calls.append((task, flavor, count.contents.value))
        info.contents.resident_size = self.resident
        return self.result


def test_on_macos_the_size_is_read_from_the_mach_task(monkeypatch):
    libc = _Libc(resident=300 * 1024 * 1024)
    monkeypatch.setattr(memory, "_mach_task", lambda lib: 0x103)
    size = memory._mach_size_reader(libc)
    assert size is not None and size() == 300.0
    libc.resident = 40 * 1024 * 1024
    assert size() == 40.0  # now, not the peak
    assert libc.calls[0] == (0x103, 20, 12)  # mach_task_self(), MACH_TASK_BASIC_INFO, its count


def test_on_macos_a_task_info_that_fails_reads_nothing(monkeypatch):
    monkeypatch.setattr(memory, "_mach_task", lambda lib: 0x103)
    assert memory._mach_size_reader(_Libc(resident=1, result=5)) is None  # the worker falls back to the peak


_POINTER_BITS = ctypes.sizeof(ctypes.c_void_p) * 8


@pytest.mark.skipif(_POINTER_BITS not in (32, 64), reason="Windows runs 32- and 64-bit processes only")
def test_the_windows_structure_has_the_size_the_windows_sdk_gives_it():
    size, working_set_at = {64: (72, 16), 32: (40, 12)}[_POINTER_BITS]
    assert ctypes.sizeof(memory.ProcessMemoryCounters) == size
    assert memory.ProcessMemoryCounters.WorkingSetSize.offset == working_set_at


class _Kernel32:
    """kernel32 as the watch calls it: GetProcessMemoryInfo fills in the working set, or fails (FALSE)."""

    def __init__(self, working_set: int, ok: int = 1) -> None:
        self.working_set, self.ok, self.calls = working_set, ok, []

    def GetCurrentProcess(self):  # noqa: N802 (Windows' names)
        return 0xFFFFFFFFFFFFFFFF  # its pseudo-handle

    def K32GetProcessMemoryInfo(self, process, counters, size):  # noqa: N802
        self.calls.append((process, counters.contents.cb, size))
        counters.contents.WorkingSetSize = self.working_set
        return self.ok


def test_on_windows_the_size_is_the_working_set(monkeypatch):
    kernel = _Kernel32(working_set=300 * 1024 * 1024)
    monkeypatch.setattr(memory, "_OWN_STATM", "/no/proc/self/statm")
    monkeypatch.setattr(memory, "_SYSTEM", "win32")
    monkeypatch.setattr(memory, "_kernel32", lambda: kernel)
    size = memory.own_size_reader()
    assert size is not None and size() == 300.0
    kernel.working_set = 40 * 1024 * 1024
    assert size() == 40.0
    whole = ctypes.sizeof(memory.ProcessMemoryCounters)
    assert kernel.calls[0] == (0xFFFFFFFFFFFFFFFF, whole, whole)
    kernel.ok = 0
    assert memory._windows_size_reader(kernel) is None  # no watch rather than a wrong one


def test_without_kernel32_there_is_no_size_to_read(monkeypatch):
    monkeypatch.setattr(memory, "_OWN_STATM", "/no/proc/self/statm")
    monkeypatch.setattr(memory, "_SYSTEM", "win32")
    monkeypatch.setattr(memory, "_kernel32", lambda: memory.ctypes.WinDLL("kernel32"))  # Linux: no WinDLL
    assert memory.own_size_reader() is None


# The worker as on Windows: no /proc, no resource module (so no ru_maxrss), its working set read through a
# stand-in for kernel32 that says its resident size.
_WORKER_ON_WINDOWS = """
import os, sys
sys.modules["resource"] = None
from tinyrag_desktop.tools.nanogo import memory, worker

class Kernel32:
    def GetCurrentProcess(self):
        return 0xFFFFFFFFFFFFFFFF

    def K32GetProcessMemoryInfo(self, process, counters, size):
        counters.contents.WorkingSetSize = int(memory.resident_mb(os.getpid()) * 1024 * 1024)
        return 1

memory._OWN_STATM, memory._SYSTEM, memory._kernel32 = "/no/proc/self/statm", "win32", Kernel32
worker.main(sys.argv[1:])
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="the stand-in reads the worker's statm: Linux")
def test_on_windows_the_worker_stops_a_runaway_in_the_words_linux_uses(monkeypatch):
    # Windows has neither /proc for the app nor ru_maxrss for the worker: a program grew unchecked.
    monkeypatch.setattr(sandbox, "app_watches_memory", lambda: False)
    monkeypatch.setattr(sandbox, "_rss_mb", lambda pid: 0.0)
    command = sandbox.worker_command
    monkeypatch.setattr(sandbox, "worker_command",
                        lambda *args: [sys.executable, "-c", _WORKER_ON_WINDOWS, *command(*args)[4:]])
    src = ("var all [][]int\nfor i := 0; i < 300; i++ {\n\tall = append(all, make([]int, 100000))\n}\n"
           "for len(all) > 0 {\n}")
    done = sandbox.run_sandboxed(src, timeout=10, memory_mb=100)
    assert (done.status, done.exit_code) == ("limit", 1), done
    assert done.stderr.startswith("nanoGo: memory limit exceeded (100 MB; raise 'nanoGo memory (MB)'"), done.stderr
