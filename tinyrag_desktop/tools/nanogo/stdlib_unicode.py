"""unicode and unicode/utf8: classes of runes, case mapping, UTF-8 decoding and encoding."""

from __future__ import annotations

from . import gounicode as U
from . import types as T
from .fmtverbs import is_graphic, is_print
from .runtime import sitems
from .runtime_basic import gbytes, gstr
from .stdlib import B, BY, I, R, S, _pkg, fn


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
P.add("IsPrint", fn([R], [B]), lambda r: is_print(r))
P.add("IsControl", fn([R], [B]), lambda r: r < 0x20 or 0x7F <= r < 0xA0)
P.add("ToUpper", fn([R], [R]), _u_case(U.to_upper))
P.add("ToLower", fn([R], [R]), _u_case(U.to_lower))
P.add("ToTitle", fn([R], [R]), _u_case(U.to_title))
P.add("SimpleFold", fn([R], [R]), U.simple_fold)
P.add("IsGraphic", fn([R], [B]), lambda r: is_graphic(r))
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
    from .runtime_basic import rune_str
    b = gbytes(rune_str(r))
    for i, x in enumerate(b):
        from .runtime import sset
        sset(p, i, x)
    return len(b)


P.add("Valid", fn([T.Slice(BY)], [B]), lambda p: _valid(gstr(sitems(p))))


def _append_rune(p, r):
    from .runtime import append
    from .runtime_basic import rune_str
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
