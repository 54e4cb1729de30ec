"""The display going away under the running window (the X server ends): one line in words and an exit, not
Qt's warning once per event and a traceback from the event loop. Run on a real Xvfb, killed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.sse_server import ScriptedLLMServer, Stream
from tinyrag_desktop.ui.platform_start import DISPLAY_LOST, missing_x11_libraries

# Xvfb without the X11 libraries Qt's xcb plugin loads (a machine that never showed a window): the app only says
# which to install (tests/ui/test_window_start_mistakes.py), it never gets as far as a window to lose
pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11"),
              pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb"),
              pytest.mark.skipif(bool(missing_x11_libraries()), reason="needs the X11 libraries Qt draws with")]


def _xvfb() -> tuple[subprocess.Popen, str]:
    """A new Xvfb on a free display, and that display's name once it takes connections."""
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-nolisten", "tcp"], pass_fds=(write,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as said:
        number = said.readline().strip()
    if not number:
        server.kill()
        server.wait()
        pytest.skip("Xvfb did not start")
    return server, f":{number}"


def _wait(check, proc: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + 60
    while not check():
        assert proc.poll() is None, f"the app ended before {what}: {proc.communicate()[1]}"
        assert time.monotonic() < deadline, f"no {what}"
        time.sleep(0.05)


@pytest.mark.parametrize("when", ["idle", "answering"])
def test_the_x_server_ending_is_said_in_one_line_and_the_app_ends(tmp_path: Path, when: str) -> None:
    data = tmp_path / "data"
    xvfb, display = _xvfb()
    with ScriptedLLMServer() as srv:
        # 20 s: still being written, a word every 2 ms, so that the window is busy showing them when the X
        # server ends. Killed so, the window's unfinished answer printed tracebacks as Python ended, now and
        # then ("Signal source has been deleted": 6 runs in 73 on a quiet machine, none with a word every 50 ms)
        srv.queue(Stream([f"word{i} " for i in range(10000)], delay=0.002))
        # the window's first look at the server: it runs once the window is up and its event loop runs
        srv.pages["/v1/models"] = {"object": "list", "data": [{"id": "scripted", "object": "model"}]}
        env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
        env.update(DISPLAY=display, PYTHONIOENCODING="utf-8", XDG_RUNTIME_DIR=str(tmp_path))
        extra = ["--ask", "Hello?"] if when == "answering" else []
        app = subprocess.Popen([sys.executable, "-m", "tinyrag_desktop", "--data-dir", str(data), "--base-url",
                                srv.base_url, *extra], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
        try:
            _wait(lambda: "/v1/models" in srv.asked, app, "window")
            if when == "answering":
                _wait(lambda: bool(srv.requests), app, "question")
            xvfb.kill()
            xvfb.wait()
            code = app.wait(timeout=60)
            err = app.stderr.read()
        finally:
            for proc in (app, xvfb):
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
            app.stderr.close()
    assert "Traceback" not in err and "Event loop stopped" not in err and "Exception ignored" not in err, err
    assert "X11 connection broke" not in err, err
    assert err.count(DISPLAY_LOST) == 1, err
    assert code == 1, err
    assert "the display went away" in (data / "logs" / "tinyrag.log").read_text(encoding="utf-8")
