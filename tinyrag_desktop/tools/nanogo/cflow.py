"""Loops, switches, select, defer and go statements."""

from __future__ import annotations

from . import types as T
from .cexpr import describe
from .cstmt import Target
from .scope import Op


class FlowMixin:
    # ---- loops ----
    def take_label(self):
        label = getattr(self, "pending_label", None)
        self.pending_label = None
        return label

    def with_targets(self, t: Target, body_fn):
        """Compile a loop/switch body with target t; wrap it in try/except for raised break/continue."""
        self.fn.targets.append(t)
        start = len(self.lines)
        body_fn()
        self.fn.targets.pop()
        return start

    def wrap_try(self, start, exc, handler_lines, ind):
        """Wrap self.lines[start:] (at indentation ind) in try/except exc."""
        pad = "    " * ind
        body = self.lines[start:]
        del self.lines[start:]
        self.lines.append(pad + "try:")
        self.lines.extend("    " + b for b in body)
        self.lines.append(pad + f"except {exc}:")
        for h in handler_lines:
            self.lines.append(pad + "    " + h)

    def s_for_statement(self, node):
        label = self.take_label()
        self.push()
        clause = None
        cond = None
        for c in node.named_children:
            if c.type in ("for_clause", "range_clause"):
                clause = c
            elif c.type not in ("block", "comment"):
                cond = c
        body = node.child_by_field_name("body")
        if clause is not None and clause.type == "range_clause":
            self.range_loop(clause, body, label)
            self.pop()
            return
        post_lines = []
        if clause is not None:
            init = clause.child_by_field_name("initializer")
            cond = clause.child_by_field_name("condition")
            post = clause.child_by_field_name("update")
            fast = self.try_range_for(init, cond, post, body, label)
            if fast:
                self.pop()
                return
            if init is not None:
                self.stmt(init)
            if post is not None:
                saved = self.lines
                self.lines = []
                ind = self.ind
                self.ind = 0
                self.stmt(post)
                post_lines = self.lines
                self.lines = saved
                self.ind = ind
        cc = self.cond(cond, "for statement") if cond is not None else "True"
        t = Target("for", label, post_lines)
        t.native = True
        header = len(self.lines)
        self.emit(f"while {cc}:")
        self.ind += 1
        self.fn.py_loops += 1
        t.py_depth = self.fn.py_loops
        start = self.with_targets(t, lambda: self.block(body))
        if t.cont_exc:
            self.wrap_try(start, t.cont_exc, ["pass"], self.ind)
        for line in post_lines:
            self.emit(line)
        self.fn.py_loops -= 1
        self.ind -= 1
        if t.brk_exc:
            self.wrap_try(header, t.brk_exc, ["pass"], self.ind)
        self.pop()

    def _loop_len(self, start):
        return len(self.lines) - start + 1

    def try_range_for(self, init, cond, post, body, label) -> bool:
        """`for i := a; i < b; i++` with i not captured nor assigned in the body becomes a range() loop."""
        if init is None or cond is None or post is None:
            return False
        if init.type != "short_var_declaration" or post.type not in ("inc_statement",):
            return False
        left = init.child_by_field_name("left").named_children
        right = init.child_by_field_name("right").named_children
        if len(left) != 1 or len(right) != 1:
            return False
        name = self.text(left[0])
        if name in self.fn.boxed or self.text(post.named_children[0]) != name:
            return False
        if cond.type != "binary_expression":
            return False
        op = self.text(cond.child_by_field_name("operator"))
        if op not in ("<", "<=") or self.text(cond.child_by_field_name("left")) != name:
            return False
        bound = cond.child_by_field_name("right")
        if self.assigns(body, name) or not self.stable_bound(bound, body):
            return False
        start_op = self.expr(right[0])
        if not (T.is_integer(start_op.type) or start_op.const is not None and isinstance(start_op.const, int)):
            return False
        vt = T.default_type(start_op.type)
        if vt is not T.INT:
            return False
        b = self.expr(bound)
        if not (b.type is T.INT or (b.const is not None and isinstance(b.const, int) and T.is_untyped(b.type))):
            return False
        bcode = self.operand_code(b, T.INT)
        scode = self.operand_code(start_op, T.INT)
        v = self.declare_var(name, T.INT, left[0])
        v.used = True  # the loop condition reads it
        header = len(self.lines)
        self.emit(f"for {v.py} in range({scode}, {bcode}{' + 1' if op == '<=' else ''}):")
        t = Target("for", label, [])
        t.native = True
        self.ind += 1
        self.fn.py_loops += 1
        t.py_depth = self.fn.py_loops
        start = self.with_targets(t, lambda: self.block(body))
        if t.cont_exc:
            self.wrap_try(start, t.cont_exc, ["pass"], self.ind)
        self.fn.py_loops -= 1
        self.ind -= 1
        if t.brk_exc:
            self.wrap_try(header, t.brk_exc, ["pass"], self.ind)
        return True

    def assigns(self, node, name) -> bool:
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type in ("assignment_statement", "inc_statement", "dec_statement"):
                left = n.child_by_field_name("left") if n.type == "assignment_statement" else n
                for c in (left.named_children if left is not None else []):
                    if c.type == "identifier" and self.text(c) == name:
                        return True
            if n.type == "unary_expression" and self.text(n.child_by_field_name("operator")) == "&":
                if self.text(n.child_by_field_name("operand")) == name:
                    return True
            if n.type == "func_literal" and name in self.text(n):
                return True
            stack.extend(n.named_children)
        return False

    def stable_bound(self, bound, body) -> bool:
        if bound.type in ("int_literal",):
            return True
        if bound.type == "identifier":
            name = self.text(bound)
            o = self.scope.lookup(name)
            if o is not None and o.kind == "const":
                return True
            return o is not None and o.kind == "var" and not o.is_global and not self.assigns(body, name) \
                and name not in self.fn.boxed
        if bound.type == "call_expression" and self.text(bound.child_by_field_name("function")) == "len":
            args = bound.child_by_field_name("arguments").named_children
            if len(args) == 1 and args[0].type == "identifier":
                return self.stable_bound(args[0], body)
        if bound.type == "binary_expression":
            return all(self.stable_bound(c, body) for c in (bound.child_by_field_name("left"),
                                                           bound.child_by_field_name("right")))
        return False

    def range_loop(self, clause, body, label):
        left = clause.child_by_field_name("left")
        rn = clause.child_by_field_name("right")
        x = self.expr(rn)
        names = [c for c in left.named_children] if left is not None else []
        is_define = any(c.type == ":=" for c in clause.children)
        u = x.type.u
        if isinstance(u, T.Pointer) and isinstance(u.elem.u, T.Array):
            u = u.elem.u
        if isinstance(u, T.Basic) and u.kind == "string":
            kt, vt = T.INT, T.RUNE
        elif isinstance(u, (T.Slice, T.Array)):
            kt, vt = T.INT, u.elem
        elif isinstance(u, T.Map):
            kt, vt = u.key, u.elem
        elif isinstance(u, T.Chan):
            kt, vt = u.elem, None
        elif isinstance(u, T.Basic) and u.kind == "int":
            self.err(rn, f"cannot range over {describe(x, self)} (nanoGo follows Go 1.19; ranging over an "
                         "integer came in Go 1.22)")
        elif isinstance(u, T.Func):
            self.err(rn, f"cannot range over {describe(x, self)} (nanoGo follows Go 1.19; ranging over a "
                         "function came in Go 1.23)")
        else:
            self.err(rn, f"cannot range over {describe(x, self)}")
        kvar = self.uid("k")
        vvar = self.uid("v")
        src = self.uid("r")
        want_v = len(names) > 1 and self.text(names[1]) != "_"
        self.emit(f"{src} = {self.operand_code(x, T.STRING) if x.const is not None else x.code}")
        if isinstance(u, T.Basic):
            head = f"for {kvar}, {vvar} in _srange({src}):"
        elif isinstance(u, T.Slice):
            head = f"for {kvar} in range({src}.n):"
        elif isinstance(u, T.Array):
            if want_v:
                self.emit(f"{src} = list({src})")
            head = f"for {kvar} in range({u.n}):"
        elif isinstance(u, T.Map):
            head = f"for {kvar} in list({src}):"
        else:
            head = "while True:"
        # Go 1.19: one variable for the whole loop, so closures made in the body share it.
        shared = {}
        if is_define:
            for n, ty in zip(names, (kt, vt)):
                nm = self.text(n)
                if nm != "_" and ty is not None and nm in self.fn.boxed and not isinstance(ty.u, (T.Struct, T.Array)):
                    shared[nm] = self.uid("rv")
                    self.emit(f"{shared[nm]} = _Box(None)")
        header = len(self.lines)
        self.emit(head)
        self.ind += 1
        self.fn.py_loops += 1
        t = Target("for", label, [])
        t.native = True
        t.py_depth = self.fn.py_loops
        self.push()
        if isinstance(u, T.Map):
            self.emit(f"if {kvar} not in {src}: continue")
            if want_v:
                self.emit(f"{vvar} = {src}[{kvar}]")
            kcode = self.map_key_out(kvar, kt)
        elif isinstance(u, T.Chan):
            self.emit(f"{kvar}, _ok = _chan_recv2({src})")
            self.emit("if not _ok: break")
            kcode = kvar
        else:
            kcode = kvar
            if want_v and isinstance(u, T.Slice):
                self.emit(f"{vvar} = {src}.a[{src}.o + {kvar}]")
            elif want_v and isinstance(u, T.Array):
                self.emit(f"{vvar} = {src}[{kvar}]")
        vcode = self.copy_code(vvar, vt) if vt is not None else None
        for i, (n, code, ty) in enumerate(zip(names, (kcode, vcode), (kt, vt))):
            name = self.text(n)
            if name == "_" or code is None:
                continue
            if is_define:
                v = self.declare_var(name, ty, n)
                if v.boxed and name in shared:
                    self.emit(f"{v.py} = {shared[name]}")
                    self.emit(f"{v.py}.v = {code}")
                elif v.boxed:
                    self.emit(f"{v.py} = _Box({code})")
                else:
                    self.emit(f"{v.py} = {code}")
            else:
                self.store(n, code)
        # The loop variables belong to the for statement; the body is a block of its own (Go spec, "Blocks"),
        # so `n := n` or `var n int` in it declares a new variable.
        start = self.with_targets(t, lambda: self.block(body))
        self.pop()
        if t.cont_exc:
            self.wrap_try(start, t.cont_exc, ["pass"], self.ind)
        self.fn.py_loops -= 1
        self.ind -= 1
        if t.brk_exc:
            self.wrap_try(header, t.brk_exc, ["pass"], self.ind)

    # ---- switch ----
    def s_expression_switch_statement(self, node):
        label = self.take_label()
        self.push()
        init = node.child_by_field_name("initializer")
        if init is not None:
            self.stmt(init)
        vnode = node.child_by_field_name("value")
        tag = None
        if vnode is not None:
            tag = self.expr(vnode)
            tmp = self.uid("sw")
            tcode = tag.code if tag.const is None else self.const_code(tag.const, T.default_type(tag.type))
            self.emit(f"{tmp} = {tcode}")
            tag = Op(tmp, T.default_type(tag.type) if tag.const is not None else tag.type, node=vnode)
        cases = [c for c in node.named_children if c.type in ("expression_case", "default_case")]
        conds = []
        seen = set()
        for c in cases:
            if c.type == "default_case":
                conds.append(None)
                continue
            vals = [v for v in c.child_by_field_name("value").named_children if v.type != "comment"]
            parts = []
            for v in vals:
                if tag is None:
                    parts.append(self.cond(v, "case"))
                else:
                    op = self.expr(v)
                    parts.append(self.eq_code(tag, op, v))
                    if op.const is not None and not isinstance(tag.type.u, T.Interface):
                        key = (type(op.const).__name__ if isinstance(op.const, (str, bool)) else "n", op.const)
                        if key in seen:
                            from .cexpr import const_str
                            self.err(v, f"duplicate case {self.text(v)} (constant of type {tag.type}) in expression switch"
                                     if self.text(v) == const_str(op.const) else
                                     f"duplicate case {self.text(v)} (constant {const_str(op.const)} of type {tag.type}) in expression switch")
                        seen.add(key)
            conds.append(" or ".join(parts) if parts else "False")
        self.switch_body(cases, conds, label)
        self.pop()

    def eq_code(self, tag: Op, op: Op, node) -> str:
        tt = tag.type
        if isinstance(tt.u, T.Interface) and not isinstance(op.type.u if op.type else None, T.Interface):
            if op.kind == "nil":
                return f"{tag.code} is None"
            return f"{tag.code} == {self.coerce(op, tt)}"
        if op.kind == "nil":
            return f"{tag.code} is None"
        if not self.assignable(op, tt) and not (isinstance(op.type.u, T.Interface)):
            self.err(node, f"invalid case {self.text(node)} in switch on {self.text(tag.node)} "
                     f"(mismatched types {op.type} and {tt})")
        code = self.operand_code(op, tt) if op.const is not None else op.code
        if isinstance(op.type.u, T.Interface) and not isinstance(tt.u, T.Interface):
            return f"{self.coerce(tag, op.type)} == {code}"
        return f"{tag.code} == {code}"

    def case_stmts(self, c):
        out = []
        for i, x in enumerate(c.children):
            if not x.is_named or c.field_name_for_child(i) in ("value", "type", "communication"):
                continue
            if x.type == "statement_list":
                out.extend(y for y in x.named_children if y.type != "comment")
            elif x.type != "comment":
                out.append(x)
        return out

    def switch_body(self, cases, conds, label, binders=None):
        defaults = [c for c in cases if c.type == "default_case"]
        if len(defaults) > 1:
            row, col = self.src.pos(defaults[0])
            self.err(defaults[1], f"multiple defaults (first at ./prog.go:{row}:{col})")
        t = Target("switch", label)
        t.native = False
        has_ft = any(self.case_stmts(c) and self.case_stmts(c)[-1].type == "fallthrough_statement" for c in cases)
        self.fn.targets.append(t)
        start = len(self.lines)
        order = [i for i, c in enumerate(conds) if c is not None] + [i for i, c in enumerate(conds) if c is None]
        if has_ft:
            sel = self.uid("case")
            first = True
            had_default = False
            for i in order:
                if conds[i] is None:
                    had_default = True
                    self.emit("else:" if not first else "if True:")
                else:
                    self.emit(f"{'if' if first else 'elif'} {conds[i]}:")
                self.ind += 1
                self.emit(f"{sel} = {i}")
                self.ind -= 1
                first = False
            if first:
                self.emit(f"{sel} = -1")
            elif not had_default:
                self.emit("else:")
                self.emit(f"    {sel} = -1")
            for i, c in enumerate(cases):
                self.emit(f"if {sel} == {i}:")
                self.ind += 1
                self.push()
                if binders:
                    binders(i)
                stmts = self.case_stmts(c)
                ft = stmts and stmts[-1].type == "fallthrough_statement"
                if ft:
                    stmts = stmts[:-1]
                for st in stmts:
                    self.checked_stmt(st)
                if ft:
                    self.emit(f"{sel} = {i + 1}")
                self.emit("pass")
                self.pop()
                self.ind -= 1
        else:
            first = True
            for i in order:
                if conds[i] is None:
                    if first:
                        self.emit("if True:")
                    else:
                        self.emit("else:")
                else:
                    self.emit(f"{'if' if first else 'elif'} {conds[i]}:")
                first = False
                self.ind += 1
                self.push()
                if binders:
                    binders(i)
                start_body = len(self.lines)
                for st in self.case_stmts(cases[i]):
                    self.checked_stmt(st)
                if len(self.lines) == start_body:
                    self.emit("pass")
                self.pop()
                self.ind -= 1
        self.fn.targets.pop()
        if t.brk_exc:
            self.wrap_try(start, t.brk_exc, ["pass"], self.ind)

    def s_type_switch_statement(self, node):
        label = self.take_label()
        self.push()
        init = node.child_by_field_name("initializer")
        if init is not None:
            self.stmt(init)
        alias = node.child_by_field_name("alias")
        x = self.expr(node.child_by_field_name("value"))
        if not isinstance(x.type.u, T.Interface):
            self.err(node.child_by_field_name("value"), f"{self.text(node.child_by_field_name('value'))} "
                     f"({'variable' if x.addr else 'value'} of type {x.type}) is not an interface")
        tmp = self.uid("ts")
        self.emit(f"{tmp} = {x.code}")
        cases = [c for c in node.named_children if c.type in ("type_case", "default_case")]
        conds, case_types = [], []
        for c in cases:
            if c.type == "default_case":
                conds.append(None)
                case_types.append(None)
                continue
            tnodes = [c.children[i] for i in range(c.child_count) if c.field_name_for_child(i) == "type" and c.children[i].is_named]
            parts, tys = [], []
            for tn in tnodes:
                if tn.type == "nil" or self.text(tn) == "nil":
                    parts.append(f"{tmp} is None")
                    tys.append(None)
                    continue
                ty = self.resolve_type(tn)
                tys.append(ty)
                if isinstance(ty.u, T.Interface):
                    parts.append(f"_implements_v({tmp}, {tuple(sorted(ty.u.all_methods()))!r})")
                else:
                    parts.append(f"_type_is({tmp}, {self.tref(ty)})")
            conds.append(" or ".join(parts))
            case_types.append(tys)
        name = self.text(alias.named_children[0]) if alias is not None else None
        declared = []

        def binders(i):
            if name is None or name == "_":
                return
            tys = case_types[i]
            if tys is not None and len(tys) == 1 and tys[0] is not None:
                ty = tys[0]
                code = tmp if isinstance(ty.u, T.Interface) else self.copy_code(f"{tmp}.v", ty)
            else:
                ty = x.type
                code = tmp
            v = self.declare_var(name, ty, alias, code)
            v.used = False
            declared.append(v)

        self.switch_body(cases, conds, label, binders)
        if declared and not any(v.used for v in declared):
            for v in declared:
                v.used = True
            self.err(alias, f"{name} declared but not used")
        for v in declared:
            v.used = True
        self.pop()

    # ---- select ----
    def s_select_statement(self, node):
        label = self.take_label()
        cases = [c for c in node.named_children if c.type in ("communication_case", "default_case")]
        specs = []
        has_default = False
        for c in cases:
            if c.type == "default_case":
                has_default = True
                specs.append(None)
                continue
            comm = c.child_by_field_name("communication")
            if comm.type == "send_statement":
                ch = self.expr(comm.child_by_field_name("channel"))
                v = self.value(comm.child_by_field_name("value"), ch.type.u.elem, "send")
                specs.append(("send", f"(True, {ch.code}, {v})", None))
            else:
                right = comm.child_by_field_name("right") if comm.type == "receive_statement" else comm
                if right is None:
                    right = comm.named_children[-1]
                while right.type == "parenthesized_expression":
                    right = right.named_children[0]
                op_node = right.child_by_field_name("operator") if right.type == "unary_expression" else None
                if op_node is None or self.text(op_node) != "<-":
                    self.err(comm, "select case must be receive, send or assign recv")
                chn = right.child_by_field_name("operand")
                ch = self.expr(chn)
                specs.append(("recv", f"(False, {ch.code}, None)", (comm, ch.type.u.elem)))
        real = [s for s in specs if s is not None]
        idx, val, ok = self.uid("si"), self.uid("sv"), self.uid("sok")
        self.emit(f"{idx}, {val}, {ok} = _select([{', '.join(s[1] for s in real)}], {has_default})")
        conds = []
        k = 0
        for s in specs:
            if s is None:
                conds.append(None)
            else:
                conds.append(f"{idx} == {k}")
                k += 1

        def binders(i):
            s = specs[i]
            if s is None or s[0] != "recv":
                return
            comm, et = s[2]
            if comm.type != "receive_statement":
                return
            left = comm.child_by_field_name("left")
            if left is None:
                return
            names = left.named_children
            define = any(ch.type == ":=" for ch in comm.children)
            for n, code, ty in zip(names, (val, ok), (et, T.BOOL)):
                if self.text(n) == "_":
                    continue
                if define:
                    self.declare_var(self.text(n), ty, n, code)
                else:
                    self.store(n, code)

        self.switch_body(cases, conds, label, binders)

    # ---- defer / go ----
    def deferred_call(self, node):
        call = node.named_children[0]
        while call.type == "parenthesized_expression":
            call = call.named_children[0]
        if call.type != "call_expression":
            self.err(call, f"expression in {'defer' if node.type == 'defer_statement' else 'go'} must be function call")
        fn = call.child_by_field_name("function")
        if fn.type == "func_literal" and not call.child_by_field_name("arguments").named_children:
            lit = self.expr(fn)
            if not lit.type.u.params:  # `go func() {...}()`: the literal itself is the callee
                return lit.code, ""
        self.last_call = None
        op = self.expr(call)
        if self.last_call is not None and op.code.endswith(")"):
            return self.last_call
        code = op.code
        i = code.index("(")
        return code[:i], code[i + 1:-1]

    def s_defer_statement(self, node):
        callee, args = self.deferred_call(node)
        self.emit(f"_df.append(({callee}, ({args}{',' if args else ''})))")

    def s_go_statement(self, node):
        callee, args = self.deferred_call(node)
        self.emit(f"_go({callee}, ({args}{',' if args else ''}))")
