"""Windows' job object (winjob.py), which ends the app's children with it: the Windows calls are made through a
stand-in for kernel32 here (these tests run on Linux; the real calls are not run by them), the structure is
checked against the size the Windows SDK gives it, and off Windows nothing is called."""

from __future__ import annotations

import asyncio
import ctypes
import logging
import os
import signal
import sys
import threading

import pytest

from tinyrag_desktop import winjob

_POINTER_BITS = ctypes.sizeof(ctypes.c_void_p) * 8
_POSIX = pytest.mark.skipif(sys.platform == "win32", reason="a real command in a POSIX process group")


class _Kernel32:
    """kernel32 as the job needs it: records each call, hands out handles; ``refuse`` names calls that fail."""

    def __init__(self, refuse: tuple[str, ...] = ()) -> None:
        self.calls: list[tuple] = []
        self.refuse = refuse
        self.limits: list[tuple[int, int]] = []  # (LimitFlags, size) each SetInformationJobObject was given

    def _call(self, name: str, *args, handle: int = 1):
        self.calls.append((name, *args))
        return 0 if name in self.refuse else handle

    def CreateJobObjectW(self, attributes, name):  # noqa: N802 (Windows' names)
        made = sum(call[0] == "CreateJobObjectW" for call in self.calls)
        return self._call("CreateJobObjectW", attributes, name, handle=0x70 + made)  # 0x70, 0x71 …

    def SetInformationJobObject(self, job, kind, address, size):  # noqa: N802
        self.limits.append((winjob.ExtendedLimits.from_address(address).BasicLimitInformation.LimitFlags, size))
        return self._call("SetInformationJobObject", job, kind)

    def OpenProcess(self, rights, inherit, pid):  # noqa: N802
        return self._call("OpenProcess", rights, inherit, pid, handle=0x500 + pid)

    def AssignProcessToJobObject(self, job, process):  # noqa: N802
        return self._call("AssignProcessToJobObject", job, process)

    def CloseHandle(self, handle):  # noqa: N802
        return self._call("CloseHandle", handle)

    def TerminateJobObject(self, job, code):  # noqa: N802
        return self._call("TerminateJobObject", job, code)


class _Child:
    def __init__(self, pid: int) -> None:
        self.pid = pid


@pytest.fixture
def on_windows(monkeypatch):
    """winjob as on Windows, its kernel32 the stand-in, and no job made yet."""
    kernel = _Kernel32()
    monkeypatch.setattr(winjob, "_ON_WINDOWS", True)
    monkeypatch.setattr(winjob, "_kernel32", lambda: kernel)
    monkeypatch.setattr(winjob, "_JOB", None)
    monkeypatch.setattr(winjob, "_last_error", lambda: OSError(5, "Access is denied"))
    return kernel


def test_off_windows_a_child_is_left_as_it_is(monkeypatch):
    assert winjob._ON_WINDOWS is False  # these tests run on Linux
    monkeypatch.setattr(winjob, "_kernel32", lambda: pytest.fail("kernel32 asked for off Windows"))
    monkeypatch.setattr(winjob, "_JOB", None)
    child = _Child(42)
    assert winjob.adopted(child) is child
    assert winjob._JOB is None  # no job made


@pytest.mark.skipif(_POINTER_BITS not in (32, 64), reason="Windows runs 32- and 64-bit processes only")
def test_the_limits_have_the_size_and_layout_the_windows_sdk_gives_them():
    limits = winjob.job_limits()
    size, io_at, flags_at = {64: (144, 64, 16), 32: (112, 48, 16)}[_POINTER_BITS]
    assert ctypes.sizeof(limits) == size
    assert winjob.ExtendedLimits.IoInfo.offset == io_at
    assert winjob._BasicLimits.LimitFlags.offset == flags_at
    assert limits.BasicLimitInformation.LimitFlags == 0x2000 | 0x0800  # kill on close; breakaway when asked


def test_on_windows_each_child_is_put_in_one_job_that_kills_on_close(on_windows):
    first, second = _Child(7), _Child(8)
    assert winjob.adopted(first) is first and winjob.adopted(second) is second
    job = 0x70
    assert on_windows.calls == [
        ("CreateJobObjectW", None, None), ("SetInformationJobObject", job, 9),  # JobObjectExtendedLimitInformation
        ("OpenProcess", 0x0101, False, 7), ("AssignProcessToJobObject", job, 0x507), ("CloseHandle", 0x507),
        ("OpenProcess", 0x0101, False, 8), ("AssignProcessToJobObject", job, 0x508), ("CloseHandle", 0x508)]
    assert on_windows.limits == [(0x2000 | 0x0800, ctypes.sizeof(winjob.ExtendedLimits))]


def test_a_job_windows_will_not_set_up_leaves_the_children_as_before(on_windows, caplog):
    on_windows.refuse = ("SetInformationJobObject",)
    child = _Child(7)
    with caplog.at_level(logging.WARNING, logger="tinyrag_desktop.winjob"):
        assert winjob.adopted(child) is child
        assert winjob.adopted(_Child(8)) is not None
    names = [call[0] for call in on_windows.calls]
    assert names == ["CreateJobObjectW", "SetInformationJobObject", "CloseHandle"]  # tried once, then let be
    assert "will not end with the app" in caplog.text and "Access is denied" in caplog.text


def test_a_child_windows_will_not_put_in_the_job_is_returned_all_the_same(on_windows, caplog):
    on_windows.refuse = ("AssignProcessToJobObject",)
    child = _Child(7)
    with caplog.at_level(logging.WARNING, logger="tinyrag_desktop.winjob"):
        assert winjob.adopted(child) is child
    assert on_windows.calls[-1] == ("CloseHandle", 0x507)  # its handle is not left open
    assert "Process 7 will not end with the app" in caplog.text


def test_a_failing_call_never_loses_the_started_child(on_windows):
    def broken(*_args):
        raise ctypes.ArgumentError("argument 3: wrong type")

    on_windows.OpenProcess = broken
    child = _Child(7)
    assert winjob.adopted(child) is child


def test_kernel32_functions_are_given_their_types(monkeypatch):
    class _Function:
        argtypes = restype = None

    class _Dll:
        def __init__(self, name, use_last_error=False):
            assert (name, use_last_error) == ("kernel32", True)
            self.functions = {}

        def __getattr__(self, name):
            return self.functions.setdefault(name, _Function())

    monkeypatch.setattr(ctypes, "WinDLL", _Dll, raising=False)
    k32 = winjob._kernel32()
    assert set(k32.functions) == {"CreateJobObjectW", "SetInformationJobObject", "OpenProcess",
                                  "AssignProcessToJobObject", "CloseHandle", "TerminateJobObject"}
    for name in ("CreateJobObjectW", "OpenProcess"):
        assert k32.functions[name].restype is ctypes.c_void_p  # a handle, whole on 64-bit Windows
    assert k32.functions["AssignProcessToJobObject"].argtypes == (ctypes.c_void_p, ctypes.c_void_p)


def test_the_nanogo_worker_and_a_shell_command_are_put_in_the_job(on_windows, tmp_path):
    from tinyrag_desktop.tools.nanogo.sandbox import run_sandboxed
    from tinyrag_desktop.tools.shell import run_command

    done = run_sandboxed('package main\n\nfunc main() { println("hi") }\n', timeout=30)
    assert done.exit_code == 0, done
    asyncio.run(run_command("true", tmp_path, timeout=30))
    opened = [call for call in on_windows.calls if call[0] == "OpenProcess"]
    assigned = [call for call in on_windows.calls if call[0] == "AssignProcessToJobObject"]
    # the worker in the app's job; the command in it and in a job of its own, let go when it has ended
    assert len(opened) == len(assigned) == 3 and len({call[3] for call in opened}) == 2
    own = assigned[-1][1]
    assert own == 0x71 and on_windows.calls[-1] == ("CloseHandle", own)


def test_a_shell_command_gets_a_job_of_its_own_nested_in_the_apps_that_does_not_kill_on_close(on_windows):
    child = _Child(7)
    winjob.adopted(child)
    job = winjob.own_job(child)
    assert job is not None
    assert on_windows.calls[5:] == [
        ("CreateJobObjectW", None, None), ("SetInformationJobObject", 0x71, 9),
        ("OpenProcess", 0x0101, False, 7), ("AssignProcessToJobObject", 0x71, 0x507), ("CloseHandle", 0x507)]
    # breakaway when asked, as the app's; not killed on close: what a command leaves running ends with the app
    assert on_windows.limits[-1] == (0x0800, ctypes.sizeof(winjob.ExtendedLimits))
    del on_windows.calls[:]
    job.end()
    job.end()  # once only
    job.close()
    assert on_windows.calls == [("TerminateJobObject", 0x71, 1), ("CloseHandle", 0x71)]


def test_a_shell_commands_job_let_go_ends_nothing(on_windows):
    job = winjob.own_job(_Child(7))
    job.close()
    assert [call[0] for call in on_windows.calls][-2:] == ["CloseHandle", "CloseHandle"]
    assert "TerminateJobObject" not in [call[0] for call in on_windows.calls]


def test_a_command_windows_will_not_give_a_job_runs_without_one(on_windows, caplog):
    on_windows.refuse = ("AssignProcessToJobObject",)
    with caplog.at_level(logging.WARNING, logger="tinyrag_desktop.winjob"):
        assert winjob.own_job(_Child(7)) is None
    assert on_windows.calls[-1] == ("CloseHandle", 0x71)  # the unused job let go
    assert "background processes may outlive it" in caplog.text


def test_a_command_windows_will_not_open_gets_no_job_that_would_end_nothing(on_windows):
    on_windows.refuse = ("OpenProcess",)
    assert winjob.own_job(_Child(7)) is None  # kill_tree then falls back on taskkill /T
    assert on_windows.calls[-1] == ("CloseHandle", 0x71)


def test_off_windows_a_command_has_no_job_of_its_own(monkeypatch):
    monkeypatch.setattr(winjob, "_kernel32", lambda: pytest.fail("kernel32 asked for off Windows"))
    assert winjob.own_job(_Child(7)) is None


class _Command:
    """A shell command's process as kill_tree reads it: exited (``returncode`` 0) or still running (None)."""

    pid = 7

    def __init__(self, returncode: int | None) -> None:
        self.returncode = returncode


class _Job:
    """A command's own job (winjob.OwnJob) that says in ``order`` when it is ended."""

    def __init__(self, order: list) -> None:
        self.order = order

    def end(self):
        self.order.append("job")


@pytest.fixture
def shell_on_windows(monkeypatch):
    from tinyrag_desktop.tools import shell

    monkeypatch.setattr(shell, "_IS_WINDOWS", True)
    return shell


def test_on_windows_what_a_command_left_running_is_ended_through_its_job_after_it_exited(shell_on_windows,
                                                                                         monkeypatch):
    order = []
    monkeypatch.setattr(shell_on_windows.subprocess, "run", lambda args, **kwargs: order.append(args[0]))
    asyncio.run(shell_on_windows.kill_tree(_Command(0), _Job(order)))
    assert order == ["job"]  # taskkill /T would find nothing under an exited process


def test_on_windows_a_command_still_running_is_ended_by_taskkill_then_its_job(shell_on_windows, monkeypatch):
    # what cmd.exe started in the moment before it was put in its job is only found by taskkill /T
    order = []
    monkeypatch.setattr(shell_on_windows.subprocess, "run", lambda args, **kwargs: order.append(args[0]))
    asyncio.run(shell_on_windows.kill_tree(_Command(None), _Job(order)))
    assert order == ["taskkill", "job"]


class _Taskkill:
    """A stand-in for ``subprocess.run`` running taskkill: it runs until the event loop lets it end
    (``released``), as the real one runs until Windows has ended the tree. Run on the loop's own thread it
    could wait for good: it says so in ``order`` and returns."""

    def __init__(self, order: list) -> None:
        self.order = order
        self.loop = asyncio.get_running_loop()
        self.began = asyncio.Event()
        self.released = threading.Event()
        self.loop_thread = threading.get_ident()

    def __call__(self, args, **kwargs):
        if threading.get_ident() == self.loop_thread:
            self.order.append("taskkill on the event loop")
            return
        self.order.append(args[0])
        self.loop.call_soon_threadsafe(self.began.set)
        self.released.wait(60)  # only a guard: the loop releases it as soon as it turns
        self.order.append("taskkill ended")

    @classmethod
    async def killing(cls, shell, monkeypatch, order: list) -> tuple[_Taskkill, asyncio.Future]:
        """The stand-in, and a running command's kill started with it: once taskkill runs (or the kill has
        ended without it)."""
        taskkill = cls(order)
        monkeypatch.setattr(shell.subprocess, "run", taskkill)
        kill = asyncio.ensure_future(shell.kill_tree(_Command(None), _Job(order)))
        began = asyncio.ensure_future(taskkill.began.wait())
        await asyncio.wait({kill, began}, return_when=asyncio.FIRST_COMPLETED)
        began.cancel()
        return taskkill, kill


def test_on_windows_the_event_loop_turns_while_taskkill_ends_a_command(shell_on_windows, monkeypatch):
    # taskkill waits until Windows has ended the tree (0.1–0.5 s): run on the event loop, it froze the window
    order = []

    async def stop():
        taskkill, kill = await _Taskkill.killing(shell_on_windows, monkeypatch, order)
        order.append("the loop turns")
        taskkill.released.set()
        await asyncio.wait({kill})
        return kill

    kill = asyncio.run(stop())
    assert order == ["taskkill", "the loop turns", "taskkill ended", "job"]
    assert kill.result() is None


def test_on_windows_a_kill_cancelled_while_taskkill_runs_still_ends_the_job_before_it_is_let_go(
        shell_on_windows, monkeypatch):
    # a second Stop (or the tool's timeout) while taskkill ran must not let the command's job go before it ends
    order = []

    async def stop():
        taskkill, kill = await _Taskkill.killing(shell_on_windows, monkeypatch, order)
        kill.cancel()

        def release():  # after the cancellation has reached the kill
            order.append("the kill was let go" if kill.done() else "the kill goes on")
            taskkill.released.set()

        asyncio.get_running_loop().call_soon(release)
        await asyncio.wait({kill})
        return kill

    kill = asyncio.run(stop())
    assert order == ["taskkill", "the kill goes on", "taskkill ended", "job"]
    assert kill.cancelled()  # and then it is cancelled


class _TaskkillEndingTheTree(_Taskkill):
    """The stand-in that, once released, ends the command's process group as taskkill /T ends its tree: the
    command in these tests is a real one (started as off Windows, in a group of its own)."""

    def __call__(self, args, **kwargs):
        super().__call__(args, **kwargs)
        try:
            os.killpg(int(args[-1]), signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.fixture
def killed_as_on_windows(monkeypatch):
    """A real command, killed as on Windows once started; ``order`` says when its kill ran, when its output
    was given up on, when its pipes were closed and when it was reaped; ``started`` holds its process."""
    from tinyrag_desktop.tools import shell

    order, started = [], []

    def adopted(proc):
        started.append(proc)
        monkeypatch.setattr(shell, "_IS_WINDOWS", True)
        return proc

    def saying(what, function):
        def said(*args):
            result = function(*args)
            order.append(what)
            return result
        return said

    async def reap(proc, readers, reap=shell._reap):
        await reap(proc, readers)
        order.append("reaped")

    monkeypatch.setattr(shell, "adopted", adopted)
    monkeypatch.setattr(shell, "_cancel_quietly", saying("output given up", shell._cancel_quietly))
    monkeypatch.setattr(shell, "_close_pipes", saying("pipes closed", shell._close_pipes))
    monkeypatch.setattr(shell, "_reap", reap)
    return shell, order, started


async def _stopped_while_taskkill_runs(shell, monkeypatch, order: list, command, cwd, timeout: float,
                                       cancels: int) -> asyncio.Task:
    """Run ``command``; once taskkill runs (after ``cancels`` Stops, or after its timeout when 0), Stop it
    again, then let taskkill end the tree: the command's task, ended."""
    taskkill = _TaskkillEndingTheTree(order)
    monkeypatch.setattr(shell.subprocess, "run", taskkill)
    printed = asyncio.Event()
    task = asyncio.ensure_future(shell.run_command(command, cwd, timeout, output=lambda _text: printed.set()))
    if cancels:
        await printed.wait()
        task.cancel()
    began = asyncio.ensure_future(taskkill.began.wait())
    await asyncio.wait({began, task}, return_when=asyncio.FIRST_COMPLETED)
    assert not task.done(), task
    task.cancel()  # a second Stop (or the first, after the timeout) while taskkill runs
    asyncio.get_running_loop().call_soon(taskkill.released.set)
    await asyncio.wait({task})
    return task


@_POSIX
def test_on_windows_a_command_stopped_again_while_taskkill_runs_is_still_reaped_and_its_pipes_closed(
        killed_as_on_windows, monkeypatch, tmp_path):
    # the second Stop was raised out of the clean-up: the output's readers and the pipes were left to the
    # garbage collector ("_GatheringFuture exception was never retrieved")
    shell, order, started = killed_as_on_windows
    task = asyncio.run(_stopped_while_taskkill_runs(shell, monkeypatch, order, "echo hi; sleep 37",
                                                    tmp_path, 60, cancels=1))
    assert task.cancelled()
    assert order == ["output given up", "taskkill", "taskkill ended", "pipes closed"]
    assert started[0].returncode is not None  # reaped before its cancellation completed


@_POSIX
def test_on_windows_a_command_stopped_while_taskkill_ends_it_after_its_timeout_is_still_reaped(
        killed_as_on_windows, monkeypatch, tmp_path):
    shell, order, started = killed_as_on_windows
    task = asyncio.run(_stopped_while_taskkill_runs(shell, monkeypatch, order, "sleep 37", tmp_path, 0.05,
                                                    cancels=0))
    assert task.cancelled()
    assert order == ["taskkill", "taskkill ended", "reaped"]
    assert started[0].returncode is not None
