"""kb.release: the kept read-only connections are closed at the end of a run, also while other threads
still search; a search after it opens afresh."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from tinyrag_desktop.kb import Importer, has_documents, open_store, release, search

REPO = Path(__file__).resolve().parents[2]

# Two threads search and ask has_documents while the main thread releases again and again, as the window
# does when it closes while the panel's searcher or an answer's lookup is still running.
_RACE = textwrap.dedent("""
    import sys, threading
    from pathlib import Path
    from tinyrag_desktop import kb

    data, wrong, stop = Path(sys.argv[1]), [], threading.Event()

    def searcher():
        while not stop.is_set():
            try:
                if not kb.search(data, "kettle descaling lime5", 3) or not kb.has_documents(data):
                    wrong.append("nothing found")
            except Exception as exc:
                wrong.append(repr(exc))

    threads = [threading.Thread(target=searcher) for _ in range(2)]
    for t in threads:
        t.start()
    for _ in range(300):
        kb.release(data)
        stop.wait(0.003)
    stop.set()
    for t in threads:
        t.join()
    print(len(wrong), wrong[:3])
""")


def test_release_while_other_threads_search_neither_crashes_nor_fails_them(tmp_path):
    docs, data = tmp_path / "docs", tmp_path / "data"
    docs.mkdir()
    for n in range(30):
        (docs / f"n{n}.md").write_text(f"# Note {n}\n\n" + " ".join(
            f"kettle descaling water word{n} lime{m}" for m in range(200)))
    with open_store(data) as kb:
        Importer(kb).run([str(docs)])
    # in a process of its own: before, closing a connection another thread was reading crashed Python
    done = subprocess.run([sys.executable, "-X", "faulthandler", "-c", _RACE, str(data)], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("0 []"), done.stdout


def test_a_search_after_release_opens_afresh(tmp_path):
    docs, data = tmp_path / "docs", tmp_path / "data"
    docs.mkdir()
    (docs / "note.md").write_text("# Herons\n\nThe heron nests by the lake every spring.\n")
    with open_store(data) as kb:
        Importer(kb).run([str(docs)])
    assert search(data, "heron nests", 1) and has_documents(data)
    release(data)
    assert sorted(p.name for p in data.iterdir() if p.name.startswith("knowledge")) == ["knowledge.db"]
    assert search(data, "heron nests", 1) and has_documents(data)
