"""A model's name with spaces around it (typed into settings.json, or --model " qwen3") is asked for without
them: the server had "no model called “  other-model  ”"."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sse_server import ScriptedLLMServer, Stream
from tinyrag_desktop.settings import defaults, from_mapping

REPO = Path(__file__).resolve().parents[1]


def _ask(llm: ScriptedLLMServer, data: Path, *more: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "tinyrag_desktop", "ask", "hi", "--base-url", llm.base_url,
                           "--data-dir", str(data), *more], capture_output=True, text=True, env=env, cwd=REPO,
                          timeout=120)


@pytest.mark.parametrize("where", ["settings", "flag"])
def test_ask_sends_the_model_name_without_its_spaces(tmp_path: Path, where: str) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({"chat_model": "  other-model  " if where == "settings"
                                                    else "scripted"}))
    with ScriptedLLMServer(models=("scripted", "other-model")) as llm:
        llm.queue(Stream(["Hello."]))
        proc = _ask(llm, data, *(["--model", " other-model\t"] if where == "flag" else []))
    assert proc.returncode == 0, proc.stderr
    assert [r["model"] for r in llm.requests] == ["other-model"]
    assert "Hello." in proc.stdout


def test_model_names_in_the_settings_are_trimmed() -> None:
    settings, warnings = from_mapping({"chat_model": "  qwen3:8b ", "embed_model": "\tnomic-embed-text\n"})
    assert (settings.chat_model, settings.embed_model, warnings) == ("qwen3:8b", "nomic-embed-text", [])
    assert defaults().replace(chat_model=" a b ").chat_model == "a b"  # a space inside is the server's business
