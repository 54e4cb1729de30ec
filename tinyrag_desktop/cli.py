"""The headless command line: ``ask``, ``kb`` and ``nanogo``. No Qt is imported on any of these paths."""

from __future__ import annotations

import argparse
import codecs
import dataclasses
import errno
import logging
import os
import sys
from typing import Any

from . import __version__
from .cliargs import (TOP_USAGE, CommandParser, add_shared_flags, add_window_flags, close_flags, context_from_args,
                      unwatched)
from .cliterm import isatty as _isatty
from .cliterm import stopped_line
from .paths import DataDirError, resolve_data_dir
from .settings import SettingsError

log = logging.getLogger(__name__)

_WINDOWS = os.name == "nt"

# The verbs whose parsers live in modules of their own, imported to register them.
_VERB_MODULES = {"kb": "tinyrag_desktop.kb.cli", "nanogo": "tinyrag_desktop.tools.nanogo.cli"}


ASK_EXIT_STATUS = ("Exit status: 0 the answer finished, 1 failed (the server down or refusing, the model missing, the "
                   "answer cut off: said on standard error, or as an error event with --jsonl; or the answer could "
                   "not be written), 2 wrong command line (a bad option, an empty question), 130 stopped with "
                   "Ctrl+C (with --jsonl, an error event of kind interrupted is the last line). The question and its answer are not kept in the window's chat history.")


def build_parser(verb: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser. Given the ``verb`` being run, only that verb's module is imported to
    register it (``nanogo`` and ``ask`` start without the knowledge base's command line); otherwise
    every verb's is, so that ``--help`` lists them all."""
    parser = CommandParser(
        prog="tinyrag-desktop",
        usage=TOP_USAGE,
        description="tinyRAG Desktop. Without a verb, opens the window; with one, runs headless.",
        epilog="Each verb says its own options: %(prog)s VERB --help.",
    )
    parser.add_argument("--version", action="version", version=f"tinyrag-desktop {__version__}")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", title="verbs (run headless)", prog=parser.prog)
    # Listed here for --help (the window's own parser, in app.py, reads them); the shared options go with
    # the window or after a verb.
    add_window_flags(parser, "window options (without a verb)")
    add_shared_flags(parser, "shared options (the window's and every verb's)")
    ask = verbs.add_parser("ask", help="ask one question and stream the answer", usage="%(prog)s [options] question",
                           epilog=ASK_EXIT_STATUS)
    ask.add_argument("question", help="the question, or - to read it from standard input "
                                      "(echo \"Summarise this\" | tinyrag-desktop ask -)")
    ask.add_argument("--jsonl", action="store_true", help="print one JSON object per event")
    ask.add_argument("--system", metavar="TEXT", help="a system prompt (persona) for this question")
    add_shared_flags(ask)
    ask.set_defaults(func=_ask)
    for name, module in _VERB_MODULES.items():
        if verb in ("ask", *_VERB_MODULES) and name != verb:
            continue
        try:
            __import__(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        sys.modules[module].register(verbs)
    return parser


def main(argv: list[str] | None = None) -> int:
    streams = sys.stdout, sys.stderr
    _guard_output()
    try:
        return _run(argv)
    except KeyboardInterrupt:  # Ctrl+C at any point, the verbs' imports and parsers included
        print(stopped_line(sys.stdout, sys.stderr), file=sys.stderr)
        return 130
    except OutputFailed as exc:  # --help or --version written to a full disk
        return _output_failed(argparse.Namespace(verb="help"), exc)
    finally:
        _unguard_output(*streams)


class OutputFailed(Exception):
    """Standard output could not be written (the reader gone, the disk full, stdout closed). Not an OSError,
    so that a verb's ``except OSError`` around reading a file does not take it for its own."""

    def __init__(self, exc: OSError) -> None:
        super().__init__(exc.strerror or str(exc))
        self.errno = exc.errno
        self.reason = (exc.strerror or str(exc) or "it failed").lower()


class _GuardedOutput:
    """stdout as the verbs write it: a write or flush that fails raises OutputFailed, whatever wrote it
    (print, json lines, nanogo's bytes), and main says it once. It knows whether its last text ended a
    line (``mid_line``), so that "Stopped." after Ctrl+C starts a line of its own with no blank line."""

    def __init__(self, stream: Any, line: list[bool] | None = None) -> None:
        self._stream = stream
        self._line = [False] if line is None else line  # [mid_line], shared with its ``buffer``
        self.errors_before: str | None = None  # its errors before main made them "replace"
        self.encoding_before: str | None = None  # its encoding before main made it UTF-8 (Windows, piped)

    def write(self, data: Any) -> int:
        try:
            written = self._stream.write(data)
        except OSError as exc:
            raise OutputFailed(exc) from exc
        if len(data):
            self._line[0] = data[-1:] not in ("\n", b"\n")
        return written

    @property
    def mid_line(self) -> bool:
        return self._line[0]

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise OutputFailed(exc) from exc

    @property
    def buffer(self) -> "_GuardedOutput":
        return _GuardedOutput(self._stream.buffer, self._line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _GuardedStatus:
    """stderr as the verbs write it: progress, status lines, warnings. When a write fails (``2>/dev/full``, a
    reader gone: ``kb add --progress 2>&1 >out | head -2``), what is left to say there is dropped and the verb
    goes on, its result and exit status as they would have been: stderr carries no result. Before, the
    OSError ended the verb (an import cut off, an answer stopped at its first tool call) with a traceback
    written to that same broken stderr, so nothing said why."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.failed = False

    def write(self, data: Any) -> int:
        if not self.failed:
            try:
                return self._stream.write(data)
            except OSError as exc:
                self._give_up(exc)
        return len(data)

    def flush(self) -> None:
        if not self.failed:
            try:
                self._stream.flush()
            except OSError as exc:
                self._give_up(exc)

    def _give_up(self, exc: OSError) -> None:
        """From now on nothing is written to stderr: /dev/null put on its descriptor, so that what its buffer
        holds, a child process's messages and the interpreter's last flush (which would turn the exit status
        into 120) have nowhere to fail."""
        self.failed = True
        try:
            fd = self._stream.fileno()
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, fd)
            os.close(devnull)
            self._stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
        log.warning("standard error cannot be written (%s): status lines are left out",
                    (exc.strerror or str(exc) or "it failed").lower())

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _ClosedOutput:
    """stdout when the shell closed it (``>&-``): each write says so."""

    encoding = "utf-8"

    def write(self, data: Any) -> int:
        raise OutputFailed(OSError(errno.EBADF, "standard output is closed"))

    flush = write

    def isatty(self) -> bool:
        return False

    @property
    def buffer(self) -> "_ClosedOutput":
        return self


def _hold_fd(fd: int) -> bool:
    """Put /dev/null on ``fd`` when it is closed, so that no file opened later (the log, the database) takes
    its number and gets what is printed, or what a child process writes. Whether it was closed."""
    try:
        os.fstat(fd)
        return False
    except OSError:
        pass
    try:
        devnull = os.open(os.devnull, os.O_RDWR)
        if devnull != fd:
            os.dup2(devnull, fd)
            os.close(devnull)
    except OSError:
        pass
    return True


def _guard_output() -> None:
    """Before a verb runs: stdout's failures said in words, not as tracebacks; stderr's end nothing
    (_GuardedStatus); text the output's encoding cannot write (PYTHONIOENCODING=ascii, a lone surrogate)
    written as "?" rather than failing."""
    if sys.stdin is None:  # closed (<&-): no file opened later is numbered 0, and read as a child's stdin
        _hold_fd(0)
    if sys.stderr is None and _hold_fd(2):
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (for the whole run)
    if sys.stderr is not None and not isinstance(sys.stderr, _GuardedStatus):
        sys.stderr = _GuardedStatus(sys.stderr)
    if sys.stdout is None:
        _hold_fd(1)
        sys.stdout = _ClosedOutput()
        return
    guarded = _GuardedOutput(sys.stdout)
    if _WINDOWS and not _isatty(sys.stdout) and hasattr(sys.stdout, "reconfigure"):
        # Piped or sent to a file, Windows writes its ANSI code page (cp1252): an answer or a title in
        # Russian, Greek or Chinese came out as "????". A console gets every character anyway (Python
        # writes to it in UTF-16); a file or a pipe gets UTF-8, as on Linux and macOS.
        encoding = sys.stdout.encoding
        try:
            if codecs.lookup(encoding).name != "utf-8":
                sys.stdout.reconfigure(encoding="utf-8", errors=sys.stdout.errors)
                guarded.encoding_before = encoding
        except (LookupError, OSError, TypeError, ValueError):
            pass
    if _cannot_write_all(sys.stdout) and hasattr(sys.stdout, "reconfigure"):
        errors = sys.stdout.errors
        try:
            sys.stdout.reconfigure(errors="replace")
            guarded.errors_before = errors  # given back as it was, for a caller that goes on writing (a test)
        except (OSError, ValueError):
            pass
    sys.stdout = guarded


def _cannot_write_all(stream: Any) -> bool:
    """Whether a character ``stream`` cannot encode would fail the write: its errors are "strict", or its
    encoding is not UTF-8 (an ASCII locale's "surrogateescape" fails on "é" as "strict" does)."""
    errors = getattr(stream, "errors", None)
    if errors == "strict":
        return True
    try:
        return errors == "surrogateescape" and codecs.lookup(stream.encoding).name != "utf-8"
    except (LookupError, TypeError, AttributeError):
        return False


def _unguard_output(stdout: Any, stderr: Any) -> None:
    if isinstance(sys.stdout, _GuardedOutput):
        guarded, sys.stdout = sys.stdout, sys.stdout._stream
        if guarded.errors_before is not None or guarded.encoding_before is not None:
            try:
                sys.stdout.reconfigure(encoding=guarded.encoding_before or sys.stdout.encoding,
                                       errors=guarded.errors_before or sys.stdout.errors)
            except (OSError, ValueError):
                pass
    elif isinstance(sys.stdout, _ClosedOutput):
        sys.stdout = stdout
    if isinstance(sys.stderr, _GuardedStatus):
        sys.stderr = sys.stderr._stream
    if stderr is None:
        sys.stderr = stderr


def _output_failed(args: argparse.Namespace, exc: OutputFailed) -> int:
    """Say why stdout could not be written (nothing when its reader has gone: ``| head -1`` took what it
    wanted) and exit 1, with stdout pointed at /dev/null so the interpreter's last flush has nowhere to fail
    (Python's docs, signal module, "Note on SIGPIPE")."""
    if exc.errno != errno.EPIPE:
        what = {"ask": "the answer", "nanogo": "the program's output", "help": "the help"}.get(
            getattr(args, "verb", None), "")
        what = what or {"search": "the search results", "list": "the list"}.get(
            getattr(args, "kb_command", None), "the summary")
        print(f"cannot write {what}: {exc.reason}", file=sys.stderr)
    stream = sys.stdout._stream if isinstance(sys.stdout, _GuardedOutput) else None
    try:
        fd = stream.fileno() if stream is not None else -1
    except (OSError, ValueError, AttributeError):
        fd = -1
    if fd >= 0:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, fd)
            os.close(devnull)
        except OSError:
            pass
    return 1


def _run(argv: list[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv[0] if argv else None)  # __main__ puts the verb first
    args, extra = parser.parse_known_args(argv)
    if extra:  # said by the verb's own parser, with its usage: the top one's "VERB ..." helps nobody
        _unrecognized(_verb_parser(parser, argv), extra, argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # inside the try: buffered lines may meet a closed pipe or a full disk only here
        return code
    except OutputFailed as exc:
        return _output_failed(args, exc)
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        _release_knowledge_base(args)


def _verb_parser(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.ArgumentParser:
    """The parser of the verb ``argv`` names ("kb search"), or ``parser`` when it names none."""
    for word in argv:
        verbs = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
        if verbs is None:
            break
        if word in verbs.choices:
            parser = verbs.choices[word]
    return parser


def _unrecognized(parser: argparse.ArgumentParser, extra: list[str], argv: list[str]) -> None:
    """Exit 2 naming what the verb does not take, and the flag meant when one dash was typed for two, or when
    one was mistyped; or, for options written after ``--`` (which makes every word after it text), the
    command with them before it."""
    known = {option for action in parser._actions for option in action.option_strings}
    moved = _options_first(argv, extra) if any(word.partition("=")[0] in known for word in extra) else None
    if moved:  # "did you mean --jsonl?" of the --jsonl typed after "--"
        parser.error(f"unrecognized arguments: {' '.join(extra)} (options go before --, which makes every word "
                     f"after it text: {moved})")
    meant = [f"--{word.lstrip('-')}" for word in extra
             if word.startswith("-") and not word.startswith("--") and f"--{word.lstrip('-')}" in known]
    meant += [flag for flag in close_flags(parser, extra) if flag not in meant]  # --max-tool-calls
    hint = f" (did you mean {', '.join(meant)}?)" if meant else ""
    parser.error(f"unrecognized arguments: {' '.join(extra)}{hint}")


def _options_first(argv: list[str], extra: list[str]) -> str | None:
    """The command ``argv`` with the words ``extra`` it ends with (options typed after its ``--``) moved
    before the ``--``: ``ask -- -v --jsonl`` → ``ask --jsonl -- -v``; None when they are elsewhere."""
    import shlex

    from .paths import command

    if "--" not in argv or not extra:
        return None
    at = argv.index("--")
    text = argv[at + 1:]
    if len(text) <= len(extra) or text[-len(extra):] != extra:
        return None
    return f"{command()} {shlex.join([*argv[:at], *extra, '--', *text[:-len(extra)]])}"


def _release_knowledge_base(args: argparse.Namespace) -> None:
    """After a verb: close the readers it kept, so no -wal or -shm file stays beside knowledge.db (quick
    when it kept none)."""
    kb = sys.modules.get("tinyrag_desktop.kb")
    if kb is None:
        return
    try:
        data_dir = resolve_data_dir(getattr(args, "data_dir", None), create=False)
    except DataDirError:
        data_dir = None
    kb.release(data_dir)


# Why the network tools are off with --offline: the setting's reason sent the user to a setting that was on.
OFFLINE_FLAG_REASON = "network tools are off for this question (--offline); leave out --offline to use them"
# Why a tool that is off is off, in the command line's words: the tools' own reasons are the window's, which
# has its Settings switches and no flags. (In `ask` the saved shell setting alone runs no command.)
FLAG_REASONS = {
    "nanogo": "pass --allow-nanogo, or enable 'Allow Go code (nanoGo)' in Settings",
    "shell": "pass --allow-shell-exec to let the model run commands",
}


def _ask(args: argparse.Namespace) -> int:
    try:
        return _ask_now(args)
    except KeyboardInterrupt:  # Ctrl+C, or SIGINT from the program that runs `ask`
        if not args.jsonl:
            raise  # main says "Stopped." on standard error
        from .cliprint import JsonPrinter

        try:  # with --jsonl, said only there, as every error is
            JsonPrinter(sys.stdout).interrupted()
        except OutputFailed:  # the reader has gone (Ctrl+C in a shell's pipeline stops it too)
            pass
        return 130


def _ask_now(args: argparse.Namespace) -> int:
    if args.question == "-":  # as nanogo -: the question from a pipe or a file (ask - < question.txt)
        if sys.stdin is None:
            print("error: the question cannot be read: standard input is closed.", file=sys.stderr)
            return 2
        if sys.stdin.isatty():  # typed, not piped: how to say it is all there
            end = "Ctrl+Z, then Enter," if os.name == "nt" else "Ctrl+D"
            print(f"Type the question, then press {end} on a new line.", file=sys.stderr)
        try:
            data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
        except OSError as exc:
            print(f"error: the question cannot be read from standard input: {(exc.strerror or str(exc)).lower()}.",
                  file=sys.stderr)
            return 2
        args.question = data.decode("utf-8", "surrogateescape")
    # Bytes that are not UTF-8 (a Latin-1 terminal's "caf\xe9") reach Python as lone surrogates, which
    # no request can carry: sent as "�", and said, rather than failing as the server's fault.
    for what, name in (("the question", "question"), ("--system", "system")):
        text = getattr(args, name)
        if text is not None and _has_surrogates(text):
            setattr(args, name, fixed := _without_surrogates(text))
            if fixed.count("\ufffd") == text.count("\ufffd"):  # UTF-8 all along (an ASCII locale's argv)
                continue
            print(f"warning: {what} has bytes that are not UTF-8 text; each was replaced with \ufffd.",
                  file=sys.stderr)
    if not args.question.strip():  # as the window's --ask: the model would answer a question nobody asked
        print("error: the question is empty.", file=sys.stderr)  # as every other error of `ask` is said
        return 2
    ctx = context_from_args(args)  # logging goes to the data folder's log from here on
    for warning in ctx.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    ctx, held = unwatched(args, ctx)  # the saved setting alone runs no command: only --allow-shell-exec
    import asyncio  # here, not at the top: `nanogo` starts faster without it

    return asyncio.run(_ask_async(args, ctx, shell_held=held))


async def _ask_async(args: argparse.Namespace, ctx: Any, *, shell_held: bool = False) -> int:
    import asyncio

    from .cliprint import JsonPrinter, TextPrinter
    from .engine import Engine
    from .http_clients import async_client
    from .tools import default_registry
    from .tools.shell import UNWATCHED_NOTE, hold_back

    registry = default_registry()
    reasons = dict(FLAG_REASONS)
    if getattr(args, "offline", None) is False:  # --offline given (it stores False into network_tools)
        reasons.update(dict.fromkeys(("url_fetch", "websearch", "wikipedia"), OFFLINE_FLAG_REASON))
    for name, reason in reasons.items():
        if (tool := registry.get(name)) is not None:
            registry.register(dataclasses.replace(tool, disabled_reason=reason))
    if shell_held:  # the setting is on: its reason ("enable 'Allow shell commands'") sent the user to it again
        hold_back(registry, "`ask`")
    failed = False
    async with async_client() as http:
        engine = Engine(settings=ctx.settings, data_dir=ctx.data_dir, http=http, registry=registry)
        printer = JsonPrinter(sys.stdout) if args.jsonl else TextPrinter(sys.stdout, sys.stderr)
        messages = [{"role": "user", "content": args.question}]
        waiting = None if args.jsonl else asyncio.create_task(_say_waiting(printer))
        try:
            async for event in engine.run(messages, system=args.system):
                failed = failed or event.event == "error"
                if shell_held and args.jsonl and event.event == "tool_result" and event.tool == "shell":
                    # Said once, when the model asks for a command, not on every question; without --jsonl
                    # the command's own status line says it ("✗ shell “ls” off: `ask` cannot ask you …").
                    shell_held = False
                    print(UNWATCHED_NOTE.format(run="`ask`"), file=sys.stderr)
                printer.show(event)
        finally:
            if waiting is not None:
                waiting.cancel()
            printer.close()
    return 1 if failed else 0


async def _say_waiting(printer: Any) -> None:
    """While `ask` runs: the line that says the model is being waited for, when it is (TextPrinter.tick)."""
    import asyncio

    while True:
        await asyncio.sleep(printer.tick())


def _has_surrogates(text: str) -> bool:
    return any("\ud800" <= ch <= "\udfff" for ch in text)


def _without_surrogates(text: str) -> str:
    """``text`` with the bytes the command line could not decode (surrogateescape) decoded as UTF-8 with
    U+FFFD for what is not; any other lone surrogate replaced too."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:
        return "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in text)
