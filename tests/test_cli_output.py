"""Standard output that cannot be written (its reader gone, a full disk, closed) or cannot encode the text:
one line in words or a quiet stop, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sse_server import ScriptedLLMServer, Stream
from tinyrag_desktop.kb import Importer, open_store

REPO = Path(__file__).resolve().parents[1]
FULL = Path("/dev/full")
needs_dev_full = pytest.mark.skipif(not FULL.exists(), reason="no /dev/full here")


def run(args: list[str], *, stdout: object = subprocess.PIPE, encoding: str = "utf-8",
        shell_redirect: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": encoding, "PYTHONPATH": str(REPO)}
    if shell_redirect:  # closed stdout: only a shell says it
        command = " ".join(f"'{a}'" for a in [sys.executable, "-m", "tinyrag_desktop", *args]) + " " + shell_redirect
        return subprocess.run(command, shell=True, stderr=subprocess.PIPE, text=True, cwd=REPO, env=env,
                              timeout=120)
    return subprocess.run([sys.executable, "-m", "tinyrag_desktop", *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, cwd=REPO, env=env, timeout=120,
                          encoding=encoding, errors="replace")


@pytest.fixture(scope="module")
def kb_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("kb")
    (root / "docs").mkdir()
    for n in range(1, 4):
        (root / "docs" / f"d{n}.md").write_text(f"# Café part {n}\n\nThis café part {n} talks about things.\n",
                                                 encoding="utf-8")
    kb = open_store(root / "data")
    Importer(kb, chunk_size=300).run([str(root / "docs")])
    kb.close()
    return root / "data"


def ask_args(llm: ScriptedLLMServer, data_dir: Path, *more: str) -> list[str]:
    return ["ask", "hi", "--base-url", llm.base_url, "--model", "scripted", "--data-dir", str(data_dir), *more]


def assert_no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr and "Error" not in proc.stderr, proc.stderr
    assert "Exception ignored" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("jsonl", [False, True], ids=["text", "jsonl"])
def test_ask_stops_quietly_when_the_reader_of_its_answer_is_gone(tmp_path: Path, jsonl: bool) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # `| true`: the reader is gone before the first line
    with ScriptedLLMServer() as llm:
        llm.queue(Stream([f"line {n}\n" for n in range(50)]))
        try:
            proc = run(ask_args(llm, tmp_path, *(["--jsonl"] if jsonl else [])), stdout=write_end)
        finally:
            os.close(write_end)
    assert_no_traceback(proc)
    assert proc.returncode == 1 and proc.stderr == ""


def test_ask_piped_to_head_gives_the_first_line_quietly(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Stream([f"line {n}\n" for n in range(300)]))
        command = " ".join(f"'{a}'" for a in [sys.executable, "-m", "tinyrag_desktop", *ask_args(llm, tmp_path)])
        proc = subprocess.run(command + " | head -1", shell=True, capture_output=True, text=True, cwd=REPO,
                              env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=120)
    assert proc.stdout == "line 0\n"
    assert_no_traceback(proc)


@needs_dev_full
def test_ask_on_a_full_disk_says_so_in_one_line(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm, FULL.open("w") as full:
        llm.queue(Stream(["The answer.\n"]))
        proc = run(ask_args(llm, tmp_path), stdout=full)
    assert_no_traceback(proc)
    assert proc.returncode == 1
    assert proc.stderr == "cannot write the answer: no space left on device\n"


@needs_dev_full
@pytest.mark.parametrize("args, what", [
    (["kb", "list"], "the list"), (["kb", "list", "--jsonl"], "the list"),
    (["kb", "search", "café"], "the search results"), (["kb", "search", "--jsonl", "café"], "the search results"),
])
def test_kb_on_a_full_disk_says_so_in_one_line(kb_dir: Path, args: list[str], what: str) -> None:
    with FULL.open("w") as full:
        proc = run([*args, "--data-dir", str(kb_dir)], stdout=full)
    assert_no_traceback(proc)
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[-1] == f"cannot write {what}: no space left on device"


@needs_dev_full
def test_kb_add_on_a_full_disk_imports_and_says_the_summary_was_not_written(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n\nSome text.\n", encoding="utf-8")
    with FULL.open("w") as full:
        proc = run(["kb", "add", str(tmp_path / "a.md"), "--data-dir", str(tmp_path / "data")], stdout=full)
    assert_no_traceback(proc)
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[-1] == "cannot write the summary: no space left on device"


@needs_dev_full
def test_nanogo_on_a_full_disk_says_so_in_one_line(tmp_path: Path) -> None:
    source = tmp_path / "hello.go"
    source.write_text('package main\nimport "fmt"\nfunc main() { fmt.Println("hello") }\n', encoding="utf-8")
    with FULL.open("w") as full:
        proc = run(["nanogo", str(source), "--data-dir", str(tmp_path)], stdout=full)
    assert_no_traceback(proc)
    assert proc.returncode == 1
    assert proc.stderr == "cannot write the program's output: no space left on device\n"


@needs_dev_full
def test_nanogo_run_as_its_own_module_on_a_full_disk_says_so_in_one_line(tmp_path: Path) -> None:
    source = tmp_path / "hello.go"
    source.write_text('package main\nimport "fmt"\nfunc main() { fmt.Println("hello") }\n', encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(REPO)}
    with FULL.open("w") as full:
        proc = subprocess.run([sys.executable, "-m", "tinyrag_desktop.tools.nanogo.cli", str(source), "--data-dir",
                               str(tmp_path)], stdout=full, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO,
                              timeout=120)
    assert_no_traceback(proc)
    assert proc.returncode == 1
    assert proc.stderr == "cannot write the program's output: no space left on device\n"


@needs_dev_full
@pytest.mark.parametrize("args", [["--help"], ["kb", "--help"], ["--version"]])
def test_help_on_a_full_disk_says_so_in_one_line(args: list[str]) -> None:
    with FULL.open("w") as full:
        proc = run(args, stdout=full)
    assert_no_traceback(proc)
    assert proc.returncode == 1
    assert proc.stderr == "cannot write the help: no space left on device\n"


def test_ask_with_stdout_closed_says_so(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["The answer.\n"]))
        proc = run(ask_args(llm, tmp_path), shell_redirect=">&-")
    assert_no_traceback(proc)
    assert proc.returncode == 1
    assert proc.stderr == "cannot write the answer: standard output is closed\n"


def test_kb_list_with_stdout_closed_says_so(kb_dir: Path) -> None:
    proc = run(["kb", "list", "--data-dir", str(kb_dir)], shell_redirect=">&-")
    assert_no_traceback(proc)
    assert proc.returncode == 1
    assert proc.stderr == "cannot write the list: standard output is closed\n"


# 9. An output encoding that cannot write the text: "?" in its place, not a traceback.

@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_ask_writes_what_the_encoding_cannot_as_question_marks(tmp_path: Path, encoding: str) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["café ✓ 漢字\n"]))
        proc = run(ask_args(llm, tmp_path), encoding=encoding)
    assert_no_traceback(proc)
    assert proc.returncode == 0
    assert proc.stdout == ("caf? ? ??\n" if encoding == "ascii" else "café ? ??\n")


@pytest.mark.parametrize("args", [["kb", "list"], ["kb", "search", "café"]])
def test_kb_writes_what_an_ascii_output_cannot_as_question_marks(kb_dir: Path, args: list[str]) -> None:
    proc = run([*args, "--data-dir", str(kb_dir)], encoding="ascii")
    assert_no_traceback(proc)
    assert proc.returncode == 0
    assert "Caf? part" in proc.stdout


def test_kb_json_lines_on_an_ascii_output_escape_what_it_cannot_write(kb_dir: Path) -> None:
    proc = run(["kb", "search", "--jsonl", "café", "--data-dir", str(kb_dir)], encoding="ascii")
    assert_no_traceback(proc)
    assert proc.returncode == 0
    assert "Caf\\u00e9 part" in proc.stdout  # JSON's own escape: the same text to whoever reads it
