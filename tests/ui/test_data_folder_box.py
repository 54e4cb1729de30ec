"""A data folder the window cannot use is said in a box as well as on the console: started from a desktop icon,
nothing appeared. A command line verb, a scripted --ask run and a start without a display say it on the
console only; all exit with status 2."""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from tests.permissions import as_a_user
from tinyrag_desktop import app as app_module


def _boxes_closed(said: list[str]) -> QTimer:
    """A timer that closes each message box shown, keeping its words in ``said``."""
    def look() -> None:
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, QMessageBox) and widget.isVisible():
                said.append(widget.text())
                widget.reject()

    timer = QTimer()
    timer.timeout.connect(look)
    timer.start(20)
    return timer


def test_a_file_as_the_data_folder_is_said_in_a_box_too(qapp, tmp_path, capsys):
    afile = tmp_path / "afile"
    afile.write_text("not a folder")
    said: list[str] = []
    timer = _boxes_closed(said)
    try:
        assert app_module.main(["--data-dir", str(afile)]) == 2
    finally:
        timer.stop()
    err = capsys.readouterr().err
    assert f"--data-dir: cannot use {afile} as the data folder: it is a file, not a folder" in err
    assert said == [f"tinyRAG Desktop cannot open its window. Cannot use {afile} as the data folder: it is a file, "
                    "not a folder."]


@pytest.mark.parametrize("how", ["--ask", "no display"])
def test_a_scripted_run_or_no_display_says_it_on_the_console_only(qapp, tmp_path, capsys, monkeypatch, how):
    afile = tmp_path / "afile"
    afile.write_text("not a folder")
    if how == "no display":
        monkeypatch.setattr(app_module, "no_display", lambda: True)
    said: list[str] = []
    timer = _boxes_closed(said)
    try:
        assert app_module.main(["--data-dir", str(afile), *(["--ask", "hi"] if how == "--ask" else [])]) == 2
    finally:
        timer.stop()
    assert said == []
    assert "it is a file, not a folder" in capsys.readouterr().err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and permissions")
def test_a_read_only_home_is_said_and_the_box_closes_on_kill(tmp_path):
    home = Path(tempfile.mkdtemp(prefix="tinyrag-rohome-"))  # outside pytest's root-only folder
    try:
        home.chmod(0o555)
        env = {k: v for k, v in os.environ.items() if k not in ("XDG_DATA_HOME", "TINYRAG_DATA_DIR")}
        env.update(QT_QPA_PLATFORM="offscreen", PYTHONIOENCODING="utf-8", HOME=str(home),
                   PYTHONPATH=os.pathsep.join([str(Path(__file__).parents[2]), os.environ.get("PYTHONPATH", "")]))
        proc = subprocess.Popen(as_a_user([sys.executable, "-m", "tinyrag_desktop"]), env=env, cwd="/",
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        lines: queue.Queue[str] = queue.Queue()

        def read() -> None:
            for line in proc.stderr:
                lines.put(line)
            lines.put("")

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        seen: list[str] = []
        try:
            while True:  # the line is printed once the box can be closed by a signal
                line = lines.get(timeout=60)
                assert line, "".join(seen)  # ended before saying why
                seen.append(line)
                if "cannot create the data folder" in line:
                    break
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=30) == 2, "".join(seen)
            reader.join(timeout=30)
            while not lines.empty():
                seen.append(lines.get())
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            reader.join(timeout=30)
            proc.stderr.close()
        err = "".join(seen)
        assert "Permission denied" in err and "Traceback" not in err, err
    finally:
        home.chmod(0o755)
        shutil.rmtree(home, ignore_errors=True)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only: X11")
def test_a_display_that_cannot_be_reached_leaves_the_console_both_reasons(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("not a folder")
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
    env.update(DISPLAY=":987", XDG_RUNTIME_DIR=str(tmp_path), PYTHONIOENCODING="utf-8")
    done = subprocess.run([sys.executable, "-m", "tinyrag_desktop", "--data-dir", str(afile)], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "it is a file, not a folder" in done.stderr and "cannot be reached" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
