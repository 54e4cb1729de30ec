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
import re
import sys
from typing import Any

from ..hidden_text import mark
from ..markdown_prep import TERMINAL_CODE_RE

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


# What a terminal does not print as a letter: control characters (C0, DEL, C1) other than a line break and a tab,
# and the bidi overrides, which reorder what follows them ("\u202eevil" read "live"). Embeddings and isolates
# (U+202A-202C, U+2066-2069) are the text's own, as in a name (hidden_text.shown_name): a translated program
# (Fluent, ICU) wraps each name it prints in U+2068 ... U+2069, and they showed as marks.
_UNSHOWN_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202d\u202e]")


def _overwritten(line: str) -> str:
    """A line as a terminal leaves it: each carriage return goes back to its start, and what follows writes over
    it ("progress 9%\rprogress 10%" shows "progress 10%"). Read from the last part back, each earlier one adds
    only what shows past the longest after it: a line's length, not its length times its carriage returns (a
    1 MB line and 100,000 of them held the window 13 s)."""
    parts = line.split("\r")
    shown = parts[-1]
    for part in reversed(parts[:-1]):
        if len(part) > len(shown):
            shown += part[len(shown):]
    return shown


def _symbol(ch: str) -> str:
    code = ord(ch)
    return chr(0x2400 + code) if code < 0x20 else "\u2421" if code == 0x7F else mark(ch)  # "␛", "␡", ‹U+202E›


def terminal_text(text: str) -> str:
    """A program's output as a terminal shows it, for the model and the card alike: its escape codes (colours,
    cursor moves, a window title) left out, each line as its carriage returns left it (a progress counter's last
    state), any other control character as its symbol ("␇") and a bidi override as a mark (‹U+202E›). A card
    showed "▯[31mred▯[0m", a progress line as 100 lines, and "\u202eevil" as "live"."""
    if _UNSHOWN_RE.search(text) is None:
        return text
    text = TERMINAL_CODE_RE.sub("", text).replace("\r\n", "\n")
    if "\r" in text:
        text = "\n".join(_overwritten(line) for line in text.split("\n"))
    return _UNSHOWN_RE.sub(lambda m: _symbol(m.group()), text)
