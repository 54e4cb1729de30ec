"""The shell tool: off by default, asks first, runs in the work folder, and kills the whole tree when stopped."""

from __future__ import annotations

import asyncio
import gc
import os
import re
import shlex
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from tinyrag_desktop.tools.errors import ToolError
from tinyrag_desktop.tools.registry import ToolContext, default_registry
from tinyrag_desktop.tools.shell import ShellTimeout, needs_shell, shell

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX process groups and /bin/sh")

# Starts a long sleep in the background of a /bin/sh, writes its pid down, and waits for it: a tree
# of two processes, the grandchild of the tool.
TREE = "sleep 60 & echo $! > child.pid; echo started; wait"


@pytest.fixture(autouse=True)
def _collect_garbage():
    """A pipe or transport left open shows up as a ResourceWarning in the test that leaked it."""
    yield
    gc.collect()


def ctx(data_dir: Path, confirm=None, **settings: object) -> ToolContext:
    return ToolContext(settings={"allow_shell_exec": True, "tool_timeout": 10.0, **settings},
                       data_dir=data_dir, confirm=confirm)


def process_gone(pid: int) -> bool:
    """True when ``pid`` no longer runs: absent, or a zombie waiting for a parent that is not us."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


async def wait_until(condition, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        await asyncio.sleep(0.02)
    return condition()


def read_pid(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        return None
    return int(text) if text.isdigit() else None


async def test_disabled_by_default(data_dir: Path) -> None:
    with pytest.raises(ToolError, match="enable 'Allow shell commands' in Settings"):
        await shell("echo hi", ToolContext(settings={"allow_shell_exec": False}, data_dir=data_dir))
    registry = default_registry()
    assert "shell" not in {s.name for s in registry.enabled({"allow_shell_exec": False})}
    assert "shell" in {s.name for s in registry.enabled({"allow_shell_exec": True})}
    assert not (data_dir / "work").exists()


async def test_denied_command_does_not_run(data_dir: Path) -> None:
    asked: list[tuple[str, str]] = []

    async def deny(tool: str, text: str) -> bool:
        asked.append((tool, text))
        return False

    with pytest.raises(ToolError, match="The user denied running this command."):
        await shell("  touch ran.txt \n", ctx(data_dir, confirm=deny))
    assert asked == [("shell", "touch ran.txt")]
    assert not (data_dir / "work" / "ran.txt").exists()


async def test_approved_command_runs_in_the_work_folder(data_dir: Path) -> None:
    async def allow(tool: str, text: str) -> bool:
        return True

    result = await shell("pwd", ctx(data_dir, confirm=allow))
    work = (data_dir / "work").resolve()
    assert result.text == f"$ pwd\nexit status: 0\n--- stdout ---\n{work}"
    assert result.source == str(data_dir / "work")


async def test_exit_status_stdout_and_stderr(data_dir: Path) -> None:
    result = await shell("echo out; echo err >&2; exit 3", ctx(data_dir))
    assert result.text == "$ echo out; echo err >&2; exit 3\nexit status: 3\n--- stdout ---\nout\n--- stderr ---\nerr"


async def test_what_a_command_prints_is_told_as_it_comes(data_dir: Path) -> None:
    # An answer stopped while the command ran lost all it had printed (ToolContext.output keeps it).
    told: list[str] = []
    context = ToolContext(settings={"allow_shell_exec": True, "tool_timeout": 10.0}, data_dir=data_dir,
                          output=told.append)
    task = asyncio.ensure_future(shell("printf 'caf\\303'; sleep 0.2; printf '\\251 out\\n'; echo err >&2; sleep 60",
                                       context))
    assert await wait_until(lambda: "café out\n" in "".join(told) and "err\n" in "".join(told))
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert sorted("".join(told).splitlines()) == ["café out", "err"]  # é came in two pieces, told whole


async def test_plain_command_runs_without_a_shell(data_dir: Path) -> None:
    # Quoted shell characters stay literal: exec gets them as arguments, nothing is interpreted.
    result = await shell("""printf '%s|' 'a;b' "c && d" '$HOME' '*'""", ctx(data_dir))
    assert result.text.endswith("--- stdout ---\na;b|c && d|$HOME|*|")


async def test_shell_syntax_goes_through_sh(data_dir: Path) -> None:
    (data_dir / "work").mkdir()
    (data_dir / "work" / "notes.txt").write_text("one\ntwo\nthree\n")
    result = await shell("ls *.txt && cat notes.txt | wc -l", ctx(data_dir))
    assert result.text.endswith("--- stdout ---\nnotes.txt\n3")


async def test_missing_program(data_dir: Path) -> None:
    with pytest.raises(ToolError, match="no program called 'definitely-not-a-program'"):
        await shell("definitely-not-a-program --help", ctx(data_dir))


async def test_program_in_the_work_folder(data_dir: Path) -> None:
    # Looked for as exec looks: a name with a slash in the work folder; one that is not executable is said so.
    work = data_dir / "work"
    work.mkdir()
    (work / "hello.sh").write_text("#!/bin/sh\necho hello from $0\n")
    (work / "hello.sh").chmod(0o755)
    (work / "notes.txt").write_text("not a program\n")
    result = await shell("./hello.sh", ctx(data_dir))
    assert result.text.endswith("--- stdout ---\nhello from ./hello.sh")
    with pytest.raises(ToolError, match=r"'./notes.txt' cannot be run \(permission denied\)"):
        await shell("./notes.txt", ctx(data_dir))
    with pytest.raises(ToolError, match="no program called './missing.sh'"):
        await shell("./missing.sh", ctx(data_dir))


async def test_timeout_kills_the_whole_tree(data_dir: Path) -> None:
    started = time.monotonic()
    with pytest.raises(ShellTimeout, match=r"(?s)did not finish within the 1.5-second tool timeout.*started") as info:
        await shell(TREE, ctx(data_dir, tool_timeout=1.5))
    assert time.monotonic() - started < 4
    assert "--- stdout ---\nstarted" in str(info.value)
    pid = read_pid(data_dir / "work" / "child.pid")
    assert pid is not None
    assert await wait_until(lambda: process_gone(pid)), f"grandchild {pid} survived the timeout"


async def test_timeout_without_a_shell(data_dir: Path) -> None:
    started = time.monotonic()
    with pytest.raises(ShellTimeout):
        await shell("sleep 30", ctx(data_dir, tool_timeout=0.5))
    assert time.monotonic() - started < 3


async def test_cancel_kills_the_whole_tree(data_dir: Path) -> None:
    pid_file = data_dir / "work" / "child.pid"
    task = asyncio.ensure_future(shell(TREE, ctx(data_dir, tool_timeout=60)))
    assert await wait_until(lambda: read_pid(pid_file) is not None)
    pid = read_pid(pid_file)
    assert pid is not None and not process_gone(pid)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await wait_until(lambda: process_gone(pid)), f"grandchild {pid} survived the cancel"


async def test_endless_output_is_stopped_and_the_result_capped(data_dir: Path) -> None:
    result = await shell("head -c 3000000 /dev/zero | tr '\\0' a", ctx(data_dir, result_max_chars=1000))
    assert "printed more than 2 MB and was stopped" in result.text
    assert "more characters left out" in result.text
    assert len(result.text) <= 1100


async def test_no_output_and_no_stdin(data_dir: Path) -> None:
    result = await shell("cat", ctx(data_dir))  # stdin is empty: cat ends at once instead of waiting
    assert result.text == "$ cat\nexit status: 0\n(no output)"


@pytest.mark.parametrize(("command", "expected"), [
    ("ls -la", False), ("git status --short", False), ("echo 'a|b'", False), ('grep -r "x*" .', False),
    ("echo a\\;b", False), ("python3 -c 'print(1)'", False), ("'A=*'", False), ('"A"=1 env', False),
    ("ls *.py", True), ("a | b", True), ("a && b", True), ("a; b", True), ("echo $HOME", True),
    ('echo "$HOME"', True), ("echo `id`", True), ("cat < f", True), ("FOO=1 env", True), ("cd ~", True),
    ("echo hi # comment", True), ("echo 'open", True), ("a\nb", True), ("(cd x)", True),
])
def test_needs_shell(command: str, expected: bool) -> None:
    assert needs_shell(command) is expected


_words = st.lists(st.text(st.characters(exclude_characters="\x00", exclude_categories=("Cs",)), max_size=12),
                  min_size=1, max_size=5)


@hsettings(deadline=None)
@given(_words)
def test_quoted_words_never_need_a_shell(words: list[str]) -> None:
    command = shlex.join(words)
    # The one quoted form sh still reads as syntax: a bare NAME=value first word is an assignment.
    first_is_assignment = shlex.quote(words[0]) == words[0] and re.match(r"[A-Za-z_]\w*=", words[0]) is not None
    assert needs_shell(command) is first_is_assignment
    assert shlex.split(command) == words


@hsettings(deadline=None)
@given(_words, st.sampled_from(["|", "&&", "||", ";", ">", "<", "&", "$(x)", "`x`", "*"]), _words)
def test_unquoted_operators_need_a_shell(left: list[str], op: str, right: list[str]) -> None:
    assert needs_shell(f"{shlex.join(left)} {op} {shlex.join(right)}") is True


@hsettings(deadline=None)
@given(st.text(max_size=80))
def test_needs_shell_never_raises(text: str) -> None:
    assert needs_shell(text) in (True, False)


async def test_background_children_are_stopped_when_the_command_ends(data_dir: Path) -> None:
    started = time.monotonic()
    result = await shell("sleep 60 & echo $! > bg.pid; echo launched", ctx(data_dir))
    assert time.monotonic() - started < 5  # not the whole tool timeout
    assert result.text == ("$ sleep 60 & echo $! > bg.pid; echo launched\nexit status: 0\n"
                           "(processes it left running in the background were stopped)\n--- stdout ---\nlaunched")
    pid = read_pid(data_dir / "work" / "bg.pid")
    assert pid is not None
    assert await wait_until(lambda: process_gone(pid)), f"background child {pid} survived"


async def test_a_file_where_the_work_folder_should_be_is_said_in_words_and_kept(data_dir: Path) -> None:
    (data_dir / "work").write_text("the user's notes")
    with pytest.raises(ToolError, match=r"work folder .*work is a file, not a folder") as raised:
        await shell("pwd", ctx(data_dir))
    assert "Errno" not in str(raised.value)
    assert (data_dir / "work").read_text() == "the user's notes"
