"""strings: searching, splitting, trimming and case mapping, strings.Builder and strings.Replacer."""

from __future__ import annotations

from . import gounicode as U
from . import types as T
from .runtime import GoPanic, Iface, Slice, sitems, slice_of
from .runtime_basic import gstr, scmp, slen
from .stdlib import B, BY, I, OPAQUE, R, S, _opaque, _pkg, fn


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
    from .runtime_basic import rune_str
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
        from .runtime_basic import rune_str
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


# ---- strings.Replacer, and more of strings --------------------------------------------------------------

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


P.add("ToValidUTF8", fn([S, S], [S]), _to_valid_utf8)
P.add("Clone", fn([S], [S]), lambda s: s)
P.add("ContainsFunc", fn([S, fn([R], [B])], [B]), lambda s, f: _index_func(s, f) >= 0)
