"""`ask` never writes a terminal's escape codes nor bidi controls it was given: a tool's name, the server's
error, a source's file name. They set the terminal's title, cleared it, or showed a name reversed."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from tests.sse_server import ScriptedLLMServer, Status
from tinyrag_desktop.cliprint import TextPrinter
from tinyrag_desktop.engine.events import Done, EngineError, Text, ToolFinished

TITLE = "\x1b]0;PWNED\x07"  # sets the terminal's title
CLEAR = "\x1b[2J\x9b2J"  # clears it (ESC [ and the one-byte CSI)
RLO = "\u202e"  # shows what follows right to left: "exe.md" reads "dm.exe"
RAW = ("\x1b", "\x07", "\x9b", RLO, "\u2066")
REPO = Path(__file__).resolve().parents[1]


def _printed(*events) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    printer = TextPrinter(out, err)
    printer.tty = True  # as on a terminal
    for event in events:
        printer.show(event)
    return out.getvalue(), err.getvalue()


def _raw(text: str) -> list[str]:
    return [ch for ch in RAW if ch in text]


def test_an_unknown_tools_name_is_escaped_on_its_line() -> None:
    name = f"{TITLE}nope{CLEAR}"
    _, err = _printed(ToolFinished("c1", name, "x", "", f"Unknown tool {name}.", 0, "error", 0))
    assert err.startswith("✗ \\x1b]0;PWNED\\x07nope\\x1b[2J\\x9b2J “x” error:"), err
    assert _raw(err) == []
    _, err = _printed(ToolFinished("c2", name + RLO, "1+1", "", None, 9, "ok", 0, "1+1 = 2"))
    assert err.startswith("✓ \\x1b]0;PWNED\\x07nope\\x1b[2J\\x9b2J\\u202e “1+1”"), err
    assert _raw(err) == []


def test_the_servers_error_is_escaped_and_keeps_its_line_breaks() -> None:
    _, err = _printed(EngineError(f"The server said: {TITLE}bad{CLEAR}\nsee {RLO}the log"))
    assert err == "error: The server said: \\x1b]0;PWNED\\x07bad\\x1b[2J\\x9b2J\nsee \\u202ethe log\n"


def test_source_names_are_escaped_on_the_sources_lines() -> None:
    names = (f"/notes/esc{TITLE}{CLEAR}t.md", f"/notes/rlo{RLO}dm.exe.md")
    _, err = _printed(Text("The answer."), Done(1, 0, 0, sources=names))
    assert err == ("Sources:\n  /notes/esc\\x1b]0;PWNED\\x07\\x1b[2J\\x9b2Jt.md\n"
                   "  /notes/rlo\\u202edm.exe.md\n"), err


def test_bidi_controls_in_the_answer_are_escaped_on_a_terminal() -> None:
    out, _ = _printed(Text(f"Run it: \u2066x{RLO}y\u2069 now"), Done(1, 0, 0))
    assert out == "Run it: \\u2066x\\u202ey\\u2069 now\n"
    assert "\u05e9\u05dc\u05d5\u05dd" in _printed(Text("\u05e9\u05dc\u05d5\u05dd"))[0]  # Hebrew itself stays


def test_ask_writes_no_escape_of_the_servers_error_body(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Status(500, f"overloaded {TITLE}{CLEAR}{RLO}now"))
        proc = subprocess.run(
            [sys.executable, "-m", "tinyrag_desktop", "ask", "hi", "--base-url", llm.base_url, "--model", "scripted",
             "--data-dir", str(tmp_path)],
            env={**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(REPO)}, cwd=REPO, timeout=120,
            capture_output=True)
    err = proc.stderr.decode()
    assert "overloaded \\x1b]0;PWNED\\x07\\x1b[2J\\x9b2J\\u202enow" in err, err
    assert _raw(err) == []


def test_sources_the_answer_does_not_cite_are_numbered_from_one_as_in_the_window() -> None:
    # "Sources:\n  [2] b.md\n  [3] c.md": the answer used the prompt's second and third files and cited neither.
    from tinyrag_desktop.engine.events import Route

    route = Route("rag", "kb", (), ("/n/a.md", "/n/b.md", "/n/c.md"))
    _, err = _printed(route, Text("The settings say so."), Done(1, 0, 0, sources=("/n/b.md", "/n/c.md")))
    assert err.endswith("Sources:\n  [1] /n/b.md\n  [2] /n/c.md\n"), err
    _, err = _printed(route, Text("The settings say so [3]."), Done(1, 0, 0, sources=("/n/b.md", "/n/c.md")))
    assert err.endswith("Sources:\n  [2] /n/b.md\n  [3] /n/c.md\n"), err  # cited: the answer's own numbers
    # a stray "[1]" (no listed source has it) is not given to the first of them
    _, err = _printed(route, Text("As said before [1], so."), Done(1, 0, 0, sources=("/n/b.md", "/n/c.md")))
    assert err.endswith("Sources:\n  [2] /n/b.md\n  [3] /n/c.md\n"), err
