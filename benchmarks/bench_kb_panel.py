"""The knowledge panel's sources list at 10,000 sources: refresh() and a column sort, on the GUI thread.

Run offscreen: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_kb_panel.py``. The sources are
written through the knowledge-base store into a temporary data folder, removed at the end. ``--sources N``
changes the 10,000; ``--repeat N`` how many times each step is timed (the median is printed); ``--chunks N``
stores N passages in all (by default 1 to 7 a source). ``--tick`` times instead the panel's 2-second look at
the knowledge base after another program committed (as ``kb add`` in a terminal does), with an embedding
model set: the GUI thread's part of it, the whole of it, and the list read on the GUI thread as before
(catch_up). E.g. ``--sources 10000 --chunks 300000 --tick``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QEventLoop, Qt  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from tinyrag_desktop.kb import Chunk, open_store  # noqa: E402
from tinyrag_desktop.settings import defaults  # noqa: E402
from tinyrag_desktop.ui.kb_panel import KnowledgePanel  # noqa: E402


def _fill(data: Path, count: int, chunks: int = 0) -> None:
    with open_store(data) as kb, kb.together():
        for n in range(count):
            many = chunks // count + (n < chunks % count) if chunks else 1 + n % 7
            _store(kb, data, n, many)


def _store(kb, data: Path, n: int, chunks: int) -> None:
    kb.replace_source(title=f"note {n:05d} about herons and the shallow water they stand in",
                      location=str(data / "docs" / f"n{n}.txt"), type="text", size=40,
                      content_hash=f"hash{n}", chunks=[Chunk(f"Note {n}", f"note {n} about herons")] * chunks,
                      load_id="bench")


def _ticks(app, panel, data: Path, count: int, repeat: int) -> None:
    """The panel's look after another connection committed one more source: its GUI thread's part (the
    look, then the list swapped in when read), the whole, and the list read at once on the GUI thread."""
    gui, whole, before = [], [], []
    show = panel._show_list

    def timed_show(*args) -> None:
        started = time.perf_counter()
        show(*args)
        app.processEvents()  # and the layout pass that follows
        if len(gui) > len(whole):  # the tick's, not catch_up's
            gui[-1] += time.perf_counter() - started

    panel._show_list = timed_show
    for n in range(repeat):
        with open_store(data) as kb:
            _store(kb, data, count + 2 * n, 3)
        started = time.perf_counter()
        panel._check_for_changes()
        gui.append(time.perf_counter() - started)
        rows = panel.sources_model.rowCount()
        while panel.sources_model.rowCount() == rows:  # sleeping between events: the reading thread runs alone
            app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
        whole.append(time.perf_counter() - started)
        with open_store(data) as kb:
            _store(kb, data, count + 2 * n + 1, 3)
        started = time.perf_counter()
        assert panel.catch_up()
        app.processEvents()
        before.append(time.perf_counter() - started)
    for name, times in (("GUI thread per tick", gui), ("tick, read and shown", whole),
                        ("read on the GUI thread", before)):
        print(f"{name + ':':24} {statistics.median(times) * 1000:7.1f} ms (median of {repeat}; "
              f"{min(times) * 1000:.1f}-{max(times) * 1000:.1f})")


def _median_ms(step, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        step()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sources", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--chunks", type=int, default=0)
    parser.add_argument("--tick", action="store_true")
    args = parser.parse_args()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    data = Path(tempfile.mkdtemp(prefix="bench-kb-panel-"))
    try:
        started = time.perf_counter()
        _fill(data, args.sources, args.chunks)
        print(f"{args.sources:,} sources written in {time.perf_counter() - started:.1f} s")
        settings = defaults().replace(embed_model="bench-embed") if args.tick else defaults()
        panel = KnowledgePanel(data, lambda: settings, list_now=False)
        panel.resize(520, 700)
        panel.show()
        app.processEvents()
        if args.tick:
            _ticks(app, panel, data, args.sources, args.repeat)
            panel.shutdown()
            return 0
        view = panel.sources_view
        # Each step with the layout pass that follows it (the header sizes its columns to their contents).
        def refresh() -> None:
            panel.refresh()
            app.processEvents()

        print(f"refresh():            {_median_ms(refresh, args.repeat):7.1f} ms (median of {args.repeat})")
        # Each sort starts from the list sorted by another column, as a click on a header does.
        for column, name, other in ((0, "title", 3), (2, "chunks", 0), (3, "imported", 2)):
            def sort(column=column, other=other) -> None:
                view.sortByColumn(other, Qt.SortOrder.AscendingOrder)
                app.processEvents()
                started = time.perf_counter()
                view.sortByColumn(column, Qt.SortOrder.DescendingOrder)
                app.processEvents()
                sort.times.append((time.perf_counter() - started) * 1000)

            sort.times = []
            for _ in range(args.repeat):
                sort()
            print(f"sort by {name + ':':13} {statistics.median(sort.times):7.1f} ms")
        view.selectAll()
        print(f"select all, count:    {_median_ms(lambda: len(panel._selected()), args.repeat):7.1f} ms")
        panel.shutdown()
        panel.close()
        panel.deleteLater()
        app.processEvents()
    finally:
        shutil.rmtree(data, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
