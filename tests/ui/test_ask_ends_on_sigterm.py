"""A `--ask` window whose answer has not ended still ends on SIGTERM (it waited for an outcome for good); one
whose answer could not be saved, through a bug, ends as the answer did, the bug's traceback in the log."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.sse_server import Hang, ScriptedLLMServer, Stream

# The failure is put in by hand: the one that was seen ({"chat_model": "a\ud800"} in settings.json, which
# SQLite could not store) is refused now, and no outside input is known to fail the save otherwise.
SCRIPT = """
import sys
from tinyrag_desktop import app, chats

def broken(*args, **kwargs):
    raise RuntimeError("saving failed in a way nobody foresaw")

chats.ChatStore.add_assistant_message = broken
sys.exit(app.main(sys.argv[1:]))
"""


def _env() -> dict[str, str]:
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(Path(__file__).parents[2])}


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name == "nt", reason="POSIX signals")
def test_sigterm_ends_an_ask_window_whose_answer_has_not_ended(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Hang(60))  # the answer never comes
        with subprocess.Popen([sys.executable, "-m", "tinyrag_desktop", "--ask", "Hi", "--base-url", llm.base_url,
                               "--model", "scripted", "--data-dir", str(tmp_path)],
                              stderr=subprocess.PIPE, text=True, env=_env()) as proc:
            try:
                deadline = time.monotonic() + 30
                while not llm.requests and proc.poll() is None and time.monotonic() < deadline:
                    time.sleep(0.02)  # another process: nothing to wait on but its request
                assert llm.requests, "the window never asked"
                proc.send_signal(signal.SIGTERM)
                proc.wait(timeout=30)
                said = proc.stderr.read()
            finally:
                if proc.poll() is None:
                    proc.kill()
    assert proc.returncode == 1 and "closed before the answer ended" in said, said


def test_an_ask_window_whose_answer_could_not_be_saved_through_a_bug_ends_as_its_answer_did(tmp_path: Path) -> None:
    # The slot's traceback used to stop the answer's end: no outcome, a window waiting for good
    shot = tmp_path / "shot.png"
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["Hello."]))
        done = subprocess.run([sys.executable, "-c", SCRIPT, "--ask", "Hi", "--base-url", llm.base_url, "--model",
                               "scripted", "--data-dir", str(tmp_path / "data"), "--screenshot", str(shot)],
                              capture_output=True, text=True, env=_env(), timeout=60)
    assert done.returncode == 0 and shot.is_file(), done.stderr
    log = (tmp_path / "data" / "logs" / "tinyrag.log").read_text(encoding="utf-8")
    assert "saving failed in a way nobody foresaw" in log and "Traceback" in log
