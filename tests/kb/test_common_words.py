"""A question of only common words ("what is it", "the and of") is not searched: every passage has such
words, and the ones with most of them were shown as if found. ``kb search``, the Search tab and the
``rag_knowledge`` tool say what to add instead; a question with one word that says something is searched."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tinyrag_desktop.kb import Chunk, open_store, search
from tinyrag_desktop.kb.query_words import STOP_WORDS
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.tools.rag import run
from tinyrag_desktop.tools.registry import ToolContext

from .cli_run import run_main
from .test_panel import _search


@pytest.fixture
def filled(data_dir: Path) -> Path:
    with open_store(data_dir) as kb:
        for location, title, text in [
                ("/docs/it.md", "What it is", "What is it? It is the one thing that is in all of the rooms of the house."),
                ("/docs/tide.md", "Tides", "The tide turns twice a day, and the harbour gate closes at low water.")]:
            kb.replace_source(title=title, location=location, type="text", size=1, content_hash=location,
                              chunks=[Chunk(title, text)], load_id="test")
    return data_dir


@pytest.mark.parametrize("query", ["the and of", "What is it?", "how do I do it", "It is what it is."])
def test_common_words_alone_find_nothing_and_say_so(filled, query):
    hits = search(filled, query, 5)
    assert hits == [] and hits.common
    assert hits.note().startswith("Only common words (“")
    assert hits.note().endswith("): add a word that says what you are looking for.")


def test_one_telling_word_is_enough_to_search(filled):
    hits = search(filled, "what is the tide", 5)
    assert hits[0].location == "/docs/tide.md" and not hits.common


def test_with_a_query_vector_too(filled):
    assert search(filled, "what is it", 5, query_vector=[1.0, 0.0], vector_model="m") == []


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(sorted(STOP_WORDS)), min_size=1, max_size=8), st.sampled_from([" ", ", ", "? "]))
def test_any_mix_of_common_words_is_not_searched(filled, words, sep):
    hits = search(filled, sep.join(words).capitalize(), 5)
    assert hits == [] and set(hits.common) <= STOP_WORDS


def test_kb_search_says_what_to_add(filled, capsys):
    code, out, err = run_main(capsys, "--data-dir", str(filled), "search", "what is it")
    assert code == 0 and out == ""
    assert err.strip() == ("no matches: Only common words (“what”, “is”, “it”): add a word that says what you "
                           "are looking for.")


async def test_the_tool_asks_the_model_for_specific_words(filled):
    result = await run("what is it", ToolContext(settings=defaults(), data_dir=filled, http=None))
    assert result.text == ("Not searched: “what is it” holds only common words (what, is, it), which nearly every "
                           "passage has. Search again with the specific words of what you need: a name, a technical "
                           "term or the subject, as the documents would write it.")
    assert result.source == ""


def test_the_search_tab_says_it(qtbot, panel, filled):
    assert _search(qtbot, panel, "the and of") == 0
    texts = [panel.results.item(n).text() for n in range(panel.results.count())]
    assert texts == ["Only common words (“the”, “and”, “of”): add a word that says what you are looking for."]
