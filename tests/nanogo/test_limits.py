"""A program stopped at a limit keeps the output it printed before it (the command line, the model's tool
result, the window's Run box), and the limit messages name the seconds and where to raise them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tinyrag_desktop.tools.errors import ToolError
from tinyrag_desktop.tools.nanogo import sandbox
from tinyrag_desktop.tools.nanogo.sandbox import Interrupted, run_sandboxed, run_sandboxed_async
from tinyrag_desktop.tools.nanogo_tool import OUTPUT_BEFORE, split_output
from tinyrag_desktop.tools.nanogo_tool import run as nanogo_tool
from tinyrag_desktop.tools.registry import ToolContext

# Prints a line (far less than the worker's buffer), then never ends: its line was lost at every limit.
START_THEN_LOOP = 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("start")\n\tfor {\n\t}\n}\n'
RAISE = "raise 'Tool timeout' in Settings or pass --tool-timeout SECONDS"
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX resource limits and signals")


def test_output_before_the_time_limit_is_kept():
    res = run_sandboxed(START_THEN_LOOP, timeout=1)
    assert (res.stdout, res.status, res.exit_code) == ("start\n", "limit", 1)
    assert res.stderr == f"nanoGo: time limit exceeded: killed after 1s, the tool timeout ({RAISE})\n"


async def test_output_before_the_time_limit_is_kept_without_blocking():
    # The window and the tool run this way: the output was read by a coroutine the time limit cancelled.
    res = await run_sandboxed_async(START_THEN_LOOP, timeout=1)
    assert (res.stdout, res.status) == ("start\n", "limit")
    assert res.stderr.startswith("nanoGo: time limit exceeded: killed after 1s")


async def test_output_past_the_buffer_and_before_the_limit_is_kept_without_blocking():
    # More than the worker's 8 KB buffer: some of it had reached the pipe, and was lost all the same.
    source = START_THEN_LOOP.replace('fmt.Println("start")', 'for i := 0; i < 3000; i++ {\n\t\tfmt.Println("line", i)\n\t}')
    res = await run_sandboxed_async(source, timeout=1.5)
    assert res.stdout == "".join(f"line {i}\n" for i in range(3000))


@posix_only
def test_the_cpu_limit_keeps_the_output_and_names_the_limit(monkeypatch):
    # The CPU limit is set from the tool timeout; with it at 1 s and the wall clock far away, the kernel
    # stops the program. It said "nanoGo: CPU time limit exceeded", no number, no way to raise it.
    monkeypatch.setattr(sandbox, "cpu_limit", lambda timeout: 1)
    res = run_sandboxed(START_THEN_LOOP, timeout=20)
    assert (res.stdout, res.status, res.exit_code) == ("start\n", "limit", 1)
    assert res.stderr == ("nanoGo: CPU time limit exceeded: killed after 1s of CPU time, the limit that goes "
                          f"with the 20s tool timeout ({RAISE})\n")


def test_the_wall_clock_comes_before_the_cpu_limit():
    # With both at the tool timeout they raced: "--tool-timeout 3" said "CPU time limit exceeded" one run
    # and "time limit exceeded: killed after 3s" the next.
    for timeout in (0.5, 1, 2.5, 3, 30):
        assert sandbox.cpu_limit(timeout) >= timeout + 1
    cmd = sandbox.worker_command(65536, 512, sandbox.cpu_limit(3))
    assert cmd[cmd.index("--cpu-seconds") + 1] == "4"


async def test_the_tool_result_has_the_output_before_the_time_limit(tmp_path: Path):
    ctx = ToolContext(settings={"allow_nanogo": True, "tool_timeout": 1.0}, data_dir=tmp_path)
    with pytest.raises(ToolError) as failed:
        await nanogo_tool(START_THEN_LOOP, ctx)
    message = str(failed.value)
    assert OUTPUT_BEFORE in message
    assert split_output(message) == ("The program did not finish within the 1-second tool timeout and was stopped.",
                                     "start\n")


async def test_the_windows_run_box_shows_the_output_before_the_time_limit():
    from tinyrag_desktop.ui.gorun import GoRuns, RunLimits

    runs = GoRuns(lambda index: None)
    await runs.start(0, START_THEN_LOOP, RunLimits(timeout=1.0, memory_mb=512))
    view = runs.views()[0]
    assert (view.status, view.output) == ("stopped: time limit", "start\n")
    assert "--tool-timeout" in view.error


def test_the_nanogo_command_prints_the_output_before_the_time_limit(tmp_path: Path):
    program = tmp_path / "loop.go"
    program.write_text(START_THEN_LOOP, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "tinyrag_desktop", "nanogo", str(program), "--tool-timeout", "1",
                           "--data-dir", str(tmp_path / "data")], capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stdout) == (1, "start\n")
    assert proc.stderr == f"nanoGo: time limit exceeded: killed after 1s, the tool timeout ({RAISE})\n"


def _written(pid: int) -> int:
    """Bytes the process has written so far (to its pipes), from /proc."""
    for line in Path(f"/proc/{pid}/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    return 0


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="needs /proc/PID/io")
def test_ctrl_c_keeps_what_the_program_printed(monkeypatch):
    # Ctrl+C comes once the worker has written its line to the pipe: the poll loop's memory check is where
    # the runner looks at the worker each few hundredths of a second, so the interruption comes from there.
    def interrupt_once_printed(pid: int) -> float:
        if _written(pid) >= len("start\n"):
            raise KeyboardInterrupt
        return 0.0

    monkeypatch.setattr(sandbox, "_rss_mb", interrupt_once_printed)
    with pytest.raises(Interrupted) as stopped:
        run_sandboxed(START_THEN_LOOP, timeout=30)
    assert isinstance(stopped.value, KeyboardInterrupt)  # callers that stop on Ctrl+C still do
    result = stopped.value.result
    assert (result.stdout, result.status, result.exit_code) == ("start\n", "stopped", 130)
