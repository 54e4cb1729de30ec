"""An import stores the sources it read in the last moments together, in one transaction
(ingest.STORE_EVERY), each still whole or absent: one that fails to be stored fails alone, a full disk
stores none of them and says so once, Cancel stores what was read, a web page waits for nothing unstored,
and two imports into one knowledge base take turns."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import closing
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from tests.loopback import serving
from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb import ingest as ingest_module
from tinyrag_desktop.kb import store as store_module
from tinyrag_desktop.kb.store_file import DB_NAME


def _notes(folder: Path, count: int, words: int = 12) -> Path:
    folder.mkdir(parents=True)
    for n in range(count):
        body = f"Note {n} says the puffin{n} colony nests on the cliff. " * words
        (folder / f"note{n:03}.md").write_text(f"# Note {n}\n\n{body}\n", encoding="utf-8")
    return folder


def _committed(data_dir: Path) -> list[str]:
    """The sources another connection sees: what was committed."""
    with closing(sqlite3.connect(f"{(data_dir / DB_NAME).as_uri()}?mode=ro", uri=True)) as conn:
        return [row[0] for row in conn.execute("SELECT location FROM sources ORDER BY location")]


@pytest.fixture
def together(monkeypatch):
    """No commit for time's sake in these tests: what is stored together is what the import reads."""
    monkeypatch.setattr(ingest_module, "STORE_EVERY", 3600.0)


def test_the_sources_read_are_committed_together_at_the_end(together, tmp_path, data_dir):
    notes = _notes(tmp_path / "notes", 30)
    seen: list[int] = []
    with open_store(data_dir) as kb:
        statements: list[str] = []
        kb.conn.set_trace_callback(statements.append)
        report = Importer(kb, on_progress=lambda p: seen.append(len(_committed(data_dir)))).run([str(notes)])
        kb.conn.set_trace_callback(None)
    assert len(report.added) == 30 and not report.failed and report.chunks == 30
    assert seen == [0] * 30 + [30]  # nothing committed while they were read; the last progress says all are
    assert _committed(data_dir) == sorted(report.added)
    added = [n for n, s in enumerate(statements) if s.startswith("INSERT INTO sources(")]
    assert len(added) == 30
    begin = max(n for n, s in enumerate(statements[:added[0]]) if s == "BEGIN IMMEDIATE")
    assert "COMMIT" not in statements[begin:added[-1]] and "COMMIT" in statements[added[-1]:]  # one for all
    assert search(data_dir, "puffin17 colony", 1)[0].title == "Note 17"


def test_they_are_committed_once_the_time_has_passed(monkeypatch, tmp_path, data_dir):
    monkeypatch.setattr(ingest_module, "STORE_EVERY", 0)  # due at once: stored before the next is read
    notes = _notes(tmp_path / "notes", 12)
    seen: list[int] = []
    with open_store(data_dir) as kb:
        Importer(kb, on_progress=lambda p: seen.append(len(_committed(data_dir)))).run([str(notes)])
    assert seen == list(range(13))


def test_they_are_committed_once_enough_text_waits(together, monkeypatch, tmp_path, data_dir):
    notes = _notes(tmp_path / "notes", 12)
    size = len((notes / "note000.md").read_text(encoding="utf-8"))
    monkeypatch.setattr(ingest_module, "_STORE_CHARS", 2.5 * size)  # stored three by three
    seen: list[int] = []
    with open_store(data_dir) as kb:
        Importer(kb, on_progress=lambda p: seen.append(len(_committed(data_dir)))).run([str(notes)])
    assert seen == [0, 0, 0, 3, 3, 3, 6, 6, 6, 9, 9, 9, 12]


def test_a_source_that_cannot_be_stored_fails_alone_and_leaves_nothing_of_itself(together, monkeypatch, tmp_path,
                                                                                  data_dir):
    notes = _notes(tmp_path / "notes", 10)
    (notes / "note004.md").write_text("# Note 4\n\nThe poisoned note. " * 20, encoding="utf-8")
    index_form = store_module.index_form

    def failing(text: str, kind: str = "") -> str:  # fails after the note's chunks are written, before its
        if "poisoned" in text:  # index entries are
            raise ValueError("cannot index this")
        return index_form(text, kind)

    monkeypatch.setattr(store_module, "index_form", failing)
    with open_store(data_dir) as kb:
        statements: list[str] = []
        kb.conn.set_trace_callback(statements.append)
        report = Importer(kb).run([str(notes)])
        kb.conn.set_trace_callback(None)
        # all ten in one transaction, rolled back; then each in its own, the nine others committed
        assert statements.count("ROLLBACK") == 2 and statements.count("COMMIT") >= 10
        assert [(Path(f.location).name, f.reason) for f in report.failed] == \
            [("note004.md", "unexpected error: ValueError: cannot index this")]
        assert len(report.added) == 9 and report.chunks == 9
        assert kb.conn.execute("SELECT count(*) FROM chunks WHERE text LIKE '%poisoned%'").fetchone()[0] == 0
        assert kb.check_integrity() == []
    assert _committed(data_dir) == sorted(report.added)


def test_a_full_disk_stores_none_of_those_read_together_and_says_it_once(together, monkeypatch, tmp_path, data_dir):
    docs = tmp_path / "docs"
    docs.mkdir()
    for n in range(6):
        (docs / f"note{n}.md").write_text(f"# Note {n}\n\n" + f"kettle descaling word{n} " * 3000)
    monkeypatch.setattr(ingest_module, "_STORE_CHARS", 100_000)  # two files' text: stored two by two
    with open_store(data_dir) as kb:
        kb.conn.execute(f"PRAGMA max_page_count = {kb.conn.execute('PRAGMA page_count').fetchone()[0] + 120}")
        report = Importer(kb).run([str(docs)])
    assert len(report.added) in (2, 4), report.summary()  # the first two fit, and never half of two
    [failure] = report.failed
    assert failure.location == str(docs / f"note{len(report.added)}.md")  # the first of the two, said once
    assert "the disk it is on is full" in failure.reason
    assert report.not_tried == 6 - len(report.added) - 1
    assert report.summary().endswith(f"stopped, the disk is full: {report.not_tried} more not imported")
    with open_store(data_dir) as kb:
        assert sorted(s.location for s in kb.sources()) == sorted(report.added)
        assert kb.check_integrity() == []


def test_cancel_stores_what_was_read_before_it(together, tmp_path, data_dir):
    notes = _notes(tmp_path / "notes", 40)
    cancel = threading.Event()

    def progress(p):
        if p.done == 15:
            cancel.set()

    with open_store(data_dir) as kb:
        report = Importer(kb, on_progress=progress, cancel=cancel).run([str(notes)])
    assert report.cancelled and len(report.added) in (15, 16)  # the one being read as Cancel came, or not
    assert _committed(data_dir) == sorted(report.added)


class _Page(BaseHTTPRequestHandler):
    """A page that notes how many sources were committed when it was asked for."""

    data_dir: Path
    committed: list[int]

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.committed.append(len(_committed(self.data_dir)))
        body = b"<html><head><title>Puffins</title></head><body><p>Puffins dive for sand eels in summer.</p></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def test_what_was_read_is_stored_before_a_web_page_is_waited_for(together, tmp_path, data_dir):
    notes = _notes(tmp_path / "notes", 5)
    handler = type("PageHere", (_Page,), {"data_dir": data_dir, "committed": []})
    with open_store(data_dir) as kb, serving(handler) as url:
        report = Importer(kb, settings={"network_tools": True}).run([str(notes), f"{url}/puffins.html"])
    assert not report.failed and len(report.added) == 6
    assert handler.committed == [5]
    assert len(_committed(data_dir)) == 6


def test_two_imports_into_one_knowledge_base_take_turns(tmp_path, data_dir):
    folders = [_notes(tmp_path / name, 150, words=40) for name in ("one", "two")]
    with open_store(data_dir):
        pass
    reports: dict[str, object] = {}

    def run(folder: Path) -> None:
        with open_store(data_dir) as kb:
            reports[folder.name] = Importer(kb).run([str(folder)])

    threads = [threading.Thread(target=run, args=(folder,)) for folder in folders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not any(thread.is_alive() for thread in threads)
    for report in reports.values():
        assert len(report.added) == 150 and not report.failed and not report.stopped, report.summary()
    assert len(_committed(data_dir)) == 300
    with open_store(data_dir) as kb:
        assert kb.check_integrity() == []
