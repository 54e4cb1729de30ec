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

from PySide6.QtCore import QLoggingCategory, QtMsgType, qFormatLogMessage, qInstallMessageHandler

from ..paths import command

log = logging.getLogger(__name__)

CANNOT_OPEN = "tinyRAG Desktop cannot open its window: "


def command_line() -> str:
    return f"Or use the command line, which needs no window: {command()} ask \"QUESTION\"."


# The system libraries Qt's X11 plugin loads (libQt6XcbQpa), as ctypes finds them, with the Debian and Fedora
# packages that hold them. A desktop has them all; a minimal or server install lacks some, and Qt then says only
# that "xcb-cursor0 or libxcb-cursor0 is needed" whichever is missing (here: icccm and keysyms).
X11_LIBRARIES = (("xcb-cursor", "libxcb-cursor0", "xcb-util-cursor"), ("xcb-icccm", "libxcb-icccm4", "xcb-util-wm"),
                 ("xcb-keysyms", "libxcb-keysyms1", "xcb-util-keysyms"), ("xcb-image", "libxcb-image0", "xcb-util-image"),
                 ("xcb-render-util", "libxcb-render-util0", "xcb-util-renderutil"),
                 ("xcb-util", "libxcb-util1", "xcb-util"), ("xkbcommon-x11", "libxkbcommon-x11-0", "libxkbcommon-x11"),
                 ("xcb-xkb", "libxcb-xkb1", "libxcb"), ("X11-xcb", "libx11-xcb1", "libX11-xcb"))


def missing_x11_libraries() -> list[tuple[str, str]]:
    """The (Debian, Fedora) packages of the X11 libraries Qt needs that are not installed."""
    return [(debian, fedora) for name, debian, fedora in X11_LIBRARIES if ctypes.util.find_library(name) is None]


def platform_words(messages: list[str], *, display: str | None, missing: list[tuple[str, str]]) -> str:
    """What to tell the user when Qt could not start its platform plugin, from Qt's ``messages`` so far.

    ``display``: the DISPLAY variable; ``missing``: the packages of the X11 libraries Qt needs that are not
    installed (missing_x11_libraries)."""
    said = "\n".join(messages)
    if "could not connect to display" in said:
        where = f"the display “{display}”" if display else "the X display"
        return (f"{CANNOT_OPEN}{where} (the DISPLAY setting) cannot be reached: its desktop session has ended, or "
                "it belongs to another user or computer. Start tinyRAG Desktop from your desktop session, or "
                f"set DISPLAY to a display that is running. {command_line()}")
    if ("xcb-cursor" in said or 'platform plugin "xcb"' in said) and missing:  # the X11 plugin did not load
        debian = " ".join(d for d, _ in missing)
        fedora = " ".join(dict.fromkeys(f for _, f in missing))
        which = ("the system library " if len(missing) == 1 else "system libraries ") + ", ".join(
            d for d, _ in missing)
        return (f"{CANNOT_OPEN}{which}, which Qt needs to draw windows on X11, "
                f"{'is' if len(missing) == 1 else 'are'} not installed. Install "
                f"{'it' if len(missing) == 1 else 'them'} (Debian and Ubuntu: sudo apt install {debian}; Fedora: "
                f"sudo dnf install {fedora}), then start again. {command_line()}")
    chosen = os.environ.get("QT_QPA_PLATFORM")
    why = f"the display system “{chosen}” (set in QT_QPA_PLATFORM)" if chosen else "this computer's display"
    log_file = _log_file()
    return (f"{CANNOT_OPEN}Qt could not start drawing on {why}. Its own words are in the log file"
            f"{f' {log_file}' if log_file else ''}. {command_line()}")


def _log_file() -> str:
    """The log file the app writes (logsetup), if any."""
    return next((h.baseFilename for h in logging.getLogger().handlers if isinstance(h, logging.FileHandler)), "")


@contextmanager
def platform_guard(first: str = "") -> Iterator[list[str]]:
    """While the block makes the QApplication, Qt's messages go to the log, and its fatal one (no platform
    plugin could start) ends the process with words and exit status 2 instead of an abort. Yields the
    messages seen. ``first``: a line said before those words (why the window was to say something)."""
    seen: list[str] = []

    def handler(kind: QtMsgType, context, message: str) -> None:
        category = getattr(context, "category", None) or "qt"
        seen.append(f"{category}: {message}")
        if kind != QtMsgType.QtFatalMsg:
            log.warning("Qt at start: %s: %s", category, message)
            return
        log.warning("Qt cannot start: %s: %s", category, message)  # the console gets words below
        words = platform_words(seen, display=os.environ.get("DISPLAY"), missing=missing_x11_libraries())
        print(f"{first}\n{words}" if first else words, file=sys.stderr, flush=True)
        logging.shutdown()
        os._exit(2)  # Qt aborts when this returns; nothing else is open yet to close

    previous = qInstallMessageHandler(handler)
    try:
        yield seen
    finally:
        qInstallMessageHandler(previous)


# What Qt says when the display goes away under a running window (the X server ended, an ssh session's
# forwarding closed, the Wayland compositor stopped); it says it once per event, then ends its event loop.
_CONNECTION_BROKE = ("The X11 connection broke", "The Wayland connection broke")
DISPLAY_LOST = ("tinyRAG Desktop closed: its connection to the display was lost (the X server or the desktop "
                "session ended). What was saved is kept; start it again from a desktop session.")


@contextmanager
def display_watch(lost: list[str]) -> Iterator[None]:
    """While the window runs, Qt's words that its display connection broke (said once per event) are not
    printed: the first are logged and kept in ``lost``, and the app says it in one line of its own. Qt's other
    messages are printed as before. Once the display is lost, the handler stays to the end: Qt says it again
    while the app closes."""

    def handler(kind: QtMsgType, context, message: str) -> None:
        if message.startswith(_CONNECTION_BROKE):
            if not lost:
                log.warning("the display went away: %s", message)
                lost.append(message)
        elif previous is not None:
            previous(kind, context, message)
        else:  # Qt's own handler: the same words, in its format (QT_MESSAGE_PATTERN)
            print(qFormatLogMessage(kind, context, message), file=sys.stderr, flush=True)

    previous = qInstallMessageHandler(handler)
    try:
        yield
    finally:
        if not lost:
            qInstallMessageHandler(previous)


# Qt's font database says, once per font it tries, that no installed font shapes a script ("OpenType support
# missing for "DejaVu Sans", script 11": Devanagari, for Hindi's name in the Wikipedia languages of Settings):
# seven lines on the terminal (info messages, which Qt prints by default) for a list entry drawn anyway. Only
# that category is quieted; QT_LOGGING_RULES still wins over this (Qt applies it after the rules set here).
_QUIET_CATEGORIES = "qt.text.font.db.info=false\nqt.text.font.db.warning=false"


def quiet_font_warnings() -> None:
    """Keep Qt's font database warnings (qt.text.font.db) off the terminal; every other message is as before."""
    QLoggingCategory.setFilterRules(_QUIET_CATEGORIES)
