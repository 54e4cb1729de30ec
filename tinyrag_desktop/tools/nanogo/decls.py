"""Package-level declarations: types, constants, variables in initialization order, methods and method tables."""

from __future__ import annotations

from fractions import Fraction

from . import types as T
from .cfunc import compile_function, declared_names
from .cgeneric import Generic, drain_pending, tparam_names
from .errors import CompileError
from .scope import Const, FuncObj, TypeName, Var


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
            c.scope.names[name] = TypeName(name, None, Generic(s, tparam_names(c, s), "type", c.scope))
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



# ---- constants ----

def const_decl(c, node):
    specs = [s for s in node.named_children if s.type == "const_spec"]
    prev_type, prev_vals = None, None
    for iota, s in enumerate(specs):
        names = declared_names(s)
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
                    c.pkg.names[name] = FuncObj(name, None, None, Generic(d, tparam_names(c, d), "func", c.pkg))
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
        for n in declared_names(s):
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
        names = declared_names(s)
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
