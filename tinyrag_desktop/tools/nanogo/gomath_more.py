"""More of Go 1.19's math package, ported from Go's source: Acosh, Asinh, Atanh, Sincos, Nextafter,
Nextafter32, Pow10, Logb, Ilogb and FMA."""

from __future__ import annotations

import math
import struct

from . import gomath
from .gomath_exp import _NAN, _bits, _fma_exact, _from_bits, log1p

_INF = math.inf
_LN2 = 6.93147180559945286227e-01


def acosh(x: float) -> float:
    if x < 1 or x != x:
        return _NAN
    if x == 1:
        return 0.0
    if x >= 1 << 28:
        return gomath.log(x) + _LN2
    if x > 2:
        return gomath.log(2 * x - 1 / (x + math.sqrt(x * x - 1)))
    t = x - 1
    return log1p(t + math.sqrt(2 * t + t * t))


def asinh(x: float) -> float:
    if x != x or x in (_INF, -_INF):
        return x
    sign = x < 0
    if sign:
        x = -x
    if x > 1 << 28:
        temp = gomath.log(x) + _LN2
    elif x > 2:
        temp = gomath.log(2 * x + 1 / (math.sqrt(x * x + 1) + x))
    elif x < 1.0 / (1 << 28):
        temp = x
    else:
        temp = log1p(x + x * x / (1 + math.sqrt(1 + x * x)))
    return -temp if sign else temp


def atanh(x: float) -> float:
    if x < -1 or x > 1 or x != x:
        return _NAN
    if x == 1:
        return _INF
    if x == -1:
        return -_INF
    sign = x < 0
    if sign:
        x = -x
    if x < 1.0 / (1 << 28):
        temp = x
    elif x < 0.5:
        temp = x + x
        temp = 0.5 * log1p(temp + temp * x / (1 - x))
    else:
        temp = 0.5 * log1p((x + x) / (1 - x))
    return -temp if sign else temp


def sincos(x: float) -> tuple[float, float]:
    if x == 0:
        return x, 1.0
    if x != x or x in (_INF, -_INF):
        return _NAN, _NAN
    sin_sign = cos_sign = False
    if x < 0:
        x = -x
        sin_sign = True
    j, z = gomath._octant(x)
    if j > 3:
        j -= 4
        sin_sign, cos_sign = not sin_sign, not cos_sign
    if j > 1:
        cos_sign = not cos_sign
    zz = z * z
    cos = gomath._cos_poly(zz)
    sin = gomath._sin_poly(z, zz)
    if j in (1, 2):
        sin, cos = cos, sin
    return (-sin if sin_sign else sin), (-cos if cos_sign else cos)


def nextafter(x: float, y: float) -> float:
    if x != x or y != y:
        return _NAN
    if x == y:
        return x
    if x == 0:
        return math.copysign(5e-324, y)
    return _from_bits(_bits(x) + 1 if (y > x) == (x > 0) else _bits(x) - 1)


def _f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _f32_from(b: int) -> float:
    return struct.unpack("<f", struct.pack("<I", b & 0xFFFFFFFF))[0]


def nextafter32(x: float, y: float) -> float:
    if x != x or y != y:
        return _NAN
    if x == y:
        return x
    if x == 0:
        return math.copysign(_f32_from(1), y)
    return _f32_from(_f32_bits(x) + 1 if (y > x) == (x > 0) else _f32_bits(x) - 1)


_POW10 = [float(10 ** i) for i in range(32)]
_POS32 = [float(f"1e{32 * i}") for i in range(10)]
_NEG32 = [float(f"1e-{32 * i}") for i in range(11)]


def pow10(n: int) -> float:
    """Go's Pow10: table products, so 10**n as Go computes it (not always the nearest float)."""
    if 0 <= n <= 308:
        return _POS32[n // 32] * _POW10[n % 32]
    if -323 <= n <= 0:
        return _NEG32[-n // 32] / _POW10[-n % 32]
    return _INF if n > 0 else 0.0


def ilogb(x: float) -> int:
    if x == 0:
        return -(1 << 31)
    if x != x or x in (_INF, -_INF):
        return (1 << 31) - 1
    return math.frexp(x)[1] - 1


def logb(x: float) -> float:
    if x == 0:
        return -_INF
    if x in (_INF, -_INF):
        return _INF
    if x != x:
        return x
    return float(math.frexp(x)[1] - 1)


def fma(x: float, y: float, z: float) -> float:
    """math.FMA: x*y + z rounded once (amd64 uses the CPU's instruction)."""
    if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(z)):
        return x * y + z
    if x == 0 or y == 0:
        return x * y + z
    if z == 0:
        return x * y  # the exact product is not zero: its rounding, sign kept even if it underflows
    return _fma_exact(x, y, z)
