"""Months of use: 3,000 chats in the list and one chat of 1,000 questions with code, tables and tool cards.

Run offscreen: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_history.py`` (``make bench``).
The history is written through ChatStore into a temporary data folder (``history_data.py``); the window
then starts as a person's does, reopening the long chat left open, and the script prints:

* the start-up: the window shown, the long chat shown (its last page), widgets and resident memory;
* refreshing the chat list; a question or an answer in a chat half-way down, and in the first one (its row
  changed where it is and painted again alone: put back first, every row was laid out and painted again,
  about 10 ms at 3,000 chats, the more chats the more); the 2-second look for chats
  another program saved (its cost on the GUI thread, and for a chat saved elsewhere, how long until it is
  listed and the longest stall); searching it as a person does: typing a common word, a rare one, words no
  chat holds, then clearing the box. For each, how long after the typing the list shows the result (the box
  waits 150 ms for typing to pause before it searches), and the GUI thread's longest stall meanwhile: a
  timer ticks every 2 ms and the largest gap between its ticks is the longest the window could not answer;
* scrolling the long chat, and scrolling to its top five times (each time a page of earlier messages);
* opening a small chat, a chat of 250 questions and the long one again;
* deleting 100 chats one after the other (each refreshes the list);
* the cycle collector, run as in the app (ui/collector.py): the full collections that came due, and how
  long one takes at the end;
* the search itself, as the worker thread runs it (letter case and accents set aside: search_text.py), on
  this history and on the same one with every "e" written "é" (all of its text beyond ASCII, folded in
  Python): the first search, and the next ones, which read the folds kept.

``--chats N`` and ``--pairs N`` change the 3,000 and the 1,000.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import gc
import os
import shutil
import socket
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

from history_data import fill  # noqa: E402
from stalls import Stalls  # noqa: E402
from tinyrag_desktop.chat_find import ChatSearcher  # noqa: E402
from tinyrag_desktop.chats import ChatStore  # noqa: E402
from tinyrag_desktop.settings import defaults  # noqa: E402
from tinyrag_desktop.ui.collector import gui_thread_gc  # noqa: E402
from tinyrag_desktop.ui.main_window import MainWindow  # noqa: E402
from tinyrag_desktop.ui.qtloop import TidyEventLoop  # noqa: E402


def _rss_mb() -> float:
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) / 1024 for line in fh if line.startswith("VmRSS"))


def _closed_port() -> int:
    with socket.socket() as s:  # nothing listens once it is closed: the server check fails at once
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def typed(win: MainWindow, loop: TidyEventLoop, text: str) -> tuple[float, float, int]:
    """Put ``text`` in the chats' search box and run the loop until the list shows its chats: how long that
    took, the GUI thread's longest stall meanwhile (seconds, see Stalls), how many chats."""
    shown: asyncio.Future[tuple[float, int]] = loop.create_future()
    fill = win.sidebar.set_chats

    def set_chats(chats, current, words="", **how) -> None:
        fill(chats, current, words, **how)
        if not shown.done():
            shown.set_result((time.perf_counter(), len(chats)))

    win.sidebar.set_chats = set_chats  # the window fills the list through it, searching or not
    loop.run_until_complete(asyncio.sleep(0.5))  # as a person reads before typing: the last list is all in
    try:
        with Stalls() as stalls:
            started = time.perf_counter()
            win.sidebar.search.setText(text)
            at, chats = loop.run_until_complete(asyncio.wait_for(shown, 30))
            # the stall that ends with the list filled, and its paint; the rows after the first ones, added
            # and laid out a slice per turn, for as long as a person would look before typing on
            loop.run_until_complete(asyncio.sleep(0.3))
    finally:
        del win.sidebar.set_chats
    return at - started, stalls.longest, chats


def caught_up(win: MainWindow, loop: TidyEventLoop, data: Path) -> None:
    """The chats list's 2-second look at the history (window_chats._look_for_chats): its cost on the GUI thread
    when nothing changed, and, for a chat another program saved (an ``--ask`` run), how long until the list
    shows it and the GUI thread's longest stall meanwhile (the list is read in the search thread)."""
    loop.run_until_complete(asyncio.sleep(0.5))  # the last list is all in
    looks = 2000
    t0 = time.perf_counter()
    for _ in range(looks):
        win._look_for_chats()
    idle = (time.perf_counter() - t0) / looks
    other = ChatStore(data)
    try:
        chat = other.new_chat(title="saved by another program")
        shown: asyncio.Future[float] = loop.create_future()

        def listed(*_args) -> None:
            if not shown.done() and win.sidebar.item_for(chat.id) is not None:
                shown.set_result(time.perf_counter())

        win.chat_search.found.connect(listed)
        try:
            with Stalls() as stalls:
                t0 = time.perf_counter()
                win._look_for_chats()  # the timer's tick
                tick = time.perf_counter() - t0
                at = loop.run_until_complete(asyncio.wait_for(shown, 30))
                loop.run_until_complete(asyncio.sleep(0.3))  # the rest of the rows, a slice a turn
        finally:
            win.chat_search.found.disconnect(listed)
    finally:
        other.close()
    print(f"  the 2-second look for chats saved by another program: {idle * 1e6:.1f} µs on the GUI thread when "
          f"nothing changed; a chat saved elsewhere listed {(at - t0) * 1e3:.0f} ms after the tick "
          f"({tick * 1e3:.2f} ms of it in the tick), GUI thread's longest stall {stalls.longest * 1e3:.0f} ms")


def searches(data: Path) -> None:
    """How long the search takes in the worker thread (no 150 ms wait for the typing, no list filled)."""
    path = data / "chats.sqlite3"
    with sqlite3.connect(path) as db:
        count, chars = db.execute("SELECT count(*), sum(length(content)) FROM messages").fetchone()
    print(f"the search itself ({count:,} messages, {chars / 1e6:.1f} million characters):")
    for label in ("ASCII only", "every e an é"):
        if label != "ASCII only":
            with sqlite3.connect(path) as db:
                db.execute("UPDATE messages SET content = replace(content, 'e', 'é')")
        searcher = ChatSearcher(path)
        for query in ("no such words", "compute", "Question 12"):
            took = []
            for _ in range(3):
                t0 = time.perf_counter()
                hits = searcher.search(query)
                took.append(time.perf_counter() - t0)
            print(f"  {label}, {query!r}: {took[0] * 1e3:.0f} ms first, {min(took[1:]) * 1e3:.0f} ms again, "
                  f"{len(hits or ()):,} chats")
        searcher.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--chats", type=int, default=3000)
    parser.add_argument("--pairs", type=int, default=1000)
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="bench-history-"))
    started = time.perf_counter()
    ids = fill(data, args.chats, args.pairs)
    print(f"history: {args.chats:,} chats and one of {args.pairs:,} questions, written in "
          f"{time.perf_counter() - started:.1f} s")
    app = QApplication.instance() or QApplication([sys.argv[0]])
    loop = TidyEventLoop(app)
    asyncio.set_event_loop(loop)
    layout = QSettings(str(data / "window.ini"), QSettings.Format.IniFormat)
    layout.setValue("chat", ids["big"])  # the long chat was open when the window last closed
    layout.sync()
    settings = defaults().replace(base_url=f"http://127.0.0.1:{_closed_port()}/v1", chat_model="m",
                                  network_tools=False)

    def until_loaded(win: MainWindow) -> float:
        """Run the loop until the chat being built is shown; the GUI thread's longest stall meanwhile."""
        with Stalls() as stalls:
            while win.loading:
                loop.run_until_complete(asyncio.sleep(0))
        return stalls.longest

    started = time.perf_counter()
    win = MainWindow(data, settings, reopen_last=True)
    win.resize(1180, 780)
    win.show()
    # As the app runs: cycles collected by a GUI-thread timer, what start-up made frozen out of sight.
    collecting = gui_thread_gc(app)
    collecting.__enter__()
    full: list[float] = []  # how long each full collection took (seconds)
    began: list[float] = []

    def timed(phase: str, info: dict) -> None:
        if info["generation"] == 2:
            if phase == "start":
                began[:] = [time.perf_counter()]
            elif began:
                full.append(time.perf_counter() - began.pop())

    gc.callbacks.append(timed)
    app.processEvents()
    shown = time.perf_counter() - started
    until_loaded(win)
    loaded = time.perf_counter() - started
    print(f"start-up: window shown {shown:.2f} s; long chat shown {loaded:.2f} s "
          f"({len(win.view.answers())} answers built); {len(win.findChildren(QWidget)):,} widgets; "
          f"{_rss_mb():.0f} MB resident")

    t0 = time.perf_counter()
    win._refresh_chats()
    print(f"chat list refreshed ({args.chats:,} chats): {(time.perf_counter() - t0) * 1e3:.0f} ms")
    # What a question sent or an answer stored does to the list: its chat's row goes first.
    while not win.sidebar.lists_all_chats():  # its rows come in slices
        loop.run_until_complete(asyncio.sleep(0.005))
    middle = win.sidebar.ids()[args.chats // 2]
    t0 = time.perf_counter()
    win._chat_used(win.store.get_chat(middle))
    print(f"  a chat half-way down moved first, as a question or an answer does: "
          f"{(time.perf_counter() - t0) * 1e3:.1f} ms")
    first = win.store.get_chat(win.sidebar.ids()[0])
    moved: list[int] = []
    counting = win.sidebar.list.model().rowsInserted.connect(lambda *_: moved.append(1))
    steps = []
    for _ in range(21):
        t0 = time.perf_counter()
        win._chat_used(dataclasses.replace(first, updated=time.time()))
        app.processEvents()  # the list painted again
        steps.append(time.perf_counter() - t0)
    print(f"  the first chat asked in again, as each question and answer in it is: "
          f"{statistics.median(steps) * 1e3:.1f} ms, the list's paint included ({len(moved)} rows put in)")
    win.sidebar.list.model().rowsInserted.disconnect(counting)
    caught_up(win, loop, data)
    for query in ("compute", "Question 12", "no such words", "cömpute", ""):
        shown, stall, chats = typed(win, loop, query)
        what = f"search {query!r}" if query else "clear the box"
        print(f"  {what}: list shown {shown * 1e3:.0f} ms after the typing, GUI thread's longest stall "
              f"{stall * 1e3:.0f} ms, {chats:,} chats")

    bar = win.view.verticalScrollBar()
    steps = []
    for value in range(bar.maximum(), -1, -max(1, bar.maximum() // 60)):
        t0 = time.perf_counter()
        bar.blockSignals(True)  # scrolling only: the top, which builds earlier messages, comes next
        bar.setValue(max(value, 1))
        bar.blockSignals(False)
        app.processEvents()
        steps.append(time.perf_counter() - t0)
    print(f"scrolling the long chat: {len(steps)} steps, longest {max(steps) * 1e3:.0f} ms")
    for page in range(5):
        before = len(win.view.answers())
        t0 = time.perf_counter()
        with Stalls() as stalls:
            bar.setValue(0)
            until_loaded(win)
        print(f"  scrolled to the top ({page + 1}): {len(win.view.answers()) - before} earlier answers in "
              f"{(time.perf_counter() - t0) * 1e3:.0f} ms, GUI thread's longest stall {stalls.longest * 1e3:.0f} ms")

    for name in ("small", "second", "big"):
        t0 = time.perf_counter()
        win.open_chat(ids[name])
        click = time.perf_counter() - t0
        stall = until_loaded(win)
        print(f"open the {name} chat: {click * 1e3:.0f} ms at the click, shown in "
              f"{(time.perf_counter() - t0) * 1e3:.0f} ms, {len(win.view.answers())} answers built, "
              f"longest stall after the click {stall * 1e3:.0f} ms")

    victims = [chat.id for chat in win.store.list_chats()[5:105]]
    t0 = time.perf_counter()
    for chat_id in victims:
        win.delete_chat(chat_id)
    took = time.perf_counter() - t0
    print(f"delete 100 chats one after the other: {took:.2f} s ({took * 10:.0f} ms each)")
    loop.run_until_complete(asyncio.sleep(0.05))
    print(f"resident memory at the end: {_rss_mb():.0f} MB")
    gc.callbacks.remove(timed)
    t0 = time.perf_counter()
    gc.collect()
    print(f"the cycle collector: {len(full)} full collections due on the way"
          + (f" (the longest {max(full) * 1e3:.0f} ms)" if full else "")
          + f"; one now, with {len(win.view.answers())} answers built, {(time.perf_counter() - t0) * 1e3:.1f} ms")
    loop.run_until_complete(win.aclose())
    win.close()
    collecting.__exit__(None, None, None)
    loop.close()  # and its worker threads, which Qt would otherwise report as destroyed while running
    searches(data)
    shutil.rmtree(data, ignore_errors=True)  # about 25 MB of chats
    return 0


if __name__ == "__main__":
    sys.exit(main())
