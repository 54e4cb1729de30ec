"""`ask` as a user runs it: odd bytes in the question, the question from stdin, the answer in a file or on a
terminal, mistyped commands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sse_server import ScriptedLLMServer, Stream
from tests.terminal import read_to_end

REPO = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(REPO)}
BLOCK = '<tool name="calculate"><query>6 * 7</query></tool>'


def ask(llm: ScriptedLLMServer, data_dir: Path, question: str | bytes, *more: str | bytes,
        stdin: bytes | None = None, stdin_fd: int | None = None, **kw: object) -> subprocess.CompletedProcess[bytes]:
    args = [sys.executable, "-m", "tinyrag_desktop", "ask", question, "--base-url", llm.base_url,
            "--model", "scripted", "--data-dir", str(data_dir), *more]
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    if stdin_fd is not None:
        kw["stdin"] = stdin_fd
    return subprocess.run(args, input=stdin, env=ENV, cwd=REPO, timeout=120, **kw)  # type: ignore[call-overload]


def sent(llm: ScriptedLLMServer) -> list[dict]:
    return llm.requests[-1]["messages"]


# 2. Bytes that are not UTF-8 in the question or --system.

def test_a_question_with_bytes_that_are_not_utf8_is_sent_with_replacement_characters(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["Bonjour."]))
        proc = ask(llm, tmp_path, b"caf\xe9 cr\xe8me", "--system", b"Tu es un barista \xe9l\xe9gant.")
        messages = sent(llm)
    err = proc.stderr.decode()
    assert proc.returncode == 0, err
    assert proc.stdout.decode() == "Bonjour.\n"
    assert "server" not in err and "could not be read" not in err and "Traceback" not in err
    assert "warning: the question has bytes that are not UTF-8 text" in err
    assert "warning: --system has bytes that are not UTF-8 text" in err
    assert messages[-1]["content"].endswith("caf\ufffd cr\ufffdme")
    assert messages[0]["content"].startswith("Tu es un barista \ufffdl\ufffdgant.")


# 6. ask - reads the question from stdin.

def test_ask_dash_reads_the_question_from_standard_input(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["Done."]))
        proc = ask(llm, tmp_path, "-", stdin="Summarise this:\nline one\nline two\n".encode())
        messages = sent(llm)
    assert proc.returncode == 0, proc.stderr
    assert messages[-1]["content"].endswith("Summarise this:\nline one\nline two\n")
    assert "-" != messages[-1]["content"]


@pytest.mark.skipif(sys.platform == "win32", reason="no pseudo-terminals")
def test_ask_dash_on_a_terminal_says_how_to_end_the_question(tmp_path: Path) -> None:
    import pty

    master, slave = pty.openpty()
    os.write(master, b"why is the sky blue\n\x04")  # typed, then Ctrl+D on a new line
    try:
        with ScriptedLLMServer() as llm:
            llm.queue(Stream(["Rayleigh."]))
            proc = ask(llm, tmp_path, "-", stdin_fd=slave)
            messages = sent(llm)
    finally:
        os.close(slave)
        os.close(master)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.decode() == "Type the question, then press Ctrl+D on a new line.\n"
    assert messages[-1]["content"].endswith("why is the sky blue\n")


def test_ask_dash_with_empty_standard_input_is_an_empty_question(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        proc = ask(llm, tmp_path, "-", stdin=b"\n")
        assert llm.requests == []
    assert proc.returncode == 2
    assert proc.stderr.decode() == "error: the question is empty.\n"


def test_ask_help_says_dash_reads_standard_input() -> None:
    proc = subprocess.run([sys.executable, "-m", "tinyrag_desktop", "ask", "--help"], capture_output=True,
                          text=True, env={**ENV, "COLUMNS": "200"}, cwd=REPO, timeout=60)
    assert "or - to read it from standard input" in proc.stdout


# 4. The answer in a file keeps its sentences whole; the break before a status line is for a shared place.

def test_the_answer_written_to_a_file_gets_no_line_break_from_a_tool_call(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    with ScriptedLLMServer() as llm, out.open("wb") as f:
        llm.queue(Stream(["Twelve times four is ", BLOCK, " which I will confirm."]), Stream(["It is 42."]))
        proc = ask(llm, tmp_path, "12*4?", stdout=f)
    assert proc.returncode == 0, proc.stderr
    # one space where the block was taken out, not the two around it
    assert out.read_text().startswith("Twelve times four is which I will confirm.")
    assert "calculate" in proc.stderr.decode()


def test_status_lines_start_on_their_own_line_when_both_streams_go_to_one_file(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    with ScriptedLLMServer() as llm, out.open("wb") as f:
        llm.queue(Stream(["Twelve times four is ", BLOCK, " which I will confirm."]), Stream(["It is 42."]))
        proc = ask(llm, tmp_path, "12*4?", stdout=f, stderr=subprocess.STDOUT)
    assert proc.returncode == 0
    assert out.read_text().startswith(
        "Twelve times four is\n⟳ calculate: 6 * 7\n✓ calculate “6 * 7” = 42\nwhich I will confirm.\n\nIt is 42.")


# 8. The model's escape sequences are shown, not obeyed, on a terminal; a file gets them as they came.

def _on_a_terminal(llm: ScriptedLLMServer, data_dir: Path) -> str:
    import pty

    master, slave = pty.openpty()
    try:
        proc = ask(llm, data_dir, "hi", stdout=slave)
    finally:
        os.close(slave)
    written = read_to_end(master)
    assert proc.returncode == 0, proc.stderr
    return written.decode()


@pytest.mark.skipif(sys.platform == "win32", reason="no pseudo-terminals")
def test_escape_sequences_in_the_answer_are_shown_escaped_on_a_terminal(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["red \x1b[31mRED\x1b[0m \x1b]0;pwned\x07 title\tand tab\r\nnext line\x9b2J\n"]))
        shown = _on_a_terminal(llm, tmp_path)
    assert "\x1b" not in shown and "\x07" not in shown and "\x9b" not in shown
    assert r"red \x1b[31mRED\x1b[0m \x1b]0;pwned\x07 title" in shown
    assert "\tand tab\r\nnext line\\x9b2J" in shown  # the terminal turns "\n" into "\r\n"


def test_escape_sequences_in_the_answer_reach_a_file_as_they_came(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["red \x1b[31mRED\x1b[0m\n"]))
        proc = ask(llm, tmp_path, "hi")
    assert proc.stdout.decode() == "red \x1b[31mRED\x1b[0m\n"


def test_jsonl_is_unchanged_by_the_escaping(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["red \x1b[31mRED\n"]))
        proc = ask(llm, tmp_path, "hi", "--jsonl")
    texts = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert "".join(e["text"] for e in texts if e["event"] == "text") == "red \x1b[31mRED\n"
