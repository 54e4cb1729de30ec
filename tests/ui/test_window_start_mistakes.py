"""Starting the window with a mistake in its flags or its surroundings: words and an exit, never a traceback,
a crash or a process that cannot be stopped."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.sse_server import free_port
from tinyrag_desktop.ui.platform_start import missing_x11_libraries
from tinyrag_desktop.chats import DB_FILE


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONIOENCODING": "utf-8", **extra}


def _app(args: list[str], tmp_path: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tinyrag_desktop", "--data-dir", str(tmp_path / "data"),
                           "--base-url", f"http://127.0.0.1:{free_port()}/v1", *args],
                          env=_env() if env is None else env, capture_output=True, text=True, timeout=120)


def _screenshot_in_a_file(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "afile").write_text("not a folder")
    return str(tmp_path / "afile" / "x.png"), "is a file, not a folder"


def _screenshot_below_a_file(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "afile").write_text("not a folder")
    return str(tmp_path / "afile" / "sub" / "x.png"), "is a file, not a folder"


def _screenshot_where_no_folder_can_be_made(tmp_path: Path) -> tuple[str, str]:
    if not Path("/proc/self").is_dir():
        pytest.skip("needs /proc")
    return "/proc/nope/x.png", "the folder /proc/nope cannot be made"


def _screenshot_is_a_folder(tmp_path: Path) -> tuple[str, str]:
    return str(tmp_path), "is a folder; give a file name"


@pytest.mark.parametrize("where", [_screenshot_in_a_file, _screenshot_below_a_file,
                                   _screenshot_where_no_folder_can_be_made, _screenshot_is_a_folder])
def test_a_screenshot_that_cannot_be_saved_there_is_said_before_the_window_opens(tmp_path, where):
    shot, words = where(tmp_path)
    done = _app(["--ask", "Hello?", "--screenshot", shot], tmp_path)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2, done.stderr
    assert words in done.stderr and "--screenshot" in done.stderr, done.stderr
    assert "error: The model server" not in done.stderr  # refused before the question was sent


@pytest.mark.parametrize("size", ["99999999x99999999", "16385x600", "800x20000"])
def test_a_window_larger_than_any_screen_is_refused_in_words(tmp_path, size):
    done = _app(["--ask", "Hello?", "--size", size, "--screenshot", str(tmp_path / "w.png")], tmp_path)
    assert "Traceback" not in done.stderr and "QPainter" not in done.stderr, done.stderr
    assert done.returncode == 2, done.stderr
    assert f"--size {size} is too large" in done.stderr and "at most 16384 pixels" in done.stderr
    assert not (tmp_path / "w.png").exists()


def test_the_largest_size_allowed_is_kept_and_small_ones_grow_to_the_minimum():
    from tinyrag_desktop.app import _size

    assert _size("16384x16384") == (16384, 16384)
    assert _size("10x10") == (400, 300)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
def test_the_box_saying_the_window_cannot_open_closes_on_kill_and_ctrl_c(tmp_path, sig):
    """The chat history is a folder: the app says so and shows a box; kill or Ctrl+C ends it, as the README
    promises of the window (the box used to ignore both, and offscreen it waited for ever)."""
    data = tmp_path / "data"
    (data / DB_FILE).mkdir(parents=True)
    app = subprocess.Popen([sys.executable, "-m", "tinyrag_desktop", "--data-dir", str(data), "--base-url",
                            f"http://127.0.0.1:{free_port()}/v1"], env=_env(), stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in app.stderr:
            lines.put(line)
        lines.put("")  # the end

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    seen: list[str] = []
    try:
        while True:  # wait for the error line: the box is up (or about to be) from then on
            line = lines.get(timeout=120)
            assert line, "".join(seen)  # ended before saying why
            seen.append(line)
            if line.startswith("error: The chat history"):
                break
        app.send_signal(getattr(signal, sig))
        assert app.wait(timeout=30) == 1, "".join(seen)
        reader.join(timeout=30)
        while not lines.empty():
            seen.append(lines.get())
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
        reader.join(timeout=30)
        app.stderr.close()
    err = "".join(seen)
    assert "is a folder, not a file" in err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only: macOS and Windows have a display")
def test_no_display_is_said_in_words_instead_of_qts_abort(tmp_path):
    env = {k: v for k, v in _env(XDG_RUNTIME_DIR=str(tmp_path)).items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    done = _app([], tmp_path, env=env)
    assert done.returncode == 2, done.stderr
    assert "there is no display here" in done.stderr and "python -m tinyrag_desktop ask" in done.stderr
    assert "Reinstalling" not in done.stderr and "Traceback" not in done.stderr, done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")
def test_a_chosen_qt_platform_is_not_second_guessed(monkeypatch):
    from tinyrag_desktop.app import no_display

    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/nonexistent-tinyrag")
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert not no_display()
    monkeypatch.delenv("QT_QPA_PLATFORM")
    assert no_display()
    monkeypatch.setenv("DISPLAY", ":0")
    assert not no_display()


def _unused_display() -> str:
    """An X display number no server listens on here."""
    for n in range(250, 300):
        if not os.path.exists(f"/tmp/.X11-unix/X{n}") and not os.path.exists(f"/tmp/.X{n}-lock"):
            return f":{n}"
    pytest.skip("every display number tried is in use")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only: X11 displays")
def test_a_display_that_is_gone_is_said_in_words_instead_of_qts_abort(tmp_path):
    display = _unused_display()
    env = {k: v for k, v in _env(XDG_RUNTIME_DIR=str(tmp_path), DISPLAY=display).items()
           if k not in ("WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    done = _app([], tmp_path, env=env)
    assert done.returncode == 2, done.stderr  # Qt's abort was -6 (134 from a shell)
    missing = missing_x11_libraries()
    if missing:  # Qt's X11 plugin cannot load here, so it never tries the display: the libraries are named
        assert f"sudo apt install {' '.join(d for d, _ in missing)};" in done.stderr, done.stderr
    else:
        assert f"the display “{display}” (the DISPLAY setting) cannot be reached" in done.stderr, done.stderr
    assert "python -m tinyrag_desktop ask" in done.stderr
    assert "Reinstalling" not in done.stderr and "Traceback" not in done.stderr, done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")
def test_a_qt_platform_that_cannot_start_is_said_in_words(tmp_path):
    done = _app([], tmp_path, env=_env(QT_QPA_PLATFORM="nosuchplatform"))
    assert done.returncode == 2, done.stderr
    assert "Qt could not start drawing on the display system “nosuchplatform” (set in QT_QPA_PLATFORM)" in done.stderr
    assert "Reinstalling" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    # Qt's own words are kept in the log file, which the message names, for whoever looks into it
    log_file = tmp_path / "data" / "logs" / "tinyrag.log"
    assert f"Its own words are in the log file {log_file}." in done.stderr
    assert "no Qt platform plugin could be initialized" in log_file.read_text()


def test_a_missing_xcb_cursor_library_is_named_with_how_to_install_it():
    from tinyrag_desktop.ui.platform_start import platform_words

    qt_said = ["qt.qpa.plugin: From 6.5.0, xcb-cursor0 or libxcb-cursor0 is needed to load the Qt xcb platform "
               "plugin.", "qt.qpa.plugin: Could not load the Qt platform plugin \"xcb\" in \"\" even though it was "
               "found.", "default: This application failed to start because no Qt platform plugin could be "
               "initialized. Reinstalling the application may fix this problem."]
    words = platform_words(qt_said, display=":0", missing=[("libxcb-cursor0", "xcb-util-cursor")])
    assert "the system library libxcb-cursor0, which Qt needs to draw windows on X11, is not installed" in words
    assert "sudo apt install libxcb-cursor0;" in words and "sudo dnf install xcb-util-cursor)" in words
    # Qt gives that hint after any failure of its X11 plugin: with the library there, it is not the reason
    assert "libxcb-cursor0" not in platform_words(qt_said, display=":0", missing=[])
    # a minimal system lacking others: Qt still says xcb-cursor, the words name what is missing
    words = platform_words(qt_said, display=":0", missing=[("libxcb-icccm4", "xcb-util-wm"),
                                                           ("libxcb-keysyms1", "xcb-util-keysyms")])
    assert "system libraries libxcb-icccm4, libxcb-keysyms1, which Qt needs" in words and "are not installed" in words
    assert "sudo apt install libxcb-icccm4 libxcb-keysyms1;" in words and "libxcb-cursor0" not in words


def test_the_libraries_qt_needs_are_looked_for_by_name(monkeypatch):
    import ctypes.util

    from tinyrag_desktop.ui import platform_start

    monkeypatch.setattr(ctypes.util, "find_library", lambda name: None if name in ("xcb-icccm", "X11-xcb") else name)
    assert platform_start.missing_x11_libraries() == [("libxcb-icccm4", "xcb-util-wm"), ("libx11-xcb1", "libX11-xcb")]
