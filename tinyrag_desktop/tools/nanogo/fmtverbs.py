"""Go's fmt/format.go and strconv's quoting: one verb, with its flags, width and precision, over a basic value."""

from __future__ import annotations

from . import gounicode as U
from . import types as T
from .goftoa import format_float
from .runtime import Iface
from .runtime_basic import gbytes

# ---- floats -----------------------------------------------------------------------------------------------


def _sharp_float(num: str, verb: str, prec: int) -> str:
    """The '#' flag: always a decimal point, and %g's trailing zeros kept (up to the precision, 6 by default)."""
    digits = (6 if prec == -1 else prec) if verb in "vgGx" else 0
    tail = ""
    has_point = saw_nonzero = False
    i = 1
    while i < len(num):
        c = num[i]
        if c == ".":
            has_point = True
        elif c in "pP" or (c in "eE" and verb not in "xX"):
            num, tail = num[:i], num[i:]
            break
        else:
            if c != "0":
                saw_nonzero = True
            if saw_nonzero:  # count significant digits after the first non-zero one
                digits -= 1
        i += 1
    if not has_point:
        if len(num) == 2 and num[1] == "0":  # a leading 0 counts once
            digits -= 1
        num += "."
    return num + "0" * max(digits, 0) + tail


def format_complex(c: complex, verb: str = "g", prec: int = -1, bits: int = 64) -> str:
    re_s = format_float(c.real, verb, prec, bits)
    im_s = format_float(c.imag, verb, prec, bits)
    if not im_s.startswith(("-", "+")):
        im_s = "+" + im_s
    return f"({re_s}{im_s}i)"


# ---- quoting ----------------------------------------------------------------------------------------------

def is_print(r: int) -> bool:
    if r < 0x20 or r == 0x7F:
        return False
    if r < 0x7F:
        return True
    if 0xD800 <= r <= 0xDFFF or r > 0x10FFFF:
        return False
    cat = U.category(chr(r))
    return not (cat[0] in "CZ" and r != 0x20)


# strconv.IsGraphic adds the spaces of category Zs (other than U+0020) to IsPrint's runes.
_GRAPHIC_SPACES = frozenset([0xA0, 0x1680, 0x202F, 0x205F, 0x3000, *range(0x2000, 0x200B)])


def is_graphic(r: int) -> bool:
    return is_print(r) or r in _GRAPHIC_SPACES


def quote_rune_body(r: int, q: str, ascii_only: bool = False, graphic: bool = False) -> str:
    if r == ord(q) or r == 0x5C:
        return "\\" + chr(r)
    if ascii_only and r >= 0x80:
        pass
    elif is_print(r) or graphic and r in _GRAPHIC_SPACES:
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


def quote(s: str, ascii_only: bool = False, graphic: bool = False) -> str:
    out = ['"']
    for ch in s:
        o = ord(ch)
        if 0xDC80 <= o <= 0xDCFF:  # an invalid byte
            out.append(f"\\x{o - 0xDC00:02x}")
        else:
            out.append(quote_rune_body(o, '"', ascii_only, graphic))
    out.append('"')
    return "".join(out)


def quote_rune(r: int, ascii_only: bool = False, graphic: bool = False) -> str:
    if r > 0x10FFFF or 0xD800 <= r <= 0xDFFF or r < 0:
        r = 0xFFFD
    return "'" + quote_rune_body(r, "'", ascii_only, graphic) + "'"


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


class VerbMixin:
    """The Printer's formatting of one basic value; the Printer supplies buf, f (a Fmt) and bad_verb."""

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
            from .runtime_basic import rune_str
            self.buf.append(f.pad(rune_str(v)))
            return
        if verb == "q":
            self.buf.append(f.pad(quote_rune(v, f.plus)))
            return
        if verb == "U":  # Go's fmtUnicode: the value as a uint64, at least 4 (or the precision) hex digits
            u64 = v & 0xFFFFFFFFFFFFFFFF
            s = "U+" + format(u64, "X").rjust(max(4, f.prec or 0), "0")
            if f.sharp and u64 <= 0x10FFFF and is_print(u64):
                s += " '" + chr(u64) + "'"
            saved, f.zero = f.zero, False
            self.buf.append(f.pad(s))
            f.zero = saved
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
        """Go's pp.fmtFloat and fmt.fmtFloat: strconv's digits, then sign, '#' and padding."""
        f = self.f
        if verb not in "vbgGxXfFeE":
            self.bad_verb(Iface(T.FLOAT64 if size == 64 else T.FLOAT32, v), verb)
            return
        prec = 6 if verb in "fFeE" else -1
        verb = {"v": "g", "F": "f"}.get(verb, verb)
        if f.prec is not None:
            prec = f.prec
        num = format_float(v, verb, prec, size)
        num = num if num[0] in "+-" else "+" + num
        if f.space and num[0] == "+" and not f.plus:
            num = " " + num[1:]
        if num[1] in "IN":  # infinities and NaN are not padded with zeros
            if num[1] == "N" and not f.space and not f.plus:
                num = num[1:]
            saved, f.zero = f.zero, False
            self.buf.append(f.pad(num))
            f.zero = saved
            return
        if f.sharp and verb != "b":
            num = _sharp_float(num, verb, prec)
        if f.plus or num[0] != "+":
            if f.zero and not f.minus and f.wid is not None and f.wid > len(num):
                self.buf.append(num[0] + "0" * (f.wid - len(num)) + num[1:])
                return
            self.buf.append(f.pad(num))
            return
        self.buf.append(f.pad(num[1:]))

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
            if f.sharp and "`" not in s and all(is_print(ord(c)) or c == "\t" for c in s):
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
