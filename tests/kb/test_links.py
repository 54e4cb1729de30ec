"""Links between pages: read from HTML, resolved, stored with their source, migrated in, and used by search."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tinyrag_desktop.kb import Chunk, Importer, open_readonly, open_store, search
from tinyrag_desktop.kb.errors import NoText
from tinyrag_desktop.kb.html_reader import parse_html
from tinyrag_desktop.kb.links import resolve_link
from tinyrag_desktop.kb.store_file import SCHEMA_VERSION

PAGE = """<html><head><title>Deleting rows</title></head><body>
<div class="navheader"><a href="next.html">Next page in a sentence long enough to count</a></div>
<main><h1>DELETE</h1>
<p>To empty a whole table at once, <a href="truncate.html#top">TRUNCATE</a> is the faster way.</p>
<p><a href="alone.html">alone</a></p>
<dl><dt><a href="vacuum.html">VACUUM</a></dt><dd>Reclaims the space that deleted rows leave behind.</dd></dl>
<table><tr><td><a href="select.html">SELECT</a></td><td>reads rows back from a table or view</td></tr></table>
<p>Write to <a href="mailto:someone@example.org">the list</a> with questions about deleting rows.</p>
</main></body></html>"""


def test_links_in_running_text_are_read_with_their_words():
    doc = parse_html(PAGE, "delete.html")
    by_href = {link.href: link.text for link in doc.links}
    assert "faster way" in by_href["truncate.html#top"]
    assert "DELETE:" in by_href["truncate.html#top"]  # the section heading leads the context
    assert "Reclaims the space" in by_href["vacuum.html"]  # a term's link is described by its definition
    assert "reads rows back" in by_href["select.html"]  # a table row is the link's sentence
    assert "next.html" not in by_href  # navigation is not content
    assert "alone.html" not in by_href  # a bare link says nothing the target's title does not
    assert "mailto:someone@example.org" not in by_href


def test_a_man_page_header_line_is_read():
    page = ("<html><head><title>git-commit(1)</title></head><body><div id='header'><h1>git-commit(1)</h1>"
            "<h2>NAME</h2><p>git-commit - Record changes to the repository</p></div><div id='content'>"
            "<h2>SYNOPSIS</h2><p>git commit [-a] [--amend]</p></div></body></html>")
    texts = [b.text for b in parse_html(page, "git-commit.html").blocks]
    assert texts.index("git-commit - Record changes to the repository") < texts.index("git commit [-a] [--amend]")


def _entries(count: int, term, definition) -> str:
    return "".join(f"<dt>{term(i)}</dt><dd><p>{definition(i)}</p></dd>" for i in range(count))


def test_a_glossary_whose_definitions_are_links_is_content_but_a_linked_index_is_not():
    glossary = _entries(12, lambda i: f"ACR{i}", lambda i: f"<a href='https://example.org/{i}'>Long Name Number {i}</a>")
    index = _entries(12, lambda i: f"<a href='page{i}.html'>Topic number {i}</a>", lambda i: "see there")
    page = ("<html><head><title>Acronyms</title></head><body><h1>Acronyms</h1>"
            f"<div class='variablelist'><dl>{glossary}</dl></div><div><dl>{index}</dl></div></body></html>")
    texts = " ".join(b.text for b in parse_html(page, "acronyms.html").blocks)
    assert "ACR3" in texts and "Long Name Number 3" in texts
    assert "Topic number 3" not in texts
    with pytest.raises(NoText):  # the index alone is navigation, as before
        parse_html(f"<html><body><h1>Index</h1><dl>{index}</dl></body></html>", "index.html")


def test_resolving_links():
    here = os.path.normpath("/docs/manual/delete.html")
    assert resolve_link(here, "truncate.html#top") == os.path.normpath("/docs/manual/truncate.html")
    assert resolve_link(here, "../faq/undo%20it.html?x=1") == os.path.normpath("/docs/faq/undo it.html")
    assert resolve_link(here, "https://example.org/a.html#b") == "https://example.org/a.html"
    assert resolve_link(here, "mailto:me@example.org") == ""
    assert resolve_link(here, "#section") == ""
    assert resolve_link("https://example.org/docs/a.html", "b.html#x") == "https://example.org/docs/b.html"
    assert resolve_link("https://example.org/docs/a.html", "javascript:void(0)") == ""


@given(st.text(max_size=80), st.sampled_from(["/docs/a.html", "https://example.org/x/", "C:\\docs\\a.html"]))
def test_resolving_any_href_never_fails(href, location):
    assert isinstance(resolve_link(location, href), str)


def _add(kb, location: str, title: str, text: str, links=()) -> int:
    return kb.replace_source(title=title, location=location, type="html", size=1, content_hash=location,
                             chunks=[Chunk(title, text)], load_id="test", links=links)


def _link_rows(kb) -> list[tuple[str, str]]:
    return kb.conn.execute("SELECT target, text FROM links ORDER BY id").fetchall()


def test_links_are_replaced_and_removed_with_their_source(data_dir):
    kb = open_store(data_dir)
    sid = _add(kb, "/d/a.html", "A", "alpha text", [("b.html", "bravo is described here"), ("a.html#x", "self")])
    assert _link_rows(kb) == [("/d/b.html", "bravo is described here")]  # links to itself are dropped
    _add(kb, "/d/a.html", "A", "alpha text", [("c.html", "charlie now")])
    assert _link_rows(kb) == [("/d/c.html", "charlie now")]
    assert kb.check_integrity() == []
    assert kb.remove_source(sid)
    assert _link_rows(kb) == []
    assert kb.check_integrity() == []
    kb.close()


def test_a_page_other_pages_describe_is_found_in_their_words(data_dir):
    kb = open_store(data_dir)
    _add(kb, "/d/truncate.html", "TRUNCATE", "TRUNCATE quickly removes all rows from a set of tables.")
    _add(kb, "/d/plane.html", "Paper planes", "Fold a paper plane so it glides far across the room.")
    # Only the overview's link says "empty" and "wipe": the target's own text never does.
    _add(kb, "/d/overview.html", "Overview", "Commands of the system, one per page.",
         [("truncate.html", "To empty or wipe a table, see TRUNCATE.")])
    kb.close()
    hits = search(data_dir, "wipe empty", 3)
    assert hits and hits[0].location == "/d/truncate.html"
    assert hits[0].text.startswith("TRUNCATE quickly")  # the target's own passage is what is shown


def test_importing_html_files_indexes_their_links(tmp_path, data_dir):
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "delete.html").write_text(PAGE, encoding="utf-8")
    (folder / "truncate.html").write_text(
        "<html><head><title>TRUNCATE</title></head><body><main><p>TRUNCATE removes every row of a table."
        "</p></main></body></html>", encoding="utf-8")
    kb = open_store(data_dir)
    report = Importer(kb).run([str(folder)])
    assert len(report.added) == 2
    targets = [Path(t).name for t, _ in _link_rows(kb)]
    assert "truncate.html" in targets and "vacuum.html" in targets
    kb.close()
    # truncate.html never says "faster" or "empty": only delete.html's link to it does.
    found = [Path(h.location).name for h in search(data_dir, "faster way to empty", 5)]
    assert found == ["delete.html", "truncate.html"]


def _make_version_1(data_dir: Path) -> None:
    """A database as schema 1 left it: no link tables, schema_version 1, one HTML and one text source."""
    kb = open_store(data_dir)
    _add(kb, "/d/page.html", "Page", "Lighthouses guide ships at night.", [("other.html", "about others")])
    kb.replace_source(title="Notes", location="/d/notes.txt", type="text", size=1, content_hash="h2",
                      chunks=[Chunk("Notes", "Fog horns sound in thick fog.")], load_id="test")
    kb.conn.executescript(
        "DROP TABLE links_fts; DROP TABLE links; UPDATE meta SET value = '1' WHERE key = 'schema_version';"
    )
    kb.close()


def test_a_version_1_database_is_readable_then_migrated_in_place(data_dir):
    _make_version_1(data_dir)
    conn = open_readonly(data_dir)  # a reader may come first: it works without the link tables
    assert conn is not None and not conn.has_links
    assert search(data_dir, "lighthouses at night", 1)[0].location == "/d/page.html"
    conn.close()
    kb = open_store(data_dir)
    assert kb.conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
    hashes = dict(kb.conn.execute("SELECT location, content_hash FROM sources"))
    assert hashes["/d/page.html"] != "/d/page.html"  # marked: the next import re-reads it for its links
    assert hashes["/d/notes.txt"] == "relink:h2"  # text files may hold links too (since schema 3)
    assert [c.text for c in kb.chunks(kb.source_by_location("/d/page.html").id)] == ["Lighthouses guide ships at night."]
    assert kb.check_integrity() == []
    kb.close()
    kb = open_store(data_dir)  # opening again changes nothing more
    assert dict(kb.conn.execute("SELECT location, content_hash FROM sources")) == hashes
    kb.close()
    reader = open_readonly(data_dir)
    assert reader is not None and reader.has_links
    reader.close()


def test_a_version_2_database_re_reads_markdown_for_its_links_and_keeps_html(tmp_path, data_dir):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "index.md").write_text("# Index\n\nWhen the boiler makes a knocking noise, read [bleeding "
                                    "radiators](bleed.md) first.\n", encoding="utf-8")
    (notes / "bleed.md").write_text("# Bleeding radiators\n\nOpen the valve until water appears.\n",
                                    encoding="utf-8")
    (notes / "page.html").write_text(PAGE, encoding="utf-8")
    kb = open_store(data_dir)
    Importer(kb).run([str(notes)])
    # As version 2 left it: Markdown was read without its links.
    kb.conn.executescript("INSERT INTO links_fts(links_fts, rowid, text)"
                          " SELECT 'delete', id, text FROM links WHERE target LIKE '%.md';"
                          "DELETE FROM links WHERE target LIKE '%.md';"
                          "UPDATE meta SET value = '2' WHERE key = 'schema_version';")
    kb.close()
    assert search(data_dir, "knocking noise", 5)[0].location.endswith("index.md")
    kb = open_store(data_dir)
    hashes = {Path(loc).name: h for loc, h in kb.conn.execute("SELECT location, content_hash FROM sources")}
    assert hashes["index.md"].startswith("relink:") and not hashes["page.html"].startswith("relink:")
    report = Importer(kb).run([str(notes)])
    assert sorted(Path(p).name for p in report.updated) == ["bleed.md", "index.md"]
    assert [Path(p).name for p in report.unchanged] == ["page.html"]
    kb.close()
    assert [Path(h.location).name for h in search(data_dir, "knocking noise", 5)] == ["index.md", "bleed.md"]


def test_a_newer_schema_is_refused_not_damaged(data_dir):
    kb = open_store(data_dir)
    kb.conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    kb.close()
    try:
        open_store(data_dir)
    except Exception as exc:  # StoreError, with a message saying what to do
        assert "newer version" in str(exc)
    else:
        raise AssertionError("a database from a newer version was opened")
    conn = sqlite3.connect(data_dir / "knowledge.db")
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == "99"
    conn.close()


def test_common_words_left_out_of_the_query_still_count():
    from tinyrag_desktop.kb.models import Hit
    from tinyrag_desktop.kb.coverage import _concepts, _rerank_by_coverage
    from tinyrag_desktop.kb.search import _common_groups, _Pruned

    plain = Hit(1, 1, "Zebras", "/z1", "Zebras", "A zebra has stripes and a table.", 2.0)
    tabled = Hit(2, 2, "Zebras", "/z2", "Zebras", "A zebra table lists zebras and their tables.", 1.9)
    words = ["zebra", "table"]
    common = _common_groups(_Pruned(kept=["zebra"], common=["table"], size=1000, cap=100), words)
    assert list(common) == ["c1"]
    # Both cover both words; "table" twice outweighs "table" once, as BM25 would have it.
    assert [h.chunk_id for h in _rerank_by_coverage([plain, tabled], _concepts(words), common)] == [2, 1]
    assert [h.chunk_id for h in _rerank_by_coverage([plain, tabled], _concepts(words))] == [1, 2]


def test_a_large_index_leaves_out_common_words_yet_ranks_with_them(data_dir, monkeypatch):
    import sys

    search_module = sys.modules["tinyrag_desktop.kb.search"]
    monkeypatch.setattr(search_module, "PRUNE_MIN_ROWS", 4)
    kb = open_store(data_dir)
    for n in range(20):  # "table" is in every chunk: the SQL query leaves it out
        _add(kb, f"/d/{n}.html", f"Page {n}", f"Filler table text number {n}.")
    _add(kb, "/d/zebra.html", "Zebra", "The zebra grazes on the plain.")
    _add(kb, "/d/zebra-table.html", "Zebra table", "The zebra table lists every zebra by its table of stripes.")
    kb.close()
    conn = open_readonly(data_dir)
    assert search_module._without_common_terms(conn, ["zebra", "table"]).common == ["table"]
    conn.close()
    assert [Path(h.location).name for h in search(data_dir, "zebra table", 2)] == ["zebra-table.html", "zebra.html"]
    assert search(data_dir, "table", 1)  # when every word is common, none is left out


def _filler_pages(data_dir, monkeypatch):
    """The search module, an index counted as large, and a writer to it holding 20 pages with "table"."""
    import sys

    search_module = sys.modules["tinyrag_desktop.kb.search"]
    monkeypatch.setattr(search_module, "PRUNE_MIN_ROWS", 4)
    kb = open_store(data_dir)
    for n in range(20):
        _add(kb, f"/d/{n}.html", f"Page {n}", f"Filler table text number {n}.")
    return search_module, kb


def _counting(conn) -> list[str]:
    """The statements that count a word's chunks, as ``conn`` runs them."""
    counted: list[str] = []
    conn.set_trace_callback(lambda sql: counted.append(sql) if "count(*) FROM (SELECT rowid" in sql else None)
    return counted


def test_a_connection_counts_a_word_once_until_the_index_changes(data_dir, monkeypatch):
    search_module, kb = _filler_pages(data_dir, monkeypatch)
    _add(kb, "/d/zebra.html", "Zebra", "The zebra grazes on the plain.")
    conn = open_readonly(data_dir)
    counted = _counting(conn)

    first = search_module._without_common_terms(conn, ["zebra", "table"])
    assert first.counts == {"zebra": 1, "table": 5}  # counting stops at cap + 1 (cap: a tenth of 21, at least 4)
    assert first.common == ["table"] and len(counted) == 2
    again = search_module._without_common_terms(conn, ["table", "zebra", "plain"])
    assert again.counts == {"table": 5, "zebra": 1, "plain": 1}
    assert len(counted) == 3  # only "plain" was new
    assert search_module.search(conn, "zebra plain", 1)[0].location == "/d/zebra.html"
    assert len(counted) == 3  # the search and its relevance used the kept counts

    # Another connection commits: the counts are taken again, and see the new chunks.
    for n in range(3):
        _add(kb, f"/d/zebra{n}.html", f"Zebra {n}", "Another zebra, a striped one.")
    kb.close()
    third = search_module._without_common_terms(conn, ["zebra", "table"])
    assert third.counts == {"zebra": 4, "table": 5} and len(counted) == 5
    conn.close()


def test_counts_without_a_guarded_connection_are_taken_every_time(data_dir, monkeypatch):
    search_module, kb = _filler_pages(data_dir, monkeypatch)
    kb.close()
    conn = sqlite3.connect(data_dir / "knowledge.db")  # a plain connection: nothing says when it changes
    counted = _counting(conn)
    for _ in range(2):
        pruned = search_module._without_common_terms(conn, ["table", "zebra"])
        assert pruned.counts == {"table": 5, "zebra": 0} and pruned.common == ["table"]
    assert len(counted) == 4
    conn.close()
