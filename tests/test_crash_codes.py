"""Windows' crash codes said in words wherever a child process's exit status reaches a person: the shell
tool's result and card, nanoGo's run, the PDF reader, the built-in model server.

A process here cannot end with such a code (a Unix exit status is 0 to 255), so where a process is needed
a stand-in gives the code Windows would."""

from __future__ import annotations

import io

import pytest

from tinyrag_desktop.crash_codes import crash_words, exit_words
from tinyrag_desktop.kb import pdf_apart
from tinyrag_desktop.localmodel import LocalModelServer
from tinyrag_desktop.tools.nanogo.sandbox import _result
from tinyrag_desktop.tools.shell import describe_status, status_note

ACCESS_VIOLATION = 3221225477  # 0xC0000005 as Windows gives it
DLL_NOT_FOUND = 0xC0000135


@pytest.mark.parametrize("code, words", [
    (ACCESS_VIOLATION, "0xC0000005: it crashed: an access violation"),
    (-1073741819, "0xC0000005: it crashed: an access violation"),  # the same, read as a signed number
    (0xC00000FD, "0xC00000FD: it crashed: a stack overflow"),
    (DLL_NOT_FOUND, "0xC0000135: it could not start: a DLL it needs is missing"),
    (0xC0001234, "0xC0001234: it crashed"),  # one not named is still a crash
])
def test_crash_codes_are_named(code: int, words: str) -> None:
    assert crash_words(code) == words


@pytest.mark.parametrize("code", [0, 1, 3, 255, -11, -9, -(1 << 15), 0x80000003 - 1, None])
def test_ordinary_exit_statuses_and_unix_signals_are_not_crash_codes(code) -> None:
    assert crash_words(code) is None
    assert exit_words(code) == str(code)


def test_the_shell_tool_says_what_a_windows_crash_was() -> None:
    line = describe_status(ACCESS_VIOLATION)
    assert line == "exit status: 3221225477 (0xC0000005: it crashed: an access violation)"
    result = f"$ prog.exe\n{line}\n--- stdout ---\nhalf"
    assert status_note("prog.exe", result) == ("The command ended with exit status 3221225477 "
                                              "(0xC0000005: it crashed: an access violation).")
    assert describe_status(3) == "exit status: 3" and describe_status(-11).startswith("ended by signal SIGSEGV")


@pytest.mark.parametrize("code, said", [(4294967295, "-1"), (4294967294, "-2"), (0xFFFF0000, "-65536")])
def test_a_programs_own_negative_exit_status_on_windows_is_said_as_it_wrote_it_not_as_a_crash(code, said):
    # exit /b -1, sys.exit(-1), process.exit(-2): Windows keeps them unsigned
    assert crash_words(code) is None
    assert exit_words(code) == said
    assert describe_status(code) == f"exit status: {said}"
    assert status_note("prog.exe", f"$ prog.exe\nexit status: {said}\n") == f"The command ended with exit status {said}."


def test_nanogo_on_windows_reports_a_stack_overflow_as_on_unix() -> None:
    on_unix = _result(-11, b"", b"", None, 5.0, 512, 65536)
    on_windows = _result(0xC00000FD, b"", b"", None, 5.0, 512, 65536)
    assert on_windows == on_unix
    assert "fatal error: stack overflow" in on_windows.stderr and on_windows.status == "panic"


def test_nanogo_on_windows_says_its_process_crashed_instead_of_an_empty_panic() -> None:
    run = _result(ACCESS_VIOLATION, b"printed", b"", None, 5.0, 512, 65536)
    assert run.stdout == "printed" and run.exit_code == 1
    assert run.stderr == "nanoGo: the program's process crashed (0xC0000005: it crashed: an access violation)\n"


class _Ended:
    """A PDF reader process that has ended with ``returncode``."""

    def __init__(self, returncode: int) -> None:
        self.returncode, self.pid = returncode, 4242
        self.stdin, self.stdout = io.BytesIO(), io.BytesIO()

    def kill(self) -> None:
        pass

    def wait(self) -> int:
        return self.returncode


def _helper_ended(code: int) -> str:
    helper = object.__new__(pdf_apart._Helper)
    helper.process, helper.stopped, helper.most_mb = _Ended(code), False, 1024
    return helper._ended()


def test_the_pdf_reader_crashing_on_windows_is_a_crash_and_running_out_of_memory_is_too_large() -> None:
    assert _helper_ended(ACCESS_VIOLATION) == pdf_apart.CRASHED
    assert _helper_ended(0xC0000017) == pdf_apart.TOO_LARGE.format(mb=1024)
    assert _helper_ended(3) == pdf_apart.ENDED.format(code=3)


class _Exited:
    def __init__(self, returncode: int) -> None:
        self.returncode = returncode

    def poll(self) -> int:
        return self.returncode


def test_the_built_in_model_server_missing_a_dll_says_what_to_install(tmp_path) -> None:
    gguf = tmp_path / "m.gguf"
    gguf.write_text("weights", encoding="utf-8")
    server = LocalModelServer(gguf, log_path=tmp_path / "absent.log")
    server._proc = _Exited(DLL_NOT_FOUND)
    server.stop_sync = lambda: None  # the stand-in has nothing to stop
    message = str(server._exited_error())
    assert message.startswith("The built-in model server stopped while starting (exit 3221225781 "
                              "(0xC0000135: it could not start: a DLL it needs is missing)).")
    assert "Visual C++ Redistributable" in message
    server._proc = _Exited(3)
    assert str(server._exited_error()) == "The built-in model server stopped while starting (exit 3)."
