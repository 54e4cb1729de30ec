"""`ask --jsonl` as DESIGN gives it: one JSON object per event, each line flushed as it comes, and the fields
of `tool_start`, `tool_result` and `done`, all of them and no other."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from tests.sse_server import Gate, ScriptedLLMServer, Stream

BLOCK = '<tool name="calculate"><query>6 * 7</query></tool>'
TOOL_START = {"event", "id", "tool", "query", "param", "round", "raw"}
TOOL_RESULT = {"event", "id", "tool", "query", "source", "error", "result_bytes", "status", "elapsed_ms", "result",
               "param", "round", "raw"}
DONE = {"event", "rounds", "tools_run", "elapsed_ms", "transcript", "sources", "left_out", "window", "model",
        "shortened", "round_starts"}


def _command(base_url: str, data_dir: Path) -> list[str]:
    return [sys.executable, "-m", "tinyrag_desktop", "ask", "What is 6 * 7?", "--jsonl", "--base-url", base_url,
            "--model", "scripted", "--data-dir", str(data_dir)]


def test_each_line_comes_as_its_event_does_not_when_the_answer_ends(tmp_path: Path) -> None:
    gate = Gate(seconds=20)  # the reply stays open after its first words until the test has read them
    # A pipe is block-buffered unless `ask` flushes: PYTHONUNBUFFERED (set in some shells and CI) would hide it
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}, "PYTHONIOENCODING": "utf-8"}
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["It is ", "42."], gate=gate))
        proc = subprocess.Popen(_command(llm.base_url, tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, encoding="utf-8", env=env)
        watchdog = threading.Timer(60, proc.kill)  # a run that never ends fails the test, not the suite
        watchdog.start()
        try:
            seen = []
            for line in proc.stdout:
                seen.append(json.loads(line))
                if seen[-1]["event"] == "text":
                    break
            # Read while the server still held the reply open: the line was not kept back until the end.
            held = not gate.passed.is_set()
            gate.opened.set()
            rest, _ = proc.communicate(timeout=30)
        finally:
            watchdog.cancel()
            gate.opened.set()
    assert held, "the first text event came only after the server had sent the whole reply"
    assert [e["event"] for e in seen] == ["route", "text"] and seen[-1]["text"] == "It is "
    assert proc.returncode == 0
    assert [json.loads(line)["event"] for line in rest.splitlines()][-1] == "done"


def test_tool_start_tool_result_and_done_carry_every_field_and_no_other(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    with ScriptedLLMServer() as llm:
        llm.queue(Stream([f"Let me compute. {BLOCK}"]), Stream(["It is 42."]))
        proc = subprocess.run(_command(llm.base_url, tmp_path), capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr
    events = {e["event"]: e for e in map(json.loads, proc.stdout.splitlines())}
    start, result, done = events["tool_start"], events["tool_result"], events["done"]
    assert start.keys() == TOOL_START and result.keys() == TOOL_RESULT and done.keys() == DONE
    assert start == {"event": "tool_start", "id": result["id"], "tool": "calculate", "query": "6 * 7",
                     "param": "query", "round": 1, "raw": BLOCK}
    assert result["status"] == "ok" and result["error"] is None and result["result"] == "6 * 7 = 42"
    assert result["result_bytes"] == len(result["result"].encode()) and isinstance(result["elapsed_ms"], int)
    assert (result["param"], result["round"], result["raw"]) == ("query", 1, BLOCK)
    assert (done["rounds"], done["tools_run"]) == (2, 1) and isinstance(done["elapsed_ms"], int)
    # round 2 starts after round 1's call, at the blank line before its words
    assert done["round_starts"] == [len(f"Let me compute. {BLOCK}")]
    assert done["transcript"][done["round_starts"][0]:] == "\n\nIt is 42."

