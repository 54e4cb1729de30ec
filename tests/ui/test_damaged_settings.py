"""The window started on a settings file that cannot be read: it keeps the file aside and says so, once."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.sse_server import free_port
from tinyrag_desktop.app import build_parser
from tinyrag_desktop.cliargs import context_from_args
from tinyrag_desktop.ui.main_window import MainWindow
from tinyrag_desktop.ui.single import LOCK_NAME


async def _nothing_found():
    from tinyrag_desktop.firstrun import ProbeResult

    return ProbeResult(found=None, tried=())


def test_the_first_window_after_a_damaged_file_says_where_it_is_kept(qapp, qloop, qtbot, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text('{"theme": "dark",, }')
    subprocess.run([sys.executable, "-m", "tinyrag_desktop", "kb", "list", "--data-dir", str(data)],
                   env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}, capture_output=True, timeout=60)
    assert (data / "settings.json").exists()  # a reading verb left it: the window is first to see it
    ctx = context_from_args(build_parser().parse_args(["--data-dir", str(data)]), keep_aside=True)
    win = MainWindow(data, ctx.settings, warnings=ctx.warnings, first_run=True, probe=_nothing_found)
    try:
        win.show()
        qloop.run(asyncio.sleep(0.05))  # the first run's look for a server has begun
        assert win.notice_bar.isVisible()
        said = win.notice_label.text()
        assert "settings file was damaged" in said and str(data / "settings.json.bad") in said, said
        assert (data / "settings.json.bad").read_text() == '{"theme": "dark",, }'
    finally:
        qloop.run(win.aclose())
        win.close()
        win.deleteLater()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_the_window_started_by_hand_keeps_a_damaged_file_aside(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text("{broken")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    app = subprocess.Popen([sys.executable, "-m", "tinyrag_desktop", "--data-dir", str(data), "--base-url",
                            f"http://127.0.0.1:{free_port()}/v1"], env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (data / LOCK_NAME).exists():
            assert app.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        app.send_signal(signal.SIGTERM)
        assert app.wait(timeout=30) == 0
        _out, err = app.communicate()
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
    assert "Traceback" not in err, err
    assert (data / "settings.json.bad").read_text() == "{broken" and not (data / "settings.json").exists()
