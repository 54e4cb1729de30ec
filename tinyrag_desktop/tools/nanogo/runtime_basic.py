"""The runtime of Go's basic types: integer wrap-around, division and shifts, and strings as UTF-8 bytes."""

from __future__ import annotations

import struct

from .runtime import Slice, idx_panic, rt_panic, sitems, slice_of


# ---- integers -------------------------------------------------------------------------------------------

def wrap(v: int, bits: int, signed: bool) -> int:
    m = (1 << bits) - 1
    v &= m
    if signed and v >> (bits - 1):
        v -= 1 << bits
    return v


def w64(v: int) -> int:
    v &= 0xFFFFFFFFFFFFFFFF
    return v - 0x10000000000000000 if v >> 63 else v


def idiv(a: int, b: int) -> int:
    if b == 0:
        raise rt_panic("integer divide by zero")
    q = a // b
    if q < 0 and q * b != a:
        q += 1
    return q


def imod(a: int, b: int) -> int:
    if b == 0:
        raise rt_panic("integer divide by zero")
    r = a % b
    if r and (a < 0) != (b < 0):
        r -= b
    return r


def fdiv(a: float, b: float) -> float:
    try:
        return a / b
    except ZeroDivisionError:  # as DIVSD: a NaN comes through (quieted), 0/0 is the default NaN
        if a != a:
            return a + b
        if a == 0:
            return _DEFAULT_NAN
        return float("inf") if (a > 0) == (str(b)[0] != "-") else float("-inf")


_DEFAULT_NAN = struct.unpack("<d", struct.pack("<Q", 0xFFF8000000000000))[0]


def shl(a: int, b: int, bits: int, signed: bool) -> int:
    if b < 0:
        raise rt_panic("negative shift amount")
    if b >= bits:
        return 0
    return wrap(a << b, bits, signed)


def shr(a: int, b: int) -> int:
    if b < 0:
        raise rt_panic("negative shift amount")
    if b > 64:
        b = 64
    return a >> b


def f2i(f: float, bits: int, signed: bool) -> int:
    if f != f or f in (float("inf"), float("-inf")):
        return -(1 << 63) if bits == 64 else 0
    return wrap(int(f), bits, signed)


# ---- strings ----------------------------------------------------------------------------------------------

def gbytes(s: str) -> bytes:
    return s.encode("utf-8", "surrogateescape")


def scmp(a: str, b: str) -> int:
    """Go's string order, by bytes: Python's order of code points is the same unless both strings hold
    non-ASCII text and one holds a byte that is not UTF-8 (a lone surrogate here)."""
    if not (a.isascii() or b.isascii()):
        a, b = gbytes(a), gbytes(b)
    return (a > b) - (a < b)


def gstr(b) -> str:
    return bytes(b).decode("utf-8", "surrogateescape")


def slen(s: str) -> int:
    return len(s) if s.isascii() else len(s.encode("utf-8", "surrogateescape"))


def sidx(s: str, i: int) -> int:
    if s.isascii():
        if 0 <= i < len(s):
            return ord(s[i])
        raise idx_panic(i, len(s))
    b = gbytes(s)
    if 0 <= i < len(b):
        return b[i]
    raise idx_panic(i, len(b))


def ssub(s: str, lo, hi) -> str:
    if s.isascii():
        n = len(s)
        if hi is None:
            hi = n
        if not 0 <= hi <= n:
            raise rt_panic(f"slice bounds out of range [:{hi}] with length {n}")
        if not 0 <= lo <= hi:
            raise rt_panic(f"slice bounds out of range [{lo}:{hi}]")
        return s[lo:hi]
    b = gbytes(s)
    n = len(b)
    if hi is None:
        hi = n
    if not 0 <= hi <= n:
        raise rt_panic(f"slice bounds out of range [:{hi}] with length {n}")
    if not 0 <= lo <= hi:
        raise rt_panic(f"slice bounds out of range [{lo}:{hi}]")
    return gstr(b[lo:hi])


def _rune_of(ch: str) -> int:
    o = ord(ch)
    return 0xFFFD if 0xD800 <= o <= 0xDFFF else o


def srange(s: str):
    """(byte offset, rune) pairs, as `for i, r := range s` sees them."""
    if s.isascii():
        return enumerate(map(ord, s))
    out = []
    i = 0
    for ch in s:
        o = ord(ch)
        if 0xDC80 <= o <= 0xDCFF:  # an invalid byte kept by surrogateescape
            out.append((i, 0xFFFD))
            i += 1
            continue
        out.append((i, o))
        i += 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4
    return out


def runes(s: str) -> list:
    return [_rune_of(ch) for ch in s]


def rune_str(r: int) -> str:
    if 0 <= r < 0xD800 or 0xE000 <= r <= 0x10FFFF:
        return chr(r)
    return "\uFFFD"


def runes_to_str(rs) -> str:
    return "".join(rune_str(r) for r in rs)


def bytes_to_str(s: Slice) -> str:
    return gstr(sitems(s))


def str_to_bytes(s: str) -> Slice:
    return slice_of(list(gbytes(s)))


def str_to_runes(s: str) -> Slice:
    return slice_of(runes(s))


def str_lt(a: str, b: str) -> bool:
    if a.isascii() and b.isascii():
        return a < b
    return gbytes(a) < gbytes(b)
