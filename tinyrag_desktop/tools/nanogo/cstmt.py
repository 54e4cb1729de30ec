"""Statements: declarations, assignments, control flow, defer/go, select, switch and type switch."""

from __future__ import annotations

from . import types as T
from .ccall import simple
from .cexpr import describe
from .errors import CompileError
from .scope import Op, Scope, Var


class Target:
    """A break/continue target: a loop (native Python loop or not), a switch or a select."""

    def __init__(self, kind, label, post=None):
        self.kind, self.label, self.post = kind, label, post
        self.brk_exc = None
        self.cont_exc = None
        self.py_depth = 0


class StmtMixin:
    # ---- scopes and variables ----
    def push(self):
        self.scope = Scope(self.scope)

    def pop(self):
        self.scope = self.scope.parent

    def declare_var(self, name, t, node, value_code=None) -> Var:
        if name == "_":
            return None
        if name in self.scope.names and self.scope is not self.pkg:
            self.err(node, f"{name} redeclared in this block")
        fn = self.fn
        py = self.fresh(name)
        boxed = name in fn.boxed and not isinstance(t.u, (T.Struct, T.Array)) or (
            isinstance(t, T.Named) and not isinstance(t.u, (T.Struct, T.Array)) and any(
                m.ptr for m in t.methods.values()))
        v = Var(name, t, py, boxed, node)
        v.used = False
        fn.locals.append(v)
        if value_code is not None:
            self.emit(f"{py} = _Box({value_code})" if boxed else f"{py} = {value_code}")
        self.scope.names[name] = v
        return v

    def fresh(self, name) -> str:
        used = self.fn.pynames
        base = "v_" + name
        py = base
        n = 1
        while py in used:
            n += 1
            py = f"{base}_{n}"
        used.add(py)
        return py

    def assign_var(self, v: Var, code: str) -> None:
        if v.is_global:
            self.emit(f"{v.py} = {code}")
        elif v.boxed:
            self.emit(f"{v.py}.v = {code}")
        elif v.name in self.fn.boxed and isinstance(v.type.u, T.Struct):
            self.emit(f"{v.py}._set({code})")
        elif v.name in self.fn.boxed and isinstance(v.type.u, T.Array):
            self.emit(f"{v.py}[:] = {code}")
        else:
            self.emit(f"{v.py} = {code}")

    # ---- blocks ----
    def block(self, node, new_scope=True) -> None:
        if new_scope:
            self.push()
        start = len(self.lines)
        stmts = self.stmts_of(node)
        targets = getattr(self.fn, "goto_labels", ())
        marks = [i for i, st in enumerate(stmts) if st.type == "labeled_statement" and
                 self.text(st.child_by_field_name("label")) in targets]
        if marks:
            self.goto_block(stmts, marks)
            stmts = []
        for st in stmts:
            self.stmt(st)
        if len(self.lines) == start:
            self.emit("pass")
        if new_scope:
            self.pop()

    @staticmethod
    def stmts_of(node):
        out = []
        for c in node.named_children:
            if c.type == "statement_list":
                out.extend(x for x in c.named_children if x.type != "comment")
            elif c.type != "comment":
                out.append(c)
        return out

    def stmt(self, node) -> None:
        m = getattr(self, "s_" + node.type, None)
        if m is None:
            self.err(node, f"unsupported statement: {node.type}")
        try:
            m(node)
        except (CompileError, RecursionError):
            raise
        except Exception as exc:  # a bug in nanoGo: still a compile error, at the statement it could not check
            self.err_internal(node, exc)

    def s_empty_statement(self, node):
        pass

    def s_block(self, node):
        self.block(node)

    def s_expression_statement(self, node):
        e = node.named_children[0]
        op = self.expr(e)
        inner = e  # calls and receives may be parenthesized ("(f())"); "(1)" is no statement either
        while inner.type == "parenthesized_expression" and inner.named_children:
            inner = inner.named_children[0]
        if inner.type not in ("call_expression",) and not (inner.type == "unary_expression" and
                                                            self.text(inner.child_by_field_name("operator")) == "<-"):
            self.err(e, f"{self.text(e)} ({self.unused_desc(op)}) is not used"
                     if op.kind == "value" else f"{self.text(e)} is not used")
        if op.kind in ("type",):
            self.err(e, f"{self.text(e)} (type) is not an expression")
        if inner.type == "call_expression" and op.kind == "value":
            function = inner.child_by_field_name("function")
            while function.type == "parenthesized_expression" and function.named_children:
                function = function.named_children[0]  # "(int)(3)" converts as "int(3)" does
            fn_name = self.text(function)
            b = self.scope.lookup(fn_name)
            if b is not None and b.kind == "builtin" and fn_name in ("append", "len", "cap", "make", "new",
                                                                     "complex", "real", "imag"):
                self.err(e, f"{self.text(e)} ({self.unused_desc(op)}) is not used")
            if b is not None and b.kind == "type" or function.type in (
                    "slice_type", "map_type", "array_type", "pointer_type", "type_identifier"):
                self.err(e, f"{self.text(e)} ({self.unused_desc(op)}) is not used")
        if op.code is None:  # a constant: nothing to run (an error was said above)
            self.err(e, f"{self.text(e)} is not used")
        self.emit(op.code)

    def unused_desc(self, op):
        if op.const is not None and T.is_untyped(op.type):
            return f"{op.type} constant"
        if op.const is not None:
            return f"constant {op.const} of type {op.type}"
        if T.is_untyped(op.type):
            return f"{op.type} value"
        return f"{'variable' if op.addr and op.obj is not None else 'value'} of type {op.type}"

    def s_send_statement(self, node):
        ch = self.expr(node.child_by_field_name("channel"))
        if not isinstance(ch.type.u, T.Chan):
            self.err(node, f"invalid operation: cannot send to non-channel {describe(ch, self)}")
        v = self.value(node.child_by_field_name("value"), ch.type.u.elem, "send")
        self.emit(f"_chan_send({ch.code}, {v})")

    def s_inc_statement(self, node, delta="+"):
        target = node.named_children[0]
        op = self.expr(target)
        if not T.is_numeric(op.type):
            self.err(node, f"invalid operation: {self.text(node)} (non-numeric type {op.type})")
        if op.obj is not None and isinstance(op.obj, Var):
            op.obj.used = op.obj.used  # x++ is not a use
        code = self.wrap_int(f"({op.code} {delta} 1)", op.type)
        self.store(target, code)

    def s_dec_statement(self, node):
        self.s_inc_statement(node, "-")

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

    # ---- return ----
    def s_return_statement(self, node):
        fn = self.fn
        results = fn.sig.results
        exprs = []
        for c in node.named_children:
            if c.type == "expression_list":
                exprs = [x for x in c.named_children if x.type != "comment"]
            elif c.type != "comment":
                exprs = [c]
        if not exprs:
            if results and not fn.named_results:
                self.err(node, "not enough return values\n\thave ()\n\twant (" + ", ".join(map(str, results)) + ")")
            self.emit("return" + self.named_result_tuple())
            return
        if len(exprs) == 1 and len(results) > 1:
            op = self.expr(exprs[0])
            if not isinstance(op.type, T.Tuple) or len(op.type.types) != len(results):
                self.err(exprs[0], f"not enough return values\n\thave ({op.type})\n\twant ({', '.join(map(str, results))})")
            code = op.code
            if any(isinstance(r.u, T.Interface) and not isinstance(t.u, T.Interface) for r, t in zip(results, op.type.types)):
                tmp = self.uid("mv")
                self.emit(f"{tmp} = {code}")
                code = ", ".join(self.coerce(Op(f"{tmp}[{i}]", t), r) for i, (r, t) in enumerate(zip(results, op.type.types)))
            self.emit_return(code)
            return
        if len(exprs) != len(results):
            have = ", ".join(self.describe_short(e) for e in exprs)
            want = ", ".join(map(str, results))
            msg = "too many return values" if len(exprs) > len(results) else "not enough return values"
            at = exprs[len(results)] if len(exprs) > len(results) else exprs[0]
            self.err(at, f"{msg}\n\thave ({have})\n\twant ({want})")
        codes = [self.value(e, r, "return statement") for e, r in zip(exprs, results)]
        self.emit_return(", ".join(codes))

    def describe_short(self, e):
        op = self.expr(e)
        if op.const is not None and T.is_untyped(op.type):
            return "number" if T.is_numeric(op.type) else str(op.type)
        return str(op.type)

    def named_result_tuple(self) -> str:
        fn = self.fn
        if not fn.named_results:
            return ""
        vals = [self.read_var(v) if v is not None else "None" for v in fn.named_results]
        if len(vals) == 1:
            return " " + vals[0]
        return " (" + ", ".join(vals) + ",)"

    def read_var(self, v):
        return f"{v.py}.v" if v.boxed else v.py

    def emit_return(self, code):
        fn = self.fn
        if fn.named_results and fn.has_defer:
            vals = code
            names = [v for v in fn.named_results]
            if len(names) == 1:
                self.assign_var(names[0], vals)
            else:
                tmp = self.uid("mv")
                self.emit(f"{tmp} = ({vals},)")
                for i, v in enumerate(names):
                    if v is not None:
                        self.assign_var(v, f"{tmp}[{i}]")
            self.emit("return")
            return
        if len(fn.sig.results) > 1 and not code.startswith("*") and "," in code:
            self.emit(f"return ({code},)" if not code.startswith("(") else f"return {code}")
            return
        self.emit(f"return {code}")

    # ---- if ----
    def s_if_statement(self, node, elif_=False):
        self.push()
        init = node.child_by_field_name("initializer")
        if init is not None:
            if elif_:
                # an else-if with an initializer: nest it instead
                pass
            self.stmt(init)
        c = self.cond(node.child_by_field_name("condition"))
        self.emit(f"if {c}:")
        self.ind += 1
        self.block(node.child_by_field_name("consequence"))
        self.ind -= 1
        alt = node.child_by_field_name("alternative")
        if alt is not None:
            self.emit("else:")
            self.ind += 1
            if alt.type == "if_statement":
                self.s_if_statement(alt)
            else:
                self.block(alt)
            self.ind -= 1
        self.pop()

    def s_labeled_statement(self, node):
        label = self.text(node.child_by_field_name("label"))
        if label not in getattr(self.fn, "used_labels", {label}):
            self.err(node, f"label {label} defined and not used")
        inner = [c for c in node.named_children if c.type not in ("label_name", "comment")]
        if not inner:
            return
        if inner[0].type in ("for_statement", "expression_switch_statement", "type_switch_statement",
                             "select_statement"):
            self.pending_label = label
        self.stmt(inner[0])
        self.pending_label = None

    def goto_block(self, stmts, marks) -> None:
        """A block with goto targets runs as numbered segments inside a loop; goto restarts the loop at
        the target's segment (Go forbids jumping into blocks or over declarations, so this is exact)."""
        pc, exc = self.uid("pc"), self.new_exc("Goto")
        bounds = [0] + marks
        gotos = self.fn.__dict__.setdefault("gotos", {})
        for k, i in enumerate(marks, 1):
            gotos[self.text(stmts[i].child_by_field_name("label"))] = (pc, k, exc)
        self.emit(f"{pc} = 0")
        self.emit("while True:")
        self.ind += 1
        self.fn.py_loops += 1
        self.emit("try:")
        self.ind += 1
        for k, lo in enumerate(bounds):
            hi = bounds[k + 1] if k + 1 < len(bounds) else len(stmts)
            self.emit(f"if {pc} <= {k}:")
            self.ind += 1
            for st in stmts[lo:hi]:
                self.stmt(st)
            self.emit("pass")
            self.ind -= 1
        self.ind -= 1
        self.emit(f"except {exc}:")
        self.emit("    continue")
        self.emit("break")
        self.fn.py_loops -= 1
        self.ind -= 1

    def s_goto_statement(self, node):
        label = self._label_of(node)
        info = getattr(self.fn, "gotos", {}).get(label)
        if info is None:
            self.err(node, f"label {label} not defined")
        pc, k, exc = info
        self.emit(f"{pc} = {k}")
        self.emit(f"raise {exc}")

    def s_fallthrough_statement(self, node):
        self.err(node, "fallthrough statement out of place")

    # ---- break / continue ----
    def find_target(self, node, label, kinds):
        kind = "break" if "switch" in kinds else "continue"
        if label is not None and not any(t.label == label for t in self.fn.targets):
            self.err(node, f"{kind} label not defined: {label}")
        for t in reversed(self.fn.targets):
            if label is not None:
                if t.label == label:
                    if t.kind not in kinds:
                        self.err(node, f"invalid continue label {label}")
                    return t
            elif t.kind in kinds:
                return t
        self.err(node, f"{kind} is not in a loop" + (", switch, or select" if "switch" in kinds else ""))

    def _label_of(self, node):
        for c in node.named_children:
            if c.type == "label_name":
                return self.text(c)
        return None

    def s_break_statement(self, node):
        t = self.find_target(node, self._label_of(node), ("for", "switch", "select"))
        if t.kind == "for" and t.native and t.py_depth == self.fn.py_loops:
            self.emit("break")
            return
        if t.brk_exc is None:
            t.brk_exc = self.new_exc("Brk")
        self.emit(f"raise {t.brk_exc}")

    def s_continue_statement(self, node):
        t = self.find_target(node, self._label_of(node), ("for",))
        if t.native and t.py_depth == self.fn.py_loops:
            if t.post:
                for line in t.post:
                    self.emit(line)
            self.emit("continue")
            return
        if t.cont_exc is None:
            t.cont_exc = self.new_exc("Cont")
        self.emit(f"raise {t.cont_exc}")

    def new_exc(self, kind):
        name = self.uid(kind)
        self.out.append(f"class {name}(_Flow): pass")
        return name
