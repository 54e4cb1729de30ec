"""The system's Quit closes the window as its own Quit does. macOS sends it from the Dock's Quit and when the
user logs out, Windows when it shuts down: Qt closed the window and ended its loop, and the app ended with
a traceback, its chat history left open."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.sse_server import ScriptedLLMServer

SCRIPT = """
import sys
from PySide6.QtCore import QCoreApplication, QEvent
from tinyrag_desktop import app
from tinyrag_desktop.ui.main_window import MainWindow

shown = MainWindow.show

def show(self):
    shown(self)
    QCoreApplication.postEvent(QCoreApplication.instance(), QEvent(QEvent.Type.Quit))  # the system's Quit

MainWindow.show = show
sys.exit(app.main(sys.argv[1:]))
"""


def test_the_systems_quit_closes_the_window_as_its_quit_does(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(Path(__file__).parents[2])}
    data = tmp_path / "data"
    with ScriptedLLMServer() as llm:
        proc = subprocess.run([sys.executable, "-c", SCRIPT, "--base-url", llm.base_url, "--model", "scripted",
                               "--data-dir", str(data)], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert (data / "chats.sqlite3").is_file() and not (data / "chats.sqlite3-wal").exists()  # closed
    assert "the system asked the app to quit" in (data / "logs" / "tinyrag.log").read_text(encoding="utf-8")
