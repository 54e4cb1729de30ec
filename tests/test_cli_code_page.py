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
