""""Stopped." after Ctrl+C: a line break before it only where the cursor stands mid-line on the terminal
(or log) stderr writes to, never a blank line on a stderr of its own."""

from __future__ import annotations

import os
import sys

import pytest

from tinyrag_desktop.cli import _GuardedOutput
from tinyrag_desktop.cliterm import stopped_line

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals")


@pytest.fixture
def terminal():
    """Both ends of a pseudo-terminal that does not echo control keys (no "^C" where the cursor is)."""
    import pty
    import termios

    master, slave = pty.openpty()
    attrs = termios.tcgetattr(slave)
    attrs[3] &= ~termios.ECHOCTL
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    with open(slave, "w", encoding="utf-8") as screen:
        yield master, screen
    os.close(master)


def test_a_line_break_only_after_output_that_stopped_mid_line_on_the_same_terminal(terminal):
    _, screen = terminal
    out = _GuardedOutput(open(os.dup(screen.fileno()), "w", encoding="utf-8"))
    try:
        assert stopped_line(out, screen) == "Stopped."  # nothing written yet
        out.write("The answer is")
        assert stopped_line(out, screen) == "\nStopped."
        out.buffer.write(b" 42.\n")  # nanogo writes the program's bytes
        assert stopped_line(out, screen) == "Stopped."
        out.write("x")
        out.write("")
        assert stopped_line(out, screen) == "\nStopped."
    finally:
        out.close()


def test_no_line_break_when_the_output_goes_elsewhere(terminal, tmp_path):
    _, screen = terminal
    with open(tmp_path / "answer.txt", "w", encoding="utf-8") as file:
        out = _GuardedOutput(file)
        out.write("The answer is")
        assert stopped_line(out, screen) == "Stopped."


def test_a_line_break_after_the_terminal_echoed_ctrl_c(terminal):
    import termios

    _, screen = terminal
    attrs = termios.tcgetattr(screen.fileno())
    attrs[3] |= termios.ECHO | termios.ECHOCTL
    termios.tcsetattr(screen.fileno(), termios.TCSANOW, attrs)
    assert stopped_line(None, screen) == "\nStopped."

