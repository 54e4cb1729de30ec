"""An --ask run asks no one before a command, as `ask` does not: it ends, however the model asks for one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

from tests.sse_server import ScriptedLLMServer, Stream

REPO = Path(__file__).resolve().parents[2]
COMMAND = '<tool name="shell"><query>echo tinyrag-unwatched</query></tool>'


def _run_app(args: list[str], data: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(REPO)}
    # It waited for good on "Run this command?", a question no one sees: the timeout is the failure.
    return subprocess.run([sys.executable, "-m", "tinyrag_desktop", "--data-dir", str(data), *args], env=env,
                          capture_output=True, text=True, timeout=60, cwd=REPO)


def test_with_allow_shell_exec_the_command_runs_unasked_and_the_run_ends(tmp_path: Path) -> None:
    shot = tmp_path / "shell.png"
    with ScriptedLLMServer() as llm:
        llm.queue(Stream([f"Let me look. {COMMAND}"]), Stream(["It printed its words."]))
        done = _run_app(["--base-url", llm.base_url, "--model", "scripted", "--ask", "run it",
                         "--allow-shell-exec", "--screenshot", str(shot)], tmp_path / "d")
    assert done.returncode == 0, done.stderr
    assert not QImage(str(shot)).isNull()
    assert "tinyrag-unwatched" in llm.requests[-1]["messages"][-1]["content"]  # it ran; the model read it
    assert "note:" not in done.stderr and "Traceback" not in done.stderr


def test_a_saved_setting_alone_runs_no_command_and_says_so_as_ask_does(tmp_path: Path) -> None:
    data = tmp_path / "d"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({"allow_shell_exec": True}))
    shot = tmp_path / "held.png"
    with ScriptedLLMServer() as llm:
        llm.queue(Stream([f"Let me look. {COMMAND}{COMMAND.replace('echo', 'printf')}"]),
                  Stream(["No listing, then."]))
        done = _run_app(["--base-url", llm.base_url, "--model", "scripted", "--ask", "run it",
                         "--screenshot", str(shot)], data)
    assert done.returncode == 0, done.stderr
    assert not QImage(str(shot)).isNull()
    told = llm.requests[-1]["messages"][-1]["content"]
    assert "tinyrag-unwatched\n" not in told  # nothing ran
    assert ("The tool shell is disabled: --ask cannot ask you before each command, so it runs them only with "
            "--allow-shell-exec.") in told
    # once, in `ask`'s words, however many commands the model asked for
    said = [line for line in done.stderr.splitlines() if "propagateSizeHints" not in line]  # offscreen Qt's own
    assert said == ["note: shell commands are off for --ask, which cannot ask you before each one; "
                    "add --allow-shell-exec to let the model run them unasked."]
    assert json.loads((data / "settings.json").read_text())["allow_shell_exec"] is True  # the setting is kept


def test_the_card_of_a_command_held_back_says_why_not_to_turn_on_a_setting_that_is_on(qtbot) -> None:
    from tinyrag_desktop.engine.events import ToolFinished
    from tinyrag_desktop.ui.answer import AnswerWidget

    answer = AnswerWidget()
    qtbot.addWidget(answer)
    reason = ("The tool shell is disabled: --ask cannot ask you before each command, so it runs them only with "
              "--allow-shell-exec.")
    card = answer.tool_finished(ToolFinished("c1", "shell", "ls", "", reason, 0, "error", 0))
    # It said "This tool is off. Turn it on in Settings to use it.": the setting was on, the flag was missing.
    assert card.note == reason and f"{reason}" in card.details_text()
