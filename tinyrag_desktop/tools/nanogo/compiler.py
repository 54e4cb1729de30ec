"""The compiler's driver: package-level declarations, types, and the Python module it emits."""

from __future__ import annotations

import keyword
from fractions import Fraction

from . import types as T
from .cassign import AssignMixin
from .cbuiltin import BuiltinMixin
from .ccall import CallMixin
from .cconvert import ConvertMixin
from .cexpr import ExprMixin
from .cflow import FlowMixin
from .coperator import OperatorMixin
from .cstmt import StmtMixin
from .errors import CompileError
from .goapi import forbidden_import, missing_member
from .parse import ALLOWED_PATHS, Source, _used_packages, parse
from .scope import Const, FuncObj, PkgObj, Scope, TypeName, Var, universe
from .stdlib import PACKAGES


class _Abort(Exception):
    """Stops compiling one function after its first error."""


class FnCtx:
    """Per-function state: Python names in use, boxed names, results, loop targets."""

    def __init__(self, parent, sig, named_results, boxed):
        self.parent = parent
        self.sig = sig
        self.named_results = named_results  # list of Var or None
        self.boxed = boxed  # Go names captured by closures or whose address is taken
        self.targets = []  # break/continue targets, innermost last
        self.has_defer = False
        self.locals = []  # Var objects declared (for unused checks)
        self.py_loops = 0


class Compiler(ExprMixin, ConvertMixin, OperatorMixin, CallMixin, BuiltinMixin, StmtMixin, AssignMixin, FlowMixin):
    def __init__(self, src: Source):
        self.src = src
        self.universe = universe()
        self.pkg = Scope(self.universe)
        self.errors: list[CompileError] = []
        self.out: list[str] = []  # module-level code
        self.tyrefs: dict[int, str] = {}
        self.ns: dict = {}  # objects the generated code refers to
        self.counter = 0
        self.lines: list[str] = []
        self.ind = 0
        self.fn: FnCtx | None = None
        self.scope = self.pkg
        self.struct_n = 0
        self.pending = []  # generic instances to compile
        self.named_types: list[T.Named] = []
        self.global_pys: list[str] = []
        self.iota = None
        self.instances = {}

    # ---- errors ----
    def err(self, node, msg: str):
        row, col = self.src.pos(node)
        e = CompileError(row, col, msg)
        e.order = (node.start_point[0], node.start_point[1])
        raise e

    def err_internal(self, node, exc: Exception):
        """A Python error inside nanoGo's compiler, reported as a compile error where it happened (the
        exception chained for debugging), never as a Python traceback or message to the program's author."""
        row, col = self.src.pos(node)
        e = CompileError(row, col, "nanoGo could not check this code (a fault in nanoGo, not necessarily in "
                                   "the program); rewriting this statement differently may avoid it")
        e.internal = True
        e.order = (node.start_point[0], node.start_point[1])
        raise e from exc

    def text(self, node) -> str:
        return self.src.text_of(node)

    # ---- naming ----
    def uid(self, base: str = "t") -> str:
        self.counter += 1
        return f"_{base}{self.counter}"

    def tref(self, t: T.Type) -> str:
        """A Python name bound to the type object t in the generated module."""
        name = self.tyrefs.get(id(t))
        if name is None:
            name = f"_ty{len(self.tyrefs)}"
            self.tyrefs[id(t)] = name
            self.ns[name] = t
        return name

    def ref(self, obj, base="o") -> str:
        name = self.uid(base)
        self.ns[name] = obj
        return name

    @staticmethod
    def field_py(name: str) -> str:
        if keyword.iskeyword(name) or name.startswith("_"):
            return "f_" + name
        return name

    # ---- emission ----
    def emit(self, line: str) -> None:
        self.lines.append("    " * self.ind + line)

    # ---- types ----
    def resolve_type(self, node) -> T.Type:
        k = node.type
        if k == "type_identifier" or k == "identifier":
            name = self.text(node)
            o = self.scope.lookup(name)
            if o is None:
                self.err(node, f"undefined: {name}")
            if o.kind != "type":
                self.err(node, f"{name} is not a type")
            if o.generic is not None:
                tps = o.generic.tparams
                shown = ", ".join(f"{p} {self.text(c) if c is not None else 'any'}" for p, c in tps)
                self.err(node, f"cannot use generic type {name}[{shown}] without instantiation")
            return o.type
        if k == "qualified_type":
            pkg = self.text(node.child_by_field_name("package"))
            name = self.text(node.child_by_field_name("name"))
            p = self.scope.lookup(pkg)
            if p is None or p.kind != "pkg":
                self.err(node, f"undefined: {pkg}")
            t = PACKAGES[p.path].types.get(name)
            if t is None:
                self.err(node, missing_member(p.path, pkg, name))
            return t
        if k == "pointer_type":
            return T.pointer_to(self.resolve_type(node.named_children[0]))
        if k == "slice_type":
            return T.Slice(self.resolve_type(node.child_by_field_name("element")))
        if k == "array_type":
            ln = self.expr(node.child_by_field_name("length"))
            if ln.const is None or not isinstance(ln.const, int):
                self.err(node, "array length must be a constant integer")
            if ln.const < 0:
                self.err(node.child_by_field_name("length"), f"invalid array length {self.short(ln.node)} ({ln.type} constant)"
                         if T.is_untyped(ln.type) else f"invalid array length {self.short(ln.node)}")
            return T.Array(int(ln.const), self.resolve_type(node.child_by_field_name("element")))
        if k == "implicit_length_array_type":
            return T.Array(-1, self.resolve_type(node.child_by_field_name("element")))
        if k == "map_type":
            kn = node.child_by_field_name("key")
            kt = self.resolve_type(kn)
            if not kt.comparable and not isinstance(kt, T.TypeParam):
                self.err(kn, f"invalid map key type {kt}")
            return T.Map(kt, self.resolve_type(node.child_by_field_name("value")))
        if k == "channel_type":
            txt = self.text(node)
            d = "recv" if txt.startswith("<-") else "send" if txt.replace(" ", "").startswith("chan<-") else "both"
            return T.Chan(self.resolve_type(node.child_by_field_name("value")), d)
        if k == "function_type":
            return self.signature(node)[0]
        if k == "struct_type":
            return self.struct_type(node)
        if k == "interface_type":
            return self.interface_type(node)
        if k == "parenthesized_type":
            return self.resolve_type(node.named_children[0])
        if k == "generic_type":
            return self.instantiate_type(node)
        if k in ("type_elem", "type_constraint"):
            kids = node.named_children
            if len(kids) == 1:
                return self.resolve_type(kids[0])
            return T.Interface(union=[(False, self.resolve_type(c)) for c in kids])
        if k == "unary_expression" and self.text(node.child_by_field_name("operator")) == "*":
            return T.pointer_to(self.resolve_type(node.child_by_field_name("operand")))
        if k == "parenthesized_expression":
            return self.resolve_type(node.named_children[0])
        if k == "selector_expression":
            pkg = self.text(node.child_by_field_name("operand"))
            name = self.text(node.child_by_field_name("field"))
            p = self.scope.lookup(pkg)
            if p is not None and p.kind == "pkg" and name in PACKAGES[p.path].types:
                return PACKAGES[p.path].types[name]
            self.err(node, f"{self.text(node)} is not a type")
        if k == "index_expression" or k == "type_instantiation_expression":
            return self.instantiate_type(node)
        if k == "negated_type":
            return self.resolve_type(node.named_children[0])
        self.err(node, f"unsupported type syntax {k}")

    def struct_type(self, node) -> T.Struct:
        fields = []
        for fd in node.named_children[0].named_children if node.named_children else []:
            if fd.type != "field_declaration":
                continue
            tnode = fd.child_by_field_name("type")
            names = [c for i, c in enumerate(fd.children) if fd.field_name_for_child(i) == "name" and c.is_named]
            tag = fd.child_by_field_name("tag")
            tagtxt = self.text(tag) if tag is not None else ""
            if names:
                ft = self.resolve_type(tnode)
                for n in names:
                    fields.append(T.Field(self.text(n), ft, False, tagtxt))
            else:
                ft = self.resolve_type(tnode)
                if any(ch.type == "*" for ch in fd.children):
                    ft = T.pointer_to(ft)
                base = ft.elem if isinstance(ft, T.Pointer) else ft
                fields.append(T.Field(base.name if hasattr(base, "name") else str(base), ft, True, tagtxt))
        seen = set()
        for f in fields:
            if f.name in seen and f.name != "_":
                self.err(node, f"{f.name} redeclared")
            seen.add(f.name)
        st = T.Struct(fields)
        cache = self.__dict__.setdefault("struct_cache", {})
        same = cache.get(st)
        if same is not None:  # identical struct types share one class (anonymous structs compare equal)
            return same
        cache[st] = st
        self.struct_class(st)
        return st

    def struct_class(self, st: T.Struct) -> None:
        """Emit a Python class with slots for the struct type: zero value, copy, equality, hashing."""
        self.struct_n += 1
        cls = f"S{self.struct_n}"
        slots = [self.field_py(f.name) for f in st.fields]
        lines = [f"class {cls}:", f"    __slots__ = {tuple(slots)!r}"]
        if slots:
            lines.append(f"    def __init__(self, {', '.join(slots)}):")
            for s in slots:
                lines.append(f"        self.{s} = {s}")
        lines.append("    @staticmethod")
        lines.append(f"    def _z(): return {cls}({', '.join(self.zero_code_lazy(f.type) for f in st.fields)})")
        cps = [self.copy_code(f"self.{s}", f.type, True) for s, f in zip(slots, st.fields)]
        lines.append(f"    def _cp(self): return {cls}({', '.join(cps)})")
        lines.append("    def _set(self, o):")
        for s in slots:
            lines.append(f"        self.{s} = o.{s}")
        lines.append("        return self")
        eq = " and ".join(f"self.{s} == o.{s}" for s in slots) or "True"
        lines.append(f"    def __eq__(self, o): return type(o) is {cls} and {eq}")
        lines.append("    def __ne__(self, o): return not self.__eq__(o)")
        hs = ", ".join(f"_hk(self.{s})" for s in slots)
        lines.append(f"    def __hash__(self): return hash(({hs},))" if slots else "    def __hash__(self): return 0")
        self.out.append("\n".join(lines))
        st.cls = cls

    def instantiate_type(self, node):
        from .cgeneric import instantiate_type
        return instantiate_type(self, node)

    def zero_code_lazy(self, t) -> str:
        return self.zero_code(t)

    def interface_type(self, node) -> T.Interface:
        methods, embeds, union = {}, [], None
        for c in node.named_children:
            if c.type == "method_elem":
                sig, _, _ = self.signature(c)
                methods[self.text(c.child_by_field_name("name"))] = sig
            elif c.type == "type_elem":
                kids = c.named_children
                if len(kids) == 1 and kids[0].type != "negated_type":
                    t = self.resolve_type(kids[0])
                    if isinstance(t.u, T.Interface):
                        embeds.append(t)
                        continue
                union = (union or []) + [(k.type == "negated_type", self.resolve_type(k)) for k in kids]
        return T.Interface(methods, embeds, union)

    def signature(self, node, recv=None):
        """(Func type, [(name, type, node)] params, [(name, type)] results) of a function-like node."""
        params, variadic = [], False
        pl = node.child_by_field_name("parameters")
        self._all_or_none_named(pl)
        for p in pl.named_children if pl is not None else []:
            if p.type not in ("parameter_declaration", "variadic_parameter_declaration"):
                continue
            t = self.resolve_type(p.child_by_field_name("type"))
            if p.type == "variadic_parameter_declaration":
                t = T.Slice(t)
                variadic = True
            names = [c for i, c in enumerate(p.children) if p.field_name_for_child(i) == "name" and c.is_named]
            if names:
                for n in names:
                    params.append((self.text(n), t, n))
            else:
                params.append((None, t, p))
        results = []
        r = node.child_by_field_name("result")
        if r is not None:
            if r.type == "parameter_list":
                self._all_or_none_named(r)
                for p in r.named_children:
                    if p.type != "parameter_declaration":
                        continue
                    t = self.resolve_type(p.child_by_field_name("type"))
                    names = [c for i, c in enumerate(p.children) if p.field_name_for_child(i) == "name" and c.is_named]
                    if names:
                        for n in names:
                            results.append((self.text(n), t))
                    else:
                        results.append((None, t))
            else:
                results.append((None, self.resolve_type(r)))
        sig = T.Func([t for _, t, _ in params], [t for _, t in results], variadic)
        return sig, params, results

    def _all_or_none_named(self, plist) -> None:
        """`func f() (sum int, error)`: Go's parser wants every parameter named or none."""
        decls = [p for p in (plist.named_children if plist is not None else ())
                 if p.type in ("parameter_declaration", "variadic_parameter_declaration")]
        unnamed = [p for p in decls if p.child_by_field_name("name") is None]
        if unnamed and len(unnamed) < len(decls):
            self.err(unnamed[0], "syntax error: mixed named and unnamed parameters")

    # ---- zero values and copies ----
    def zero_code(self, t: T.Type) -> str:
        u = t.u
        if isinstance(u, T.Basic):
            return {"int": "0", "float": "0.0", "string": "''", "bool": "False", "complex": "0j"}.get(u.kind, "None")
        if isinstance(u, T.Slice):
            return "_Slice(None, 0, 0, 0)"
        if isinstance(u, T.Map):
            return "_NilMap()"
        if isinstance(u, T.Struct):
            return f"{u.cls}._z()"
        if isinstance(u, T.Array):
            z = self.zero_code(u.elem)
            if self.immutable(u.elem):
                return f"[{z}] * {u.n}"
            return f"[{z} for _ in range({u.n})]"
        return "None"

    def zero_factory(self, t: T.Type) -> str:
        """A zero value (immutable types) or a zero-argument callable making one."""
        if self.immutable(t):
            return self.zero_code(t)
        return f"(lambda: {self.zero_code(t)})"

    @staticmethod
    def immutable(t: T.Type) -> bool:
        u = t.u
        return not isinstance(u, (T.Struct, T.Array, T.Slice, T.Map))

    def copy_code(self, code: str, t: T.Type, addr: bool = True) -> str:
        if not addr:
            return code
        u = t.u
        if isinstance(u, T.Struct):
            return f"{code}._cp()"
        if isinstance(u, T.Array):
            if self.immutable(u.elem):
                return f"list({code})"
            return f"[{self.copy_code('_e', u.elem)} for _e in {code}]"
        return code

    # ---- the program ----
    def compile(self) -> str:
        root = self.src.tree.root_node
        used = set()
        _used_packages(root, self.src.data, used)
        decls = []
        for node in root.named_children:
            if node.type == "import_declaration":
                self.imports(node, used)
            elif node.type in ("function_declaration", "method_declaration", "type_declaration",
                               "var_declaration", "const_declaration"):
                decls.append(node)
        try:
            self.collect(decls)
        except (CompileError, RecursionError):
            raise
        except Exception as exc:
            self.err_internal(root, exc)
        if self.errors:
            # Go reports both `"fmt" imported and not used` and, below it, `use of package fmt not in
            # selector` for `fmt.(x)`; nanoGo shows one error, so the one that says what is wrong.
            misused = {e.message.split()[3] for e in self.errors if e.message.startswith("use of package ")}
            errors = [e for e in self.errors if getattr(e, "unused_import", None) not in misused]
            raise first_of(errors)
        return self.assemble()

    def imports(self, node, used) -> None:
        specs = []
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type == "import_spec":
                specs.append(n)
            else:
                stack.extend(n.named_children)
        for spec in sorted(specs, key=lambda n: n.start_byte):
            pnode = spec.child_by_field_name("path")
            path = self.text(pnode).strip('"`')
            if path not in ALLOWED_PATHS:
                row, col = self.src.pos(pnode)
                raise CompileError(row, col, forbidden_import(path, ALLOWED_PATHS))
            alias = spec.child_by_field_name("name")
            name = self.text(alias) if alias is not None else path.rsplit("/", 1)[-1]
            if name == "_":
                continue
            if name in self.pkg.names:
                self.err(spec, f"{name} redeclared in this block")
            self.pkg.names[name] = PkgObj(name, path, spec)
            if name not in used:
                row, col = self.src.pos(spec)
                e = CompileError(row, col, f'imported and not used: "{path}"')
                e.order = tuple(spec.start_point)
                e.unused_import = name
                self.errors.append(e)

    def collect(self, decls) -> None:
        from .decls import collect_decls
        collect_decls(self, decls)

    def assemble(self) -> str:
        return "\n\n".join(self.out) + "\n"


PACKAGE_STRUCTS: dict = {}

# As go build: at most ten errors are listed, then "too many errors".
MAX_ERRORS = 10


def first_of(errors: list[CompileError]) -> CompileError:
    """The first error in the source, carrying the next ones (``more``, at most MAX_ERRORS in all, one a
    line) as Go lists them. A statement with an error is left at its first one (the next statements are
    checked on their own); a fault in nanoGo itself is listed only when nothing else is."""
    ordered = sorted(errors, key=lambda e: getattr(e, "order", (e.line, e.col)))
    real = [e for e in ordered if not getattr(e, "internal", False)] or ordered
    shown: list[CompileError] = []
    for e in real:
        if all((e.line, e.message) != (s.line, s.message) for s in shown):
            shown.append(e)
    first = shown[0]
    first.more = shown[1:MAX_ERRORS]
    first.too_many = len(shown) > MAX_ERRORS
    return first


def compile_source(text: str):
    """Parse and compile Go source; returns (python_code, namespace) or raises CompileError."""
    src = parse(text)
    c = Compiler(src)
    code = c.compile()
    return code, c.ns


__all__ = ["compile_source", "Compiler", "FnCtx", "_Abort", "Fraction", "Var", "Const", "FuncObj",
           "TypeName"]
