"""Imports of what a folder may really hold: pipes, broken and looping links, unreadable folders, odd names."""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path

import pytest

from tinyrag_desktop.kb import Importer, StoreError, open_store, search
from tinyrag_desktop.kb import ingest as ingest_module
from tinyrag_desktop.kb.models import Chunk

NOTE = "# Kettles\n\nDescale the kettle with citric acid every month in hard-water areas.\n"


def _import(data_dir: Path, items, timeout: float = 20.0):
    """Run an import on a thread, so a hang fails the test instead of stalling the suite."""
    result: list = []

    def work():
        with open_store(data_dir) as kb:  # a connection belongs to the thread that opened it
            result.append(Importer(kb).run(items))

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), "the import hung"
    return result[0]


def test_an_empty_path_imports_nothing_instead_of_the_current_folder(data_dir, tmp_path, monkeypatch):
    (tmp_path / "here.md").write_text(NOTE)
    monkeypatch.chdir(tmp_path)
    report = _import(data_dir, ["", "  "])
    assert [f.reason for f in report.failed] == ["an empty path: name a file or a folder"] * 2
    assert report.added == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
def test_a_named_pipe_is_skipped_not_waited_on(data_dir, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "real.md").write_text(NOTE)
    os.mkfifo(folder / "pipe.txt")
    report = _import(data_dir, [str(folder)])
    assert report.added == [str(folder / "real.md")]
    said = "a named pipe (FIFO), not a file: save what it gives to a file (… > notes.txt) and import that"
    assert (str(folder / "pipe.txt"), said) in [(f.location, f.reason) for f in report.skipped]
    direct = _import(data_dir, [str(folder / "pipe.txt")])
    assert direct.failed[0].reason == said


def test_links_broken_looping_and_to_folders(data_dir, tmp_path):
    folder = tmp_path / "docs"
    real = folder / "Archive"  # inside the folder (a link out of it is not followed); walked before links
    real.mkdir(parents=True)
    (real / "kettle.md").write_text(NOTE)
    (folder / "linked").symlink_to(real)              # a linked folder: followed
    (folder / "again").symlink_to(real)               # the same folder twice: read once
    (folder / "loop").symlink_to(folder)              # a link back up: ends there
    (folder / "gone.md").symlink_to(tmp_path / "nowhere.md")
    report = _import(data_dir, [str(folder)])
    assert report.added == [str(real / "kettle.md")]
    skipped = {Path(f.location).name: f.reason for f in report.skipped}
    assert skipped == {"gone.md": "a link to something that does not exist",  # the link's name, not its target
                       "loop": "a link to a folder already imported",
                       "again": "a link to a folder already imported",
                       "linked": "a link to a folder already imported"}


def test_a_folder_that_cannot_be_listed_is_reported(data_dir, tmp_path, monkeypatch):
    folder = tmp_path / "docs"
    (folder / "locked").mkdir(parents=True)
    (folder / "open.md").write_text(NOTE)
    real_scandir = os.scandir

    def scandir(path="."):  # chmod 000 does not stop root, who runs CI: refuse as the kernel would
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    report = _import(data_dir, [str(folder)])
    assert report.added == [str(folder / "open.md")]
    assert (str(folder / "locked"), "could not be read (Permission denied)") in \
        [(f.location, f.reason) for f in report.skipped]


def test_a_file_name_that_is_not_utf8_gets_a_reason_not_a_traceback(data_dir, tmp_path):
    name = os.fsdecode(b"bad\xff\xfename.md")
    try:
        (tmp_path / name).write_text(NOTE)
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system refuses such names")
    report = _import(data_dir, [str(tmp_path)])
    assert report.failed[0].reason == "its name is not valid text (UTF-8); rename the file to import it"
    assert report.added == []


def test_a_file_url_is_read_as_the_file(data_dir, tmp_path):
    (tmp_path / "kettle notes.md").write_text(NOTE)
    report = _import(data_dir, [(tmp_path / "kettle notes.md").as_uri()])
    assert report.added == [str(tmp_path / "kettle notes.md")]


def test_a_source_that_cannot_be_read_again_says_its_old_version_stays(data_dir, tmp_path):
    note = tmp_path / "kettle.md"
    note.write_text(NOTE)
    assert _import(data_dir, [str(note)]).added
    note.write_text("")
    report = _import(data_dir, [str(note)])
    reasons = [f.reason for f in report.failed + report.skipped]
    assert len(reasons) == 1 and "stays in the knowledge base" in reasons[0]
    assert search(data_dir, "descale kettle", 1)  # still found, as the message says


def test_a_full_disk_is_reported_as_such_and_the_store_stays_usable(data_dir):
    with open_store(data_dir) as kb:
        kb.replace_source(title="Small", location="/small.md", type="markdown", size=10, content_hash="a",
                          chunks=[Chunk("Small", "a small text")], load_id="x")
        pages = kb.conn.execute("PRAGMA page_count").fetchone()[0]
        kb.conn.execute(f"PRAGMA max_page_count = {pages + 2}")  # what a full disk looks like to SQLite
        big = [Chunk("Big", f"words {n} " * 200) for n in range(200)]
        with pytest.raises(StoreError) as failure:
            kb.replace_source(title="Big", location="/big.md", type="markdown", size=10**6, content_hash="b",
                              chunks=big, load_id="x")
        assert "full" in str(failure.value) and "no transaction" not in str(failure.value)
        assert not kb.conn.in_transaction
        assert [s.location for s in kb.sources()] == ["/small.md"]
        kb.conn.execute("PRAGMA max_page_count = 1073741823")
        assert kb.remove_source(kb.sources()[0].id)
    with sqlite3.connect(data_dir / "knowledge.db") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_full_disk_stops_a_folder_import_at_the_first_file_it_fails(data_dir, tmp_path, monkeypatch):
    monkeypatch.setattr(ingest_module, "STORE_EVERY", 0)  # each file stored before the next is read
    docs = tmp_path / "docs"
    docs.mkdir()
    for n in range(6):
        (docs / f"note{n}.md").write_text(f"# Note {n}\n\n" + f"kettle descaling word{n} " * 3000)
    with open_store(data_dir) as kb:
        kb.conn.execute(f"PRAGMA max_page_count = {kb.conn.execute('PRAGMA page_count').fetchone()[0] + 60}")
        report = Importer(kb).run([str(docs)])
    assert 1 <= len(report.added) < 5, report.summary()
    assert len(report.failed) == 1 and "the disk it is on is full" in report.failed[0].reason
    assert report.not_tried == 6 - len(report.added) - 1
    assert report.summary().endswith(f"stopped, the disk is full: {report.not_tried} more not imported")
    with open_store(data_dir) as kb:  # what was stored is whole, and nothing of the failed file
        assert sorted(s.location for s in kb.sources()) == sorted(report.added)
        assert kb.check_integrity() == []


def test_kb_add_stopped_by_a_full_disk_exits_with_failure(data_dir, tmp_path, monkeypatch, capsys):
    # files it never tried were not imported: a script (a nightly sync) must not take that for success
    from tinyrag_desktop.cli import main
    from tinyrag_desktop.kb import DiskFull, KnowledgeBase

    monkeypatch.setattr(ingest_module, "STORE_EVERY", 0)  # each file stored before the next is read
    docs = tmp_path / "docs"
    docs.mkdir()
    for n in range(4):
        (docs / f"note{n}.md").write_text(f"# Note {n}\n\nkettle descaling word{n}\n")
    replace = KnowledgeBase.replace_source

    def fill_up(kb, **fields):
        if kb.sources():
            raise DiskFull(f"Could not save {fields['location']} in the knowledge base: the disk it is on is full.")
        return replace(kb, **fields)

    monkeypatch.setattr(KnowledgeBase, "replace_source", fill_up)
    assert main(["kb", "add", str(docs), "--data-dir", str(data_dir)]) == 1
    out = capsys.readouterr().out
    assert "1 added" in out and "stopped, the disk is full: 2 more not imported" in out


def test_a_file_reached_twice_is_imported_once_and_the_second_time_said(data_dir, tmp_path):
    # "kettle.md: already in this import (through a link or twice named)" named no link: alias.md took it
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "kettle.md").write_text(NOTE)
    (docs / "alias.md").symlink_to(docs / "kettle.md")
    report = _import(data_dir, [str(docs), str(docs / "kettle.md")])
    assert report.added == [str(docs / "kettle.md")] and report.unchanged == []
    assert [f.reason for f in report.skipped] == ["already in this import, through the link alias.md"] * 2


def test_a_link_met_after_its_file_is_named_and_a_file_named_twice_is_said_so(data_dir, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "kettle.md").write_text(NOTE)
    (docs / "zz-kettle.md").symlink_to("kettle.md")  # after the file, in the folder's order
    report = _import(data_dir, [str(docs), str(docs / "kettle.md")])
    assert report.added == [str(docs / "kettle.md")]
    assert [(Path(f.location).name, f.reason) for f in report.skipped] == [
        ("zz-kettle.md", "a link to kettle.md, which is in this import already"),
        ("kettle.md", "already in this import (named twice)")]


@pytest.mark.parametrize("start", ["MZ-80K owners' notes", "ID3 tags explained", "GIF89a and its frames", "OggS pages"])
def test_text_that_starts_like_a_file_signature_is_read_as_text(data_dir, tmp_path, start):
    note = tmp_path / "note.txt"
    note.write_text(f"{start}\n\nA plain note about old formats, written by hand.\n")
    report = _import(data_dir, [str(note)])
    assert report.added == [str(note)], report.failed


def test_a_real_windows_program_is_still_refused(data_dir, tmp_path):
    program = tmp_path / "setup.txt"
    program.write_bytes(b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00" + bytes(range(256)) * 8)
    report = _import(data_dir, [str(program)])
    assert report.failed and "Windows program" in report.failed[0].reason


def test_many_sources_are_removed_in_one_go_and_leave_nothing_behind(data_dir, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for n in range(30):
        (docs / f"note{n}.md").write_text(f"# Note {n}\n\nThe kettle{n} descaling schedule for office {n}.\n")
    assert len(_import(data_dir, [str(docs)]).added) == 30
    with open_store(data_dir) as kb:
        ids = [s.id for s in kb.sources()]
        assert kb.remove_sources(ids[:20] + ids[:1] + [10**9]) == 20  # an id twice, one that is not there
        assert len(kb.sources()) == 10 and kb.check_integrity() == []
        left = {s.location for s in kb.sources()}
    assert {h.location for h in search(data_dir, "kettle descaling schedule office", 30)} == left


@pytest.mark.parametrize("order", ["folder first", "file first"])
def test_a_hidden_file_named_beside_its_folder_is_imported_and_not_said_skipped(data_dir, tmp_path, order):
    # `kb add c14 c14/.env` imported .env and listed it as "skipped: hidden file" too
    folder = tmp_path / "c14"
    folder.mkdir()
    (folder / "real.md").write_text(NOTE)
    (folder / ".env").write_text("GREETING=hello from the hidden file\n")
    (folder / ".other").write_text("not named\n")
    named = [str(folder), str(folder / ".env")]
    report = _import(data_dir, named if order == "folder first" else named[::-1])
    assert sorted(Path(p).name for p in report.added) == [".env", "real.md"]
    assert [(Path(f.location).name, f.reason) for f in report.skipped] == [(".other", "hidden file")]
