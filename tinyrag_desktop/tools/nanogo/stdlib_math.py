"""The math package: signatures and implementations (Go's special cases for NaN, infinities and -0)."""

from __future__ import annotations

import math

from . import gomath, gomath_exp, gomath_more
from . import types as T
from .stdlib import B, F, I, PACKAGES, _pkg, fn


# ---- math -----------------------------------------------------------------------------------------------

P = _pkg("math")


def _safe(f):
    def g(*a):
        try:
            return f(*a)
        except ValueError:
            return math.nan
        except OverflowError:
            return math.inf
    return g


def _m_round(x):
    if x != x or x in (math.inf, -math.inf):
        return x
    a = abs(x)
    r = math.floor(a)
    if a - r >= 0.5:
        r += 1
    return math.copysign(r, x)


def _m_minmax(big):
    inf = math.inf if big else -math.inf

    def f(a, b):
        if a == inf or b == inf:  # Go: Max(x, +Inf) is +Inf even for a NaN x, Min(x, -Inf) is -Inf
            return inf
        if a != a or b != b:
            return gomath_exp._NAN
        if a == b == 0:
            neg_a = math.copysign(1, a) < 0  # Max(+0, -0) is +0, Min(+0, -0) is -0
            if big:
                return a if not neg_a else b
            return a if neg_a else b
        return max(a, b) if big else min(a, b)
    return f


def _m_dim(x, y):
    v = x - y
    return 0.0 if v <= 0 else v  # Go: Dim(-0, 0) is +0; a NaN difference stays NaN


def _m_mod(x, y):
    if y == 0 or x in (math.inf, -math.inf) or x != x or y != y:
        return gomath_exp._NAN
    return math.fmod(x, y)


for _name, _f in {"Sqrt": gomath.sqrt, "Abs": abs,
                  "Floor": _safe(lambda x: math.copysign(float(math.floor(x)), x) if math.isfinite(x) else x + x),
                  "Ceil": _safe(lambda x: math.copysign(float(math.ceil(x)), x) if math.isfinite(x) else x + x),
                  "Trunc": _safe(lambda x: math.copysign(float(math.trunc(x)), x) if math.isfinite(x) else x + x),
                  "Round": _m_round, "Log": gomath.log, "Log2": gomath.log2, "Log10": gomath.log10,
                  "Exp": gomath_exp.exp, "Sin": gomath.sin, "Cos": gomath.cos, "Tan": gomath.tan,
                  "Asin": gomath.asin, "Acos": gomath.acos, "Atan": gomath.atan, "Sinh": gomath_exp.sinh,
                  "Cosh": gomath_exp.cosh, "Tanh": gomath_exp.tanh, "Cbrt": gomath.cbrt,
                  "Log1p": gomath_exp.log1p, "Expm1": gomath_exp.expm1, "Exp2": gomath_exp.exp2}.items():
    P.add(_name, fn([F], [F]), _f)
P.add("Pow", fn([F, F], [F]), gomath.pow)
P.add("Atan2", fn([F, F], [F]), gomath.atan2)
P.add("Hypot", fn([F, F], [F]), gomath.hypot)
P.add("Max", fn([F, F], [F]), _m_minmax(True))
P.add("Min", fn([F, F], [F]), _m_minmax(False))
P.add("Mod", fn([F, F], [F]), _m_mod)
P.add("Copysign", fn([F, F], [F]), math.copysign)
P.add("Inf", fn([I], [F]), lambda s: math.inf if s >= 0 else -math.inf)
P.add("NaN", fn([], [F]), lambda: gomath_exp._NAN)  # Go's NaN() has the bits 0x7FF8000000000001
P.add("IsNaN", fn([F], [B]), lambda x: x != x)
P.add("IsInf", fn([F, I], [B]), lambda x, s: (x == math.inf and s >= 0) or (x == -math.inf and s <= 0))
P.add("Signbit", fn([F], [B]), lambda x: math.copysign(1, x) < 0)
P.add("Modf", fn([F], [F, F]), gomath.modf)
P.add("Float64bits", fn([F], [T.UINT64]), lambda x: __import__("struct").unpack("<Q", __import__("struct").pack("<d", x))[0])
P.add("Float64frombits", fn([T.UINT64], [F]), lambda b: __import__("struct").unpack("<d", __import__("struct").pack("<Q", b))[0])
from fractions import Fraction as _Fr  # noqa: E402

for _name, _v in {"Pi": math.pi, "E": math.e, "Sqrt2": math.sqrt(2), "Phi": (1 + math.sqrt(5)) / 2,
                  "Ln2": math.log(2), "Ln10": math.log(10), "Log2E": 1 / math.log(2), "Log10E": 1 / math.log(10),
                  "SqrtE": math.sqrt(math.e), "SqrtPi": math.sqrt(math.pi), "SqrtPhi": math.sqrt((1 + math.sqrt(5)) / 2),
                  "MaxFloat64": 1.7976931348623157e308, "SmallestNonzeroFloat64": 5e-324,
                  "MaxFloat32": 3.4028234663852886e38, "SmallestNonzeroFloat32": 1.401298464324817e-45}.items():
    P.consts[_name] = (T.U_FLOAT, _Fr(_v))
P.consts["Pi"] = (T.U_FLOAT, _Fr("3.14159265358979323846264338327950288419716939937510582097494459"))
P.consts["E"] = (T.U_FLOAT, _Fr("2.71828182845904523536028747135266249775724709369995957496696763"))
for _name, _v in {"MaxInt": (1 << 63) - 1, "MinInt": -(1 << 63), "MaxInt64": (1 << 63) - 1, "MinInt64": -(1 << 63),
                  "MaxInt32": (1 << 31) - 1, "MinInt32": -(1 << 31), "MaxInt16": (1 << 15) - 1,
                  "MinInt16": -(1 << 15), "MaxInt8": 127, "MinInt8": -128, "MaxUint8": 255, "MaxUint16": 65535,
                  "MaxUint32": (1 << 32) - 1, "MaxUint64": (1 << 64) - 1, "MaxUint": (1 << 64) - 1}.items():
    P.consts[_name] = (T.U_INT, _v)

def _round_even(x):
    if x != x or x in (math.inf, -math.inf):
        return x
    return math.copysign(float(round(x)), x)


P = PACKAGES["math"]
P.add("RoundToEven", fn([F], [F]), _round_even)
P.add("Remainder", fn([F, F], [F]), lambda x, y: gomath_exp._NAN if x != x or y != y or x in (math.inf, -math.inf)
      or y == 0 else x if y in (math.inf, -math.inf) else math.remainder(x, y))
P.add("Dim", fn([F, F], [F]), _m_dim)
P.add("Float32bits", fn([T.FLOAT32], [T.UINT32]),
      lambda x: __import__("struct").unpack("<I", __import__("struct").pack("<f", x))[0])
P.add("Float32frombits", fn([T.UINT32], [T.FLOAT32]),
      lambda b: __import__("struct").unpack("<f", __import__("struct").pack("<I", b))[0])
P.add("Frexp", fn([F], [F, I]), gomath.frexp)
for _name, _f in {"Acosh": gomath_more.acosh, "Asinh": gomath_more.asinh, "Atanh": gomath_more.atanh,
                  "Logb": gomath_more.logb}.items():
    P.add(_name, fn([F], [F]), _f)
P.add("Sincos", fn([F], [F, F]), gomath_more.sincos)
P.add("Nextafter", fn([F, F], [F]), gomath_more.nextafter)
P.add("Nextafter32", fn([T.FLOAT32, T.FLOAT32], [T.FLOAT32]), gomath_more.nextafter32)
P.add("Pow10", fn([I], [F]), gomath_more.pow10)
P.add("Ilogb", fn([F], [I]), gomath_more.ilogb)
P.add("FMA", fn([F, F, F], [F]), gomath_more.fma)
P.add("Ldexp", fn([F, I], [F]), gomath.ldexp)
P.add("IsInf", fn([F, I], [B]), lambda x, s: (x == math.inf and s >= 0) or (x == -math.inf and s <= 0))


