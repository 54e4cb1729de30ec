"""Expressions: type checking, constant folding and Python code for each Go expression."""

from __future__ import annotations

import math
from fractions import Fraction

from . import types as T
from .errors import CompileError
from .goapi import undefined
from .scope import Op, Var

_INT_LIMITS = {}


def int_range(t) -> tuple[int, int]:
    u = t.u
    if u.signed:
        return -(1 << (u.size - 1)), (1 << (u.size - 1)) - 1
    return 0, (1 << u.size) - 1


def describe(op: Op, c, as_int: bool = False) -> str:
    """Go's operand description in messages: `x (variable of type int)`, `5 (untyped int constant)`.

    A float constant shows as go/constant prints floats (1e+39), unless a conversion to an integer type
    has already made it an integer (as_int: `int64(1e19)` shows 10000000000000000000)."""
    txt = c.short(op.node) if op.node is not None else op.code
    if op.const is not None:
        as_float = T.is_float(op.type) and not as_int and not isinstance(op.const, (bool, str))
        cv = float_const_str(op.const) if as_float else const_str(op.const)
        if not T.is_untyped(op.type):
            return f"{txt} (constant {cv} of type {op.type})"
        if cv == txt:
            return f"{txt} ({op.type} constant)"
        return f"{txt} ({op.type} constant {cv})"
    if op.kind == "nil":
        return "nil"
    what = "variable" if (op.addr and op.obj is not None) else "value"
    return f"{txt} ({what} of type {op.type})"


def const_str(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        from .gofmt import quote
        return quote(v)
    if isinstance(v, Fraction):
        if v and (abs(v) >= _HUGE or v.denominator != 1 and abs(v) >= _FLOAT_OVERFLOW[64]):
            return _approximate(v)
        if v.denominator == 1:
            return str(v.numerator)
        from .gofmt import format_float
        return format_float(float(v), "g", -1)
    return str(v)


def float_const_str(v) -> str:
    """go/constant's String() of a float constant in Go 1.19: %.6g (1e+39, 0.333333, 1000)."""
    v = Fraction(v)
    if v and (abs(v) >= _FLOAT_OVERFLOW[64] or float(v) == 0):
        return _approximate(v)
    from .goftoa import format_float
    return format_float(float(v), "g", 6)


_HUGE = Fraction(2 ** 4096)  # go/constant keeps larger values as floats, and prints them approximately


def _approximate(v: Fraction) -> str:
    """go/constant's String() of a value beyond float64: 6 significant digits, like 1.1e+21006."""
    a = abs(v)
    e = math.floor((a.numerator.bit_length() - a.denominator.bit_length()) * math.log10(2))
    m = float(a / Fraction(10) ** e)
    while m >= 10:
        m, e = m / 10, e + 1
    while m < 1 - 0.5e-6:
        m, e = m * 10, e - 1
    from .gofmt import format_float
    return f"{'-' if v < 0 else ''}{format_float(m, 'g', 6)}e{e:+d}"


_BINOPS = {"+", "-", "*", "/", "%", "&", "|", "^", "&^", "<<", ">>", "==", "!=", "<", "<=", ">", ">=", "&&", "||"}
_CMP = {"==", "!=", "<", "<=", ">", ">="}
# Expressions and statements whose operand must have a value: `-f()`, `f()[1:]` where f returns nothing.
_OPERAND_OF = {"unary_expression", "binary_expression", "slice_expression", "index_expression",
               "selector_expression", "type_assertion_expression", "inc_statement", "dec_statement",
               "send_statement", "range_clause", "expression_switch_statement", "type_switch_statement"}


def _parent_past_parens(node):
    parent = node.parent
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    return parent if parent is not None else node


# Where a name that denotes no value may stand: (parent node type, the parent's field it fills).
_ONLY_IN = {
    "pkg": (("selector_expression", "operand"),),
    "builtin": (("call_expression", "function"),),
    "generic": (("call_expression", "function"), ("index_expression", "operand"), ("generic_type", "type"),
                ("type_instantiation_expression", "type")),
}


# The smallest magnitudes that round to infinity: MaxFloat + half an ulp.
_FLOAT_OVERFLOW = {64: Fraction(2 ** 1024 - 2 ** 970), 32: Fraction(2 ** 128 - 2 ** 103)}


class ExprMixin:
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

    # ---- expressions ----
    def expr(self, node, hint=None) -> Op:
        k = node.type
        m = getattr(self, "x_" + k, None)
        if m is None:
            self.err(node, f"unsupported expression: {k}")
        op = m(node, hint) if k in ("composite_literal", "func_literal", "literal_value") else m(node)
        if op.type is None and op.kind in _ONLY_IN:
            self._check_only_in(node, op)
        elif op.kind == "void" and _parent_past_parens(node).type in _OPERAND_OF:
            self.err(node, f"{self.short(node)} (no value) used as value")
        op.node = node
        return op

    def _check_only_in(self, node, op) -> None:
        """A package, a built-in or a generic function is no value: `fmt.(x)`, `len[1]`, `f := Map`."""
        child, parent = node, node.parent
        while parent is not None and parent.type == "parenthesized_expression":
            child, parent = parent, parent.parent
        for parent_type, field in _ONLY_IN[op.kind]:
            if parent is not None and parent.type == parent_type:
                f = parent.child_by_field_name(field)
                if f is not None and f.id == child.id:
                    return
        name = op.obj.name
        if op.kind == "pkg":
            self.err(node, f"use of package {name} not in selector")
        if op.kind == "builtin":
            self.err(node, f"{name} (built-in function {name}) must be called")
        self.err(node, f"cannot use generic function {name} without instantiation")

    def x_parenthesized_expression(self, node):
        op = self.expr(node.named_children[0])
        if op.code is not None and op.kind == "value":
            op = Op(f"({op.code})", op.type, op.const, op.addr, op.kind, op.obj)
        return op

    def x_int_literal(self, node):
        txt = self.text(node).replace("_", "")
        if len(txt) > 1 and txt[0] == "0" and txt[1] in "0123456789":
            v = int(txt, 8)
        else:
            v = int(txt, 0)
        return Op(None, T.U_INT, v)

    def x_float_literal(self, node):
        txt = self.text(node).replace("_", "")
        if txt.lower().startswith("0x"):
            return Op(None, T.U_FLOAT, Fraction(float.fromhex(txt)))
        return Op(None, T.U_FLOAT, Fraction(txt))

    def x_imaginary_literal(self, node):
        txt = self.text(node).replace("_", "")[:-1]
        return Op(None, T.COMPLEX128, complex(0, float(txt)))

    def x_rune_literal(self, node):
        from .lexutil import EscapeError, unquote_rune
        try:
            return Op(None, T.U_RUNE, unquote_rune(self.text(node)))
        except EscapeError as e:
            self._escape_error(node, e)

    def x_interpreted_string_literal(self, node):
        from .lexutil import EscapeError, unquote
        try:
            return Op(None, T.U_STRING, unquote(self.text(node)))
        except EscapeError as e:
            self._escape_error(node, e)

    def _escape_error(self, node, e) -> None:
        row, col = self.src.pos(node)
        err = CompileError(row, col + 1 + e.offset, str(e))
        err.order = (node.start_point[0], node.start_point[1] + 1 + e.offset)
        raise err

    def x_raw_string_literal(self, node):
        return Op(None, T.U_STRING, self.text(node)[1:-1].replace("\r", ""))

    def x_true(self, node):
        return Op(None, T.U_BOOL, True)

    def x_false(self, node):
        return Op(None, T.U_BOOL, False)

    def x_nil(self, node):
        return Op("None", T.U_NIL, None, kind="nil")

    def x_iota(self, node):
        if self.iota is None:
            self.err(node, "cannot use iota outside constant declaration")
        return Op(None, T.U_INT, self.iota)

    def x_identifier(self, node):
        name = self.text(node)
        if name == "_":
            self.err(node, "cannot use _ as value")
        o = self.scope.lookup(name)
        if o is None:
            self.err(node, undefined(name))
        k = o.kind
        if k == "var":
            o.used = True
            if o.boxed:
                return Op(f"{o.py}.v", o.type, addr=True, obj=o)
            return Op(o.py, o.type, addr=True, obj=o)
        if k == "const":
            if name == "iota" and self.iota is not None:
                return Op(None, T.U_INT, self.iota)
            return Op(None, o.type, o.value)
        if k == "func":
            if o.generic is not None:
                return Op(None, None, kind="generic", obj=o)
            return Op(o.py, o.type, obj=o)
        if k == "type":
            return Op(None, o.type, kind="type", obj=o)
        if k == "nil":
            return Op("None", T.U_NIL, kind="nil")
        if k == "pkg":
            return Op(None, None, kind="pkg", obj=o)
        if k == "builtin":
            return Op(None, None, kind="builtin", obj=o)
        self.err(node, f"undefined: {name}")

    x_field_identifier = x_identifier
    x_type_identifier = x_identifier

    def x_func_literal(self, node, hint=None):
        from .cfunc import compile_func_literal
        return compile_func_literal(self, node)

    # ---- unary / binary ----
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

    def short(self, node) -> str:
        """An expression as Go's messages show it: composite literals and function bodies elided."""
        if node is None:
            return ""
        k = node.type
        if k == "composite_literal":
            body = node.child_by_field_name("body")
            empty = body is not None and not body.named_children
            return self.text(node.child_by_field_name("type")) + ("{}" if empty else "{…}")
        if k == "func_literal":
            head = self.text(node)
            return head[:head.index("{")].rstrip() + " {…}" if "{" in head else head
        if k == "binary_expression":
            return (f"{self.short(node.child_by_field_name('left'))} {self.text(node.child_by_field_name('operator'))} "
                    f"{self.short(node.child_by_field_name('right'))}")
        if k == "call_expression":
            args = node.child_by_field_name("arguments")
            parts = [self.short(a) for a in args.named_children if a.type != "comment"]
            dots = "..." if any(c.type == "..." for c in args.children) else ""
            return f"{self.short(node.child_by_field_name('function'))}({', '.join(parts)}{dots})"
        if k == "keyed_element":
            kids = node.named_children
            return f"{self.short(kids[0])}: {self.short(kids[1])}"
        if node.child_count == 0 or k in ("interpreted_string_literal", "raw_string_literal", "rune_literal"):
            return self.text(node)
        out, last = [], node.start_byte
        for ch in node.children:
            out.append(self.src.data[last:ch.start_byte].decode("utf-8", "replace"))
            out.append(self.short(ch))
            last = ch.end_byte
        out.append(self.src.data[last:node.end_byte].decode("utf-8", "replace"))
        return "".join(out)

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
        if o in ("&&", "||"):
            a, b = self.expr(ln), self.expr(rn)
            for x in (a, b):
                if not T.is_bool(x.type):
                    self.err(node, f"invalid operation: operator {o} not defined on {describe(x, self)}")
            t = a.type if not T.is_untyped(a.type) else b.type
            if a.const is not None and b.const is not None:
                return Op(None, t, (a.const and b.const) if o == "&&" else (a.const or b.const))
            py = "and" if o == "&&" else "or"
            return Op(f"({self.bool_code(a)} {py} {self.bool_code(b)})", t)
        a, b = self.expr(ln), self.expr(rn)
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

    # ---- address-of ----
    def address_of(self, operand, node):
        if operand.type == "parenthesized_expression":
            operand = operand.named_children[0]
        if operand.type == "composite_literal":
            x = self.expr(operand)
            t = x.type
            if isinstance(t.u, (T.Struct, T.Array)):
                return Op(x.code, T.pointer_to(t))
            return Op(f"_Box({x.code})", T.pointer_to(t))
        x = self.expr(operand)
        if not x.addr:
            self.err(node, f"invalid operation: cannot take address of {describe(x, self)}")
        t = x.type
        if isinstance(t.u, (T.Struct, T.Array)):
            return Op(x.code, T.pointer_to(t))
        if x.obj is not None and isinstance(x.obj, Var):
            v = x.obj
            if not v.boxed:
                self.err(node, f"internal: cannot take address of {v.name}")
            return Op(v.py, T.pointer_to(t))
        code = x.code
        if operand.type == "index_expression":
            base = self.expr(operand.child_by_field_name("operand"))
            idx = self.value(operand.child_by_field_name("index"), T.INT)
            bu = base.type.u
            if isinstance(bu, T.Pointer):
                bu = bu.elem.u
            if isinstance(bu, T.Slice):
                return Op(f"_elem_ptr_s({base.code}, {idx})", T.pointer_to(t))
            return Op(f"_ElemPtr({base.code}, {idx})", T.pointer_to(t))
        if operand.type == "selector_expression" and "." in code:
            obj, attr = code.rsplit(".", 1)
            return Op(f"_FieldPtr({obj}, {attr!r})", T.pointer_to(t))
        if code.endswith(".v"):
            return Op(code[:-2], T.pointer_to(t))
        self.err(node, f"cannot take address of {self.text(operand)}")
