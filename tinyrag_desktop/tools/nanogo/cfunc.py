"""Function bodies: parameters and named results, defer, closures (func literals) and the "missing return" check."""

from __future__ import annotations

from . import types as T
from .errors import CompileError
from .scope import Op, Scope


def declared_names(node):
    """The names a spec, a parameter or a type parameter declares (`a, b int`): the children in its "name" field."""
    return [c for i, c in enumerate(node.children) if node.field_name_for_child(i) == "name" and c.is_named]


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
    """Check and emit one function; an error leaves the compiler's state as it was before it."""
    saved = c.fn, c.scope, c.lines, c.ind
    try:
        return _compile_function(c, d, py, sig, recv, literal)
    finally:
        c.fn, c.scope, c.lines, c.ind = saved


def _compile_function(c, d, py, sig, recv, literal):
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
        rn = declared_names(rnode)
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
        erow = c.src.user_row(end[0] + 1)
        e = CompileError(erow, end[1], "missing return")
        e.order = (end[0], end[1] - 1)
        c.errors.append(e)
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
        o = parent_scope.peek(n)
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
