"""Selectors, indexing, slicing, calls, builtins, conversions, composite literals and type assertions."""

from __future__ import annotations

from fractions import Fraction

from . import types as T
from .cexpr import describe
from .goapi import missing_member
from .scope import Op, Var

_SIMPLE_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")


def simple(code: str) -> bool:
    return bool(code) and all(c in _SIMPLE_CHARS for c in code) and not code[0].isdigit() or code.isdigit()


def esize(t) -> int:
    """Go's size of a value of type t in bytes (for append's capacity growth)."""
    u = t.u
    if isinstance(u, T.Basic):
        if u.kind == "string":
            return 16
        if u.kind == "bool":
            return 1
        if u.kind == "complex":
            return u.size // 8
        return (u.size or 64) // 8
    if isinstance(u, T.Slice):
        return 24
    if isinstance(u, T.Interface):
        return 16
    if isinstance(u, T.Array):
        return max(u.n, 0) * esize(u.elem)
    if isinstance(u, T.Struct):
        size, align = 0, 1
        for f in u.fields:
            s = esize(f.type)
            a = min(8, s) if s else 1
            if isinstance(f.type.u, (T.Struct, T.Array)):
                a = 8 if s >= 8 else max(1, a)
            align = max(align, a)
            size = -(-size // a) * a + s
        return -(-size // align) * align if size else 0
    return 8


class CallMixin:
    # ---- fields and methods ----
    def find_field(self, t, name):
        """[(struct type, field)] path to field `name` (through embedded fields), or None."""
        frontier = [(t, [])]
        seen = set()
        while frontier:
            found, nxt = [], []
            for ty, path in frontier:
                base = ty.u.elem if isinstance(ty.u, T.Pointer) else ty
                st = base.u
                if not isinstance(st, T.Struct) or id(st) in seen:
                    continue
                seen.add(id(st))
                for f in st.fields:
                    if f.name == name:
                        found.append(path + [(st, f)])
                    elif f.embedded:
                        nxt.append((f.type, path + [(st, f)]))
            if found:
                return found[0]
            frontier = nxt
        return None

    def find_method(self, t, name):
        """(Method, embedding path, pointer receiver allowed) for method `name` of t, or None."""
        ptr = isinstance(t, T.Pointer) or isinstance(t.u, T.Pointer) and not isinstance(t, T.Named)
        base = t.u.elem if (isinstance(t, T.Pointer) or (isinstance(t.u, T.Pointer) and not isinstance(t, T.Named))) else t
        frontier = [(base, [], ptr)]
        seen = set()
        while frontier:
            nxt = []
            for ty, path, p in frontier:
                if id(ty) in seen:
                    continue
                seen.add(id(ty))
                if isinstance(ty, T.Named) and name in ty.methods:
                    return ty.methods[name], path, p
                if getattr(ty, "sigs", None) and name in ty.sigs:
                    return T.Method(name, ty.sigs[name], True, None), path, p
                if path and isinstance(ty.u, T.Interface) and name in ty.u.all_methods():
                    return T.Method(name, ty.u.all_methods()[name], False, "_ICALL"), path, p
                st = ty.u
                if isinstance(st, T.Struct):
                    for f in st.fields:
                        if f.embedded:
                            ft = f.type
                            if isinstance(ft, T.Pointer):
                                nxt.append((ft.elem, path + [f], True))
                            else:
                                nxt.append((ft, path + [f], p or True))
            frontier = nxt
        return None

    def x_selector_expression(self, node):
        xn = node.child_by_field_name("operand")
        return self.selector(self.expr(xn), xn, node.child_by_field_name("field"), node)

    def x_qualified_type(self, node):
        """`a.b` that the grammar read as a type name (inside brackets): a selector after all."""
        pn = node.child_by_field_name("package")
        x = self.x_identifier(pn)
        x.node = pn
        return self.selector(x, pn, node.child_by_field_name("name"), node)

    def x_type_elem(self, node):
        return self.expr(node.named_children[0])

    def x_generic_type(self, node):
        """`f[T]` or `a[i]` that the grammar read as a generic type."""
        base = self.expr(node.child_by_field_name("type"))
        args = [a.named_children[0] if a.type == "type_elem" else a
                for a in node.child_by_field_name("type_arguments").named_children]
        return self.index_with(base, args, node)

    def x_type_instantiation_expression(self, node):
        base_node = node.child_by_field_name("type")
        base = self.expr(base_node)
        args = [c for c in node.named_children if c.id != base_node.id]
        args = [a.named_children[0] if a.type == "type_elem" else a for a in args]
        return self.index_with(base, args, node)

    def selector(self, x, xn, field_node, node):
        name = self.text(field_node)
        if x.kind == "pkg":
            return self.pkg_member(x.obj, name, node)
        if x.kind == "type":
            return self.method_expr(x.type, name, node)
        if x.kind != "value":
            self.err(node, f"{self.text(xn)}.{name} undefined")
        if x.const is not None:
            ct = T.default_type(x.type)
            x = Op(self.const_code(x.const, ct), ct, node=x.node)
        t = x.type
        if isinstance(t.u, T.Interface) and not isinstance(t, T.TypeParam):
            ms = t.u.all_methods()
            if name in ms:
                return Op(f"_method({x.code}, {name!r})", ms[name], kind="value")
            self.err(node.child_by_field_name("field"),
                     f"{self.text(node)} undefined (type {t} has no field or method {name})")
        path = self.find_field(t, name)
        meth = self.find_method(t, name)
        if path is not None and (meth is None or len(path) <= len(meth[1]) + 1):
            code = x.code
            for st, f in path:
                code = f"{code}.{self.field_py(f.name)}"
            ft = path[-1][1].type
            return Op(code, ft, addr=True)
        if meth is not None:
            m, mpath, _ = meth
            if m.ptr and not isinstance(t.u, T.Pointer) and not mpath and (
                    not x.addr or xn.type in ("call_expression", "composite_literal") or
                    xn.type == "index_expression" and isinstance(self.expr(xn.child_by_field_name("operand")).type.u, T.Map)):
                self.err(field_node, f"cannot call pointer method {name} on {t}")
            if m.pyname == "_ICALL":  # promoted from an embedded interface
                code = x.code + "".join("." + self.field_py(f.name) for f in mpath)
                return Op(f"_method({code}, {name!r})", m.sig, kind="value",
                          obj=("method", "_icall", f"{code}, {name!r}"))
            recv = self.recv_code(x, mpath, m)
            if m.pyname is None:  # a sync type's method
                return Op(f"{recv}.{name}", m.sig, kind="value")
            bound = recv
            base_t = x.type.u.elem if isinstance(x.type.u, T.Pointer) else x.type
            if not m.ptr and isinstance(base_t.u, T.Struct) and not mpath:
                bound = f"{recv}._cp()"
            return Op(f"_partial({m.pyname}, {bound})", m.sig, kind="value", obj=("method", m.pyname, recv))
        self.err(node.child_by_field_name("field"),
                 f"{self.text(node)} undefined (type {t} has no field or method {name})")

    def recv_code(self, x: Op, path, m) -> str:
        code = x.code
        t = x.type
        for f in path:
            code = f"{code}.{self.field_py(f.name)}"
            t = f.type
        target_ptr = isinstance(t, T.Pointer) or (isinstance(t.u, T.Pointer) and not isinstance(t, T.Named))
        base = t.u.elem if target_ptr else t
        if isinstance(base.u, (T.Struct, T.Array)) or m.pyname is None:
            return code
        if m.ptr:
            if target_ptr:
                return code
            if not path and isinstance(x.obj, Var) and x.obj.boxed:
                return x.obj.py
            if code.endswith(".v"):
                return code[:-2]
            return f"_Box({code})"
        if target_ptr:
            return f"{code}.v"
        return code

    def method_expr(self, t, name, node):
        meth = self.find_method(t, name)
        if meth is None:
            self.err(node, f"{t}.{name} undefined (type {t} has no method {name})")
        m = meth[0]
        return Op(m.pyname, T.Func((t,) + m.sig.params, m.sig.results, m.sig.variadic))

    def pkg_member(self, pkg, name, node):
        from .stdlib import PACKAGES
        p = PACKAGES[pkg.path]
        if name in p.funcs:
            sig, py = p.funcs[name]
            return Op(py, sig, kind="value", obj=("pkgfunc", pkg.path, name))
        if name in p.consts:
            t, v = p.consts[name]
            return Op(None, t, v)
        if name in p.types:
            return Op(None, p.types[name], kind="type")
        if name in p.vars:
            t, py = p.vars[name]
            return Op(py, t)
        self.err(node.child_by_field_name("field"), missing_member(pkg.path, pkg.name, name))

    # ---- indexing ----
    def x_index_expression(self, node):
        xn = node.child_by_field_name("operand")
        x = self.expr(xn)
        idx_nodes = [c for i, c in enumerate(node.children) if node.field_name_for_child(i) == "index" and c.is_named]
        return self.index_with(x, idx_nodes, node)

    def index_with(self, x, idx_nodes, node):
        if x.kind == "generic":
            from .cgeneric import instantiate_func
            targs = [self.resolve_type(n) for n in idx_nodes]
            return instantiate_func(self, x.obj, targs, node)
        if x.kind == "type" and getattr(x.obj, "generic", None) is not None:
            return Op(None, self.instantiate_type(node), kind="type")
        if len(idx_nodes) > 1:
            x = self.index_with(x, idx_nodes[:1], node)
            x.node = node
            return self.index_with(x, idx_nodes[1:], node)
        t = x.type
        if t is None:  # `panic(err)[0]`
            self.err(node, f"{self.text(x.node or node)} (no value) used as value")
        u = t.u
        if isinstance(u, T.Pointer) and isinstance(u.elem.u, T.Array):
            u = u.elem.u
        inode = idx_nodes[0]
        if isinstance(u, T.Map):
            k = self.map_key(self.value(inode, u.key, "map index"), u.key)
            if self.immutable(u.elem):
                return Op(f"{x.code}.get({k}, {self.zero_code(u.elem)})", u.elem, kind="value")
            return Op(f"_mget({x.code}, {k}, {self.zero_factory(u.elem)})", u.elem, kind="value",
                      addr=isinstance(u.elem.u, (T.Struct, T.Array)))
        i = self.expr(inode)
        if i.kind not in ("value", "nil"):  # `s[int]`
            self.value(inode, T.INT, "index")
        if not (T.is_integer(i.type) or i.const is not None and self.represent_ok(i, T.INT)):
            self.err(inode, f"invalid argument: index {describe(i, self)} must be integer")
        if i.const is not None:
            if isinstance(i.const, Fraction) and i.const.denominator != 1:
                self.err(inode, f"invalid argument: index {describe(i, self)} must be integer")
            if i.const < 0:
                self.err(inode, f"invalid argument: index {self.text(inode)} (constant of type int) must not be negative")
        ic = self.operand_code(i, T.INT if i.const is not None else i.type)
        if isinstance(u, T.Basic) and u.kind == "string":
            if x.const is not None and i.const is not None:
                b = x.const.encode("utf-8", "surrogateescape")
                if i.const >= len(b):
                    self.err(inode, f"invalid argument: index {i.const} out of bounds [0:{len(b)}]")
                return Op(None, T.BYTE, b[i.const])
            return Op(f"_sidx({self.operand_code(x, T.STRING)}, {ic})", T.BYTE)
        if isinstance(u, T.Array):
            if i.const is not None:
                if i.const >= u.n:
                    self.err(inode, f"invalid argument: index {i.const} out of bounds [0:{u.n}]")
                return Op(f"{x.code}[{ic}]", u.elem, addr=True)
            if simple(ic):
                return Op(f"({x.code}[{ic}] if 0 <= {ic} < {u.n} else _oob({ic}, {u.n}))", u.elem, addr=True)
            return Op(f"_aget({x.code}, {ic})", u.elem, addr=True)
        if isinstance(u, T.Slice):
            s = x.code
            if simple(s) and simple(ic):
                return Op(f"({s}.a[{s}.o + {ic}] if 0 <= {ic} < {s}.n else _oob({ic}, {s}.n))", u.elem, addr=True)
            return Op(f"_sget({s}, {ic})", u.elem, addr=True)
        self.err(node, f"invalid operation: cannot index {describe(x, self)}")

    def literal_index(self, kn, items) -> int:
        """The index in `[]T{2: x}`: a constant, non-negative integer not given before."""
        k = self.expr(kn)
        if k.kind not in ("value", "nil"):
            self.value(kn, T.INT, "index")
        if not (T.is_integer(k.type) or k.const is not None and self.represent_ok(k, T.INT)):
            self.err(kn, f"invalid argument: index {describe(k, self)} must be integer")
        if k.const is None:
            self.err(kn, f"index {self.text(kn)} must be integer constant")
        if k.const < 0:
            self.err(kn, f"invalid argument: index {self.text(kn)} (constant of type int) must not be negative")
        i = int(k.const)
        if i in items:
            self.err(kn, f"duplicate index {i} in array or slice literal")
        return i

    def map_key(self, code: str, kt) -> str:
        u = kt.u
        if isinstance(u, T.Pointer) and isinstance(u.elem.u, (T.Struct, T.Array)):
            return f"_Ref({code})"
        if isinstance(u, T.Array):
            return f"_tuple_key({code})"
        return code

    def map_key_out(self, code: str, kt) -> str:
        u = kt.u
        if isinstance(u, T.Pointer) and isinstance(u.elem.u, (T.Struct, T.Array)):
            return f"{code}.o"
        if isinstance(u, T.Array):
            return f"list({code})"
        return code

    def x_slice_expression(self, node):
        x = self.expr(node.child_by_field_name("operand"))
        parts = []
        consts = []
        for f in ("start", "end", "capacity"):
            n = node.child_by_field_name(f)
            if n is not None:
                op = self.expr(n)
                if op.const is not None and not isinstance(op.const, (str, bool)):
                    if op.const < 0:
                        self.err(n, f"invalid argument: index {self.short(n)} (constant of type int) must not be negative")
                    consts.append((op.const, n))
            parts.append(self.value(n, T.INT) if n is not None else None)
        for (v1, n1), (v2, n2) in zip(consts, consts[1:]):
            if v2 < v1:
                self.err(n2, f"invalid slice indices: {v2} < {v1}")
        lo = parts[0] or "0"
        hi = parts[1] or "None"
        mx = parts[2] or "None"
        u = x.type.u
        if isinstance(u, T.Pointer) and isinstance(u.elem.u, T.Array):
            u = u.elem.u
        if isinstance(u, T.Basic) and u.kind == "string":
            t = x.type if not T.is_untyped(x.type) else T.STRING
            return Op(f"_ssub({self.operand_code(x, T.STRING)}, {lo}, {hi})", t)
        if isinstance(u, T.Slice):
            return Op(f"_reslice({x.code}, {lo}, {hi}, {mx}, {self.zero_factory(u.elem)})", x.type)
        if isinstance(u, T.Array):
            return Op(f"_slice_array({x.code}, {lo}, {hi}, {mx})", T.Slice(u.elem))
        self.err(node, f"cannot slice {describe(x, self)}")

    # ---- type assertions ----
    def x_type_assertion_expression(self, node):
        x = self.expr(node.child_by_field_name("operand"))
        if not isinstance(x.type.u, T.Interface):
            self.err(node, f"invalid operation: {self.text(node.child_by_field_name('operand'))} "
                     f"({'variable' if x.addr else 'value'} of type {x.type}) is not an interface")
        t = self.resolve_type(node.child_by_field_name("type"))
        return Op(self.assert_code(x, t, False), t, addr=isinstance(t.u, (T.Struct, T.Array)))

    def assert_code(self, x: Op, t, comma_ok: bool) -> str:
        if not isinstance(x.type.u, T.Interface):
            self.err(x.node, f"invalid operation: {self.text(x.node)} ({'variable' if x.addr else 'value'} "
                     f"of type {x.type}) is not an interface")
        iname = x.type.go(True) if isinstance(x.type, T.Named) else "interface {}" if not x.type.u.all_methods() else x.type.go(True)
        if isinstance(t.u, T.Interface):
            ms = tuple(sorted(t.u.all_methods()))
            if comma_ok:
                return f"_assert_iface2({x.code}, {ms!r})"
            return f"_assert_iface({x.code}, {ms!r}, {t.go(True)!r}, {iname!r})"
        if comma_ok:
            cp = ", True" if isinstance(t.u, (T.Struct, T.Array)) else ""
            return f"_assert_type2({x.code}, {self.tref(t)}, {self.zero_factory(t)}{cp})"
        return f"_assert_type({x.code}, {self.tref(t)}, {iname!r})"

    # ---- composite literals ----
    def x_composite_literal(self, node, hint=None):
        tn = node.child_by_field_name("type")
        t = self.resolve_type(tn)
        body = node.child_by_field_name("body")
        if isinstance(t, T.Array) and t.n == -1:
            n = self.literal_len(body)
            t = T.Array(n, t.elem)
        return Op(self.literal(body, t), t)

    def literal_len(self, body) -> int:
        n = i = 0
        for el in body.named_children:
            if el.type == "keyed_element":
                k = self.expr(el.named_children[0].named_children[0])
                i = int(k.const)
            i += 1
            n = max(n, i)
        return n

    def elem_value(self, el, t, context="array or slice literal") -> str:
        """An element of a composite literal: nested literals may omit their type."""
        inner = el.named_children[0] if el.type == "literal_element" else el
        if inner.type == "literal_value":
            if isinstance(t.u, T.Pointer):
                return self.literal(inner, t.u.elem)
            return self.literal(inner, t)
        return self.value(inner, t, context)

    def literal(self, body, t) -> str:
        u = t.u
        elems = [c for c in body.named_children if c.type in ("literal_element", "keyed_element")]
        if isinstance(u, T.Struct):
            if u.cls is None:
                self.err(body, f"invalid composite literal type {t}")
            vals = [None] * len(u.fields)
            if elems and elems[0].type == "keyed_element":
                for el in elems:
                    kn = el.named_children[0].named_children[0]
                    name = self.text(kn)
                    if name not in u.index:
                        self.err(kn, f"unknown field '{name}' in struct literal of type {t}")
                    i = u.index[name]
                    vals[i] = self.elem_value(el.named_children[1], u.fields[i].type, "struct literal")
            else:
                if elems and len(elems) > len(u.fields):
                    self.err(elems[len(u.fields)], f"too many values in {self.text(body.parent.child_by_field_name('type')) if body.parent is not None and body.parent.type == 'composite_literal' else t}{{…}}")
                if elems and len(elems) < len(u.fields):
                    self.err(body.children[-1], f"too few values in {self.text(body.parent.child_by_field_name('type')) if body.parent is not None and body.parent.type == 'composite_literal' else t}{{…}}")
                for i, el in enumerate(elems):
                    vals[i] = self.elem_value(el, u.fields[i].type, "struct literal")
            for i, f in enumerate(u.fields):
                if vals[i] is None:
                    vals[i] = self.zero_code(f.type)
            return f"{u.cls}({', '.join(vals)})"
        if isinstance(u, (T.Slice, T.Array)):
            items = {}
            i = 0
            for el in elems:
                if el.type == "keyed_element":
                    i = self.literal_index(el.named_children[0].named_children[0], items)
                    items[i] = self.elem_value(el.named_children[1], u.elem)
                else:
                    items[i] = self.elem_value(el, u.elem)
                i += 1
            n = max(items) + 1 if items else 0
            if isinstance(u, T.Array):
                if n > u.n:
                    self.err(elems[u.n] if len(elems) > u.n else body, f"index {u.n} is out of bounds (>= {u.n})")
                n = u.n
            codes = [items.get(j, self.zero_code(u.elem)) for j in range(n)]
            lst = "[" + ", ".join(codes) + "]"
            if isinstance(u, T.Array):
                return lst
            return f"_slice_of({lst})"
        if isinstance(u, T.Map):
            pairs = []
            for el in elems:
                if el.type != "keyed_element":
                    self.err(el, "missing key in map literal")
                k = self.elem_value(el.named_children[0], u.key, "map literal")
                v = self.elem_value(el.named_children[1], u.elem, "map literal")
                pairs.append(f"{self.map_key(k, u.key)}: {v}")
            return "{" + ", ".join(pairs) + "}"
        if isinstance(u, T.Pointer):
            return self.literal(body, u.elem)
        self.err(body, f"invalid composite literal type {t}")

    def x_literal_value(self, node, hint=None):
        if hint is None:
            self.err(node, "missing type in composite literal")
        return Op(self.literal(node, hint), hint)
