"""Search: query sanitising (any string is safe), the read-only guarded connection, ranking basics."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tinyrag_desktop.kb import Chunk, has_documents, open_readonly, open_store, query_terms, search
from tinyrag_desktop.kb.query_words import match_expression

search_module = sys.modules["tinyrag_desktop.kb.search"]


def _add(kb, location: str, title: str, *texts: str, heading: str = "") -> int:
    chunks = [Chunk(heading or title, t) for t in texts]
    return kb.replace_source(title=title, location=location, type="text", size=1, content_hash=location,
                             chunks=chunks, load_id="test")


@pytest.fixture
def filled(data_dir: Path) -> Path:
    kb = open_store(data_dir)
    _add(kb, "/docs/returns.md", "Return policy", "Items can be returned within 30 days with a receipt.")
    _add(kb, "/docs/shipping.md", "Shipping", "Parcels ship on weekdays. Express delivery costs extra.")
    _add(kb, "/docs/café.md", "Café menu", "The café serves crème brûlée and espresso.")
    _add(kb, "/docs/ops.md", "Operators", 'Use NEAR and "quotes" -minus (parens) col:value * stars.')
    kb.close()
    return data_dir


def test_everyday_question_finds_the_passage(filled):
    hits = search(filled, "can I return something I bought?", 2)
    assert hits[0].location == "/docs/returns.md"
    assert hits[0].title == "Return policy"
    assert hits[0].score > 0


def test_stemming_and_diacritics(filled):
    assert search(filled, "returning items", 1)[0].location == "/docs/returns.md"
    assert search(filled, "creme brulee cafe", 1)[0].location == "/docs/café.md"


@pytest.mark.parametrize("query", ['NEAR("quotes" minus)', '"quotes', "col:value", "-minus", "stars*", "(parens",
                                   "NEAR AND NOT", "^quotes", "quotes + minus"])
def test_operators_are_words_not_syntax(filled, query):
    hits = search(filled, query, 5)
    assert hits and hits[0].location == "/docs/ops.md"


def test_empty_or_meaningless_queries_return_nothing(filled):
    assert search(filled, "", 5) == []
    assert search(filled, "   ?!* ", 5) == []
    assert search(filled, "returns", 0) == []


def test_stop_words_are_dropped_unless_nothing_else_is_left(filled):
    assert query_terms("what is the") == ["what", "is", "the"]
    assert query_terms("How do I return IT?") == ["return"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=200))
def test_any_string_searches_without_error(filled, text):
    hits = search(filled, text, 5)
    assert len(hits) <= 5


@given(st.text(max_size=80))
def test_match_expression_only_quotes_terms(text):
    expr = match_expression(query_terms(text))
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(a)")
    conn.execute("SELECT * FROM t WHERE t MATCH ?", (expr,)).fetchall() if expr else None


def test_readonly_connection_refuses_writes_and_other_tables(filled):
    conn = open_readonly(filled)
    assert conn is not None
    for sql in ("DELETE FROM chunks", "INSERT INTO sources(title) VALUES('x')", "DROP TABLE chunks",
                "SELECT * FROM meta", "SELECT * FROM sqlite_master", "PRAGMA journal_mode=DELETE",
                "ATTACH DATABASE ':memory:' AS other", "SELECT load_extension('x')"):
        with pytest.raises(sqlite3.DatabaseError):
            conn.execute(sql).fetchall()
    assert search_module.search(conn, "receipt", 1)[0].location == "/docs/returns.md"
    conn.close()


def test_has_documents(data_dir, filled):
    assert has_documents(filled)
    empty = data_dir.parent / "empty"
    empty.mkdir()
    assert not has_documents(empty)
    assert search(empty, "anything", 5) == []
    kb = open_store(empty)
    kb.close()
    assert not has_documents(empty)


def test_remove_source_removes_it_from_search(filled):
    kb = open_store(filled)
    sid = kb.source_by_location("/docs/shipping.md").id
    assert kb.remove_source(sid)
    assert not kb.remove_source(sid)
    assert kb.check_integrity() == []
    kb.close()
    assert search(filled, "express delivery parcels", 5) == [] or all(
        h.location != "/docs/shipping.md" for h in search(filled, "express delivery parcels", 5))


def test_results_spread_over_sources(data_dir):
    kb = open_store(data_dir)
    _add(kb, "/a", "Alpha", *[f"otters swim in rivers, part {n}" for n in range(8)])
    _add(kb, "/b", "Beta", "otters eat fish")
    kb.close()
    hits = search(data_dir, "otters", 3)
    assert {h.location for h in hits} == {"/a", "/b"}
    assert len(hits) == 3


def test_a_file_that_is_not_a_database_gives_a_clear_error(data_dir):
    (data_dir / "knowledge.db").write_bytes(b"this is not sqlite" * 100)
    from tinyrag_desktop.kb import StoreError

    with pytest.raises(StoreError, match="cannot be"):
        search(data_dir, "x", 5)
    assert not has_documents(data_dir)


def test_copies_of_a_document_in_two_formats_take_one_place(data_dir):
    kb = open_store(data_dir)
    _add(kb, "/docs/guide.md", "Guide", "herons stand still in shallow water")
    _add(kb, "/docs/guide.html", "Guide", "herons stand still in shallow water, waiting")
    _add(kb, "/docs/birds.md", "Birds", "herons and egrets")
    _add(kb, "/docs/other/guide.txt", "Another guide", "herons fly")
    kb.close()
    hits = search(data_dir, "herons", 3)
    locations = [h.location for h in hits]
    assert len({"/docs/guide.md", "/docs/guide.html"} & set(locations)) == 1
    assert {"/docs/birds.md", "/docs/other/guide.txt"} <= set(locations)
