"""A `--ask` window whose answer's ending failed still ends on SIGTERM (it waited for an outcome for good)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sse_server import ScriptedLLMServer, Stream

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


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name == "nt", reason="POSIX signals")
def test_sigterm_ends_an_ask_window_whose_answer_could_not_be_saved(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(Path(__file__).parents[2])}
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(["Hello."]))
        with subprocess.Popen([sys.executable, "-c", SCRIPT, "--ask", "Hi", "--base-url", llm.base_url,
                               "--model", "scripted", "--data-dir", str(tmp_path)],
                              stderr=subprocess.PIPE, text=True, env=env) as proc:
            said = []
            try:
                for line in proc.stderr:  # the slot's traceback: the answer has ended, and its saving failed
                    said.append(line)
                    if "saving failed in a way nobody foresaw" in line:
                        break
                proc.send_signal(signal.SIGTERM)
                proc.wait(timeout=30)
                said.append(proc.stderr.read())
            finally:
                if proc.poll() is None:
                    proc.kill()
    assert proc.returncode == 1 and "closed before the answer ended" in "".join(said), "".join(said)
