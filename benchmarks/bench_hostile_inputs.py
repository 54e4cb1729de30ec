"""Hostile inputs a fuzzer found slow, at growing sizes: each time should grow about as its size does."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Callable

from tinyrag_desktop.engine.llm_stream import NativeCalls, message_deltas
from tinyrag_desktop.kb.data_formats import read_csv
from tinyrag_desktop.kb.readers import file_type, read_bytes
from tinyrag_desktop.tools.nanogo.errors import CompileError
from tinyrag_desktop.tools.nanogo.parse import parse
from tinyrag_desktop.tools.readable import to_readable


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


def nanogo_operators(size: int) -> None:
    try:
        parse("package main\nfunc main() {\n\tr := f(1" + "&^" * size + "\n}\n")
    except CompileError:
        pass


CASES: list[tuple[str, Callable[[int], None], list[int]]] = [
    ("native call arguments (chars)", native_call, [100_000, 1_000_000, 4_000_000]),
    ("Markdown backticks", backticks, [8_000, 80_000, 800_000]),
    ("CSV quotes in a field", csv_quotes, [2_000, 20_000, 200_000]),
    ("open XML declaration (line ends)", xml_declaration, [60_000, 600_000]),
    ("nanoGo &^ operators", nanogo_operators, [6_000, 12_000, 24_000]),
]


def main() -> None:
    for name, run, sizes in CASES:
        for size in sizes:
            t0 = time.process_time()
            run(size)
            print(f"{name:36} {size:>10,}  {time.process_time() - t0:7.3f} s CPU", flush=True)


if __name__ == "__main__":
    main()
