"""What the command line knows of the terminal it writes to: how wide it is, and whether it is one.

``ask``'s status lines (cliprint) and ``kb add``'s progress line (kb.cli) both read it here, so that a
terminal is measured one way: they once differed on a terminal that reports 0 columns."""

from __future__ import annotations

import os
from typing import Any

# The characters that reorder the text after them (LRE, RLE, PDF, LRO, RLO; LRI, RLI, FSI, PDI): printed, a
# file name or a model's words could show reversed ("‮txt.exe" as "exe.txt"). Shown escaped, as controls are.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

# The width of a terminal that does not say its own: one that reports 0 columns (a pseudo-terminal nobody
# sized: `script`, `docker exec -t`, a CI runner), or a stream that is no terminal at all.
DEFAULT_COLUMNS = 80


def isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (OSError, ValueError, AttributeError):
        return False


def same_file(a: Any, b: Any) -> bool:
    """Whether two streams write to one place (a terminal, or ``> log 2>&1``)."""
    try:
        return os.path.samestat(os.fstat(a.fileno()), os.fstat(b.fileno()))
    except (OSError, ValueError, AttributeError):  # no file descriptor (a test's capture)
        return False


def stopped_line(out: Any, err: Any) -> str:
    """"Stopped." as written to ``err`` after Ctrl+C: after a line break only where the cursor stands mid-line
    there. It does when ``out`` writes to the same place and its last text did not end a line (``mid_line``,
    kept by the command line's stdout), or when ``err`` is a terminal that echoes a Ctrl+C as "^C". Anywhere
    else (a pipe, a file, output that ended its line) the break was a blank line."""
    mid_line = getattr(out, "mid_line", False) and same_file(out, err)
    return ("\n" if mid_line or _echoes_ctrl_c(err) else "") + "Stopped."


def _echoes_ctrl_c(stream: Any) -> bool:
    """Whether ``stream`` is a terminal that shows a Ctrl+C pressed on it as "^C" (ECHO and ECHOCTL)."""
    if not isatty(stream):
        return False
    try:
        import termios
    except ImportError:  # Windows: its console writes no "^C" for a program that handles Ctrl+C
        return False
    try:
        flags = termios.tcgetattr(stream.fileno())[3]
    except (termios.error, OSError, ValueError, AttributeError):
        return False
    return bool(flags & termios.ECHO) and bool(flags & getattr(termios, "ECHOCTL", 0))


def columns(stream: Any) -> int:
    """How many columns the terminal ``stream`` writes to has now: $COLUMNS when set (as shutil reads it),
    else what the terminal says, else DEFAULT_COLUMNS."""
    try:
        given = int(os.environ.get("COLUMNS", ""))
        if given > 0:
            return given
    except ValueError:
        pass
    try:
        return os.get_terminal_size(stream.fileno()).columns or DEFAULT_COLUMNS
    except (OSError, ValueError, AttributeError):  # io.UnsupportedOperation is both of the first two
        return DEFAULT_COLUMNS


def json_line(value: Any, stream: Any) -> str:
    """``value`` as one JSON line for ``stream``: its characters as they are where the stream writes UTF-8,
    else escaped (``\\u65e5``). Windows writes a piped stdout in its ANSI code page (cp1252), where "日本" or
    "✓" became "?" in the JSON a program was reading; the escapes are the same JSON, and ASCII."""
    import codecs
    import json

    encoding = getattr(stream, "encoding", None)  # None: a str buffer (io.StringIO), which holds any character
    try:
        whole = not encoding or codecs.lookup(encoding).name.startswith("utf-")
    except LookupError:
        whole = False
    return json.dumps(value, ensure_ascii=not whole)
