"""Ctrl+C (or the engine's cancel) while a shell command runs: the command's process tree is killed, and
asyncio prints nothing ("_GatheringFuture exception was never retrieved" was printed at exit)."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sse_server import ScriptedLLMServer, Stream
from tests.tools.test_shell import process_gone, wait_until
from tinyrag_desktop.tools.shell import ShellTimeout, run_command

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX process groups and /bin/sh")

# The shell writes its pid down, then becomes the long sleep: the pid file says the command is running.
SLEEPER = "echo $$ > sleeper.pid; exec sleep 37"


def _pid(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        return None
    return int(text) if text.isdigit() else None


def _watch_loop_errors() -> list[dict]:
    """What the running loop reports from now on (an unretrieved exception among them)."""
    seen: list[dict] = []
    asyncio.get_running_loop().set_exception_handler(lambda loop, context: seen.append(context))
    return seen


async def _settle() -> None:
    """Let pending callbacks run, then collect: an unretrieved future reports itself when it is freed."""
    for _ in range(20):
        await asyncio.sleep(0)
    gc.collect()
    for _ in range(5):
        await asyncio.sleep(0)


async def test_cancelled_command_reports_nothing_and_dies(tmp_path: Path) -> None:
    seen = _watch_loop_errors()
    task = asyncio.ensure_future(run_command(SLEEPER, tmp_path, 60))
    assert await wait_until(lambda: _pid(tmp_path / "sleeper.pid") is not None, 10)
    pid = _pid(tmp_path / "sleeper.pid")
    assert pid is not None and not process_gone(pid)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await _settle()
    assert await wait_until(lambda: process_gone(pid), 10), f"the command {pid} survived the cancel"
    assert [c.get("message") for c in seen] == []


async def test_held_pipes_after_a_timeout_report_nothing(tmp_path: Path) -> None:
    # A grandchild in a session of its own outlives the kill and holds the output open: the readers are
    # given up on after two seconds, and that too must go unreported.
    seen = _watch_loop_errors()
    command = "setsid sh -c 'echo $$ > held.pid; exec sleep 30' & sleep 30"
    try:
        with pytest.raises(ShellTimeout):
            await run_command(command, tmp_path, 0.5)
        await _settle()
        assert [c.get("message") for c in seen] == []
    finally:
        held = _pid(tmp_path / "held.pid")
        if held is not None:
            os.kill(held, signal.SIGKILL)


def _ctrl_c_while_the_sleeper_runs(tmp_path: Path, pieces: list[str], stderr: int) -> tuple[int, str, str, int]:
    """`ask` over a stream of ``pieces`` that starts SLEEPER, Ctrl+C once it runs: exit status, standard
    output, standard error (None when sent to standard output) and the command's pid."""
    data = tmp_path / "data"
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(pieces), Stream(["after"]))
        proc = subprocess.Popen(
            [sys.executable, "-m", "tinyrag_desktop", "ask", "run it", "--base-url", llm.base_url, "--model",
             "scripted", "--data-dir", str(data), "--allow-shell-exec"],
            stdout=subprocess.PIPE, stderr=stderr, text=True)
        try:
            pid_file = data / "work" / "sleeper.pid"
            assert asyncio.run(wait_until(lambda: _pid(pid_file) is not None, 30)), "the command never started"
            pid = _pid(pid_file)
            assert pid is not None
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    return proc.returncode, out, err, pid


def test_ctrl_c_during_a_shell_command_prints_no_asyncio_noise(tmp_path: Path) -> None:
    status, _, err, pid = _ctrl_c_while_the_sleeper_runs(
        tmp_path, [f'<tool name="shell"><query>{SLEEPER}</query></tool>'], subprocess.PIPE)
    assert status == 130
    assert "Stopped." in err
    assert "never retrieved" not in err and "GatheringFuture" not in err and "Traceback" not in err, err
    assert asyncio.run(wait_until(lambda: process_gone(pid), 10)), f"the command {pid} survived Ctrl+C"


def test_ctrl_c_while_a_call_runs_still_prints_the_words_written_after_it(tmp_path: Path) -> None:
    # On one terminal the words the model writes while its call runs wait for the call's status line; Ctrl+C
    # at that moment printed "Stopped." and dropped them.
    block = f'<tool name="shell"><query>{SLEEPER}</query></tool>'
    status, out, _, pid = _ctrl_c_while_the_sleeper_runs(
        tmp_path, ["Let me look. ", block + " These words came while it ran."], subprocess.STDOUT)
    assert status == 130
    assert "These words came while it ran." in out, out
    assert out.index("These words came") < out.index("Stopped."), out
    assert asyncio.run(wait_until(lambda: process_gone(pid), 10))
