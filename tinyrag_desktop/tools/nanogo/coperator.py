"""Operators: unary, binary and shift expressions, checked, folded when constant, else code with Go's wrap-around."""

from __future__ import annotations

import math
from fractions import Fraction

from . import types as T
from .cexpr import describe, int_range
from .errors import CompileError
from .scope import Op

_CMP = {"==", "!=", "<", "<=", ">", ">="}


class OperatorMixin:
    def x_unary_expression(self, node):
        opn = node.child_by_field_name("operator")
        o = self.text(opn)
        operand = node.child_by_field_name("operand")
        if o == "&":
            return self.address_of(operand, node)
        if o == "<-":
            x = self.expr(operand)
            if not isinstance(x.type.u, T.Chan):
                self.err(node, f"invalid operation: cannot receive from non-channel {describe(x, self)}")
            return Op(f"_chan_recv({x.code})", x.type.u.elem)
        if o == "*":
            x = self.expr(operand)
            if x.kind == "type":
                return Op(None, T.pointer_to(x.type), kind="type")
            if not isinstance(x.type.u, T.Pointer):
                self.err(node, f"invalid operation: cannot indirect {describe(x, self)}")
            et = x.type.u.elem
            if isinstance(et.u, (T.Struct, T.Array)):
                return Op(f"_nn({x.code})", et, addr=True)
            return Op(f"{x.code}.v", et, addr=True)
        x = self.expr(operand)
        t = x.type
        if x.const is not None:
            v = x.const
            if o == "-":
                if not T.is_numeric(t):
                    self.err(node, f"invalid operation: operator - not defined on {describe(x, self)}")
                return Op(None, t, self.fold_check(-v, t, node))
            if o == "+":
                return Op(None, t, v)
            if o == "!":
                if not T.is_bool(t):
                    self.err(node, f"invalid operation: operator ! not defined on {describe(x, self)}")
                return Op(None, t, not v)
            if o == "^":
                if T.is_untyped(t) or t.u.signed:
                    return Op(None, t, ~v)
                return Op(None, t, v ^ ((1 << t.u.size) - 1))
        if o == "-":
            if not T.is_numeric(t):
                self.err(node, f"invalid operation: operator - not defined on {describe(x, self)}")
            return Op(self.wrap_int(f"(-{x.code})", t), t)
        if o == "+":
            return Op(x.code, t)
        if o == "!":
            if not T.is_bool(t):
                self.err(node, f"invalid operation: operator ! not defined on {describe(x, self)}")
            return Op(f"(not {x.code})", t)
        if o == "^":
            if not T.is_integer(t):
                self.err(node, f"invalid operation: operator ^ not defined on {describe(x, self)}")
            if t.u.signed:
                return Op(f"(~{x.code})", t)
            return Op(f"({x.code} ^ {(1 << t.u.size) - 1})", t)
        self.err(node, f"unsupported unary operator {o}")

    def fold_check(self, v, t, node):
        if not T.is_untyped(t) and T.is_integer(t):
            lo, hi = int_range(t)
            if not lo <= v <= hi:
                self.err(node, f"{self.short(node)} (constant {v} of type {t}) overflows {t}")
        return v

    def wrap_int(self, code: str, t) -> str:
        u = t.u
        if not (isinstance(u, T.Basic) and u.kind == "int"):
            if isinstance(u, T.Basic) and u.kind == "float" and u.size == 32:
                return f"_f32({code})"
            return code
        if u.size == 64 and u.signed:
            return f"(_t if -9223372036854775808 <= (_t := {code}) <= 9223372036854775807 else _w64(_t))"
        if not u.signed:
            return f"({code} & {(1 << u.size) - 1})"
        return f"_wrap({code}, {u.size}, True)"

    def x_binary_expression(self, node):
        o = self.text(node.child_by_field_name("operator"))
        ln, rn = node.child_by_field_name("left"), node.child_by_field_name("right")
        try:
            a = self.expr(ln)
        except CompileError as e:  # `a + b` with neither declared: Go says both
            self.check_rest([rn], e)
            raise
        b = self.expr(rn)
        if o in ("&&", "||"):
            for x in (a, b):
                if not T.is_bool(x.type):
                    self.err(node, f"invalid operation: operator {o} not defined on {describe(x, self)}")
            t = a.type if not T.is_untyped(a.type) else b.type
            if a.const is not None and b.const is not None:
                return Op(None, t, (a.const and b.const) if o == "&&" else (a.const or b.const))
            py = "and" if o == "&&" else "or"
            return Op(f"({self.bool_code(a)} {py} {self.bool_code(b)})", t)
        if o in ("<<", ">>"):
            return self.shift(o, a, b, node)
        for x in (a, b):
            if x.kind not in ("value", "nil"):
                self.err(x.node, f"{self.text(x.node)} (type) is not an expression" if x.kind == "type"
                         else f"{self.text(x.node)} is not an expression")
            if isinstance(x.type, T.Tuple):
                self.err(x.node, f"multiple-value {self.text(x.node)} (value of type {x.type}) in single-value context")
        # the operands' common type
        ta, tb = a.type, b.type
        if a.kind == "nil" or b.kind == "nil":
            other = b if a.kind == "nil" else a
            if o not in ("==", "!="):
                self.err(node, f"invalid operation: operator {o} not defined on nil")
            if other.kind == "nil":
                self.err(node, f"invalid operation: {self.text(node)} (operator {o} not defined on nil)")
            if not isinstance(other.type.u, (T.Pointer, T.Slice, T.Map, T.Chan, T.Func, T.Interface)):
                a_, b_ = (other.type, "untyped nil") if b.kind == "nil" else ("untyped nil", other.type)
                self.err(rn, f"invalid operation: {self.text(node)} (mismatched types {a_} and {b_})")
            u = other.type.u
            if isinstance(u, T.Slice):
                test = f"({other.code}.a is None)"
            elif isinstance(u, T.Map):
                test = f"(type({other.code}) is _NilMap)"
            else:
                test = f"({other.code} is None)"
            return Op(test if o == "==" else f"(not {test})", T.U_BOOL)
        if T.is_untyped(ta) and not T.is_untyped(tb):
            t = tb
            self.check_const_operand(a, t, node, o, b)
        elif T.is_untyped(tb) and not T.is_untyped(ta):
            t = ta
            self.check_const_operand(b, t, node, o, a)
        elif T.is_untyped(ta) and T.is_untyped(tb):
            t = self.untyped_join(ta, tb, node, o, a, b)
        else:
            if not T.identical(ta, tb):
                if o in ("==", "!=") and (isinstance(ta.u, T.Interface) and self.assignable(b, ta) or
                                          isinstance(tb.u, T.Interface) and self.assignable(a, tb)):
                    ia = self.coerce(a, T.ANY)
                    ib = self.coerce(b, T.ANY)
                    return Op(f"({ia} {o} {ib})", T.U_BOOL)
                self.err(rn if o in _CMP else ln,
                         f"invalid operation: {self.text(node)} (mismatched types {ta} and {tb})")
            t = ta
        if a.const is not None and b.const is not None:
            return self.fold(o, a, b, t, node)
        return self.binop(o, a, b, t, node)

    def check_const_operand(self, c: Op, t, node, o, other):
        if c.const is None:
            if T.is_untyped(c.type) and T.is_bool(c.type) and T.is_bool(t):
                return
            if T.is_untyped(c.type) and T.is_numeric(t):
                return
            return
        if isinstance(t.u, T.Interface):
            return
        if not self.represent_ok(c, t):
            if T.is_numeric(t) and not isinstance(c.const, (str, bool)):
                self.err(c.node, f"{self.text(c.node)} (untyped {'float' if isinstance(c.const, Fraction) else 'int'} constant) truncated to {t}"
                         if isinstance(c.const, Fraction) and T.is_integer(t) else
                         f"cannot use {describe(c, self)} as {t} value in {'assignment'}")
            a, b = (c, other) if c.node.start_byte < other.node.start_byte else (other, c)
            self.err(node.child_by_field_name("left"),
                     f"invalid operation: {self.text(node)} (mismatched types {a.type} and {b.type})")
        self.represent(c, t, c.node)

    def untyped_join(self, ta, tb, node, o, a, b):
        order = [T.U_INT, T.U_RUNE, T.U_FLOAT]
        if ta in order and tb in order:
            return order[max(order.index(ta), order.index(tb))]
        if ta is tb:
            return ta
        if T.is_bool(ta) and T.is_bool(tb):
            return T.U_BOOL
        self.err(node.child_by_field_name("left"),
                 f"invalid operation: {self.text(node)} (mismatched types {ta} and {tb})")

    def bool_code(self, x: Op) -> str:
        if x.const is not None:
            return "True" if x.const else "False"
        return x.code

    def fold(self, o, a, b, t, node):
        x, y = a.const, b.const
        if o in _CMP:
            r = {"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[o]
            return Op(None, T.U_BOOL, r)
        if isinstance(x, str):
            if o != "+":
                self.err(node, f"invalid operation: operator {o} not defined on {describe(a, self)}")
            return Op(None, t, x + y)
        integer = T.is_integer(t)
        if o in ("/", "%") and y == 0:
            self.err(node.child_by_field_name("right"), "invalid operation: division by zero")
        if o == "+":
            v = x + y
        elif o == "-":
            v = x - y
        elif o == "*":
            v = x * y
        elif o == "/":
            if integer:
                x, y = int(x), int(y)
                v = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
            else:
                v = Fraction(x) / Fraction(y)
        elif o == "%":
            if not integer:
                self.err(node, f"invalid operation: operator % not defined on {describe(a, self)}")
            v = int(math.fmod(x, y)) if abs(x) < 2**52 and abs(y) < 2**52 else x - y * int(Fraction(x, y))
        elif o in ("&", "|", "^", "&^"):
            x, y = int(x), int(y)
            v = {"&": x & y, "|": x | y, "^": x ^ y, "&^": x & ~y}[o]
        else:
            self.err(node, f"unsupported operator {o}")
        if integer and isinstance(v, Fraction) and v.denominator == 1:
            v = int(v)
        if T.is_float(t) and not T.is_untyped(t):
            v = Fraction(float(v)) if not isinstance(v, complex) else v
        return Op(None, t, self.fold_check(v, t, node))

    def operand_code(self, x: Op, t) -> str:
        if x.const is not None:
            return self.const_code(x.const, t)
        return x.code

    def binop(self, o, a, b, t, node):
        u = t.u
        if T.is_untyped(t):
            t = T.default_type(t)
            u = t.u
        ac, bc = self.operand_code(a, t), self.operand_code(b, t)
        if o in _CMP:
            if o in ("==", "!="):
                if not t.comparable and not (isinstance(u, (T.Slice, T.Map, T.Func))):
                    self.err(node, f"invalid operation: {self.text(node)} (incomparable types in type set)")
                if isinstance(u, (T.Slice, T.Map, T.Func)):
                    kind = "slice" if isinstance(u, T.Slice) else "map" if isinstance(u, T.Map) else "func"
                    self.err(node, f"invalid operation: {self.short(node)} ({kind} can only be compared to nil)")
                if isinstance(u, (T.Pointer, T.Chan)):
                    return Op(f"({ac} {'is' if o == '==' else 'is not'} {bc})", T.U_BOOL)
                if isinstance(u, T.Array):
                    return Op(f"({ac} {o} {bc})", T.U_BOOL)
                return Op(f"({ac} {o} {bc})", T.U_BOOL)
            if not (isinstance(u, T.Basic) and u.kind in ("int", "float", "string")):
                kinds = ((T.Struct, "struct"), (T.Array, "array"), (T.Slice, "slice"), (T.Map, "map"),
                         (T.Pointer, "pointer"), (T.Chan, "chan"), (T.Func, "func"), (T.Interface, "interface"))
                what = next((k for cls, k in kinds if isinstance(u, cls)), str(t))
                self.err(node, f"invalid operation: {self.short(node)} (operator {o} not defined on {what})")
            if u.kind == "string":  # Go orders strings by bytes
                return Op(f"(_scmp({ac}, {bc}) {o} 0)", T.U_BOOL)
            return Op(f"({ac} {o} {bc})", T.U_BOOL)
        if not isinstance(u, T.Basic) or u.kind in ("bool",) or (u.kind == "string" and o != "+"):
            self.err(node, f"invalid operation: operator {o} not defined on {describe(a, self)}")
        kind = u.kind
        if o in ("%", "&", "|", "^", "&^") and kind != "int":
            self.err(node, f"invalid operation: operator {o} not defined on {describe(a, self)}")
        if kind == "string":
            return Op(f"({ac} + {bc})", t)
        if o == "/":
            if kind == "int":
                if b.const is not None and b.const == 0:
                    self.err(node.child_by_field_name("right"), "invalid operation: division by zero")
                if not u.signed:
                    if b.const is not None:
                        return Op(f"({ac} // {bc})", t)
                    return Op(f"_idiv({ac}, {bc})", t)
                return Op(self.wrap_int(f"_idiv({ac}, {bc})", t), t)
            if kind == "float":
                if b.const is not None and b.const != 0:
                    return Op(self.wrap_int(f"({ac} / {bc})", t), t)
                return Op(self.wrap_int(f"_fdiv({ac}, {bc})", t), t)
            return Op(f"_cdiv({ac}, {bc})", t)
        if o == "%":
            if b.const is not None and b.const == 0:
                self.err(node.child_by_field_name("right"), "invalid operation: division by zero")
            if not u.signed:
                if b.const is not None:
                    return Op(f"({ac} % {bc})", t)
            return Op(f"_imod({ac}, {bc})", t)
        if o in ("&", "|", "^"):
            return Op(f"({ac} {o} {bc})", t)
        if o == "&^":
            return Op(f"({ac} & ~{bc})", t)
        code = f"({ac} {o} {bc})"
        if kind == "int":
            return Op(self.wrap_int(code, t), t)
        return Op(self.wrap_int(code, t), t)

    def shift(self, o, a, b, node):
        if b.const is not None and not isinstance(b.const, (str, bool)) and b.const < 0:
            self.err(b.node, f"invalid operation: negative shift count {describe(b, self)}")
        if not T.is_integer(b.type) and not (b.const is not None and self.represent_ok(b, T.UINT)):
            self.err(node, f"invalid operation: shift count {describe(b, self)} must be integer")
        if a.const is not None and b.const is not None:
            x, y = a.const, int(b.const)
            if isinstance(x, Fraction):
                if x.denominator != 1:
                    self.err(node, f"invalid operation: shifted operand {describe(a, self)} must be integer")
                x = int(x)
            t = a.type if a.type is not T.U_FLOAT else T.U_INT
            v = x << y if o == "<<" else x >> y
            return Op(None, t, self.fold_check(v, t, node))
        t = a.type
        if T.is_untyped(t):
            t = T.INT
        if not T.is_integer(t):
            self.err(node, f"invalid operation: shift of type {t}")
        ac = self.operand_code(a, t)
        bc = self.operand_code(b, T.UINT)
        if o == "<<":
            if b.const is not None and b.const < t.u.size:
                return Op(self.wrap_int(f"({ac} << {bc})", t), t)
            return Op(f"_shl({ac}, {bc}, {t.u.size}, {t.u.signed})", t)
        if b.const is not None:
            return Op(f"({ac} >> {min(int(b.const), 64)})", t)
        return Op(f"_shr({ac}, {bc})", t)
