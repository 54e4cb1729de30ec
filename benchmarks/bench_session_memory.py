"""A long session in one window: does memory grow with each answer, chat opened or dialog opened, or level off?

Run offscreen: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_session_memory.py`` (``make bench``).
The real window asks a loopback scripted server (tests/sse_server.py): each answer is about 1,500 characters of
Markdown (a heading, a list, code, a table) after one calculator card. It prints, after 10, 50, 100 and 200
answers in one chat, after opening 20 chats of 3 answers 10 times over, after opening and closing Settings and
the knowledge panel 50 times, and after deleting every chat:

* the resident memory, and the memory malloc holds in use (Qt's and Python's; glibc only);
* the widgets (QApplication.allWidgets), the Python objects the cycle collector tracks, the messages built;
* the weak references to the conversation (one per chat opened was kept by PySide: fixed).

What to expect: the widgets, the objects and the messages built level off (a live chat keeps at most
chat_trim.LIVE_MOST messages built); what grows slowly after that is bounded caches: Qt's pixmap cache (10 MB,
filled by the styles' drawings, Settings' most), SQLite's page cache (about 2 MB a connection) and the token
estimates of the texts sent (8,192 texts). ``--quick`` stops at 50 answers and does 3 rounds of each.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import gc
import os
import shutil
import sys
import tempfile
import time
import weakref
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QCoreApplication, QEvent  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from tests.sse_server import ScriptedLLMServer, Stream  # noqa: E402
from tinyrag_desktop.settings import defaults  # noqa: E402
from tinyrag_desktop.ui.collector import gui_thread_gc  # noqa: E402
from tinyrag_desktop.ui.main_window import MainWindow  # noqa: E402
from tinyrag_desktop.ui.qtloop import TidyEventLoop, asyncgen_hooks  # noqa: E402


def _rss_mb() -> float:
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) / 1024 for line in fh if line.startswith("VmRSS"))


def _malloc_mb() -> float | None:
    """What malloc holds in use (glibc's mallinfo2), after giving back what it can; None elsewhere."""
    try:
        libc = ctypes.CDLL("libc.so.6")

        class Info(ctypes.Structure):
            _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                       "fsmblks", "uordblks", "fordblks", "keepcost")]

        libc.mallinfo2.restype = Info
        libc.malloc_trim(0)
        info = libc.mallinfo2()
    except (OSError, AttributeError):
        return None
    return (info.uordblks + info.hblkhd) / 2**20


def _answer(n: int) -> list[Stream]:
    text = (f"## Answer {n}\n\nSome **bold** text, `code` and a [link](https://example.com/{n}).\n\n"
            "- one\n- two\n- three\n\n```python\n" + "\n".join(f"x{i} = {i} * {n}" for i in range(12)) + "\n```\n\n"
            "| a | b |\n|---|---|\n" + "".join(f"| {i} | {i * n} |\n" for i in range(8)) + "\n"
            + "Plain words go on for a while. " * 40 + "\n")
    call = f'Let me work it out.\n<tool name="calculate"><query>{n}*7</query></tool>'
    return [Stream([call[i:i + 16] for i in range(0, len(call), 16)]),
            Stream([text[i:i + 16] for i in range(0, len(text), 16)])]


class Session:
    """The window, its loop and the scripted server; ``ask`` answers one question, ``line`` prints the figures."""

    def __init__(self, folder: Path) -> None:
        self.app = QApplication.instance() or QApplication([sys.argv[0]])
        self.loop = TidyEventLoop(self.app)
        asyncio.set_event_loop(self.loop)
        self.server = ScriptedLLMServer(models=("scripted",)).__enter__()
        settings = defaults().replace(base_url=self.server.base_url, chat_model="scripted", network_tools=False)
        self.win = MainWindow(folder, settings)
        self.win.resize(1100, 760)
        self.win.show()
        self.run(self.until(lambda: self.win.status._check is not None and self.win.status._check.done()))
        self.asked = 0

    def run(self, coro):
        return self.loop.run_until_complete(asyncio.wait_for(coro, 120))

    async def until(self, predicate) -> None:
        while not predicate():
            await asyncio.sleep(0.005)

    def ask(self) -> None:
        self.server.queue(*_answer(self.asked))
        finished = self.loop.create_future()

        def fire(outcome: str) -> None:
            if not finished.done():
                finished.set_result(outcome)

        self.win.answerFinished.connect(fire)
        self.win.composer.setPlainText(f"Question {self.asked}: what is {self.asked} times 7?")
        self.win.send()
        outcome = self.run(finished)
        self.win.answerFinished.disconnect(fire)
        assert outcome == "done", outcome
        self.server.requests.clear()  # the scripted server keeps each request: not the app's memory
        self.asked += 1

    def line(self, label: str) -> None:
        self.run(asyncio.sleep(0.05))
        self.run(self.until(lambda: not self.win.view._graveyard and not self.win.loading))
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        gc.collect()
        malloc = _malloc_mb()
        refs = sum(1 for o in gc.get_objects() if type(o) is weakref.ref and o() is self.win.view)
        print(f"{label:<40} {_rss_mb():6.0f} MB resident"
              + (f", {malloc:5.0f} MB in use" if malloc is not None else "")
              + f"; {len(QApplication.allWidgets()):5d} widgets, {len(gc.get_objects()):6d} objects,"
              f" {len(self.win.view._widgets()):3d} messages built, {refs} weak refs to the view", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="50 answers, 3 rounds of each")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="tinyrag-session-"))
    started = time.perf_counter()
    s = Session(folder / "data")
    rounds = 3 if args.quick else 10
    with gui_thread_gc(s.app), asyncgen_hooks(s.loop):  # as the app runs (see app.py)
        s.line("started")
        for mark in (10, 50) if args.quick else (10, 50, 100, 200):
            while s.asked < mark:
                s.ask()
            s.line(f"after {mark} answers in one chat")
        chats = []
        for _ in range(20):
            s.win.new_chat()
            for _ in range(3):
                s.ask()
            chats.append(s.win.chat_id)
        s.line("20 more chats of 3 answers")
        for n in range(rounds):
            for chat in chats:
                s.win.open_chat(chat)
                s.run(s.until(lambda: not s.win.loading))
        s.line(f"each opened {rounds} times")
        for n in range(rounds * 5):
            dialog = s.win.open_settings()
            s.run(asyncio.sleep(0.01))
            dialog.reject()
            s.win.kb_dock.show()
            s.run(asyncio.sleep(0.02))
            s.win.kb_dock.hide()
        s.line(f"Settings and the panel opened {rounds * 5} times")
        for chat in [c.id for c in s.win.store.list_chats()]:
            s.win.delete_chat(chat)
        s.line("every chat deleted")
        s.run(s.win.aclose())
    s.win.close()
    s.loop.close()  # and its worker threads, which Qt would otherwise report as destroyed while running
    s.server.__exit__(None, None, None)
    shutil.rmtree(folder, ignore_errors=True)
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
