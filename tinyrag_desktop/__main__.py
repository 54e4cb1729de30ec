"""Entry point: no verb opens the window; a verb (ask, kb, nanogo) runs headless."""

from __future__ import annotations

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
    try:
        return _run(argv)
    except KeyboardInterrupt:
        # Ctrl+C while the program is still starting (importing its modules, building the command line's
        # parser): said as one pressed later is, not as a traceback
        print("\nStopped.", file=sys.stderr)
        return 130


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
