"""A path that starts with ``~name`` of a user this computer does not know is said in words: Python's
Path.expanduser raises RuntimeError for it, which ended the command in a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sse_server import free_port

NOBODY = "~nosuchuser-tinyrag"  # no account is called that

pytestmark = pytest.mark.skipif(sys.platform == "win32",
                                reason="Windows makes ~name the folder beside the user's own home folder")


def _run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tinyrag_desktop", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "QT_QPA_PLATFORM": "offscreen",
                                                       "PYTHONIOENCODING": "utf-8", **env})


def _said_in_words(done: subprocess.CompletedProcess[str], code: int) -> None:
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == code, done.stderr
    assert "no user called nosuchuser-tinyrag" in done.stderr, done.stderr


def test_kb_add_of_such_a_path_names_the_user_and_fails(tmp_path):
    done = _run(["kb", "add", f"{NOBODY}/notes.md", "--data-dir", str(tmp_path / "data")], tmp_path)
    _said_in_words(done, 1)
    assert f"failed: {NOBODY}/notes.md:" in done.stderr


@pytest.mark.parametrize("verb", [["kb", "list"], ["kb", "add", "x.md"], ["ask", "Hello?"], ["--ask", "Hello?"]])
def test_such_a_data_folder_is_refused_in_words_and_nothing_is_made(tmp_path, verb):
    server = [] if verb[:1] == ["kb"] else ["--base-url", f"http://127.0.0.1:{free_port()}/v1"]
    done = _run([*verb, "--data-dir", f"{NOBODY}/data", *server], tmp_path)
    _said_in_words(done, 2)
    assert f"{NOBODY}/data as the data folder" in done.stderr
    assert list(tmp_path.iterdir()) == []  # no folder called "~nosuchuser-tinyrag" made where it ran


def test_such_a_data_folder_in_the_environment_is_refused_in_words(tmp_path):
    done = _run(["kb", "list"], tmp_path, TINYRAG_DATA_DIR=f"{NOBODY}/data")
    _said_in_words(done, 2)
    assert "TINYRAG_DATA_DIR" in done.stderr


def test_a_screenshot_there_is_refused_before_the_window_opens(tmp_path):
    done = _run(["--data-dir", str(tmp_path / "data"), "--base-url", f"http://127.0.0.1:{free_port()}/v1",
                 "--ask", "Hello?", "--screenshot", f"{NOBODY}/window.png"], tmp_path)
    _said_in_words(done, 2)
    assert "--screenshot" in done.stderr and "error: The model server" not in done.stderr
