"""A removed source's text is not left readable in knowledge.db (removals run with secure_delete ON), and the
file gives its free pages back to the disk once they are a large share of it (compact.py): after ``kb
remove`` and after the panel's Delete, off the GUI thread, with searches reading on."""

from __future__ import annotations

from pathlib import Path

import pytest

from tinyrag_desktop import sqlitefiles
from tinyrag_desktop.kb import Chunk, Importer, open_store, search

from .cli_run import run_main

SECRET = b"quokka password"


def _files(data: Path) -> bytes:
    """Every byte of the knowledge base: the database, and its write-ahead log when one is left."""
    return b"".join(p.read_bytes() for p in sorted(data.iterdir()) if p.name.startswith("knowledge.db"))


def test_a_removed_sources_text_is_not_left_in_the_file(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "secret.md").write_text("# Secret\n\n" + "\n\n".join(
        f"Paragraph {n}: the quokka password is marmalade{n}, kept private." for n in range(400)))
    (docs / "keep.md").write_text("# Keep\n\nThe heron stays.\n")
    data = tmp_path / "data"
    with open_store(data) as kb:
        Importer(kb).run([str(docs)])
        [secret] = [s.id for s in kb.sources() if s.location.endswith("secret.md")]
        assert kb.remove_sources([secret]) == 1
        assert kb.conn.execute("PRAGMA secure_delete").fetchone()[0] == 2  # imports go on with FAST
    assert SECRET not in _files(data)
    assert search(data, "heron", 5)


def _fill(data: Path, tmp_path: Path, count: int = 60) -> list[int]:
    """``count`` sources of about 40 KB each, stored as an import stores them; their ids."""
    with open_store(data) as kb:
        return [kb.replace_source(title=f"note {n}", location=str(tmp_path / f"n{n}.md"), type="markdown",
                                  size=40_000, content_hash=f"h{n}", load_id="test",
                                  chunks=[Chunk(f"Part {p}", f"note{n} part{p} quokka password {'heron ' * 300}")
                                          for p in range(20)])
                for n in range(count)]


@pytest.fixture
def small_threshold(monkeypatch):
    monkeypatch.setattr(sqlitefiles, "COMPACT_LEAST", 256 * 1024)  # the test's files are a few MB


def test_kb_remove_compacts_a_file_mostly_free(tmp_path, capsys, small_threshold):
    data = tmp_path / "data"
    ids = _fill(data, tmp_path)
    before = (data / "knowledge.db").stat().st_size
    code, out, err = run_main(capsys, "--data-dir", str(data), "remove", *map(str, ids[:50]))
    assert code == 0
    assert out.startswith("50 sources removed\nknowledge.db compacted from ")
    after = (data / "knowledge.db").stat().st_size
    assert after < before / 3
    assert b"note3 part" not in _files(data) and b"note55 part" in _files(data)
    assert search(data, "note55", 5) and search(data, "note3", 5) == []
    with open_store(data) as kb:
        assert kb.check_integrity() == [] and len(kb.sources()) == 10
    code, out, err = run_main(capsys, "--data-dir", str(data), "remove", str(ids[50]))
    assert out == "1 source removed\n"  # a tenth of what is left: not worth rewriting the file


def test_the_panels_delete_compacts_off_the_gui_thread_while_searches_read(qtbot, panel, tmp_path, small_threshold):
    ids = _fill(panel.data_dir, tmp_path)
    assert search(panel.data_dir, "note59", 5)  # a reader kept open across the Delete
    before = (panel.data_dir / "knowledge.db").stat().st_size
    panel.refresh()
    panel.sources_view.selectAll()
    shown = []
    panel._relay.compacting.connect(lambda removed: shown.append(panel.status_label.text()))
    with qtbot.waitSignal(panel.deleteFinished, timeout=60_000) as deleted:
        with open_store(panel.data_dir) as kb:  # keep the last ten: select all, then leave them out
            keep = {s.location for s in kb.sources() if s.id in ids[50:]}
        model, view = panel.sources_model, panel.sources_view
        for row in range(model.rowCount()):
            if model.source(row).location in keep:
                view.selectionModel().select(model.index(row, 0), view.selectionModel().SelectionFlag.Deselect
                                             | view.selectionModel().SelectionFlag.Rows)
        assert panel.delete_selected(confirm=False) == 50
    assert deleted.args == [50]
    assert shown == ["50 sources removed; compacting the knowledge base to give the space they took back to the "
                     "disk…"]
    assert panel.status_label.text().startswith("50 sources removed; knowledge.db compacted from ")
    assert (panel.data_dir / "knowledge.db").stat().st_size < before / 3
    assert [h for h in search(panel.data_dir, "note59", 5)]
    assert search(panel.data_dir, "note5", 5) == []


def test_what_older_removals_left_in_free_pages_is_cleared_by_the_next_removal(tmp_path, capsys, monkeypatch):
    from contextlib import nullcontext

    from tinyrag_desktop.kb import store

    data = tmp_path / "data"
    ids = _fill(data, tmp_path, 12)
    with monkeypatch.context() as older:  # removed as an older version removed (secure_delete FAST)
        older.setattr(store, "scrubbing", lambda conn, after: nullcontext())
        with open_store(data) as kb:
            kb.remove_sources([ids[0]])
            free, pages = (kb.conn.execute(f"PRAGMA {name}").fetchone()[0] for name in ("freelist_count", "page_count"))
    assert 0 < free < pages / 4  # a few free pages, far below the share worth compacting for
    assert b"note0 part" in _files(data)
    code, out, err = run_main(capsys, "--data-dir", str(data), "remove", str(ids[1]))
    assert out == "1 source removed\n"  # said as ever
    assert b"note0 part" not in _files(data) and b"note1 part" not in _files(data)
    code, out, err = run_main(capsys, "--data-dir", str(data), "remove", str(ids[2]))
    with open_store(data) as kb:  # once: later small removals leave the file as it is (their pages zeroed)
        assert kb.conn.execute("PRAGMA freelist_count").fetchone()[0] > 0
    assert b"note2 part" not in _files(data) and search(data, "note11", 5)


def test_a_search_in_the_middle_of_a_read_goes_on_while_the_file_is_compacted(tmp_path, capsys, small_threshold):
    import sqlite3

    data = tmp_path / "data"
    ids = _fill(data, tmp_path)
    reader = sqlite3.connect(data / "knowledge.db", isolation_level=None)
    reader.execute("BEGIN")
    assert reader.execute("SELECT count(*) FROM sources").fetchone() == (60,)
    code, out, err = run_main(capsys, "--data-dir", str(data), "remove", *map(str, ids[:50]))
    assert code == 0 and "knowledge.db compacted from " in out
    assert reader.execute("SELECT count(*) FROM chunks").fetchone() == (1200,)  # its snapshot, whole
    reader.execute("COMMIT")
    assert reader.execute("SELECT count(*) FROM chunks").fetchone() == (200,)
    reader.close()
    assert search(data, "note55", 5)
    with open_store(data) as kb:
        assert kb.check_integrity() == []
