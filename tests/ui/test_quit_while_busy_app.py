"""The real app, quit while an answer streams slowly or an import runs: asked once however often Quit comes, and
after Quit it ends at once and cleanly (exit 0, nothing on the console: no traceback, no "QThread: Destroyed
while thread is still running"), the answer so far stored as stopped, each source stored whole or not at all.
Ctrl+Q and the system's Quit (the Dock's, logging out) ask alike; before, both closed at once."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sse_server import ScriptedLLMServer, Stream

SCRIPT = """
import asyncio, os, sys, time
from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from tinyrag_desktop import app
from tinyrag_desktop.ui.main_window import MainWindow

case, how = os.environ["QUIT_CASE"], os.environ["QUIT_HOW"]
shown = MainWindow.show
ended = []

def quit_once(win):
    if how == "ctrl_q":
        QTest.keyClick(QApplication.focusWidget() or win, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    else:  # the system's Quit
        QCoreApplication.postEvent(QCoreApplication.instance(), QEvent(QEvent.Type.Quit))

async def until(test, seconds=20.0):
    end = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.01)

async def scenario(win):
    if case == "import":
        win.kb_dock.show()
        panel = win.kb_dock.widget()
        panel.import_items([os.environ["QUIT_FOLDER"]])
        await until(lambda: panel.import_progress() is not None and panel.import_progress().done >= 3)
    else:
        win.ask("Tell me a long story")
        await until(lambda: win.view.answers() and "word3" in win.view.answers()[-1].copy_markdown())
    win.activateWindow()
    win.composer.setFocus()
    quit_once(win)
    await until(lambda: win.busy_at_close.box is not None and win.busy_at_close.box.isVisible())
    quit_once(win)  # again, while it is asked
    win.close()  # and the close button
    await asyncio.sleep(0.3)
    boxes = [b for b in win.findChildren(type(win.busy_at_close.box), "quitWhileBusy") if b.isVisible()]
    print("asked:", len(boxes), win.busy_at_close.box.text(), flush=True)
    ended.append(time.monotonic())
    win.busy_at_close.close_button.click()

def show(self):
    shown(self)
    asyncio.ensure_future(scenario(self))

MainWindow.show = show
code = app.main(sys.argv[1:])
print(f"ended after Quit in {time.monotonic() - ended[0]:.2f} s", flush=True)
sys.exit(code)
"""

WORDS = [f"word{n} " for n in range(600)]


def _run(data: Path, llm: ScriptedLLMServer, case: str, how: str, **env: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(Path(__file__).parents[2]),
           "QUIT_CASE": case, "QUIT_HOW": how, **env}
    return subprocess.run([sys.executable, "-c", SCRIPT, "--base-url", llm.base_url, "--model", "scripted",
                           "--data-dir", str(data)], capture_output=True, text=True, env=env, timeout=90)


def _said_cleanly(proc: subprocess.CompletedProcess, question: str) -> None:
    assert proc.returncode == 0, proc.stderr
    assert f"asked: 1 {question}" in proc.stdout, proc.stdout + proc.stderr
    for bad in ("Traceback", "QThread", "Destroyed while", "Error", "Warning: "):
        assert bad not in proc.stderr, proc.stderr
    seconds = float(proc.stdout.split("ended after Quit in ")[1].split()[0])
    assert seconds < 5.0, proc.stdout


@pytest.mark.parametrize("how", ["ctrl_q", "system_quit"])
def test_quit_while_an_answer_streams_asks_once_then_keeps_it_stopped_and_ends_cleanly(tmp_path, how):
    data = tmp_path / "data"
    with ScriptedLLMServer() as llm:
        llm.queue(Stream(WORDS, delay=0.05))  # about 30 s of answer
        proc = _run(data, llm, "answer", how)
    _said_cleanly(proc, "An answer is still being written. Quit anyway?")
    with sqlite3.connect(data / "chats.sqlite3") as db:
        content, status = db.execute("SELECT content, status FROM messages WHERE role = 'assistant'").fetchone()
    assert status == "stopped" and content.startswith("word0 word1 word2 word3") and "word599" not in content


def test_quit_during_an_import_asks_once_then_keeps_each_source_whole_and_ends_cleanly(tmp_path):
    data, folder = tmp_path / "data", tmp_path / "docs"
    folder.mkdir()
    for n in range(300):  # each source the same size: every one stored has as many passages as the others
        (folder / f"doc{n:03d}.md").write_text("".join(f"Line {line:04d} of note {n:03d} about herons.\n"
                                                       for line in range(3000)), encoding="utf-8")
    with ScriptedLLMServer() as llm:
        proc = _run(data, llm, "import", "ctrl_q", QUIT_FOLDER=str(folder))
    _said_cleanly(proc, "The knowledge base import is still running (")
    with sqlite3.connect(data / "knowledge.db") as db:
        sources = db.execute("SELECT COUNT(*) FROM sources").fetchone()[0]
        passages = {count for (count,) in db.execute("SELECT COUNT(*) FROM chunks GROUP BY source_id")}
    assert 3 <= sources < 300 and len(passages) == 1, (sources, passages)
    assert list(data.glob("import-*.unfinished"))  # the next start says how far it got
