"""Calls: functions, methods, builtins (len, append, make, ...) and conversions."""

from __future__ import annotations

from fractions import Fraction

from . import types as T
from .ccall import esize, simple
from .cexpr import _FLOAT_OVERFLOW, describe
from .errors import CompileError
from .goatof import round_to_float32
from .scope import Op


class BuiltinMixin:
    def x_call_expression(self, node):
        try:
            return self.compile_call(node)
        except CompileError as e:  # `fmt.Println(a, b)` with neither declared: Go says both
            self.check_rest(node.child_by_field_name("arguments").named_children, e)
            raise

    def compile_call(self, node):
        fn = node.child_by_field_name("function")
        argl = node.child_by_field_name("arguments")
        args = [c for c in argl.named_children if c.type != "comment"]
        spread = any(c.type == "..." for c in argl.children)
        if args and args[-1].type == "variadic_argument":
            spread = True
            args[-1] = args[-1].named_children[0]
        targs_node = node.child_by_field_name("type_arguments")
        if fn.type == "parenthesized_expression" and fn.named_children[0].type in (
                "pointer_type", "function_type", "channel_type"):
            t = self.resolve_type(fn.named_children[0])
            return self.conversion(t, args, node)
        if fn.type in ("slice_type", "map_type", "array_type", "pointer_type", "function_type", "channel_type",
                       "interface_type", "struct_type", "qualified_type"):
            if fn.type != "qualified_type":
                return self.conversion(self.resolve_type(fn), args, node)
        f = self.expr(fn)
        if targs_node is not None and f.kind == "generic":
            from .cgeneric import instantiate_func
            targs = [self.resolve_type(n) for n in targs_node.named_children]
            f = instantiate_func(self, f.obj, targs, node)
        if f.kind == "type":
            return self.conversion(f.type, args, node)
        if f.kind == "builtin":
            return self.builtin(f.obj.name, args, spread, node)
        if f.kind == "generic":
            from .cgeneric import infer_and_instantiate
            f = infer_and_instantiate(self, f.obj, args, node, spread)
        if f.kind != "value" or not isinstance(f.type.u, T.Func):
            self.err(node, f"invalid operation: cannot call non-function {describe(f, self)}")
        sig = f.type.u
        argcode = self.call_args(sig, args, spread, node, fn)
        rt = self.result_type(sig)
        obj = f.obj
        if isinstance(obj, tuple) and obj[0] == "method":
            _, py, recv = obj
            self.last_call = (py, f"{recv}{', ' if argcode else ''}{argcode}")
            return Op(f"{py}({recv}{', ' if argcode else ''}{argcode})", rt, kind="void" if rt is None else "value")
        if isinstance(obj, tuple) and obj[0] == "pkgfunc":
            special = getattr(self, "pkg_" + obj[1].replace("/", "_") + "_" + obj[2], None)
            if special is not None:
                return special(args, node, argcode, rt)
        code = f.code
        if code.startswith("_method(") and code.endswith(")"):
            inner = code[len("_method("):-1]
            self.last_call = ("_icall", f"{inner}{', ' if argcode else ''}{argcode}")
            return Op(f"_icall({inner}{', ' if argcode else ''}{argcode})", rt,
                      kind="void" if rt is None else "value")
        if not simple(code) and not code.startswith("_partial("):
            code = f"({code})"
        self.last_call = (code, argcode)
        call = f"{code}({argcode})"
        return Op(call, rt, kind="void" if rt is None else "value")

    def is_known_func(self, code):
        return code.startswith(("_fl", "M_", "_std_", "(lambda"))

    def result_type(self, sig):
        if not sig.results:
            return None
        if len(sig.results) == 1:
            return sig.results[0]
        return T.Tuple(sig.results)

    def call_args(self, sig, args, spread, node, fn) -> str:
        params = list(sig.params)
        name = self.short(fn)
        ctx = f"argument to {name}"
        if len(args) == 1 and not spread:
            op = self.expr(args[0], params[0] if params else None)
            if isinstance(op.type, T.Tuple):
                ts = op.type.types
                ok = len(ts) == len(params) or (sig.variadic and len(ts) >= len(params) - 1)
                if not ok:
                    self.arg_count_err(sig, [T.Tuple(ts)], node, name, len(ts) < len(params))
                if sig.variadic:
                    n = len(params) - 1
                    tmp = self.uid("mv")
                    fixed = ", ".join(f"{tmp}[{i}]" for i in range(n))
                    rest = ", ".join(self.coerce(Op(f"{tmp}[{i}]", ts[i]), params[-1].elem) for i in range(n, len(ts)))
                    return f"*(lambda {tmp}: ({fixed}{', ' if n else ''}_slice_of([{rest}]),))({op.code})"
                conv = [self.coerce(Op(f"{'{tmp}'}[{i}]", ts[i]), params[i]) for i in range(len(ts))]
                if all(not isinstance(p.u, T.Interface) for p in params):
                    return f"*{op.code}"
                tmp = self.uid("mv")
                conv = [c.replace("{tmp}", tmp) for c in conv]
                return f"*(lambda {tmp}: ({', '.join(conv)},))({op.code})"
            ops = [op]
        else:
            ops = None
        if sig.variadic and not spread:
            n = len(params) - 1
            if len(args) < n:
                self.arg_count_err(sig, args, node, name, True)
            out = []
            for i, a in enumerate(args[:n]):
                out.append(self.convert(ops[0] if ops and i == 0 else self.expr(a, params[i]), params[i], a, ctx))
            et = params[-1].elem
            rest = []
            for j, a in enumerate(args[n:]):
                op = ops[0] if ops and n == 0 and j == 0 else self.expr(a, et)
                rest.append(self.convert(op, et, a, ctx))
            out.append(f"_slice_of([{', '.join(rest)}])" if rest else "_Slice(None, 0, 0, 0)")
            return ", ".join(out)
        if spread and not sig.variadic:
            self.err(node, f"have (...) but function is not variadic: {name}")
        if len(args) != len(params):
            self.arg_count_err(sig, args, node, name, len(args) < len(params))
        out = []
        for i, a in enumerate(args):
            op = ops[0] if ops and i == 0 else self.expr(a, params[i])
            out.append(self.convert(op, params[i], a, ctx))
        return ", ".join(out)

    def arg_count_err(self, sig, args, node, name, few):
        have = []
        for a in args:
            if isinstance(a, T.Type):
                have.append(str(a)[1:-1] if isinstance(a, T.Tuple) else str(a))
                continue
            op = self.expr(a)
            t = op.type
            if op.const is not None and T.is_untyped(t):
                have.append("number" if T.is_numeric(t) else str(t))
            else:
                have.append(str(t) if t is not None else "nil")
        ps = [str(p) for p in sig.params]
        if sig.variadic:
            ps[-1] = "..." + str(sig.params[-1].elem)
        where = node.child_by_field_name("arguments")
        pos_node = where if few else (where.named_children[len(sig.params)] if len(where.named_children) > len(sig.params) else where)
        if few:
            args_nodes = [a for a in where.named_children if a.type != "comment"]
            if args_nodes:
                self.err(args_nodes[-1], f"not enough arguments in call to {name}\n\thave ({', '.join(have)})\n\twant ({', '.join(ps)})")
            row, col = self.src.pos(where)
            from .errors import CompileError
            e = CompileError(row, col + len(self.text(where)) - 1,
                             f"not enough arguments in call to {name}\n\thave ({', '.join(have)})\n\twant ({', '.join(ps)})")
            e.order = tuple(where.end_point)
            raise e
        self.err(pos_node, f"too many arguments in call to {name}\n\thave ({', '.join(have)})\n\twant ({', '.join(ps)})")

    # ---- conversions ----
    def x_type_conversion_expression(self, node):
        tn = node.child_by_field_name("type")
        if tn.type == "generic_type":
            base = self.scope.lookup(self.text(tn.child_by_field_name("type")))
            if base is not None and (base.kind == "var" or base.kind == "func" and base.generic is None):
                f = self.x_generic_type(tn)  # `fs[i](x)`: an indexed function value, called
                f.node = tn
                sig = f.type.u
                if not isinstance(sig, T.Func):
                    self.err(node, f"invalid operation: cannot call non-function {self.text(tn)}")
                argcode = self.call_args(sig, [node.child_by_field_name("operand")], False, node, tn)
                rt = self.result_type(sig)
                self.last_call = (f"({f.code})", argcode)
                return Op(f"({f.code})({argcode})", rt, kind="void" if rt is None else "value")
            if base is not None and base.kind == "func" and base.generic is not None:
                f = self.x_generic_type(tn)
                sig = f.type.u
                argcode = self.call_args(sig, [node.child_by_field_name("operand")], False, node, tn)
                return Op(f"{f.code}({argcode})", self.result_type(sig), kind="value")
        t = self.resolve_type(tn)
        return self.conversion(t, [node.child_by_field_name("operand")], node)

    def conversion(self, t, args, node) -> Op:
        if len(args) != 1:
            self.err(node, f"{'missing' if not args else 'too many'} argument{'s' if args else ''} in conversion to {t}")
        an = args[0]
        x = self.expr(an, t)
        tu = t.u
        if x.kind == "nil":
            if isinstance(tu, (T.Pointer, T.Slice, T.Map, T.Chan, T.Func, T.Interface)):
                return Op(self.coerce(x, t), t)
            self.err(node, f"cannot convert nil to type {t}")
        if x.const is not None and isinstance(tu, T.Basic):
            v = x.const
            if tu.kind == "string" and not isinstance(v, str):
                if isinstance(v, (int,)) and not isinstance(v, bool) and T.is_integer(x.type):
                    from .runtime_basic import rune_str
                    return Op(None, t, rune_str(v))
                self.err(node, f"cannot convert {describe(x, self)} to type {t}")
            if tu.kind == "int":
                if isinstance(v, (str, bool)):
                    self.err(node, f"cannot convert {describe(x, self)} to type {t}")
                if isinstance(v, Fraction) and v.denominator != 1:
                    self.err(an, f"cannot convert {describe(x, self)} to type {t}")
                v = int(v)
                lo, hi = (-(1 << (tu.size - 1)), (1 << (tu.size - 1)) - 1) if tu.signed else (0, (1 << tu.size) - 1)
                if not lo <= v <= hi:
                    self.err(an, f"cannot convert {describe(x, self, as_int=True)} to type {t}")
                return Op(None, t, v)
            if tu.kind == "float":
                if isinstance(v, (str, bool)):
                    self.err(node, f"cannot convert {describe(x, self)} to type {t}")
                if not isinstance(v, float):
                    if abs(Fraction(v)) >= _FLOAT_OVERFLOW[tu.size]:  # rounds to ±Inf
                        self.err(an, f"cannot convert {describe(x, self)} to type {t}")
                    if tu.size == 32:  # rounded once, from the exact value (never through a float64)
                        return Op(None, t, Fraction(round_to_float32(Fraction(v))))
                    return Op(None, t, Fraction(v))
                if tu.size == 32:
                    from .goftoa import f32 as _f32
                    return Op(None, t, Fraction(_f32(v)))
                return Op(None, t, v)
            if tu.kind == "bool" and isinstance(v, bool):
                return Op(None, t, v)
            if tu.kind == "string" and isinstance(v, str):
                return Op(None, t, v)
            if tu.kind == "complex":
                return Op(None, t, complex(v))
        code = x.code if x.const is None else self.const_code(x.const, T.default_type(x.type))
        if isinstance(tu, T.Interface):
            return Op(self.convert(x, t, an, "conversion"), t)
        src = x.type
        if x.const is not None and T.is_untyped(src):
            src = T.default_type(src)
        su = src.u
        if isinstance(tu, T.Basic) and isinstance(su, T.Basic):
            tk, sk = tu.kind, su.kind
            if tk == "int" and sk == "int":
                if tu.size >= su.size and tu.signed == su.signed or tu.size > su.size and not su.signed:
                    return Op(code, t)
                return Op(f"_wrap({code}, {tu.size}, {tu.signed})", t)
            if tk == "int" and sk == "float":
                return Op(f"_f2i({code}, {tu.size}, {tu.signed})", t)
            if tk == "float" and sk in ("int", "float"):
                if tu.size == 32:
                    return Op(f"_f32(float({code}))", t)
                return Op(f"float({code})" if sk == "int" else code, t)
            if tk == "string" and sk == "int":
                return Op(f"_rune_str({code})", t)
            if tk == "string" and sk == "string":
                return Op(code, t)
            if tk == "complex" and sk in ("int", "float", "complex"):
                return Op(f"complex({code})", t)
            if tk == sk:
                return Op(code, t)
        if isinstance(tu, T.Basic) and tu.kind == "string" and isinstance(su, T.Slice):
            eu = su.elem.u
            if isinstance(eu, T.Basic) and eu.kind == "int" and eu.size == 8:
                return Op(f"_bytes_to_str({code})", t)
            if isinstance(eu, T.Basic) and eu.kind == "int" and eu.size == 32:
                return Op(f"_runes_to_str(_sitems({code}))", t)
        if isinstance(tu, T.Slice) and isinstance(su, T.Basic) and su.kind == "string":
            eu = tu.elem.u
            if isinstance(eu, T.Basic) and eu.kind == "int" and eu.size == 8:
                return Op(f"_str_to_bytes({code})", t)
            if isinstance(eu, T.Basic) and eu.kind == "int" and eu.size == 32:
                return Op(f"_str_to_runes({code})", t)
        if T.identical(tu, su) or (isinstance(tu, T.Pointer) and isinstance(su, T.Pointer) and T.identical(tu.elem.u, su.elem.u)):
            return Op(self.copy_code(code, t, x.addr), t)
        if isinstance(x.type, T.TypeParam) or isinstance(t, T.TypeParam):
            return Op(f"_tp_convert({self.tref(t)}, {code})", t)
        self.err(node, f"cannot convert {describe(x, self)} to type {t}")

    # ---- builtins ----
    def builtin(self, name, args, spread, node) -> Op:
        m = getattr(self, "b_" + name, None)
        if m is None:
            self.err(node, f"undefined: {name}")
        return m(args, spread, node)

    def _nargs(self, args, n, node, name):
        if len(args) < n:
            self.err(node, f"not enough arguments for {name}({', '.join(self.text(a) for a in args)}) (expected {n}, found {len(args)})")
        if len(args) > n:
            self.err(node, f"too many arguments for {name}({', '.join(self.text(a) for a in args)}) (expected {n}, found {len(args)})")

    def b_len(self, args, spread, node):
        self._nargs(args, 1, node, "len")
        x = self.expr(args[0])
        u = x.type.u if x.type is not None else None
        if isinstance(u, T.Pointer) and isinstance(u.elem.u, T.Array):
            u = u.elem.u
        if isinstance(u, T.Basic) and u.kind == "string":
            if x.const is not None:
                return Op(None, T.INT, len(x.const.encode("utf-8", "surrogateescape")))
            return Op(f"_slen({x.code})", T.INT)
        if isinstance(u, T.Slice):
            return Op(f"{x.code}.n" if simple(x.code) else f"({x.code}).n", T.INT)
        if isinstance(u, T.Array):
            return Op(None, T.INT, u.n)
        if isinstance(u, (T.Map, T.Chan)):
            return Op(f"_len({x.code})", T.INT)
        self.err(args[0], f"invalid argument: {describe(x, self)} for len")

    def b_cap(self, args, spread, node):
        self._nargs(args, 1, node, "cap")
        x = self.expr(args[0])
        u = x.type.u
        if isinstance(u, T.Slice):
            return Op(f"({x.code}).c", T.INT)
        if isinstance(u, T.Array):
            return Op(None, T.INT, u.n)
        if isinstance(u, T.Chan):
            return Op(f"_chan_cap({x.code})", T.INT)
        self.err(args[0], f"invalid argument: {describe(x, self)} for cap")

    def b_append(self, args, spread, node):
        if not args:
            self.err(node, "not enough arguments for append() (expected 1, found 0)")
        s = self.expr(args[0])
        if s.kind == "nil":
            self.err(args[0], "first argument to append must be a typed slice; have untyped nil")
        if not isinstance(s.type.u, T.Slice):
            self.err(args[0], f"first argument to append must be a slice; have {describe(s, self)}")
        et = s.type.u.elem
        sz = esize(et)
        cp = ", True" if isinstance(et.u, (T.Struct, T.Array)) else ""
        if spread:
            if len(args) != 2:
                self.err(node, "can only use ... with final argument in list")
            r = self.expr(args[1])
            if T.is_string(r.type) and T.identical(et, T.BYTE):
                return Op(f"_append({s.code}, list(_gbytes({self.operand_code(r, T.STRING)})), 1)", s.type)
            if r.kind == "nil":
                return Op(s.code, s.type)
            if not isinstance(r.type.u, T.Slice) or not T.identical(r.type.u.elem, et):
                self.err(args[1], f"cannot use {describe(r, self)} as []{et} value in argument to append")
            if not self.immutable(et):
                return Op(f"_append({s.code}, [{self.copy_code('_e', et)} for _e in _sitems({r.code})], {sz}{cp})", s.type)
            return Op(f"_append({s.code}, _sitems({r.code}), {sz})", s.type)
        vals = [self.value(a, et, "argument to append") for a in args[1:]]
        if not vals:
            return Op(s.code, s.type)
        if len(vals) == 1:
            return Op(f"_append1({s.code}, {vals[0]}, {sz}{cp})", s.type)
        return Op(f"_append({s.code}, [{', '.join(vals)}], {sz}{cp})", s.type)

    def b_make(self, args, spread, node):
        if not args:
            self.err(node, "not enough arguments for make() (expected 1, found 0)")
        t = self.resolve_type(args[0])
        u = t.u
        rest = [self.value(a, T.INT, "argument to make") for a in args[1:]]
        for a in args[1:]:
            op = self.expr(a)
            if op.const is not None and op.const < 0:
                self.err(a, f"invalid argument: index {self.text(a)} (constant of type int) must not be negative")
        if isinstance(u, T.Slice):
            if not rest:
                self.err(node, f"invalid operation: {self.text(node)} expects 2 or 3 arguments; found 1")
            if len(rest) == 2:
                a, b = self.expr(args[1]), self.expr(args[2])
                if a.const is not None and b.const is not None and a.const > b.const:
                    self.err(args[1], "invalid argument: length and capacity swapped")
            cap = rest[1] if len(rest) > 1 else "None"
            return Op(f"_make_slice({rest[0]}, {cap}, {esize(u.elem)}, {self.zero_factory(u.elem)})", t)
        if isinstance(u, T.Map):
            return Op("{}", t)
        if isinstance(u, T.Chan):
            return Op(f"_Channel({rest[0] if rest else 0}, {self.zero_factory(u.elem)})", t)
        self.err(args[0], f"invalid argument: cannot make {self.text(args[0])}; type must be slice, map, or channel")

    def b_new(self, args, spread, node):
        self._nargs(args, 1, node, "new")
        t = self.resolve_type(args[0])
        if isinstance(t.u, (T.Struct, T.Array)):
            return Op(self.zero_code(t), T.pointer_to(t))
        return Op(f"_Box({self.zero_code(t)})", T.pointer_to(t))

    def b_delete(self, args, spread, node):
        self._nargs(args, 2, node, "delete")
        m = self.expr(args[0])
        if not isinstance(m.type.u, T.Map):
            self.err(args[0], f"invalid argument: {describe(m, self)} is not a map")
        k = self.map_key(self.value(args[1], m.type.u.key, "argument to delete"), m.type.u.key)
        return Op(f"{m.code}.pop({k}, None)", None, kind="void")

    def b_copy(self, args, spread, node):
        self._nargs(args, 2, node, "copy")
        d, s = self.expr(args[0]), self.expr(args[1])
        return Op(f"_copy({d.code}, {self.operand_code(s, T.STRING) if s.const is not None else s.code})", T.INT)

    def b_panic(self, args, spread, node):
        self._nargs(args, 1, node, "panic")
        v = self.value(args[0], T.ANY, "argument to panic")
        return Op(f"_panic({v})", None, kind="void")

    def b_recover(self, args, spread, node):
        return Op("_recover()", T.ANY)

    def b_print(self, args, spread, node, ln=False):
        vals = [self.value(a, T.ANY, "argument to print") for a in args]
        return Op(f"_builtin_print([{', '.join(vals)}], {ln})", None, kind="void")

    def b_println(self, args, spread, node):
        return self.b_print(args, spread, node, True)

    def b_close(self, args, spread, node):
        self._nargs(args, 1, node, "close")
        c = self.expr(args[0])
        if not isinstance(c.type.u, T.Chan):
            self.err(args[0], f"invalid operation: non-chan argument {describe(c, self)}")
        return Op(f"_chan_close({c.code})", None, kind="void")

    def b_complex(self, args, spread, node):
        self._nargs(args, 2, node, "complex")
        a, b = self.value(args[0], T.FLOAT64), self.value(args[1], T.FLOAT64)
        return Op(f"complex({a}, {b})", T.COMPLEX128)

    def b_real(self, args, spread, node):
        x = self.value(args[0], T.COMPLEX128)
        return Op(f"({x}).real", T.FLOAT64)

    def b_imag(self, args, spread, node):
        x = self.value(args[0], T.COMPLEX128)
        return Op(f"({x}).imag", T.FLOAT64)
