"""Standard error that cannot be written (a full disk, its reader gone): the verb goes on as if it could,
with the same result on stdout and the same exit status; only its status lines are lost."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from tests.sse_server import ScriptedLLMServer, Stream

REPO = Path(__file__).resolve().parents[1]
FULL = Path("/dev/full")
BLOCK = '<tool name="calculate"><query>2**10</query></tool>'


@pytest.fixture(params=["full disk", "closed pipe"])
def broken_stderr(request: pytest.FixtureRequest) -> Iterator[int]:
    """A file descriptor whose every write fails: /dev/full (ENOSPC), or a pipe whose reader is gone (EPIPE)."""
    if request.param == "full disk":
        if not FULL.exists():
            pytest.skip("no /dev/full here")
        fd = os.open(FULL, os.O_WRONLY)
    else:
        read_end, fd = os.pipe()
        os.close(read_end)
    try:
        yield fd
    finally:
        os.close(fd)


def run(args: list[str], stderr: int) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "tinyrag_desktop", *args], stdout=subprocess.PIPE, stderr=stderr,
                          text=True, cwd=REPO, env=env, timeout=120)


def listed(data_dir: Path) -> str:
    return run(["kb", "list", "--jsonl", "--data-dir", str(data_dir)], subprocess.DEVNULL).stdout


def test_kb_add_imports_everything_when_its_progress_cannot_be_written(tmp_path: Path, broken_stderr: int) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for n in range(3):
        (docs / f"d{n}.md").write_text(f"# Part {n}\n\nThis part {n} talks about things.\n", encoding="utf-8")
    (docs / "bad.pdf").write_bytes(b"%PDF-1.4 not really")  # a "failed:" line on stderr as well
    data = tmp_path / "data"
    proc = run(["kb", "add", str(docs), "--progress", "--data-dir", str(data)], broken_stderr)
    assert proc.returncode == 1  # bad.pdf failed: the status is the one said with standard error written
    assert proc.stdout.startswith("3 added, 0 updated, 0 unchanged, 1 failed")
    assert sorted(line.split('"location": ')[1].split(",")[0] for line in listed(data).splitlines()) == [
        f'"{docs / f"d{n}.md"}"' for n in range(3)]


def test_kb_search_that_finds_nothing_exits_0_when_it_cannot_say_so(tmp_path: Path, broken_stderr: int) -> None:
    (tmp_path / "a.md").write_text("# A\n\nSome text.\n", encoding="utf-8")
    data = tmp_path / "data"
    assert run(["kb", "add", str(tmp_path / "a.md"), "--data-dir", str(data)], subprocess.DEVNULL).returncode == 0
    proc = run(["kb", "search", "zebraquagga", "--data-dir", str(data)], broken_stderr)
    assert (proc.returncode, proc.stdout) == (0, "")


def test_ask_prints_the_whole_answer_when_its_status_lines_cannot_be_written(tmp_path: Path,
                                                                             broken_stderr: int) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["Let me compute. ", *BLOCK]), Stream(["2**10 is 1024."]))
        proc = run(["ask", "what is 2**10", "--base-url", llm.base_url, "--model", "scripted",
                    "--data-dir", str(tmp_path)], broken_stderr)
    assert proc.returncode == 0
    assert proc.stdout == "Let me compute.\n\n2**10 is 1024.\n"
