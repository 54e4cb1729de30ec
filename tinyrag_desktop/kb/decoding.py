"""Bytes to text for the text readers: by the byte order mark, else UTF-8, with the lines of a file that
mixes encodings read as Windows-1252 where they are not UTF-8; NULs dropped.

Split from readers.py, so that the readers of each markup (markdown.py, rst.py, data_formats.py) decode as
it does without importing it.
"""

from __future__ import annotations

import re
from typing import TypeVar

from .html_reader import bom_codec

_Text = TypeVar("_Text", str, bytes)


def decode_text(data: bytes) -> str:
    """Bytes to text: by the byte order mark (UTF-8, UTF-16 or UTF-32) when there is one, else UTF-8;
    lines that are not UTF-8 are read as Windows-1252 (see _decode_mixed). NUL bytes are dropped."""
    codec = bom_codec(data)
    if codec in ("utf-16", "utf-32"):
        text = data.decode(codec, errors="replace")
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = _decode_mixed(data.removeprefix(b"\xef\xbb\xbf"))
    return without_nul(text) if "\x00" in text else text


_NULS_IN_A_WORD = re.compile(r"(?<=[^\s\x00])\x00+(?=[^\s\x00])")
_NULS_IN_A_WORD_BYTES = re.compile(_NULS_IN_A_WORD.pattern.encode())


def without_nul(text: _Text) -> _Text:
    """``text`` without NUL characters, which are never text (a crashed program's padding, a C string's
    end) and only break the search index and what shows a passage. Those between two words part them.
    Bytes must be in an ASCII-based encoding (not UTF-16 or UTF-32)."""
    if isinstance(text, bytes):
        return _NULS_IN_A_WORD_BYTES.sub(b" ", text).replace(b"\x00", b"")
    return _NULS_IN_A_WORD.sub(" ", text).replace("\x00", "")


def _decode_mixed(data: bytes) -> str:
    """Text that is not valid UTF-8 throughout: Windows-1252 when no part of it is UTF-8, else line by line.

    A line that is valid UTF-8 is read as such. Any other line is read as UTF-8 too when it holds at least
    as many well-formed UTF-8 characters as bad bytes (a damaged UTF-8 line: the bad bytes become U+FFFD),
    else as Windows-1252 (a Latin-1 or Windows line). So one bad byte in a UTF-8 file spoils one character,
    not every accent in the file ("CafÃ©"); a Latin-1 file, or UTF-8 and Latin-1 files joined, read right.
    """
    if _utf8_tally(data)[0] == 0:  # not one UTF-8 character: Latin-1 or Windows-1252 throughout
        return data.decode("cp1252", errors="replace")
    lines = data.split(b"\n")
    for n, line in enumerate(lines):
        try:
            lines[n] = line.decode("utf-8")
        except UnicodeDecodeError:
            good, bad = _utf8_tally(line)
            lines[n] = line.decode("utf-8" if good >= bad else "cp1252", errors="replace")
    return "\n".join(lines)


def _utf8_tally(data: bytes) -> tuple[int, int]:
    """How many well-formed UTF-8 characters beyond ASCII ``data`` holds, and how many bad bytes."""
    text = data.decode("utf-8", errors="replace")
    bad = text.count("\ufffd") - data.count("\ufffd".encode())
    return len(text) - len(text.encode("ascii", errors="ignore")) - bad, bad
