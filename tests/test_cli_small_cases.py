"""Small command-line mistakes said in words: a mistyped command, a port out of range, a window of 0x0, a
screenshot's format; the shell note only when the model asks for a command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sse_server import ScriptedLLMServer, Stream

REPO = Path(__file__).resolve().parents[1]


def run(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(REPO),
           "TINYRAG_DATA_DIR": str(tmp_path / "data")}
    return subprocess.run([sys.executable, "-m", "tinyrag_desktop", *args], capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=120)


@pytest.mark.parametrize("args, words", [
    (["asks", "hi"], "unknown command 'asks' (did you mean ask?); the commands are ask, kb, nanogo; without "
                     "one, python -m tinyrag_desktop opens the window"),
    (["kv", "list"], "unknown command 'kv' (did you mean kb?)"),
    (["search", "espresso"], "unknown command 'search' (did you mean kb search?)"),
    (["help"], "unknown command 'help' (did you mean --help?)"),
    (["--ask", "hi", "extra"], "unrecognized arguments: extra"),
])
def test_a_mistyped_command_is_said_to_be_unknown(tmp_path: Path, args: list[str], words: str) -> None:
    proc = run(args, tmp_path)
    assert proc.returncode == 2
    assert words in proc.stderr.splitlines()[-1], proc.stderr
    assert not (tmp_path / "data").exists()  # no window was started


@pytest.mark.parametrize("verb", [["ask", "hi"], ["kb", "list"], ["--ask", "hi"]])
def test_a_base_url_port_out_of_range_is_said_so(tmp_path: Path, verb: list[str]) -> None:
    proc = run([*verb, "--base-url", "http://127.0.0.1:99999/v1"], tmp_path)
    assert proc.returncode == 2
    assert "the port 99999 is out of range; a port is a number from 1 to 65535" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("size", ["0x0", "0x600", "900x0", "-5x-5"])
def test_a_window_size_of_zero_is_refused(tmp_path: Path, size: str) -> None:
    proc = run([f"--size={size}", "--ask", "hi", "--base-url", "http://127.0.0.1:9/v1"], tmp_path)
    assert proc.returncode == 2
    assert f"--size {size}: a window needs a width and a height of at least 1 pixel" in proc.stderr


def test_a_screenshot_in_a_format_that_cannot_be_written_is_refused_before_the_window_opens(tmp_path: Path) -> None:
    proc = run(["--ask", "hi", "--screenshot", str(tmp_path / "s.gif"), "--base-url", "http://127.0.0.1:9/v1"],
               tmp_path)
    assert proc.returncode == 2
    assert "the picture can be saved as .png, .jpg or .bmp, not .gif; e.g. s.png." in proc.stderr
    assert "error: The model server" not in proc.stderr


def test_a_jpg_screenshot_holds_jpeg_data(tmp_path: Path) -> None:
    shot = tmp_path / "window.jpg"
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["It is 42."]))
        proc = run(["--base-url", llm.base_url, "--model", "scripted", "--ask", "6*7?", "--screenshot", str(shot),
                    "--size", "800x600"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert shot.read_bytes()[:3] == b"\xff\xd8\xff"  # JPEG, not PNG's "\x89PNG"


def _ask(llm: ScriptedLLMServer, tmp_path: Path, *more: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "data").mkdir(exist_ok=True)
    (tmp_path / "data" / "settings.json").write_text(json.dumps({"allow_shell_exec": True}))
    return run(["ask", "hi", "--base-url", llm.base_url, "--model", "scripted", *more], tmp_path)


def test_the_shell_note_is_not_said_when_no_command_is_asked_for(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["Hello."]))
        proc = _ask(llm, tmp_path)
    assert proc.returncode == 0
    assert proc.stderr == ""


@pytest.mark.parametrize("jsonl", [False, True], ids=["text", "jsonl"])
def test_a_command_asked_for_is_said_to_be_off_once(tmp_path: Path, jsonl: bool) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(['<tool name="shell"><query>ls</query></tool><tool name="shell"><query>pwd</query></tool>']),
                  Stream(["No listing, then."]))
        proc = _ask(llm, tmp_path, *(["--jsonl"] if jsonl else []))
    assert proc.returncode == 0
    if jsonl:
        assert proc.stderr == ("note: shell commands are off for `ask`, which cannot ask you before each one; "
                               "add --allow-shell-exec to let the model run them unasked.\n")
    else:  # each command's status line says why, the note would say it a third time
        assert proc.stderr.count("only with --allow-shell-exec") == 2 and "note:" not in proc.stderr


def test_the_first_token_timeout_has_a_flag(tmp_path):
    from tinyrag_desktop.cli import build_parser
    from tinyrag_desktop.cliargs import context_from_args

    args = build_parser().parse_args(["ask", "hi", "--first-token-timeout", "300", "--data-dir", str(tmp_path)])
    assert context_from_args(args).settings["first_token_timeout"] == 300.0


def test_the_context_to_use_has_a_flag_and_the_settings_rule(tmp_path):
    """--context-tokens sets Settings → Limits' "Context to use" for one run; a value that cannot hold the
    app's instructions is refused with that reason (10 was used as 512, and every question failed)."""
    import pytest

    from tinyrag_desktop.cli import build_parser
    from tinyrag_desktop.cliargs import context_from_args
    from tinyrag_desktop.settings import SettingsError

    args = build_parser().parse_args(["ask", "hi", "--context-tokens", "8192", "--data-dir", str(tmp_path)])
    assert context_from_args(args).settings["context_tokens"] == 8192
    args = build_parser().parse_args(["ask", "hi", "--context-tokens", "10", "--data-dir", str(tmp_path)])
    with pytest.raises(SettingsError, match=r"^--context-tokens must be at least 1536, not 10: the app's "
                                            r"instructions alone take"):
        context_from_args(args)


def test_ask_with_standard_input_closed_says_it_as_an_error(tmp_path: Path) -> None:
    # "The question cannot be read: …" was the only error of `ask` without "error:"
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-m", "tinyrag_desktop", "ask", "-", "--data-dir", str(tmp_path)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                          cwd=REPO, timeout=120, preexec_fn=lambda: os.close(0))  # ask - <&-
    assert (proc.returncode, proc.stderr) == (2, "error: the question cannot be read: standard input is closed.\n")


def test_an_empty_answer_names_the_flag_that_picks_another_model(tmp_path: Path) -> None:
    from tinyrag_desktop.tool_words import window_words

    with ScriptedLLMServer() as llm:
        llm.queue(Stream([]))
        proc = run(["ask", "hi", "--base-url", llm.base_url, "--model", "scripted"], tmp_path)
    said = "The model sent an empty answer. Try again, or choose another model in Settings (or pass --model)."
    assert proc.returncode == 1 and f"error: {said}" in proc.stderr.splitlines(), proc.stderr
    assert window_words(said).endswith("choose another model in Settings.")  # the window has no flags


def test_a_context_too_small_is_refused_in_the_command_lines_words(tmp_path: Path) -> None:
    from tinyrag_desktop.settings import OPTIONS, SettingsError

    proc = run(["ask", "hi", "--context-tokens", "-5", "--base-url", "http://127.0.0.1:9/v1"], tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: --context-tokens must be at least")
    assert proc.stderr.endswith("Set 0 to use what the server says.\n") and "box" not in proc.stderr
    with pytest.raises(SettingsError, match=r"Set 0 \(or leave the box empty\)"):  # the Settings window's words
        OPTIONS["context_tokens"].check(-5)
