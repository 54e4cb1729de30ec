"""Cancel while a large file's passages are being stored: it stops at once, and the file is absent, not half there.

Storing the 53,000 passages of a 60 MB log took seconds after reading it, and Cancel waited for all of them:
the panel said "1 updated (52,941 passages)", with no word of the cancel."""

from __future__ import annotations

import threading
from pathlib import Path

from tinyrag_desktop.kb import Importer, open_store, search


def _big_log(path: Path, lines: int = 60_000) -> Path:
    with path.open("w", encoding="utf-8") as out:
        for n in range(lines):
            out.write(f"2026-12-02 04:{n % 60:02}:00 worker{n % 97} stored record {n} for harbour{n % 13} ok\n")
    return path


class _CancelOnStore:
    """Presses Cancel the moment the import starts storing (as a user does while it stores)."""

    def __init__(self, kb, cancel: threading.Event) -> None:
        self.cancel, self.real = cancel, kb.replace_source
        kb.replace_source = self

    def __call__(self, **kwargs):
        self.cancel.set()
        return self.real(**kwargs)


def test_cancel_while_a_large_file_is_stored_stops_it_and_stores_nothing_of_it(tmp_path, data_dir, monkeypatch):
    from tinyrag_desktop.kb import ingest

    monkeypatch.setattr(ingest, "STOP_GRACE", 0.0)  # storing this one takes about the grace here: none, then
    log = _big_log(tmp_path / "server.log")
    (tmp_path / "small.txt").write_text("Harbour tide tables, kept since 1990.", encoding="utf-8")
    cancel = threading.Event()
    with open_store(data_dir) as kb:
        Importer(kb).run([str(tmp_path / "small.txt")])
        _CancelOnStore(kb, cancel)
        report = Importer(kb, cancel=cancel).run([str(log)])
        assert report.cancelled and not report.added and not report.failed, report
        assert report.chunks == 0
        assert report.in_words().endswith("— cancelled: server.log not imported"), report.in_words()
        assert [s.location for s in kb.sources()] == [str(tmp_path / "small.txt")]  # only the one stored before
        assert kb.check_integrity() == []
        stored = kb.conn.execute("SELECT count(*) FROM chunks").fetchone()[0]
    assert stored == 1  # the small file's passage, none of the log's
    assert search(data_dir, "harbour tide", 5)[0].location == str(tmp_path / "small.txt")
    assert not search(data_dir, "worker13 record", 5)


def test_the_files_read_before_cancel_are_still_stored_whole(tmp_path, data_dir):
    # Cancel while the next file is read: the ones read before it are kept, each whole; the store of a few
    # notes takes far less than the grace (ingest.STOP_GRACE) a store gets after Cancel
    folder = tmp_path / "notes"
    folder.mkdir()
    for n in range(4):
        (folder / f"note{n}.md").write_text(f"# Note {n}\n\nThe puffin{n} colony nests on the cliff.\n", encoding="utf-8")
    cancel = threading.Event()

    def on_progress(progress):
        if progress.done == 2:
            cancel.set()

    with open_store(data_dir) as kb:
        report = Importer(kb, cancel=cancel, on_progress=on_progress).run([str(folder)])
        assert report.cancelled
        # the third was being read when Cancel came: it completed; the fourth was not begun
        assert len(report.added) == 3 and len(kb.sources()) == 3 and kb.check_integrity() == []
    assert report.in_words() == "3 added (3 passages) — cancelled: note3.md not imported"


def test_cancel_while_a_large_file_is_chunked_stops_it(tmp_path, data_dir):
    # One 60 MB log is one block of text: its 53,000 passages were cut with no look at Cancel.
    log = tmp_path / "one.log"
    log.write_text("".join(f"line {n} of a log with no blank line in it, worker{n % 7} ok\n" for n in range(120_000)),
                   encoding="utf-8")
    from tinyrag_desktop.kb import chunking

    cancel = threading.Event()
    real = chunking.Chunk
    made = []

    def chunk(*args):  # Cancel pressed once the cutting is well under way
        made.append(1)
        if len(made) == 500:
            cancel.set()
        return real(*args)

    chunking.Chunk = chunk
    try:
        with open_store(data_dir) as kb:
            report = Importer(kb, cancel=cancel).run([str(log)])
            assert report.cancelled and not report.added and kb.sources() == []
    finally:
        chunking.Chunk = real
    assert len(made) < 4000  # stopped at the next look, not at the end (about 5,700 passages)


def test_a_large_file_gets_no_grace_however_long_the_grace(tmp_path, data_dir, monkeypatch):
    # A 60 MB log read before Cancel was stored whole within the grace when Cancel came 0.2 s into its
    # store: a few notes are kept within it, a file this large is stopped at once.
    from tinyrag_desktop.kb import ingest

    monkeypatch.setattr(ingest, "STOP_GRACE", 600.0)
    log = _big_log(tmp_path / "server.log")
    cancel = threading.Event()
    with open_store(data_dir) as kb:
        _CancelOnStore(kb, cancel)
        report = Importer(kb, cancel=cancel).run([str(log)])
        assert report.cancelled and not report.added and kb.sources() == [], report
    assert report.in_words() == "Nothing was imported — cancelled: server.log not imported"


class _CancelAfterStore(_CancelOnStore):
    """Presses Cancel once the import has written its last file, before it is committed."""

    def __call__(self, **kwargs):
        source_id = self.real(**kwargs)
        self.cancel.set()
        return source_id


def test_a_cancel_too_late_to_stop_the_last_file_says_so(tmp_path, data_dir):
    # "Cancelling… (0 of 1 done)", then "1 added (55,775 passages)": nothing said the cancel came too late
    (tmp_path / "note.md").write_text("# Note\n\nThe gannet colony nests on the stack.\n", encoding="utf-8")
    cancel = threading.Event()
    with open_store(data_dir) as kb:
        _CancelAfterStore(kb, cancel)
        report = Importer(kb, cancel=cancel).run([str(tmp_path / "note.md")])
        assert [s.location for s in kb.sources()] == [str(tmp_path / "note.md")]  # within the grace: kept
    assert report.cancelled and report.late == [str(tmp_path / "note.md")]
    assert report.in_words() == ("1 added (1 passage) — cancelled too late: note.md had been read, and is "
                                 "stored (Delete removes it)")
