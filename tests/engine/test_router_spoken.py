"""Arithmetic said in words is found word by word: the same answers as the one pattern it replaces, which
took time growing with the square of a pasted table of numbers."""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from tinyrag_desktop.engine.router import _spoken_calc

_OLD = re.compile(
    r"\d.*\b(?:each|times|total|sum|average|mean|plus|minus|divided|multiplied|squared|cubed|percent|"
    r"per ?cent|factorial|power|root)\b|\b(?:sum|average|mean|product|square root|factorial) of\b.*\d",
    re.I | re.S,
)
_PIECES = st.sampled_from(["3", "12.50", " ", "\n", "books", "each", "times", "5times", "sum of", "average",
                           "of", "x", ",", "per cent", "percent", "root", "squared", "product of", "é", "每"])


@settings(max_examples=500, deadline=None)
@given(st.lists(_PIECES, max_size=14).map("".join))
def test_the_same_answers_as_the_one_pattern(text) -> None:
    assert _spoken_calc(text) == (_OLD.search(text) is not None)


def test_examples() -> None:
    assert _spoken_calc("3 books at 12.50 each")
    assert _spoken_calc("What is the average of 4, 8 and 15?")
    assert not _spoken_calc("Each row holds 3 cells")  # the word before the number
    table = "\n".join(", ".join(f"{n}.{n % 97}" for n in range(row, row + 10)) for row in range(0, 1300, 10))
    assert not _spoken_calc(table)


_OLD_WHEN = re.compile(r"\bwhen (?:was|were|did)\b.*\b(?:born|built|founded|discovered|invented|written|die|died|"
                       r"end|start|begin)\b", re.I | re.S)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["when was", "When did", "when", "was", " ", "\n", "born", "reborn", "end",
                                 "the", "x", "ended", "start"]), max_size=14).map("".join))
def test_when_questions_as_the_one_pattern(text) -> None:
    from tinyrag_desktop.engine.router import _EVENT, _WHEN

    when = _WHEN.search(text)
    assert (when is not None and _EVENT.search(text, when.end()) is not None) == (_OLD_WHEN.search(text) is not None)
