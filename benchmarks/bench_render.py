"""Streaming render benchmark: a 30,000-character Markdown answer with 20 tool cards, in 4-character tokens.

Run offscreen: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_render.py`` (``make bench``).
It feeds one answer in the chat view of a real window-sized widget as fast as the view accepts tokens (each
token is appended, then Qt processes its events, so the coalesced renders, layout and painting all count)
and prints:

* the mean cost per update over the first and the last 1,000 tokens (target: last <= 1.5 x first), with
  every token rendered at once (the worst case; the app coalesces renders to ~30 a second, and a feed as
  fast as this one then sees only a few renders, which makes a per-token mean mostly noise);
* the same answer with renders coalesced as in the app: the cost per render at the start and the end;
* the longest GUI-thread stall, i.e. the longest single token step (target <= 50 ms);
* the total time;
* the resident memory after 50 such answers in one chat (target <= 400 MB). For those 50 the tokens are
  fed 64 characters at a time, which builds the same widgets in a fraction of the time.

Last, one more answer is streamed in 4-character tokens at the end of that long chat, to show that the
cost of an update does not depend on what is above it either.

Then a Markdown table of 1,000 rows (``--table-rows``) is streamed at 400 tokens of 8 characters a second, as a
fast local model writes, in a view of its own, the event loop running between tokens as in the app: the
longest event-loop step while it streams (target <= 50 ms; a table is one block the view cannot freeze until it
ends, and drawn whole at each frame it stalled the window about 0.2 s again and again), the steps over 50 ms,
the longest render, and the one-off cost of Done, which joins the table's pieces into one table.

Last, a table of 130 columns (``--wide-rows`` rows) comes whole before a single render, as a fast server's
answer outruns the view, then Done: the longest event-loop step until all of it is shown (target <= 300 ms:
a slice of 0.1 s, the render that ends it, the painting after; the end rendered all that was left at once, and
a 470 KB answer froze the window 12 s), Done's own step and the total. The same for a code block of a
30,000-character line and 3,000 more lines (bench_open's soak answer): read past its end for a place to cut, it
was rendered in one piece, a step of 0.3 s.

``--answers N`` changes the 50; ``--quick`` runs one answer and 5 for memory.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QCoreApplication, QEventLoop  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from bench_open import blob_code  # noqa: E402
from tinyrag_desktop.engine.events import Done, ToolFinished, ToolStarted  # noqa: E402
from tinyrag_desktop.ui.chat_view import ChatView  # noqa: E402
from tinyrag_desktop.ui.theme import apply_theme  # noqa: E402

TOOLS = ("rag_knowledge", "calculate", "websearch", "wikipedia", "url_fetch", "nanogo")
TARGET_CHARS = 30_000
REPEAT_CHARS = 4_400  # a little over 1,000 tokens of 4 characters
CARDS = 20


def make_answer(seed: int = 7) -> list[str]:
    """About 30,000 characters of Markdown in 21 pieces; a tool card goes between consecutive pieces."""
    rng = random.Random(seed)
    words = ("stream token parser render segment layout answer model tool card markdown widget cost "
             "update frame chunk block server request round result query source error").split()

    def sentence() -> str:
        return " ".join(rng.choice(words) for _ in range(rng.randint(8, 18))).capitalize() + "."

    blocks: list[str] = []
    size = 0
    while size < TARGET_CHARS - REPEAT_CHARS:
        kind = rng.random()
        if kind < 0.5:
            block = " ".join(sentence() for _ in range(rng.randint(2, 5)))
        elif kind < 0.7:
            block = "\n".join(f"- {sentence()}" for _ in range(rng.randint(3, 6)))
        elif kind < 0.8:
            block = "\n".join(f"{i}. {sentence()}" for i in range(1, rng.randint(3, 6)))
        elif kind < 0.9:
            lines = [f"    value_{i} = compute({i}, {rng.randint(1, 99)})  # {rng.choice(words)}"
                     for i in range(rng.randint(5, 14))]
            block = "```python\ndef step():\n" + "\n".join(lines) + "\n    return value_0\n```"
        else:
            block = f"## {sentence()[:40]}"
        blocks.append(block)
        size += len(block) + 2
    # The answer ends with its own first blocks again, so the first and the last 1,000 tokens hold the
    # same kind of text and their cost ratio shows growth with the answer, not a difference of content.
    head, head_size = [], 0
    for block in blocks:
        if head_size >= REPEAT_CHARS:
            break
        head.append(block)
        head_size += len(block) + 2
    blocks += head
    # cut into CARDS + 1 pieces at paragraph boundaries
    cuts = sorted(rng.sample([i for i in range(1, len(blocks))], CARDS))
    pieces, last = [], 0
    for c in cuts:
        pieces.append("\n\n".join(blocks[last:c]) + "\n\n")
        last = c
    pieces.append("\n\n".join(blocks[last:]) + "\n")
    return pieces


def _rss_mb() -> float:
    try:
        with open("/proc/self/statm") as fh:
            pages = int(fh.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 1e6
    except OSError:
        import resource

        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return rss / 1e6 if sys.platform == "darwin" else rss / 1e3


def feed(view: ChatView, pieces: list[str], token: int, steps: list[float] | None = None,
         renders: list[float] | None = None, every_token: bool = False) -> float:
    """Stream one answer into ``view``; returns seconds. ``steps`` gets one duration per token.

    With ``every_token`` each token is rendered at once (the coalescing timer is bypassed with ``flush``):
    the worst case, and the one that shows whether an update's cost grows with the answer. Without it the
    view coalesces renders to at most ~30 a second, as in the app, and a fast feed sees few renders.
    """
    process = QCoreApplication.processEvents
    answer = view.add_answer()
    answer.render_times = renders
    answer.begin()
    started = time.perf_counter()
    for n, piece in enumerate(pieces):
        for i in range(0, len(piece), token):
            t0 = time.perf_counter()
            answer.append_text(piece[i:i + token])
            if every_token:
                answer.flush()
            process(QEventLoop.ProcessEventsFlag.AllEvents)
            if steps is not None:
                steps.append(time.perf_counter() - t0)
        if n < len(pieces) - 1:
            tool = TOOLS[n % len(TOOLS)]
            t0 = time.perf_counter()
            answer.tool_started(ToolStarted(f"c{n}", tool, f"query number {n} for {tool}"))
            answer.tool_finished(ToolFinished(f"c{n}", tool, f"query number {n} for {tool}", "bench", None, 120,
                                              "ok", 15, result="result text " * 10))
            process(QEventLoop.ProcessEventsFlag.AllEvents)
            if steps is not None:
                steps[-1] += time.perf_counter() - t0  # a card counts toward the token it follows
    answer.finish(Done(2, CARDS, 0))
    process(QEventLoop.ProcessEventsFlag.AllEvents)
    return time.perf_counter() - started


def table_answer(rows: int) -> str:
    return ("Here is the data:\n\n| id | name | city | score |\n|---|---|---|---|\n"
            + "".join(f"| {i} | person {i} | town {i % 37} | {i * 7 % 100} |\n" for i in range(rows)) + "\nDone.\n")


def stream_paced(text: str, rate: float = 400, token: int = 8) -> tuple[list[float], list[float], float]:
    """Stream ``text`` into a view of its own at ``rate`` tokens a second, Qt's events handled while it waits
    for the next token (each handling one step); the steps, the renders and the time Done took (seconds)."""
    process = QCoreApplication.processEvents
    view = ChatView()
    view.resize(1000, 800)
    view.show()
    answer = view.add_answer()
    renders: list[float] = []
    steps: list[float] = []
    answer.render_times = renders
    answer.begin()
    due = time.perf_counter()
    for i in range(0, len(text), token):
        while time.perf_counter() < due:
            t0 = time.perf_counter()
            process(QEventLoop.ProcessEventsFlag.AllEvents, 1)
            steps.append(time.perf_counter() - t0)
        due += 1 / rate
        t0 = time.perf_counter()
        answer.append_text(text[i:i + token])
        process(QEventLoop.ProcessEventsFlag.AllEvents)
        steps.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    answer.finish(Done(1, 0, 0))
    process(QEventLoop.ProcessEventsFlag.AllEvents)
    done = time.perf_counter() - t0
    view.close()
    view.deleteLater()
    return steps, renders, done


def wide_table(columns: int, rows: int) -> str:
    head = "| " + " | ".join(f"column {c}" for c in range(columns)) + " |\n" + "|---" * columns + "|\n"
    return ("A wide table:\n\n" + head
            + "".join("| " + " | ".join(f"r{r}c{c}" for c in range(columns)) + " |\n" for r in range(rows)) + "\nDone.\n")


def end_backlogged(text: str) -> tuple[list[float], int]:
    """``text`` given whole before a single render (it came faster than it was shown), then Done: the event
    loop's steps from Done until all of it is shown (Done's own first), and how many renders they did."""
    process = QCoreApplication.processEvents
    view = ChatView()
    view.resize(1000, 800)
    view.show()
    answer = view.add_answer()
    answer.begin()
    for i in range(0, len(text), 64):
        answer.append_text(text[i:i + 64])
    renders: list[float] = []
    answer.render_times = renders
    t0 = time.perf_counter()
    answer.finish(Done(1, 0, 0))
    steps = [time.perf_counter() - t0]
    while answer.building:
        t0 = time.perf_counter()
        process(QEventLoop.ProcessEventsFlag.AllEvents)
        steps.append(time.perf_counter() - t0)
    view.close()
    view.deleteLater()
    return steps, len(renders)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--answers", type=int, default=50, help="answers for the memory figure (default 50)")
    parser.add_argument("--quick", action="store_true", help="one timed answer, 5 for memory")
    parser.add_argument("--table-rows", type=int, default=1000, help="rows of the streamed table (default 1000)")
    parser.add_argument("--wide-rows", type=int, default=80,
                        help="rows of the 130-column table given before a render (default 80)")
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([sys.argv[0]])
    apply_theme(app, "light")
    view = ChatView()
    view.resize(1000, 800)
    view.show()
    pieces = make_answer()
    chars = sum(len(p) for p in pieces)

    # 1. Every token rendered: the cost of an update, at the start and at the end of the answer.
    steps: list[float] = []
    renders: list[float] = []
    total_each = feed(view, pieces, 4, steps, renders, every_token=True)
    n = len(steps)
    first, last = statistics.fmean(steps[:1000]), statistics.fmean(steps[-1000:])
    stall_each = max(steps)
    print(f"answer: {chars:,} characters, {CARDS} tool cards, {n:,} tokens of 4 characters")
    print("every token rendered (worst case):")
    print(f"  mean cost per update, first 1,000 tokens: {first * 1e3:.3f} ms")
    print(f"  mean cost per update, last 1,000 tokens:  {last * 1e3:.3f} ms   "
          f"(ratio {last / first:.2f}, target <= 1.5)")
    print(f"  longest step: {stall_each * 1e3:.1f} ms; total {total_each:.2f} s")
    # 2. As the app runs: tokens as fast as the view takes them, renders coalesced to ~30 a second.
    view.add_question("The same answer again")
    coalesced: list[float] = []
    renders = []
    total = feed(view, pieces, 4, coalesced, renders)
    stall = max(coalesced)
    k = max(1, min(20, len(renders) // 4))
    r_first, r_last = statistics.fmean(renders[:k]), statistics.fmean(renders[-k:])
    print("renders coalesced, as in the app:")
    print(f"  {len(renders)} renders; mean cost per render, first {k}: {r_first * 1e3:.2f} ms, "
          f"last {k}: {r_last * 1e3:.2f} ms (ratio {r_last / r_first:.2f})")
    print(f"  longest GUI-thread stall: {stall * 1e3:.1f} ms   (target <= 50 ms)")
    print(f"  total: {total:.2f} s ({total / n * 1e3:.3f} ms per token)")
    stall = max(stall, stall_each)

    count = 5 if args.quick else args.answers
    started = time.perf_counter()
    for i in range(1, count):
        view.add_question(f"Question {i}")
        feed(view, make_answer(seed=i), 64)
    app.processEvents()
    print(f"resident memory after {count} answers in one chat: {_rss_mb():.0f} MB   (target <= 400 MB; "
          f"{time.perf_counter() - started:.1f} s to build)")
    late: list[float] = []
    feed(view, make_answer(seed=1000), 4, late)
    print(f"the same stream as answer {count + 1} of the chat: mean cost per update "
          f"{statistics.fmean(late) * 1e3:.3f} ms, longest stall {max(late) * 1e3:.1f} ms")
    table_steps, table_renders, done = stream_paced(table_answer(args.table_rows))
    print(f"a table of {args.table_rows:,} rows at 400 tokens a second: longest step "
          f"{max(table_steps) * 1e3:.1f} ms (target <= 50 ms), {sum(s > 0.050 for s in table_steps)} steps over "
          f"50 ms; {len(table_renders)} renders, the longest {max(table_renders) * 1e3:.1f} ms; Done (the table's "
          f"pieces joined, once) {done * 1e3:.0f} ms")
    end_steps, end_renders = end_backlogged(wide_table(130, args.wide_rows))
    print(f"a table of 130 columns and {args.wide_rows} rows given before a render, then Done: longest step "
          f"{max(end_steps) * 1e3:.0f} ms (target <= 300 ms), Done itself {end_steps[0] * 1e3:.0f} ms, "
          f"{end_renders} renders, {sum(end_steps):.1f} s in all")
    code_steps, code_renders = end_backlogged(blob_code())
    print(f"a code block of a 30,000-character line and 3,000 lines given before a render, then Done: longest "
          f"step {max(code_steps) * 1e3:.0f} ms (target <= 300 ms), {code_renders} renders, "
          f"{sum(code_steps):.1f} s in all")
    ok = last <= 1.5 * first and stall <= 0.050 and max(late) <= 0.050 and max(table_steps) <= 0.050
    ok = ok and max(end_steps) <= 0.300 and max(code_steps) <= 0.300
    print("targets met" if ok else "TARGET MISSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
