"""The coverage re-rank's scan of a passage for the question's words (coverage._concepts): one pattern per
word, checked against the plain reading it replaced, one pattern of all the words as alternatives, in
which a written word counts for the first word whose forms it is."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from tinyrag_desktop.kb.coverage import _concepts, _stem

# Few letters, so that words share stems and passages hold the question's words often.
_LETTERS = "abcde"
_words = st.text(_LETTERS, min_size=1, max_size=10)


def _reference(terms: list[str], roots: dict[int, str], text: str) -> dict[str, int]:
    """What the scan should count: each written word for the first term that finds it."""
    counts: dict[str, int] = {}
    for written in re.findall(r"\w+", text):
        for n, term in enumerate(terms):
            found = written.startswith(roots[n]) if n in roots else _stem(written) == _stem(term)
            if found:
                counts[f"c{n}"] = counts.get(f"c{n}", 0) + 1
                break
    return counts


@settings(max_examples=400, deadline=None)
@given(
    terms=st.lists(_words, min_size=2, max_size=6, unique=True),
    data=st.data(),
    passage=st.lists(st.one_of(_words, st.sampled_from([" ", ".", "-", "_", "\n", "é", "1"])), max_size=40),
)
def test_counts_and_seen_match_the_plain_reading(terms, data, passage):
    # a typo's root is often the start of another of the question's words (where the two scans can differ)
    places = data.draw(st.lists(st.integers(0, len(terms) - 1), max_size=2, unique=True))
    roots = {n: data.draw(st.one_of(st.text(_LETTERS, min_size=2, max_size=4),
                                    st.sampled_from(terms).map(lambda t: t[:2]))) for n in places}
    text = " ".join(passage)
    concepts = _concepts(terms, roots=roots)
    expected = _reference(terms, roots, text)
    assert concepts.counts(text) == expected
    assert concepts.seen(text) == set(expected)


def test_a_word_with_an_earlier_words_stem_finds_nothing():
    # "indexes" has the stem of "index": the earlier word takes every form, as one alternation did
    concepts = _concepts(["index", "indexes", "table"])
    text = "an index of the indexes, and a table"
    assert concepts.counts(text) == {"c0": 2, "c2": 1}
    assert concepts.seen(text) == {"c0", "c2"}


def test_a_typos_root_shares_written_words_with_an_earlier_word():
    # "commitment" put in place of a typo is found by its index stem "commit"; "commits" is the first
    # word's form too, and counts for it
    concepts = _concepts(["commits", "commitment"], roots={1: "commit"})
    assert concepts.counts("commits and a commitment, commit") == {"c0": 2, "c1": 1}


def test_words_are_found_whole_not_inside_others():
    concepts = _concepts(["table", "role"])
    assert concepts.counts("stable tablespace roles role") == {"c1": 2}
    assert concepts.counts("table\nroles_and_more") == {"c0": 1}
