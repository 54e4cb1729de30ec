"""Opening chats whose stored answers are very long: the window's longest pause while each opens.

Run offscreen: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_open.py`` (``make bench``).
Chats are written through ChatStore into a temporary data folder; the window opens each from a small chat, as a
click in the chats list does, and the script prints how long until the chat is whole (the window's ``loading``
over) and the GUI thread's longest stall meanwhile: a timer ticks every 2 ms and the largest gap between its
ticks is the longest the window could not answer a click or a key (target <= 100 ms). The chats:

* one answer, a Markdown list of 10,000 items (369 KB), and one of 32,000 items (1.2 MB, a stopped answer);
* one answer, a table of 10,000 rows, and one, a code block of 10,000 lines;
* one answer, a table of 130 columns and 250 rows (318 KB): its first rows show, and then all of them, as its
  "Show all 250 rows" shows them (its figure printed below the chat's);
* one answer, as a soak test wrote it: a paragraph of 70 KB on one line, that table, and a code block of a
  30,000-character line and 3,000 more lines (its block was rendered in one piece, a 0.3 s pause);
* 40 questions, each answered by a 400-item list (16 KB): the last 20 exchanges open, then the 20 above them
  are built as the conversation is scrolled to its top ("Show earlier messages").

``--quick`` leaves out the 1.2 MB list; ``--only WORDS`` opens only the chats whose names hold WORDS.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from PySide6.QtWidgets import QApplication  # noqa: E402

from stalls import Stalls  # noqa: E402
from tinyrag_desktop.chats import ChatStore  # noqa: E402
from tinyrag_desktop.settings import defaults  # noqa: E402
from tinyrag_desktop.ui.main_window import MainWindow  # noqa: E402
from tinyrag_desktop.ui.qtloop import TidyEventLoop  # noqa: E402

STATS = {"rounds": 1, "tools_run": 0, "elapsed_ms": 12_000}


def items(n: int, tag: str = "") -> str:
    return "".join(f"- item {tag}{i} with **bold** and `code`\n" for i in range(n))


def table(rows: int) -> str:
    return "Rows:\n\n| id | name | city |\n|---|---|---|\n" + "".join(
        f"| {i} | name {i} | city {i % 37} |\n" for i in range(rows)) + "\nThat is all.\n"


def wide_table(columns: int, rows: int) -> str:
    return ("A wide table:\n\n| " + " | ".join(f"column {c}" for c in range(columns)) + " |\n" + "|---" * columns
            + "|\n" + "".join("| " + " | ".join(f"r{r}c{c}" for c in range(columns)) + " |\n" for r in range(rows))
            + "\nDone.\n")


def code(lines: int) -> str:
    return "Here:\n\n```python\n" + "".join(f"value_{i} = compute({i}, {i * 7 % 100})\n" for i in range(lines)) \
        + "```\n"


def blob_code() -> str:
    """A code block of a 30,000-character line and 3,000 more lines (bench_render gives it before a render)."""
    return "```python\nblob = '" + "a" * 30_000 + "'\n" + "".join(
        f"value_{i} = compute({i}, {i * 7 % 100})\n" for i in range(3_000)) + "```\n"


def soak() -> str:
    paragraph = " ".join(f"word{i} and more words" for i in range(3_000))[:70_000]
    return paragraph + "\n\n" + wide_table(130, 250) + "\nAnd the code:\n\n" + blob_code()


def _closed_port() -> int:
    with socket.socket() as s:  # nothing listens once it is closed: the server check fails at once
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fill(data: Path, quick: bool) -> dict[str, str]:
    store = ChatStore(data)
    ids = {}

    def chat(name: str, answers: list[str], **extra) -> None:
        c = store.new_chat(name)
        for n, text in enumerate(answers):
            store.add_user_message(c.id, f"Question {n}")
            store.add_assistant_message(c.id, text, transcript=text, stats={**STATS, **extra})
        ids[name] = c.id

    chat("small", ["Hello."])
    chat("a list of 10,000 items", [items(10_000)])
    if not quick:
        chat("a list of 32,000 items (stopped)", [items(32_000)], outcome="stopped")
    chat("a table of 10,000 rows", [table(10_000)])
    chat("a code block of 10,000 lines", [code(10_000)])
    chat("a table of 130 columns and 250 rows", [wide_table(130, 250)])
    chat("a soak's answer: a 70 KB paragraph, that table, a code block of a 30,000-character line", [soak()])
    chat("40 answers of 400 items", [f"Answer {n}:\n\n" + items(400, f"{n}.") for n in range(40)])
    store.close()
    return ids


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="leave out the 1.2 MB list")
    parser.add_argument("--only", metavar="WORDS", default="", help="open only the chats whose names hold WORDS")
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="bench-open-"))
    ids = fill(data, args.quick)
    app = QApplication.instance() or QApplication([sys.argv[0]])
    loop = TidyEventLoop(app)
    asyncio.set_event_loop(loop)
    settings = defaults().replace(base_url=f"http://127.0.0.1:{_closed_port()}/v1", chat_model="m",
                                  network_tools=False)
    win = MainWindow(data, settings)
    win.resize(1000, 700)
    win.show()
    loop.run_until_complete(asyncio.sleep(0.5))

    def until_loaded() -> tuple[float, float]:
        started = time.perf_counter()
        with Stalls() as stalls:
            while win.loading:
                loop.run_until_complete(asyncio.sleep(0))
        return time.perf_counter() - started, stalls.longest

    worst = 0.0
    for name, chat_id in ids.items():
        if name == "small" or args.only not in name:
            continue
        win.open_chat(ids["small"])
        until_loaded()
        loop.run_until_complete(asyncio.sleep(0.2))
        with Stalls() as stalls:
            started = time.perf_counter()
            win.open_chat(chat_id)
            while win.loading:
                loop.run_until_complete(asyncio.sleep(0))
            took = time.perf_counter() - started
        chars = sum(len(a.content()) for a in win.view.answers())
        print(f"{name} ({chars / 1000:,.0f} KB shown): whole after {took:.2f} s, longest pause "
              f"{stalls.longest * 1e3:.0f} ms")
        worst = max(worst, stalls.longest)
        note = next((s for a in win.view.answers() for s in a.segments() if getattr(s, "fold", None)), None)
        if note is not None:  # its "Show all N rows" clicked
            answer = win.view.answers()[-1]
            with Stalls() as stalls:
                started = time.perf_counter()
                note.rowsAsked.emit()
                while answer.building:
                    loop.run_until_complete(asyncio.sleep(0))
                took = time.perf_counter() - started
            print(f"  all its rows shown: after {took:.2f} s, longest pause {stalls.longest * 1e3:.0f} ms")
        if name.startswith("40 answers"):
            loop.run_until_complete(asyncio.sleep(0.2))
            win.view.verticalScrollBar().setValue(0)  # to the top: the page above is built
            took, longest = until_loaded()
            print(f"  its 20 earlier exchanges, scrolled up to: whole after {took:.2f} s, longest pause "
                  f"{longest * 1e3:.0f} ms ({len(win.view.answers())} answers)")
            worst = max(worst, longest)
    print("target met (longest pause <= 100 ms)" if worst <= 0.100 else "TARGET MISSED (longest pause > 100 ms)")
    win.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
