"""`ask` on a terminal, where the answer (stdout) and the tool status lines (stderr) share the screen: each
status line on a line of its own, the answer's words whole, a result's value on its ✓ line."""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from tests.sse_server import ScriptedLLMServer, Stream
from tests.terminal import read_to_end

REPO = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(REPO)}
ENV.pop("COLUMNS", None)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="no pseudo-terminals")


def calc(expr: str) -> str:
    return f'<tool name="calculate"><query>{expr}</query></tool>'


def run_ask(llm: ScriptedLLMServer, data_dir: Path, *more: str, **kw: object) -> subprocess.CompletedProcess[bytes]:
    args = [sys.executable, "-m", "tinyrag_desktop", "ask", "hi", "--base-url", llm.base_url, "--model", "scripted",
            "--data-dir", str(data_dir), *more]
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    return subprocess.run(args, env=ENV, cwd=REPO, timeout=120, **kw)  # type: ignore[call-overload]


def on_a_terminal(llm: ScriptedLLMServer, data_dir: Path, *more: str, columns: int = 0) -> list[str]:
    """The screen's lines when ``ask`` writes both its streams to one terminal ``columns`` wide (0: unset)."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    if columns:
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    try:
        proc = run_ask(llm, data_dir, *more, stdout=slave, stderr=slave)
    finally:
        os.close(slave)
    written = read_to_end(master)
    assert proc.returncode == 0
    return written.decode().replace("\r\n", "\n").split("\n")


STATUS = ("⟳", "✓", "✗", "⤼")


def _cells(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def test_status_lines_on_a_terminal_never_land_inside_the_answers_words(tmp_path: Path) -> None:
    # "First \n⟳ calculate: 1+1\n t\n✓ calculate “1+1” ok: 0 ms\nhen second": the text the model wrote on
    # while its calls ran was printed between their lines, and a result's line cut "then" in two.
    with ScriptedLLMServer() as llm:
        llm.queue(Stream([f"First {calc('1+1')} then second {calc('2+2')}."]), Stream(["So 2 and 4."]))
        lines = on_a_terminal(llm, tmp_path)
    for line in lines:  # a status mark only ever starts a line
        assert not any(mark in line[1:] for mark in STATUS), lines
    status = [line for line in lines if line.startswith(STATUS)]
    answer = [line for line in lines if line and not line.startswith(STATUS)]
    assert " ".join(" ".join(answer).split()) == "First then second. So 2 and 4.", lines
    assert all(line == line.strip() and "  " not in line for line in answer), lines
    # between a call's ⟳ and its ✓, only status lines: no stray "." or space line
    for expr in ("1+1", "2+2"):
        start = lines.index(f"⟳ calculate: {expr}")
        end = next(n for n, line in enumerate(lines) if line.startswith(f"✓ calculate “{expr}”"))
        assert start < end and all(line.startswith(STATUS) for line in lines[start:end + 1]), lines
    assert "✓ calculate “1+1” = 2" in status and "✓ calculate “2+2” = 4" in status, status


def test_a_long_result_is_previewed_on_one_line_the_width_of_the_terminal(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Stream([f"Big: {calc('2**200')}"]), Stream(["A big number."]))
        lines = on_a_terminal(llm, tmp_path, columns=40)
    (done,) = [line for line in lines if line.startswith("✓")]
    assert done.startswith("✓ calculate “2**200” = 1606938") and done.endswith("…"), lines
    assert _cells(done) <= 40
    assert "A big number." in lines


def test_the_answer_in_a_file_has_no_doubled_space_where_a_block_was(tmp_path: Path) -> None:
    # stdout read "Let me compute.  and  and ": each removed block left the spaces on both of its sides
    out = tmp_path / "out.txt"
    with ScriptedLLMServer() as llm, out.open("wb") as f:
        llm.queue(Stream([f"Let me compute. {calc('2**3')} and {calc('1/0')} then {calc('3*3')}.",
                          " Next."]), Stream(["Done: 8, an error and 9."]))
        proc = run_ask(llm, tmp_path, stdout=f)
    err = proc.stderr.decode()
    assert proc.returncode == 0, err
    assert out.read_text() == "Let me compute. and then. Next.\n\nDone: 8, an error and 9.\n"
    assert "✓ calculate “2**3” = 8" in err.splitlines() and "✗ calculate “1/0” error: " in err


def test_result_lines_in_a_log_name_the_value(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Stream([calc("6 * 7")]), Stream(["42."]))
        proc = run_ask(llm, tmp_path)
    assert proc.returncode == 0 and proc.stdout.decode() == "42.\n"
    assert proc.stderr.decode().splitlines() == ["⟳ calculate: 6 * 7", "✓ calculate “6 * 7” = 42"]


def test_a_program_stopped_at_its_output_limit_says_so_to_the_model_and_on_its_line(tmp_path: Path) -> None:
    # The sandbox's "[The output was cut at 64 KB …]" came last in the result, and the engine's cut to 8,000
    # characters took it away: the model read a run that went well. The ✓ line said only "ok: 300 ms".
    from tinyrag_desktop.tools.nanogo_tool import OUTPUT_CUT

    go = '<tool name="nanogo"><source>for i := 0; i < 200000; i++ { fmt.Println("line", i) }</source></tool>'
    with ScriptedLLMServer() as llm:
        llm.queue(Stream([f"Big: {go}"]), Stream(["It was stopped."]))
        proc = run_ask(llm, tmp_path, "--allow-nanogo")
        result = llm.requests[-1]["messages"][-1]["content"]
    assert proc.returncode == 0, proc.stderr.decode()
    assert f"more characters cut]\n{OUTPUT_CUT}\n</result>" in result
    (done,) = [line for line in proc.stderr.decode().splitlines() if line.startswith("✓")]
    assert done.startswith("✓ nanogo “for i := 0;") and "→ line 0 line 1" in done and done.endswith(OUTPUT_CUT)
    with ScriptedLLMServer() as llm:
        llm.queue(Stream([f"Big: {go}"]), Stream(["It was stopped."]))
        lines = on_a_terminal(llm, tmp_path, "--allow-nanogo", columns=60)
    at = next(n for n, line in enumerate(lines) if line.startswith("✓"))
    assert _cells(lines[at]) <= 60 and "→ line 0" in lines[at]
    (started,) = [line for line in lines if line.startswith("⟳")]
    assert started.startswith("⟳ nanogo: for i := 0;") and _cells(started) <= 60
    assert lines[at + 1] == f"  {OUTPUT_CUT}"  # too long for the line: on its own, whole
