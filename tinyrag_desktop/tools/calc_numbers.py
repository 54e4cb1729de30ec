"""The calculator's numbers: functions and arithmetic kept within size limits, and how a result reads."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable

from .errors import ToolError

Number = Fraction | float

MAX_EXPONENT_BITS = 100_000  # refuse results with more bits than this
MAX_FACTORIAL = 2_000  # n! up to this, and n!! up to twice this (4000!! has fewer digits than 2000!)
MAX_SHOWN_DIGITS = 1_000  # longer whole numbers are shown to 15 significant digits, with their size
_EXACT_SHOWN = 30  # characters: a longer exact fraction or decimal is shown to 15 significant digits
MAX_ROUND_DIGITS = 1_000  # round(x, n) for |n| up to this: round(1, 10^9) built a billion-digit power of ten
FLOAT_LIMIT = "1.8 × 10^308"  # about the largest value that is not exact (a float), for the messages
FLOAT_SMALLEST = "2.2 × 10^-308"  # and the smallest one with all its digits


class CalcError(ToolError):
    """An expression the calculator will not or cannot compute; the message says why."""


class CallError(CalcError):
    """A function refusing its argument, said with the call: "tan(90°) is not defined: …". The function has
    only the value (it said tan(1.5707963267949)); the parser puts back the call as it was typed."""

    def __init__(self, name: str, x: Number, why: str) -> None:
        super().__init__(f"{name}({brief(x)}) {why}")
        self.name, self.why = name, why

    def as_typed(self, typed: str) -> CalcError:
        return CalcError(f"{self.name}({typed}) {self.why}")


# Functions ------------------------------------------------------------------------------------------------

def _as_float(x: Number, name: str) -> float:
    """``x`` as a float for ``name``; a number past a float's range is refused in words."""
    try:
        return float(x)
    except OverflowError:
        raise CallError(name, x, f"is too large to compute here: {name} takes numbers up to about "
                                 f"{FLOAT_LIMIT}.") from None


def _not_exact(x: Number) -> Fraction:
    """The exact value of ``x``; a float as it is shown, to 15 digits. exp(ln(2.5)) is 2.4999999999999996,
    shown as 2.5: rounded, floored or ceiled, it is taken for the 2.5 the user sees."""
    return x if isinstance(x, Fraction) else Fraction(fifteen_digits(x))


def _sqrt(x: Number) -> Number:
    if x < 0:
        raise CalcError("The square root of a negative number is not a real number.")
    if isinstance(x, Fraction):
        n, d = math.isqrt(x.numerator), math.isqrt(x.denominator)
        if n * n == x.numerator and d * d == x.denominator:
            return Fraction(n, d)
        if x > 1e300:  # beyond a float: its whole part's integer root has hundreds of digits to spare
            try:
                return float(math.isqrt(x.numerator // x.denominator))
            except OverflowError:
                raise CallError("sqrt", x, f"is too large to compute here: it is about {ten_to(_log10(x) / 2)}, "
                                           f"past {FLOAT_LIMIT}, the limit for a value that is not exact.") from None
        if 0 < x < 1e-300:
            return 1 / _sqrt(1 / x)
    return math.sqrt(x)


def _logarithm(fn: Callable[[float], float]) -> Callable[[Number], float]:
    """ln, log10 or log2, also of exact numbers past a float's range (log10(10^400) is 400)."""

    def log(x: Number) -> float:
        if x <= 0:
            raise CalcError("The logarithm is only defined for positive numbers.")
        if isinstance(x, Fraction) and not 1e-300 < x < 1e300:
            return fn(x.numerator) - fn(x.denominator)  # math's logarithms take integers of any size
        return fn(float(x))

    return log


_ln, _log10, _log2 = _logarithm(math.log), _logarithm(math.log10), _logarithm(math.log2)


def _log(x: Number, base: Number | None = None) -> float:
    """log(x) is base 10, as on a calculator (ln is the natural logarithm); log(x, b) is base b."""
    if base is None:
        return _log10(x)
    if x <= 0 or base <= 0 or base == 1:
        raise CalcError("The logarithm is only defined for positive numbers (and a base other than 1).")
    return _ln(x) / _ln(base)


def _exp(x: Number) -> float:
    if x < -1000:  # 0 as a float (said in a note), also for an x past a float's range
        return 0.0
    try:
        return math.exp(_as_float(x, "exp"))
    except OverflowError:
        size = ten_to(float(x) / math.log(10))
        raise CallError("exp", x, f"is too large to compute here: it is about {size} (the limit is about "
                                  f"{FLOAT_LIMIT}).") from None


def _whole(x: Number, what: str) -> int:
    if not (isinstance(x, Fraction) and x.denominator == 1):
        raise CalcError(f"{what} needs a whole number.")
    return x.numerator


def _round(x: Number, ndigits: Number | None = None) -> Fraction:
    """Half away from zero, as on a calculator: round(2.5) is 3 and round(-2.5) -3 (Python's round went to
    the even neighbour, 2), round(2.675, 2) is 2.68. A float is rounded as it is shown (see _not_exact)."""
    n = 0 if ndigits is None else _whole(ndigits, "round(x, n)")
    if abs(n) > MAX_ROUND_DIGITS:
        raise CalcError(f"round(x, n) takes n from -{MAX_ROUND_DIGITS:,} to {MAX_ROUND_DIGITS:,}.")
    scaled = _not_exact(x) * Fraction(10) ** n
    whole = math.floor(abs(scaled) + Fraction(1, 2))
    return fits(Fraction(whole if scaled >= 0 else -whole) / Fraction(10) ** n)


def factorial(x: Number, double: bool = False) -> Number:
    """``x!``, or the double factorial ``x!!``: x × (x - 2) × … down to 1 or 2, so 5!! is 15 (it was read
    as (5!)!, a number of 199 digits) and 6!! is 48."""
    what, sign = ("double factorial", "!!") if double else ("factorial", "!")
    limit = 2 * MAX_FACTORIAL if double else MAX_FACTORIAL
    if not (isinstance(x, Fraction) and x.denominator == 1 and x >= 0):
        raise CalcError(f"The {what} is defined for whole numbers from 0 up.")
    if x > limit:
        said = f"{x}{sign}" if x < 10**15 else f"The {what} of {brief(x)}"
        raise CalcError(f"{said} is too large to compute here (the limit is {limit}{sign}).")
    return Fraction(math.prod(range(int(x), 0, -2)) if double else math.factorial(int(x)))


def _float_fn(fn: Callable[[float], float], domain: str = "") -> Callable[[Number], float]:
    def call(x: Number) -> float:
        value = _as_float(x, fn.__name__)
        try:
            return fn(value)
        except ValueError:
            raise CallError(fn.__name__, x, f"is not defined{domain}.") from None

    return call


def _angle_fn(fn: Callable[[float], float]) -> Callable[[Number], Number]:
    """sin, cos or tan, with 0 where the exact value is 0: pi is a float a little off the real pi, so
    sin(pi) came to 1.22464679914735e-16. A result smaller than the rounding error the angle itself carries
    (about 2^-50 of it) is that error, not a value, and is given as an exact 0. A whole number is an exact
    angle, with no such error: sin(1e15) is 0.858, and cos(534483448) 5.2e-10, not 0. Beyond 2^32 the
    rounding error of an angle is as wide as a good share of the values near it (sin(1e15 + 0.5) is 0.507):
    no result there is taken for it."""
    inexact = _float_fn(fn)

    def call(x: Number) -> Number:
        if isinstance(x, Degrees):
            x = to_radians(x.degrees % 360)
        value = inexact(x)
        exact = isinstance(x, int) or isinstance(x, Fraction) and x.denominator == 1
        near_zero = abs(value) < abs(float(x)) * 2.0**-50 and abs(float(x)) < 2.0**32
        return Fraction(0) if not exact and near_zero else value

    return call


def _tan(x: Number) -> Number:
    """tan, refused where cos is 0 (tan(pi/2) came to 1.63e+16, a rounding error's reciprocal)."""
    value = _angle_fn(math.tan)(x)  # an angle too large for a float is refused in tan's name
    if _angle_fn(math.cos)(x) == 0:
        raise CallError("tan", x, "is not defined: the angle is an odd multiple of pi/2 (90°).")
    return value


_FROM_MINUS_ONE_TO_ONE = ": it takes numbers from -1 to 1"
FUNCTIONS: dict[str, tuple[Callable[..., Number], int, int]] = {
    "sqrt": (_sqrt, 1, 1),
    "sin": (_angle_fn(math.sin), 1, 1),
    "cos": (_angle_fn(math.cos), 1, 1),
    "tan": (_tan, 1, 1),
    "asin": (_float_fn(math.asin, _FROM_MINUS_ONE_TO_ONE), 1, 1),
    "acos": (_float_fn(math.acos, _FROM_MINUS_ONE_TO_ONE), 1, 1),
    "atan": (_float_fn(math.atan), 1, 1),
    "exp": (_exp, 1, 1),
    "log": (_log, 1, 2),
    "ln": (_ln, 1, 1),
    "log10": (_log10, 1, 1),
    "log2": (_log2, 1, 1),
    "abs": (abs, 1, 1),
    "round": (_round, 1, 2),
    "floor": (lambda x: Fraction(math.floor(_not_exact(x))), 1, 1),
    "ceil": (lambda x: Fraction(math.ceil(_not_exact(x))), 1, 1),
    "min": (lambda *values: min(values), 1, 100),  # min(5) is 5: the builtin wants an iterable of one
    "max": (lambda *values: max(values), 1, 100),
    "factorial": (factorial, 1, 1),
}
CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau}
ANGLES, INVERSE_ANGLES = ("sin", "cos", "tan"), ("asin", "acos", "atan")


# Arithmetic -----------------------------------------------------------------------------------------------

def fits(value: Number) -> Number:
    """``value``, when it is small enough to keep working with; else a CalcError.

    Powers were checked by the size of their result, yet a product of them was not: forty times 2**99999
    came to four million bits, and showing it took minutes, with the answer frozen. A float past its range
    is infinite, and inf - inf is nan, which floor() turned into a ValueError."""
    if isinstance(value, Fraction):
        if max(value.numerator.bit_length(), value.denominator.bit_length()) > MAX_EXPONENT_BITS + 64:
            raise CalcError("A number in that calculation is too large to compute exactly here.")
    elif not math.isfinite(value):
        raise CalcError(f"A number in that calculation is too large: past about {FLOAT_LIMIT}, the limit "
                        "for a value that is not exact (one from pi, e, a root, sin, log, exp, …).")
    return value


def arith(op: str, a: Number, b: Number) -> Number:
    """``a op b`` for + - * / // % (mod), refused in words when it divides by zero or grows too large."""
    if op in ("/", "//", "%", "mod") and b == 0:
        raise CalcError("Division by zero.")
    try:
        if op == "+":
            return fits(a + b)
        if op == "-":
            return fits(a - b)
        if op == "*":
            return fits(a * b)
        if op == "/":
            return fits(a / b)
        if op == "//":
            return Fraction(math.floor(fits(a / b)))
        return fits(a % b)
    except OverflowError:  # an exact number past a float's range, met with pi, a root, …
        big = a if isinstance(a, Fraction) else b
        raise CalcError(f"A number in that calculation (about {ten_to(_log10(abs(big)))}) is too large to "
                        f"combine with a value that is not exact (one from pi, e, a root, sin, log, exp, …): "
                        f"those go up to about {FLOAT_LIMIT}.") from None
    except ZeroDivisionError:  # an exact divisor below a float's range (1e-400), met with a value that is not exact
        raise CalcError(f"A divisor in that calculation (about {ten_to(_log10(abs(b)))}) is too small to use "
                        f"with a value that is not exact (one from pi, e, a root, sin, log, exp, …): those go "
                        f"down to about {FLOAT_SMALLEST}.") from None


def raise_to_power(base: Number, exponent: Number) -> Number:
    if isinstance(base, Fraction) and isinstance(exponent, Fraction) and exponent.denominator == 1:
        e = exponent.numerator
        if base == 0 and e < 0:
            raise CalcError("Division by zero (0 to a negative power).")
        if abs(base) in (0, 1) or e == 0:
            return base**e
        # The result's size, from the base's logarithm: its bit length overcounts a small base (2 has 2 bits,
        # yet 2^50001 needs 50,002, not 100,002). An exponent past 2^64 is too large whatever the base, and
        # 2^2^2^2^2^2 handed one of 19,729 digits to a float ("too large for that function").
        largest = max(abs(base.numerator), base.denominator)
        if e.bit_length() > 64 or math.log2(largest) * abs(e) > MAX_EXPONENT_BITS:
            digits = _about(math.log10(abs(e)) + math.log10(math.log10(largest)))
            raise CalcError(f"That power is too large to compute exactly here: it has about {digits} digits "
                            f"(the limit is about 30,000).")
        return base**e
    try:
        b, x = float(base), float(exponent)
        if b == 0 != base:  # 10^-400 is 0.0 as a float, and its square root came to 0
            raise OverflowError
    except OverflowError:
        big = base if base != 0 and abs(_log10(abs(base))) > 300 else exponent
        raise CalcError(f"That power cannot be computed here: a number in it is about {ten_to(_log10(abs(big)))}, "
                        f"and a power that is not whole takes numbers from about {FLOAT_SMALLEST} up to about "
                        f"{FLOAT_LIMIT}.") from None
    if b < 0 and not x.is_integer():
        raise CalcError("A negative number to a fractional power is not a real number.")
    try:
        return fits(b**x)
    except ZeroDivisionError:
        raise CalcError("Division by zero (0 to a negative power).") from None
    except OverflowError:
        raise CalcError(f"That power is too large to compute here: it is about {ten_to(x * math.log10(abs(b)))} "
                        f"(the limit for a value that is not exact is about {FLOAT_LIMIT}).") from None


class Degrees(float):
    """An angle written in degrees ("30°"): its value in radians, with the degrees kept exactly, so that sin,
    cos and tan take it modulo 360° before it is a float. sin(1e20°) was 0.306, from an angle some hundred
    radians off; it is sin(280°), -0.985. Any arithmetic on it gives a plain float, in radians."""

    __slots__ = ("degrees",)
    degrees: Fraction

    def __neg__(self) -> Number:  # -90° is still exactly -90°: tan(-90°) is not defined either
        return to_radians(-self.degrees)


def to_radians(degrees: Number) -> Number:
    radians = arith("*", degrees, math.pi / 180)
    if not isinstance(degrees, Fraction):
        return radians
    angle = Degrees(radians)
    angle.degrees = degrees
    return angle


# Showing results ------------------------------------------------------------------------------------------

def _scientific(value: Fraction) -> str:
    """``value`` to 15 significant digits, as ``1.23456789012346e+4300``: exact, for any size of number."""
    n, d = abs(value.numerator), value.denominator
    k = int((n.bit_length() - d.bit_length()) * math.log10(2))  # 10**k <= |value| < 10**(k + 1), roughly

    def at_least(power: int) -> bool:  # |value| >= 10**power
        return n * 10 ** max(-power, 0) >= d * 10 ** max(power, 0)

    while not at_least(k):
        k -= 1
    while at_least(k + 1):
        k += 1
    mantissa = round(Fraction(n * 10 ** max(14 - k, 0), d * 10 ** max(k - 14, 0)))
    if mantissa == 10**15:
        mantissa, k = mantissa // 10, k + 1
    digits = str(mantissa)
    sign = "-" if value < 0 else ""
    return f"{sign}{digits[0]}.{digits[1:].rstrip('0') or '0'}e{k:+d}"


def fifteen_digits(value: Number) -> str:
    """``value`` to 15 significant digits: in ordinary notation from 1e-6 up to 1e15 ("81164.9747535961",
    "0.0000025"; it was "8.11649747535961e+4"), in e-notation beyond ("1.5e+20", "2.5e-07" for a float)."""
    exact = Fraction(value)
    if exact == 0:
        return "0"
    text = _scientific(exact)
    mantissa, _, exponent = text.partition("e")
    k = int(exponent)
    if not -6 <= k < 15:
        return f"{value:.15g}" if isinstance(value, float) else text
    digits = mantissa.lstrip("-").replace(".", "").rstrip("0") or "0"
    if k >= 0:
        whole, fraction = digits[:k + 1].ljust(k + 1, "0"), digits[k + 1:]
    else:
        whole, fraction = "0", "0" * (-k - 1) + digits
    return ("-" if exact < 0 else "") + whole + (f".{fraction}" if fraction else "")


def brief(value: Number) -> str:
    """``value`` in a message: as shown when short, else to 15 digits ("1.0e+400", not 401 digits)."""
    shown = show(value) if isinstance(value, float) or max(abs(value.numerator), value.denominator) < 10**40 else ""
    return shown if shown and len(shown) <= _EXACT_SHOWN and " " not in shown else fifteen_digits(value)


def ten_to(power: float) -> str:
    """A size, given as a power of ten, for a message: "2 × 10^434", "10^400", "10^(1.2e+20)"."""
    if abs(power) >= 1e15:
        return f"10^({fifteen_digits(power)})"
    whole = math.floor(power)
    mantissa = f"{10 ** (power - whole):.2g}"
    if mantissa == "10":
        mantissa, whole = "1", whole + 1
    return f"10^{whole}" if mantissa == "1" else f"{mantissa} × 10^{whole}"


def _about(log10_count: float) -> str:
    """A count, given by its logarithm, for a message: "95,424,250", or "10^19728" when that is too long."""
    return f"{round(10**log10_count):,}" if log10_count < 15 else ten_to(log10_count)


def _decimal_places(denominator: int) -> int | None:
    """How many decimals ``x/denominator`` needs (in lowest terms), or None when it never terminates."""
    twos = (denominator & -denominator).bit_length() - 1
    rest, fives = denominator >> twos, 0
    while rest % 5 == 0:
        rest //= 5
        fives += 1
    return max(twos, fives) if rest == 1 else None


def _digit_count(n: int) -> int:
    """The number of decimal digits of ``n`` > 0, without printing it."""
    k = int(n.bit_length() * math.log10(2))
    while 10**k > n:
        k -= 1
    while 10 ** (k + 1) <= n:
        k += 1
    return k + 1


def show(value: Number) -> str:
    """How a result reads. A whole number exactly, up to MAX_SHOWN_DIGITS digits (2^100, 100!); beyond, to
    15 significant digits with its size. Another exact number exactly when that is short ("0.3", "1/3 ≈
    0.333333333333333", "1628.89462677744140625"); else as m·10^k when that is exact ("1e-400"); else to 15
    significant digits ("≈ 1647.00949769028": it was a fraction of 290 digits over 290, and 1.01^365 a
    decimal of 733). A value that is not exact (a float), to 15 significant digits."""
    if isinstance(value, float):
        return fifteen_digits(value)
    if value.denominator == 1:
        n = abs(value.numerator)
        if n.bit_length() <= MAX_SHOWN_DIGITS * 4 and _digit_count(n) <= MAX_SHOWN_DIGITS:
            return str(value.numerator)
        return f"≈ {_scientific(value)} (a whole number of {_digit_count(n):,} digits)"
    return _short_exactly(value) or e_notation(value) or f"≈ {fifteen_digits(value)}"


def _short_exactly(value: Fraction) -> str | None:
    """A fraction or terminating decimal exactly, when that takes at most _EXACT_SHOWN characters."""
    if max(abs(value.numerator), value.denominator).bit_length() > 4 * _EXACT_SHOWN:  # over 36 digits
        return None
    places = _decimal_places(value.denominator)
    if places is None:
        fraction = f"{value.numerator}/{value.denominator}"
        return f"{fraction} ≈ {fifteen_digits(value)}" if len(fraction) <= _EXACT_SHOWN else None
    sign = "-" if value < 0 else ""
    whole, fraction = divmod(abs(value.numerator) * 10**places // value.denominator, 10**places)
    text = f"{sign}{whole}.{fraction:0{places}d}"
    return text if len(text) <= _EXACT_SHOWN else None


def e_notation(value: Number) -> str | None:
    """``value`` exactly as m·10^k with at most 15 digits in m ("1e+309", "2.5e-320"), or None."""
    if not isinstance(value, Fraction) or value == 0:
        return None
    text = _scientific(value)
    mantissa, _, exponent = text.partition("e")
    if Fraction(mantissa) * Fraction(10) ** int(exponent) != value:
        return None
    return f"{mantissa.removesuffix('.0')}e{exponent}"
