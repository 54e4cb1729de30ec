"""The guard (lifeline.py) a shell command and llama-server start through: the program it becomes is as if
started directly (its output, exit status, signals), and what it cannot run is said."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from tests.orphans import ROOT
from tinyrag_desktop import lifeline

pytestmark = pytest.mark.skipif(os.name != "posix", reason="no guard on Windows")


def _guarded(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(lifeline.guard_command(argv), capture_output=True, text=True, timeout=30,
                          start_new_session=True, **lifeline.child_options(), **kwargs)


def test_the_program_output_and_exit_status_are_its_own():
    done = _guarded(["/bin/sh", "-c", "echo out; echo err >&2; exit 3"])
    assert (done.returncode, done.stdout, done.stderr) == (3, "out\n", "err\n")


def test_a_program_ended_by_a_signal_reads_as_one():
    done = _guarded(["/bin/sh", "-c", "kill -TERM $$"])
    assert done.returncode == -signal.SIGTERM


def test_the_program_gets_sigpipe_back():
    # Python ignores SIGPIPE, and so would the program the guard becomes: `yes` then wrote on, failing with
    # "Broken pipe", instead of ending quietly as it does under a shell.
    done = _guarded(["/bin/sh", "-c", "yes | head -n 1"])
    assert (done.returncode, done.stdout, done.stderr) == (0, "y\n", "")


def test_the_program_does_not_see_the_lifeline():
    done = _guarded(["/bin/sh", "-c", f"echo ${{{lifeline.ENV}:-none}}"])
    assert done.stdout == "none\n"


def test_a_program_that_cannot_run_is_said():
    done = _guarded(["definitely-not-a-program", "--help"])
    assert done.returncode == 127
    assert done.stderr == "Could not run definitely-not-a-program: No such file or directory\n"


def test_the_frozen_flag_runs_the_guard():
    # `python -m tinyrag_desktop` here, the app's executable in a frozen build: the same dispatch
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-m", "tinyrag_desktop", lifeline.GUARD_FLAG, "/bin/sh", "-c", "exit 4"],
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 4, done.stderr


def test_a_child_without_a_lifeline_watches_nothing(monkeypatch):
    monkeypatch.delenv(lifeline.ENV, raising=False)
    assert lifeline.watch() is False


def test_a_variable_naming_no_pipe_is_no_lifeline(monkeypatch, tmp_path):
    # an open file, not the pipe: reading it to its end must not be taken for the app having gone
    with open(tmp_path / "file.txt", "w+") as f:
        monkeypatch.setenv(lifeline.ENV, f"{f.fileno()},0")
        assert lifeline.watch() is False
