"""`ask` while the model has not begun: after a few seconds of nothing, a terminal is told it is being waited
for, on a line of its own that the answer's words then never share."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sse_server import Hang, ScriptedLLMServer
from tests.terminal import read_to_end
from tinyrag_desktop.cliprint import WAIT_NOTE_AFTER, TextPrinter
from tinyrag_desktop.engine.events import Done, EngineError, Reasoning, Text, ToolFinished, ToolStarted

REPO = Path(__file__).resolve().parents[1]
NOTE = "waiting for the model to start answering… (Ctrl+C to stop)"


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _terminal_printer(screen: io.StringIO, clock: _Clock) -> TextPrinter:
    printer = TextPrinter(screen, screen, clock=clock)
    printer.shared = printer.say_waiting = True  # as a terminal: both streams on one screen
    return printer


def test_the_note_comes_once_after_the_wait_and_the_answer_starts_on_the_next_line() -> None:
    screen, clock = io.StringIO(), _Clock()
    printer = _terminal_printer(screen, clock)
    clock.now += WAIT_NOTE_AFTER - 1
    assert printer.tick() == pytest.approx(1) and screen.getvalue() == ""  # not yet
    clock.now += 1
    printer.tick()
    clock.now += 60
    printer.tick()  # said once, however long the wait
    for event in (Text("\n Hello"), Text(" there."), Done(1, 0, 0)):
        printer.show(event)
    assert screen.getvalue() == f"{NOTE}\nHello there.\n"


def test_after_the_first_words_a_pause_says_nothing() -> None:
    screen, clock = io.StringIO(), _Clock()
    printer = _terminal_printer(screen, clock)
    printer.show(Text("Hello"))
    clock.now += 10 * WAIT_NOTE_AFTER
    printer.tick()
    printer.show(Text(" there."))
    assert screen.getvalue() == "Hello there."


def test_after_the_results_of_its_calls_the_model_is_waited_for_again() -> None:
    screen, clock = io.StringIO(), _Clock()
    printer = _terminal_printer(screen, clock)
    printer.show(Text("Sum:"))
    printer.show(ToolStarted("c1", "calculate", "1+1"))
    clock.now += 10 * WAIT_NOTE_AFTER  # the call runs long: its own line says so
    printer.tick()
    printer.show(ToolFinished("c1", "calculate", "1+1", "calculator", None, 9, "ok", 0, "1+1 = 2"))
    clock.now += WAIT_NOTE_AFTER
    printer.tick()
    printer.show(Text(" it is 2."))
    lines = screen.getvalue().split("\n")
    assert lines == ["Sum:", "⟳ calculate: 1+1", "✓ calculate “1+1” = 2",
                     "waiting for the model to go on… (Ctrl+C to stop)", "it is 2."]


def test_a_model_that_reasons_unseen_is_said_to_be_thinking() -> None:
    screen, clock = io.StringIO(), _Clock()
    printer = _terminal_printer(screen, clock)
    printer.show(Reasoning("hmm"))
    clock.now += WAIT_NOTE_AFTER
    printer.tick()
    printer.show(EngineError("The model did not answer.", "timeout"))
    assert screen.getvalue().split("\n")[0] == "the model is thinking before it answers… (Ctrl+C to stop)"


def test_off_a_terminal_nothing_is_said() -> None:
    # a log or a script gets no line telling it which keys to press
    out, err, clock = io.StringIO(), io.StringIO(), _Clock()
    printer = TextPrinter(out, err, clock=clock)
    clock.now += 10 * WAIT_NOTE_AFTER
    printer.tick()
    assert out.getvalue() == err.getvalue() == ""


@pytest.mark.skipif(sys.platform == "win32", reason="no pseudo-terminals")
def test_ask_on_a_terminal_says_it_waits_for_a_server_that_does_not_answer(tmp_path: Path) -> None:
    # A server that took the request and sent nothing: the terminal stayed blank for the 2 minutes
    # before the first-token timeout.
    import pty

    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(REPO)}
    master, slave = pty.openpty()
    with ScriptedLLMServer() as llm:
        llm.queue(Hang(WAIT_NOTE_AFTER + 6))
        args = [sys.executable, "-m", "tinyrag_desktop", "ask", "hi", "--base-url", llm.base_url, "--model",
                "scripted", "--data-dir", str(tmp_path), "--first-token-timeout", str(WAIT_NOTE_AFTER + 2)]
        try:
            proc = subprocess.run(args, env=env, cwd=REPO, timeout=120, stdout=slave, stderr=slave)
        finally:
            os.close(slave)
        lines = read_to_end(master).decode().replace("\r\n", "\n").split("\n")
    assert proc.returncode == 1
    assert lines[0] == NOTE and lines[1].startswith("error: "), lines

