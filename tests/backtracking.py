"""Test helper: does a regular expression try a line's characters a super-linear number of ways?

Python's ``re`` backtracks. A repeat without an upper bound whose body itself holds a repeat without one that
can give characters back ("(?:\\w+[ *]+)*", "(?:[\\w ]+=[^;]*;)*") may split a run of text between the two
every possible way before failing: "a * b * c * …" took twice as long for each factor more, and a long line
of "Key=value;" pairs was read on to its end from every place a pair starts (the square of its length).
``nested_repeats(pattern)`` finds such repeats by the pattern's structure, deterministically (no timing): the
bodies of the unbounded repeats that hold, in their sequence or its plain groups, an unbounded repeat that
backtracks. A possessive repeat ("\\w++"), an atomic group ("(?>…)") or a bound ("{0,16}") is not one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]

_BACKTRACKING = (sre.MAX_REPEAT, sre.MIN_REPEAT)


def nested_repeats(pattern: re.Pattern[str]) -> list[str]:
    """The bodies (as ``re``'s parser shows them) of ``pattern``'s unbounded repeats that hold another."""
    found: list[str] = []

    def walk(items: object) -> None:
        for op, av in items:
            if op in _BACKTRACKING or op == sre.POSSESSIVE_REPEAT:
                if op in _BACKTRACKING and av[1] == sre.MAXREPEAT and any(_unbounded(av[2])):
                    found.append(str(av[2]))
                walk(av[2])
            elif op == sre.ATOMIC_GROUP:
                walk(av)
            elif op == sre.SUBPATTERN:
                walk(av[-1])
            elif op == sre.BRANCH:
                for branch in av[1]:
                    walk(branch)
            elif op in (sre.ASSERT, sre.ASSERT_NOT):
                walk(av[1])

    walk(sre_parse.parse(pattern.pattern, pattern.flags))
    return found


def _unbounded(items: object) -> Iterator[object]:
    """The unbounded repeats that backtrack in a sequence, directly or in its plain groups."""
    for op, av in items:
        if op in _BACKTRACKING and av[1] == sre.MAXREPEAT:
            yield av
        elif op == sre.SUBPATTERN:
            yield from _unbounded(av[-1])
