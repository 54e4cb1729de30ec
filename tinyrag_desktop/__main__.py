"""Entry point: no verb opens the window; a verb (ask, kb, nanogo) runs headless."""

from __future__ import annotations

import codecs
import os
import sys

VERBS = ("ask", "kb", "nanogo")


def verb_first(argv: list[str]) -> list[str]:
    """``argv`` with a verb written after shared flags moved to the front, the flags after it.

    People write the flags they always use first (``--data-dir ~/work kb list``), as git and pip take
    them; the verbs' parsers take the shared flags anywhere after the verb. Anything else is left as it
    is, so the window's parser reports what it does not know.
    """
    import argparse

    from .cliargs import add_shared_flags

    shared = argparse.ArgumentParser(add_help=False)
    add_shared_flags(shared)
    at = 0
    while at < len(argv):
        word = argv[at]
        if word in VERBS:
            # before a "--" of the verb's: what follows it is only positional (a file named "-notes.txt")
            rest = argv[at:]
            end = rest.index("--") if "--" in rest else len(rest)
            return rest[:end] + argv[:at] + rest[end:]
        name = word.partition("=")[0]
        # a shared flag, written whole or shortened to a prefix only it has ("--data" for --data-dir), as
        # argparse takes them
        names = [name] if name in shared._option_string_actions else \
            [o for o in shared._option_string_actions if name.startswith("--") and len(name) > 2 and o.startswith(name)]
        if len(names) != 1:
            return argv
        action = shared._option_string_actions[names[0]]
        at += 1 if "=" in word or action.nargs == 0 else 2
    return argv


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        _restart_in_utf8_mode()
    try:
        return _run(argv)
    except ModuleNotFoundError as exc:
        if not exc.name or exc.name.partition(".")[0] == __package__:
            raise  # one of the app's own modules: a bug, its traceback is wanted
        print(missing_library(exc.name), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        # Ctrl+C while the program is still starting (importing its modules, building the command line's
        # parser): said as one pressed later is, not as a traceback
        from .cliterm import stopped_line

        print(stopped_line(sys.stdout, sys.stderr), file=sys.stderr)
        return 130


def missing_library(name: str) -> str:
    """Why the program stopped when a library it needs is not installed for the Python running it. Typed as
    ``python -m tinyrag_desktop kb add …`` with the system's Python rather than the project's ``.venv`` one,
    the import got as far as the first file and ended in a traceback naming lxml."""
    return (f"tinyRAG Desktop cannot run: the library it needs, '{name.partition('.')[0]}', is not installed "
            f"for this Python ({sys.executable}). Run it with the project's own Python, "
            f".venv/bin/python -m tinyrag_desktop (`make run` sets it up), or install the app into this "
            f"Python: {sys.executable} -m pip install -e .")


# Set in the environment of the process started again in UTF-8 mode: it is not started a third time.
_RESTARTED = "TINYRAG_DESKTOP_UTF8_RESTARTED"


def _restart_in_utf8_mode() -> None:
    """Start the program again in Python's UTF-8 mode when it runs in an ASCII locale without it
    (``LC_ALL=C`` with ``PYTHONUTF8=0``: Python turns the mode on by itself in the C locale otherwise).

    In that locale every name and word outside ASCII reaches Python as bytes it cannot decode: a file named
    "été" is not valid text, "café" typed on the command line matches nothing, SQLite refuses the data
    folder /home/josé, and a name Qt gives back (Qt 6 takes file names as UTF-8) cannot be opened at all.
    No conversion here and there fixes all of that; the UTF-8 mode does, for this process and the ones it
    starts (the environment says PYTHONUTF8=1). Returns (and goes on as before) when not needed, on
    Windows, or when the new process cannot be started."""
    if os.name != "posix" or sys.flags.utf8_mode or os.environ.get(_RESTARTED):
        return
    try:
        if codecs.lookup(sys.getfilesystemencoding()).name != "ascii":
            return
    except LookupError:
        return
    os.environ["PYTHONUTF8"] = "1"
    os.environ[_RESTARTED] = "1"
    if getattr(sys, "frozen", False):  # the bootloader reads PYTHONUTF8 (PyInstaller 5 and later)
        command = [sys.executable, *sys.argv[1:]]
    else:  # -X utf8 too: PYTHONUTF8 is ignored under -E or -I
        command = [sys.executable, "-X", "utf8", *sys.orig_argv[1:]]
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(command[0], command)
    except (OSError, ValueError, AttributeError):
        return


def _run(argv: list[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "--nanogo-worker":  # a frozen build starts the sandbox as its own executable
        from .tools.nanogo.worker import main as worker_main

        return worker_main(argv[1:])
    if argv and argv[0] == "--child-guard":  # a frozen build starts shell commands and llama-server through it
        from .lifeline import guard_main

        return guard_main(argv[1:])
    if argv and argv[0] == "--kb-reader":  # a frozen build starts its import's readers as its own executable
        from .kb.reader_worker import main as reader_main

        return reader_main()
    if argv and argv[0] == "--kb-pdf-reader":  # a frozen build reads PDFs in a helper of its own executable
        from .kb.pdf_apart import main as pdf_main

        return pdf_main(argv[1:])
    if argv and argv[0] == "--llama-server":  # a frozen build that carries llama-cpp-python runs it so
        from .localmodel import serve_main

        return serve_main(argv[1:])
    argv = verb_first(argv)
    if argv and (argv[0] in VERBS or argv[0] in ("-h", "--help", "--version")):
        from .cli import main as cli_main

        return cli_main(argv)
    from .app import main as app_main

    return app_main(argv)


if __name__ == "__main__":
    sys.exit(main())
