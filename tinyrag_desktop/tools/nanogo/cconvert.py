"""Assignability and conversion: whether a value fits a type (overflow, truncation) and the code that converts it."""

from __future__ import annotations

import math
from fractions import Fraction

from . import types as T
from .cexpr import _FLOAT_OVERFLOW, const_str, describe, int_range
from .scope import Op


class ConvertMixin:
    # ---- constants ----
    def const_code(self, v, t) -> str:
        u = t.u if t is not None else None
        if isinstance(v, bool):
            return "True" if v else "False"
        if isinstance(v, str):
            return repr(v)
        if u is not None and isinstance(u, T.Basic) and u.kind == "float":
            if u.size == 32 and not isinstance(v, float):  # rounded once from the exact value
                from .goatof import round_to_float32
                f = round_to_float32(Fraction(v))
            elif u.size == 32:
                from .goftoa import f32 as _f32
                f = _f32(v)
            else:
                f = float(v)
            return repr(f) if f == f and f not in (math.inf, -math.inf) else f"float('{f}')"
        if u is not None and isinstance(u, T.Basic) and u.kind == "complex":
            return repr(complex(v))
        if isinstance(v, complex):
            return repr(v)
        if isinstance(v, Fraction):
            if v.denominator == 1:
                return str(v.numerator)
            return repr(float(v))
        return repr(v)

    def represent(self, op: Op, t, node, context="assignment") -> object:
        """Check that constant op fits type t (Go's overflow and truncation errors); returns the value."""
        v = op.const
        u = t.u
        if isinstance(u, T.Basic):
            if u.kind == "int":
                if op.type.untyped and T.is_float(op.type) and isinstance(v, (int, Fraction)):
                    lo, hi = int_range(t) if not u.untyped else (-(1 << 200), 1 << 200)
                    if not (Fraction(v).denominator == 1 and lo <= v <= hi):
                        # Go: an untyped float constant that does not fit an integer type is "truncated"
                        self.err(node, f"cannot use {describe(op, self)} as {t} value in {context} (truncated)")
                if isinstance(v, Fraction):
                    if v.denominator != 1:
                        self.err(node, f"cannot use {describe(op, self)} as {t} value in {context} (truncated)")
                    v = int(v)
                if isinstance(v, (bool, str)):
                    return None
                lo, hi = int_range(t) if not u.untyped else (-(1 << 200), 1 << 200)
                if not lo <= v <= hi:
                    if op.type.untyped:
                        self.err(node, f"cannot use {describe(op, self)} as {t} value in {context} (overflows)")
                    self.err(node, f"constant {v} overflows {t}")
                return v
            if u.kind == "float":
                if isinstance(v, (bool, str)):
                    return None
                if not isinstance(v, float) and not u.untyped and abs(Fraction(v)) >= _FLOAT_OVERFLOW[u.size]:
                    if op.type.untyped:
                        self.err(node, f"cannot use {describe(op, self)} as {t} value in {context} (overflows)")
                    self.err(node, f"constant {self.text(node)} overflows {t}")
                if isinstance(v, float) or u.untyped:
                    return v if isinstance(v, float) else Fraction(v)
                # a typed float constant holds its type's nearest value, rounded once from the exact one
                from .goatof import round_to_float32
                return Fraction(round_to_float32(Fraction(v)) if u.size == 32 else float(Fraction(v)))
            if u.kind == "complex":
                return v
            if u.kind == "string" and isinstance(v, str):
                return v
            if u.kind == "bool" and isinstance(v, bool):
                return v
            return None
        return v

    # ---- assignability and conversion ----
    def assignable(self, op: Op, t) -> bool:
        vt = op.type
        if op.kind == "nil":
            return isinstance(t.u, (T.Pointer, T.Slice, T.Map, T.Chan, T.Func, T.Interface))
        if vt is t or T.identical(vt, t):
            return True
        if isinstance(t.u, T.Interface) and not isinstance(t, T.TypeParam):
            return self.implements(vt, t) is None
        if T.is_untyped(vt):
            if op.const is None:
                return T.is_bool(t) and T.is_bool(vt) or (T.is_numeric(t) and T.is_numeric(vt))
            return self.represent_ok(op, t)
        if (not isinstance(vt, T.Named) or not isinstance(t, T.Named)) and T.identical(vt.u, t.u) \
                and not isinstance(vt, T.TypeParam) and not isinstance(t, T.TypeParam):
            return isinstance(vt.u, (T.Slice, T.Map, T.Pointer, T.Func, T.Chan, T.Struct, T.Array)) or \
                isinstance(vt, T.Basic) and isinstance(t, T.Basic)
        if isinstance(vt.u, T.Chan) and isinstance(t.u, T.Chan) and vt.u.dir == "both" and vt.u.elem == t.u.elem:
            return True
        return False

    def represent_ok(self, op, t) -> bool:
        u = t.u
        if isinstance(u, T.Interface):
            return True
        if not isinstance(u, T.Basic):
            return False
        v = op.const
        if u.kind == "bool":
            return isinstance(v, bool)
        if u.kind == "string":
            return isinstance(v, str)
        if isinstance(v, (bool, str)):
            return False
        if u.kind == "int":
            if isinstance(v, Fraction) and v.denominator != 1:
                return False
            if isinstance(v, float):
                return False
            return True
        return u.kind in ("float", "complex")

    def implements(self, vt, it) -> str | None:
        """None if type vt implements interface it, else the name of a missing method."""
        want = it.u.all_methods()
        if isinstance(vt.u, T.Interface) and not isinstance(vt, T.TypeParam):
            have = vt.u.all_methods()
            for m in want:
                if m not in have:
                    return m
            return None
        for m in want:
            if self.method_set_has(vt, m) is None:
                return m
        return None

    def method_set_has(self, t, name):
        """The method `name` in the method set of t (value or pointer), or None."""
        found = self.find_method(t, name)
        if found is None:
            return None
        meth, path, ptr_ok = found
        if meth.ptr and not ptr_ok:
            return None
        return found

    def convert(self, op: Op, t, node, context="assignment") -> str:
        """Code for op's value as type t, after checking assignability."""
        self._context = context
        if op.kind in ("type", "pkg", "builtin", "void"):
            self.err(node, f"{self.text(node)} (no value) used as value" if op.kind == "void"
                     else f"{self.text(node)} (type) is not an expression" if op.kind == "type"
                     else f"{self.text(node)} is not an expression")
        if isinstance(op.type, T.Tuple):
            self.err(node, f"multiple-value {self.text(node)} (value of type {op.type}) in single-value context")
        if op.const is not None and T.is_untyped(op.type) and isinstance(t.u, T.Basic) and \
                T.is_numeric(op.type) and T.is_numeric(t):
            self.represent(op, t, node, context)
        if not self.assignable(op, t):
            if op.kind == "nil":
                self.err(node, f"cannot use nil as {t} value in {context}")
            if isinstance(t.u, T.Interface):
                missing = self.implements(T.default_type(op.type), t)
                extra = ""
                if missing is not None:
                    f = self.find_method(T.default_type(op.type), missing)
                    if f is not None and f[0].ptr:
                        extra = f" ({missing} method has pointer receiver)"
                    else:
                        extra = f" (missing method {missing})"
                shown, vt = describe(op, self), op.type
                if op.const is not None and T.is_untyped(op.type):  # Go first gives it its default type
                    vt = T.default_type(op.type)
                    txt, cv = self.short(op.node), const_str(op.const)
                    shown = f"{txt} (constant of type {vt})" if txt == cv else f"{txt} (constant {cv} of type {vt})"
                self.err(node, f"cannot use {shown} as type {t} in {context}:\n"
                         f"\t{vt} does not implement {t}{extra}")
            if op.const is not None and T.is_untyped(op.type):
                self.err(node, f"cannot use {describe(op, self)} as {t} value in {context}")
            self.err(node, f"cannot use {describe(op, self)} as type {t} in {context}")
        return self.coerce(op, t)

    def coerce(self, op: Op, t) -> str:
        if op.kind == "nil":
            return self.zero_code(t) if isinstance(t.u, (T.Slice, T.Map)) else "None"
        if isinstance(t.u, T.Interface) and not isinstance(t, T.TypeParam):
            vt = op.type
            if isinstance(vt.u, T.Interface) and not isinstance(vt, T.TypeParam):
                return op.code
            if T.is_untyped(vt):
                vt = T.default_type(vt)
                if op.const is not None and op.node is not None and T.is_numeric(vt):
                    self.represent(op, vt, op.node, getattr(self, "_context", "assignment"))
                code = self.const_code(op.const, vt) if op.const is not None else op.code
                return f"_Iface({self.tref(vt)}, {code})"
            if isinstance(vt, T.TypeParam):
                return f"_Iface({self.tref(vt)}, {op.code})"
            if op.const is not None:
                return f"_Iface({self.tref(vt)}, {self.const_code(op.const, vt)})"
            return f"_Iface({self.tref(vt)}, {self.copy_code(op.code, vt, op.addr)})"
        if op.const is not None:
            return self.const_code(op.const, t)
        return self.copy_code(op.code, t, op.addr)

    def value(self, node, t=None, context="assignment") -> str:
        op = self.expr(node, t)
        if t is None:
            if op.kind != "value" and op.kind != "nil":
                self.convert(op, T.ANY, node, context)
            if op.kind == "nil":
                self.err(node, "use of untyped nil in " + context)
            if isinstance(op.type, T.Tuple):
                self.err(node, f"multiple-value {self.text(node)} (value of type {op.type}) in single-value context")
            if op.const is not None:
                return self.const_code(op.const, T.default_type(op.type))
            return self.copy_code(op.code, op.type, op.addr)
        return self.convert(op, t, node, context)

    def cond(self, node, what="if statement") -> str:
        op = self.expr(node)
        if not T.is_bool(op.type):
            self.err(node, f"non-boolean condition in {what}")
        if op.const is not None:
            return "True" if op.const else "False"
        return op.code
