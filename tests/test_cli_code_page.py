"""JSON lines on a standard output that is not UTF-8: Windows writes a piped stdout in its ANSI code page
(cp1252), where characters it has no place for became "?" inside the JSON another program was reading. Run
here with PYTHONIOENCODING=cp1252, as such a pipe is."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from tests.sse_server import ScriptedLLMServer, Stream
from tinyrag_desktop.cliterm import json_line

REPO = Path(__file__).resolve().parents[1]
CP1252 = {**{k: v for k, v in os.environ.items() if not k.startswith("PYTHONIOENCODING")},
          "PYTHONIOENCODING": "cp1252", "PYTHONPATH": str(REPO)}
WORDS = "日本 ✓ café"


def run(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "tinyrag_desktop", *args], capture_output=True, env=CP1252,
                          cwd=REPO, timeout=120)


def lines(proc: subprocess.CompletedProcess[bytes]) -> list[dict]:
    assert proc.returncode == 0, proc.stderr.decode("cp1252", "replace")
    return [json.loads(line) for line in proc.stdout.decode("cp1252").splitlines()]


def test_kb_list_and_search_json_lines_keep_every_character(tmp_path: Path) -> None:
    note = tmp_path / "日本.txt"
    note.write_text(f"{WORDS}: the morning coffee.\n", encoding="utf-8")
    data = str(tmp_path / "data")
    assert run("kb", "add", str(note), "--data-dir", data).returncode == 0
    listed = lines(run("kb", "list", "--jsonl", "--data-dir", data))
    assert listed[0]["location"] == str(note)
    found = lines(run("kb", "search", "coffee", "--jsonl", "--data-dir", data))
    assert WORDS in found[0]["text"]


def test_ask_json_lines_keep_every_character(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["Oui: ", WORDS, "."]))
        events = lines(run("ask", "?", "--jsonl", "--base-url", llm.base_url, "--model", "scripted",
                           "--data-dir", str(tmp_path)))
    assert WORDS in "".join(str(e.get("text", "")) for e in events)


def test_a_utf8_stream_or_a_text_buffer_gets_the_characters_themselves() -> None:
    utf8 = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    assert json_line({"t": WORDS}, utf8) == json_line({"t": WORDS}, io.StringIO()) == '{"t": "日本 ✓ café"}'
    assert json_line({"t": WORDS}, io.TextIOWrapper(io.BytesIO(), encoding="cp1252")).isascii()


def test_on_windows_a_piped_output_gets_utf8_and_is_given_back_as_it_was(tmp_path: Path, monkeypatch) -> None:
    from tinyrag_desktop import cli

    note = tmp_path / "日本.txt"
    note.write_text("Доброе утро, 日本.\n", encoding="utf-8")
    assert cli.main(["kb", "add", str(note), "--data-dir", str(tmp_path / "d")]) == 0
    raw = io.BytesIO()
    piped = io.TextIOWrapper(raw, encoding="cp1252")  # Windows' stdout sent to a file or a pipe
    monkeypatch.setattr(sys, "stdout", piped)
    monkeypatch.setattr(cli, "_WINDOWS", True)
    assert cli.main(["kb", "search", "утро", "--data-dir", str(tmp_path / "d")]) == 0
    piped.flush()
    assert "Доброе утро, 日本." in raw.getvalue().decode("utf-8")
    assert (piped.encoding, piped.errors) == ("cp1252", "strict")  # given back as it was
