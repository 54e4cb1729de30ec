"""Starting the window with a mistake in its flags or its surroundings: words and an exit, never a traceback,
a crash or a process that cannot be stopped."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sse_server import free_port


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
