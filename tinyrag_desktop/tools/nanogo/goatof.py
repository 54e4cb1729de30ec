"""strconv's parsers as Go 1.19 has them (atoi.go, atof.go): which strings are numbers, and what they are.

Each parser returns (value, failure, func): failure is None, "syntax", "range", ("base", n) or
("bitsize", n), and func the name the NumError reports (ParseInt reports as ParseInt what ParseUint found).
The caller turns a failure into Go's *NumError. Decimal floats are rounded exactly once, from all their
digits, to float64 or float32 (Go rounds float32 from the decimal too, never through a float64).
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

_MAX_U64 = (1 << 64) - 1
GO_NAN = struct.unpack("<d", struct.pack("<Q", 0x7FF8000000000001))[0]  # math.NaN()'s bits


def underscore_ok(s: str) -> bool:
    """Underscores only between digits, or after a base prefix (Go's literal syntax)."""
    saw = "^"
    i = 0
    if s[:1] in ("-", "+"):
        s = s[1:]
    hexa = False
    if len(s) >= 2 and s[0] == "0" and s[1].lower() in "box":
        i, saw, hexa = 2, "0", s[1].lower() == "x"
    while i < len(s):
        c = s[i]
        if "0" <= c <= "9" or hexa and "a" <= c.lower() <= "f":
            saw = "0"
        elif c == "_":
            if saw != "0":
                return False
            saw = "_"
        elif saw == "_":
            return False
        else:
            saw = "!"
        i += 1
    return saw != "_"


def parse_uint(s: str, base: int, bit_size: int, fname: str = "ParseUint"):
    if s == "":
        return 0, "syntax", fname
    base0 = base == 0
    s0 = s
    if base == 0:
        base = 10
        if s[0] == "0":
            p = s[1].lower() if len(s) >= 3 else ""
            base = {"b": 2, "o": 8, "x": 16}.get(p, 8)
            s = s[2:] if p in ("b", "o", "x") else s[1:]
    elif not 2 <= base <= 36:
        return 0, ("base", base), fname
    if bit_size == 0:
        bit_size = 64
    elif not 0 <= bit_size <= 64:
        return 0, ("bitsize", bit_size), fname
    cutoff = _MAX_U64 // base + 1
    max_val = (1 << bit_size) - 1
    underscores = False
    n = 0
    for c in s.encode("utf-8"):
        ch = chr(c)
        if ch == "_" and base0:
            underscores = True
            continue
        if "0" <= ch <= "9":
            d = c - 48
        elif "a" <= ch.lower() <= "z":
            d = ord(ch.lower()) - 87
        else:
            return 0, "syntax", fname
        if d >= base:
            return 0, "syntax", fname
        if n >= cutoff:  # a range error is found before a later bad character
            return max_val, "range", fname
        n *= base
        n1 = n + d
        if n1 > max_val or n1 > _MAX_U64:
            return max_val, "range", fname
        n = n1
    if underscores and not underscore_ok(s0):
        return 0, "syntax", fname
    return n, None, fname


def parse_int(s: str, base: int, bit_size: int, fname: str = "ParseInt"):
    if s == "":
        return 0, "syntax", fname
    neg = s[0] == "-"
    un, err, _ = parse_uint(s[1:] if s[0] in "+-" else s, base, bit_size, fname)
    if err is not None and err != "range":
        return 0, err, fname
    if bit_size == 0:
        bit_size = 64
    cutoff = 1 << (bit_size - 1)
    if not neg and un >= cutoff:
        return cutoff - 1, "range", fname
    if neg and un > cutoff:
        return -cutoff, "range", fname
    return (-un if neg else un), None, fname


def atoi(s: str):
    if 0 < len(s) < 19:  # Go's fast path: only ASCII digits after an optional sign
        body = s[1:] if s[0] in "+-" else s
        if not body or not all("0" <= c <= "9" for c in body):
            return 0, "syntax", "Atoi"
        return (-int(body) if s[0] == "-" else int(body)), None, "Atoi"
    v, err, _ = parse_int(s, 10, 0, "Atoi")
    return v, err, "Atoi"


# ---- floats ----

def _special(s: str):
    """±Inf, ±Infinity and NaN (no sign allowed), any case, as a prefix: (value, length) or None."""
    sign, ns, t = 1.0, 0, s
    if t[:1] in ("+", "-"):
        sign, ns, t = (-1.0 if t[0] == "-" else 1.0), 1, t[1:]
    low = t[:8].lower()
    if low[:1] == "i":
        n = 0
        while n < len(low) and low[n] == "infinity"[n]:
            n += 1
        if 3 < n < 8:
            n = 3
        if n in (3, 8):
            return math.copysign(math.inf, sign), ns + n
    elif low[:1] == "n" and ns == 0 and low[:3] == "nan":
        return GO_NAN, 3
    return None


def _read_float(s: str):
    """Go's readFloat: (digits, dp, neg, hex mantissa info, length) or None for a syntax error."""
    i, n = 0, len(s)
    underscores = neg = hexa = False
    if i < n and s[i] in "+-":
        neg = s[i] == "-"
        i += 1
    base, expchar = 10, "e"
    if i + 2 < n and s[i] == "0" and s[i + 1].lower() == "x":
        base, expchar, hexa = 16, "p", True
        i += 2
    sawdot = sawdigits = False
    digits = []
    nd = dp = 0
    while i < n:
        c = s[i]
        if c == "_":
            underscores = True
        elif c == ".":
            if sawdot:
                break
            sawdot, dp = True, nd
        elif "0" <= c <= "9" or (base == 16 and "a" <= c.lower() <= "f"):
            sawdigits = True
            if c == "0" and nd == 0:  # leading zeros
                dp -= 1
            else:
                nd += 1
                digits.append(c)
        else:
            break
        i += 1
    if not sawdigits:
        return None
    if not sawdot:
        dp = nd
    if i < n and s[i].lower() == expchar:
        i += 1
        if i >= n:
            return None
        esign = 1
        if s[i] in "+-":
            esign = -1 if s[i] == "-" else 1
            i += 1
        if i >= n or not "0" <= s[i] <= "9":
            return None
        e = 0
        while i < n and ("0" <= s[i] <= "9" or s[i] == "_"):
            if s[i] == "_":
                underscores = True
            elif e < 10000:
                e = e * 10 + int(s[i])
            i += 1
        exp = e * esign
    elif base == 16:
        return None
    else:
        exp = 0
    if underscores and not underscore_ok(s[:i]):
        return None
    return "".join(digits), dp, exp, neg, hexa, i


def _round_binary(num: int, den: int, mantbits: int, emin: int) -> tuple[int, int]:
    """num/den (> 0) rounded to nearest even with mantbits+1 bits, not below 2**emin's spacing: (m, e), value m*2**e."""
    shift = num.bit_length() - den.bit_length()
    e = shift - (mantbits + 1)
    if (num >= den << shift) if shift >= 0 else (num << -shift >= den):
        e += 1
    e = max(e, emin - mantbits)
    if e >= 0:
        q, r = divmod(num, den << e)
        d2 = den << e
    else:
        q, r = divmod(num << -e, den)
        d2 = den
    if 2 * r > d2 or (2 * r == d2 and q & 1):
        q += 1
    if q >> (mantbits + 1):
        q >>= 1
        e += 1
    return q, e


def _decimal_to_f32(digits: str, exp10: int) -> float:
    """float32 nearest to 0.DIGITS x 10**exp10, rounded once."""
    if not digits or exp10 < -60:
        return 0.0
    if exp10 > 40:
        return math.inf
    v = Fraction(int(digits)) * Fraction(10) ** (exp10 - len(digits))
    m, e = _round_binary(v.numerator, v.denominator, 23, -126)
    if m >> 23 and e + 23 > 127:
        return math.inf
    return math.ldexp(m, e)


def parse_float(s: str, bit_size: int):
    """strconv.ParseFloat: (value, failure, "ParseFloat")."""
    val, n, err = _parse_float_prefix(s, bit_size)
    if n != len(s) and (err is None or err != "syntax"):
        return 0.0, "syntax", "ParseFloat"
    return val, err, "ParseFloat"


def _parse_float_prefix(s: str, bit_size: int):
    sp = _special(s)
    if sp is not None:
        return (math.nan if bit_size == 32 and sp[0] != sp[0] else sp[0]), sp[1], None
    r = _read_float(s)
    if r is None:
        return 0.0, 0, "syntax"
    digits, dp, exp, neg, hexa, n = r
    if hexa:
        v, err = _atof_hex(digits, dp, exp, neg, bit_size)
        return v, n, err
    dp += exp
    if bit_size == 32:
        v = _decimal_to_f32(digits, dp)
    else:
        v = float(f"0.{digits or '0'}e{dp}") if -400 < dp < 400 else (math.inf if dp > 0 and digits else 0.0)
    if neg:
        v = -v
    return v, n, ("range" if math.isinf(v) else None)


def _atof_hex(digits: str, dp: int, exp: int, neg: bool, bit_size: int):
    """Go's atofHex: at most 16 hex digits kept, the rest only as a sticky bit; then round to even."""
    mantbits, expbits, bias = (23, 8, -127) if bit_size == 32 else (52, 11, -1023)
    kept, rest = digits[:16], digits[16:]
    mantissa = int(kept, 16) if kept else 0
    trunc = any(c != "0" for c in rest)
    nd_mant = len(kept) * 4
    dp4 = dp * 4 + exp
    e = dp4 - nd_mant if mantissa else 0
    max_exp = (1 << expbits) + bias - 2
    min_exp = bias + 1
    e += mantbits
    while mantissa != 0 and mantissa >> (mantbits + 2) == 0:
        mantissa <<= 1
        e -= 1
    if trunc:
        mantissa |= 1
    while mantissa >> (1 + mantbits + 2) != 0:
        mantissa = (mantissa >> 1) | (mantissa & 1)
        e += 1
    while mantissa > 1 and e < min_exp - 2:
        mantissa = (mantissa >> 1) | (mantissa & 1)
        e += 1
    rnd = mantissa & 3
    mantissa >>= 2
    rnd |= mantissa & 1
    e += 2
    if rnd == 3:
        mantissa += 1
        if mantissa == 1 << (1 + mantbits):
            mantissa >>= 1
            e += 1
    if mantissa >> mantbits == 0:
        e = bias
    err = None
    if e > max_exp:
        mantissa, e, err = 1 << mantbits, max_exp + 1, "range"
    b = (mantissa & ((1 << mantbits) - 1)) | (((e - bias) & ((1 << expbits) - 1)) << mantbits)
    if neg:
        b |= 1 << (mantbits + expbits)
    if bit_size == 32:
        return struct.unpack("<f", struct.pack("<I", b))[0], err
    return struct.unpack("<d", struct.pack("<Q", b))[0], err


def round_to_float32(v: Fraction) -> float:
    """The float32 nearest to v, ties to even (±Inf past MaxFloat32), as Go rounds a constant."""
    if v == 0:
        return 0.0
    m, e = _round_binary(abs(v.numerator), v.denominator, 23, -126)
    r = math.inf if (m >> 23 and e > 104) else math.ldexp(m, e)
    return -r if v < 0 else r
