"""The window's bootstrap: parse the window flags, start Qt on a qasync event loop, open MainWindow.

``--ask QUESTION --screenshot FILE.png`` opens the window, sends the question, waits for the answer,
saves a PNG of the window and exits with 0, or 1 when the answer ended in an error. No one is asked in such
a run: as in `ask`, the model's commands run only with --allow-shell-exec, unasked.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import re
import sys
from pathlib import Path
from typing import NoReturn

from .chats import ChatStoreError
from .cliargs import (TOP_USAGE, DataFolderError, add_shared_flags, add_window_flags, close_flags, context_from_args,
                      unwatched)
from .files import folder_writable
from .paths import UnknownHome, command, expand_home
from .settings import SettingsError

log = logging.getLogger(__name__)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tinyrag-desktop", usage=TOP_USAGE,
                                     description="Open the tinyRAG Desktop window (verbs ask, kb, nanogo run "
                                                 f"headless; see `{command()} --help`).")
    add_shared_flags(parser)
    add_window_flags(parser)
    return parser


# Larger windows than this are refused: far beyond any screen, a window's picture takes gigabytes, and Qt
# crashed drawing one of 99999999x99999999 (a 16384 x 16384 window already needs more than 2 GB).
MAX_SIDE = 16384


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise SettingsError(f"--size must look like 1180x780, not {text!r}.") from None
    if w < 1 or h < 1:
        raise SettingsError(f"--size {text}: a window needs a width and a height of at least 1 pixel, e.g. "
                            "1180x780.")
    if w > MAX_SIDE or h > MAX_SIDE:
        raise SettingsError(f"--size {text} is too large: a window can be at most {MAX_SIDE} pixels wide and "
                            f"{MAX_SIDE} high, e.g. 1180x780.")
    return max(w, 400), max(h, 300)


# The picture's format, by the file name's suffix (none: PNG); Qt writes these without extra plugins but JPEG,
# which every build of PySide6 carries.
SCREENSHOT_FORMATS = {"": "PNG", ".png": "PNG", ".jpg": "JPG", ".jpeg": "JPG", ".bmp": "BMP"}


def screenshot_format(path: Path) -> str:
    return SCREENSHOT_FORMATS[path.suffix.lower()]


def _screenshot_path(text: str) -> Path:
    """Where --screenshot saves, its folder made now: a folder that cannot be made is said before the window
    opens and the question is sent, not as a traceback once the answer is done."""
    try:
        path = expand_home(text)
    except UnknownHome as exc:
        raise SettingsError(f"--screenshot {text}: {exc}.") from None
    if path.is_dir():
        raise SettingsError(f"--screenshot {text} is a folder; give a file name, e.g. {path / 'window.png'}.")
    if path.suffix.lower() not in SCREENSHOT_FORMATS:  # a .jpg got PNG data: a viewer may refuse it
        raise SettingsError(f"--screenshot {text}: the picture can be saved as .png, .jpg or .bmp, not "
                            f"{path.suffix}; e.g. {path.with_suffix('.png').name}.")
    folder = path.parent
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        raise SettingsError(f"--screenshot: {existing} is a file, not a folder, so the picture cannot be saved "
                            f"in {folder}." if existing != folder else
                            f"--screenshot: {folder} is a file, not a folder, so the picture cannot be saved in it.")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except PermissionError:
        raise SettingsError(f"--screenshot: the folder {folder} cannot be made: you may not write in "
                            f"{existing}.") from None
    except OSError:
        raise SettingsError(f"--screenshot: the folder {folder} cannot be made in {existing}.") from None
    if not folder_writable(folder):
        raise SettingsError(f"--screenshot: you may not write in the folder {folder}.")
    return path


def _unknown_words(parser: argparse.ArgumentParser, extra: list[str], *, first: bool) -> None:
    """Exit 2 for words the window does not take; a first word that is no option is a mistyped command
    ("asks hi"), said so, with the commands there are."""
    import difflib

    from .__main__ import VERBS

    word = extra[0]
    if word.startswith("-") or not first:
        meant = close_flags(parser, extra)
        parser.error(f"unrecognized arguments: {' '.join(extra)}"
                     + (f" (did you mean {', '.join(meant)}?)" if meant else ""))
    close = difflib.get_close_matches(word, VERBS, n=1, cutoff=0.5)
    if word in ("add", "search", "list", "remove"):  # the knowledge base's own commands
        close = [f"kb {word}"]
    elif word.lower() == "help":  # as git's: "help" is no command here
        close = ["--help"]
    hint = f" (did you mean {close[0]}?)" if close else ""
    parser.error(f"unknown command {word!r}{hint}; the commands are {', '.join(VERBS)}; without one, "
                 f"{command()} opens the window")


async def _run(window, args: argparse.Namespace, app, *, stopped: bool = False) -> int:
    """Show the window; in --ask mode ask, wait for the answer, screenshot; else wait for the last window.
    ``stopped``: Ctrl+C or SIGTERM came while it was being built; it closes at once, as its Quit does."""
    closed = asyncio.Event()
    app.lastWindowClosed.connect(closed.set)
    window.show()
    if stopped:
        window.close_unasked()
        await window.aclose()
        return 0
    if not args.ask:
        await closed.wait()
        await window.aclose()
        return 0
    finished: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    if window.shell_held:  # the card says why no command ran; a script reading stderr is told once, as by `ask`
        window.bridge.toolFinished.connect(_note_held_shell())
    window.answerFinished.connect(lambda outcome: finished.done() or finished.set_result(outcome))
    if not args.ask.strip():
        print("The question is empty.", file=sys.stderr)
        await window.aclose()
        return 2
    if not window.ask(args.ask):  # the window has said why (problem)
        await window.aclose()
        return 1
    # Closed first (Ctrl+C, SIGTERM) with no outcome said: the answer's ending failed (a traceback on stderr,
    # in the log), and waiting on for the outcome left a window that no signal could end, only SIGKILL
    closing = asyncio.ensure_future(closed.wait())
    try:
        await asyncio.wait((finished, closing), return_when=asyncio.FIRST_COMPLETED)
    finally:
        closing.cancel()
    if not finished.done():
        print("error: the window was closed before the answer ended", file=sys.stderr)
        await window.aclose()
        return 1
    outcome = finished.result()
    code = 1 if outcome == "error" else 0
    if outcome == "error":  # a script sees why, not only the exit status (the screenshot shows it too)
        answers = window.view.answers()
        print(f"error: {answers[-1].error if answers else 'the answer failed'}", file=sys.stderr)
    if args.screenshot:
        await asyncio.sleep(0.05)  # one more frame, so the last render and the footer are painted
        path = Path(args.screenshot)  # main has made its folder
        try:
            path.parent.mkdir(parents=True, exist_ok=True)  # again, in case it was removed meanwhile
        except OSError:
            pass  # the save fails and says so
        problem = save_screenshot(window, path)
        if problem:
            print(problem, file=sys.stderr)
            code = 1
        await window.aclose()
        window.close()
        return code
    await closed.wait()
    await window.aclose()
    return code


def save_screenshot(window, path: Path) -> str:
    """Save a picture of ``window`` as ``path``, whole or not at all: "" when saved, else why not, in words.
    Qt writes a picture in place, and a full disk left half of one where a whole earlier one had been."""
    from PySide6.QtCore import QBuffer, QIODevice

    from .files import write_failure, write_whole

    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not window.grab().save(buffer, screenshot_format(path)):
        return f"Could not write the screenshot {path}."
    try:
        write_whole(path, bytes(buffer.data()))
    except OSError as exc:
        return f"Could not write the screenshot {path}: {write_failure(exc)} A file already there was left as it was."
    return ""


def _note_held_shell():
    """What says once on stderr that the shell is off for --ask, when the model first asks for a command."""
    from .tools.shell import UNWATCHED_NOTE

    said: list[bool] = []

    def note(ev) -> None:
        if ev.tool == "shell" and not said:
            said.append(True)
            print(UNWATCHED_NOTE.format(run="--ask"), file=sys.stderr, flush=True)

    return note


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else argv
    args, extra = parser.parse_known_args(argv)
    if extra:
        _unknown_words(parser, extra, first=argv[0] == extra[0])
    if args.screenshot and not args.ask:
        print("--screenshot needs --ask QUESTION.", file=sys.stderr)
        return 2
    try:
        # A window started by hand may save the settings: a damaged settings file is moved aside first, and said
        ctx = context_from_args(args, keep_aside=not args.ask)
        # No one watches an --ask run: as in `ask`, commands run only with --allow-shell-exec, never asked
        ctx, held = unwatched(args, ctx) if args.ask else (ctx, False)
        size = _size(args.size) if args.size else None
        if args.screenshot:
            args.screenshot = str(_screenshot_path(args.screenshot))
    except SettingsError as exc:
        if isinstance(exc, DataFolderError) and not args.ask and not no_display():
            _data_folder_box(str(exc))  # a start from a menu or an icon sees no console: a box says it too
        else:
            print(exc, file=sys.stderr)
        return 2
    # context_from_args has sent logging to the data folder's log file
    if no_display():
        print(no_display_words(), file=sys.stderr)
        return 2

    from PySide6.QtWidgets import QApplication

    from .ui.collector import gui_thread_gc
    from .ui.qtloop import TidyEventLoop, asyncgen_hooks, on_signals, signals_noted
    from .kb.own_data import sweep
    from .kb.unfinished import cut_short
    from .lifeline import leave_bundle_environment
    from .ui.main_window import MainWindow
    from .ui.platform_start import DISPLAY_LOST, display_watch, platform_guard

    with platform_guard():  # a display Qt cannot use is said in words, not with Qt's abort
        app = QApplication.instance() or QApplication([sys.argv[0]])
    # Qt has read its plugin path: from here on, what the window starts (a link's browser through xdg-open)
    # gets the environment without the bundle's library and plugin paths (lifeline.outside_environment)
    leave_bundle_environment()
    app.setApplicationName("tinyRAG Desktop")
    app.setOrganizationName("tinyrag")
    app.setDesktopFileName("tinyrag-desktop")
    # _run ends the loop once the window is closed and its connections are; Qt's own quit on the last
    # window closed would stop the loop first and leave that closing to run outside it (a traceback).
    app.setQuitOnLastWindowClosed(False)
    with signals_noted() as early:  # Ctrl+C before the window can close as Quit does: it closes once it can
        guard = None
        if not args.ask:  # a scripted --ask run works beside an open window; a second window would not
            from .ui.single import WindowGuard

            guard = WindowGuard(ctx.data_dir)
            if not guard.claim():
                return _already_open(guard, ctx.data_dir)
        loop = TidyEventLoop(app)
        asyncio.set_event_loop(loop)
        first_run = False
        if not args.ask and args.base_url is None:
            from .firstrun import is_first_run

            first_run = is_first_run(ctx.data_dir)  # no settings file yet: look for a server, import the guide
        try:
            # A scripted --ask run asks in a new chat; a start by hand reopens the chat left open.
            # an import cut short by a crash is said at a start by hand (an --ask run would use the note up)
            cut = () if args.ask else tuple(cut_short(ctx.data_dir))
            # sources an older version imported from the data folder (settings.json): removed, and said once
            cut += tuple(sweep(ctx.data_dir))
            window = MainWindow(ctx.data_dir, ctx.settings, warnings=(*ctx.warnings, *cut), first_run=first_run,
                                reopen_last=not args.ask)
        except ChatStoreError as exc:  # the chat history cannot be opened: say why, and change nothing
            # to the log file; the console gets words
            log.warning("the window cannot open: %s", exc, exc_info=True)
            _cannot_open(str(exc), show=not args.ask, stopped=bool(early))
            loop.close()
            asyncio.set_event_loop(None)
            if guard is not None:
                guard.release()
            return 1
    if size is not None:
        window.resize(*size)
    window.scripted, window.shell_held = bool(args.ask), held
    if guard is not None:
        guard.raiseRequested.connect(window.bring_to_front)
    # Windows' shutdown or logoff quits the app and then ends it: work under way and unsent text that could
    # not be saved are not asked about then (nobody could answer, and the rest of the close would not run)
    app.aboutToQuit.connect(window.let_close)
    lost: list[str] = []  # what Qt said when the display went away, if it did
    try:
        # Ctrl+C in the terminal and SIGTERM close the window as its Quit does, saving its state
        with display_watch(lost), loop, gui_thread_gc(app), asyncgen_hooks(loop), on_signals(window.close_unasked):
            running = loop.create_task(_run(window, args, app, stopped=bool(early)))
            for _ in range(_QUIT_EVENTS):
                try:
                    return loop.run_until_complete(running)
                except RuntimeError:
                    if lost or running.done():
                        raise
                    # The system's Quit (macOS: the Dock's Quit, logging out; Windows: shutting down) closed the
                    # window and ended Qt's loop with the window's closing left undone (a traceback, the chat
                    # history not closed): the loop runs again until it is done.
                    log.info("the system asked the app to quit: the window closes as its Quit does")
            return loop.run_until_complete(running)
    except RuntimeError:  # "Event loop stopped before Future completed": Qt ended its loop itself, and again
        if not lost:      # each time the loop is run to close what is open
            raise
        # The display is gone: nothing can be drawn or closed as Quit does. What the window saves as it goes
        # (the chats, an answer as far as it came, drafts) is saved; one line says why it ended.
        log.warning("the window ended with its display", exc_info=True)
    finally:
        asyncio.set_event_loop(None)
        if guard is not None:
            guard.release()
    _end_without_display(DISPLAY_LOST)


# How many times the system's Quit may end Qt's loop before the window has closed (once is what a Quit does;
# a user may ask again while the window closes): past that, it ends as an error would.
_QUIT_EVENTS = 3


def _end_without_display(words: str) -> NoReturn:
    """Say ``words`` and end the process at once, exit status 1: the display went away under the window.

    Not by returning: the answer being written is left unfinished (its task, its stream, its timers), and
    Python's own ending collected its coroutines after Qt had deleted the objects they name, each printing
    a traceback ("Signal source has been deleted", "Internal C++ object (_Timers) already deleted"). What
    the window saves as it goes is saved already; the log is flushed here, and children (a model server, a
    shell command) end with the app's lifeline (lifeline.py)."""
    try:
        print(words, file=sys.stderr, flush=True)
        sys.stdout.flush()
    except (OSError, ValueError):  # no console either: the session that held it ended with the display
        pass
    logging.shutdown()
    os._exit(1)


def no_display_words() -> str:
    return ("tinyRAG Desktop cannot open its window: there is no display here (neither DISPLAY nor "
            f"WAYLAND_DISPLAY is set). Run it from a desktop session, or use the command line: {command()} ask "
            "\"QUESTION\". A screenshot without a display: set QT_QPA_PLATFORM=offscreen.")


def no_display() -> bool:
    """On Linux, no display to open a window on and no Qt platform chosen: Qt would print a note about
    reinstalling the application and abort (exit 134). macOS and Windows always have theirs."""
    if not sys.platform.startswith("linux") or os.environ.get("QT_QPA_PLATFORM"):
        return False
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return False
    # Wayland's client library falls back to the socket wayland-0 when WAYLAND_DISPLAY is not set
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    return not (runtime and os.path.exists(os.path.join(runtime, "wayland-0")))


def _data_folder_box(message: str) -> None:
    """Say why the window cannot start with its data folder on stderr and in a box: started from a desktop
    icon, nothing appeared (the console only had it)."""
    from PySide6.QtWidgets import QApplication

    from .ui.platform_start import platform_guard

    with platform_guard(first=message):  # a display Qt cannot use: both said, and exit 2
        QApplication.instance() or QApplication([sys.argv[0]])
    _cannot_open(data_folder_words(message), show=True, said=message)


def data_folder_words(message: str) -> str:
    """What the box says of a data folder that cannot be used: the console's ``message`` in a sentence."""
    words = dialog_words(message.removeprefix("--data-dir: "))
    return f"tinyRAG Desktop cannot open its window. {words[:1].upper()}{words[1:]}."


def _cannot_open(message: str, *, show: bool, stopped: bool = False, said: str | None = None) -> None:
    """Say why the window cannot open: on stderr, and in a message box for someone who started it from a menu.
    ``stopped``: Ctrl+C or SIGTERM came already; the box is not shown. ``said``: the line stderr gets, if it
    is not "error: " and the message."""
    said = f"error: {message}" if said is None else said
    if not show:
        print(said, file=sys.stderr, flush=True)
        return
    from PySide6.QtWidgets import QMessageBox

    from .ui.plain_text import plain_tip
    from .ui.qtloop import on_signals

    box = QMessageBox(QMessageBox.Icon.Critical, "tinyRAG Desktop", plain_tip(dialog_words(message)),
                      QMessageBox.StandardButton.Ok)
    # Ctrl+C in the terminal and kill close the box, and so the app, as they close the window; the box
    # used to ignore them and wait, and where no one sees it (no screen) it waited for ever.
    with on_signals(box.reject):
        print(said, file=sys.stderr, flush=True)
        if not stopped:  # one that came while the window was being built: no box to wait on
            box.exec()


_OTHER_FOLDER = re.compile(r",? or use another data folder \(--data-dir\)")


def dialog_words(message: str) -> str:
    """``message`` as the start-up dialog says it: someone who started tinyRAG from a menu or by a
    double-click has no command line to give it another data folder, so that way out is left out."""
    return _OTHER_FOLDER.sub("", message)


def _already_open(guard, data_dir: Path) -> int:
    """A window is open on this data folder: bring it forward rather than open a second one."""
    if guard.knock():
        print(f"tinyRAG Desktop is already open with the data folder {data_dir}: its window was brought to "
              "the front.", file=sys.stderr)
        return 0
    pid = guard.holder()
    print(f"tinyRAG Desktop is already open with the data folder {data_dir}"
          f"{f' (process {pid})' if pid else ''}, and that window does not answer. Close it (or end that "
          "process), then start again; or use another folder with --data-dir.", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
