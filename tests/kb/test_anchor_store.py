"""Anchors in the store: chunks.anchor, added in place to a knowledge base made before it (the schema stays 4:
an older tinyRAG still opens the file), and the anchor on every search hit."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from tinyrag_desktop.kb import Importer, KnowledgeBase, open_store, release, search
from tinyrag_desktop.kb.store import needs_rebuild
from tinyrag_desktop.kb.store_file import SCHEMA_VERSION, db_path

_LONG = " ".join(["The server keeps this much memory for each sort before it writes to temporary files."] * 12)


def _manual(folder: Path) -> Path:
    """A folder with a reference page in DocBook's shape and a Markdown note."""
    folder.mkdir()
    terms = "".join(f'<dt id="GUC-{name.upper()}"><span class="term">{name}</span></dt><dd><p>{name} {_LONG}</p></dd>'
                    for name in ("shared_buffers", "work_mem"))
    (folder / "resource.html").write_text(
        '<html><head><title>Resource Consumption</title></head><body>'
        '<div class="sect1" id="RUNTIME-CONFIG-RESOURCE"><h2>Resource Consumption</h2>'
        f'<div class="sect2" id="MEMORY"><h3>Memory</h3><dl class="variablelist">{terms}</dl></div>'
        '<div class="sect2" id="DISK"><h3>Disk</h3><p>Temporary tablespaces hold spilled sorts of zebras.</p></div>'
        "</div></body></html>", encoding="utf-8")
    (folder / "note.md").write_text("# Zebras\n\nA zebra note in Markdown, about stripes.\n", encoding="utf-8")
    return folder


def _rows(kb: KnowledgeBase) -> list[tuple]:
    return kb.conn.execute("SELECT s.location, s.title, s.content_hash, c.ordinal, c.heading, c.text FROM chunks c"
                           " JOIN sources s ON s.id = c.source_id ORDER BY c.id").fetchall()


def test_imported_html_passages_are_stored_and_found_with_their_anchor(tmp_path):
    data = tmp_path / "data"
    folder = _manual(tmp_path / "docs")
    with open_store(data) as kb:
        Importer(kb).run([str(folder)])
        html = kb.source_by_location(str((folder / "resource.html").resolve()))
        anchors = [c.anchor for c in kb.chunks(html.id)]
        note = kb.source_by_location(str((folder / "note.md").resolve()))
        assert [c.anchor for c in kb.chunks(note.id)] == [None]
    assert anchors[0] == "MEMORY" and "GUC-WORK_MEM" in anchors and anchors[-1] == "DISK"
    hits = search(data, "work_mem memory for each sort", 3)
    assert hits[0].location.endswith("resource.html") and hits[0].anchor == "GUC-WORK_MEM"
    assert search(data, "zebra stripes", 1)[0].anchor is None  # the Markdown note


def _as_schema_4(data: Path) -> None:
    """The knowledge base in ``data`` as tinyRAG before anchors left it: chunks without an anchor column."""
    with sqlite3.connect(db_path(data)) as conn:
        conn.execute("ALTER TABLE chunks DROP COLUMN anchor")
    conn.close()


def test_a_schema_4_knowledge_base_is_searched_then_migrated_in_place_keeping_everything(tmp_path, monkeypatch):
    data = tmp_path / "data"
    folder = _manual(tmp_path / "docs")
    with open_store(data) as kb:
        Importer(kb).run([str(folder)])
        before = _rows(kb)
        links = kb.conn.execute("SELECT * FROM links ORDER BY id").fetchall()
    _as_schema_4(data)
    assert not needs_rebuild(data)  # adding a column is instant: no rebuild of the index off the GUI thread

    # read before any writer opened it (kb search, the window's searches): no anchor, no failure
    old_hits = search(data, "work_mem memory for each sort", 3)
    assert old_hits[0].location.endswith("resource.html") and old_hits[0].anchor is None
    # a knowledge base in a folder this user cannot write is listed as it is, without the column
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode: mode != os.W_OK and real_access(path, mode))
    with KnowledgeBase(db_path(data)) as readonly:
        assert readonly.readonly
        location = readonly.source(1).location
        assert [(c.heading, c.text, c.anchor) for c in readonly.chunks(1)] == [
            (heading, text, None) for where, _, _, _, heading, text in before if where == location]
    monkeypatch.undo()

    with open_store(data) as kb:
        assert kb.conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == "4"
        assert SCHEMA_VERSION == 4  # an older tinyRAG opens the file still: it only lacks the anchors
        assert "anchor" in {row[1] for row in kb.conn.execute("PRAGMA table_info(chunks)")}
        assert _rows(kb) == before  # every source and passage as it was
        assert kb.conn.execute("SELECT * FROM links ORDER BY id").fetchall() == links
        assert kb.conn.execute("SELECT count(*) FROM chunks WHERE anchor IS NOT NULL").fetchone()[0] == 0
        assert kb.check_integrity() == []
        # nothing changed in the files: an import keeps them (and their NULL anchors: they open at the top)
        report = Importer(kb).run([str(folder)])
        assert len(report.unchanged) == 2
        assert kb.conn.execute("SELECT count(*) FROM chunks WHERE anchor IS NOT NULL").fetchone()[0] == 0
        hit = search(data, "work_mem memory for each sort", 3)[0]
        assert hit.anchor is None and hit.text == old_hits[0].text
        # imported again (Re-import), the page's passages get their anchors; their texts stay the same
        Importer(kb, force=True).run([str(folder)])
        assert sorted(row[:2] + row[3:] for row in _rows(kb)) == sorted(row[:2] + row[3:] for row in before)
    # the search's connection, opened on the schema-4 file before the migration, reads them now
    assert search(data, "work_mem memory for each sort", 3)[0].anchor == "GUC-WORK_MEM"
    release()
