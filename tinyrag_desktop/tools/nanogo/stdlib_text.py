"""strconv, and fmt's text input and output: Fprint* to an io.Writer, Sscan* from a string."""

from __future__ import annotations

from . import goatof
from . import gounicode as U
from . import types as T
from .fmtverbs import format_complex, is_graphic, is_print, quote, quote_rune
from .goftoa import format_float
from .runtime import GoPanic, Iface, sitems
from .runtime_basic import gbytes, slen
from .stdlib import ANYS, B, BY, F, I, I64, PACKAGES, R, S, _fmt, _pkg, error_text, fn, new_error
from .stdlib_strings import Builder


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


NUMERR_P.mtab = {"Error": lambda e: f"strconv.{e.Func}: parsing {quote(e.Num)}: {error_text(e.Err)}",
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
    return format_float(f, chr(fmtc), prec, bits)


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
P.add("Quote", fn([S], [S]), lambda s: quote(s))
P.add("QuoteRune", fn([R], [S]), lambda r: quote_rune(r))
P.types["NumError"] = NUMERR
P.vars["ErrSyntax"] = (T.ERROR, "_std_strconv_ErrSyntax")
P.vars["ErrRange"] = (T.ERROR, "_std_strconv_ErrRange")
P.impl["_std_strconv_ErrSyntax"] = ERR_SYNTAX
P.impl["_std_strconv_ErrRange"] = ERR_RANGE


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
            from .runtime_basic import rune_str
            return rune_str(unquote_rune(s)), None
    except (ValueError, IndexError):
        pass
    return "", ERR_SYNTAX


def _append_int(dst, i, base):
    from .runtime import append
    return append(dst, list(gbytes(_fmt_int(i, base))), 1)


P.add("Unquote", fn([S], [S, T.ERROR]), _unquote)
P.add("AppendInt", fn([T.Slice(BY), I64, I], [T.Slice(BY)]), _append_int)
P.add("QuoteToASCII", fn([S], [S]), lambda s: quote(s, True))
P.add("QuoteToGraphic", fn([S], [S]), lambda s: quote(s, graphic=True))
P.add("FormatComplex", fn([T.COMPLEX128, BY, I, I], [S]),
      lambda c, f, prec, bits: format_complex(c, chr(f), prec, 32 if bits == 64 else 64))
P.add("QuoteRuneToGraphic", fn([R], [S]), lambda r: quote_rune(r, graphic=True))
P.add("IsPrint", fn([R], [B]), lambda r: is_print(r))
P.add("IsGraphic", fn([R], [B]), lambda r: is_graphic(r))
P.add("QuoteRuneToASCII", fn([R], [S]), lambda r: quote_rune(r, True))
P.add("AppendQuote", fn([T.Slice(BY), S], [T.Slice(BY)]),
      lambda dst, s: __import__(__name__.rsplit(".", 1)[0] + ".runtime", fromlist=["append"]).append(
          dst, list(gbytes(quote(s))), 1))
P.add("IntSize", fn([], [I]), lambda: 64)
P.consts["IntSize"] = (T.U_INT, 64)
del P.funcs["IntSize"]


# ---- fmt writers: Fprint* to an io.Writer ---------------------------------------------------------------

def _write_to(w, s: str) -> None:
    """fmt.Fprint* to an io.Writer: a *strings.Builder, or any value with a Write([]byte) method."""
    from .runtime import icall
    from .runtime_basic import str_to_bytes
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


P.add("Sscan", fn([S, ANYS], [I, T.ERROR], True), _sscan)
P.add("Sscanln", fn([S, ANYS], [I, T.ERROR], True), lambda s, a: _sscan(s, a, True))
P.add("Sscanf", fn([S, S, ANYS], [I, T.ERROR], True), _sscanf)
P.add("Scan", fn([ANYS], [I, T.ERROR], True), lambda a: (0, EOF_ERR))
P.add("Scanln", fn([ANYS], [I, T.ERROR], True), lambda a: (0, EOF_ERR))
P.add("Scanf", fn([S, ANYS], [I, T.ERROR], True), lambda f, a: (0, EOF_ERR))
