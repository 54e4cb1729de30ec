"""The calculator read as a person reads a desktop or phone calculator: percentages added, halves rounded up,
angles and logarithms said, long results to 15 digits, and plain words where it cannot read an input."""

from __future__ import annotations

import pytest

from tinyrag_desktop.tools.calculate import TOOLS, CalcError, calculate, evaluate
from tinyrag_desktop.tools.calculate import run as calculate_run


def _refused(expr: str) -> str:
    with pytest.raises(CalcError) as caught:
        calculate(expr)
    return str(caught.value)


# Percentages ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("expr, shown", [
    ("50 + 10%", "55 (10% of 50 added)"),  # it was 50.1
    ("100 - 15%", "85 (15% of 100 taken off)"),  # it was 99.85
    ("200 + 5% + 10%", "231 (5% of 200 added; 10% of 210 added)"),
    ("(1 + 2) * 3 + 10%", "9.9 (10% of 9 added)"),
    ("100 - 15 %", "85 (15 % of 100 taken off)"),
])
def test_a_percentage_added_or_taken_off_is_a_share_of_what_it_follows(expr: str, shown: str) -> None:
    assert calculate(expr) == shown


@pytest.mark.parametrize("expr, shown", [
    ("12%", "0.12"), ("12% of 250", "30"), ("50 * 10%", "5"), ("50 + 10% of 20", "52"),
    ("50 + (10%)", "50.1"),  # in parentheses, a number like any other
    ("50 + 2^10%", "51.0717734625363"),  # a power, not a percentage
    ("10 % 3", "1"),
])
def test_a_percentage_that_is_not_added_or_taken_off_stays_a_hundredth(expr: str, shown: str) -> None:
    assert calculate(expr) == shown


# Rounding ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("expr, shown", [
    ("round(2.5)", "3"), ("round(-2.5)", "-3"), ("round(0.5)", "1"), ("round(1.5)", "2"),  # were 2, -2, 0
    ("round(2.675, 2)", "2.68"), ("round(-2.675, 2)", "-2.68"), ("round(2.665, 2)", "2.67"),
    ("round(1250, -2)", "1300"), ("round(2.4)", "2"),
    ("round(exp(ln(2.5)))", "3"),  # 2.4999999999999996 as a float: rounded as it is shown, 2.5
    ("floor(sin(pi / 6) * 2)", "1"),  # 0.9999999999999999 as a float, shown as 1
])
def test_round_takes_a_half_away_from_zero_as_a_calculator_does(expr: str, shown: str) -> None:
    assert calculate(expr) == shown


# Angles and logarithms --------------------------------------------------------------------------------------

def test_the_description_the_model_reads_says_radians_and_what_log_is() -> None:
    description = TOOLS[0].description
    assert "angles in radians" in description and "30°" in description
    assert "log (base 10)" in description and "ln (natural log)" in description
    assert "50 + 10% is 55" in description and "mod" in description


@pytest.mark.parametrize("expr, shown", [
    ("sin(30)", "-0.988031624092862 (angles are in radians; for degrees write sin(30°))"),
    ("cos(90)", "-0.44807361612917 (angles are in radians; for degrees write cos(90°))"),
    ("sin(30°)", "0.5"), ("sin(30 deg)", "0.5"), ("cos(90°)", "0"), ("tan(45°)", "1"), ("sin(180 degrees)", "0"),
    ("sin(pi / 2)", "1"), ("sin(0.5)", "0.479425538604203"),  # radians plainly meant: nothing to say
    ("asin(0.5)", "0.523598775598299 (in radians, which is 30°)"),
    ("acos(0.5) * 180 / pi", "60"),
])
def test_angles_are_radians_said_where_degrees_may_be_meant_and_degrees_can_be_written(expr, shown) -> None:
    assert calculate(expr) == shown


def test_tan_of_ninety_degrees_is_not_defined() -> None:
    assert "is not defined: the angle is an odd multiple of pi/2 (90°)" in _refused("tan(90°)")


@pytest.mark.parametrize("expr, shown", [
    ("log(100)", "2 (log is base 10; ln is the natural logarithm)"),  # it was 4.60517018598809
    ("log(1000) + ln(e)", "4 (log is base 10; ln is the natural logarithm)"),
    ("ln(100)", "4.60517018598809"), ("log10(1000)", "3"), ("log2(1024)", "10"), ("log(8, 2)", "3"),
])
def test_log_is_base_ten_as_on_a_calculator_and_the_result_says_so(expr: str, shown: str) -> None:
    assert calculate(expr) == shown


# Results that read --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("expr, shown", [
    ("10000 * (1 + 0.07/12)^(12*30)", "≈ 81164.9747535961"),  # it was ≈ 8.11649747535961e+4
    ("1000*(1+0.05/12)^(12*10)", "≈ 1647.00949769028"),  # a fraction of 290 digits over 290
    ("1.01^365", "≈ 37.7834343328872"),  # a decimal of 733 characters
    ("1.05^15", "≈ 2.07892817941137"),
    ("1.05^12", "1.795856326022129150390625"),  # short enough to be shown exactly
    ("1/3", "1/3 ≈ 0.333333333333333"), ("1/700000", "1/700000 ≈ 0.00000142857142857143"),
    ("1/7000000", "1/7000000 ≈ 1.42857142857143e-7"),
    ("0.1 + 0.2", "0.3"), ("2^64", "18446744073709551616"), ("2^-20", "0.00000095367431640625"),
    ("sqrt(2) / 100000", "0.000014142135623731"),  # a float in ordinary notation from 1e-6 up
    ("sqrt(2) * 10^15", "1.4142135623731e+15"), ("10^-1000", "1e-1000"),  # e-notation beyond; exact when it is
    ("(10^20 + 1) / 10^40", "≈ 1.0e-20"), ("exp(10)", "22026.4657948067"),
])
def test_a_long_result_is_a_plain_decimal_to_15_digits_and_a_short_one_stays_exact(expr: str, shown: str) -> None:
    assert calculate(expr) == shown


@pytest.mark.parametrize("expr", ["10000 * (1 + 0.07/12)^(12*30)", "1000*(1+0.05/12)^(12*10)", "1.01^365",
                                  "50 + 10%", "log(100)", "sin(30)"])
async def test_the_card_can_show_the_value(expr: str) -> None:
    # The closed card (ui/toolcard.py) shows what follows the expression when it has at most 40 characters,
    # or what comes before its first " (" (a note) when that has; the fraction of 589 characters showed nothing.
    value = (await calculate_run(expr, None)).text.removeprefix(expr)
    assert len(value) <= 40 or len(value.split(" (", 1)[0]) <= 40


# Inputs written as people write them ------------------------------------------------------------------------

@pytest.mark.parametrize("expr, shown", [
    ("10 mod 3", "1"), ("-7 mod 3", "2"), ("10 MOD 4", "2"),  # "mod" looked like a unit
    ("2(3+4)", "14"), ("3(4)", "12"), ("(1)(2)", "2"), ("2pi", "6.28318530717959"), ("2 sqrt(9)", "6"),
    ("6/2(1+2)", "9 (read as (6/2) × (1+2), from left to right)"),  # 1 on some calculators: said
    ("1/2pi", "1.5707963267949 (read as (1/2) × pi, from left to right)"),
    ("0x1F", "31"), ("0b101 + 0o17", "20"), ("2e3", "2000"), ("2e", "5.43656365691809"),
    ("1 000 000", "1000000 (“1 000 000” read as 1000000)"),
    ("12 345.5 * 2", "24691 (“12 345.5” read as 12345.5)"),
    ("5\u202f000 + 1", "5001 (“5 000” read as 5000)"),
    ("5 – 3", "2"), ("5 − 3", "2"),  # en dash, minus sign
])
def test_what_people_write_is_read(expr: str, shown: str) -> None:
    assert calculate(expr) == shown


@pytest.mark.parametrize("expr, words", [
    ("1 0000", "“1 0000” is two numbers in a row: put an operator between them. (A space is read between "
               "thousands only in groups of three: 1 000 000.)"),
    ("0b102", "“0b102” is not a number the calculator reads: hexadecimal is written 0x1F, binary 0b101 and "
              "octal 0o17."),
    ("1.5.2", "“1.5.2” is not a number: a number has one decimal point."),
    ("exp(1000)", "exp(1000) is too large to compute here: it is about 2 × 10^434 (the limit is about "
                  "1.8 × 10^308)."),
    ("2" + "^2" * 300, "That power is too large to compute exactly here: it has about 6 × 10^19727 digits "
                       "(the limit is about 30,000)."),  # "too large for that function"
    ("9 ** 99999999", "That power is too large to compute exactly here: it has about 95,424,250 digits "
                      "(the limit is about 30,000)."),
    ("pi^1000", "That power is too large to compute here: it is about 1.4 × 10^497 (the limit for a value that "
                "is not exact is about 1.8 × 10^308)."),
])
def test_what_cannot_be_read_or_computed_is_said_in_words(expr: str, words: str) -> None:
    assert _refused(expr) == words


def test_a_number_too_small_for_a_float_is_taken_as_zero_and_said() -> None:
    assert calculate("1 + exp(-1000)") == ("1 (exp(-1000) is about 5.1 × 10^-435, below 2.2 × 10^-308, the smallest "
                                           "value that is not exact: taken as 0)")
    assert "a power that is not whole takes numbers from about 2.2 × 10^-308" in _refused("(10^-400)^0.5")  # was 0


@pytest.mark.parametrize("expr, words", [
    ("1.234,5", "“1.234,5” is written with a decimal comma: it is 1234.5. Write it 1234.5"),  # hinted as 1.2345
    ("3,5 + 1", "“3,5” is written with a decimal comma: it is 3.5. Write it 3.5"),  # hinted as 35
    ("1,000", "“1,000” is ambiguous: with a comma between thousands it is 1000, with a decimal comma 1.000."),
    ("1,000,000 / 3", "“1,000,000” is written with commas between thousands: it is 1000000."),  # hinted as 1000
    ("1,234.5 + 1", "“1,234.5” is written with commas between thousands: it is 1234.5."),
    ("1.000.000", "“1.000.000” is written with dots between thousands: it is 1000000."),
])
def test_a_number_with_separators_is_refused_without_a_wrong_reading(expr: str, words: str) -> None:
    assert _refused(expr).startswith(words)


def test_evaluate_gives_the_value_without_the_notes() -> None:
    assert evaluate("50 + 10%") == 55 and evaluate("log(100)") == 2
