"""The sandbox started from a process whose stdin is closed (``<&-``), and a worker that cannot start."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tinyrag_desktop import cli
from tinyrag_desktop.tools.errors import ToolError
from tinyrag_desktop.tools.nanogo import run_sandboxed, run_sandboxed_async
from tinyrag_desktop.tools.nanogo.errors import SandboxError
from tinyrag_desktop.tools.nanogo_tool import TOOLS
from tinyrag_desktop.tools.registry import ToolContext

REPO = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONIOENCODING": "utf-8"}

pytestmark = pytest.mark.skipif(os.name != "posix", reason="<&- is a POSIX shell's")


def without_stdin(*args: str) -> subprocess.CompletedProcess[str]:
    """Python run with ``args`` and its fd 0 closed, as a shell's ``<&-`` starts it."""
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=ENV, cwd=REPO,
                          timeout=60, preexec_fn=lambda: os.close(0))


def test_run_sandboxed_does_not_depend_on_the_parents_stdin() -> None:
    code = ("from tinyrag_desktop.tools.nanogo import run_sandboxed\n"
            "r = run_sandboxed('fmt.Println(2)', timeout=10)\n"
            "print(repr((r.status, r.stdout)))\n")
    proc = without_stdin("-c", code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "('ok', '2\\n')\n"


def test_the_nanogo_verb_runs_a_file_with_stdin_closed(tmp_path: Path) -> None:
    program = tmp_path / "p.go"
    program.write_text("fmt.Println(2)\n", encoding="utf-8")
    proc = without_stdin("-m", "tinyrag_desktop", "nanogo", str(program), "--data-dir", str(tmp_path / "d"))
    assert (proc.returncode, proc.stdout) == (0, "2\n"), proc.stderr


def test_nanogo_dash_with_stdin_closed_says_so(tmp_path: Path) -> None:
    proc = without_stdin("-m", "tinyrag_desktop", "nanogo", "-", "--data-dir", str(tmp_path / "d"))
    assert proc.returncode == 2
    assert proc.stderr == "The program cannot be read: standard input is closed.\n"
    assert proc.stdout == ""


@pytest.fixture
def worker_not_allowed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The worker's interpreter is a file nobody may run: starting it is refused (permission denied)."""
    interpreter = tmp_path / "python3"
    interpreter.write_text("", encoding="utf-8")
    interpreter.chmod(0o644)
    monkeypatch.setattr(sys, "executable", str(interpreter))
    return str(interpreter)


def test_a_worker_that_cannot_start_is_a_sandbox_error_in_words(worker_not_allowed: str) -> None:
    with pytest.raises(SandboxError) as raised:
        run_sandboxed("fmt.Println(2)", timeout=10)
    assert str(raised.value) == f"permission denied: {worker_not_allowed}"


async def test_the_tool_says_the_sandbox_could_not_start(worker_not_allowed: str) -> None:
    with pytest.raises(SandboxError):
        await run_sandboxed_async("fmt.Println(2)", timeout=10)
    ctx = ToolContext(settings={"allow_nanogo": True, "tool_timeout": 20}, data_dir=Path("."))
    with pytest.raises(ToolError, match="^The nanoGo sandbox could not start: permission denied: "):
        await TOOLS[0].run("fmt.Println(2)", ctx)


def test_the_nanogo_verb_says_the_sandbox_could_not_start(worker_not_allowed: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "p.go"
    program.write_text("fmt.Println(2)\n", encoding="utf-8")
    assert cli.main(["nanogo", str(program), "--data-dir", str(tmp_path / "d")]) == 1
    err = capsys.readouterr().err
    assert err == f"nanogo: the sandbox cannot start: permission denied: {worker_not_allowed}\n"
