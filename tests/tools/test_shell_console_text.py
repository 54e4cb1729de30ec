"""A shell command's output on Windows, written in the console's code page (cp850: "é" is the byte 0x82), reads
as written; off Windows it is read as UTF-8, as before. The Windows calls (kernel32's code pages) are made
through a stand-in here: these tests run on Linux, and the real calls are not run by them."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from tinyrag_desktop.tools import console_text, shell
from tinyrag_desktop.tools.registry import ToolContext, output_teller

FOLDER = " Répertoire de C:\\Users\\José\r\n  Résumé.txt  Ünïcode\r\n"


class _Kernel32:
    """kernel32's two code pages: the console's (0 when the app has none) and the system's OEM one."""

    def __init__(self, console: int, oem: int = 850) -> None:
        self.console, self.oem, self.asked = console, oem, 0

    def GetConsoleOutputCP(self) -> int:  # noqa: N802 (Windows' names)
        self.asked += 1
        return self.console

    def GetOEMCP(self) -> int:  # noqa: N802
        self.asked += 1
        return self.oem


@pytest.fixture
def windows(monkeypatch):
    """console_text as on Windows, started from the Start menu (no console: the OEM code page, cp850)."""
    kernel = _Kernel32(console=0)
    monkeypatch.setattr(console_text, "_ON_WINDOWS", True)
    monkeypatch.setattr(console_text, "_kernel32", lambda: kernel)
    return kernel


def test_output_in_the_oem_code_page_reads_as_written(windows) -> None:
    # It came back "R�pertoire de C:\Users\Jos�": each letter beyond ASCII a lone byte, not UTF-8.
    assert shell._format_output(FOLDER.encode("cp850"), b"", 1000) == (
        "\n--- stdout ---\n Répertoire de C:\\Users\\José\n  Résumé.txt  Ünïcode")


def test_the_code_page_of_the_app_s_console_comes_first(windows) -> None:
    windows.console = 866  # `chcp 866` in the console `ask` was started from: Cyrillic
    assert console_text.output_text("Привет, мир\r\n".encode("cp866")) == "Привет, мир\n"


def test_output_that_is_utf_8_stays_utf_8(windows) -> None:
    # git, Python in UTF-8 mode, `chcp 65001`: read as cp850, "日本" became "µùÑµ£¼"
    assert console_text.output_text("日本 café ✓\r\n".encode("utf-8")) == "日本 café ✓\n"
    assert windows.asked == 0  # no code page is needed


def test_a_code_page_python_does_not_know_falls_back_to_the_locale_s(windows, monkeypatch) -> None:
    windows.console = 1  # no codec named cp1
    monkeypatch.setattr(console_text.locale, "getpreferredencoding", lambda do_setlocale=True: "cp1252")
    assert console_text.output_text(b"caf\xe9") == "café"


def test_without_kernel32_the_locale_s_code_page_is_used(monkeypatch) -> None:
    monkeypatch.setattr(console_text, "_ON_WINDOWS", True)
    monkeypatch.setattr(console_text, "_kernel32", lambda: console_text.ctypes.WinDLL("kernel32"))  # Linux: none
    monkeypatch.setattr(console_text.locale, "getpreferredencoding", lambda do_setlocale=True: "cp1252")
    assert console_text.output_text(b"caf\xe9") == "café"


def test_output_told_as_it_comes_reads_as_written(windows) -> None:
    # What a running command printed, kept by an answer stopped while it runs: UTF-8 while it is (a letter
    # cut between two blocks joined), then the code page from the block that is not UTF-8.
    told: list[str] = []
    tell = output_teller(told.append, 1000, console_text.output_decoder())
    for block in (b"caf", "é".encode("utf-8")[:1], "é".encode("utf-8")[1:] + b" ok\n", "Résumé".encode("cp850")):
        tell(block)
    assert "".join(told) == "café ok\nRésumé"


@pytest.mark.skipif(sys.platform == "win32", reason="printf from /bin/sh")
def test_a_command_s_output_is_read_in_the_code_page_as_it_comes_and_in_its_result(windows, tmp_path: Path) -> None:
    # run on Linux with the Windows decoding: a command that prints cp850 bytes ("caf\202" is "café")
    told: list[str] = []
    context = ToolContext(settings={"allow_shell_exec": True, "tool_timeout": 10.0}, data_dir=tmp_path,
                          output=told.append)
    result = asyncio.run(shell.shell(r"printf 'caf\202\n'", context))
    assert result.text.endswith("--- stdout ---\ncafé")
    assert "".join(told) == "café\n"


@pytest.mark.skipif(sys.platform == "win32", reason="Linux and macOS")
def test_off_windows_output_is_read_as_utf_8_as_before(monkeypatch) -> None:
    monkeypatch.setattr(console_text, "_kernel32", lambda: pytest.fail("kernel32 asked for off Windows"))
    assert console_text.output_text("Résumé\r\n".encode("cp850")) == "R\ufffdsum\ufffd\n"
    assert console_text.output_text("Résumé".encode("utf-8")) == "Résumé"
