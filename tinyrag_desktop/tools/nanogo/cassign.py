"""Declarations and assignments: var, :=, const and type statements, matching right sides to left, and stores."""

from __future__ import annotations

from . import types as T
from .ccall import simple
from .cexpr import describe
from .scope import Op


class AssignMixin:
    # ---- declarations ----
    def s_var_declaration(self, node):
        for spec in node.named_children:
            if spec.type == "var_spec":
                self.var_spec(spec)
            elif spec.type == "var_spec_list":
                for s in spec.named_children:
                    if s.type == "var_spec":
                        self.var_spec(s)

    def var_spec(self, spec):
        names = [c for i, c in enumerate(spec.children) if spec.field_name_for_child(i) == "name" and c.is_named]
        tnode = spec.child_by_field_name("type")
        vnode = spec.child_by_field_name("value")
        t = self.resolve_type(tnode) if tnode is not None else None
        values = [c for c in vnode.named_children if c.type != "comment"] if vnode is not None else []
        if not values:
            for n in names:
                self.declare_var(self.text(n), t, n, self.zero_code(t))
            return
        codes, types = self.rhs(values, len(names), t, spec, "variable declaration")
        if len(codes) == 1 and len(names) > 1:
            tmp = self.uid("mv")
            self.emit(f"{tmp} = {codes[0]}")
            codes = [f"{tmp}[{i}]" for i in range(len(names))]
        else:
            tmps = []
            for c in codes:
                if len(names) > 1:
                    tmp = self.uid("mv")
                    self.emit(f"{tmp} = {c}")
                    tmps.append(tmp)
                else:
                    tmps.append(c)
            codes = tmps
        for n, c, vt in zip(names, codes, types):
            self.declare_var(self.text(n), t or vt, n, c)

    def rhs(self, values, nlhs, t, node, context, lhs_types=None):
        """Codes and types for the right side of a declaration or assignment of nlhs names."""
        if len(values) == 1 and nlhs > 1:
            v = values[0]
            if v.type == "type_assertion_expression" and nlhs == 2:
                x = self.expr(v.child_by_field_name("operand"))
                at = self.resolve_type(v.child_by_field_name("type"))
                return [self.assert_code(x, at, True)], [at, T.BOOL]
            if v.type == "index_expression" and nlhs == 2:
                m = self.expr(v.child_by_field_name("operand"))
                if isinstance(m.type.u, T.Map):
                    mu = m.type.u
                    k = self.map_key(self.value(v.child_by_field_name("index"), mu.key, "map index"), mu.key)
                    return [f"_mget2({m.code}, {k}, {self.zero_factory(mu.elem)})"], [mu.elem, T.BOOL]
            if v.type == "unary_expression" and self.text(v.child_by_field_name("operator")) == "<-" and nlhs == 2:
                c = self.expr(v.child_by_field_name("operand"))
                if not isinstance(c.type, T.Type) or not isinstance(c.type.u, T.Chan):
                    self.expr(v)  # not a channel: the receive's own error
                return [f"_chan_recv2({c.code})"], [c.type.u.elem, T.BOOL]
            op = self.expr(v)
            if not isinstance(op.type, T.Tuple):
                self.err(node.child_by_field_name("left") or node, f"assignment mismatch: {nlhs} variable{'s' if nlhs > 1 else ''} but 1 value")
            if len(op.type.types) != nlhs:
                self.err(v, f"assignment mismatch: {nlhs} variable{'s' if nlhs > 1 else ''} but "
                         f"{self.text(v.child_by_field_name('function'))} returns {len(op.type.types)} value"
                         f"{'s' if len(op.type.types) > 1 else ''}")
            types = list(op.type.types)
            if lhs_types is not None and any(lt is not None and isinstance(lt.u, T.Interface) and not isinstance(rt.u, T.Interface)
                                             for lt, rt in zip(lhs_types, types)):
                tmp = self.uid("mv")
                self.emit(f"{tmp} = {op.code}")
                codes = [self.coerce(Op(f"{tmp}[{i}]", rt), lt) if lt is not None else f"{tmp}[{i}]"
                         for i, (lt, rt) in enumerate(zip(lhs_types, types))]
                return ["(" + ", ".join(codes) + ",)"], types
            return [op.code], types
        if len(values) != nlhs:
            if len(values) == 1 and nlhs == 1:
                pass
            what = f"{nlhs} variable{'s' if nlhs > 1 else ''} but {len(values)} value{'s' if len(values) > 1 else ''}"
            self.err(node, f"assignment mismatch: {what}" if context != "variable declaration" or True else what)
        codes, types = [], []
        if nlhs == 1 and len(values) == 1 and values[0].type == "call_expression":
            op = self.expr(values[0])
            if isinstance(op.type, T.Tuple):
                fname = self.text(values[0].child_by_field_name("function"))
                self.err(values[0],
                         f"assignment mismatch: 1 variable but {fname} returns {len(op.type.types)} values")
        for i, v in enumerate(values):
            target = t if t is not None else (lhs_types[i] if lhs_types is not None else None)
            op = self.expr(v, target)
            if op.kind == "void":
                self.err(v, f"{self.text(v)} (no value) used as value")
            if target is not None:
                codes.append(self.convert(op, target, v, context))
                types.append(target)
            else:
                if op.kind == "nil":
                    self.err(v, f"use of untyped nil in {context}")
                if isinstance(op.type, T.Tuple):
                    self.err(v, f"multiple-value {self.text(v)} (value of type {op.type}) in single-value context")
                if op.kind != "value":
                    self.convert(op, T.ANY, v, context)
                vt = T.default_type(op.type) if op.type is not None else None
                if op.const is not None and T.is_untyped(op.type) and vt is not None and T.is_numeric(vt):
                    self.represent(op, vt, v, context)
                codes.append(self.coerce(op, vt))
                types.append(vt)
        return codes, types

    def s_short_var_declaration(self, node):
        left = [c for c in node.child_by_field_name("left").named_children]
        right = [c for c in node.child_by_field_name("right").named_children if c.type != "comment"]
        self.short_decl(left, right, node)

    def short_decl(self, left, right, node, codes_types=None):
        names = [self.text(n) for n in left]
        new = [n for n in names if n != "_" and n not in self.scope.names]
        if not new:
            op_node = next((ch for ch in node.children if ch.type == ":="), node)
            self.err(op_node, "no new variables on left side of :=")
        lhs_types = []
        for n in names:
            o = self.scope.names.get(n)
            lhs_types.append(o.type if (o is not None and o.kind == "var") else None)
        if codes_types is None:
            codes, types = self.rhs(right, len(names), None, node, "assignment", lhs_types)
        else:
            codes, types = codes_types
        if len(codes) == 1 and len(names) > 1:
            tmp = self.uid("mv")
            self.emit(f"{tmp} = {codes[0]}")
            codes = [f"{tmp}[{i}]" for i in range(len(names))]
        elif len(names) > 1:
            tmps = []
            for c in codes:
                tmp = self.uid("mv")
                self.emit(f"{tmp} = {c}")
                tmps.append(tmp)
            codes = tmps
        for n, name, c, t in zip(left, names, codes, types):
            if name == "_":
                if len(names) == 1:
                    self.emit(c)
                continue
            o = self.scope.names.get(name)
            if o is not None and o.kind == "var":
                if not self.assignable(Op("x", t), o.type):
                    self.err(n, f"cannot use {self.text(n)} value of type {t} as {o.type} value in assignment")
                self.assign_var(o, c)
            else:
                if t is not None and T.is_untyped(t):
                    t = T.default_type(t)
                self.declare_var(name, t, n, c)

    def s_const_declaration(self, node):
        from .decls import const_decl
        const_decl(self, node)

    def s_type_declaration(self, node):
        from .decls import type_decl
        type_decl(self, node, local=True)

    # ---- assignment ----
    def s_assignment_statement(self, node):
        o = self.text(node.child_by_field_name("operator"))
        left = [c for c in node.child_by_field_name("left").named_children if c.type != "comment"]
        right = [c for c in node.child_by_field_name("right").named_children if c.type != "comment"]
        if o != "=":
            binop = o[:-1]
            if len(left) != 1 or len(right) != 1:
                self.err(node, f"assignment operation {o} requires single-valued expressions")
            a = self.expr(left[0])  # Go 1.19 counts `x += 1` as a use of x
            b = self.expr(right[0])
            r = self.binary_ops(binop, a, b, node)
            code = r.code if r.const is None else self.const_code(r.const, a.type)
            self.store(left[0], code)
            return
        lhs_types = []
        for ln in left:
            if ln.type == "identifier" and self.text(ln) == "_":
                lhs_types.append(None)
            else:
                lhs_types.append(self.lhs_expr(ln).type)
        if len(left) == 1:
            codes, _ = self.rhs(right, 1, None, node, "assignment", lhs_types)
            if lhs_types[0] is None:
                self.emit(codes[0])
                return
            self.store(left[0], codes[0])
            return
        codes, types = self.rhs(right, len(left), None, node, "assignment", lhs_types)
        self._pre_index = {}
        for ln in left:
            if ln.type == "index_expression":
                base = self.expr(ln.child_by_field_name("operand"))
                if isinstance(base.type.u, T.Map):
                    continue
                b, i = self.uid("lb"), self.uid("li")
                self.emit(f"{b} = {base.code}")
                self.emit(f"{i} = {self.index_code(ln.child_by_field_name('index'))}")
                self._pre_index[ln.id] = (b, i)
        tmps = []
        if len(codes) == 1:
            tmp = self.uid("mv")
            self.emit(f"{tmp} = {codes[0]}")
            tmps = [f"{tmp}[{i}]" for i in range(len(left))]
        else:
            tmp = self.uid("mv")
            self.emit(f"{tmp} = ({', '.join(codes)},)")
            tmps = [f"{tmp}[{i}]" for i in range(len(left))]
        for ln, c in zip(left, tmps):
            if ln.type == "identifier" and self.text(ln) == "_":
                continue
            self.store(ln, c)
        self._pre_index = {}

    def binary_ops(self, o, a, b, node):
        """a o b for compound assignment, reusing the binary expression checker."""
        if o in ("<<", ">>"):
            return self.shift(o, a, b, node)
        if T.is_untyped(b.type):
            self.check_const_operand(b, a.type, node, o, a)
        elif not T.identical(a.type, b.type):
            self.err(node, f"invalid operation: {self.text(node)} (mismatched types {a.type} and {b.type})")
        return self.binop(o, a, b, a.type, node)

    def lhs_expr(self, node) -> Op:
        if node.type == "identifier":
            o = self.scope.lookup(self.text(node))
            if o is not None and o.kind == "var":
                used = o.used
                op = self.expr(node)
                o.used = used
                return op
        return self.expr(node)

    def store(self, target, code) -> None:
        k = target.type
        if k == "parenthesized_expression":
            return self.store(target.named_children[0], code)
        if k == "identifier":
            name = self.text(target)
            if name == "_":
                self.emit(code)
                return
            o = self.scope.lookup(name)
            if o is None:
                self.err(target, f"undefined: {name}")
            if o.kind == "const":
                op = self.expr(target)
                self.err(target, f"cannot assign to {name} ({describe(op, self).split(' (', 1)[1]}")
            if o.kind != "var":
                self.err(target, f"cannot assign to {name} (neither addressable nor a map index expression)")
            self.assign_var(o, code)
            return
        if k == "index_expression":
            base = self.expr(target.child_by_field_name("operand"))
            inode = target.child_by_field_name("index")
            u = base.type.u
            if isinstance(u, T.Pointer) and isinstance(u.elem.u, T.Array):
                u = u.elem.u
            if isinstance(u, T.Map):
                k = self.map_key(self.value(inode, u.key, "map index"), u.key)
                self.emit(f"{base.code}[{k}] = {code}")
                return
            pre = getattr(self, "_pre_index", {}).get(target.id)
            if pre is not None:
                base = Op(pre[0], base.type)
                i = pre[1]
            else:
                i = self.index_code(inode)
            if isinstance(u, T.Slice):
                s = base.code
                if simple(s) and simple(i):
                    self.emit(f"if not 0 <= {i} < {s}.n: raise _idx_panic({i}, {s}.n)")
                    self.emit(f"{s}.a[{s}.o + {i}] = {code}")
                else:
                    self.emit(f"_sset({s}, {i}, {code})")
                return
            if isinstance(u, T.Array):
                if simple(i) and simple(base.code):
                    self.emit(f"if not 0 <= {i} < {u.n}: raise _idx_panic({i}, {u.n})")
                    self.emit(f"{base.code}[{i}] = {code}")
                else:
                    self.emit(f"_aset({base.code}, {i}, {code})")
                return
            if T.is_string(base.type):
                self.err(target, f"cannot assign to {self.text(target)} (value of type byte)")
            self.err(target, f"invalid operation: cannot index {describe(base, self)}")
        if k == "selector_expression":
            x = self.expr(target)
            if not x.addr:
                self.err(target, f"cannot assign to {self.short(target)} (value of type {x.type})")
            base_node = target.child_by_field_name("operand")
            if base_node.type == "index_expression":
                b = self.expr(base_node.child_by_field_name("operand"))
                if isinstance(b.type.u, T.Map) and not isinstance(b.type.u.elem.u, T.Pointer):
                    self.err(target, f"cannot assign to struct field {self.text(target)} in map")
            self.emit(f"{x.code} = {code}")
            return
        if k == "unary_expression":
            x = self.expr(target.child_by_field_name("operand"))
            et = x.type.u.elem
            if isinstance(et.u, T.Struct):
                self.emit(f"_nn({x.code})._set({code})")
            elif isinstance(et.u, T.Array):
                self.emit(f"{x.code}[:] = {code}")
            else:
                self.emit(f"{x.code}.v = {code}")
            return
        op = self.expr(target)
        self.err(target, f"cannot assign to {self.short(target)} (value of type {op.type})")

    def index_code(self, inode) -> str:
        """An index of any integer type (Go allows them all)."""
        op = self.expr(inode)
        if op.const is None and T.is_integer(op.type):
            return op.code
        return self.value(inode, T.INT, "index")
