"""Go's fmt verbs over typed values: Print/Println/Printf formatting exactly as Go 1.19 does it."""

from __future__ import annotations

import math
import struct

from . import types as T
from .runtime import Iface, NilMap, Ref, gbytes, sitems

# ---- floats -----------------------------------------------------------------------------------------------


def _f32(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0]


def shortest_digits(x: float, bits: int = 64) -> tuple[str, int]:
    """Shortest decimal digits that round-trip, and the decimal point position (0.d1d2... x 10^dp)."""
    if bits == 32:
        for p in range(1, 10):
            s = "%.*e" % (p - 1, x)
            if _f32(float(s)) == x:
                break
    else:
        s = repr(x)
    s = s.lstrip("-")
    if "e" in s:
        mant, exp = s.split("e")
        exp = int(exp)
    else:
        mant, exp = s, 0
    if "." in mant:
        ip, fp = mant.split(".")
    else:
        ip, fp = mant, ""
    digits = (ip + fp).lstrip("0")
    lead = len(ip + fp) - len((ip + fp).lstrip("0"))
    dp = len(ip) + exp - lead
    digits = digits.rstrip("0")
    if not digits:
        return "0", 1
    return digits, dp


def format_float(x: float, fmt: str = "g", prec: int = -1, bits: int = 64) -> str:
    """strconv.FormatFloat."""
    if x != x:
        return "NaN"
    if x in (math.inf, -math.inf):
        return "+Inf" if x > 0 else "-Inf"
    neg = x < 0 or (x == 0 and math.copysign(1, x) < 0)
    sign = "-" if neg else ""
    if prec < 0:
        digits, dp = shortest_digits(abs(x), bits) if x != 0 else ("0", 1)
        if fmt in "gG":
            exp = dp - 1
            if exp < -4 or exp >= 6:
                return sign + _fmt_e(digits, exp, len(digits) - 1, "e" if fmt == "g" else "E")
            return sign + _fmt_f(digits, dp, max(len(digits) - dp, 0))
        if fmt in "eE":
            return sign + _fmt_e(digits, dp - 1, len(digits) - 1, fmt)
        if fmt == "f":
            return sign + _fmt_f(digits, dp, max(len(digits) - dp, 0))
    if fmt in "eE":
        return ("%." + str(prec) + fmt) % x
    if fmt == "f":
        return ("%." + str(prec) + "f") % x
    if fmt in "gG":
        return _fmt_g_prec(x, prec, fmt)
    return repr(x)


def _fmt_e(digits: str, exp: int, prec: int, e: str) -> str:
    s = digits[0]
    if prec > 0:
        s += "." + (digits[1:] + "0" * prec)[:prec]
    es = "-" if exp < 0 else "+"
    exp = abs(exp)
    return s + e + es + (f"{exp:02d}")


def _fmt_f(digits: str, dp: int, prec: int) -> str:
    if dp > 0:
        ip = digits[:dp] + "0" * max(0, dp - len(digits))
        fp = digits[dp:]
    else:
        ip = "0"
        fp = "0" * (-dp) + digits
    fp = (fp + "0" * prec)[:prec]
    return ip + ("." + fp if prec > 0 else "")


def _fmt_g_prec(x: float, prec: int, fmt: str) -> str:
    if prec == 0:
        prec = 1
    s = ("%." + str(prec) + "e") % abs(x)
    mant, exp = s.split("e")
    digits = mant.replace(".", "").rstrip("0") or "0"
    exp = int(exp)
    eprec = prec
    if eprec > len(digits) and len(digits) >= exp + 1:
        eprec = len(digits)
    sign = "-" if (x < 0 or (x == 0 and math.copysign(1, x) < 0)) else ""
    # %e is used if the exponent from the conversion is less than -4 or greater than or equal to the precision.
    if exp < -4 or exp >= eprec:
        # Go rounds to prec digits, then drops trailing zeros (as %g does).
        s = ("%." + str(prec - 1) + "e") % abs(x)
        mant, e2 = s.split("e")
        digits = mant.replace(".", "").rstrip("0") or "0"
        return sign + _fmt_e(digits, int(e2), len(digits) - 1, "e" if fmt == "g" else "E")
    s = ("%." + str(prec - 1) + "e") % abs(x)
    mant, e2 = s.split("e")
    digits = mant.replace(".", "").rstrip("0") or "0"
    dp = int(e2) + 1
    return sign + _fmt_f(digits, dp, max(len(digits) - dp, 0))


def _hex_float(x: float, prec: int, verb: str) -> str:
    """%x of a float: Go's hexadecimal mantissa and a decimal power-of-two exponent of at least two digits."""
    h = x.hex()  # e.g. -0x1.c000000000000p+1
    sign = "-" if h.startswith("-") else ""
    mant, exp = h.lstrip("-")[2:].split("p")
    ip, _, fp = mant.partition(".")
    fp = fp.rstrip("0")
    if prec >= 0:
        if len(fp) > prec:
            v = int(ip + fp, 16)
            shift = 4 * (len(fp) - prec)
            v = (v + (1 << (shift - 1))) >> shift  # round half up (ties are rare enough here)
            digits = format(v, "x").rjust(prec + 1, "0")
            ip, fp = digits[:-prec] if prec else digits, digits[-prec:] if prec else ""
        else:
            fp = fp.ljust(prec, "0")
    e = int(exp)
    s = f"{sign}0x{ip}" + (f".{fp}" if fp else "") + f"p{'+' if e >= 0 else '-'}{abs(e):02d}"
    return s.upper().replace("0X", "0X") if verb == "X" else s


def format_complex(c: complex, verb: str = "g", prec: int = -1, bits: int = 64) -> str:
    re_s = format_float(c.real, verb, prec, bits)
    im_s = format_float(c.imag, verb, prec, bits)
    if not im_s.startswith(("-", "+")):
        im_s = "+" + im_s
    return f"({re_s}{im_s}i)"


# ---- quoting ----------------------------------------------------------------------------------------------

def _is_print(r: int) -> bool:
    import unicodedata
    if r < 0x20 or r == 0x7F:
        return False
    if r < 0x7F:
        return True
    if 0xD800 <= r <= 0xDFFF or r > 0x10FFFF:
        return False
    cat = unicodedata.category(chr(r))
    return not (cat[0] in "CZ" and r != 0x20)


def quote_rune_body(r: int, q: str, ascii_only: bool = False) -> str:
    if r == ord(q) or r == 0x5C:
        return "\\" + chr(r)
    if ascii_only and r >= 0x80:
        pass
    elif _is_print(r):
        return chr(r)
    esc = {7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v"}
    if r in esc:
        return esc[r]
    if r < 0x20 or r == 0x7F:
        return f"\\x{r:02x}"
    if r > 0x10FFFF or 0xD800 <= r <= 0xDFFF:
        return "\\ufffd"
    if r < 0x10000:
        return f"\\u{r:04x}"
    return f"\\U{r:08x}"


def quote(s: str, ascii_only: bool = False) -> str:
    out = ['"']
    for ch in s:
        o = ord(ch)
        if 0xDC80 <= o <= 0xDCFF:  # an invalid byte
            out.append(f"\\x{o - 0xDC00:02x}")
        else:
            out.append(quote_rune_body(o, '"', ascii_only))
    out.append('"')
    return "".join(out)


def quote_rune(r: int, ascii_only: bool = False) -> str:
    if r > 0x10FFFF or 0xD800 <= r <= 0xDFFF or r < 0:
        r = 0xFFFD
    return "'" + quote_rune_body(r, "'", ascii_only) + "'"


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


class Fmt:
    """One formatting operation: flags, width and precision of the current verb."""

    __slots__ = ("minus", "plus", "sharp", "space", "zero", "wid", "prec", "plusv", "sharpv")

    def __init__(self):
        self.clear()

    def clear(self):
        self.minus = self.plus = self.sharp = self.space = self.zero = False
        self.wid = self.prec = None
        self.plusv = self.sharpv = False

    def pad(self, s: str) -> str:
        if self.wid is None:
            return s
        n = len(s)
        if n >= self.wid:
            return s
        fill = self.wid - n
        if self.minus:
            return s + " " * fill
        if self.zero:
            return "0" * fill + s
        return " " * fill + s

    def pad_num(self, s: str) -> str:
        """Zero padding goes after the sign."""
        if self.wid is None or len(s) >= self.wid:
            return s
        if self.zero and not self.minus:
            sign = ""
            if s and s[0] in "+- ":
                sign, s = s[0], s[1:]
            return sign + "0" * (self.wid - len(s) - len(sign)) + s
        return self.pad(s)


def type_name(t) -> str:
    return "<nil>" if t is None else t.go(True)


class Printer:
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
                if verb in "vbgGxXfFeE":
                    vb = "g" if verb == "v" else verb
                    self.buf.append(self.f.pad(format_complex(v, vb, -1 if self.f.prec is None else self.f.prec,
                                                              64 if u.size == 128 else 32)))
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

    def fmt_int(self, v: int, t, verb: str) -> None:
        f = self.f
        if verb == "v":
            if f.sharpv and not (isinstance(t.u, T.Basic) and t.u.name in ("int",) and not isinstance(t, T.Named)):
                if isinstance(t, T.Named) or t.u.name != "int":
                    if not t.u.signed:
                        self.buf.append(f.pad(hex(v)))
                        return
            verb = "d"
        if verb == "c":
            from .runtime import rune_str
            self.buf.append(f.pad(rune_str(v)))
            return
        if verb == "q":
            self.buf.append(f.pad(quote_rune(v, f.plus)))
            return
        if verb == "U":
            s = f"U+{v:04X}"
            if f.sharp:
                from .runtime import rune_str
                s += " '" + rune_str(v) + "'"
            self.buf.append(f.pad(s))
            return
        base = {"d": 10, "b": 2, "o": 8, "O": 8, "x": 16, "X": 16}.get(verb)
        if base is None:
            if verb in "eEfFgG":
                self.bad_verb(Iface(t, v), verb)
                return
            self.bad_verb(Iface(t, v), verb)
            return
        neg = v < 0
        a = -v if neg else v
        digits = {10: "%d", 2: "", 8: "%o", 16: "%x"}[base]
        s = format(a, "b") if base == 2 else digits % a
        if verb == "X":
            s = s.upper()
        if f.prec is not None:
            s = s.rjust(f.prec, "0")
            if f.prec == 0 and a == 0:
                s = ""
        if f.sharp:
            if base == 8:
                s = s if s.startswith("0") else "0" + s
            else:
                s = {2: "0b", 16: "0x" if verb == "x" else "0X"}.get(base, "") + s
        if verb == "O":
            s = "0o" + s
        if neg:
            s = "-" + s
        elif f.plus:
            s = "+" + s
        elif f.space:
            s = " " + s
        if f.prec is not None:
            saved, f.zero = f.zero, False
            self.buf.append(f.pad(s))
            f.zero = saved
        else:
            self.buf.append(f.pad_num(s))

    def fmt_float(self, v: float, size: int, verb: str) -> None:
        f = self.f
        if verb == "v":
            verb = "g"
        if verb not in "eEfFgGbxX":
            self.bad_verb(Iface(T.FLOAT64 if size == 64 else T.FLOAT32, v), verb)
            return
        prec = -1 if f.prec is None else f.prec
        if verb in "fF":
            if prec < 0:
                prec = 6
            verb = "f"
        elif verb in "eE" and prec < 0:
            prec = 6
        if v != v or v in (math.inf, -math.inf):
            s = "NaN" if v != v else ("+Inf" if v > 0 else "-Inf")
            if s == "+Inf" and f.space and not f.plus:
                s = " Inf"
            elif s == "NaN" and (f.plus or f.space):
                s = ("+" if f.plus else " ") + s
            saved = f.zero
            f.zero = False
            self.buf.append(f.pad(s))
            f.zero = saved
            return
        if verb in "xX":
            s = _hex_float(v, prec, verb)
            if f.plus and not s.startswith("-"):
                s = "+" + s
            self.buf.append(f.pad_num(s))
            return
        s = format_float(v, verb if verb != "G" else "G", prec, size)
        if verb == "G" and prec < 0:
            s = s.replace("e", "E")
        if f.sharp and verb in "gG" and "." not in s:
            # %#g keeps trailing zeros and the point
            digits = prec if prec > 0 else 6
            s = ("%#." + str(digits) + "g") % v
        if f.plus and not s.startswith("-"):
            s = "+" + s
        elif f.space and not s.startswith("-"):
            s = " " + s
        self.buf.append(f.pad_num(s))

    def fmt_str_verb(self, v: str, t, verb: str) -> None:
        if verb == "v" and self.f.sharpv:
            self.buf.append(self.f.pad(quote(v)))
            return
        if verb in "vsqxX":
            self.fmt_string(v, verb)
        else:
            self.bad_verb(Iface(t, v), verb)

    def fmt_string(self, s: str, verb: str) -> None:
        f = self.f
        if verb in "vs":
            if f.prec is not None:
                s = s[:f.prec]
            self.buf.append(f.pad(s))
        elif verb == "q":
            if f.prec is not None:
                s = s[:f.prec]
            if f.sharp and "`" not in s and all(_is_print(ord(c)) or c == "\t" for c in s):
                self.buf.append(f.pad("`" + s + "`"))
            else:
                self.buf.append(f.pad(quote(s, f.plus)))
        elif verb in "xX":
            self.fmt_hex_bytes(gbytes(s), verb)

    def fmt_hex_bytes(self, b: bytes, verb: str) -> None:
        f = self.f
        parts = []
        if f.sharp and not f.space and b:
            parts.append("0x" if verb == "x" else "0X")
        for i, c in enumerate(b):
            h = f"{c:02x}" if verb == "x" else f"{c:02X}"
            if f.sharp and f.space:
                h = ("0x" if verb == "x" else "0X") + h
            if f.space and i:
                parts.append(" ")
            parts.append(h)
        self.buf.append(f.pad("".join(parts)))

    def fmt_bytes(self, items, verb, t):
        b = bytes(items)
        if verb == "s":
            self.fmt_string(b.decode("utf-8", "surrogateescape"), "s")
        elif verb == "q":
            self.fmt_string(b.decode("utf-8", "surrogateescape"), "q")
        else:
            self.fmt_hex_bytes(b, verb)

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
