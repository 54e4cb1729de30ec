"""A shell command's output as text: UTF-8 on Linux and macOS; on Windows the console's code page when it is not.

cmd.exe and most console programs write to a pipe in the console's code page (the OEM one: cp437, cp850,
cp866, cp932…), not in UTF-8: "é" is the one byte 0x82 in cp850, which read as UTF-8 showed as "�", so a
``dir`` of a folder named "Résumés" came back garbled. Programs that do write UTF-8 (git, Python in UTF-8
mode, a console set to ``chcp 65001``) are read as such: output that is valid UTF-8 is taken as UTF-8, which
text in a code page seldom is (its letters beyond ASCII are lone bytes, which UTF-8 never has).

Off Windows nothing changes: UTF-8, each byte that is not shown as "�". The Windows calls are not run by the
tests (they run on Linux): they are driven through a stand-in for kernel32.
"""

from __future__ import annotations

import codecs
import ctypes
import locale
import sys
from typing import Any

_ON_WINDOWS = sys.platform == "win32"


def _kernel32() -> Any:
    return ctypes.WinDLL("kernel32")  # type: ignore[attr-defined]


def console_encoding() -> str:
    """The code page console programs write in: the console's (as ``chcp`` left it), else the system's OEM
    one (the app has no console when started from the Start menu); the ANSI one (the locale's) when
    kernel32 names neither, or one Python has no codec for."""
    try:
        k32 = _kernel32()
        return codecs.lookup(f"cp{k32.GetConsoleOutputCP() or k32.GetOEMCP()}").name
    except (OSError, AttributeError, LookupError):
        return locale.getpreferredencoding(False)


class _Utf8OrCodePage(codecs.IncrementalDecoder):
    """An incremental decoder: UTF-8 while the output is, the console's code page from the block where it
    is not (a character cut between two blocks is joined first, as any incremental decoder does)."""

    def __init__(self) -> None:
        super().__init__("replace")
        self._utf8 = codecs.getincrementaldecoder("utf-8")("strict")
        self._other: codecs.IncrementalDecoder | None = None

    def decode(self, data: bytes, final: bool = False) -> str:
        if self._other is None:
            held = self._utf8.getstate()[0]  # the start of a character the block before ended with
            try:
                return self._utf8.decode(data, final)
            except UnicodeDecodeError:
                self._other = codecs.getincrementaldecoder(console_encoding())("replace")
                data = held + data
        return self._other.decode(data, final)


def output_decoder() -> codecs.IncrementalDecoder:
    """A decoder for one stream of a command's output, read in blocks (``decode(block, final)``)."""
    if _ON_WINDOWS:
        return _Utf8OrCodePage()
    return codecs.getincrementaldecoder("utf-8")("replace")


def output_text(data: bytes) -> str:
    """The whole of one stream of a command's output as text, its Windows line ends made "\\n"."""
    return output_decoder().decode(data, final=True).replace("\r\n", "\n")
