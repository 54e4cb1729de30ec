"""`nanogo FILE` stopped with Ctrl+C prints what the program printed until then, then "Stopped."."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOOP = 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("start")\n\tfor {\n\t}\n}\n'


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_ctrl_c_prints_the_output_so_far_then_stopped(tmp_path):
    program = tmp_path / "loop.go"
    program.write_text(LOOP)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TINYRAG_DATA_DIR": str(tmp_path / "data")}
    proc = subprocess.Popen([sys.executable, "-m", "tinyrag_desktop", "nanogo", str(program)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        # another process: the worker's first line reaches its pipe within a few hundredths of a second of
        # starting; nothing can be waited on from here, so the start-up gets its time
        time.sleep(3)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert (out, proc.returncode) == ("start\n", 130)
    assert "Stopped." in err and "Traceback" not in err



LOOPS = "for {\n}\n"  # prints nothing: nothing the command writes before "Stopped." depends on timing


def _env(tmp_path) -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT), "TINYRAG_DATA_DIR": str(tmp_path / "data")}


def _wait_for_the_worker(pid: int) -> None:
    """Until the command has started the sandbox's worker: it is then waiting for the program to end, and a
    Ctrl+C stops the run (the program's output is printed only at its end: none to wait for)."""
    from tests.orphans import wait_until

    children = Path(f"/proc/{pid}/task/{pid}/children")
    wait_until(lambda: children.read_text().strip(), what="the sandbox's worker")


needs_proc = pytest.mark.skipif(not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists(),
                                reason="finds the worker in /proc (Linux)")


@needs_proc
def test_ctrl_c_on_pipes_says_stopped_with_no_blank_line(tmp_path):
    program = tmp_path / "loop.go"
    program.write_text(LOOPS)
    proc = subprocess.Popen([sys.executable, "-m", "tinyrag_desktop", "nanogo", str(program)], env=_env(tmp_path),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        _wait_for_the_worker(proc.pid)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    # it was "\nStopped.\n": a blank line on a stderr where nothing else was written
    assert (out, err, proc.returncode) == ("", "Stopped.\n", 130)


def _stopped_on_a_terminal(tmp_path, typed: bool) -> bytes:
    """What a pseudo-terminal shows of `nanogo` stopped: by a Ctrl+C typed on it (which the terminal echoes
    as "^C"), or by a SIGINT from elsewhere with no echo of control keys."""
    import fcntl
    import pty
    import termios

    from tests.terminal import read_to_end

    program = tmp_path / "loop.go"
    program.write_text(LOOPS)
    master, slave = pty.openpty()
    attrs = termios.tcgetattr(slave)
    attrs[3] = attrs[3] | termios.ECHO | termios.ECHOCTL if typed else attrs[3] & ~termios.ECHOCTL
    termios.tcsetattr(slave, termios.TCSANOW, attrs)

    def start() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)  # its controlling terminal, whose Ctrl+C it gets

    proc = subprocess.Popen([sys.executable, "-m", "tinyrag_desktop", "nanogo", str(program)], env=_env(tmp_path),
                            stdin=slave, stdout=slave, stderr=slave, start_new_session=True, preexec_fn=start)
    os.close(slave)
    try:
        _wait_for_the_worker(proc.pid)
        if typed:
            os.write(master, b"\x03")
        else:
            proc.send_signal(signal.SIGINT)
        shown = read_to_end(master)
        assert proc.wait(timeout=20) == 130
    finally:
        proc.kill()
    return shown.replace(b"\r\n", b"\n")


@needs_proc
def test_ctrl_c_on_a_terminal_breaks_the_line_only_where_the_cursor_is_mid_line(tmp_path):
    # nothing written and nothing echoed: no blank line (there was one)
    assert _stopped_on_a_terminal(tmp_path, typed=False) == b"Stopped.\n"
    # a Ctrl+C typed on the terminal, which shows "^C" where the cursor was: not "^CStopped."
    assert _stopped_on_a_terminal(tmp_path, typed=True) == b"^C\nStopped.\n"
