"""strings, strconv, unicode and unicode/utf8 (and fmt's writers): signatures and implementations."""

from __future__ import annotations


from . import goatof
from . import gounicode as U
from . import types as T
from .runtime import GoPanic, Iface, Slice, gbytes, gstr, scmp, sitems, slice_of, slen
from .stdlib import (ANYS, B, BY, F, I, I64, OPAQUE, PACKAGES, R, S, _fmt, _opaque, _pkg, error_text, fn,
                     new_error)


# ---- strings --------------------------------------------------------------------------------------------

P = _pkg("strings")


def _byte_index(s: str, char_index: int) -> int:
    if char_index < 0:
        return -1
    return slen(s[:char_index])


def s_index(s, sub):
    return _byte_index(s, s.find(sub))


def s_last_index(s, sub):
    return _byte_index(s, s.rfind(sub))


def _explode(s, n):
    """Go's explode: one string per rune (a byte that is not UTF-8 becomes U+FFFD), the last one the rest."""
    if n < 0 or n > len(s):
        n = len(s)
    parts = [U.rune_str_of(ch) for ch in s[:max(n - 1, 0)]]
    if n > 0:
        parts.append(s[n - 1:])
    return slice_of(parts)


def s_split(s, sep):
    if sep == "":
        return _explode(s, -1)
    return slice_of(s.split(sep))


def s_splitn(s, sep, n):
    if n == 0:
        return Slice(None, 0, 0, 0)
    if sep == "":
        return _explode(s, n)
    return slice_of(s.split(sep, n - 1) if n > 0 else s.split(sep))


def s_fields(s):
    return slice_of(U.fields(s))


def _is_separator(ch: str) -> bool:
    if ord(ch) <= 0x7F:
        return not (ch.isalnum() or ch == "_")
    if U.is_letter(ch) or U.is_digit(ch):
        return False
    return U.is_space(ch)


def s_title(s):
    """Go's (deprecated) strings.Title: the first letter of each word to title case (ǆ -> ǅ)."""
    out, prev = [], " "
    for ch in U.map_runes(s, str):
        out.append(U.to_title(ch) if _is_separator(prev) else ch)
        prev = ch
    return "".join(out)


def s_replace(s, old, new, n):
    if n < 0:
        return s.replace(old, new)
    return s.replace(old, new, n)


def s_trim_func(s, f, left=True, right=True):
    chars = list(s)
    i, j = 0, len(chars)
    while left and i < j and f(ord(chars[i])):
        i += 1
    while right and j > i and f(ord(chars[j - 1])):
        j -= 1
    return "".join(chars[i:j])


def s_map(f, s):
    from .runtime import rune_str
    out = []
    for ch in s:
        r = f(ord(ch))
        if r >= 0:
            out.append(rune_str(r))
    return "".join(out)


def s_count(s, sub):
    if sub == "":
        return len(s) + 1
    return s.count(sub)


def s_index_any(s, chars):
    cs = U.rune_set(chars)
    for i, ch in enumerate(s):
        if U.rune_of(ch) in cs:
            return _byte_index(s, i)
    return -1


def _last_index_any(s, chars):
    cs = U.rune_set(chars)
    for i in range(len(s) - 1, -1, -1):
        if U.rune_of(s[i]) in cs:
            return _byte_index(s, i)
    return -1


def _index_rune(s, r):
    """strings.IndexRune: U+FFFD also finds a byte that is not UTF-8; an invalid rune finds nothing."""
    if r == 0xFFFD:
        return s_index_any(s, "\ufffd")
    if not 0 <= r <= 0x10FFFF or 0xD800 <= r <= 0xDFFF:
        return -1
    return s_index(s, chr(r))


def _trim(s, cutset, left=True, right=True):
    """strings.Trim, TrimLeft, TrimRight: by runes, U+FFFD in the cutset standing for any invalid byte."""
    if s == "" or cutset == "":
        return s
    if cutset.isascii():
        return s.strip(cutset) if left and right else s.lstrip(cutset) if left else s.rstrip(cutset)
    cs = U.rune_set(cutset)
    i, j = 0, len(s)
    while left and i < j and U.rune_of(s[i]) in cs:
        i += 1
    while right and j > i and U.rune_of(s[j - 1]) in cs:
        j -= 1
    return s[i:j]


def s_cut(s, sep):
    i = s.find(sep)
    if i < 0:
        return s, "", False
    return s[:i], s[i + len(sep):], True


def s_fields_func(s, f):
    out, cur = [], []
    for ch in s:
        if f(ord(ch)):
            if cur:
                out.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
    if cur:
        out.append("".join(cur))
    return slice_of(out)


def s_repeat(s, n):
    if n < 0:
        raise GoPanic(Iface(S, "strings: negative Repeat count"))
    if len(s) * n > (1 << 28):
        raise GoPanic(Iface(S, "strings: Repeat output length overflow"))
    return s * n


P.add("Contains", fn([S, S], [B]), lambda s, sub: sub in s)
P.add("ContainsRune", fn([S, R], [B]), lambda s, r: _index_rune(s, r) >= 0)
P.add("ContainsAny", fn([S, S], [B]), lambda s, chars: s_index_any(s, chars) >= 0)
P.add("HasPrefix", fn([S, S], [B]), lambda s, p: s.startswith(p))
P.add("HasSuffix", fn([S, S], [B]), lambda s, p: s.endswith(p))
P.add("Index", fn([S, S], [I]), s_index)
P.add("IndexByte", fn([S, BY], [I]), lambda s, b: s_index(s, chr(b)))
P.add("IndexRune", fn([S, R], [I]), _index_rune)
P.add("IndexAny", fn([S, S], [I]), s_index_any)
P.add("LastIndex", fn([S, S], [I]), s_last_index)
P.add("Split", fn([S, S], [T.Slice(S)]), s_split)
P.add("SplitN", fn([S, S, I], [T.Slice(S)]), s_splitn)
P.add("Fields", fn([S], [T.Slice(S)]), s_fields)
P.add("FieldsFunc", fn([S, fn([R], [B])], [T.Slice(S)]), s_fields_func)
P.add("Join", fn([T.Slice(S), S], [S]), lambda a, sep: sep.join(sitems(a)))
P.add("Repeat", fn([S, I], [S]), s_repeat)
P.add("Replace", fn([S, S, S, I], [S]), s_replace)
P.add("ReplaceAll", fn([S, S, S], [S]), lambda s, o, n: s.replace(o, n))
def _case_map(s, upper):
    if s.isascii():
        return s.upper() if upper else s.lower()
    return U.map_runes(s, U.to_upper if upper else U.to_lower)


P.add("ToUpper", fn([S], [S]), lambda s: _case_map(s, True))
P.add("ToLower", fn([S], [S]), lambda s: _case_map(s, False))
P.add("Title", fn([S], [S]), s_title)
P.add("TrimSpace", fn([S], [S]), U.trim_space)
P.add("Trim", fn([S, S], [S]), _trim)
P.add("TrimLeft", fn([S, S], [S]), lambda s, c: _trim(s, c, right=False))
P.add("TrimRight", fn([S, S], [S]), lambda s, c: _trim(s, c, left=False))
P.add("TrimPrefix", fn([S, S], [S]), lambda s, p: s[len(p):] if p and s.startswith(p) else s)
P.add("TrimSuffix", fn([S, S], [S]), lambda s, p: s[:-len(p)] if p and s.endswith(p) else s)
P.add("TrimFunc", fn([S, fn([R], [B])], [S]), s_trim_func)
P.add("TrimLeftFunc", fn([S, fn([R], [B])], [S]), lambda s, f: s_trim_func(s, f, True, False))
P.add("TrimRightFunc", fn([S, fn([R], [B])], [S]), lambda s, f: s_trim_func(s, f, False, True))
P.add("Count", fn([S, S], [I]), s_count)
P.add("EqualFold", fn([S, S], [B]), U.equal_fold)
P.add("Map", fn([fn([R], [R]), S], [S]), s_map)
P.add("Compare", fn([S, S], [I]), scmp)
P.add("Cut", fn([S, S], [S, S, B]), s_cut)
def _split_after_n(s, sep, n):
    if n == 0:
        return Slice(None, 0, 0, 0)
    if sep == "":
        return _explode(s, n)
    parts = []
    while n < 0 or len(parts) < n - 1:
        i = s.find(sep) if sep else (1 if len(s) > 1 else -1)
        if i < 0 or (not sep and not s):
            break
        cut = i + len(sep) if sep else 1
        parts.append(s[:cut])
        s = s[cut:]
    parts.append(s)
    return slice_of(parts)


P.add("SplitAfterN", fn([S, S, I], [T.Slice(S)]), _split_after_n)
P.add("SplitAfter", fn([S, S], [T.Slice(S)]),
      lambda s, sep: slice_of([p + sep for p in s.split(sep)[:-1]] + [s.split(sep)[-1]]) if sep else s_split(s, sep))


class Builder:
    __slots__ = ("parts", "n")

    def __init__(self):
        self.parts, self.n = [], 0

    @staticmethod
    def _z():
        return Builder()

    def _cp(self):
        b = Builder()
        b.parts, b.n = list(self.parts), self.n
        return b

    def _set(self, o):
        self.parts, self.n = list(o.parts), o.n
        return self

    def WriteString(self, s):
        self.parts.append(s)
        k = slen(s)
        self.n += k
        return k, None

    def WriteByte(self, b):
        self.parts.append(gstr([b]))
        self.n += 1
        return None

    def WriteRune(self, r):
        from .runtime import rune_str
        s = rune_str(r)
        self.parts.append(s)
        self.n += slen(s)
        return slen(s), None

    def Write(self, p):
        self.parts.append(gstr(sitems(p)))
        self.n += p.n
        return p.n, None

    def String(self):
        if len(self.parts) > 1:
            self.parts = ["".join(self.parts)]
        return self.parts[0] if self.parts else ""

    def Len(self):
        return self.n

    def Reset(self):
        self.parts, self.n = [], 0

    def Grow(self, n):
        pass


_bt, _n, _c = _opaque("Builder", "strings", Builder, {
    "WriteString": fn([S], [I, T.ERROR]), "WriteByte": fn([BY], [T.ERROR]), "WriteRune": fn([R], [I, T.ERROR]),
    "Write": fn([T.Slice(BY)], [I, T.ERROR]), "String": fn([], [S]), "Len": fn([], [I]), "Reset": fn([]),
    "Grow": fn([I])})
P.types["Builder"] = _bt
OPAQUE[_n] = _c

# ---- strconv --------------------------------------------------------------------------------------------

P = _pkg("strconv")
NUMERR = T.Named("NumError", "strconv", T.Struct([T.Field("Func", S), T.Field("Num", S), T.Field("Err", T.ERROR)]))
NUMERR_P = T.pointer_to(NUMERR)
ERR_SYNTAX = new_error("invalid syntax")
ERR_RANGE = new_error("value out of range")


class _NumErr:
    __slots__ = ("Func", "Num", "Err")

    def __init__(self, f, n, e):
        self.Func, self.Num, self.Err = f, n, e


NUMERR_P.mtab = {"Error": lambda e: f"strconv.{e.Func}: parsing {_fmt().quote(e.Num)}: {error_text(e.Err)}",
                 "Unwrap": lambda e: e.Err}


def _numerr(f, s, e):
    return Iface(NUMERR_P, _NumErr(f, s, e))


def _go_result(s, r):
    """A goatof parser's (value, failure, func) as Go's (value, error)."""
    v, failure, fname = r
    if failure is None:
        return v, None
    if failure == "syntax":
        err = ERR_SYNTAX
    elif failure == "range":
        err = ERR_RANGE
    else:
        err = new_error(f"invalid base {failure[1]}" if failure[0] == "base" else f"invalid bit size {failure[1]}")
    return v, _numerr(fname, s, err)


def _parse_int(s, base, bits, signed=True):
    if signed:
        return _go_result(s, goatof.parse_int(s, base, bits))
    return _go_result(s, goatof.parse_uint(s, base, bits))


def sc_atoi(s):
    return _go_result(s, goatof.atoi(s))


def sc_parse_float(s, bits):
    return _go_result(s, goatof.parse_float(s, bits))


def sc_parse_bool(s):
    if s in ("1", "t", "T", "TRUE", "true", "True"):
        return True, None
    if s in ("0", "f", "F", "FALSE", "false", "False"):
        return False, None
    return False, _numerr("ParseBool", s, ERR_SYNTAX)


def _fmt_int(v, base):
    if base == 10:
        return str(v)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    neg, v = v < 0, abs(v)
    out = []
    while True:
        out.append(digits[v % base])
        v //= base
        if not v:
            break
    return ("-" if neg else "") + "".join(reversed(out))


def sc_format_float(f, fmtc, prec, bits):
    if bits == 32:
        from .goftoa import f32 as _f32
        f = _f32(f)
    return _fmt().format_float(f, chr(fmtc), prec, bits)


P.add("Itoa", fn([I], [S]), str)
P.add("Atoi", fn([S], [I, T.ERROR]), sc_atoi)
P.add("ParseInt", fn([S, I, I], [I64, T.ERROR]), lambda s, b, bits: _parse_int(s, b, bits))
P.add("ParseUint", fn([S, I, I], [T.UINT64, T.ERROR]), lambda s, b, bits: _parse_int(s, b, bits, False))
P.add("ParseFloat", fn([S, I], [F, T.ERROR]), sc_parse_float)
P.add("ParseBool", fn([S], [B, T.ERROR]), sc_parse_bool)
P.add("FormatInt", fn([I64, I], [S]), _fmt_int)
P.add("FormatUint", fn([T.UINT64, I], [S]), _fmt_int)
P.add("FormatFloat", fn([F, BY, I, I], [S]), sc_format_float)
P.add("FormatBool", fn([B], [S]), lambda b: "true" if b else "false")
P.add("Quote", fn([S], [S]), lambda s: _fmt().quote(s))
P.add("QuoteRune", fn([R], [S]), lambda r: _fmt().quote_rune(r))
P.types["NumError"] = NUMERR
P.vars["ErrSyntax"] = (T.ERROR, "_std_strconv_ErrSyntax")
P.vars["ErrRange"] = (T.ERROR, "_std_strconv_ErrRange")
P.impl["_std_strconv_ErrSyntax"] = ERR_SYNTAX
P.impl["_std_strconv_ErrRange"] = ERR_RANGE

# ---- unicode, unicode/utf8 ------------------------------------------------------------------------------

P = _pkg("unicode")


def _ch(r):
    return chr(r) if 0 <= r <= 0x10FFFF and not 0xD800 <= r <= 0xDFFF else ""


def _u_is_space(r):
    c = _ch(r)
    return bool(c) and U.is_space(c)


def _u_is_punct(r):
    c = _ch(r)
    return bool(c) and U.category(c).startswith("P")


def _u_is_symbol(r):
    c = _ch(r)
    return bool(c) and U.category(c).startswith("S")


def _u_case(f):
    def mapped(r):
        c = _ch(r)
        return ord(f(c)) if c else r
    return mapped


P.add("IsUpper", fn([R], [B]), lambda r: bool(_ch(r)) and U.is_upper(_ch(r)))
P.add("IsLower", fn([R], [B]), lambda r: bool(_ch(r)) and U.is_lower(_ch(r)))
P.add("IsDigit", fn([R], [B]), lambda r: U.is_digit(_ch(r)))
P.add("IsNumber", fn([R], [B]), lambda r: bool(_ch(r)) and U.is_number(_ch(r)))
P.add("IsLetter", fn([R], [B]), lambda r: U.is_letter(_ch(r)))
P.add("IsSpace", fn([R], [B]), _u_is_space)
P.add("IsPunct", fn([R], [B]), _u_is_punct)
P.add("IsSymbol", fn([R], [B]), _u_is_symbol)
P.add("IsPrint", fn([R], [B]), lambda r: _fmt()._is_print(r))
P.add("IsControl", fn([R], [B]), lambda r: r < 0x20 or 0x7F <= r < 0xA0)
P.add("ToUpper", fn([R], [R]), _u_case(U.to_upper))
P.add("ToLower", fn([R], [R]), _u_case(U.to_lower))
P.add("ToTitle", fn([R], [R]), _u_case(U.to_title))
P.add("SimpleFold", fn([R], [R]), U.simple_fold)
P.add("IsGraphic", fn([R], [B]), lambda r: _fmt().is_graphic(r))
P.add("IsMark", fn([R], [B]), lambda r: bool(_ch(r)) and U.category(_ch(r)).startswith("M"))
P.add("IsTitle", fn([R], [B]), lambda r: bool(_ch(r)) and U.category(_ch(r)) == "Lt")
P.consts["MaxRune"] = (T.U_RUNE, 0x10FFFF)
P.consts["ReplacementChar"] = (T.U_RUNE, 0xFFFD)

P = _pkg("unicode/utf8")


def _decode(s):
    if not s:
        return 0xFFFD, 0
    b = gbytes(s)
    c0 = b[0]
    n = 1 if c0 < 0x80 else 2 if c0 >> 5 == 6 else 3 if c0 >> 4 == 14 else 4 if c0 >> 3 == 30 else 0
    if n == 0 or len(b) < n:
        return 0xFFFD, 1
    try:
        ch = b[:n].decode("utf-8")
    except UnicodeDecodeError:
        return 0xFFFD, 1
    return ord(ch), n


def _decode_last(s):
    if not s:
        return 0xFFFD, 0
    b = gbytes(s)
    for n in range(1, min(4, len(b)) + 1):
        try:
            ch = b[-n:].decode("utf-8")
            if len(ch) == 1:
                return ord(ch), n
        except UnicodeDecodeError:
            continue
    return 0xFFFD, 1


def _rune_len(r):
    if r < 0:
        return -1
    if r < 0x80:
        return 1
    if r < 0x800:
        return 2
    if 0xD800 <= r <= 0xDFFF:
        return -1
    if r < 0x10000:
        return 3
    if r <= 0x10FFFF:
        return 4
    return -1


def _valid(s):
    try:
        gbytes(s).decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


P.add("RuneCountInString", fn([S], [I]), lambda s: len(s))
P.add("RuneCount", fn([T.Slice(BY)], [I]), lambda p: len(gstr(sitems(p))))
P.add("RuneLen", fn([R], [I]), _rune_len)
P.add("DecodeRuneInString", fn([S], [R, I]), _decode)
P.add("DecodeLastRuneInString", fn([S], [R, I]), _decode_last)
P.add("DecodeRune", fn([T.Slice(BY)], [R, I]), lambda p: _decode(gstr(sitems(p))))
P.add("ValidString", fn([S], [B]), _valid)
P.add("ValidRune", fn([R], [B]), lambda r: 0 <= r <= 0x10FFFF and not 0xD800 <= r <= 0xDFFF)
P.add("EncodeRune", fn([T.Slice(BY), R], [I]), lambda p, r: _encode_rune(p, r))
P.consts["RuneError"] = (T.U_RUNE, 0xFFFD)
P.consts["UTFMax"] = (T.U_INT, 4)
P.consts["RuneSelf"] = (T.U_INT, 0x80)


def _encode_rune(p, r):
    from .runtime import rune_str
    b = gbytes(rune_str(r))
    for i, x in enumerate(b):
        from .runtime import sset
        sset(p, i, x)
    return len(b)


# ---- additions: writers, replacers, quoting ---------------------------------------------------------------

def _write_to(w, s: str) -> None:
    """fmt.Fprint* to an io.Writer: a *strings.Builder, or any value with a Write([]byte) method."""
    from .runtime import icall, str_to_bytes
    if w is None:
        from .runtime import nil_deref
        raise nil_deref()
    if isinstance(w.v, Builder):
        w.v.WriteString(s)
        return
    mt = getattr(w.t, "mtab", None) or {}
    if "Write" in mt:
        icall(w, "Write", str_to_bytes(s))
        return
    if "WriteString" in mt:
        icall(w, "WriteString", s)
        return
    raise GoPanic(Iface(T.STRING, f"nanoGo: {w.t.go()} is not an io.Writer"))


def _fprint(kind):
    def f(w, *rest):
        if kind == "f":
            s = _fmt().sprintf(rest[0], sitems(rest[1]))
        elif kind == "ln":
            s = _fmt().sprintln(sitems(rest[0]))
        else:
            s = _fmt().sprint(sitems(rest[0]))
        _write_to(w, s)
        return slen(s), None
    return f


P = PACKAGES["fmt"]
P.add("Fprintf", fn([T.ANY, S, ANYS], [I, T.ERROR], True), _fprint("f"))
P.add("Fprintln", fn([T.ANY, ANYS], [I, T.ERROR], True), _fprint("ln"))
P.add("Fprint", fn([T.ANY, ANYS], [I, T.ERROR], True), _fprint(""))


class Replacer:
    __slots__ = ("pairs",)

    def __init__(self, pairs=()):
        self.pairs = list(pairs)

    @staticmethod
    def _z():
        return Replacer()

    def _cp(self):
        return Replacer(self.pairs)

    def Replace(self, s: str) -> str:
        pairs = self.pairs
        if not pairs:
            return s
        out, i, n = [], 0, len(s)
        while i <= n:
            for old, new in pairs:
                if old and s.startswith(old, i):
                    out.append(new)
                    i += len(old)
                    break
                if not old:
                    out.append(new)
                    if i < n:
                        out.append(s[i])
                    i += 1
                    break
            else:
                if i < n:
                    out.append(s[i])
                i += 1
        return "".join(out)


P = PACKAGES["strings"]
_rt, _n, _c = _opaque("Replacer", "strings", Replacer, {"Replace": fn([S], [S])})
P.types["Replacer"] = _rt
OPAQUE[_n] = _c


def _new_replacer(oldnew):
    items = sitems(oldnew)
    if len(items) % 2:
        raise GoPanic(Iface(T.STRING, "strings.NewReplacer: odd argument count"))
    return Replacer(list(zip(items[::2], items[1::2])))


def _index_func(s, f, last=False):
    idx = -1
    for i, ch in enumerate(s):
        if f(ord(ch)):
            idx = i
            if not last:
                break
    return _byte_index(s, idx) if idx >= 0 else -1


P.add("NewReplacer", fn([T.Slice(S)], [T.pointer_to(_rt)], True), _new_replacer)
P.add("IndexFunc", fn([S, fn([R], [B])], [I]), _index_func)
P.add("LastIndexFunc", fn([S, fn([R], [B])], [I]), lambda s, f: _index_func(s, f, True))
P.add("LastIndexByte", fn([S, BY], [I]), lambda s, b: s_last_index(s, chr(b)))
P.add("LastIndexAny", fn([S, S], [I]), _last_index_any)
P.add("ToTitle", fn([S], [S]), lambda s: U.map_runes(s, U.to_title))
P.add("ContainsFunc", fn([S, fn([R], [B])], [B]), lambda s, f: _index_func(s, f) >= 0)


def _unquote(s):
    from .lexutil import unquote, unquote_rune
    try:
        if len(s) >= 2 and s[0] == s[-1] == "`":
            if "`" in s[1:-1]:
                raise ValueError
            return s[1:-1].replace("\r", ""), None
        if len(s) >= 2 and s[0] in "\"'" and not s.isascii():
            s = "".join(map(U.rune_str_of, s))  # Go reads a byte that is not UTF-8 as U+FFFD here
        if len(s) >= 2 and s[0] == s[-1] == '"':
            body = s[1:-1]
            if "\n" in body or any(body[i] == '"' and (i == 0 or body[i - 1] != "\\") for i in range(len(body))):
                raise ValueError
            return unquote(s), None
        if len(s) >= 3 and s[0] == s[-1] == "'":
            from .runtime import rune_str
            return rune_str(unquote_rune(s)), None
    except (ValueError, IndexError):
        pass
    return "", ERR_SYNTAX


def _append_int(dst, i, base):
    from .runtime import append
    return append(dst, list(gbytes(_fmt_int(i, base))), 1)


P = PACKAGES["strconv"]
P.add("Unquote", fn([S], [S, T.ERROR]), _unquote)
P.add("AppendInt", fn([T.Slice(BY), I64, I], [T.Slice(BY)]), _append_int)
P.add("QuoteToASCII", fn([S], [S]), lambda s: _fmt().quote(s, True))
P.add("QuoteToGraphic", fn([S], [S]), lambda s: _fmt().quote(s, graphic=True))
P.add("FormatComplex", fn([T.COMPLEX128, BY, I, I], [S]),
      lambda c, f, prec, bits: _fmt().format_complex(c, chr(f), prec, 32 if bits == 64 else 64))
P.add("QuoteRuneToGraphic", fn([R], [S]), lambda r: _fmt().quote_rune(r, graphic=True))
P.add("IsPrint", fn([R], [B]), lambda r: _fmt()._is_print(r))
P.add("IsGraphic", fn([R], [B]), lambda r: _fmt().is_graphic(r))
P.add("QuoteRuneToASCII", fn([R], [S]), lambda r: _fmt().quote_rune(r, True))
P.add("AppendQuote", fn([T.Slice(BY), S], [T.Slice(BY)]),
      lambda dst, s: __import__(__name__.rsplit(".", 1)[0] + ".runtime", fromlist=["append"]).append(
          dst, list(gbytes(_fmt().quote(s))), 1))
P.add("IntSize", fn([], [I]), lambda: 64)
P.consts["IntSize"] = (T.U_INT, 64)
del P.funcs["IntSize"]

P = PACKAGES["unicode/utf8"]
P.add("Valid", fn([T.Slice(BY)], [B]), lambda p: _valid(gstr(sitems(p))))


def _append_rune(p, r):
    from .runtime import append, rune_str
    return append(p, list(gbytes(rune_str(r))), 1)


P.add("AppendRune", fn([T.Slice(BY), R], [T.Slice(BY)]), _append_rune)
P.add("FullRuneInString", fn([S], [B]), lambda s: _full_rune(gbytes(s)))
P.add("FullRune", fn([T.Slice(BY)], [B]), lambda p: _full_rune(bytes(sitems(p))))
P.add("RuneStart", fn([BY], [B]), lambda b: b & 0xC0 != 0x80)
P.add("DecodeLastRune", fn([T.Slice(BY)], [R, I]), lambda p: _decode_last(gstr(sitems(p))))
P.add("RuneCountInString", fn([S], [I]), lambda s: len(s))


def _full_rune(b: bytes) -> bool:
    if not b:
        return False
    c0 = b[0]
    need = 1 if c0 < 0x80 else 2 if c0 >> 5 == 6 else 3 if c0 >> 4 == 14 else 4 if c0 >> 3 == 30 else 1
    if len(b) >= need:
        return True
    try:
        b.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.reason != "unexpected end of data"
    return True

def _to_valid_utf8(s, repl):
    out, bad = [], False
    for ch in s:
        if 0xDC80 <= ord(ch) <= 0xDCFF:
            if not bad:
                out.append(repl)
            bad = True
        else:
            out.append(ch)
            bad = False
    return "".join(out)


P = PACKAGES["strings"]
P.add("ToValidUTF8", fn([S, S], [S]), _to_valid_utf8)
P.add("Clone", fn([S], [S]), lambda s: s)
P.add("ContainsFunc", fn([S, fn([R], [B])], [B]), lambda s, f: _index_func(s, f) >= 0)


# ---- fmt scanning: there is no standard input in the sandbox; Sscan* read from a string ------------------

EOF_ERR = new_error("EOF")
UNEXPECTED_EOF = new_error("unexpected EOF")


def _store(target, token: str):
    """Parse token into the variable behind pointer target (an interface value); returns an error or None."""
    t = target.t.elem if isinstance(target.t, T.Pointer) else None
    if t is None:
        return new_error("can't scan type: " + target.t.go())
    u = t.u
    box = target.v
    try:
        if isinstance(u, T.Basic) and u.kind == "int":
            v = int(token, 0) if token[:2].lower() in ("0x", "0b", "0o") else int(token)
            box.v = v
        elif isinstance(u, T.Basic) and u.kind == "float":
            box.v = float(token)
        elif isinstance(u, T.Basic) and u.kind == "string":
            box.v = token
        elif isinstance(u, T.Basic) and u.kind == "bool":
            box.v = {"true": True, "false": False}[token]
        else:
            return new_error("can't scan type: " + target.t.go())
    except (ValueError, KeyError):
        kind = "integer" if isinstance(u, T.Basic) and u.kind == "int" else u.kind if isinstance(u, T.Basic) else "value"
        return new_error(f"expected {kind}")
    return None


def _sscan(s, args, lines=False):
    targets = sitems(args)
    text = s.split("\n", 1)[0] if lines else s
    tokens = U.fields(text)
    n = 0
    for target in targets:
        if n >= len(tokens):
            return n, (UNEXPECTED_EOF if n else EOF_ERR)
        err = _store(target, tokens[n])
        if err is not None:
            return n, err
        n += 1
    return n, None


def _sscanf(s, fmt_, args):
    import re
    targets = sitems(args)
    pattern, kinds = [], []
    i = 0
    while i < len(fmt_):
        ch = fmt_[i]
        if ch == "%" and i + 1 < len(fmt_):
            verb = fmt_[i + 1]
            i += 2
            if verb == "%":
                pattern.append("%")
                continue
            pattern.append(r"\s*(\S+)" if verb in "sv" else r"\s*([-+]?[0-9a-fA-FxXoObB_.eE+]+)" if verb in "dfgexXob"
                           else r"(.)")
            kinds.append(verb)
        elif U.is_space(ch):
            pattern.append(r"\s*")
            i += 1
        else:
            pattern.append(re.escape(ch))
            i += 1
    n = 0
    pos = 0
    for k, part in enumerate(pattern):
        m = re.compile(part).match(s, pos)
        if m is None:
            return n, (new_error("unexpected EOF") if pos >= len(s) else new_error("input does not match format"))
        pos = m.end()
        if m.groups():
            if n >= len(targets):
                return n, new_error("too few operands for format '%" + kinds[n] + "'")
            tok = m.group(1)
            if kinds[n] in "sv" and k + 1 < len(pattern) and not pattern[k + 1].startswith("\\s"):
                pass
            err = _store(targets[n], tok) if kinds[n] != "c" else _store_rune(targets[n], tok)
            if err is not None:
                return n, err
            n += 1
    return n, None


def _store_rune(target, tok):
    target.v.v = ord(tok)
    return None


P = PACKAGES["fmt"]
P.add("Sscan", fn([S, ANYS], [I, T.ERROR], True), _sscan)
P.add("Sscanln", fn([S, ANYS], [I, T.ERROR], True), lambda s, a: _sscan(s, a, True))
P.add("Sscanf", fn([S, S, ANYS], [I, T.ERROR], True), _sscanf)
P.add("Scan", fn([ANYS], [I, T.ERROR], True), lambda a: (0, EOF_ERR))
P.add("Scanln", fn([ANYS], [I, T.ERROR], True), lambda a: (0, EOF_ERR))
P.add("Scanf", fn([S, ANYS], [I, T.ERROR], True), lambda f, a: (0, EOF_ERR))
