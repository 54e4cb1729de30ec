"""Go 1.19's exponential family on linux/amd64, ported operation by operation: Exp, Exp2, Expm1, Log1p,
Sinh, Cosh, Tanh.

Exp is Go's amd64 assembly (exp_amd64.s), which differs from the C library in the last digit and even in
range: Go's Exp(709.78) is +Inf where the true value is 1.79e308. Where the CPU has AVX and FMA (every
x86-64 CPU since 2013, and the machines Go's results were recorded on), the assembly fuses its multiply-adds;
`fma` here computes a fused multiply-add exactly (Python 3.11's math has none). The other functions are Go's
pure Go (FreeBSD msun and Cephes) versions, which amd64 uses; Sinh, Cosh, Tanh and Pow call Exp, so they
inherit its rounding.
"""

from __future__ import annotations

import math
import struct

_INF = math.inf
_NAN = struct.unpack("<d", struct.pack("<Q", 0x7FF8000000000001))[0]  # math.NaN()'s bits
_DOUBLE = struct.Struct("<d")
_UINT64 = struct.Struct("<Q")
_U64 = (1 << 64) - 1

USE_FMA = True  # Go: useFMA = cpu.X86.HasAVX && cpu.X86.HasFMA


def _bits(x: float) -> int:
    return _UINT64.unpack(_DOUBLE.pack(x))[0]


def _from_bits(b: int) -> float:
    return _DOUBLE.unpack(_UINT64.pack(b & _U64))[0]


_SPLIT = 134217729.0  # 2**27 + 1, Veltkamp's splitter


def fma(a: float, b: float, c: float) -> float:
    """a*b + c rounded once (an FMA instruction), for finite a, b, c."""
    if a == 0 or b == 0:
        return a * b + c  # the product is an exact zero
    if c == 0:
        return a * b
    p = a * b
    if 1e-280 < abs(p) < 1e280 and abs(a) < 1e290 and abs(b) < 1e290 and abs(c) < 1e300:
        # Dekker's product: p + e is a*b exactly; fsum rounds p + e + c once, exactly
        t = _SPLIT * a
        ah = t - (t - a)
        al = a - ah
        t = _SPLIT * b
        bh = t - (t - b)
        bl = b - bh
        e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
        return math.fsum((p, e, c))
    return _fma_exact(a, b, c)


def _fma_exact(a: float, b: float, c: float) -> float:
    na, da = a.as_integer_ratio()  # denominators are powers of two
    nb, db = b.as_integer_ratio()
    nc, dc = c.as_integer_ratio()
    n, d = na * nb, da * db
    if d >= dc:
        n += nc * (d // dc)
    else:
        n, d = n * (dc // d) + nc, dc
    if n == 0:
        return 0.0  # an exact zero sum rounds to +0
    try:
        return n / d  # int / int is correctly rounded in Python
    except OverflowError:
        return _INF if n > 0 else -_INF


# exp_amd64.s
_LOG2E = 1.4426950408889634073599246810018920
_LN2U = 0.69314718055966295651160180568695068359375
_LN2L = 0.28235290563031577122588448175013436025525412068e-12
_OVERFLOW = 7.09782712893384e+02
_TAYLOR = (2.4801587301587301587e-5, 1.9841269841269841270e-4, 1.3888888888888888889e-3,
           8.3333333333333333333e-3, 4.1666666666666666667e-2, 1.6666666666666666667e-1, 0.5, 1.0)


def _cvtsd2sl(x: float) -> int:
    """CVTSD2SL: round to nearest even int32; out of range (or NaN) gives the 'integer indefinite' -2**31."""
    if x != x or not -2147483648.5 < x < 2147483647.5:
        return -(1 << 31)
    return round(x)


def exp(x: float) -> float:
    """Go's Exp on amd64 (exp_amd64.s): a Taylor series of x/16 squared four times."""
    if x != x or x == _INF:
        return x
    if x == -_INF:
        return 0.0
    if x > _OVERFLOW:
        return _INF
    k = _cvtsd2sl(_LOG2E * x)
    e = k + 0x3FF  # the result's biased exponent
    if e < -52:
        return 0.0
    if e >= 0x7FF:
        return _INF
    fk = float(k)
    if USE_FMA:
        x -= fk * _LN2U  # exact product (41-bit LN2U times an 11-bit k): the FMA's single rounding
        x = fma(-fk, _LN2L, x)
        x *= 0.0625
        p = _TAYLOR[0]
        if x == 0 or 1e-250 < abs(x):  # fma(p, x, c) inlined, x split once (|x| < 0.03, p near 1)
            t = _SPLIT * x
            xh = t - (t - x)
            xl = x - xh
            for c in _TAYLOR[1:]:
                q = p * x
                t = _SPLIT * p
                ph = t - (t - p)
                pl = p - ph
                p = math.fsum((q, ((ph * xh - q) + ph * xl + pl * xh) + pl * xl, c))
        else:
            for c in _TAYLOR[1:]:
                p = fma(p, x, c)
        x *= p
        for _ in range(3):
            x *= x + 2.0
        x = fma(x, x + 2.0, 1.0)
    else:
        x -= fk * _LN2U
        x -= fk * _LN2L
        x *= 0.0625
        p = _TAYLOR[0]
        for c in _TAYLOR[1:]:
            p = p * x + c
        x *= p
        for _ in range(4):
            x *= x + 2.0
        x += 1.0
    if e <= 0:  # the result is subnormal: two multiplications, the second one rounds
        x *= _from_bits((e + 0x3FE) << 52)
        e = 1
    return x * _from_bits(e << 52)


def ldexp(frac: float, exp: int) -> float:
    if frac == 0 or frac != frac or frac in (_INF, -_INF):
        return frac
    try:
        return math.ldexp(frac, exp)
    except OverflowError:
        return math.copysign(_INF, frac)


_LN2HI = 6.93147180369123816490e-01
_LN2LO = 1.90821492927058770002e-10


def _expmulti(hi: float, lo: float, k: int) -> float:
    r = hi - lo
    t = r * r
    c = r - t * (1.66666666666666657415e-01 + t * (-2.77777777770155933842e-03 + t * (
        6.61375632143793436117e-05 + t * (-1.65339022054652515390e-06 + t * 4.13813679705723846039e-08))))
    y = 1 - ((lo - (r * c) / (2 - c)) - hi)
    return ldexp(y, k)


def exp2(x: float) -> float:
    """Go's Exp2 (FreeBSD e_exp.c's method with base 2); amd64 has no assembly for it."""
    if x != x or x == _INF:
        return x
    if x == -_INF:
        return 0.0
    if x > 1.0239999999999999e+03:
        return _INF
    if x < -1.0740e+03:
        return 0.0
    k = 0
    if x > 0:
        k = int(x + 0.5)
    elif x < 0:
        k = int(x - 0.5)
    t = x - float(k)
    return _expmulti(t * _LN2HI, -t * _LN2LO, k)


def sinh(x: float) -> float:
    sign = x < 0
    if sign:
        x = -x
    if x > 21:
        temp = exp(x) * 0.5
    elif x > 0.5:
        ex = exp(x)
        temp = (ex - 1 / ex) * 0.5
    else:
        sq = x * x
        temp = (((-0.2630563213397497062819489e+2 * sq + -0.2894211355989563807284660366e+4) * sq
                 + -0.8991272022039509355398013511e+5) * sq + -0.6307673640497716991184787251e+6) * x
        temp = temp / (((sq + -0.173678953558233699533450911e+3) * sq + 0.1521517378790019070696485176e+5) * sq
                       + -0.6307673640497716991212077277e+6)
    return -temp if sign else temp


def cosh(x: float) -> float:
    x = abs(x)
    if x > 21:
        return exp(x) * 0.5
    ex = exp(x)
    return (ex + 1 / ex) * 0.5


def tanh(x: float) -> float:
    z = abs(x)
    if z > 0.5 * 8.8029691931113054295988e+01:  # 0.5 * log(2**127)
        return -1.0 if x < 0 else 1.0
    if z >= 0.625:
        s = exp(2 * z)
        z = 1 - 2 / (s + 1)
        return -z if x < 0 else z
    if x == 0:
        return x
    s = x * x
    return x + x * s * ((-9.64399179425052238628e-1 * s + -9.92877231001918586564e1) * s
                        + -1.61468768441708447952e3) / (((s + 1.12811678491632931402e2) * s
                                                         + 2.23548839060100448583e3) * s
                                                        + 4.84406305325125486048e3)


_LP = (6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01, 2.222219843214978396e-01,
       1.818357216161805012e-01, 1.531383769920937332e-01, 1.479819860511658591e-01)


def log1p(x: float) -> float:
    """Go's Log1p (FreeBSD s_log1p.c)."""
    if x < -1 or x != x:
        return _NAN
    if x == -1:
        return -_INF
    if x == _INF:
        return _INF
    absx = abs(x)
    f = 0.0
    iu = 0
    k = 1
    if absx < 4.142135623730950488017e-01:  # Sqrt(2)-1
        if absx < 1.0 / (1 << 29):
            if absx < 1.0 / (1 << 54):
                return x
            return x - x * x * 0.5
        if x > -2.928932188134524755992e-01:  # Sqrt(2)/2-1
            k = 0
            f = x
            iu = 1
    c = 0.0
    if k != 0:
        if absx < float(1 << 53):
            u = 1.0 + x
            iu = _bits(u)
            k = (iu >> 52) - 1023
            c = 1.0 - (u - x) if k > 0 else x - (u - 1.0)
            c /= u
        else:
            u = x
            iu = _bits(u)
            k = (iu >> 52) - 1023
            c = 0.0
        iu &= 0x000FFFFFFFFFFFFF
        if iu < 0x0006A09E667F3BCD:
            u = _from_bits(iu | 0x3FF0000000000000)
        else:
            k += 1
            u = _from_bits(iu | 0x3FE0000000000000)
            iu = (0x0010000000000000 - iu) >> 2
        f = u - 1.0
    hfsq = 0.5 * f * f
    fk = float(k)
    if iu == 0:
        if f == 0:
            if k == 0:
                return 0.0
            c += fk * _LN2LO
            return fk * _LN2HI + c
        r = hfsq * (1.0 - 0.66666666666666666 * f)
        if k == 0:
            return f - r
        return fk * _LN2HI - ((r - (fk * _LN2LO + c)) - f)
    s = f / (2.0 + f)
    z = s * s
    lp = _LP
    r = z * (lp[0] + z * (lp[1] + z * (lp[2] + z * (lp[3] + z * (lp[4] + z * (lp[5] + z * lp[6]))))))
    if k == 0:
        return f - (hfsq - s * (hfsq + r))
    return fk * _LN2HI - ((hfsq - (s * (hfsq + r) + (fk * _LN2LO + c))) - f)


def expm1(x: float) -> float:
    """Go's Expm1 (FreeBSD s_expm1.c)."""
    if x == _INF or x != x:
        return x
    if x == -_INF:
        return -1.0
    sign = x < 0
    absx = -x if sign else x
    if absx >= 3.88162421113569373274e+01:  # 56 * ln2
        if sign:
            return -1.0
        if absx >= 7.09782712893383973096e+02:
            return _INF
    c = 0.0
    k = 0
    if absx > 3.46573590279972654709e-01:  # ln2 / 2
        if absx < 1.03972077083991796413e+00:  # 1.5 * ln2
            if not sign:
                hi, lo, k = x - _LN2HI, _LN2LO, 1
            else:
                hi, lo, k = x + _LN2HI, -_LN2LO, -1
        else:
            k = int(1.44269504088896338700e+00 * x - 0.5) if sign else int(1.44269504088896338700e+00 * x + 0.5)
            t = float(k)
            hi = x - t * _LN2HI
            lo = t * _LN2LO
        x = hi - lo
        c = (hi - x) - lo
    elif absx < 1.0 / (1 << 54):
        return x
    hfx = 0.5 * x
    hxs = x * hfx
    r1 = 1 + hxs * (-3.33333333333331316428e-02 + hxs * (1.58730158725481460165e-03 + hxs * (
        -7.93650757867487942473e-05 + hxs * (4.00821782732936239552e-06 + hxs * -2.01099218183624371326e-07))))
    t = 3 - r1 * hfx
    e = hxs * ((r1 - t) / (6.0 - x * t))
    if k == 0:
        return x - (x * e - hxs)
    e = x * (e - c) - c
    e -= hxs
    if k == -1:
        return 0.5 * (x - e) - 0.5
    if k == 1:
        if x < -0.25:
            return -2 * (e - (x + 0.5))
        return 1 + 2 * (x - e)
    if k <= -2 or k > 56:
        y = 1 - (e - x)
        y = _from_bits(_bits(y) + (k << 52))  # add k to y's exponent (Go wraps as uint64)
        return y - 1
    if k < 20:
        t = _from_bits(0x3FF0000000000000 - (0x20000000000000 >> k))  # 1 - 2**-k
        y = t - (e - x)
        return _from_bits(_bits(y) + (k << 52))
    t = _from_bits((0x3FF - k) << 52)  # 2**-k
    y = x - (e + t)
    y += 1
    return _from_bits(_bits(y) + (k << 52))
