"""The opt-in shell tool: runs one command (after the user says yes) in the data folder's work directory.

Off unless ``allow_shell_exec``. In the window each command is shown to the user first (``ctx.confirm``);
the command line passes no confirm and runs only with ``--allow-shell-exec``. A command runs without a
shell interpreter when it can (``shlex.split`` + exec: no globbing, no expansion, nothing to inject); one
that uses shell syntax (pipes, redirects, ``&&``, ``;``, globs, ``$VAR``, backquotes) runs under
``/bin/sh -c`` (``cmd.exe /c`` on Windows). The child gets its own session (process group), so on
timeout or cancellation the whole tree is killed, not just the first process; when the app itself dies, the
guard's watchdog in that group kills it (see lifeline.py).
"""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import signal
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Awaitable, Callable, Mapping

from ..crash_codes import crash_words, exit_words
from ..files import make_private_folder
from ..lifeline import child_options, guard_command, outside_environment
from ..winjob import OwnJob, adopted, own_job
from .console_text import output_decoder, output_text, terminal_text
from .errors import ToolError
from .netutil import cut_middle, result_limit, setting, timeout_words
from .registry import ToolContext, ToolRegistry, ToolResult, ToolSpec, output_teller

# Follows "The tool shell is disabled: " (or "The shell tool is off: "): it says how, not again that.
# The window's words: `ask` names its flag instead (cli.FLAG_REASONS).
DISABLED_REASON = "enable 'Allow shell commands' in Settings"
HARD_OUTPUT_CAP = 2 * 1024 * 1024  # bytes per stream; a command printing more is stopped
SHOWN_OUTPUT = 64 * 1024  # bytes per stream told as they come (ToolContext.output), as a Go program's are
BACKGROUND_GRACE = 1.0  # seconds background children may keep the output open after the command ends
MAX_COMMAND_CHARS = 8000
# Why the shell is off in a run no one watches (``ask``, the window's ``--ask``; ``run`` names it) when the saved
# setting has it on: no one can be asked before a command, so only that command line's own flag lets them run.
UNWATCHED_REASON = "{run} cannot ask you before each command, so it runs them only with --allow-shell-exec"
# Said once on standard error when the model asks for a command in such a run.
UNWATCHED_NOTE = ("note: shell commands are off for {run}, which cannot ask you before each one; "
                  "add --allow-shell-exec to let the model run them unasked.")
# What the model reads when the user says Deny; the window knows a denied call by it (a choice, not a failure).
DENIED = "The user denied running this command."
_IS_WINDOWS = sys.platform == "win32"
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_UNQUOTED_SPECIAL = set("|&;<>()`$*?[~#\n{}")
# Commands that would page or prompt on a terminal; the child has none, so make them print and go on.
_QUIET_ENV = {"PAGER": "cat", "GIT_PAGER": "cat", "TERM": "dumb", "GIT_TERMINAL_PROMPT": "0"}


class ShellTimeout(ToolError):
    """The command ran past its time and was killed, with its process tree."""


@dataclass(frozen=True, slots=True)
class Completed:
    """A finished command: ``returncode`` (negative: killed by that signal), the output it printed."""

    returncode: int
    stdout: bytes
    stderr: bytes
    overflow: bool = False
    background_killed: bool = False


def needs_shell(command: str) -> bool:
    """True when ``command`` uses shell syntax that plain exec would not honour.

    Quote-aware: ``echo "a|b"`` and ``grep 'x*'`` do not need a shell; ``ls *.txt``, ``a && b``,
    ``echo $HOME`` and ``FOO=1 cmd`` do. A command shlex cannot split (an open quote) goes to the
    shell too, which reports the error the user expects.
    """
    quote = ""
    escaped = False
    at_word_start = True
    for ch in command:
        if escaped:
            escaped = False
            at_word_start = False
            continue
        if quote == "'":
            if ch == "'":
                quote = ""
            continue
        if ch == "\\":
            escaped = True
            continue
        if quote == '"':
            if ch in "$`":
                return True
            if ch == '"':
                quote = ""
            continue
        if ch in "'\"":
            quote = ch
            at_word_start = False
            continue
        if ch in _UNQUOTED_SPECIAL and (ch not in "#~" or at_word_start):
            return True
        at_word_start = ch in " \t"
    if quote or escaped:
        return True
    try:
        shlex.split(command)
    except ValueError:
        return True
    # ``FOO=1 cmd`` sets a variable; ``'FOO=1'`` is a command of that name: only an unquoted NAME= counts.
    return _ASSIGNMENT.match(command.lstrip(" \t")) is not None


def work_dir(data_dir: Path) -> Path:
    """The folder commands run in (``work`` in the data folder), created when missing; ToolError when not usable."""
    path = Path(data_dir) / "work"
    try:
        make_private_folder(path)
    except FileExistsError:
        raise ToolError(f"Commands run in the work folder {path}, but {path} is a file, not a folder.") from None
    except OSError as exc:
        raise ToolError(f"Commands run in the work folder {path}, which cannot be created: "
                        f"{exc.strerror or exc}.") from None
    return path


def _tool_timeout(settings: Mapping[str, object]) -> float:
    try:
        return float(setting(settings, "tool_timeout", 30.0))
    except (TypeError, ValueError):
        return 30.0


def shell_timeout(settings: Mapping[str, object]) -> float:
    """The tool timeout: our kill (and its message) comes before the engine's (see engine.tool_grace)."""
    return max(0.1, _tool_timeout(settings))


async def _spawn(command: str, cwd: Path) -> asyncio.subprocess.Process:
    # as the app was started, not with the bundle's library paths (lifeline.outside_environment); on Windows
    # too, where PySide6's runtime hook puts the bundle's folder first on the PATH
    env = outside_environment({**os.environ, **_QUIET_ENV})
    common = dict(stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    if _IS_WINDOWS:
        return await asyncio.create_subprocess_shell(
            command, creationflags=subprocess.CREATE_NEW_PROCESS_GROUP, env=env, **common)
    if needs_shell(command):
        argv = ["/bin/sh", "-c", command]
    else:
        argv = shlex.split(command)
        _check_program(argv[0], cwd, env)
    # Through the guard: when the app dies (killed, crashed) the command's whole group dies with it.
    return await asyncio.create_subprocess_exec(*guard_command(argv), start_new_session=True, **common,
                                                **child_options(env))


def _check_program(name: str, cwd: Path, env: Mapping[str, str]) -> None:
    """ToolError when ``name`` is no program that can run, looked for as exec looks (on the PATH, or
    relative to ``cwd`` when it names a folder): the guard would only find out after it had started."""
    places = [name] if "/" in name else [os.path.join(folder, name) for folder in os.get_exec_path(dict(env))]
    found = [path for path in (os.path.join(cwd, place) for place in places) if os.path.exists(path)]
    if not found:
        raise ToolError(f"There is no program called {name!r} (not found on PATH).")
    if not any(os.path.isfile(path) and os.access(path, os.X_OK) for path in found):
        raise ToolError(f"{name!r} cannot be run (permission denied).")


async def kill_tree(proc: asyncio.subprocess.Process, job: OwnJob | None = None) -> None:
    """Kill the child and everything in its process group (its session, started for this purpose).

    Also after the child itself has exited: what it left running in the background is still in the
    group, which lives on under the child's pid (Linux does not reuse a pid while its group exists). On
    Windows ``taskkill /T`` while the child runs (it finds only the children of a child still running), then
    the command's own job (winjob.own_job), which holds what it started, also after it has exited.
    """
    if _IS_WINDOWS:
        # taskkill waits until Windows has ended the tree (0.1–0.5 s): in a thread, not on the loop the window
        # draws on (Stop stalled it). Cancelled meanwhile, the kill still ends before the job is let go.
        await _to_its_end(asyncio.to_thread(_end_windows_tree, proc, job))
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # start_new_session: the group id is the child's pid
    except (ProcessLookupError, PermissionError):  # nobody left in the group
        if proc.returncode is None:
            try:
                proc.kill()
            except ProcessLookupError:
                pass


def _end_windows_tree(proc: asyncio.subprocess.Process, job: OwnJob | None) -> None:
    """kill_tree on Windows, blocking: ``taskkill /T`` first, while the child runs (what it started before it
    was put in its job is found so only), then the job, also when taskkill could not be run."""
    try:
        if proc.returncode is None:
            subprocess.run(["taskkill", "/F", "/T", "/PID", str(proc.pid)], capture_output=True, check=False)
    finally:
        if job is not None:
            job.end()


async def _to_its_end(work: Awaitable[None]) -> None:
    """Await ``work`` until it has ended, also when cancelled meanwhile (the cancellation is raised then): a
    command being killed is not let go half-killed, its job closed before the kill came to it."""
    future = asyncio.ensure_future(work)
    cancelled: asyncio.CancelledError | None = None
    while not future.done():
        try:
            await asyncio.wait({future})
        except asyncio.CancelledError as exc:
            cancelled = exc
    if cancelled is not None:
        raise cancelled
    future.result()


async def _leader_exit(proc: asyncio.subprocess.Process) -> None:
    """Return once the child itself has exited. Process.wait() also waits for the pipes to close, which
    a background grandchild can hold open; asyncio exposes the exit only as ``returncode``, so poll it."""
    while proc.returncode is None:
        await asyncio.sleep(0.05)


async def _drain(stream: asyncio.StreamReader, keep: bytearray, overflow: asyncio.Event,
                 tell: Callable[[bytes], None] | None = None) -> None:
    # Read to the end even past the cap (discarding): a pipe left unread would keep the child blocked
    # and its transport open; the overflow event gets the tree killed, which ends the stream.
    while chunk := await stream.read(65536):
        if tell is not None:  # what it printed so far, kept by an answer stopped while it runs
            tell(chunk)
        room = HARD_OUTPUT_CAP - len(keep)
        if room > 0:
            keep += chunk[:room]
        if len(chunk) > room:
            overflow.set()


def _close_pipes(proc: asyncio.subprocess.Process) -> None:
    """Close our ends of the child's pipes now rather than when the garbage collector finds them."""
    transport = getattr(proc, "_transport", None)  # asyncio keeps it private; present on every version
    if transport is not None:
        transport.close()


async def run_command(command: str, cwd: Path, timeout: float, limit_words: str = "",
                      output: Callable[[str], None] | None = None) -> Completed:
    """Run ``command`` in ``cwd``; kill its tree after ``timeout`` s (ShellTimeout) or when cancelled.
    ``limit_words`` names the limit in the message ("the 10-second tool timeout"; else the seconds).
    ``output`` is told what the command prints as it comes (standard output and error, in the order read)."""
    proc = adopted(await _spawn(command, cwd))  # on Windows: it ends with the app (winjob.py)
    job = own_job(proc)  # on Windows: it and what it starts can be ended together; None elsewhere
    out, err = bytearray(), bytearray()
    overflow = asyncio.Event()
    assert proc.stdout is not None and proc.stderr is not None
    readers = asyncio.gather(  # on Windows each stream is read in the console's code page (console_text)
        _drain(proc.stdout, out, overflow, output_teller(output, SHOWN_OUTPUT, output_decoder())),
        _drain(proc.stderr, err, overflow, output_teller(output, SHOWN_OUTPUT, output_decoder())))
    stopper = asyncio.ensure_future(overflow.wait())
    exited = asyncio.ensure_future(_leader_exit(proc))
    background = False
    try:
        async with asyncio.timeout(timeout):
            done, _ = await asyncio.wait({readers, stopper, exited}, return_when=asyncio.FIRST_COMPLETED)
            if stopper in done:
                await kill_tree(proc, job)
            elif exited in done and not readers.done():
                # The command has ended, yet something it left running in the background ("server &")
                # still holds the output pipes: give it a moment to finish, then stop it too.
                done, _ = await asyncio.wait({readers}, timeout=BACKGROUND_GRACE)
                if not done:
                    background = True
                    await kill_tree(proc, job)
            await readers
            await proc.wait()
    except TimeoutError:
        try:
            await kill_tree(proc, job)
        finally:  # also when stopped while taskkill ran: the output read to its end, or the pipes closed
            await _reap(proc, readers)
        partial = _format_output(out, err, 2000)
        raise ShellTimeout(f"The command did not finish within {limit_words or f'{timeout:g} seconds'} and was "
                           f"stopped (its processes were killed).{partial}") from None
    except BaseException:  # cancelled by the engine (or anything else): never leave the tree running
        await _end_cancelled(proc, job, readers)
        raise
    finally:
        stopper.cancel()
        exited.cancel()
        if job is not None:
            job.close()
    return Completed(proc.returncode or 0, bytes(out), bytes(err), overflow.is_set(), background)


async def _end_cancelled(proc: asyncio.subprocess.Process, job: OwnJob | None,
                         readers: asyncio.Future[object]) -> None:
    """Kill a cancelled command's tree, reap it and close our ends of its pipes. Cancelled again meanwhile (a
    second Stop while taskkill runs), it still does all three: the caller then raises the first cancellation."""
    _cancel_quietly(readers)
    try:
        await kill_tree(proc, job)  # cancelled, it still ends the kill first (kill_tree)
    except BaseException:  # a second cancel or a kill that failed: the first error wins
        pass
    try:  # reap it, so that a cancelled tool has really ended when its cancellation completes
        await asyncio.wait_for(asyncio.shield(proc.wait()), 2.0)
    except BaseException:  # a further cancel or a child that will not die
        pass
    finally:
        _close_pipes(proc)


async def _reap(proc: asyncio.subprocess.Process, readers: asyncio.Future[object]) -> None:
    """Wait (2 s at most) for a killed command to exit and its output to be read to the end; else, or when
    cancelled meanwhile, give its output up and close our ends of its pipes."""
    ended = False
    try:
        async with asyncio.timeout(2.0):
            await proc.wait()
            await readers
        ended = True
    except TimeoutError:  # a grandchild that left the group still holds the pipes: stop waiting for it
        pass
    finally:
        if not ended:
            _cancel_quietly(readers)
            _close_pipes(proc)


def _cancel_quietly(future: asyncio.Future[object]) -> None:
    """Cancel ``future`` that nobody will await. A cancelled gather ends with a CancelledError set as its
    exception, and asyncio prints "_GatheringFuture exception was never retrieved" for one nobody read:
    read it when it ends."""
    future.cancel()
    future.add_done_callback(_retrieve)


def _retrieve(future: asyncio.Future[object]) -> None:
    if not future.cancelled():
        future.exception()


def _format_output(out: bytes | bytearray, err: bytes | bytearray, max_chars: int) -> str:
    # A long output keeps its start and its end, the lines in between left out: a command's end (its
    # error, its summary) is what matters most, and it was the part cut off. The model reads it as the card
    # shows it (terminal_text): no colour codes, a progress line's last state.
    parts = []
    if out:
        parts.append("\n--- stdout ---\n" + cut_middle(terminal_text(output_text(bytes(out))).rstrip("\n"), max_chars))
    if err:
        parts.append("\n--- stderr ---\n" + cut_middle(terminal_text(output_text(bytes(err))).rstrip("\n"), max_chars))
    return "".join(parts)


_SIGNAL_WORDS = {"SIGKILL": "it was killed", "SIGTERM": "it was told to stop", "SIGINT": "it was interrupted",
                 "SIGHUP": "it was told to stop", "SIGSEGV": "it crashed", "SIGBUS": "it crashed",
                 "SIGFPE": "it crashed", "SIGILL": "it crashed", "SIGABRT": "it aborted",
                 "SIGPIPE": "its output was closed"}
_PRINTED_TOO_MUCH = f"the command printed more than {HARD_OUTPUT_CAP // (1024 * 1024)} MB and was stopped"
CUT_NOTE = _PRINTED_TOO_MUCH[:1].upper() + _PRINTED_TOO_MUCH[1:] + "."  # status_note's for such a command


def describe_status(returncode: int, overflow: bool = False) -> str:
    """The line under the command in a result: "exit status: 3", "the command printed more than 2 MB and was
    stopped", or the signal that ended it, in words ("ended by signal SIGSEGV (it crashed)"; it said "killed
    by SIGKILL", also for a command our cap had stopped). A Windows crash is an exit status, with its code's
    words ("exit status: 3221225477 (0xC0000005: it crashed: an access violation)")."""
    if overflow:
        return _PRINTED_TOO_MUCH
    if returncode >= 0 or crash_words(returncode):
        return f"exit status: {exit_words(returncode)}"
    try:
        name = signal.Signals(-returncode).name
    except ValueError:
        name = str(-returncode)
    words = _SIGNAL_WORDS.get(name)
    return f"ended by signal {name}" + (f" ({words})" if words else "")


def status_note(command: str, result: str) -> str:
    """What the closed card says of how a command ended, read from its result's status line: nothing for
    exit status 0, else "The command ended with exit status 3." (a failed command read as a plain ✓)."""
    head = f"$ {command.strip()}\n"
    if not result.startswith(head):
        return ""
    line = result[len(head):].split("\n", 1)[0]
    if line.startswith("exit status: "):
        code = line[len("exit status: "):]
        return "" if code == "0" else f"The command ended with exit status {code}."
    if line == _PRINTED_TOO_MUCH:
        return CUT_NOTE
    if line.startswith("ended by signal "):
        return f"The command was {line}."
    return ""


def format_completed(command: str, done: Completed, max_chars: int) -> str:
    """``$ command``, the exit status, then stdout and stderr, each cut to its share of ``max_chars``."""
    head = f"$ {command}\n{describe_status(done.returncode, done.overflow)}"
    if done.background_killed:
        head += "\n(processes it left running in the background were stopped)"
    share = max(100, (max_chars - len(head)) // (2 if done.stdout and done.stderr else 1) - 40)
    body = _format_output(done.stdout, done.stderr, share) or "\n(no output)"
    return head + body


async def shell(content: str, ctx: ToolContext) -> ToolResult:
    """Run one command, after the user agrees; returns the exit status, stdout and stderr."""
    if not bool(setting(ctx.settings, "allow_shell_exec", False)):
        raise ToolError(f"The shell tool is off: {DISABLED_REASON}.")
    command = content.strip()
    if not command:
        raise ToolError("No command was given.")
    if len(command) > MAX_COMMAND_CHARS:
        raise ToolError(f"The command is longer than {MAX_COMMAND_CHARS} characters; write a script instead.")
    if "\x00" in command:
        raise ToolError("The command contains a NUL character.")
    if ctx.confirm is not None and not await ctx.confirm("shell", command):
        raise ToolError(DENIED)
    cwd = work_dir(ctx.data_dir)
    done = await run_command(command, cwd, shell_timeout(ctx.settings), timeout_words(_tool_timeout(ctx.settings)),
                             ctx.output)
    return ToolResult(format_completed(command, done, result_limit(ctx.settings)), source=str(cwd))


def hold_back(registry: ToolRegistry, run: str) -> None:
    """In a run no one watches (``run``: "`ask`", "--ask") whose saved setting allows commands: a call of the
    shell says why it is off there (UNWATCHED_REASON), not to switch on the setting that is on already."""
    spec = registry.get("shell")
    if spec is not None:
        registry.register(replace(spec, disabled_reason=UNWATCHED_REASON.format(run=run)))


def _shell_on(settings: Mapping[str, object]) -> bool:
    return bool(settings.get("allow_shell_exec"))


TOOLS = [
    ToolSpec(
        name="shell", element="query", icon="⌨️", run=shell, keeps_time=True,
        description=("Run one shell command in the app's work folder (the user approves each one); "
                     "returns its exit status, stdout and stderr."),
        example="ls -la",
        enabled=_shell_on, disabled_reason=DISABLED_REASON,
    ),
]
