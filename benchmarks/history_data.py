"""Months of use, built by script: thousands of chats and one very long one, written through ChatStore.

Used by ``bench_history.py`` and ``bench_memory.py``; run on its own it fills a data folder:
``.venv/bin/python benchmarks/history_data.py DIR [--chats 3000] [--pairs 1000]``. Nothing here touches the
network or a user's data folder.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tinyrag_desktop import chats  # noqa: E402
from tinyrag_desktop.chats import ChatStore, StoredTool  # noqa: E402

WORDS = ("stream token parser render segment layout answer model tool card markdown widget cost update frame "
         "chunk block server request round result query source error index table column value latency "
         "memory thread window cache sqlite vector search").split()
TOOLS = ("rag_knowledge", "calculate", "websearch", "wikipedia", "url_fetch")
DAY = 86400.0


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 18))).capitalize() + "."


def answer_text(rng: random.Random, n: int) -> str:
    """An answer of about 1,500 characters: paragraphs, a list, and often a code block and a table."""
    parts = [" ".join(_sentence(rng) for _ in range(rng.randint(2, 4)))]
    if n % 2 == 0:
        lines = [f"    value_{i} = compute({i}, {rng.randint(1, 99)})  # {rng.choice(WORDS)}"
                 for i in range(rng.randint(4, 12))]
        parts.append("```python\ndef step():\n" + "\n".join(lines) + "\n    return value_0\n```")
    if n % 3 == 0:
        rows = [f"| {rng.choice(WORDS)} | {rng.randint(1, 999)} | {rng.choice(WORDS)} |" for _ in range(5)]
        parts.append("| name | count | note |\n|---|---|---|\n" + "\n".join(rows))
    parts.append("\n".join(f"- {_sentence(rng)}" for _ in range(rng.randint(2, 4))))
    parts.append(" ".join(_sentence(rng) for _ in range(rng.randint(1, 3))))
    return "\n\n".join(parts) + "\n"


def _tools(rng: random.Random, n: int, content: str) -> list[StoredTool]:
    """Two tool cards in two answers of three, placed at paragraph boundaries of ``content``."""
    if n % 3 == 2:
        return []
    breaks = [i + 2 for i in range(len(content)) if content.startswith("\n\n", i)] or [0]
    out = []
    for k in range(2):
        tool = TOOLS[(n + k) % len(TOOLS)]
        out.append(StoredTool(f"c{n}-{k}", tool, f"{rng.choice(WORDS)} {rng.choice(WORDS)} {n}", "ok",
                              source="guide.md" if tool == "rag_knowledge" else "", result="result " * 40,
                              result_bytes=280, elapsed_ms=rng.randint(5, 900),
                              position=breaks[min(k, len(breaks) - 1)]))
    return out


class _Clock:
    """Stands in for chats.time while filling, so chats spread over months instead of one second."""

    def __init__(self, start: float) -> None:
        self.now = start

    def time(self) -> float:
        self.now += 0.001
        return self.now


def fill(data_dir: Path, chats_count: int = 3000, pairs: int = 1000, seed: int = 1) -> dict[str, str]:
    """Write ``chats_count`` chats of 1 to 3 exchanges over the last ~300 days, and one chat of ``pairs``
    question/answer pairs (the newest, and so the one open last), and before it one of a quarter as many.
    Returns their ids and a small chat's: {"big": id, "second": id, "small": id}."""
    rng = random.Random(seed)
    store = ChatStore(data_dir)
    clock = _Clock(time.time() - 300 * DAY)
    saved = chats.time
    chats.time = SimpleNamespace(time=clock.time)  # type: ignore[assignment]
    small = ""
    try:
        db = store._db
        db.execute("PRAGMA synchronous=OFF")  # filling only: the app's own setting is back on reopen
        for c in range(chats_count):
            clock.now += 300 * DAY / chats_count
            chat = store.new_chat()
            for q in range(rng.randint(1, 3)):
                store.add_user_message(chat.id, f"Question {c}.{q}: {_sentence(rng)}")
                content = answer_text(rng, c + q)
                store.add_assistant_message(chat.id, content, transcript=content, tools=_tools(rng, c + q, content),
                                            stats={"rounds": 1, "tools_run": 1, "elapsed_ms": 1200})
            small = small or chat.id
        second = _long_chat(store, rng, pairs // 4)
        big = _long_chat(store, rng, pairs)
    finally:
        chats.time = saved  # type: ignore[assignment]
        store.close()
    return {"big": big.id, "second": second.id, "small": small}


def _long_chat(store: ChatStore, rng: random.Random, pairs: int) -> chats.ChatInfo:
    chat = store.new_chat()
    for n in range(pairs):
        store.add_user_message(chat.id, f"Long chat question {n}: {_sentence(rng)}")
        content = answer_text(rng, n)
        store.add_assistant_message(chat.id, content, transcript=content, tools=_tools(rng, n, content),
                                    route={"mode": "tools", "reason": "bench", "hints": []},
                                    stats={"rounds": 2, "tools_run": 2, "elapsed_ms": 2100})
    return chat


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("--chats", type=int, default=3000)
    parser.add_argument("--pairs", type=int, default=1000)
    args = parser.parse_args()
    started = time.perf_counter()
    ids = fill(args.data_dir, args.chats, args.pairs)
    print(f"filled {args.data_dir} in {time.perf_counter() - started:.1f} s: {ids}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
