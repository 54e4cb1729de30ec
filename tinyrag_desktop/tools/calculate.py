"""The ``calculate`` tool: exact arithmetic on a small, closed grammar (no names, attributes or calls beyond it).

Numbers are exact fractions, so ``3 * (17 + 5) / 2`` is ``33`` and ``0.1 + 0.2`` is ``0.3``. Functions that
are not exact (sqrt of a non-square, sin, log, …) give a float. Powers and factorials that would take
too long or too much memory are refused instead of computed.

Grammar (precedence low to high): ``+ -`` < ``* / // % ×  ÷`` < unary ``+ -`` < ``** ^`` (right) < postfix
``%`` (percent) and ``!``; atoms are numbers (``1_000``, ``2.5``, ``1e3``), ``pi``, ``e``, parentheses and
``f(args)`` for f in sqrt, sin, cos, tan, asin, acos, atan, log, ln, log10, log2, exp, abs, round, floor,
ceil, min, max, factorial.
"""

from __future__ import annotations

import asyncio
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from .errors import ToolError
from .registry import ToolContext, ToolResult, ToolSpec

Number = Fraction | float

MAX_EXPONENT_BITS = 100_000  # refuse results with more bits than this
_MAX_LITERAL_EXPONENT = 30_000  # 1e30000 has about MAX_EXPONENT_BITS bits
MAX_FACTORIAL = 2_000
MAX_LENGTH = 1_000
MAX_SHOWN_DIGITS = 1_000  # longer results are shown to 15 significant digits, with their size

_TOKEN = re.compile(
    r"\s*(?:(?P<num>(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)|(?P<name>[A-Za-z_]\w*)"
    r"|(?P<op>\*\*|//|[-+*/%^()!,×÷−]))"
)


class CalcError(ToolError):
    """An expression the calculator will not or cannot compute; the message says why."""


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str
    text: str
    pos: int


def _tokenize(expr: str) -> list[_Tok]:
    tokens: list[_Tok] = []
    i = 0
    expr = expr.rstrip()
    while i < len(expr):
        m = _TOKEN.match(expr, i)
        if m is None or m.end() == i:
            bad = expr[i:].lstrip()[:1]
            raise CalcError(f"“{bad}” is not something the calculator understands (at position {i + 1}).")
        kind = m.lastgroup or ""
        text = m.group(kind)
        text = {"×": "*", "÷": "/", "−": "-", "^": "**"}.get(text, text)
        tokens.append(_Tok(kind, text, m.start(kind)))
        i = m.end()
    tokens.append(_Tok("end", "", len(expr)))
    return tokens


def _exact(x: Number) -> bool:
    return isinstance(x, Fraction)


def _sqrt(x: Number) -> Number:
    if x < 0:
        raise CalcError("The square root of a negative number is not a real number.")
    if isinstance(x, Fraction):
        n, d = math.isqrt(x.numerator), math.isqrt(x.denominator)
        if n * n == x.numerator and d * d == x.denominator:
            return Fraction(n, d)
    return math.sqrt(x)


def _log(x: Number, base: Number | None = None) -> float:
    if x <= 0 or (base is not None and (base <= 0 or base == 1)):
        raise CalcError("The logarithm is only defined for positive numbers (and a base other than 1).")
    return math.log(x) if base is None else math.log(x, base)


def _round(x: Number, ndigits: Number | None = None) -> Number:
    if ndigits is None:
        return Fraction(round(x))
    if not (isinstance(ndigits, Fraction) and ndigits.denominator == 1):
        raise CalcError("round(x, n) needs a whole number n.")
    return Fraction(round(Fraction(x), int(ndigits)))


def _factorial(x: Number) -> Number:
    if not (isinstance(x, Fraction) and x.denominator == 1 and x >= 0):
        raise CalcError("The factorial is defined for whole numbers from 0 up.")
    if x > MAX_FACTORIAL:
        raise CalcError(f"{x}! is too large to compute here (the limit is {MAX_FACTORIAL}!).")
    return Fraction(math.factorial(int(x)))


def _float_fn(fn: Callable[[float], float]) -> Callable[[Number], float]:
    def call(x: Number) -> float:
        try:
            return fn(float(x))
        except (ValueError, OverflowError) as exc:
            raise CalcError(f"{fn.__name__}({_show(x)}) is not defined ({exc}).") from None

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
        value = inexact(x)
        exact = isinstance(x, int) or isinstance(x, Fraction) and x.denominator == 1
        near_zero = abs(value) < abs(float(x)) * 2.0**-50 and abs(float(x)) < 2.0**32
        return Fraction(0) if not exact and near_zero else value

    return call


def _tan(x: Number) -> Number:
    """tan, refused where cos is 0 (tan(pi/2) came to 1.63e+16, a rounding error's reciprocal)."""
    value = _angle_fn(math.tan)(x)  # an angle too large for a float is refused in tan's name
    if _angle_fn(math.cos)(x) == 0:
        raise CalcError(f"tan({_show(x)}) is not defined: the angle is an odd multiple of pi/2.")
    return value


_FUNCTIONS: dict[str, tuple[Callable[..., Number], int, int]] = {
    "sqrt": (_sqrt, 1, 1),
    "sin": (_angle_fn(math.sin), 1, 1),
    "cos": (_angle_fn(math.cos), 1, 1),
    "tan": (_tan, 1, 1),
    "asin": (_float_fn(math.asin), 1, 1),
    "acos": (_float_fn(math.acos), 1, 1),
    "atan": (_float_fn(math.atan), 1, 1),
    "exp": (_float_fn(math.exp), 1, 1),
    "log": (_log, 1, 2),
    "ln": (_log, 1, 1),
    "log10": (lambda x: _log(x, Fraction(10)), 1, 1),
    "log2": (lambda x: _log(x, Fraction(2)), 1, 1),
    "abs": (abs, 1, 1),
    "round": (_round, 1, 2),
    "floor": (lambda x: Fraction(math.floor(x)), 1, 1),
    "ceil": (lambda x: Fraction(math.ceil(x)), 1, 1),
    "min": (min, 1, 100),
    "max": (max, 1, 100),
    "factorial": (_factorial, 1, 1),
}
_CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau}


class _Parser:
    def __init__(self, expr: str) -> None:
        self.tokens = _tokenize(expr)
        self.i = 0

    def peek(self) -> _Tok:
        return self.tokens[self.i]

    def take(self) -> _Tok:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def expect(self, text: str) -> None:
        tok = self.take()
        if tok.text != text:
            found = f"“{tok.text}”" if tok.text else "the end"
            raise CalcError(f"Expected “{text}” but found {found} (at position {tok.pos + 1}).")

    def parse(self) -> Number:
        value = self.sum()
        tok = self.peek()
        if tok.kind != "end":
            raise CalcError(self._unexpected(tok))
        return value

    def _unexpected(self, tok: _Tok) -> str:
        """Why ``tok`` cannot come where it is, saying what the writer probably meant when it is plain:
        a thousands separator ("1,000"), a unit ("5 km"), the letter x for times."""
        before = self.tokens[self.i - 1] if self.i else None
        after = self.tokens[self.i + 1]
        if tok.text == "," and before is not None and before.kind == "num" and after.kind == "num":
            return (f"Write numbers without commas: “{before.text},{after.text}” as {before.text}{after.text} "
                    "(a decimal point is a dot: 1.5).")
        if tok.kind == "name" and before is not None and before.kind == "num":
            if tok.text.lower() == "x":
                return "Write * or × to multiply, not the letter x."
            return (f"“{tok.text}” looks like a unit, and the calculator takes plain numbers only: convert to "
                    "one unit first (for example 5 km + 3 m as 5000 + 3, in metres).")
        return f"Unexpected “{tok.text}” at position {tok.pos + 1}."

    def sum(self) -> Number:
        value = self.product()
        while self.peek().text in ("+", "-"):
            op = self.take().text
            right = self.product()
            value = _fits(value + right if op == "+" else value - right)
        return value

    def product(self) -> Number:
        value = self.unary()
        while self.peek().text in ("*", "/", "//", "%"):
            op = self.take().text
            right = self.unary()
            if op != "*" and right == 0:
                raise CalcError("Division by zero.")
            if op == "*":
                value = value * right
            elif op == "/":
                value = value / right
            elif op == "//":
                value = Fraction(math.floor(value / right))
            else:
                value = value % right
            value = _fits(value)
        return value

    def unary(self) -> Number:
        if self.peek().text in ("+", "-"):
            op = self.take().text
            value = self.unary()
            return -value if op == "-" else value
        return self.power()

    def power(self) -> Number:
        base = self.postfix()
        if self.peek().text == "**":
            self.take()
            exponent = self.unary()  # right-associative; -2**2 style signs bind to the exponent
            return _pow(base, exponent)
        return base

    def postfix(self) -> Number:
        value = self.atom()
        while True:
            tok = self.peek()
            if tok.text == "!":
                self.take()
                value = _factorial(value)
            elif tok.text == "%" and self._percent_here():
                self.take()
                value = value / 100
                if self.peek().kind == "name" and self.peek().text.lower() == "of":  # "12% of 250"
                    self.take()
                    value = _fits(value * self.unary())
            else:
                return value

    def _percent_here(self) -> bool:
        """``%`` is a percent sign when no operand follows it (``12%``, ``12% * 250``), else modulo."""
        nxt = self.tokens[self.i + 1]
        if nxt.kind == "name" and nxt.text.lower() == "of":
            return True
        return nxt.kind == "end" or nxt.text in (")", ",", "+", "-", "*", "/", "//", "**", "%", "!")

    def atom(self) -> Number:
        tok = self.take()
        if tok.kind == "num":
            exponent = _EXPONENT.search(tok.text)
            if exponent is not None and (len(exponent.group(1)) > 6 or int(exponent.group(1)) > _MAX_LITERAL_EXPONENT):
                # 1e9999999 is read exactly, as ten to that power: minutes of work for one token
                raise CalcError(f"“{tok.text}” is too large to compute exactly here.")
            try:
                return _fits(Fraction(tok.text.replace("_", "")))
            except (ValueError, ZeroDivisionError):
                raise CalcError(f"“{tok.text}” is not a number.") from None
        if tok.text == "(":
            value = self.sum()
            self.expect(")")
            return value
        if tok.kind == "name":
            name = tok.text.lower()
            if name in _CONSTANTS:
                return _CONSTANTS[name]
            if name in _FUNCTIONS:
                return self.call(name)
            functions = ", ".join(sorted(_FUNCTIONS))
            raise CalcError(f"“{tok.text}” is not allowed: the calculator takes numbers, the operators "
                            f"+ - * / // % ** ! and the functions {functions}, with the constants pi, e and tau.")
        found = f"“{tok.text}”" if tok.text else "the end"
        raise CalcError(f"Expected a number but found {found} (at position {tok.pos + 1}).")

    def call(self, name: str) -> Number:
        fn, lo, hi = _FUNCTIONS[name]
        self.expect("(")
        args = [self.sum()]
        while self.peek().text == ",":
            self.take()
            args.append(self.sum())
        self.expect(")")
        if not lo <= len(args) <= hi:
            raise CalcError(f"{name}() takes {lo if lo == hi else f'{lo} to {hi}'} argument(s), not {len(args)}.")
        return fn(*args)


_EXPONENT = re.compile(r"[eE][-+]?0*(\d+)$")


def _fits(value: Number) -> Number:
    """``value``, when it is small enough to keep working with exactly; else a CalcError.

    Powers were checked by the size of their result, yet a product of them was not: forty times 2**99999
    came to four million bits, and showing it took minutes, with the answer frozen."""
    if isinstance(value, Fraction) and max(value.numerator.bit_length(),
                                           value.denominator.bit_length()) > MAX_EXPONENT_BITS + 64:
        raise CalcError("A number in that calculation is too large to compute exactly here.")
    return value


def _pow(base: Number, exponent: Number) -> Number:
    if _exact(base) and _exact(exponent) and exponent.denominator == 1:  # type: ignore[union-attr]
        e = int(exponent)
        if base == 0 and e < 0:
            raise CalcError("Division by zero (0 to a negative power).")
        # The result's size in bits, from the base's logarithm: its bit length overcounts a small base
        # (2 has 2 bits, yet 2^50001 needs 50,002, not 100,002).
        largest = max(abs(base.numerator), abs(base.denominator))  # type: ignore[union-attr]
        if abs(base) != 1 and largest > 1 and math.log2(largest) * abs(e) > MAX_EXPONENT_BITS:
            raise CalcError("That power is too large to compute exactly here.")
        return base**e
    try:
        result = float(base) ** float(exponent)
    except (OverflowError, ZeroDivisionError):
        raise CalcError("That power is too large (or divides by zero).") from None
    if isinstance(result, complex):
        raise CalcError("A negative number to a fractional power is not a real number.")
    return result


def evaluate(expr: str) -> Number:
    """The exact value of ``expr``; raises CalcError with a plain-words reason."""
    if not expr.strip():
        raise CalcError("There is no expression to calculate.")
    if len(expr) > MAX_LENGTH:
        raise CalcError(f"The expression is too long (over {MAX_LENGTH} characters).")
    try:
        value = _Parser(expr).parse()
    except OverflowError:  # a huge exact number handed to a float function (sqrt, sin, log, ...)
        raise CalcError("A number in that calculation is too large for that function.") from None
    if isinstance(value, float) and (math.isinf(value) or math.isnan(value)):
        raise CalcError("The result is not a finite number.")
    return value


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


def _approximately(value: Fraction) -> str:
    if value == 0 or 1e-300 < abs(value) < 1e300:
        return f"{float(value):.15g}"
    return _scientific(value)


def _decimal_places(denominator: int) -> int | None:
    """How many decimals ``x/denominator`` needs (in lowest terms), or None when it never terminates."""
    twos = (denominator & -denominator).bit_length() - 1
    rest, fives = denominator >> twos, 0
    while rest % 5 == 0:
        rest //= 5
        fives += 1
    return max(twos, fives) if rest == 1 else None


def _show(value: Number) -> str:
    """Exactly when that takes at most MAX_SHOWN_DIGITS digits; else 15 significant digits and the size."""
    if isinstance(value, float):
        return f"{value:.15g}"
    if max(abs(value.numerator).bit_length(), value.denominator.bit_length()) <= MAX_SHOWN_DIGITS * 4:
        places = _decimal_places(value.denominator)
        if places is None:
            size = len(str(abs(value.numerator))) + len(str(value.denominator))
        else:
            size = len(str(abs(value.numerator) // value.denominator)) + places
        if size <= MAX_SHOWN_DIGITS:
            return _exactly(value, places)
    if value.denominator == 1:
        return f"≈ {_scientific(value)} (a whole number of {_digit_count(abs(value.numerator)):,} digits)"
    return f"≈ {_scientific(value)}"


def _exactly(value: Fraction, places: int | None) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    if places is None:
        return f"{value.numerator}/{value.denominator} ≈ {_approximately(value)}"
    sign = "-" if value < 0 else ""
    scaled = abs(value.numerator) * 10**places // value.denominator
    whole, frac = divmod(scaled, 10**places)
    return f"{sign}{whole}.{frac:0{places}d}"


def _digit_count(n: int) -> int:
    """The number of decimal digits of ``n`` > 0, without printing it."""
    k = int(n.bit_length() * math.log10(2))
    while 10**k > n:
        k -= 1
    while 10 ** (k + 1) <= n:
        k += 1
    return k + 1


_E_LITERAL = re.compile(r"\d[eE][-+]?\d")
_LONG = 20  # characters: an exact result longer than this may be written in e-notation, when that is exact


def _e_notation(value: Number) -> str | None:
    """``value`` exactly as m·10^k with at most 15 digits in m ("1e+309", "2.5e-320"), or None."""
    if not isinstance(value, Fraction) or value == 0:
        return None
    text = _scientific(value)
    mantissa, _, exponent = text.partition("e")
    if Fraction(mantissa) * Fraction(10) ** int(exponent) != value:
        return None
    return f"{mantissa.removesuffix('.0')}e{exponent}"


def calculate(expr: str) -> str:
    """``expr`` evaluated and shown: integers and terminating decimals exactly, else fraction ≈ decimal.

    A long result of an expression written in e-notation ("1e308 * 10") comes in e-notation when that is
    exact ("1e+309"): it was 310 characters of zeros."""
    value = evaluate(expr)
    shown = _show(value)
    if len(shown) > _LONG and _E_LITERAL.search(expr) and not shown.startswith("≈"):
        return _e_notation(value) or shown
    return shown


async def run(query: str, ctx: ToolContext) -> ToolResult:
    # In a worker thread: the answer's stream and the window go on while a big calculation is made, and
    # the tool's time limit can end the wait for it.
    shown = await asyncio.to_thread(calculate, query)
    # "1000! ≈ 4.02…e+2567": a value shown to 15 digits has its own mark ("= ≈" said both).
    mark = "" if shown.startswith("≈ ") else "= "
    return ToolResult(f"{query.strip()} {mark}{shown}", source="calculator")


TOOLS = [
    ToolSpec(
        name="calculate",
        element="query",
        description="Exact arithmetic: + - * / // % ** ( ), percentages, sqrt, sin, cos, log, exp, round, min, max, pi.",
        run=run,
        example="3 * (17 + 5) / 2",
        icon="🧮",
    )
]
