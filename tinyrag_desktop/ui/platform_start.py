"""Qt's start on a display it cannot use, said in words instead of its abort.

When Qt cannot start its platform plugin (a DISPLAY whose X server is gone, as after an ssh session's
forwarding ended; a system without the libxcb-cursor0 library that Qt's X11 plugin needs since 6.5), it
prints a few lines about plugins and reinstalling, then aborts: exit 134 and, on many systems, a core file.
:func:`platform_guard` listens to Qt's messages while the QApplication is made; on that fatal message it
says what is wrong and what to do, and ends the process with exit status 2 before Qt aborts.
"""

from __future__ import annotations

import ctypes.util
import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QtMsgType, qInstallMessageHandler

from ..paths import command

log = logging.getLogger(__name__)

CANNOT_OPEN = "tinyRAG Desktop cannot open its window: "


def command_line() -> str:
    return f"Or use the command line, which needs no window: {command()} ask \"QUESTION\"."


def platform_words(messages: list[str], *, display: str | None, cursor_library: bool) -> str:
    """What to tell the user when Qt could not start its platform plugin, from Qt's ``messages`` so far.

    ``display``: the DISPLAY variable; ``cursor_library``: whether libxcb-cursor is installed."""
    said = "\n".join(messages)
    if "could not connect to display" in said:
        where = f"the display “{display}”" if display else "the X display"
        return (f"{CANNOT_OPEN}{where} (the DISPLAY setting) cannot be reached: its desktop session has ended, or "
                "it belongs to another user or computer. Start tinyRAG Desktop from your desktop session, or "
                f"set DISPLAY to a display that is running. {command_line()}")
    if "xcb-cursor" in said and not cursor_library:
        return (f"{CANNOT_OPEN}the system library libxcb-cursor0, which Qt needs to draw windows on X11, is not "
                "installed. Install it (Debian and Ubuntu: sudo apt install libxcb-cursor0; Fedora: sudo dnf "
                f"install xcb-util-cursor), then start again. {command_line()}")
    chosen = os.environ.get("QT_QPA_PLATFORM")
    why = f"the display system “{chosen}” (set in QT_QPA_PLATFORM)" if chosen else "this computer's display"
    log_file = _log_file()
    return (f"{CANNOT_OPEN}Qt could not start drawing on {why}. Its own words are in the log file"
            f"{f' {log_file}' if log_file else ''}. {command_line()}")


def _log_file() -> str:
    """The log file the app writes (logsetup), if any."""
    return next((h.baseFilename for h in logging.getLogger().handlers if isinstance(h, logging.FileHandler)), "")


@contextmanager
def platform_guard() -> Iterator[list[str]]:
    """While the block makes the QApplication, Qt's messages go to the log, and its fatal one (no platform
    plugin could start) ends the process with words and exit status 2 instead of an abort. Yields the
    messages seen."""
    seen: list[str] = []

    def handler(kind: QtMsgType, context, message: str) -> None:
        category = getattr(context, "category", None) or "qt"
        seen.append(f"{category}: {message}")
        if kind != QtMsgType.QtFatalMsg:
            log.warning("Qt at start: %s: %s", category, message)
            return
        log.warning("Qt cannot start: %s: %s", category, message)  # the console gets words below
        words = platform_words(seen, display=os.environ.get("DISPLAY"),
                               cursor_library=ctypes.util.find_library("xcb-cursor") is not None)
        print(words, file=sys.stderr, flush=True)
        logging.shutdown()
        os._exit(2)  # Qt aborts when this returns; nothing else is open yet to close

    previous = qInstallMessageHandler(handler)
    try:
        yield seen
    finally:
        qInstallMessageHandler(previous)
