"""strconv.FormatFloat as Go 1.19 writes it (strconv/ftoa.go): formats 'e', 'E', 'f', 'g', 'G', 'b', 'x', 'X'.

Go first turns the float into decimal digits (the shortest that read back to the same float for precision
-1, else correctly rounded, ties to even) and then lays them out (formatDigits, fmtE, fmtF); 'b' and 'x'
work on the binary mantissa and exponent. Python's own formatting gives the same correctly rounded digits,
so only the layout is ported; float32's shortest digits are searched exactly here, as Python has no float32.
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

_F64 = (52, 11, -1023)  # mantissa bits, exponent bits, bias
_F32 = (23, 8, -127)


def f32(x: float) -> float:
    """float32(x): rounded to nearest even; beyond MaxFloat32 (after rounding) it is ±Inf, as in Go."""
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def _float_bits(x: float, bits: int) -> int:
    if bits == 32:
        return struct.unpack("<I", struct.pack("<f", f32(x)))[0]
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def format_float(x: float, fmt: str = "g", prec: int = -1, bits: int = 64) -> str:
    """strconv.FormatFloat(x, fmt, prec, bits)."""
    mantbits, expbits, bias = _F32 if bits == 32 else _F64
    b = _float_bits(x, bits)
    neg = b >> (expbits + mantbits) != 0
    exp = (b >> mantbits) & ((1 << expbits) - 1)
    mant = b & ((1 << mantbits) - 1)
    if exp == (1 << expbits) - 1:
        if mant:
            return "NaN"
        return "-Inf" if neg else "+Inf"
    if exp == 0:
        exp += 1  # subnormal
    else:
        mant |= 1 << mantbits
    exp += bias
    if fmt == "b":
        e = exp - mantbits
        return f"{'-' if neg else ''}{mant}p{'+' if e >= 0 else ''}{e}"
    if fmt in ("x", "X"):
        return _fmt_x(prec, fmt, neg, mant, exp, mantbits)
    ax = abs(f32(x) if bits == 32 else x)
    shortest = prec < 0
    if shortest:
        digits, dp = _shortest(ax, mant, exp - mantbits, bits)
        nd = len(digits)
        if fmt in ("e", "E"):
            prec = max(nd - 1, 0)
        elif fmt == "f":
            prec = max(nd - dp, 0)
        elif fmt in ("g", "G"):
            prec = nd
    elif fmt == "f":
        digits, dp = _digits_of("%.*f" % (prec, ax))
    else:
        if fmt in ("g", "G"):
            if prec == 0:
                prec = 1
            n = prec
        else:
            n = prec + 1 if fmt in ("e", "E") else 1
        digits, dp = _digits_of("%.*e" % (n - 1, ax))
    return _format_digits(shortest, neg, digits, dp, prec, fmt)


def _digits_of(s: str) -> tuple[str, int]:
    """Decimal digits (no leading or trailing zeros, "" for zero) and the point's position: 0.DIGITS x 10**dp."""
    mant, _, e = s.partition("e")
    ip, _, fp = mant.partition(".")
    all_digits = ip + fp
    dp = len(ip) + (int(e) if e else 0)
    stripped = all_digits.lstrip("0")
    dp -= len(all_digits) - len(stripped)
    stripped = stripped.rstrip("0")
    return (stripped, dp) if stripped else ("", 0)


def _shortest(ax: float, mant: int, e2: int, bits: int) -> tuple[str, int]:
    if mant == 0:
        return "", 0
    if bits == 64:
        return _digits_of(repr(ax))
    return _shortest_exact(mant, e2, 23)


def _shortest_exact(mant: int, e2: int, mantbits: int) -> tuple[str, int]:
    """The fewest digits inside the interval that rounds to mant * 2**e2; the closest of them to the value."""
    v = Fraction(mant) * Fraction(2) ** e2
    half_up = Fraction(2) ** e2 / 2
    # Below the smallest normal mantissa the spacing halves (the exponent steps down), unless subnormal.
    half_down = half_up / 2 if mant == 1 << mantbits and e2 > -149 else half_up
    lo, hi = v - half_down, v + half_up
    inclusive = mant % 2 == 0  # round-half-even reads a boundary back as the even mantissa
    k = math.floor(math.log10(v)) + 1  # v < 10**k, roughly
    if v >= Fraction(10) ** k:
        k += 1
    elif v < Fraction(10) ** (k - 1):
        k -= 1
    for p in range(1, 20):
        scale = Fraction(10) ** (k - p)  # the last digit's weight
        c_lo, c_hi = math.ceil(lo / scale), math.floor(hi / scale)
        if not inclusive:
            if c_lo * scale == lo:
                c_lo += 1
            if c_hi * scale == hi:
                c_hi -= 1
        if c_lo <= c_hi:
            c = min(max(round(v / scale), c_lo), c_hi)
            s = str(c)
            return _digits_of(f"{s}e{k - p}")
    raise AssertionError("no shortest digits")  # pragma: no cover


def _format_digits(shortest: bool, neg: bool, digits: str, dp: int, prec: int, fmt: str) -> str:
    sign = "-" if neg else ""
    nd = len(digits)
    if fmt in ("e", "E"):
        return sign + _fmt_e(digits, dp, prec, fmt)
    if fmt == "f":
        return sign + _fmt_f(digits, dp, prec)
    if fmt in ("g", "G"):
        eprec = prec
        if eprec > nd and nd >= dp:
            eprec = nd
        if shortest:  # %e is used if the exponent is < -4 or >= the precision (6 for the shortest form)
            eprec = 6
        exp = dp - 1
        if exp < -4 or exp >= eprec:
            if prec > nd:
                prec = nd
            return sign + _fmt_e(digits, dp, prec - 1, "e" if fmt == "g" else "E")
        if prec > dp:
            prec = nd
        return sign + _fmt_f(digits, dp, max(prec - dp, 0))
    return "%" + fmt  # unknown format


def _fmt_e(digits: str, dp: int, prec: int, e: str) -> str:
    s = digits[0] if digits else "0"
    if prec > 0:
        s += "." + digits[1:prec + 1] + "0" * max(0, prec + 1 - max(len(digits), 1))
    exp = dp - 1 if digits else 0
    return f"{s}{e}{'-' if exp < 0 else '+'}{abs(exp):02d}"


def _fmt_f(digits: str, dp: int, prec: int) -> str:
    if dp > 0:
        s = digits[:dp] + "0" * max(0, dp - len(digits))
    else:
        s = "0"
    if prec > 0:
        s += "." + "".join(digits[j] if 0 <= j < len(digits) else "0" for j in range(dp, dp + prec))
    return s


def _fmt_x(prec: int, fmt: str, neg: bool, mant: int, exp: int, mantbits: int) -> str:
    """%x: a hexadecimal mantissa 1.hhh (0x0p+00 for zero) and a decimal power-of-two exponent."""
    m64 = (1 << 64) - 1
    if mant == 0:
        exp = 0
    mant <<= 60 - mantbits  # leading 1 (if any) at bit 60
    while mant != 0 and mant & (1 << 60) == 0:
        mant <<= 1
        exp -= 1
    if 0 <= prec < 15:  # round to prec hex digits, ties to even
        shift = prec * 4
        extra = (mant << shift) & ((1 << 60) - 1)
        mant >>= 60 - shift
        if extra | (mant & 1) > 1 << 59:
            mant += 1
        mant <<= 60 - shift
        if mant & (1 << 61):
            mant >>= 1
            exp += 1
    hexd = "0123456789ABCDEF" if fmt == "X" else "0123456789abcdef"
    s = ("-" if neg else "") + "0" + fmt + str((mant >> 60) & 1)
    mant = (mant << 4) & m64
    if prec < 0 and mant != 0:
        s += "."
        while mant != 0:
            s += hexd[(mant >> 60) & 15]
            mant = (mant << 4) & m64
    elif prec > 0:
        s += "."
        for _ in range(prec):
            s += hexd[(mant >> 60) & 15]
            mant = (mant << 4) & m64
    s += "P" if fmt == "X" else "p"
    s += "-" if exp < 0 else "+"
    return s + f"{abs(exp):02d}"
