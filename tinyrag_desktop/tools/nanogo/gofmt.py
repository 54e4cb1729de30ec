"""Go's fmt printer: Print, Println and Printf over typed values, composites and methods, as Go 1.19 does it."""

from __future__ import annotations

import math

from . import types as T
from .fmtverbs import Fmt, VerbMixin
from .runtime import Iface, NilMap, Ref, sitems
from .runtime_basic import gbytes

# ---- values -----------------------------------------------------------------------------------------------

_addr_counter = [0xc000010000]
_addrs: dict = {}


def fake_addr(o) -> str:
    k = id(o)
    if k not in _addrs:
        _addrs[k] = _addr_counter[0]
        _addr_counter[0] += 0x10
    return hex(_addrs[k])


def _method(t, name):
    mt = getattr(t, "mtab", None)
    if mt:
        return mt.get(name)
    return None


def type_name(t) -> str:
    return "<nil>" if t is None else t.go(True)


class Printer(VerbMixin):
    def __init__(self, wrap_ok: bool = False):
        self.buf: list[str] = []
        self.f = Fmt()
        self.erroring = False
        self.wrap_ok = wrap_ok

    # --- entry points ---
    def do_print(self, args, ln: bool) -> str:
        prev_string = False
        for i, a in enumerate(args):
            is_string = a is not None and T.is_string(a.t) and isinstance(a.t.u, T.Basic)
            if i > 0 and (ln or (not is_string and not prev_string)):
                self.buf.append(" ")
            self.print_arg(a, "v")
            prev_string = is_string
        if ln:
            self.buf.append("\n")
        return "".join(self.buf)

    def print_arg(self, a, verb: str) -> None:
        if a is None:
            if verb in "vT":
                self.buf.append(self.f.pad("<nil>"))
            else:
                self.bad_verb(None, verb)
            return
        if verb == "T":
            self.buf.append(self.f.pad(type_name(a.t)))
            return
        if verb == "p":
            self.fmt_pointer(a.v, a.t, verb)
            return
        self.print_value(a.v, a.t, verb, 0)

    def handle_methods(self, v, t, verb) -> bool:
        if self.erroring:
            return False
        if self.f.sharpv:
            gs = _method(t, "GoString")
            if gs:
                self.buf.append(gs(v))
                return True
            return False
        if verb not in "vsxXq":
            return False
        m, name = _method(t, "Error"), "Error"
        if m is None:
            m, name = _method(t, "String"), "String"
        if m is None:
            return False
        from .runtime import GoPanic
        try:
            s = m(v)
        except (GoPanic, AttributeError, TypeError) as exc:
            if v is None and (isinstance(t, T.Pointer) or isinstance(exc, (AttributeError, TypeError))):
                self.buf.append("<nil>")  # fmt prints a nil receiver whose method panics as <nil>
                return True
            if not isinstance(exc, GoPanic):
                from .interp import to_panic
                exc = to_panic(exc)
            # fmt recovers a panicking String/Error method and reports it in place of the value
            from .interp import panic_text
            msg = panic_text(exc)[len("panic: "):].split("\n")[0]
            self.buf.append(f"%!{verb}(PANIC={name} method: {msg})")
            return True
        self.fmt_string(s, verb)
        return True

    def print_value(self, v, t, verb: str, depth: int) -> None:
        if t is None:
            self.buf.append("<nil>")
            return
        if self.handle_methods(v, t, verb):
            return
        u = t.u
        if isinstance(u, T.Basic):
            k = u.kind
            if k == "int":
                self.fmt_int(v, t, verb)
            elif k == "float":
                self.fmt_float(v, u.size, verb)
            elif k == "string":
                self.fmt_str_verb(v, t, verb)
            elif k == "bool":
                if verb in "tv":
                    self.buf.append(self.f.pad("true" if v else "false"))
                else:
                    self.bad_verb(Iface(t, v), verb)
            elif k == "complex":
                if verb in "vbgGxXfFeE":  # Go's fmtComplex: each part as a float, the imaginary one signed
                    c = complex(v)
                    saved = self.f.plus
                    self.buf.append("(")
                    self.fmt_float(c.real, u.size // 2, verb)
                    self.f.plus = True
                    self.fmt_float(c.imag, u.size // 2, verb)
                    self.buf.append("i)")
                    self.f.plus = saved
                else:
                    self.bad_verb(Iface(t, v), verb)
            else:
                self.buf.append("<nil>")
            return
        if isinstance(u, T.Interface):
            if v is None:
                if self.f.sharpv:
                    self.buf.append(type_name(t) + "(nil)")
                else:
                    self.buf.append(self.f.pad("<nil>"))
                return
            self.print_value(v.v, v.t, verb, depth + 1)
            return
        if isinstance(u, T.Struct):
            if self.f.sharpv:
                self.buf.append(type_name(t))
            self.buf.append("{")
            for i, fld in enumerate(u.fields):
                if i:
                    self.buf.append(", " if self.f.sharpv else " ")
                if self.f.plusv or self.f.sharpv:
                    self.buf.append(fld.name + ":")
                fv = getattr(v, v.__slots__[i])
                if fld.name[:1].isupper() or fld.embedded:
                    self.print_value(fv, fld.type, verb, depth + 1)
                else:
                    self.print_value_nomethods(fv, fld.type, verb, depth + 1)
            self.buf.append("}")
            return
        if isinstance(u, (T.Slice, T.Array)):
            items = sitems(v) if isinstance(u, T.Slice) else v
            et = u.elem
            if isinstance(u, T.Slice) and v.a is None and self.f.sharpv:
                self.buf.append(type_name(t) + "(nil)")
                return
            if verb in "sxXq" and isinstance(et.u, T.Basic) and et.u.kind == "int" and et.u.size == 8 and not et.u.signed:
                self.fmt_bytes(items, verb, t)
                return
            if self.f.sharpv:
                self.buf.append(type_name(t) + "{")
                for i, e in enumerate(items):
                    if i:
                        self.buf.append(", ")
                    self.print_value(e, et, verb, depth + 1)
                self.buf.append("}")
                return
            self.buf.append("[")
            for i, e in enumerate(items):
                if i:
                    self.buf.append(" ")
                self.print_value(e, et, verb, depth + 1)
            self.buf.append("]")
            return
        if isinstance(u, T.Map):
            if self.f.sharpv:
                if isinstance(v, NilMap):
                    self.buf.append(type_name(t) + "(nil)")
                    return
                self.buf.append(type_name(t) + "{")
            else:
                self.buf.append("map[")
            keys = sorted_keys(v, u.key)
            for i, k in enumerate(keys):
                if i:
                    self.buf.append(", " if self.f.sharpv else " ")
                self.print_value(unwrap_key(k, u.key), u.key, verb, depth + 1)
                self.buf.append(":")
                self.print_value(v[k], u.elem, verb, depth + 1)
            self.buf.append("}" if self.f.sharpv else "]")
            return
        if isinstance(u, T.Pointer):
            if v is None:
                if self.f.sharpv:
                    self.buf.append("(" + type_name(t) + ")(nil)")
                else:
                    self.buf.append(self.f.pad("<nil>"))
                return
            if depth == 0 and isinstance(u.elem.u, (T.Struct, T.Array, T.Slice, T.Map)) and verb in "v":
                self.buf.append("&")
                target = v if isinstance(u.elem.u, T.Struct) else v.v
                self.print_value(target, u.elem, verb, depth + 1)
                return
            self.fmt_pointer(v, t, verb)
            return
        if isinstance(u, (T.Chan, T.Func)):
            if v is None:
                self.buf.append("<nil>" if not self.f.sharpv else "(" + type_name(t) + ")(nil)")
                return
            self.fmt_pointer(v, t, verb)
            return
        self.buf.append(str(v))

    def print_value_nomethods(self, v, t, verb, depth):
        # fmt cannot call methods on values reached through unexported fields.
        if isinstance(t, T.Named) and t.mtab and not isinstance(t.u, T.Interface):
            saved = t.mtab
            t.mtab = {}
            try:
                self.print_value(v, t, verb, depth)
            finally:
                t.mtab = saved
            return
        self.print_value(v, t, verb, depth)

    def fmt_pointer(self, v, t, verb):
        if verb not in "vpxX":
            self.bad_verb(Iface(t, v), verb)
            return
        if v is None:
            self.buf.append(self.f.pad("<nil>") if verb == "v" else self.f.pad("0x0"))
            return
        self.buf.append(self.f.pad(fake_addr(v)))

    def bad_verb(self, a, verb):
        if a is None:
            self.buf.append(f"%!{verb}(<nil>)")
            return
        self.buf.append(f"%!{verb}({type_name(a.t)}=")
        self.erroring = True  # Go prints the value with the same flags, and calls no methods
        try:
            self.print_value(a.v, a.t, "v", 0)
        finally:
            self.erroring = False
        self.buf.append(")")
    # --- Printf ---
    def do_printf(self, fmt: str, args) -> str:
        buf = self.buf
        argi = 0
        i = 0
        n = len(fmt)
        reordered = False
        nargs = len(args)

        def arg_number(i, argi):
            """Parse [n] at fmt[i]: (new argi, new i, ok, found)."""
            if i >= n or fmt[i] != "[":
                return argi, i, True, False
            j = fmt.find("]", i)
            if j < 0:
                return argi, i + 1, False, True
            try:
                k = int(fmt[i + 1:j])
            except ValueError:
                return argi, j + 1, False, True
            if k < 1 or k > nargs:
                return argi, j + 1, False, True
            return k - 1, j + 1, True, True

        while i < n:
            j = fmt.find("%", i)
            if j < 0:
                buf.append(fmt[i:])
                break
            if j > i:
                buf.append(fmt[i:j])
            i = j + 1
            f = self.f
            f.clear()
            while i < n and fmt[i] in "+-# 0":
                c = fmt[i]
                if c == "+":
                    f.plus = True
                elif c == "-":
                    f.minus = True
                    f.zero = False
                elif c == "#":
                    f.sharp = True
                elif c == " ":
                    f.space = True
                elif c == "0":
                    f.zero = not f.minus
                i += 1
            good = True
            argi, i, ok, found = arg_number(i, argi)
            good = good and ok
            reordered = reordered or found
            if i < n and fmt[i] == "*":
                i += 1
                if argi < nargs and args[argi] is not None and T.is_integer(args[argi].t):
                    f.wid = args[argi].v
                    if f.wid < 0:
                        f.minus, f.wid = True, -f.wid
                        f.zero = False
                else:
                    buf.append("%!(BADWIDTH)")
                argi += 1
            else:
                st = i
                while i < n and fmt[i].isdigit():
                    i += 1
                if i > st:
                    f.wid = int(fmt[st:i])
            if i < n and fmt[i] == ".":
                i += 1
                argi, i, ok, found = arg_number(i, argi)
                good = good and ok
                reordered = reordered or found
                if i < n and fmt[i] == "*":
                    i += 1
                    if argi < nargs and args[argi] is not None and T.is_integer(args[argi].t):
                        f.prec = args[argi].v
                        if f.prec < 0:
                            f.prec = None
                    else:
                        buf.append("%!(BADPREC)")
                    argi += 1
                else:
                    st = i
                    while i < n and fmt[i].isdigit():
                        i += 1
                    f.prec = int(fmt[st:i]) if i > st else 0
            argi, i, ok, found = arg_number(i, argi)
            good = good and ok
            reordered = reordered or found
            if i >= n:
                buf.append("%!(NOVERB)")
                break
            verb = fmt[i]
            i += 1
            if verb == "%":
                buf.append("%")
                continue
            if not good:
                buf.append(f"%!{verb}(BADINDEX)")
                continue
            if argi >= nargs:
                buf.append(f"%!{verb}(MISSING)")
                continue
            a = args[argi]
            argi += 1
            if verb == "v":
                if f.sharp:
                    f.sharp = False
                    f.sharpv = True
                if f.plus:
                    f.plus = False
                    f.plusv = True
            if verb == "w" and self.wrap_ok:
                verb = "v"
            self.print_arg(a, verb)
        if not reordered and argi < nargs:
            buf.append("%!(EXTRA ")
            for k, a in enumerate(args[argi:]):
                if k:
                    buf.append(", ")
                if a is None:
                    buf.append("<nil>")
                else:
                    buf.append(type_name(a.t) + "=")
                    self.f.clear()
                    self.print_value(a.v, a.t, "v", 0)
            buf.append(")")
        return "".join(buf)


def _key_sort(k, kt):
    u = kt.u
    if isinstance(u, T.Basic):
        if u.kind == "string":
            return (0, gbytes(k))
        if u.kind == "bool":
            return (0, int(k))
        if u.kind == "float" and k != k:
            return (0, -math.inf)
        return (0, k)
    if isinstance(u, T.Interface):
        if k is None:
            return (-1,)
        return (1, k.t.go(), _key_sort(k.v, k.t))
    if isinstance(u, T.Struct):
        return tuple(_key_sort(getattr(k, s), f.type) for s, f in zip(k.__slots__, u.fields))
    if isinstance(u, T.Array):
        return tuple(_key_sort(e, u.elem) for e in k)
    if isinstance(k, Ref):
        return (0, id(k.o))
    return (0, id(k))


def sorted_keys(m: dict, kt) -> list:
    try:
        return sorted(m, key=lambda k: _key_sort(k, kt))
    except TypeError:
        return list(m)


def unwrap_key(k, kt):
    if isinstance(k, Ref):
        return k.o
    if isinstance(k, tuple):
        return list(k)
    return k


def sprint(args) -> str:
    return Printer().do_print(args, False)


def sprintln(args) -> str:
    return Printer().do_print(args, True)


def sprintf(fmt: str, args, wrap_ok: bool = False) -> str:
    return Printer(wrap_ok).do_printf(fmt, args)


def to_string(v, t) -> str:
    """%v of one value (panic messages, error strings)."""
    return Printer().do_print([Iface(t, v)], False)
