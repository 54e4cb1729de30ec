"""The ``calculate`` tool: exact arithmetic on a small, closed grammar (no names, attributes or calls beyond it).

Numbers are exact fractions, so ``3 * (17 + 5) / 2`` is ``33`` and ``0.1 + 0.2`` is ``0.3``. Functions that
are not exact (sqrt of a non-square, sin, log, …) give a float. Powers and factorials that would take
too long or too much memory are refused instead of computed.

Grammar (precedence low to high): ``+ -`` < ``* / // % mod × ÷`` and a product written without a sign
(``2(3 + 4)``, ``2pi``) < unary ``+ -`` < ``** ^`` (right) < postfix ``%`` (percent), ``!``, ``!!`` (double
factorial) and ``°`` (degrees); atoms are numbers (``1_000``, ``1 000``, ``2.5``, ``1e3``, ``0x1F``), ``pi``,
``e``, ``tau``, parentheses and ``f(args)`` for the functions of ``calc_numbers.FUNCTIONS``. Read as on a calculator:
``50 + 10%`` is 55, ``round(2.5)`` is 3, ``log`` is base 10, and the result says so where it matters.
"""

from __future__ import annotations

import asyncio
import math
import re
import sys
import unicodedata
from dataclasses import dataclass
from fractions import Fraction

from .calc_numbers import (ANGLES, CONSTANTS, FLOAT_LIMIT, FLOAT_SMALLEST, FUNCTIONS, INVERSE_ANGLES, CalcError,
                           CallError, Number, arith, brief, e_notation, factorial, fifteen_digits, fits, raise_to_power,
                           show, ten_to, to_radians)
from .registry import ToolContext, ToolResult, ToolSpec

_MAX_LITERAL_EXPONENT = 30_000  # 1e30000 has about calc_numbers.MAX_EXPONENT_BITS bits
MAX_LENGTH = 1_000
# Parentheses (and calls) inside one another. The parser descends six or seven Python frames a level, and Python
# stops at 1,000 frames: 170 levels ended in a RecursionError, reported as "calculate failed unexpectedly".
MAX_NESTING = 50

_SEPARATORS = " \u00a0\u202f\u2009"  # space, no-break, narrow no-break and thin: between thousands ("1 000")
_TOKEN = re.compile(
    r"\s*(?:(?P<based>0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+)(?!\w)"
    rf"|(?P<grouped>\d{{1,3}}(?:[{_SEPARATORS}]\d{{3}})+(?:\.\d+)?)(?![\d.,_])"
    r"|(?P<num>(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)|(?P<name>[A-Za-z_]\w*)"
    r"|(?P<op>\*\*|//|!!|[-+*/%^()!,×÷−–°]))"
)
# Signs written as a person types them: the en dash is what a word processor makes of " - ".
_SAME_AS = {"×": "*", "÷": "/", "−": "-", "–": "-", "^": "**"}
_DEGREES = {"deg", "degree", "degrees"}


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
            at = len(expr) - len(expr[i:].lstrip())  # the character itself, not the spaces before it
            if unicodedata.category(expr[at]) == "Sc":  # $ € £ ¥ ₹
                raise CalcError(_currency_words(expr[at]))
            raise CalcError(f"“{expr[at]}” is not something the calculator understands (at position {at + 1}).")
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


# ISO codes and names of the most used currencies. Not "pound", also a weight, nor TRY and PHP, also words.
_CURRENCIES = frozenset("""usd eur gbp jpy chf cny rmb inr cad aud nzd sek nok dkk pln czk huf rub uah brl mxn
ars zar krw hkd sgd ils aed sar thb idr myr vnd egp ngn kes btc dollar dollars euro euros cent cents yen yuan
renminbi rupee rupees franc francs peso pesos krona kronor krone kroner zloty ruble rubles rouble roubles
bitcoin bitcoins""".split())
_TIMES_X = re.compile(r"[xX]\d*")  # "3 x 4", and "3x4", where "x4" is one name


def _currency_words(written: str) -> str:
    """Why an amount of money is refused: the calculator works offline, with no exchange rates ("5 USD in
    EUR" was told to convert units, as in 5 km + 3 m)."""
    return (f"“{written}” is a currency, and the calculator has no exchange rates (it works offline, on plain "
            "numbers): leave the currency out (5 + 3, not 5 USD + 3 USD) and, to convert, multiply by a rate "
            "you know (5 * 0.92).")


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
            raise CalcError(f"Expected “{text}” but found {self.found(tok)} (at position {tok.pos + 1}).")

    def found(self, tok: _Tok) -> str:
        """``tok`` quoted as it was typed ("0x1F", "×", "^"), not as it is read ("31", "*", "**")."""
        return f"“{self.expr[tok.pos:tok.end]}”" if tok.kind != "end" else "the end"

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
        if tok.kind == "name" and before is not None and (before.kind == "num" or before.text == ")"):
            return self._name_after(before, tok)
        if before is None or before.kind != "num":
            return f"Unexpected {self.found(tok)} at position {tok.pos + 1}."
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
        return f"Unexpected {self.found(tok)} at position {tok.pos + 1}."

    @staticmethod
    def _name_after(before: _Tok, tok: _Tok) -> str:
        """Why a word cannot follow a number or ")": a mistyped base prefix (0x1G), the letter x for times
        ("3x4" too, not computed: 3x4 as 12 would read two ways beside 0x4, hexadecimal for 4), a currency or
        a unit."""
        if before.text == "0" and before.end == tok.pos and tok.text[0] in "xXbBoO":
            return (f"“0{tok.text}” is not a number the calculator reads: hexadecimal is written 0x1F, "
                    "binary 0b101 and octal 0o17.")
        if _TIMES_X.fullmatch(tok.text):
            return "Write * or × to multiply, not the letter x."
        if tok.text.lower() in _CURRENCIES:
            return _currency_words(tok.text)
        return (f"“{tok.text}” looks like a unit, and the calculator takes plain numbers only: convert to "
                "one unit first (for example 5 km + 3 m as 5000 + 3, in metres).")

    def sum(self) -> Number:
        value = self.product()
        while self.peek().text in ("+", "-"):
            op = self.take().text
            start = self.i
            right = self.product()
            if self.bare_percent:  # "50 + 10%" is 55 and "100 - 15%" 85, as on a calculator
                self.note(f"{self.source(start, self.i)} of {_plainly(value)} {'added' if op == '+' else 'taken off'}")
                right = arith("*", value, right)
            value = arith(op, value, right)
        return value

    def product(self) -> Number:
        start = self.i
        value = self.unary()
        single, divided = True, False
        while True:
            tok = self.peek()
            if tok.text in ("*", "/", "//", "%", "mod"):
                self.take()
                value = arith(tok.text, value, self.unary())
                divided = divided or tok.text != "*"
            elif tok.text == "(" or tok.kind == "name" and tok.text.lower() in CONSTANTS.keys() | FUNCTIONS.keys():
                # "2(3 + 4)", "2pi", "3 sqrt(2)": a product, as written on paper; after a division it is
                # read from left to right, like *, and said (6/2(1+2) is 9 here, 1 on some calculators)
                at = self.i
                value = arith("*", value, self.unary())
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
            value = operand if value is None else raise_to_power(operand, value)
            value = -value if negative else value
        return value  # type: ignore[return-value]

    def postfix(self) -> Number:
        start = self.i
        value = self.atom()
        while True:
            tok = self.peek()
            if tok.text in ("!", "!!"):
                self.take()
                if self.peek().text in ("!", "!!"):
                    raise CalcError(self._factorials_in_a_row(start, self.i - 1))
                value = factorial(value, double=tok.text == "!!")
            elif tok.text == "%" and self._percent_here():
                self.take()
                value = value / 100
                self.percent_end = self.i
                if self.peek().kind == "name" and self.peek().text.lower() == "of":  # "12% of 250"
                    self.take()
                    self.enter("“of”s")
                    value = arith("*", value, self.unary())
                    self.depth -= 1
                    self.percent_end = -1
            elif tok.text == "°" or tok.kind == "name" and tok.text.lower() in _DEGREES:  # "30°", "30 deg"
                self.take()
                value = to_radians(value)
            else:
                return value

    def _factorials_in_a_row(self, start: int, signs: int) -> str:
        """Why "5!!!" or "5! !" is not read: n!! is the double factorial (5!! is 15), and reading on from
        there guesses; "5!!" was read as (5!)!, a number of 199 digits, where 15 was meant. ``signs`` is the
        first "!" of the row: an operand such as "(3!)" has one of its own."""
        operand = self.source(start, signs)
        while self.peek().text in ("!", "!!"):
            self.take()
        return (f"“{self.source(start, self.i)}” has too many “!” in a row: write {operand}!! for the double "
                f"factorial (7!! is 7 × 5 × 3 × 1) or ({operand}!)! for the factorial of a factorial.")

    def _percent_here(self) -> bool:
        """``%`` is a percent sign when no operand follows it (``12%``, ``12% * 250``), else modulo."""
        nxt = self.tokens[self.i + 1]
        if nxt.kind == "name" and nxt.text.lower() == "of":
            return True
        return nxt.kind == "end" or nxt.text in (")", ",", "+", "-", "*", "/", "//", "**", "%", "!", "!!",
                                                 "mod")

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
            if name in CONSTANTS:
                return CONSTANTS[name]
            if name in FUNCTIONS:
                return self.call(name, self.i - 1)
            if name in _CURRENCIES:  # "EUR 5"
                raise CalcError(_currency_words(tok.text))
            functions = ", ".join(sorted(FUNCTIONS))
            raise CalcError(f"“{tok.text}” is not allowed: the calculator takes numbers, the operators "
                            f"+ - * / // % ** ! and the functions {functions}, with the constants pi, e and tau.")
        raise CalcError(f"Expected a number but found {self.found(tok)} (at position {tok.pos + 1}).")

    def number(self, tok: _Tok) -> Number:
        written = self.expr[tok.pos:tok.end]
        if any(c in _SEPARATORS for c in written):  # "1 000 000": said, since "100 200" may be two numbers
            self.note(f"“{' '.join(written.split())}” read as {tok.text}")
        exponent = _EXPONENT.search(tok.text)
        if exponent is not None and (len(exponent.group(1)) > 6 or int(exponent.group(1)) > _MAX_LITERAL_EXPONENT):
            # 1e9999999 is read exactly, as ten to that power: minutes of work for one token
            raise CalcError(f"“{tok.text}” is too large to compute exactly here.")
        try:
            return fits(Fraction(tok.text.replace("_", "")))
        except (ValueError, ZeroDivisionError):
            raise CalcError(f"“{tok.text}” is not a number.") from None

    def call(self, name: str, at: int) -> Number:
        fn, lo, hi = FUNCTIONS[name]
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
        try:
            value = fn(*args)
        except CallError as refusal:  # "tan(90°) is not defined", not tan(1.5707963267949)
            raise refusal.as_typed(self.source(starts[0], self.i - 1)) from None
        if name == "exp" and abs(value) < sys.float_info.min:  # exp(-1000) is 0 as a float
            size = f"about {ten_to(float(args[0]) / math.log(10))}, " if args[0] > -1e300 else ""
            self.note(f"exp({brief(args[0])}) is {size}below {FLOAT_SMALLEST}, the smallest value that is "
                      "not exact: taken as 0")
            value = 0.0
        if name == "log" and len(args) == 1:
            self.note("log is base 10; ln is the natural logarithm")
        elif name in ANGLES and isinstance(args[0], Fraction) and 1 <= abs(args[0]) <= 360:  # sin(30): degrees?
            self.note(f"angles are in radians; for degrees write {name}({self.source(starts[0], self.i - 1)}°)")
        elif name in INVERSE_ANGLES and at == 0 and self.peek().kind == "end":  # asin(0.5) alone
            self.note(f"in radians, which is {fifteen_digits(math.degrees(value))}°")
        return value


def _plainly(value: Number) -> str:
    """``value`` for a note: as shown when that is short and exact, else to 15 digits."""
    shown = show(value)
    return shown if len(shown) <= _LONG and " " not in shown else brief(value)


# The tool -------------------------------------------------------------------------------------------------

# Full-width forms ("２＋２", "（３）", "１０％": an East Asian keyboard's) as their ASCII letters, one for one, so
# that a position said still points at the character typed. Not all of NFKC: it makes "3²" the "32" it is not.
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: " "}


def as_written(expr: str) -> str:
    """``expr`` as the calculator reads it: full-width forms as ASCII, and without the "=" a model often ends
    an expression with ("2+2=")."""
    return expr.strip().translate(_FULL_WIDTH).removesuffix("=").rstrip()


def _evaluate(expr: str) -> tuple[Number, list[str]]:
    # positions count from the first character shown, as the card shows the expression
    expr = as_written(expr)
    if not expr:
        raise CalcError("There is no expression to calculate.")
    if len(expr) > MAX_LENGTH:
        raise CalcError(f"The expression is too long (over {MAX_LENGTH} characters).")
    parser = _Parser(expr)
    try:
        value = parser.parse()
    except OverflowError:  # a huge exact number met a float somewhere not checked on its own
        raise CalcError(f"A number in that calculation is too large for a value that is not exact (the limit "
                        f"is about {FLOAT_LIMIT}).") from None
    return fits(value), parser.notes


def evaluate(expr: str) -> Number:
    """The exact value of ``expr``; raises CalcError with a plain-words reason."""
    return _evaluate(expr)[0]


_E_LITERAL = re.compile(r"\d[eE][-+]?\d")
_LONG = 20  # characters: an exact result longer than this may be written in e-notation, when that is exact


def calculate(expr: str) -> str:
    """``expr`` evaluated and shown (see calc_numbers.show), then what was assumed, in parentheses.

    A long result of an expression written in e-notation ("1e308 * 10") comes in e-notation when that is
    exact ("1e+309"): it was 310 characters of zeros."""
    value, notes = _evaluate(expr)
    shown = show(value)
    if len(shown) > _LONG and _E_LITERAL.search(expr) and not shown.startswith("≈"):
        shown = e_notation(value) or shown
    return f"{shown} ({'; '.join(notes)})" if notes else shown


async def run(query: str, ctx: ToolContext) -> ToolResult:
    # In a worker thread: the answer's stream and the window go on while a big calculation is made, and
    # the tool's time limit can end the wait for it.
    shown = await asyncio.to_thread(calculate, query)
    # "1000! ≈ 4.02…e+2567": a value shown to 15 digits has its own mark ("= ≈" said both), and so has an
    # expression written with its "=" ("2+2= 4": "2+2= = 4" said it twice).
    mark = "" if shown.startswith("≈ ") or query.strip().translate(_FULL_WIDTH).endswith("=") else "= "
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
