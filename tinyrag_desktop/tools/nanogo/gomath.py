"""Go 1.19's own math algorithms, ported operation by operation so results match Go's bit for bit.

Python's math module calls the C library, whose results are usually correctly rounded; Go computes most
functions itself (Cephes and FreeBSD msun algorithms) and its last digit often differs: Go prints
math.Sin(math.Pi) as 1.2246467991473515e-16, C as 1.2246467991473532e-16. Each function here follows
Go's source for linux/amd64 (its assembly where amd64 has one: Log, Hypot; Exp and its family are in
gomath_exp.py). Plain float operations are IEEE double operations in both languages, and Go does not fuse
multiply-adds on amd64 (only Exp's assembly does, explicitly), so the same sequence of operations gives the
same bits. Checked against go1.19.8 linux/amd64 on about 1.7 million inputs (random bit patterns, special
values, subnormals, near multiples of Pi/4), every result the same to the bit. Even a NaN's bits (seen only
through Float64bits) are Go's: NaN() is 0x7FF8000000000001, an instruction's own NaN 0xFFF8000000000000;
only a signaling NaN handed to a few functions (RoundToEven, Asin, Atan, Pow) may come back otherwise.
"""

from __future__ import annotations

import math

from .gomath_exp import _NAN, _bits, _from_bits, exp, ldexp

_INF = math.inf
_PI = math.pi


_DEFAULT_NAN = _from_bits(0xFFF8000000000000)  # the NaN an SSE instruction makes (SQRTSD of a negative)


def sqrt(x: float) -> float:
    """Go's Sqrt is the SQRTSD instruction: a NaN comes back as given, a negative gives the default NaN."""
    if x != x:
        return x + x  # quieted, as an instruction does
    if x < 0:
        return _DEFAULT_NAN
    return math.sqrt(x)


def frexp(x: float) -> tuple[float, int]:
    """Go's Frexp: ±0, ±Inf and NaN come back unchanged with exponent 0."""
    if x == 0 or x != x or x in (_INF, -_INF):
        return x, 0
    return math.frexp(x)


def modf(f: float) -> tuple[float, float]:
    """Go's Modf: the integer and fractional parts, both with f's sign (Modf(-0.5) is -0, -0.5)."""
    if f < 1:
        if f < 0:
            i, fr = modf(-f)
            return -i, -fr
        if f == 0:
            return f, f
        return 0.0, f
    if f != f or f == _INF:  # Go: the bit masking leaves Inf and NaN whole; the fraction is f - f
        return f, f - f
    i = float(math.trunc(f))
    return i, f - i


def log(x: float) -> float:
    """Go's Log on amd64 (log_amd64.s): FreeBSD's e_log.c. Like Go 1.19 there, a subnormal x is read as
    if its exponent were -1022 (golang/go#56600, fixed after 1.19)."""
    if x != x:  # the assembly returns a NaN as given, but NaN() for one with the sign bit set
        return x if math.copysign(1.0, x) > 0 else _NAN
    if x == _INF:
        return x
    if x < 0:
        return _NAN
    if x == 0:
        return -_INF
    bits = _bits(x)
    ki = ((bits >> 52) & 0x7FF) - 0x3FE
    f1 = _from_bits((bits & 0x000FFFFFFFFFFFFF) | 0x3FE0000000000000)
    k = float(ki)
    if not (0.7071067811865476 < f1):  # the assembly's "not less than" compare: f1 <= Sqrt2/2
        k -= 1.0
        f1 *= 2.0
    f = f1 - 1.0
    s = f / (2.0 + f)
    s2 = s * s
    s4 = s2 * s2
    t1 = s2 * (6.666666666666735130e-01 + s4 * (2.857142874366239149e-01 + s4 * (
        1.818357216161805012e-01 + s4 * 1.479819860511658591e-01)))
    t2 = s4 * (3.999999999940941908e-01 + s4 * (2.222219843214978396e-01 + s4 * 1.531383769920937332e-01))
    r = t1 + t2
    hfsq = 0.5 * f * f
    return k * 6.93147180369123816490e-01 - ((hfsq - (s * (hfsq + r) + k * 1.90821492927058770002e-10)) - f)


_INV_LN2 = 1.4426950408889634  # Go's constant 1/Ln2, rounded once
_INV_LN10 = 0.4342944819032518  # 1/Ln10


def log2(x: float) -> float:
    """Go's Log2: exact for powers of two."""
    frac, exp = frexp(x)
    if frac == 0.5:
        return float(exp - 1)
    return log(frac) * _INV_LN2 + float(exp)


def log10(x: float) -> float:
    return log(x) * _INV_LN10


def cbrt(x: float) -> float:
    """Go's Cbrt (FreeBSD s_cbrt.c): exact for perfect cubes."""
    if x == 0 or x != x or x in (_INF, -_INF):
        return x
    sign = x < 0
    if sign:
        x = -x
    # rough cbrt to 5 bits
    t = _from_bits(_bits(x) // 3 + (715094163 << 32))
    if x < 2.22507385850720138309e-308:  # subnormal
        t = float(1 << 54) * x
        t = _from_bits(_bits(t) // 3 + (696219795 << 32))
    # new cbrt to 23 bits
    r = t * t / x
    s = 5.42857142857142815906e-01 + r * t
    t *= 3.57142857142857150787e-01 + 1.60714285714285720630e+00 / (
        s + 1.41428571428571436819e+00 + -7.05306122448979611050e-01 / s)
    # chop to 22 bits, make larger than cbrt(x)
    t = _from_bits(((_bits(t) & (0xFFFFFFFFC << 28)) + (1 << 30)) & 0xFFFFFFFFFFFFFFFF)
    # one step newton iteration to 53 bits with error less than 0.667 ulps
    s = t * t
    r = x / s
    w = t + t
    r = (r - t) / (w + r)
    t = t + t * r
    return -t if sign else t


def _is_odd_int(x: float) -> bool:
    xi, xf = modf(x)
    return xf == 0 and abs(xi) < 2 ** 63 and int(xi) & 1 == 1


def pow(x: float, y: float) -> float:
    """Go's Pow: integer powers by repeated squaring (not correctly rounded, as in Go); the fractional part
    of y through Exp(yf*Log(x))."""
    if y == 0 or x == 1:
        return 1.0
    if y == 1:
        return x
    if x != x or y != y:
        return _NAN
    if x == 0:
        if y < 0:
            return math.copysign(_INF, x) if _is_odd_int(y) else _INF
        return x if _is_odd_int(y) else 0.0
    if y in (_INF, -_INF):
        if x == -1:
            return 1.0
        return 0.0 if (abs(x) < 1) == (y == _INF) else _INF
    if x in (_INF, -_INF):
        if x == -_INF:
            return pow(1 / x, -y)  # Pow(-0, -y)
        return 0.0 if y < 0 else _INF
    if y == 0.5:
        return sqrt(x)
    if y == -0.5:
        return 1 / sqrt(x)
    yi, yf = modf(abs(y))
    if yf != 0 and x < 0:
        return _NAN
    if yi >= 2.0 ** 63:
        if x == -1:
            return 1.0
        return 0.0 if (abs(x) < 1) == (y > 0) else _INF
    a1, ae = 1.0, 0
    if yf != 0:
        if yf > 0.5:
            yf -= 1
            yi += 1
        a1 = exp(yf * log(x))
    x1, xe = frexp(x)
    i = int(yi)
    while i != 0:
        if xe < -(1 << 12) or (1 << 12) < xe:
            ae += xe  # under/overflows in Ldexp below
            break
        if i & 1 == 1:
            a1 *= x1
            ae += xe
        x1 *= x1
        xe <<= 1
        if x1 < 0.5:
            x1 += x1
            xe -= 1
        i >>= 1
    if y < 0:
        a1 = 1 / a1
        ae = -ae
    return ldexp(a1, ae)


def hypot(p: float, q: float) -> float:
    """Go's Hypot on amd64 (hypot_amd64.s): max * sqrt(1 + (min/max)**2)."""
    p, q = abs(p), abs(q)
    if p == _INF or q == _INF:
        return _INF
    if p != p or q != q:
        return _NAN
    if p == 0 and q == 0:
        return 0.0
    big, small = max(p, q), min(p, q)
    r = small / big
    return math.sqrt(r * r + 1.0) * big


# ---- trigonometry (Cephes sin.c, tan.c, atan.c as Go has them) ----

_PI4A = 7.85398125648498535156e-1
_PI4B = 3.77489470793079817668e-8
_PI4C = 2.69515142907905952645e-15
_M4PI = 1.2732395447351628  # Go's constant 4/Pi, rounded once (0x3FF45F306DC9C883)
_REDUCE_THRESHOLD = float(1 << 29)
_SIN = (1.58962301576546568060e-10, -2.50507477628578072866e-8, 2.75573136213857245213e-6,
        -1.98412698295895385996e-4, 8.33333333332211858878e-3, -1.66666666666666307295e-1)
_COS = (-1.13585365213876817300e-11, 2.08757008419747316778e-9, -2.75573141792967388112e-7,
        2.48015872888517045348e-5, -1.38888888888730564116e-3, 4.16666666666665929218e-2)


def _octant(x: float) -> tuple[int, float]:
    if x >= _REDUCE_THRESHOLD:
        return _trig_reduce(x)
    j = int(x * _M4PI)
    y = float(j)
    if j & 1 == 1:  # map zeros to origin
        j += 1
        y += 1
    return j & 7, ((x - y * _PI4A) - y * _PI4B) - y * _PI4C


# Payne-Hanek reduction (trig_reduce.go): 4/Pi's bits, 64 at a time, from 2**-61 on.
_M_PI4 = (0x0000000000000001, 0x45f306dc9c882a53, 0xf84eafa3ea69bb81, 0xb6c52b3278872083, 0xfca2c757bd778ac3,
          0x6e48dc74849ba5c0, 0x0c925dd413a32439, 0xfc3bd63962534e7d, 0xd1046bea5d768909, 0xd338e04d68befc82,
          0x7323ac7306a673e9, 0x3908bf177bf25076, 0x3ff12fffbc0b301f, 0xde5e2316b414da3e, 0xda6cfd9e4f96136e,
          0x9e8c7ecd3cbfd45a, 0xea4f758fd7cbe2f6, 0x7a0e73ef14a525d4, 0xd7f6bf623f1aba10, 0xac06608df8f6d757)
_M64 = (1 << 64) - 1


def _trig_reduce(x: float) -> tuple[int, float]:
    """Go's trigReduce for x >= 2**29: the octant j and x - j*Pi/4, from x times 4/Pi in 192-bit fixed point."""
    ix = _bits(x)
    e = ((ix >> 52) & 0x7FF) - 1023 - 52
    ix = (ix & 0x000FFFFFFFFFFFFF) | (1 << 52)
    digit, shift = divmod(e + 61, 64)
    m = _M_PI4
    z0 = ((m[digit] << shift) | (m[digit + 1] >> (64 - shift))) & _M64
    z1 = ((m[digit + 1] << shift) | (m[digit + 2] >> (64 - shift))) & _M64
    z2 = ((m[digit + 2] << shift) | (m[digit + 3] >> (64 - shift))) & _M64
    z2hi = (z2 * ix) >> 64
    z1p = z1 * ix
    lo = (z1p & _M64) + z2hi
    hi = ((z0 * ix) + (z1p >> 64) + (lo >> 64)) & _M64
    lo &= _M64
    j = hi >> 61
    hi = ((hi << 3) | (lo >> 61)) & _M64
    lz = 64 - hi.bit_length()
    ez = 1023 - (lz + 1)
    hi = ((hi << (lz + 1)) | (lo >> (64 - (lz + 1)))) & _M64
    hi >>= 64 - 52
    z = _from_bits(hi | (ez << 52))
    if j & 1 == 1:
        j = (j + 1) & 7
        z -= 1
    return j, z * (_PI / 4)


def _sin_poly(z: float, zz: float) -> float:
    s = _SIN
    return z + z * zz * ((((((s[0] * zz) + s[1]) * zz + s[2]) * zz + s[3]) * zz + s[4]) * zz + s[5])


def _cos_poly(zz: float) -> float:
    c = _COS
    return 1.0 - 0.5 * zz + zz * zz * ((((((c[0] * zz) + c[1]) * zz + c[2]) * zz + c[3]) * zz + c[4]) * zz + c[5])


def sin(x: float) -> float:
    if x == 0 or x != x:
        return x
    if x in (_INF, -_INF):
        return _NAN
    sign = x < 0
    if sign:
        x = -x
    j, z = _octant(x)
    if j > 3:  # reflect in x axis
        sign = not sign
        j -= 4
    zz = z * z
    y = _cos_poly(zz) if j in (1, 2) else _sin_poly(z, zz)
    return -y if sign else y


def cos(x: float) -> float:
    if x != x or x in (_INF, -_INF):
        return _NAN
    x = abs(x)
    sign = False
    j, z = _octant(x)
    if j > 3:
        j -= 4
        sign = not sign
    if j > 1:
        sign = not sign
    zz = z * z
    y = _sin_poly(z, zz) if j in (1, 2) else _cos_poly(zz)
    return -y if sign else y


def tan(x: float) -> float:
    if x == 0 or x != x:
        return x
    if x in (_INF, -_INF):
        return _NAN
    sign = x < 0
    if sign:
        x = -x
    j, z = _octant(x)
    zz = z * z
    if zz > 1e-14:
        y = z + z * (zz * (((-1.30936939181383777646e4 * zz) + 1.15351664838587416140e6) * zz
                           + -1.79565251976484877988e7) / ((((zz + 1.36812963470692954678e4) * zz
                                                             + -1.32089234440210967447e6) * zz
                                                            + 2.50083801823357915839e7) * zz
                                                           + -5.38695755929454629881e7))
    else:
        y = z
    if j & 2 == 2:
        y = -1 / y
    return -y if sign else y


def _xatan(x: float) -> float:
    z = x * x
    z = z * ((((-8.750608600031904122785e-01 * z + -1.615753718733365076637e+01) * z
               + -7.500855792314704667340e+01) * z + -1.228866684490136173410e+02) * z
             + -6.485021904942025371773e+01) / (((((z + 2.485846490142306297962e+01) * z
                                                   + 1.650270098316988542046e+02) * z
                                                  + 4.328810604912902668951e+02) * z
                                                 + 4.853903996359136964868e+02) * z
                                                + 1.945506571482613964425e+02)
    return x * z + x


_MOREBITS = 6.123233995736765886130e-17  # pi/2 = PIO2 + Morebits


def _satan(x: float) -> float:
    if x <= 0.66:
        return _xatan(x)
    if x > 2.41421356237309504880:  # tan(3*pi/8)
        return _PI / 2 - _xatan(1 / x) + _MOREBITS
    return _PI / 4 + _xatan((x - 1) / (x + 1)) + 0.5 * _MOREBITS


def atan(x: float) -> float:
    if x == 0 or x != x:
        return x
    return _satan(x) if x > 0 else -_satan(-x)


def asin(x: float) -> float:
    if x == 0 or x != x:
        return x
    sign = x < 0
    if sign:
        x = -x
    if x > 1:
        return _NAN
    temp = math.sqrt(1 - x * x)
    temp = _PI / 2 - _satan(temp / x) if x > 0.7 else _satan(x / temp)
    return -temp if sign else temp


def acos(x: float) -> float:
    return _PI / 2 - asin(x)


def atan2(y: float, x: float) -> float:
    if y != y or x != x:
        return _NAN
    if y == 0:
        if x >= 0 and math.copysign(1, x) > 0:
            return math.copysign(0.0, y)
        return math.copysign(_PI, y)
    if x == 0:
        return math.copysign(_PI / 2, y)
    if x in (_INF, -_INF):
        if x == _INF:
            return math.copysign(_PI / 4 if y in (_INF, -_INF) else 0.0, y)
        return math.copysign(3 * _PI / 4 if y in (_INF, -_INF) else _PI, y)
    if y in (_INF, -_INF):
        return math.copysign(_PI / 2, y)
    q = atan(y / x)
    if x < 0:
        return q + _PI if q <= 0 else q - _PI
    return q
