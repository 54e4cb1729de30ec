"""Hits.relevance: how much of the question the best passage is about, which decides whether the rag
route puts passages into the prompt unasked (engine.PROMPT_RELEVANCE)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tinyrag_desktop.tools.rag import RELEVANT_SHARE as PROMPT_RELEVANCE
from tinyrag_desktop.kb import Importer, open_store, search

# A manual's pages: "table", "column" and "name" in every one (common, weighing little), each with words
# of its own (rare, weighing much).
TOPICS = {
    "vacuum": "VACUUM reclaims storage occupied by dead tuples after updates and deletes.",
    "sequence": "A sequence generates unique identifiers, often for a serial primary key.",
    "trigger": "A trigger runs a function automatically when rows are inserted or updated.",
    "index": "A B-tree index speeds up lookups and sorting on the indexed expression.",
    "privilege": "GRANT gives a role privileges such as SELECT or INSERT on the object.",
}


@pytest.fixture(scope="module")
def manual(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("manual")
    docs = tmp_path_factory.mktemp("docs")  # beside the data folder: a folder's import skips what is in it
    for n in range(60):
        topic, text = list(TOPICS.items())[n % len(TOPICS)]
        (docs / f"page{n}.md").write_text(
            f"# {topic.title()} {n}\n\nEvery table has a column with a name. {text} Page {n} of the manual.\n")
    with open_store(data) as kb:
        assert len(Importer(kb).run([str(docs)]).added) == 60
    return data


def test_a_question_about_the_pages_is_relevant(manual):
    hits = search(manual, "what does vacuum do with the storage of dead tuples", 5, spelling=False)
    assert hits and hits.relevance == pytest.approx(1.0)


def test_a_question_sharing_only_their_common_words_is_not(manual):
    # "name" is in every page: found, but it says nothing about kittens
    hits = search(manual, "what is a good name for my kitten", 5, spelling=False)
    assert hits and hits.relevance < PROMPT_RELEVANCE


def test_rare_words_weigh_more_than_common_ones(manual):
    # the same share of the question's words found, one rare word against one common one
    rare = search(manual, "kitten sequence", 5, spelling=False).relevance
    common = search(manual, "kitten table", 5, spelling=False).relevance
    assert rare > PROMPT_RELEVANCE > common


def test_one_word_and_no_match(manual):
    assert search(manual, "trigger", 5).relevance == 1.0
    assert search(manual, "zebra giraffe", 5, spelling=False).relevance == 0.0


def test_a_few_notes_weigh_their_words_alike(tmp_path):
    # In three notes every word is rare or absent; a word the notes lack ("many") must not outweigh the
    # ones they share with the question.
    (tmp_path / "leave.md").write_text("# Leave\n\nEvery employee gets 27 vacation days per year.\n")
    with open_store(tmp_path) as kb:
        Importer(kb).run([str(tmp_path / "leave.md")])
    assert search(tmp_path, "How many vacation days do I get?", 5, spelling=False).relevance >= PROMPT_RELEVANCE
    assert search(tmp_path, "Why do cats purr?", 5, spelling=False).relevance == 0.0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=80))
def test_any_question_has_a_relevance_between_0_and_1(manual, question):
    hits = search(manual, question, 5)
    assert hits.relevance is None or 0.0 <= hits.relevance <= 1.0
    assert hits or not hits.relevance


def test_chinese_and_japanese_questions_are_not_measured(tmp_path):
    # Their terms are runs of characters and the pairs in them: coverage is low for right and wrong
    # passages alike, so no gate is drawn from it (the rag route keeps their passages).
    (tmp_path / "net.md").write_text("# ネットワーク\n\nネットワークの設定は /etc/network/interfaces に書きます。\n\n"
                                     "# 网络\n\n网络配置写在 /etc/network/interfaces 文件中。\n", encoding="utf-8")
    with open_store(tmp_path) as kb:
        Importer(kb).run([str(tmp_path / "net.md")])
    for question in ("ネットワークの設定方法を知りたい", "怎么修改网络配置"):
        hits = search(tmp_path, question, 5, spelling=False)
        assert hits and hits.relevance is None, question


def test_a_plural_in_the_question_finds_its_singular_in_a_note(tmp_path):
    # "pancakes" against a note titled "Pancake recipe": _stem's prefix counts letters, so the two
    # shared no stem, the recipe covered a third of the question, and the rag route left it out.
    (tmp_path / "pancakes.md").write_text("# Pancake recipe\n\nMix 200 g flour, 300 ml milk and 2 eggs.\n")
    (tmp_path / "queries.md").write_text("# Slow queries\n\nAn index on the class column helps.\n")
    data = tmp_path / "data"  # a folder's import skips the data folder in it
    with open_store(data) as kb:
        Importer(kb).run([str(tmp_path)])
    hits = search(data, "How much flour do I need for pancakes?", 5, spelling=False)
    assert hits[0].title == "Pancake recipe" and hits.relevance >= PROMPT_RELEVANCE
    # and the other way round, with -es and -ies plurals
    hits = search(data, "which index for a slow query on classes", 5, spelling=False)
    assert hits[0].title == "Slow queries" and hits.relevance == pytest.approx(1.0)


def test_a_plural_is_not_read_as_a_shorter_word_it_happens_to_start_with(tmp_path):
    # "notes" was also looked for as "not", "uses" as "us", "news" as "new": the lecture hall that "is not
    # open" became two thirds about "my lecture notes", and went into the prompt
    (tmp_path / "hall.md").write_text("# Lecture hall\n\nThe lecture hall is not open on Sundays. Tell us.\n")
    with open_store(tmp_path) as kb:
        Importer(kb).run([str(tmp_path / "hall.md")])
    hits = search(tmp_path, "Where are my lecture notes on entropy?", 5, spelling=False)
    assert hits and hits.relevance < PROMPT_RELEVANCE
    assert search(tmp_path, "lecture uses", 5, spelling=False).relevance < 1.0
