"""The ``calculate`` tool: exact arithmetic on a small, closed grammar (no names, attributes or calls beyond it).

Numbers are exact fractions, so ``3 * (17 + 5) / 2`` is ``33`` and ``0.1 + 0.2`` is ``0.3``. Functions that
are not exact (sqrt of a non-square, sin, log, …) give a float. Powers and factorials that would take
too long or too much memory are refused instead of computed.

Grammar (precedence low to high): ``+ -`` < ``* / // % mod × ÷`` and a product written without a sign
(``2(3 + 4)``, ``2pi``) < unary ``+ -`` < ``** ^`` (right) < postfix ``%`` (percent), ``!`` and ``°``
(degrees); atoms are numbers (``1_000``, ``1 000``, ``2.5``, ``1e3``, ``0x1F``), ``pi``, ``e``, ``tau``,
parentheses and ``f(args)`` for the functions of ``_FUNCTIONS``. Read as on a calculator: ``50 + 10%`` is
55, ``round(2.5)`` is 3, ``log`` is base 10, and the result says so where it matters.
"""

from __future__ import annotations

import asyncio
import math
import re
import sys
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
# Parentheses (and calls) inside one another. The parser descends six or seven Python frames a level, and Python
# stops at 1,000 frames: 170 levels ended in a RecursionError, reported as "calculate failed unexpectedly".
MAX_NESTING = 50
MAX_SHOWN_DIGITS = 1_000  # longer whole numbers are shown to 15 significant digits, with their size
_EXACT_SHOWN = 30  # characters: a longer exact fraction or decimal is shown to 15 significant digits
MAX_ROUND_DIGITS = 1_000  # round(x, n) for |n| up to this: round(1, 10^9) built a billion-digit power of ten
_FLOAT_LIMIT = "1.8 × 10^308"  # about the largest value that is not exact (a float), for the messages
_FLOAT_SMALLEST = "2.2 × 10^-308"  # and the smallest one with all its digits

_SEPARATORS = " \u00a0\u202f\u2009"  # space, no-break, narrow no-break and thin: between thousands ("1 000")
_TOKEN = re.compile(
    r"\s*(?:(?P<based>0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+)(?!\w)"
    rf"|(?P<grouped>\d{{1,3}}(?:[{_SEPARATORS}]\d{{3}})+(?:\.\d+)?)(?![\d.,_])"
    r"|(?P<num>(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)|(?P<name>[A-Za-z_]\w*)"
    r"|(?P<op>\*\*|//|[-+*/%^()!,×÷−–°]))"
)
# Signs written as a person types them: the en dash is what a word processor makes of " - ".
_SAME_AS = {"×": "*", "÷": "/", "−": "-", "–": "-", "^": "**"}
_DEGREES = {"deg", "degree", "degrees"}


class CalcError(ToolError):
    """An expression the calculator will not or cannot compute; the message says why."""


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str  # num, name, op or end ("based" and "grouped" numbers are num, their text a plain number)
    text: str
    pos: int  # where the token starts in the expression, and where it ends
    end: int


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
        if kind == "based":  # 0x1F, 0b101, 0o17
            kind, text = "num", str(int(text, 0))
        elif kind == "grouped":  # 1 000 000
            kind, text = "num", re.sub(f"[{_SEPARATORS}]", "", text)
        elif kind == "name" and text.lower() == "mod":
            kind, text = "op", "mod"
        tokens.append(_Tok(kind, _SAME_AS.get(text, text), m.start(m.lastgroup or ""), m.end()))
        i = m.end()
    tokens.append(_Tok("end", "", len(expr), len(expr)))
    return tokens


# Functions ------------------------------------------------------------------------------------------------

def _as_float(x: Number, name: str) -> float:
    """``x`` as a float for ``name``; a number past a float's range is refused in words."""
    try:
        return float(x)
    except OverflowError:
        raise CalcError(f"{name}({_brief(x)}) is too large to compute here: {name} takes numbers up to "
                        f"about {_FLOAT_LIMIT}.") from None


def _not_exact(x: Number) -> Fraction:
    """The exact value of ``x``; a float as it is shown, to 15 digits. exp(ln(2.5)) is 2.4999999999999996,
    shown as 2.5: rounded, floored or ceiled, it is taken for the 2.5 the user sees."""
    return x if isinstance(x, Fraction) else Fraction(_fifteen(x))


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
                raise CalcError(f"sqrt({_brief(x)}) is too large to compute here: it is about "
                                f"{_ten_to(_log10(x) / 2)}, past {_FLOAT_LIMIT}, the limit for a value that is "
                                "not exact.") from None
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
        size = _ten_to(float(x) / math.log(10))
        raise CalcError(f"exp({_brief(x)}) is too large to compute here: it is about {size} (the limit is "
                        f"about {_FLOAT_LIMIT}).") from None


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
    return _fits(Fraction(whole if scaled >= 0 else -whole) / Fraction(10) ** n)


def _factorial(x: Number) -> Number:
    if not (isinstance(x, Fraction) and x.denominator == 1 and x >= 0):
        raise CalcError("The factorial is defined for whole numbers from 0 up.")
    if x > MAX_FACTORIAL:
        what = f"{x}!" if x < 10**15 else f"The factorial of {_brief(x)}"
        raise CalcError(f"{what} is too large to compute here (the limit is {MAX_FACTORIAL}!).")
    return Fraction(math.factorial(int(x)))


def _float_fn(fn: Callable[[float], float], domain: str = "") -> Callable[[Number], float]:
    def call(x: Number) -> float:
        value = _as_float(x, fn.__name__)
        try:
            return fn(value)
        except ValueError:
            raise CalcError(f"{fn.__name__}({_brief(x)}) is not defined{domain}.") from None

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
        raise CalcError(f"tan({_brief(x)}) is not defined: the angle is an odd multiple of pi/2 (90°).")
    return value


_FROM_MINUS_ONE_TO_ONE = ": it takes numbers from -1 to 1"
_FUNCTIONS: dict[str, tuple[Callable[..., Number], int, int]] = {
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
    "min": (min, 1, 100),
    "max": (max, 1, 100),
    "factorial": (_factorial, 1, 1),
}
_CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau}
_ANGLES, _INVERSE_ANGLES = ("sin", "cos", "tan"), ("asin", "acos", "atan")


# Arithmetic -----------------------------------------------------------------------------------------------

def _fits(value: Number) -> Number:
    """``value``, when it is small enough to keep working with; else a CalcError.

    Powers were checked by the size of their result, yet a product of them was not: forty times 2**99999
    came to four million bits, and showing it took minutes, with the answer frozen. A float past its range
    is infinite, and inf - inf is nan, which floor() turned into a ValueError."""
    if isinstance(value, Fraction):
        if max(value.numerator.bit_length(), value.denominator.bit_length()) > MAX_EXPONENT_BITS + 64:
            raise CalcError("A number in that calculation is too large to compute exactly here.")
    elif not math.isfinite(value):
        raise CalcError(f"A number in that calculation is too large: past about {_FLOAT_LIMIT}, the limit "
                        "for a value that is not exact (one from pi, e, a root, sin, log, exp, …).")
    return value


def _arith(op: str, a: Number, b: Number) -> Number:
    """``a op b`` for + - * / // % (mod), refused in words when it divides by zero or grows too large."""
    if op in ("/", "//", "%", "mod") and b == 0:
        raise CalcError("Division by zero.")
    try:
        if op == "+":
            return _fits(a + b)
        if op == "-":
            return _fits(a - b)
        if op == "*":
            return _fits(a * b)
        if op == "/":
            return _fits(a / b)
        if op == "//":
            return Fraction(math.floor(_fits(a / b)))
        return _fits(a % b)
    except OverflowError:  # an exact number past a float's range, met with pi, a root, …
        big = a if isinstance(a, Fraction) else b
        raise CalcError(f"A number in that calculation (about {_ten_to(_log10(abs(big)))}) is too large to "
                        f"combine with a value that is not exact (one from pi, e, a root, sin, log, exp, …): "
                        f"those go up to about {_FLOAT_LIMIT}.") from None


def _pow(base: Number, exponent: Number) -> Number:
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
        raise CalcError(f"That power cannot be computed here: a number in it is about {_ten_to(_log10(abs(big)))}, "
                        f"and a power that is not whole takes numbers from about {_FLOAT_SMALLEST} up to about "
                        f"{_FLOAT_LIMIT}.") from None
    if b < 0 and not x.is_integer():
        raise CalcError("A negative number to a fractional power is not a real number.")
    try:
        return _fits(b**x)
    except ZeroDivisionError:
        raise CalcError("Division by zero (0 to a negative power).") from None
    except OverflowError:
        raise CalcError(f"That power is too large to compute here: it is about {_ten_to(x * math.log10(abs(b)))} "
                        f"(the limit for a value that is not exact is about {_FLOAT_LIMIT}).") from None


def _to_radians(degrees: Number) -> Number:
    return _arith("*", degrees, math.pi / 180)


# Parser ---------------------------------------------------------------------------------------------------

_EXPONENT = re.compile(r"[eE][-+]?0*(\d+)$")
_THOUSANDS_COMMAS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_DECIMAL_COMMA = re.compile(r"\d{1,3}(?:\.\d{3})*,\d+|\d+,\d+")
_THOUSANDS_DOTS = re.compile(r"\d{1,3}(?:\.\d{3}){2,}")


def _separator_words(run: str) -> str:
    """What to write for a number with commas in it, with no wrong guess: "1,000" is a thousand in English
    and one in German, "1.234,5" is 1234.5 (it was hinted as 1.2345), "3,5" is 3.5 (it was hinted as 35)."""
    english = run.replace(",", "") if _THOUSANDS_COMMAS.fullmatch(run) else ""
    european = run.replace(".", "").replace(",", ".") if _DECIMAL_COMMA.fullmatch(run) else ""
    if english and european:
        return (f"“{run}” is ambiguous: with a comma between thousands it is {english}, with a decimal comma "
                f"{european}. Write the one you mean without commas (the decimal point is a dot).")
    if english or european:
        how = "commas between thousands" if english else "a decimal comma"
        return (f"“{run}” is written with {how}: it is {english or european}. Write it {english or european} "
                "(the decimal point is a dot, and numbers take no separators).")
    return ("Commas only separate a function's arguments, as in max(1, 2): write numbers without them, with "
            "a dot as the decimal point.")


class _Parser:
    """Recursive descent over the tokens, one method a precedence level. Only parentheses, calls and "of"
    nest (counted against MAX_NESTING); runs of signs and of powers are loops. ``notes`` says what was
    assumed where a calculator and a programming language differ ("10% of 50 added")."""

    def __init__(self, expr: str) -> None:
        self.expr = expr
        self.tokens = _tokenize(expr)
        self.i = 0
        self.depth = 0
        self.notes: list[str] = []
        self.percent_end = -1  # the index after the last % read as a percentage without "of" ("10%")
        self.bare_percent = False  # whether the product just read is a percentage alone ("10%", "-5 %")

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

    def note(self, words: str) -> None:
        if words not in self.notes:
            self.notes.append(words)

    def source(self, start: int, end: int) -> str:
        """The expression's text of tokens[start:end], spaces evened out."""
        return " ".join(self.expr[self.tokens[start].pos:self.tokens[end - 1].end].split())

    def enter(self, what: str) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise CalcError(f"Too many nested {what} (more than {MAX_NESTING}).")

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
        if before is None or before.kind != "num":
            return f"Unexpected “{tok.text}” at position {tok.pos + 1}."
        run = next(m.group() for m in re.finditer(r"[\d.,]+", self.expr) if m.start() <= before.pos < m.end())
        if tok.text == ",":
            return _separator_words(run)
        if tok.kind == "num" and _THOUSANDS_DOTS.fullmatch(run):
            return (f"“{run}” is written with dots between thousands: it is {run.replace('.', '')}. Write it "
                    f"{run.replace('.', '')} (the decimal point is a dot, and numbers take no separators).")
        if tok.kind == "num" and tok.pos == before.end and tok.text.startswith("."):
            return f"“{run}” is not a number: a number has one decimal point."
        if tok.kind == "num":
            return (f"“{self.source(self.i - 1, self.i + 1)}” is two numbers in a row: put an operator between "
                    "them. (A space is read between thousands only in groups of three: 1 000 000.)")
        if tok.kind == "name":
            if before.text == "0" and before.end == tok.pos and tok.text[0] in "xXbBoO":
                return (f"“0{tok.text}” is not a number the calculator reads: hexadecimal is written 0x1F, "
                        "binary 0b101 and octal 0o17.")
            if tok.text.lower() == "x":
                return "Write * or × to multiply, not the letter x."
            return (f"“{tok.text}” looks like a unit, and the calculator takes plain numbers only: convert to "
                    "one unit first (for example 5 km + 3 m as 5000 + 3, in metres).")
        return f"Unexpected “{tok.text}” at position {tok.pos + 1}."

    def sum(self) -> Number:
        value = self.product()
        while self.peek().text in ("+", "-"):
            op = self.take().text
            start = self.i
            right = self.product()
            if self.bare_percent:  # "50 + 10%" is 55 and "100 - 15%" 85, as on a calculator
                self.note(f"{self.source(start, self.i)} of {_plainly(value)} {'added' if op == '+' else 'taken off'}")
                right = _arith("*", value, right)
            value = _arith(op, value, right)
        return value

    def product(self) -> Number:
        start = self.i
        value = self.unary()
        single, divided = True, False
        while True:
            tok = self.peek()
            if tok.text in ("*", "/", "//", "%", "mod"):
                self.take()
                value = _arith(tok.text, value, self.unary())
                divided = divided or tok.text != "*"
            elif tok.text == "(" or tok.kind == "name" and tok.text.lower() in _CONSTANTS.keys() | _FUNCTIONS.keys():
                # "2(3 + 4)", "2pi", "3 sqrt(2)": a product, as written on paper; after a division it is
                # read from left to right, like *, and said (6/2(1+2) is 9 here, 1 on some calculators)
                at = self.i
                value = _arith("*", value, self.unary())
                if divided:
                    self.note(f"read as ({self.source(start, at)}) × {self.source(at, self.i)}, from left to right")
            else:
                break
            single = False
        self.bare_percent = single and self.percent_end == self.i
        return value

    def signs(self) -> bool:
        """Whether the run of + and - signs here (maybe none) makes a minus."""
        negative = False
        while self.peek().text in ("+", "-"):
            negative ^= self.take().text == "-"
        return negative

    def unary(self) -> Number:
        negative = self.signs()
        value = self.power()
        return -value if negative else value

    def power(self) -> Number:
        """``a ** b ** c`` from the right, with signs binding to the exponent (-2**2 is -4, 2**-1 is 0.5)."""
        base = self.postfix()
        if self.peek().text != "**":
            return base
        operands: list[tuple[bool, Number]] = [(False, base)]
        while self.peek().text == "**":
            self.take()
            negative = self.signs()
            operands.append((negative, self.postfix()))
        self.percent_end = -1  # "2^10%" is a power, not a percentage
        value: Number | None = None
        for negative, operand in reversed(operands):
            value = operand if value is None else _pow(operand, value)
            value = -value if negative else value
        return value  # type: ignore[return-value]

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
                self.percent_end = self.i
                if self.peek().kind == "name" and self.peek().text.lower() == "of":  # "12% of 250"
                    self.take()
                    self.enter("“of”s")
                    value = _arith("*", value, self.unary())
                    self.depth -= 1
                    self.percent_end = -1
            elif tok.text == "°" or tok.kind == "name" and tok.text.lower() in _DEGREES:  # "30°", "30 deg"
                self.take()
                value = _to_radians(value)
            else:
                return value

    def _percent_here(self) -> bool:
        """``%`` is a percent sign when no operand follows it (``12%``, ``12% * 250``), else modulo."""
        nxt = self.tokens[self.i + 1]
        if nxt.kind == "name" and nxt.text.lower() == "of":
            return True
        return nxt.kind == "end" or nxt.text in (")", ",", "+", "-", "*", "/", "//", "**", "%", "!", "mod")

    def atom(self) -> Number:
        tok = self.take()
        if tok.kind == "num":
            return self.number(tok)
        if tok.text == "(":
            self.enter("parentheses")
            value = self.sum()
            self.expect(")")
            self.depth -= 1
            return value
        if tok.kind == "name":
            name = tok.text.lower()
            if name in _CONSTANTS:
                return _CONSTANTS[name]
            if name in _FUNCTIONS:
                return self.call(name, self.i - 1)
            functions = ", ".join(sorted(_FUNCTIONS))
            raise CalcError(f"“{tok.text}” is not allowed: the calculator takes numbers, the operators "
                            f"+ - * / // % ** ! and the functions {functions}, with the constants pi, e and tau.")
        found = f"“{tok.text}”" if tok.text else "the end"
        raise CalcError(f"Expected a number but found {found} (at position {tok.pos + 1}).")

    def number(self, tok: _Tok) -> Number:
        written = self.expr[tok.pos:tok.end]
        if any(c in _SEPARATORS for c in written):  # "1 000 000": said, since "100 200" may be two numbers
            self.note(f"“{' '.join(written.split())}” read as {tok.text}")
        exponent = _EXPONENT.search(tok.text)
        if exponent is not None and (len(exponent.group(1)) > 6 or int(exponent.group(1)) > _MAX_LITERAL_EXPONENT):
            # 1e9999999 is read exactly, as ten to that power: minutes of work for one token
            raise CalcError(f"“{tok.text}” is too large to compute exactly here.")
        try:
            return _fits(Fraction(tok.text.replace("_", "")))
        except (ValueError, ZeroDivisionError):
            raise CalcError(f"“{tok.text}” is not a number.") from None

    def call(self, name: str, at: int) -> Number:
        fn, lo, hi = _FUNCTIONS[name]
        self.expect("(")
        self.enter("parentheses")
        starts = [self.i]
        args = [self.sum()]
        while self.peek().text == ",":
            self.take()
            starts.append(self.i)
            args.append(self.sum())
        self.expect(")")
        self.depth -= 1
        if not lo <= len(args) <= hi:
            raise CalcError(f"{name}() takes {lo if lo == hi else f'{lo} to {hi}'} argument(s), not {len(args)}.")
        value = fn(*args)
        if name == "exp" and abs(value) < sys.float_info.min:  # exp(-1000) is 0 as a float
            size = f"about {_ten_to(float(args[0]) / math.log(10))}, " if args[0] > -1e300 else ""
            self.note(f"exp({_brief(args[0])}) is {size}below {_FLOAT_SMALLEST}, the smallest value that is "
                      "not exact: taken as 0")
            value = 0.0
        if name == "log" and len(args) == 1:
            self.note("log is base 10; ln is the natural logarithm")
        elif name in _ANGLES and isinstance(args[0], Fraction) and 1 <= abs(args[0]) <= 360:  # sin(30): degrees?
            self.note(f"angles are in radians; for degrees write {name}({self.source(starts[0], self.i - 1)}°)")
        elif name in _INVERSE_ANGLES and at == 0 and self.peek().kind == "end":  # asin(0.5) alone
            self.note(f"in radians, which is {_fifteen(math.degrees(value))}°")
        return value


def _plainly(value: Number) -> str:
    """``value`` for a note: as shown when that is short and exact, else to 15 digits."""
    shown = _show(value)
    return shown if len(shown) <= _LONG and " " not in shown else _brief(value)


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


def _fifteen(value: Number) -> str:
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


def _brief(value: Number) -> str:
    """``value`` in a message: as shown when short, else to 15 digits ("1.0e+400", not 401 digits)."""
    shown = _show(value) if isinstance(value, float) or max(abs(value.numerator), value.denominator) < 10**40 else ""
    return shown if shown and len(shown) <= _EXACT_SHOWN and " " not in shown else _fifteen(value)


def _ten_to(power: float) -> str:
    """A size, given as a power of ten, for a message: "2 × 10^434", "10^400", "10^(1.2e+20)"."""
    if abs(power) >= 1e15:
        return f"10^({_fifteen(power)})"
    whole = math.floor(power)
    mantissa = f"{10 ** (power - whole):.2g}"
    if mantissa == "10":
        mantissa, whole = "1", whole + 1
    return f"10^{whole}" if mantissa == "1" else f"{mantissa} × 10^{whole}"


def _about(log10_count: float) -> str:
    """A count, given by its logarithm, for a message: "95,424,250", or "10^19728" when that is too long."""
    return f"{round(10**log10_count):,}" if log10_count < 15 else _ten_to(log10_count)


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


def _show(value: Number) -> str:
    """How a result reads. A whole number exactly, up to MAX_SHOWN_DIGITS digits (2^100, 100!); beyond, to
    15 significant digits with its size. Another exact number exactly when that is short ("0.3", "1/3 ≈
    0.333333333333333", "1628.89462677744140625"); else as m·10^k when that is exact ("1e-400"); else to 15
    significant digits ("≈ 1647.00949769028": it was a fraction of 290 digits over 290, and 1.01^365 a
    decimal of 733). A value that is not exact (a float), to 15 significant digits."""
    if isinstance(value, float):
        return _fifteen(value)
    if value.denominator == 1:
        n = abs(value.numerator)
        if n.bit_length() <= MAX_SHOWN_DIGITS * 4 and _digit_count(n) <= MAX_SHOWN_DIGITS:
            return str(value.numerator)
        return f"≈ {_scientific(value)} (a whole number of {_digit_count(n):,} digits)"
    return _short_exactly(value) or _e_notation(value) or f"≈ {_fifteen(value)}"


def _short_exactly(value: Fraction) -> str | None:
    """A fraction or terminating decimal exactly, when that takes at most _EXACT_SHOWN characters."""
    if max(abs(value.numerator), value.denominator).bit_length() > 4 * _EXACT_SHOWN:  # over 36 digits
        return None
    places = _decimal_places(value.denominator)
    if places is None:
        fraction = f"{value.numerator}/{value.denominator}"
        return f"{fraction} ≈ {_fifteen(value)}" if len(fraction) <= _EXACT_SHOWN else None
    sign = "-" if value < 0 else ""
    whole, fraction = divmod(abs(value.numerator) * 10**places // value.denominator, 10**places)
    text = f"{sign}{whole}.{fraction:0{places}d}"
    return text if len(text) <= _EXACT_SHOWN else None


def _e_notation(value: Number) -> str | None:
    """``value`` exactly as m·10^k with at most 15 digits in m ("1e+309", "2.5e-320"), or None."""
    if not isinstance(value, Fraction) or value == 0:
        return None
    text = _scientific(value)
    mantissa, _, exponent = text.partition("e")
    if Fraction(mantissa) * Fraction(10) ** int(exponent) != value:
        return None
    return f"{mantissa.removesuffix('.0')}e{exponent}"


# The tool -------------------------------------------------------------------------------------------------

def _evaluate(expr: str) -> tuple[Number, list[str]]:
    if not expr.strip():
        raise CalcError("There is no expression to calculate.")
    if len(expr) > MAX_LENGTH:
        raise CalcError(f"The expression is too long (over {MAX_LENGTH} characters).")
    parser = _Parser(expr)
    try:
        value = parser.parse()
    except OverflowError:  # a huge exact number met a float somewhere not checked on its own
        raise CalcError(f"A number in that calculation is too large for a value that is not exact (the limit "
                        f"is about {_FLOAT_LIMIT}).") from None
    return _fits(value), parser.notes


def evaluate(expr: str) -> Number:
    """The exact value of ``expr``; raises CalcError with a plain-words reason."""
    return _evaluate(expr)[0]


_E_LITERAL = re.compile(r"\d[eE][-+]?\d")
_LONG = 20  # characters: an exact result longer than this may be written in e-notation, when that is exact


def calculate(expr: str) -> str:
    """``expr`` evaluated and shown (see _show), then what was assumed, in parentheses.

    A long result of an expression written in e-notation ("1e308 * 10") comes in e-notation when that is
    exact ("1e+309"): it was 310 characters of zeros."""
    value, notes = _evaluate(expr)
    shown = _show(value)
    if len(shown) > _LONG and _E_LITERAL.search(expr) and not shown.startswith("≈"):
        shown = _e_notation(value) or shown
    return f"{shown} ({'; '.join(notes)})" if notes else shown


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
        description=("Exact arithmetic: + - * / // % (mod) ** ( ), percentages (50 + 10% is 55), sqrt, "
                     "sin, cos, tan (angles in radians; 30° for degrees), ln (natural log), log (base 10), "
                     "exp, round, min, max, pi."),
        run=run,
        example="3 * (17 + 5) / 2",
        icon="🧮",
    )
]
