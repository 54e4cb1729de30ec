"""The calculator reads an expression as a model or a person writes it: with a trailing "=" ("2+2="), and in
full-width forms ("２＋２", an East Asian keyboard's), as it already read Arabic-Indic digits ("٢+٢")."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tinyrag_desktop.tools.calculate import CalcError, calculate
from tinyrag_desktop.tools.calculate import run as calculate_run


def _result(query: str) -> str:
    return asyncio.run(calculate_run(query, None)).text


@pytest.mark.parametrize("query, said", [
    ("2+2=", "2+2= 4"),  # it said "“=” is not something the calculator understands"; the "=" is not said twice
    ("3 * 4 = ", "3 * 4 = 12"),
    ("２＋２", "２＋２ = 4"),  # it said "“＋” is not something the calculator understands"
    ("（１０＋５）×２＝", "（１０＋５）×２＝ 30"),
    ("２０％＊５０", "２０％＊５０ = 10"),
    ("٢+٢", "٢+٢ = 4"),  # as before
])
def test_an_expression_is_read_as_written(query: str, said: str) -> None:
    assert _result(query) == said


def test_an_equals_sign_alone_or_twice_is_still_refused() -> None:
    with pytest.raises(CalcError, match="There is no expression"):
        calculate("=")
    with pytest.raises(CalcError, match="“=” is not something the calculator understands .at position 3"):
        calculate("1 ==")
    with pytest.raises(CalcError, match="at position 3"):  # a position still points at the character typed
        calculate("１＋＠")


_FULL = {chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F)}
_expressions = st.builds(
    lambda first, rest: first + "".join(op + n for op, n in rest),
    st.integers(0, 999).map(str),
    st.lists(st.tuples(st.sampled_from(["+", "-", "*", "/", "^", "%+"]), st.integers(1, 9).map(str)), max_size=5))


@given(_expressions, st.booleans(), st.booleans())
def test_full_width_forms_and_a_trailing_equals_change_nothing(expr: str, wide: bool, equals: bool) -> None:
    written = "".join(_FULL.get(ch, ch) for ch in expr) if wide else expr
    written += "＝" if equals and wide else "=" if equals else ""
    try:
        expected = calculate(expr)
    except CalcError as plain:
        with pytest.raises(CalcError) as refused:
            calculate(written)
        assert str(refused.value) == str(plain)  # the same words, the same positions
        return
    assert calculate(written) == expected
