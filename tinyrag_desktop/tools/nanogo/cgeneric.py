"""Generics: type parameters, instantiation of generic types and functions, inference of type arguments."""

from __future__ import annotations

from . import types as T
from .cfunc import compile_function, declared_names
from .scope import Op, Scope, TypeName


class Generic:
    """A generic type or function: its declaration, type parameters and the instances made of it so far."""

    __slots__ = ("node", "tparams", "instances", "kind", "scope", "methods")

    def __init__(self, node, tparams, kind, scope):
        self.node, self.tparams, self.instances, self.kind, self.scope = node, tparams, {}, kind, scope
        self.methods = []


def tparam_names(c, node):
    tpl = node.child_by_field_name("type_parameters")
    out = []
    if tpl is None:
        return out
    for d in tpl.named_children:
        if d.type != "type_parameter_declaration":
            continue
        cons = d.child_by_field_name("type")
        for n in declared_names(d):
            out.append((c.text(n), cons))
    return out


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
        k = max(1, len(declared_names(p)))
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


# ---- instances, compiled once the package's declarations are known ----

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
