"""Hostile inputs a fuzzer found slow, at growing sizes: each time should grow about as its size does.

Among them, files imported into a knowledge base: a minified line of "Key=value;" pairs looked through for
secrets (80 KB took 17 s, the square of its length) and a C line "a * b * c * …" cut into definitions (twice
as long for each factor more).

The answers at the end are shown in a window-sized chat view, offscreen: a single line with no break, a line
of code, a table row of many columns, "&amp;" written many times in one paragraph. Each is shown whole, as a
chat opened again shows it (its CPU time, and the longest the window could not answer, target <= 100 ms), then
streamed in pieces of 2,000 characters, Qt's events handled after each (the longest step). Last, reasoning on one
line streamed in pieces of 25 characters (200,000 took 136 s, some 40 ms a piece at the end)."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QCoreApplication, QEventLoop
from PySide6.QtWidgets import QApplication, QToolButton
from stalls import Stalls

from tinyrag_desktop.engine.events import Done
from tinyrag_desktop.engine.llm_stream import NativeCalls, message_deltas
from tinyrag_desktop.kb.code_split import split_code
from tinyrag_desktop.kb.data_formats import read_csv
from tinyrag_desktop.kb.readers import file_type, read_bytes
from tinyrag_desktop.kb.secret_values import hide_secrets
from tinyrag_desktop.tools.console_text import terminal_text
from tinyrag_desktop.tools.nanogo.errors import CompileError
from tinyrag_desktop.tools.nanogo.parse import parse
from tinyrag_desktop.tools.readable import to_readable
from tinyrag_desktop.ui.chat_view import ChatView

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def native_call(size: int) -> None:
    """A native call's arguments streamed 8 characters at a time, the 200,000-character limit lifted."""
    calls = NativeCalls(max_chars=size + 100)
    piece = json.dumps({"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": "1+" * 4}}]}}]})
    message_deltas(json.dumps({"choices": [{"delta": {"tool_calls": [
        {"index": 0, "id": "c1", "function": {"name": "calculate", "arguments": ""}}]}}]}), calls=calls)
    for _ in range(size // 8):
        message_deltas(piece, calls=calls)
    calls.as_blocks()


def backticks(size: int) -> None:
    read_bytes(("a " + "`" * size + " *b* [x](y)\n").encode(), file_type(Path("x.md")), "x.md")


def csv_quotes(size: int) -> None:
    read_csv(('name,age,city\n"Smi' + '"' * size + 'th, J",42,x\n').encode(), "q.csv")


def xml_declaration(size: int) -> None:
    to_readable(b'<?xml version="1' + b"\n" * size + b'.0" enc', "text/html", "http://x/", truncated=False,
                max_chars=20_000)


def secret_pairs(size: int) -> None:
    hide_secrets("password=hunter2x9;" + "Ab Cd=e;" * (size // 8) + "\n")


def c_product(size: int) -> None:
    split_code("static const long size =\n    total " + "* factor " * size + ";\n", "c")


def carriage_returns(size: int) -> None:
    terminal_text("a" * 1_000_000 + "\rb" * size)  # a 1 MB line and 100,000 of them took 13 s


def nanogo_operators(size: int) -> None:
    try:
        parse("package main\nfunc main() {\n\tr := f(1" + "&^" * size + "\n}\n")
    except CompileError:
        pass


def _answer(text: str, streamed: bool) -> float:
    """Show ``text`` as an answer (streamed: in pieces of 2,000 characters, each rendered before the next comes,
    as from a fast model); the longest step, in seconds."""

    def feed(answer) -> None:
        for i in range(0, len(text), 2_000 if streamed else len(text)):
            answer.append_text(text[i:i + (2_000 if streamed else len(text))])
            QCoreApplication.processEvents()
            while answer.has_pending():  # (waiting for the next frame without spending time)
                QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)

    return _shown(feed)


def _shown(feed: Callable[..., None]) -> float:
    """The longest step of an answer in a window-sized chat view while ``feed`` gives it what it shows, in seconds."""
    view = ChatView()
    view.resize(1000, 800)
    view.show()
    answer = view.add_answer()
    answer.begin()
    with Stalls() as stalls:
        feed(answer)
        answer.finish(Done(1, 0, 0))
        QCoreApplication.processEvents()
    view.close()
    view.deleteLater()
    return stalls.longest


def long_line(size: int, streamed: bool = False) -> float:
    return _answer("The log line:\n\n" + ("lorem ipsum dolor " * (size // 18 + 1))[:size] + "\n\nAfter it.", streamed)


def wide_row(columns: int, streamed: bool = False) -> float:
    def row(cell: str) -> str:
        return "|" + "|".join(cell.format(i) for i in range(columns)) + "|\n"

    return _answer(f"The table:\n\n{row(' h{} ')}{row('---')}{row(' c{} ')}\nAfter it.", streamed)


def entities(count: int, streamed: bool = False) -> float:
    return _answer("Tom &amp; Jerry " * count + "\n\nAfter it.", streamed)


def code_line(size: int, streamed: bool = False) -> float:
    return _answer("A minified script:\n\n```js\n" + ('var a="x";' * (size // 10 + 1))[:size] + "\n```\n\nAfter it.",
                   streamed)


def reasoning(size: int, opened: bool = False) -> float:
    """The model's reasoning on one line, streamed in pieces of 25 characters, Qt's events handled after each, its
    Thinking section collapsed (or ``opened``); the longest step, in seconds."""

    def feed(answer) -> None:
        for i in range(size // 25):
            answer.append_reasoning("reasoning goes on and on ")
            if opened and i == 0:
                answer.findChild(QToolButton, "thinkingToggle").setChecked(True)
            QCoreApplication.processEvents()

    return _shown(feed)


def streamed(run: Callable[..., float]) -> Callable[[int], float]:
    return lambda size: run(size, streamed=True)


CASES: list[tuple[str, Callable[[int], None], list[int]]] = [
    ("native call arguments (chars)", native_call, [100_000, 1_000_000, 4_000_000]),
    ("Markdown backticks", backticks, [8_000, 80_000, 800_000]),
    ("CSV quotes in a field", csv_quotes, [2_000, 20_000, 200_000]),
    ("open XML declaration (line ends)", xml_declaration, [60_000, 600_000]),
    ("Key=value; pairs on a line (chars)", secret_pairs, [80_000, 160_000, 320_000]),
    ("C line 'a * b * c' (factors)", c_product, [21, 42, 84]),
    ("nanoGo &^ operators", nanogo_operators, [6_000, 12_000, 24_000]),
    ("program output: 1 MB line, carriage returns", carriage_returns, [25_000, 100_000]),
    ("answer: a line with no break (chars)", long_line, [200_000, 2_000_000]),
    ("  the same streamed", streamed(long_line), [200_000, 2_000_000]),
    ("answer: a code line (chars)", code_line, [200_000, 2_000_000]),
    ("  the same streamed", streamed(code_line), [200_000]),
    ("answer: a table row (columns)", wide_row, [500, 5_000]),
    ("  the same streamed", streamed(wide_row), [500, 5_000]),
    ("answer: &amp; in a paragraph", entities, [2_000, 20_000]),
    ("  the same streamed", streamed(entities), [2_000, 20_000]),
    ("reasoning on one line (chars)", reasoning, [20_000, 200_000]),
    ("  the same, opened", lambda size: reasoning(size, opened=True), [20_000, 200_000]),
]


def main() -> None:
    QApplication.instance() or QApplication([])
    first = next((i for i, case in enumerate(CASES) if case[0] == sys.argv[1]), 0) if len(sys.argv) > 1 else 0
    for name, run, sizes in CASES[first:]:  # from the case named first on the command line, if any
        for size in sizes:
            t0 = time.process_time()
            longest = run(size)
            stall = f"  longest step {longest * 1000:6.1f} ms" if longest is not None else ""
            print(f"{name:36} {size:>10,}  {time.process_time() - t0:7.3f} s CPU{stall}", flush=True)


if __name__ == "__main__":
    main()
