"""Package-level declarations, function bodies (defer, named results, closures) and generic instances."""

from __future__ import annotations

from fractions import Fraction

from . import types as T
from .errors import CompileError
from .scope import Const, FuncObj, Op, Scope, TypeName, Var


class _Generic:
    __slots__ = ("node", "tparams", "instances", "kind", "scope", "methods")

    def __init__(self, node, tparams, kind, scope):
        self.node, self.tparams, self.instances, self.kind, self.scope = node, tparams, {}, kind, scope
        self.methods = []


def _names(node, field="name"):
    return [c for i, c in enumerate(node.children) if node.field_name_for_child(i) == field and c.is_named]


def tparam_names(c, node):
    tpl = node.child_by_field_name("type_parameters")
    out = []
    if tpl is None:
        return out
    for d in tpl.named_children:
        if d.type != "type_parameter_declaration":
            continue
        cons = d.child_by_field_name("type")
        for n in _names(d):
            out.append((c.text(n), cons))
    return out


# ---- types ----

def type_shells(c, node) -> list:
    """Name the types of one declaration (so later declarations may refer to each other)."""
    shells = []
    for s in node.named_children:
        if s.type not in ("type_spec", "type_alias"):
            continue
        name = c.text(s.child_by_field_name("name"))
        if s.type == "type_alias":
            c.scope.names[name] = TypeName(name, c.resolve_type(s.child_by_field_name("type")))
            continue
        if s.child_by_field_name("type_parameters") is not None:
            c.scope.names[name] = TypeName(name, None, _Generic(s, tparam_names(c, s), "type", c.scope))
            continue
        if name in c.scope.names and name != "_":
            c.err(s.child_by_field_name("name"), f"{name} redeclared in this block")
        nt = T.Named(name, "main")
        c.named_types.append(nt)
        c.scope.names[name] = TypeName(name, nt)
        shells.append((s, nt))
    return shells


def resolve_shells(c, shells) -> None:
    for s, nt in shells:
        nt._u = c.resolve_type(s.child_by_field_name("type"))
    _no_infinite_types(c, shells)


def _no_infinite_types(c, shells) -> None:
    """`type T struct{ next T }`, `type A B; type B A`: a type that contains itself by value has no size."""
    where = {nt: s for s, nt in shells}

    def contained(t):  # the defined types t holds by value (not through a pointer, slice, map, ...)
        if isinstance(t, T.Named):
            return [t]
        if isinstance(t, T.Array):
            return contained(t.elem)
        if isinstance(t, T.Struct):
            return [n for f in t.fields for n in contained(f.type)]
        return []

    def visit(nt, path):
        if nt in path:
            cycle = path[path.index(nt):]
            first = min(cycle, key=lambda n: where[n].start_byte)
            i = cycle.index(first)
            cycle = cycle[i:] + cycle[:i]
            lines = [f"invalid recursive type {first.name}"]
            for n in cycle + [first]:
                row, col = c.src.pos(where[n].child_by_field_name("name"))
                lines.append(f"\tprog.go:{row}:{col}: {n.name}{' refers to' if len(lines) <= len(cycle) else ''}")
            c.err(where[first].child_by_field_name("name"), "\n".join(lines))
        if nt in done or nt not in where:
            return
        for inner in contained(nt._u):
            visit(inner, path + [nt])
        done.add(nt)

    done = set()
    for _, nt in shells:
        visit(nt, [])


def type_decl(c, node, local=False):
    shells = type_shells(c, node)
    resolve_shells(c, shells)
    return shells


def instantiate_type(c, node):
    base = node.child_by_field_name("type") or node.child_by_field_name("operand")
    name = c.text(base)
    o = c.scope.lookup(name)
    if o is None or o.kind != "type" or o.generic is None:
        c.err(node, f"{name} is not a generic type")
    g = o.generic
    targ_nodes = node.child_by_field_name("type_arguments")
    targ_nodes = targ_nodes.named_children if targ_nodes is not None else \
        [ch for i, ch in enumerate(node.children) if node.field_name_for_child(i) == "index" and ch.is_named]
    targs = tuple(c.resolve_type(n) for n in targ_nodes)
    if len(targs) != len(g.tparams):
        c.err(node, f"got {len(targs)} type arguments but {name} has {len(g.tparams)} type parameters")
    key = tuple(id(t) if isinstance(t, T.Named) else t for t in targs)
    if key in g.instances:
        return g.instances[key]
    nt = T.Named(f"{name}[{','.join(t.go(True) for t in targs)}]", "main")
    nt.targs = targs
    g.instances[key] = nt
    saved = c.scope
    c.scope = Scope(g.scope)
    for (pn, _), t in zip(g.tparams, targs):
        c.scope.names[pn] = TypeName(pn, t)
    nt._u = c.resolve_type(g.node.child_by_field_name("type")).u
    c.scope = saved
    # methods declared on the generic type get compiled for this instance
    for m in getattr(g, "methods", []):
        c.pending.append(("method", m, nt, targs, g))
    c.named_types.append(nt)
    if getattr(c, "methods_ready", False):
        drain_pending(c)
    return nt


# ---- constants ----

def const_decl(c, node):
    specs = [s for s in node.named_children if s.type == "const_spec"]
    prev_type, prev_vals = None, None
    for iota, s in enumerate(specs):
        names = _names(s)
        tnode = s.child_by_field_name("type")
        vnode = s.child_by_field_name("value")
        if vnode is not None:
            prev_vals = [v for v in vnode.named_children if v.type != "comment"]
            prev_type = tnode
        elif prev_vals is None:
            c.err(s, "missing init expr for const declaration")
        t = c.resolve_type(prev_type) if prev_type is not None else None
        saved = c.iota
        c.iota = iota
        if len(prev_vals) != len(names):
            c.err(s, "missing init expr for const declaration" if len(prev_vals) < len(names)
                  else "extra init expr")
        for n, vn in zip(names, prev_vals):
            op = c.expr(vn)
            if op.const is None:
                c.err(vn, f"{c.text(vn)} (value of type {op.type}) is not constant")
            v = op.const
            ty = op.type
            if t is not None:
                if not c.represent_ok(op, t) and not T.identical(op.type, t):
                    c.err(vn, f"cannot use {c.text(vn)} (untyped {str(op.type).replace('untyped ', '')} constant) as {t} value in constant declaration")
                v = c.represent(op, t, vn, "constant declaration")
                if T.is_float(t):
                    v = Fraction(v) if not isinstance(v, float) else v
                ty = t
            name = c.text(n)
            if name != "_":
                c.scope.names[name] = Const(name, ty, v)
        c.iota = saved


# ---- package level ----

def collect_decls(c, decls):
    from .compiler import FnCtx
    c.fn = FnCtx(None, T.Func((), ()), None, set())
    c.fn.pynames = set()
    c.methods_ready = False
    try:
        shells = []
        for d in decls:
            if d.type == "type_declaration":
                shells += type_shells(c, d)
        resolve_shells(c, shells)
        for d in decls:
            if d.type == "const_declaration":
                const_decl(c, d)
        funcs, methods = [], []
        for d in decls:
            if d.type == "function_declaration":
                name = c.text(d.child_by_field_name("name"))
                if d.child_by_field_name("type_parameters") is not None:
                    c.pkg.names[name] = FuncObj(name, None, None, _Generic(d, tparam_names(c, d), "func", c.pkg))
                    continue
                if name == "init" or name == "main":
                    sig, _, _ = c.signature(d)
                    if sig.params or sig.results:
                        c.err(d.child_by_field_name("name"), f"func {name} must have no arguments and no return values")
                sig, _, _ = c.signature(d)
                py = f"F_{name}"
                if name == "init":
                    py = c.uid("init")
                else:
                    if name in c.pkg.names and c.pkg.names[name].kind != "pkg":
                        c.err(d.child_by_field_name("name"), f"{name} redeclared in this block")
                    c.pkg.names[name] = FuncObj(name, sig, py)
                funcs.append((d, py, sig))
            elif d.type == "method_declaration":
                m = declare_method(c, d)
                if m is not None:
                    methods.append(m)
        init_lines = []
        global_var_specs(c, _init_order(c, decls), init_lines)
        c.methods_ready = True
    except CompileError as e:
        c.errors.append(e)
        return
    for d, py, sig in funcs:
        try:
            compile_function(c, d, py, sig, None)
        except CompileError as e:
            c.errors.append(e)
    for d, py, sig, recv_t, ptr in methods:
        try:
            compile_function(c, d, py, sig, (recv_t, ptr))
        except CompileError as e:
            c.errors.append(e)
    try:
        drain_pending(c)
    except CompileError as e:
        c.errors.append(e)
    if "main" not in c.pkg.names or c.pkg.names["main"].kind != "func":
        c.errors.append(CompileError(0, 0, "function main is undeclared in the main package"))
    if c.errors:
        return
    build_mtabs(c)
    glob = ", ".join(c.global_pys)
    body = [f"    global {glob}"] if glob else []
    body += init_lines or ["    pass"]
    inits = [py for d, py, sig in funcs if py.startswith("_init")]
    body += [f"    {py}()" for py in inits]
    c.out.append("def _package_init():\n" + "\n".join(body))


def _idents(c, node) -> set:
    out = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "identifier":
            out.add(c.text(n))
        stack.extend(n.named_children)
    return out


def _init_order(c, decls) -> list:
    """Package variables in Go's initialization order: a variable after those its initializer uses
    (directly or through the functions it calls), otherwise in declaration order."""
    specs = []
    for d in decls:
        if d.type != "var_declaration":
            continue
        for s in d.named_children:
            if s.type == "var_spec":
                specs.append(s)
            elif s.type == "var_spec_list":
                specs.extend(x for x in s.named_children if x.type == "var_spec")
    if len(specs) < 2:
        return specs
    funcs = {}
    for d in decls:
        if d.type == "function_declaration" and d.child_by_field_name("body") is not None:
            funcs[c.text(d.child_by_field_name("name"))] = _idents(c, d.child_by_field_name("body"))
    owner = {}
    for i, s in enumerate(specs):
        for n in _names(s):
            owner[c.text(n)] = i

    def deps(i):
        v = specs[i].child_by_field_name("value")
        todo = list(_idents(c, v)) if v is not None else []
        seen, out = set(), set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            if name in owner and owner[name] != i:
                out.add(owner[name])
            if name in funcs:
                todo.extend(funcs[name])
        return out

    dep = [deps(i) for i in range(len(specs))]
    done, order = set(), []
    while len(order) < len(specs):
        for i in range(len(specs)):
            if i not in done and dep[i] <= done:
                done.add(i)
                order.append(i)
                break
        else:  # a cycle: Go rejects it; keep the rest in source order
            order += [i for i in range(len(specs)) if i not in done]
            break
    return [specs[i] for i in order]


def global_var_specs(c, specs, init_lines):
    for s in specs:
        names = _names(s)
        tnode = s.child_by_field_name("type")
        t = c.resolve_type(tnode) if tnode is not None else None
        vnode = s.child_by_field_name("value")
        values = [v for v in vnode.named_children if v.type != "comment"] if vnode is not None else []
        saved = c.lines
        c.lines, c.ind = [], 1
        if values:
            codes, types = c.rhs(values, len(names), t, s, "variable declaration")
        else:
            codes, types = [c.zero_code(t) for _ in names], [t for _ in names]
        if len(codes) == 1 and len(names) > 1:
            tmp = c.uid("mv")
            c.emit(f"{tmp} = {codes[0]}")
            codes = [f"{tmp}[{i}]" for i in range(len(names))]
        for n, code, ty in zip(names, codes, types):
            name = c.text(n)
            if name == "_":
                c.emit(code)
                continue
            py = f"G_{name}"
            v = Var(name, t or ty, py, False, n, True)
            v.used = True
            c.pkg.names[name] = v
            c.global_pys.append(py)
            c.emit(f"{py} = {code}")
        init_lines.extend(c.lines)
        c.lines = saved


def declare_method(c, d):
    recv = d.child_by_field_name("receiver")
    params = [p for p in recv.named_children if p.type == "parameter_declaration"]
    if len(params) != 1:
        c.err(recv, "method has multiple receivers" if params else "method has no receiver")
    rt_node = params[0].child_by_field_name("type")
    ptr = False
    if rt_node.type == "pointer_type":
        ptr = True
        rt_node = rt_node.named_children[0]
    if rt_node.type == "generic_type":
        base = c.text(rt_node.child_by_field_name("type"))
        o = c.pkg.names.get(base)
        if o is None or o.generic is None:
            c.err(rt_node, f"undefined: {base}")
        g = o.generic
        if not hasattr(g, "methods"):
            g.methods = []
        g.methods.append(d)
        for nt in list(g.instances.values()):
            c.pending.append(("method", d, nt, nt.targs, g))
        return None
    name = c.text(rt_node)
    o = c.pkg.names.get(name) or c.universe.names.get(name)
    if o is None:
        c.err(rt_node, f"undefined: {name}")
    if o.kind != "type" or not isinstance(o.type, T.Named) or o.type.pkg != "main":
        c.err(params[0], f"cannot define new methods on non-local type {name}")
    nt = o.type
    mname = c.text(d.child_by_field_name("name"))
    if mname in nt.methods:
        c.err(d.child_by_field_name("name"), f"{name}.{mname} redeclared in this block")
    if isinstance(nt.u, T.Struct) and mname in nt.u.index:
        c.err(d.child_by_field_name("name"), f"field and method with the same name {mname}")
    sig, _, _ = c.signature(d)
    py = f"M_{name}_{mname}"
    nt.methods[mname] = T.Method(mname, sig, ptr, py)
    return d, py, sig, nt, ptr


def drain_pending(c):
    while c.pending:
        item = c.pending.pop()
        if item[0] == "method":
            _, d, nt, targs, g = item
            saved_scope = c.scope
            c.scope = Scope(g.scope)
            recv = d.child_by_field_name("receiver").named_children[0]
            rt_node = recv.child_by_field_name("type")
            ptr = rt_node.type == "pointer_type"
            gt = rt_node.named_children[0] if ptr else rt_node
            names = [c.text(x) for x in gt.child_by_field_name("type_arguments").named_children]
            for pn, t in zip(names, targs):
                c.scope.names[pn] = TypeName(pn, t)
            mname = c.text(d.child_by_field_name("name"))
            sig, _, _ = c.signature(d)
            py = c.uid(f"M_{mname}_")
            nt.methods[mname] = T.Method(mname, sig, ptr, py)
            inst_scope = c.scope
            c.scope = saved_scope
            compile_in_scope(c, d, py, sig, (nt, ptr), inst_scope)
        elif item[0] == "func":
            _, d, py, sig, scope = item
            compile_in_scope(c, d, py, sig, None, scope)


def compile_in_scope(c, d, py, sig, recv, scope):
    state = (c.lines, c.ind, c.fn, c.scope)
    c.lines, c.ind = [], 0
    c.scope = scope
    try:
        compile_function(c, d, py, sig, recv)
    finally:
        c.lines, c.ind, c.fn, c.scope = state


# ---- functions ----

def scan_boxed(c, body) -> set:
    """Names whose address is taken (&x) or that a func literal uses: they live in boxes."""
    out = set()
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type == "unary_expression":
            opn = n.child_by_field_name("operator")
            operand = n.child_by_field_name("operand")
            if opn is not None and c.text(opn) == "&":
                while operand.type == "parenthesized_expression":
                    operand = operand.named_children[0]
                if operand.type == "identifier":
                    out.add(c.text(operand))
        if n.type == "func_literal":
            inner = set()
            st = [n]
            while st:
                m = st.pop()
                if m.type == "identifier":
                    inner.add(c.text(m))
                st.extend(m.named_children)
            out |= inner
            continue
        stack.extend(n.named_children)
    return out


def _used_labels(c, body) -> set:
    out = set()
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type in ("goto_statement", "break_statement", "continue_statement"):
            for ch in n.named_children:
                if ch.type == "label_name":
                    out.add(c.text(ch))
        stack.extend(n.named_children)
    return out


def _goto_labels(c, body) -> set:
    out = set()
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type == "goto_statement":
            out.add(c.text(n.named_children[0]))
        stack.extend(n.named_children)
    return out


def has_defer(node) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "defer_statement":
            return True
        if n.type == "func_literal":
            continue
        stack.extend(n.named_children)
    return False


def compile_function(c, d, py, sig, recv, literal=False):
    from .compiler import FnCtx
    body = d.child_by_field_name("body")
    if body is None:
        c.err(d, "missing function body")
    parent = c.fn
    boxed = scan_boxed(c, body)
    if literal and parent is not None:
        boxed |= parent.boxed
    fn = FnCtx(parent, sig, None, boxed)
    fn.pynames = set(parent.pynames) if (literal and parent is not None) else set()
    fn.has_defer = has_defer(body)
    fn.goto_labels = _goto_labels(c, body)
    fn.used_labels = _used_labels(c, body)
    c.fn = fn
    saved_scope = c.scope
    c.scope = Scope(c.scope, func=True)
    _, params, results = c.signature(d)
    pnames = []
    prologue = []
    if recv is not None:
        rnode = d.child_by_field_name("receiver").named_children[0]
        rn = _names(rnode)
        rt, ptr = recv
        rtype = T.pointer_to(rt) if ptr else rt
        rname = c.text(rn[0]) if rn else "_"
        params = [(rname if rname != "_" else None, rtype, rnode)] + list(params)
        if not ptr and isinstance(rt.u, T.Struct) and rname != "_" and _mutates_receiver(c, body, rname):
            prologue.append(("copy", rname))
    head = []
    for i, (name, t, node) in enumerate(params):
        if name is None or name == "_":
            p = f"_p{i}"
            fn.pynames.add(p)
            pnames.append(p)
            continue
        v = c.declare_var(name, t, node)
        v.used = True
        pnames.append(v.py)
        if v.boxed:
            head.append(f"{v.py} = _Box({v.py})")
        for kind, rname in prologue:
            if rname == name:
                head.append(f"{v.py} = {v.py}._cp()")
    named = None
    if results and results[0][0] is not None:
        named = []
        for name, t in results:
            if name == "_":
                named.append(None)
                continue
            v = c.declare_var(name, t, d)
            v.used = True
            named.append(v)
            head.append((f"{v.py} = _Box({c.zero_code(t)})" if v.boxed else f"{v.py} = {c.zero_code(t)}"))
        fn.named_results = named
    defaults = ""
    if literal:
        caps = sorted({v.py for v in _captured(c, parent_scope=saved_scope, body=body)})
        defaults = "".join(f", {p}={p}" for p in caps)
        if not pnames and defaults:
            defaults = defaults[2:]
    sig_params = ", ".join(pnames)
    if literal and pnames:
        sig_params += defaults
    elif literal:
        sig_params = defaults
    out = [f"def {py}({sig_params}):"]
    if c.global_pys:
        out.append("    global " + ", ".join(c.global_pys))
    saved_lines, saved_ind = c.lines, c.ind
    c.lines, c.ind = [], 2 if fn.has_defer else 1
    for h in head:
        c.emit(h)
    c.block(body, new_scope=False)
    if sig.results and not terminates(c, body):
        end = body.end_point
        row, col = c.src.pos(body)
        erow = end[0] + 1
        if c.src.snippet:
            erow = c.src.line_map.get(erow, erow)
        e = CompileError(erow, end[1], "missing return")
        e.order = (end[0], end[1] - 1)
        raise e
    check_unused(c, fn)
    body_lines = c.lines
    c.lines, c.ind = saved_lines, saved_ind
    if fn.has_defer:
        ret = ""
        if named:
            vals = [f"{v.py}.v" if v.boxed else v.py for v in named if v is not None]
            ret = vals[0] if len(vals) == 1 else "(" + ", ".join(vals) + ",)"
        else:
            zs = [c.zero_code(t) for t in sig.results]
            ret = zs[0] if len(zs) == 1 else ("(" + ", ".join(zs) + ",)" if zs else "")
        out.append("    _df = []")
        out.append("    _live = True")
        out.append("    try:")
        out.extend(body_lines)
        out.append("    except BaseException as _e:")
        out.append("        _live = False")
        out.append("        _run_defers(_df, _e)")
        out.append(f"        return {ret}")
        out.append("    finally:")
        out.append("        if _live:")
        out.append("            _run_defers(_df, None)")
        if named:
            out.append(f"            return {ret}")
    else:
        out.extend(body_lines)
    c.scope = saved_scope
    c.fn = parent
    code = "\n".join(out)
    if literal:
        return code
    c.out.append(code)
    return None


def _mutates_receiver(c, body, name) -> bool:
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type in ("assignment_statement", "inc_statement", "dec_statement"):
            left = n.child_by_field_name("left") if n.type == "assignment_statement" else n
            for t in left.named_children if left is not None else []:
                root = t
                while root.type in ("selector_expression", "index_expression"):
                    root = root.child_by_field_name("operand")
                if root.type == "identifier" and c.text(root) == name and t is not root:
                    return True
        stack.extend(n.named_children)
    return False


def _captured(c, parent_scope, body):
    names = set()
    st = [body]
    while st:
        m = st.pop()
        if m.type == "identifier":
            names.add(c.text(m))
        st.extend(m.named_children)
    out = []
    for n in names:
        o = parent_scope.lookup(n)
        if o is not None and o.kind == "var" and not o.is_global:
            out.append(o)
    return out


def check_unused(c, fn):
    for v in fn.locals:
        if not v.used and v.node is not None:
            row, col = c.src.pos(v.node)
            e = CompileError(row, col, f"{v.name} declared but not used")
            e.order = tuple(v.node.start_point)
            c.errors.append(e)
            v.used = True


def terminates(c, node) -> bool:
    k = node.type
    if k == "block":
        stmts = c.stmts_of(node)
        return bool(stmts) and terminates(c, stmts[-1])
    if k == "return_statement" or k == "goto_statement":
        return True
    if k == "expression_statement":
        e = node.named_children[0]
        return e.type == "call_expression" and c.text(e.child_by_field_name("function")) == "panic"
    if k == "if_statement":
        alt = node.child_by_field_name("alternative")
        return alt is not None and terminates(c, node.child_by_field_name("consequence")) and terminates(c, alt)
    if k == "labeled_statement":
        inner = [x for x in node.named_children if x.type != "label_name"]
        return bool(inner) and terminates(c, inner[0])
    if k == "for_statement":
        for ch in node.named_children:
            if ch.type == "for_clause" and ch.child_by_field_name("condition") is not None:
                return False
            if ch.type == "range_clause":
                return False
            if ch.type not in ("block", "for_clause", "comment"):
                return False
        return not _has_break(c, node.child_by_field_name("body"), top=True)
    if k in ("expression_switch_statement", "type_switch_statement", "select_statement"):
        cases = [x for x in node.named_children if x.type in ("expression_case", "default_case", "type_case",
                                                               "communication_case")]
        if k != "select_statement" and not any(x.type == "default_case" for x in cases):
            return False
        for cs in cases:
            stmts = c.case_stmts(cs)
            if not stmts:
                return False
            if stmts[-1].type == "fallthrough_statement":
                continue
            if not terminates(c, stmts[-1]) or any(_has_break(c, s, top=True) for s in stmts):
                return False
        return True
    if k == "block":
        return False
    return False


def _has_break(c, node, top) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "break_statement":
            if not n.named_children:
                return True
            return True
        if n.type in ("for_statement", "expression_switch_statement", "type_switch_statement",
                      "select_statement", "func_literal"):
            # an unlabelled break inside belongs to the inner statement
            st = [n]
            while st:
                m = st.pop()
                if m.type == "break_statement" and m.named_children:
                    return True
                st.extend(m.named_children)
            continue
        stack.extend(n.named_children)
    return False


def compile_func_literal(c, node):
    sig, _, _ = c.signature(node)
    py = c.uid("fl")
    c.fn.pynames.add(py)
    code = compile_function(c, node, py, sig, None, literal=True)
    for line in code.split("\n"):
        c.emit(line)
    return Op(py, sig, kind="value")


# ---- generics ----

def instantiate_func(c, fobj, targs, node) -> Op:
    g = fobj.generic
    if len(targs) != len(g.tparams):
        c.err(node, f"got {len(targs)} type arguments but {fobj.name} has {len(g.tparams)} type parameters")
    key = tuple(id(t) if isinstance(t, T.Named) else t for t in targs)
    inst = g.instances.get(key)
    if inst is None:
        scope = Scope(g.scope)
        for (pn, cons), t in zip(g.tparams, targs):
            scope.names[pn] = TypeName(pn, t)
        saved = c.scope
        c.scope = scope
        sig, _, _ = c.signature(g.node)
        c.scope = saved
        for (pn, cons), t in zip(g.tparams, targs):
            check_constraint(c, cons, t, node, scope)
        py = c.uid(f"F_{fobj.name}_")
        inst = (py, sig)
        g.instances[key] = inst
        c.pending.append(("func", g.node, py, sig, scope))
        if c.methods_ready and c.fn is not None and c.fn.parent is None and False:
            drain_pending(c)
    return Op(inst[0], inst[1], kind="value")


def check_constraint(c, cons, t, node, scope):
    if cons is None:
        return
    saved = c.scope
    c.scope = scope
    try:
        ct = c.resolve_type(cons)
    finally:
        c.scope = saved
    iface = ct.u if isinstance(ct.u, T.Interface) else None
    if iface is None:
        if not T.identical(ct, t):
            c.err(node, f"{t} does not satisfy {ct}")
        return
    terms = _type_set(iface)
    if terms is not None:
        ok = False
        for tilde, term in terms:
            if tilde == "comparable":
                ok = ok or t.comparable
                continue
            if T.identical(term, t) or (T.identical(term, t.u)):
                ok = True
        if not ok:
            where = node.child_by_field_name("arguments") if node.type == "call_expression" else node
            ctext = c.text(cons)
            union = " | ".join(("~" if tl is True else "") + str(term) for tl, term in terms if tl != "comparable")
            shown = ctext.replace(" ", "") if "|" in ctext else ctext
            c.err(where, f"{t} does not implement {shown} ({t} missing in {union})")
    missing = c.implements(t, iface) if iface.all_methods() else None
    if missing is not None:
        c.err(node, f"{t} does not satisfy {c.text(cons)} (missing method {missing})")


def _type_set(iface):
    terms = list(iface.union) if iface.union else None
    for e in iface.embeds:
        if isinstance(e.u, T.Interface) and e.u.union:
            terms = (terms or []) + list(_type_set(e.u) or [])
    return terms


def infer_and_instantiate(c, fobj, args, node, spread=False) -> Op:
    g = fobj.generic
    pnames = [p for p, _ in g.tparams]
    bound = {}
    # parameter type nodes, in order
    pl = g.node.child_by_field_name("parameters")
    ptypes = []
    for p in pl.named_children:
        if p.type not in ("parameter_declaration", "variadic_parameter_declaration"):
            continue
        tn = p.child_by_field_name("type")
        k = max(1, len(_names(p)))
        ptypes.extend([(tn, p.type == "variadic_parameter_declaration")] * k)
    for i, a in enumerate(args):
        if i >= len(ptypes) and not (ptypes and ptypes[-1][1]):
            break
        tn, variadic = ptypes[i] if i < len(ptypes) else ptypes[-1]
        op = c.expr(a)
        if op.type is None or op.kind != "value" and op.kind != "nil":
            continue
        at = op.type
        if T.is_untyped(at):
            continue
        if variadic and spread and i == len(args) - 1:
            if not isinstance(at.u, T.Slice):
                continue
            at = at.u.elem
        _unify(c, tn, at, bound, pnames)
    for i, a in enumerate(args):
        if i < len(ptypes) or (ptypes and ptypes[-1][1]):
            tn, _ = ptypes[min(i, len(ptypes) - 1)]
            if tn.type == "type_identifier" and c.text(tn) in pnames and c.text(tn) not in bound:
                op = c.expr(a)
                if op.type is not None and T.is_untyped(op.type):
                    bound[c.text(tn)] = T.default_type(op.type)
    # core types: a parameter constrained by ~map[K]V (or ~[]E...) tells K and V once it is known
    for _ in range(2):
        for pn, cons in g.tparams:
            if pn not in bound or cons is None:
                continue
            inner = cons
            while inner.type in ("type_constraint", "type_elem", "negated_type") and len(inner.named_children) == 1:
                inner = inner.named_children[0]
            if inner.type in ("map_type", "slice_type", "array_type", "pointer_type", "channel_type",
                              "function_type", "generic_type"):
                _unify(c, inner, bound[pn], bound, pnames)
    missing = [p for p in pnames if p not in bound]
    if missing:
        c.err(node, f"in call to {fobj.name}, cannot infer {missing[0]}")
    return instantiate_func(c, fobj, [bound[p] for p in pnames], node)


def _unify(c, tn, at, bound, pnames):
    k = tn.type
    if k == "type_identifier":
        name = c.text(tn)
        if name in pnames and name not in bound:
            bound[name] = at
        return
    u = at.u
    if k == "slice_type" and isinstance(u, T.Slice):
        _unify(c, tn.child_by_field_name("element"), u.elem, bound, pnames)
    elif k == "array_type" and isinstance(u, T.Array):
        _unify(c, tn.child_by_field_name("element"), u.elem, bound, pnames)
    elif k == "map_type" and isinstance(u, T.Map):
        _unify(c, tn.child_by_field_name("key"), u.key, bound, pnames)
        _unify(c, tn.child_by_field_name("value"), u.elem, bound, pnames)
    elif k == "pointer_type" and isinstance(u, T.Pointer):
        _unify(c, tn.named_children[0], u.elem, bound, pnames)
    elif k == "channel_type" and isinstance(u, T.Chan):
        _unify(c, tn.child_by_field_name("value"), u.elem, bound, pnames)
    elif k == "function_type" and isinstance(u, T.Func):
        pl = tn.child_by_field_name("parameters")
        ps = [p for p in pl.named_children if p.type in ("parameter_declaration",
                                                          "variadic_parameter_declaration")] if pl else []
        for p, pt in zip(ps, u.params):
            _unify(c, p.child_by_field_name("type"), pt, bound, pnames)
        r = tn.child_by_field_name("result")
        if r is not None and u.results:
            if r.type == "parameter_list":
                rs = [p for p in r.named_children if p.type == "parameter_declaration"]
                for p, rt in zip(rs, u.results):
                    _unify(c, p.child_by_field_name("type"), rt, bound, pnames)
            else:
                _unify(c, r, u.results[0], bound, pnames)
    elif k == "generic_type" and isinstance(at, T.Named) and at.targs:
        args = tn.child_by_field_name("type_arguments").named_children
        for a, t in zip(args, at.targs):
            _unify(c, a.named_children[0] if a.type == "type_elem" else a, t, bound, pnames)
    elif k == "type_elem":
        _unify(c, tn.named_children[0], at, bound, pnames)


# ---- method tables ----

def build_mtabs(c):
    lines = []
    for nt in c.named_types:
        if isinstance(nt.u, T.Interface):
            continue
        ptr = T.pointer_to(nt)
        names = set(nt.methods)
        for name in _promoted(c, nt):
            names.add(name)
        for name in sorted(names):
            found = c.find_method(nt, name)
            foundp = c.find_method(ptr, name)
            if foundp is not None:
                lines.append(f"{c.tref(ptr)}.mtab[{name!r}] = {_wrapper(c, foundp, ptr)}")
            if found is not None and not found[0].ptr:
                lines.append(f"{c.tref(nt)}.mtab[{name!r}] = {_wrapper(c, found, nt)}")
            elif found is not None and found[1] and found[2] is True and any(
                    isinstance(f.type, T.Pointer) for f in found[1]):
                lines.append(f"{c.tref(nt)}.mtab[{name!r}] = {_wrapper(c, found, nt)}")
    if lines:
        c.out.append("\n".join(lines))


def _promoted(c, nt):
    out = set()
    st = nt.u
    if not isinstance(st, T.Struct):
        return out
    for f in st.fields:
        if f.embedded:
            base = f.type.elem if isinstance(f.type, T.Pointer) else f.type
            if isinstance(base, T.Named):
                out |= set(base.methods)
                out |= _promoted(c, base)
                if isinstance(base.u, T.Interface):
                    out |= set(base.u.all_methods())
    return out


def _wrapper(c, found, t) -> str:
    m, path, _ = found
    if not path:
        if not m.ptr and isinstance(t, T.Pointer) and not isinstance(t.elem.u, (T.Struct, T.Array)):
            return f"(lambda r, *a: {m.pyname}(r.v, *a))"
        return m.pyname
    code = "r"
    for f in path:
        code += "." + c.field_py(f.name)
    if m.pyname is None:
        return f"(lambda r, *a: getattr({code}, {m.name!r})(*a))"
    if m.pyname == "_ICALL":
        return f"(lambda r, *a: _icall({code}, {m.name!r}, *a))"
    return f"(lambda r, *a: {m.pyname}({code}, *a))"
