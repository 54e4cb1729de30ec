"""Statements: scopes, blocks, expression, send and inc/dec statements, return, if, labels, goto, break, continue."""

from __future__ import annotations

from . import types as T
from .cexpr import describe
from .errors import CompileError, FollowOn
from .scope import Failed, Op, Scope, Var


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
            self.checked_stmt(st)
        if len(self.lines) == start:
            self.emit("pass")
        if new_scope:
            self.pop()

    def checked_stmt(self, node) -> None:
        """One statement of a list. As Go's type checker does, an error is recorded and checking goes on
        with the next statement, so independent errors are all listed: the names the statement declares
        become failed (their uses say nothing more) and the variables it mentions count as used."""
        lines, n_lines, ind, scope = self.lines, len(self.lines), self.ind, self.scope
        fn = self.fn
        n_targets, n_locals, py_loops, n_names = len(fn.targets), len(fn.locals), fn.py_loops, len(scope.names)
        try:
            self.stmt(node)
        except CompileError as e:
            if not isinstance(e, FollowOn):
                self.errors.append(e)
            self.lines, self.ind, self.scope, self.fn = lines, ind, scope, fn
            del lines[n_lines:], fn.targets[n_targets:]
            fn.py_loops = py_loops
            for v in fn.locals[n_locals:]:
                v.used = True
            self._after_failed(node, set(list(scope.names)[n_names:]))

    def _after_failed(self, node, added) -> None:
        names = []
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type in ("identifier", "type_identifier"):  # `fmt.(x)` reads x as a type
                o = self.scope.peek(self.text(n))
                if isinstance(o, Var):
                    o.used = True
            if n.type in ("var_spec", "const_spec", "type_spec", "type_alias") and n.parent is not None and (
                    n.parent == node or n.parent.parent == node):  # the statement's own, not a func literal's
                names += [c for i, c in enumerate(n.children) if n.field_name_for_child(i) == "name"]
            stack.extend(n.named_children)
        if node.type == "short_var_declaration":
            names += node.child_by_field_name("left").named_children
        for n in names:
            name = self.text(n)
            if n.type in ("identifier", "type_identifier") and name != "_" and (
                    name in added or name not in self.scope.names):
                self.scope.names[name] = Failed()

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
                self.checked_stmt(st)
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
