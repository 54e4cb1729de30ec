"""Expressions: dispatch on the kind of Go expression, literals, names, address-of, operands as messages show them."""

from __future__ import annotations

import math
from fractions import Fraction

from . import types as T
from .errors import CompileError, FollowOn
from .goapi import undefined
from .scope import Op, Var


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
        from .fmtverbs import quote
        return quote(v)
    if isinstance(v, Fraction):
        if v and (abs(v) >= _HUGE or v.denominator != 1 and abs(v) >= _FLOAT_OVERFLOW[64]):
            return _approximate(v)
        if v.denominator == 1:
            return str(v.numerator)
        from .goftoa import format_float
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
    from .goftoa import format_float
    return f"{'-' if v < 0 else ''}{format_float(m, 'g', 6)}e{e:+d}"


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

    def check_rest(self, nodes, error: CompileError) -> None:
        """As Go's checker does, the operands after an error (a call's arguments, a binary operator's
        right side) are checked too; their errors are recorded, as the caller raises the first one."""
        at = getattr(error, "order", None)
        for n in nodes if at is not None else ():
            if n.type == "variadic_argument":
                n = n.named_children[0]
            if n.type == "comment" or n.type.endswith("_type") or tuple(n.start_point) <= at:
                continue
            try:
                self.expr(n)
            except CompileError as more:
                if not isinstance(more, FollowOn):
                    self.errors.append(more)

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
        try:
            o = self.scope.lookup(name)
        except FollowOn as e:  # where it is, so that the arguments after it are checked
            e.order = tuple(node.start_point)
            raise
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
