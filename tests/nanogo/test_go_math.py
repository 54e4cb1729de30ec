"""The math package computes as Go 1.19 does (gomath.py ports Go's algorithms), not as the C library does."""

from __future__ import annotations

import decimal
import math
from fractions import Fraction

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tinyrag_desktop.tools.nanogo import gomath, gomath_exp
from tinyrag_desktop.tools.nanogo.interp import run_inprocess


def _run(source: str) -> str:
    out, status, err = run_inprocess(source)
    assert (status, err) == ("ok", ""), err
    return out


def test_cube_roots_of_perfect_cubes_are_exact():
    # The C library's cbrt(64) is 3.9999999999999996; Go's Cbrt (FreeBSD s_cbrt.c) gives 4.
    src = "fmt.Println(math.Cbrt(64), math.Cbrt(1000), math.Cbrt(-8), math.Cbrt(125), int(math.Cbrt(216)))"
    assert _run(src) == "4 10 -2 5 6\n"


def test_log2_of_a_power_of_two_is_exact():
    src = "fmt.Println(math.Log2(1<<29), math.Log2(1<<31), math.Ceil(math.Log2(1<<29)), math.Log2(0.125))"
    assert _run(src) == "29 31 29 -3\n"


def test_log10_and_log_follow_go():
    # Log10 is Log(x) * (1/Ln10) in Go; real Go 1.19 printed 3 for Log10(1000) (corpus math_functions).
    assert _run("fmt.Println(math.Log10(1000), math.Log10(100), math.Log(1), math.Log(0), math.Log(-1))") == \
        "3 2 0 -Inf NaN\n"


def test_sin_of_pi_is_gos_value_not_the_c_librarys():
    # Go's Cephes sine: 1.2246467991473515e-16; C's correctly rounded one: 1.2246467991473532e-16.
    assert _run("fmt.Println(math.Sin(math.Pi))") == "1.2246467991473515e-16\n"


def test_modf_ldexp_keep_go_special_values():
    src = ("fmt.Println(math.Modf(-0.5))\nfmt.Println(math.Modf(math.Inf(1)))\n"
           "fmt.Println(math.Ldexp(1, 2000), math.Ldexp(-1, 2000), math.Ldexp(1, -2000))\n"
           "fmt.Println(math.Frexp(8))")
    assert _run(src) == "-0 -0.5\n+Inf NaN\n+Inf -Inf 0\n0.5 4\n"


def test_pow_special_cases():
    src = ("fmt.Println(math.Pow(2, 10), math.Pow(10, -2), math.Pow(0, -1), math.Pow(-8, 1.0/3), "
           "math.Pow(2, 0.5), math.Pow(-2, 3), math.Pow(-1, math.Inf(1)), math.Pow(math.Inf(-1), -3))")
    assert _run(src) == "1024 0.01 +Inf NaN 1.4142135623730951 -8 1 -0\n"


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 2_000_000))
def test_cbrt_is_exact_on_every_cube(n):
    assert gomath.cbrt(float(n) ** 3) == n
    assert gomath.cbrt(-float(n) ** 3) == -n


@settings(max_examples=300, deadline=None)
@given(st.integers(-1074, 1023))
def test_log2_is_exact_on_every_power_of_two(e):
    assert gomath.log2(math.ldexp(1.0, e)) == e


def _ulps(a: float, b: float) -> int:
    return abs(gomath._bits(a) - gomath._bits(b)) if (a < 0) == (b < 0) else abs(gomath._bits(a) + gomath._bits(b))


@settings(max_examples=500, deadline=None)
@given(st.floats(min_value=2.2250738585072014e-308, max_value=1e308))
def test_ported_log_is_within_an_ulp_of_the_c_library(x):
    """The port's arithmetic is right: Go's algorithms err by less than an ulp, as the C library's do."""
    assert _ulps(gomath.log(x), math.log(x)) <= 1
    with decimal.localcontext() as ctx:
        ctx.prec = 50
        exact_cbrt = float(decimal.Decimal(x) ** (decimal.Decimal(1) / 3))
    assert _ulps(gomath.cbrt(x), exact_cbrt) <= 1


@settings(max_examples=500, deadline=None)
@given(st.floats(min_value=-1e8, max_value=1e8))
def test_ported_trigonometry_is_close_to_the_c_library(x):
    for go, c in ((gomath.sin, math.sin), (gomath.cos, math.cos), (gomath.atan, math.atan)):
        assert math.isclose(go(x), c(x), rel_tol=1e-15, abs_tol=1e-15), go
    t = math.tan(x)
    assert math.isclose(gomath.tan(x), t, rel_tol=1e-13, abs_tol=1e-15)
    y = x / 1e8
    if abs(y) < 0.5:  # Go's Asin (Sqrt(1 - x*x)) and Acos (Pi/2 - Asin) lose digits near ±1, as in Go
        assert math.isclose(gomath.asin(y), math.asin(y), rel_tol=1e-15, abs_tol=1e-300)
        assert math.isclose(gomath.acos(y), math.acos(y), rel_tol=1e-15)
    assert math.isclose(gomath.atan2(x, y - 0.5), math.atan2(x, y - 0.5), rel_tol=1e-15)


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=1e-3, max_value=1e3), st.floats(min_value=-30, max_value=30))
def test_ported_pow_and_hypot_are_close_to_the_c_library(x, y):
    assert math.isclose(gomath.pow(x, y), math.pow(x, y), rel_tol=1e-14)
    assert math.isclose(gomath.hypot(x, y), math.hypot(x, y), rel_tol=1e-15)


# Go 1.19.8's math.Exp on linux/amd64, recorded with the CPU's FMA used (the default) and with
# GODEBUG=cpu.fma=off: its assembly rounds differently in the two cases.
_GO_EXP = [  # x, Exp(x) with FMA, Exp(x) without
    (-0.2, 0.8187307530779818, 0.8187307530779819),
    (-0.99, 0.37157669102204566, 0.3715766910220457),
    (22.0, 3584912846.1315913, 3584912846.131592),
    (3.141592653589793, 23.140692632779267, 23.14069263277927),
    (-2.356194490192345, 0.09478022484215486, 0.09478022484215487),
    (0.49999999999999994, 1.648721270700128, 1.6487212707001282),
]


def test_exp_is_gos_amd64_assembly_with_and_without_fma(monkeypatch):
    for x, with_fma, _ in _GO_EXP:
        assert gomath_exp.exp(x) == with_fma, x
    monkeypatch.setattr(gomath_exp, "USE_FMA", False)
    for x, _, without in _GO_EXP:
        assert gomath_exp.exp(x) == without, x


def test_exp_range_is_gos_not_the_true_ones():
    # Go's assembly gives +Inf from about 709.44 on (the true Exp(709.78) is 1.79e308); output of real Go.
    src = ("fmt.Println(math.Exp(709.78), math.Exp(709.7), math.Exp(709.4), math.Exp(-745.1332191019411), "
           "math.Exp(-746))\n"
           "fmt.Println(math.Sinh(-1000), math.Cosh(-709.78), math.Expm1(709.782712893384), math.Log1p(-1))")
    assert _run(src) == "+Inf +Inf 1.2260423226426727e+308 5e-324 0\n-Inf +Inf +Inf -Inf\n"


@settings(max_examples=500, deadline=None)
@given(st.floats(min_value=-1e100, max_value=1e100), st.floats(min_value=-1e100, max_value=1e100))
def test_fma_rounds_once(a, b):
    """fma(a, b, -a*b) is the product's rounding error exactly, which only a single rounding gives."""
    p = a * b
    assume(abs(p) > 1e-250 or a == 0 or b == 0)  # a tinier product's error is below the subnormals
    assert Fraction(a) * Fraction(b) == Fraction(p) + Fraction(gomath_exp.fma(a, b, -p))


_FINITE = st.floats(allow_nan=False, allow_infinity=False)


@settings(max_examples=1000, deadline=None)
@given(_FINITE, _FINITE, _FINITE)
def test_fast_fma_agrees_with_the_exact_one(a, b, c):
    """The Dekker-product fast path rounds exactly as the big-integer computation does."""
    if a and b and c:
        assert gomath_exp.fma(a, b, c) == gomath_exp._fma_exact(a, b, c)
