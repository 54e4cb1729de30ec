"""The `nanogo FILE` verb: run Go source in the sandbox; exit 0 ok, 1 panic or limit, 2 compile error."""

from __future__ import annotations

import argparse
import sys


def register(subparsers) -> argparse.ArgumentParser:
    from ...cliargs import add_shared_flags

    p = subparsers.add_parser("nanogo", help="run a Go program or snippet in the nanoGo sandbox",
                              description="Run Go source (a file, or - for standard input) in the nanoGo "
                                          "sandbox. Exit status: 0 ran, 1 panic or limit, 2 compile error.")
    p.add_argument("file", metavar="FILE", help="Go source file, or - for standard input")
    add_shared_flags(p)
    p.set_defaults(func=run)
    return p


def _read(path: str) -> str:
    if path == "-":
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
        return data.decode("utf-8", "surrogateescape")
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "surrogateescape")


def _limits(args) -> tuple[float, int]:
    """Tool timeout and memory: from the flags, else the data folder's settings (``--data-dir``,
    $TINYRAG_DATA_DIR or the default one), as the window's nanogo tool has them. Reads only: a missing
    data folder is not created. Raises SettingsError for a bad flag."""
    from ...cliargs import context_from_args

    ctx = context_from_args(args, create=False)
    for warning in ctx.warnings:  # a damaged settings file: said, and the defaults run the program
        print(f"warning: {warning}", file=sys.stderr)
    return float(ctx.settings["tool_timeout"]), int(ctx.settings["nanogo_memory_mb"])


def run(args) -> int:
    from .errors import SandboxError
    from .sandbox import Interrupted, run_sandboxed

    if args.file == "-" and sys.stdin is None:  # started with stdin closed (<&-), as `ask -` says it
        print("The program cannot be read: standard input is closed.", file=sys.stderr)
        return 2
    try:
        source = _read(args.file)
    except OSError as e:
        print(f"nanogo: cannot read {args.file}: {e.strerror}", file=sys.stderr)
        return 2
    timeout, memory = _limits(args)
    try:
        res = run_sandboxed(source, timeout=timeout, memory_mb=memory)
    except SandboxError as exc:
        print(f"nanogo: the sandbox cannot start: {exc}", file=sys.stderr)
        return 1
    except Interrupted as stop:  # Ctrl+C: what the program printed until then, then the usual "Stopped."
        _print_output(stop.result.stdout)
        raise
    try:
        _print_output(res.stdout)
    except OSError as exc:  # run as its own module (tinyrag-desktop nanogo says it in cli.main)
        return _output_failed(exc)
    if res.stderr:
        sys.stderr.write(_apart(res) + res.stderr)
        sys.stderr.flush()
    return res.exit_code


def _apart(res) -> str:
    """A line break before nanoGo's own message about a limit when the program's output stopped mid-line
    where that message goes too (a terminal, ``2>&1``): it read "line 6nanoGo: output limit exceeded". A
    panic is written as Go writes it, straight after the output."""
    from ...cliterm import same_file

    cut = res.status == "limit" and res.stdout and not res.stdout.endswith("\n")
    return "\n" if cut and same_file(sys.stdout, sys.stderr) else ""


def _print_output(text: str) -> None:
    out = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else None
    if out is not None:
        out.write(text.encode("utf-8", "surrogateescape"))
        out.flush()
    else:
        sys.stdout.write(text)


def _output_failed(exc: OSError) -> int:
    """Exit 1 when stdout cannot be written: quietly when its reader has gone (``| head -1``), else in one
    line; stdout pointed at /dev/null so the interpreter's last flush does not fail again."""
    import errno
    import os

    if exc.errno != errno.EPIPE:
        print(f"cannot write the program's output: {(exc.strerror or str(exc)).lower()}", file=sys.stderr)
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
    return 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="nanogo")
    sub = parser.add_subparsers(dest="verb")
    register(sub)
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] != "nanogo":
        argv = ["nanogo"] + argv
    args = parser.parse_args(argv)
    from ...settings import SettingsError

    try:
        return args.func(args)
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
