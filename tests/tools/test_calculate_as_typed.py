"""The calculator's refusals point at what was typed: positions at the offending character, calls echoed as
written (tan(90°)), and plain words for a multiplication x, a currency, and a run of factorial signs."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tinyrag_desktop.tools.calculate import CalcError, calculate, evaluate
from tinyrag_desktop.tools.calculate import run as calculate_run

from .test_calculate_as_people_read import _refused


# Positions ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("expr, words", [
    ("1 == 1", "“=” is not something the calculator understands (at position 3)."),  # it said 2
    ("1 + 2 # 3", "“#” is not something the calculator understands (at position 7)."),  # it said 6
    ("1\t+\t\t@", "“@” is not something the calculator understands (at position 6)."),
    ("  1 + ?", "“?” is not something the calculator understands (at position 5)."),  # as the card shows it
    ("1+", "Expected a number but found the end (at position 3)."),
    ("(1)0x1F", "Unexpected “0x1F” at position 4."),  # it said “31”, the number read, not the one typed
    ("1 ×× 2", "Expected a number but found “×” (at position 4)."),  # it said “*”
    ("2 ^ ^ 3", "Expected a number but found “^” (at position 5)."),
])
def test_a_position_is_the_column_of_the_character_typed_there(expr: str, words: str) -> None:
    assert _refused(expr) == words


_POINTED = re.compile(r"^“(.)” is not something .* \(at position (\d+)\)\.$"
                      r"|(?:found|Unexpected) (?:“(.+)”|the end) \(?at position (\d+)\)?\.$")


def _points_at_what_it_quotes(expr: str) -> None:
    try:
        calculate(expr)
    except CalcError as exc:
        m = _POINTED.search(str(exc))
        if m is not None:
            quoted, position = m.group(1) or m.group(3), int(m.group(2) or m.group(4))
            shown = expr.strip()
            if quoted is None:  # the end: just past the last character
                assert position == len(shown) + 1, (expr, str(exc))
            else:
                assert shown[position - 1:].startswith(quoted), (expr, str(exc))


_SPACES = st.text(alphabet=" \t\n\u00a0\u2009\u3000", max_size=3)
_PIECES = ["1", "23", "4.5", ".5", "0x1F", "+", "-", "*", "/", "//", "(", ")", "pi", "sqrt", "!", "!!", "%",
           "^", "**", "×", ",", "°", "of", "mod"]
_NOT_READ = "=#&@?;:{}[]<>|~\\`\"'"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_SPACES, st.sampled_from(_PIECES + list(_NOT_READ))), max_size=12), _SPACES)
def test_every_position_said_points_at_the_character_it_quotes(pieces, after) -> None:
    _points_at_what_it_quotes("".join(space + piece for space, piece in pieces) + after)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_SPACES, st.sampled_from(_PIECES)), max_size=10), st.data())
def test_a_character_not_read_is_pointed_at_wherever_it_is_and_whatever_spaces_come_before(pieces, data) -> None:
    cut = data.draw(st.integers(0, len(pieces)))
    bad = data.draw(st.sampled_from(_NOT_READ))
    before = "".join(space + piece for space, piece in pieces[:cut]) + data.draw(_SPACES)
    expr = before + bad + "".join(space + piece for space, piece in pieces[cut:])
    assume(not expr.rstrip().endswith("="))  # an expression may end with "=" ("2+2="): it is read without it
    column = len(before) - (len(before) - len(before.lstrip()))
    assert _refused(expr) == f"“{bad}” is not something the calculator understands (at position {column + 1})."


# The letter x, currencies -------------------------------------------------------------------------------------

@pytest.mark.parametrize("expr", ["3x4", "3X4", "3 x4", "3x 4", "10x20 + 1", "(1+2)x4", "2.5x2"])
def test_a_digit_x_digit_gets_the_hint_to_write_times(expr: str) -> None:
    # "x4" is one name, and it was taken for a unit. Not computed: 0x4 is hexadecimal for 4, and 3x4 as 12
    # beside it would read two ways.
    assert _refused(expr) == "Write * or × to multiply, not the letter x."
    assert calculate("0x4") == "4"


@pytest.mark.parametrize("expr, currency", [
    ("5 USD in EUR", "USD"), ("5 usd", "usd"), ("EUR 5", "EUR"), ("10 dollars + 5", "dollars"),
    ("5 €", "€"), ("$5 + $3", "$"), ("100 ¥", "¥"), ("3 £ + 2", "£"),
])
def test_a_currency_is_said_to_have_no_exchange_rate(expr: str, currency: str) -> None:
    words = _refused(expr)  # it was told to convert units, as 5 km + 3 m in metres
    assert words.startswith(f"“{currency}” is a currency, and the calculator has no exchange rates (it works "
                            "offline")
    assert "km" not in words and "leave the currency out (5 + 3" in words


def test_a_unit_is_still_a_unit() -> None:
    assert _refused("5 km + 3 m").startswith("“km” looks like a unit")
    assert _refused("(1 + 2) kg").startswith("“kg” looks like a unit")  # it was: Unexpected “kg” at position 9


# Calls echoed as typed, angles in degrees -----------------------------------------------------------------------

@pytest.mark.parametrize("expr", ["tan(90°)", "tan(90 deg)", "tan(-90°)", "tan(270°)", "tan(pi/2)", "tan(3 * 30°)"])
def test_tan_where_it_is_not_defined_is_refused_with_the_call_as_typed(expr: str) -> None:
    # It said tan(1.5707963267949), which no one typed.
    assert _refused(expr) == f"{expr} is not defined: the angle is an odd multiple of pi/2 (90°)."


async def test_the_card_and_the_model_read_the_call_as_typed() -> None:
    with pytest.raises(CalcError, match=r"^asin\(90°\) is not defined: it takes numbers from -1 to 1\.$"):
        await calculate_run("asin(90°)", None)


@settings(max_examples=200, deadline=None)
@given(st.integers(-10**30, 10**30))
def test_tan_of_any_odd_multiple_of_ninety_degrees_is_not_defined(k: int) -> None:
    # 9000000090° is 25000000 turns and 90°: as a float in radians it was tan(1.57e+08), 4.4e+07
    angle = f"{(2 * k + 1) * 90}°"
    assert _refused(f"tan({angle})") == f"tan({angle}) is not defined: the angle is an odd multiple of pi/2 (90°)."


@pytest.mark.parametrize("expr, shown", [
    ("sin(1e20°)", "-0.984807753012208"),  # 1e20° is 280° and 10^20/360 turns; it was 0.306108632032814
    ("sin(-1e20°)", "0.984807753012208"), ("cos(3600000000000000000030°)", "0.866025403784439"),
    ("sin(30°)", "0.5"), ("sin((30°))", "0.5"), ("cos(-720°)", "1"),
    ("30°", "0.523598775598299"), ("-30° * 2", "-1.0471975511966"),  # otherwise an angle in radians
])
def test_an_angle_in_degrees_is_taken_modulo_a_turn_exactly(expr: str, shown: str) -> None:
    assert calculate(expr) == shown


# Factorials -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("expr, shown", [
    ("5!!", "15"),  # it was (5!)!, a number of 199 digits
    ("6!!", "48"), ("9!!", "945"), ("0!!", "1"), ("1!!", "1"), ("5 !!", "15"), ("5!! + 1", "16"), ("-5!!", "-15"),
    ("5!!^2", "225"), ("2 * 5!!", "30"), ("(3!)!", "720"), ("factorial(3)!", "720"),
])
def test_n_double_factorial_is_the_double_factorial(expr: str, shown: str) -> None:
    assert calculate(expr) == shown


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 2000))
def test_n_double_factorial_times_the_one_before_is_n_factorial(n: int) -> None:
    assert evaluate(f"{n}!! * ({n} - 1)!!") == math.factorial(n)


@pytest.mark.parametrize("expr, words", [
    ("5!!!", "“5!!!” has too many “!” in a row: write 5!! for the double factorial (7!! is 7 × 5 × 3 × 1) "
             "or (5!)! for the factorial of a factorial."),
    ("(1 + 2)! !", "“(1 + 2)! !” has too many “!” in a row: write (1 + 2)!! for the double factorial (7!! is "
                   "7 × 5 × 3 × 1) or ((1 + 2)!)! for the factorial of a factorial."),
    ("(3!)!!!", "“(3!)!!!” has too many “!” in a row: write (3!)!! for the double factorial (7!! is "
                "7 × 5 × 3 × 1) or ((3!)!)! for the factorial of a factorial."),
    ("(2 + 3!)! !", "“(2 + 3!)! !” has too many “!” in a row: write (2 + 3!)!! for the double factorial (7!! "
                    "is 7 × 5 × 3 × 1) or ((2 + 3!)!)! for the factorial of a factorial."),
    ("2.5!!", "The double factorial is defined for whole numbers from 0 up."),
    ("(-1)!!", "The double factorial is defined for whole numbers from 0 up."),
    ("4001!!", "4001!! is too large to compute here (the limit is 4000!!)."),
])
def test_a_run_of_factorial_signs_or_a_double_factorial_out_of_range_is_refused_in_words(expr, words) -> None:
    assert _refused(expr) == words


def test_the_largest_double_factorial_is_computed() -> None:
    assert evaluate("4000!!") == math.prod(range(4000, 0, -2))
