"""The web and shell tools end to end: `python -m tinyrag_desktop ask --jsonl` with a scripted model that
calls them, the settings file and the --offline / --allow-shell-exec flags switching them on and off."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.sse_server import ScriptedLLMServer, Stream

from .conftest import LoopbackServer
from .pages import ARTICLE_HTML, ARTICLE_SENTENCES


def ask(llm: ScriptedLLMServer, data_dir: Path, *flags: str) -> list[dict]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run(
        [sys.executable, "-m", "tinyrag_desktop", "ask", "Read it", "--jsonl", "--base-url", llm.base_url,
         "--model", "scripted", "--data-dir", str(data_dir), *flags],
        capture_output=True, text=True, timeout=60, env=env,
    )
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def tool_result(events: list[dict]) -> dict:
    return next(e for e in events if e["event"] == "tool_result")


def write_settings(data_dir: Path, **values: object) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "settings.json").write_text(json.dumps(values), encoding="utf-8")


def test_url_fetch_reads_a_page_when_private_addresses_are_allowed(server: LoopbackServer, tmp_path: Path) -> None:
    url = server.static("/article", ARTICLE_HTML)
    write_settings(tmp_path, url_fetch_allow_private=True)
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["Let me read it. ", f'<tool name="url_fetch"><url>{url}</url></tool>']),
                  Stream(["It explains local RAG."]))
        events = ask(llm, tmp_path)
    result = tool_result(events)
    assert result["status"] == "ok", result
    assert result["source"] == url
    assert ARTICLE_SENTENCES[0] in result["result"] and "ADVERT" not in result["result"]


def test_url_fetch_refuses_loopback_by_default(server: LoopbackServer, tmp_path: Path) -> None:
    url = server.static("/article", ARTICLE_HTML)
    with ScriptedLLMServer() as llm:
        llm.queue(Stream([f'<tool name="url_fetch"><url>{url}</url></tool>']), Stream(["Could not read it."]))
        events = ask(llm, tmp_path)
    result = tool_result(events)
    assert result["status"] == "error" and "loopback" in result["error"]
    assert server.seen == []


def test_offline_flag_turns_the_network_tools_off(server: LoopbackServer, tmp_path: Path) -> None:
    url = server.static("/article", ARTICLE_HTML)
    write_settings(tmp_path, url_fetch_allow_private=True)
    with ScriptedLLMServer() as llm:
        llm.queue(Stream([f'<tool name="url_fetch"><url>{url}</url></tool>']), Stream(["Offline."]))
        events = ask(llm, tmp_path, "--offline")
    result = tool_result(events)
    assert result["status"] == "error"
    assert result["error"] == ("The tool url_fetch is disabled: network tools are off for this question "
                               "(--offline); leave out --offline to use them.")
    assert server.seen == []


def test_shell_needs_the_flag(tmp_path: Path) -> None:
    block = '<tool name="shell"><query>echo from-the-shell</query></tool>'
    with ScriptedLLMServer() as llm:
        llm.queue(Stream([block]), Stream(["No."]))
        refused = tool_result(ask(llm, tmp_path))
        llm.queue(Stream([block]), Stream(["Done."]))
        ran = tool_result(ask(llm, tmp_path, "--allow-shell-exec"))
    assert refused["status"] == "error" and "--allow-shell-exec" in refused["error"]
    assert ran["status"] == "ok", ran
    assert ran["result"] == "$ echo from-the-shell\nexit status: 0\n--- stdout ---\nfrom-the-shell"


def test_the_saved_setting_alone_does_not_let_ask_run_commands_unasked(tmp_path: Path) -> None:
    # Saved from the window, where each command is shown first; `ask` cannot ask, so it needs its own flag.
    write_settings(tmp_path, allow_shell_exec=True)
    marker = tmp_path / "ran"
    block = f'<tool name="shell"><query>touch {marker}</query></tool>'
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    with ScriptedLLMServer() as llm:
        llm.queue(Stream([block]), Stream(["No."]))
        proc = subprocess.run(
            [sys.executable, "-m", "tinyrag_desktop", "ask", "Touch it", "--jsonl", "--base-url", llm.base_url,
             "--model", "scripted", "--data-dir", str(tmp_path)],
            capture_output=True, text=True, timeout=60, env=env)
        refused = tool_result([json.loads(line) for line in proc.stdout.splitlines()])
        assert refused["status"] == "error" and not marker.exists()
        assert "add --allow-shell-exec to let the model run them unasked" in proc.stderr
        llm.queue(Stream([block]), Stream(["Done."]))
        assert tool_result(ask(llm, tmp_path, "--allow-shell-exec"))["status"] == "ok" and marker.exists()
