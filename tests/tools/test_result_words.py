"""Found by the review of the tools' new words: sin of a huge angle is no rounding error, and a page that
writes the joiners' stand-ins as entities keeps them."""

from __future__ import annotations

import math

import pytest

from tinyrag_desktop.tools.calculate import evaluate
from tinyrag_desktop.tools.readable import html_to_text


@pytest.mark.parametrize("expression, value", [
    ("sin(1e15)", math.sin(1e15)), ("sin(10000000000016)", math.sin(10000000000016)),
    ("cos(1e300)", math.cos(1e300)),
])
def test_sin_and_cos_of_huge_angles_are_their_values_not_zero(expression, value) -> None:
    result = evaluate(expression)
    assert float(result) == pytest.approx(value) and float(result) != 0


@pytest.mark.parametrize("expression", ["sin(pi)", "cos(pi/2)", "tan(pi)", "sin(1000*pi)"])
def test_the_rounding_error_of_a_multiple_of_pi_is_still_zero(expression) -> None:
    assert float(evaluate(expression)) == 0


def test_a_page_that_writes_a_stand_in_as_an_entity_keeps_it() -> None:
    page = ("<html><body><article><p>Family: \U0001F468\u200d\U0001F469 and the rare ideograph &#x20001; "
            "in a sentence long enough to be the article's text, as trafilatura wants some words.</p>"
            "<p>A second paragraph, to make this read as an article, with more words in it.</p></article></body></html>")
    _title, text, _note = html_to_text(page, "http://example.org/")
    assert "\U00020001" in text and "\U0001F468\u200d\U0001F469" in text


@pytest.mark.parametrize("expression", ["tan(pi/2)", "tan(3*pi/2)"])
def test_tan_of_an_odd_multiple_of_half_pi_is_not_defined(expression) -> None:
    from tinyrag_desktop.tools.calculate import CalcError

    with pytest.raises(CalcError, match="is not defined: the angle is an odd multiple of pi/2"):
        evaluate(expression)


def test_a_whole_number_angle_is_exact_and_a_huge_one_is_refused_in_tans_name() -> None:
    from tinyrag_desktop.tools.calculate import CalcError

    assert float(evaluate("tan(534483448)")) == pytest.approx(math.tan(534483448))
    assert float(evaluate("sin(1e9*pi)")) == 0  # the rounding error of a multiple of pi
    with pytest.raises(CalcError, match=r"^tan\("):
        evaluate("tan(10**400)")


@pytest.mark.parametrize("expression, value", [("sin(1000000000000000.5)", math.sin(1000000000000000.5)),
                                               ("cos(10**16/3)", math.cos(10**16 / 3))])
def test_a_huge_angle_that_is_not_whole_is_its_value_too(expression, value) -> None:
    assert float(evaluate(expression)) == pytest.approx(value)
