"""Go's rune classes and case mappings, from Python's Unicode tables.

Go maps case one rune to one rune (UnicodeData.txt's simple mappings); Python's str.upper() and
str.lower() use the full mappings, which can give several characters ("ß".upper() is "SS", "İ".lower()
is "i̇"). Where they differ, Go's simple mapping is taken: the few runes whose full mapping is longer
either have no simple mapping (Go leaves them alone) or are listed below.

Go 1.19's tables are Unicode 13.0's; Python 3.11's are 14.0's. The 836 code points 14.0 assigned are
unassigned for Go (not letters, not printable, no case): `category` answers "Cn" for them, and every
property here goes through it. (The list is what go1.19.8 and Python 3.11 disagreed on, rune by rune.)

Go's white space (unicode.IsSpace, used by strings.TrimSpace and strings.Fields) is Unicode's White_Space
property; Python's str.isspace() and str.split() also count U+001C..U+001F, which Go does not.
"""

from __future__ import annotations

import unicodedata

_NEW_IN_14 = (
    (0x61D, 0x61D), (0x870, 0x88E), (0x898, 0x89F), (0x8B5, 0x8B5), (0x8C8, 0x8D2), (0xC3C, 0xC3C),
    (0xC5D, 0xC5D), (0xCDD, 0xCDD), (0x170D, 0x170D), (0x1715, 0x1715), (0x171F, 0x171F), (0x180F, 0x180F),
    (0x1AC1, 0x1ACE), (0x1B4C, 0x1B4C), (0x1B7D, 0x1B7E), (0x1DFA, 0x1DFA), (0x20C0, 0x20C0), (0x2C2F, 0x2C2F),
    (0x2C5F, 0x2C5F), (0x2E53, 0x2E5D), (0x9FFD, 0x9FFF), (0xA7C0, 0xA7C1), (0xA7D0, 0xA7D1), (0xA7D3, 0xA7D3),
    (0xA7D5, 0xA7D9), (0xA7F2, 0xA7F4), (0xFBC2, 0xFBC2), (0xFD40, 0xFD4F), (0xFDCF, 0xFDCF), (0xFDFE, 0xFDFF),
    (0x10570, 0x1057A), (0x1057C, 0x1058A), (0x1058C, 0x10592), (0x10594, 0x10595), (0x10597, 0x105A1),
    (0x105A3, 0x105B1), (0x105B3, 0x105B9), (0x105BB, 0x105BC), (0x10780, 0x10785), (0x10787, 0x107B0),
    (0x107B2, 0x107BA), (0x10F70, 0x10F89), (0x11070, 0x11075), (0x110C2, 0x110C2), (0x116B9, 0x116B9),
    (0x11740, 0x11746), (0x11AB0, 0x11ABF), (0x12F90, 0x12FF2), (0x16A70, 0x16ABE), (0x16AC0, 0x16AC9),
    (0x1AFF0, 0x1AFF3), (0x1AFF5, 0x1AFFB), (0x1AFFD, 0x1AFFE), (0x1B11F, 0x1B122), (0x1CF00, 0x1CF2D),
    (0x1CF30, 0x1CF46), (0x1CF50, 0x1CFC3), (0x1D1E9, 0x1D1EA), (0x1DF00, 0x1DF1E), (0x1E290, 0x1E2AE),
    (0x1E7E0, 0x1E7E6), (0x1E7E8, 0x1E7EB), (0x1E7ED, 0x1E7EE), (0x1E7F0, 0x1E7FE), (0x1F6DD, 0x1F6DF),
    (0x1F7F0, 0x1F7F0), (0x1F979, 0x1F979), (0x1F9CC, 0x1F9CC), (0x1FA7B, 0x1FA7C), (0x1FAA9, 0x1FAAC),
    (0x1FAB7, 0x1FABA), (0x1FAC3, 0x1FAC5), (0x1FAD7, 0x1FAD9), (0x1FAE0, 0x1FAE7), (0x1FAF0, 0x1FAF6),
    (0x2A6DE, 0x2A6DF), (0x2B735, 0x2B738),
)
NEW_IN_14 = frozenset(chr(c) for a, b in _NEW_IN_14 for c in range(a, b + 1))


def category(ch: str) -> str:
    """The rune's general category as Go 1.19 (Unicode 13.0) has it."""
    return "Cn" if ch in NEW_IN_14 else unicodedata.category(ch)


def is_letter(ch: str) -> bool:
    return ch.isalpha() and ch not in NEW_IN_14


def is_digit(ch: str) -> bool:
    return ch.isdecimal() and ch not in NEW_IN_14


# unicode.IsSpace
SPACE = frozenset("\t\n\v\f\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000"
                  + "".join(chr(c) for c in range(0x2000, 0x200B)))

# Simple mappings Python's full mappings hide: İ lowers to i; the Greek letters with ypogegrammeni
# upper-case to their title-case forms (ᾀ -> ᾈ, ᾳ -> ᾼ).
_LOWER = {"\u0130": "i"}
_UPPER = {chr(c): chr(c | 0x8) for c in range(0x1F80, 0x1FB0)}
_UPPER.update({"\u1fb3": "\u1fbc", "\u1fc3": "\u1fcc", "\u1ff3": "\u1ffc",
               "\u1fbc": "\u1fbc", "\u1fcc": "\u1fcc", "\u1ffc": "\u1ffc"})


def is_space(ch: str) -> bool:
    return ch in SPACE


def to_lower(ch: str) -> str:
    if ch in NEW_IN_14:
        return ch
    m = ch.lower()
    return m if len(m) == 1 else _LOWER.get(ch, ch)


def to_upper(ch: str) -> str:
    if ch in NEW_IN_14:
        return ch
    m = ch.upper()
    return m if len(m) == 1 else _UPPER.get(ch, ch)


def to_title(ch: str) -> str:
    if ch in NEW_IN_14:
        return ch
    m = ch.title()  # one character: its title-case mapping (ǆ -> ǅ)
    return m if len(m) == 1 else ch


# Go's caseOrbit: the case-folding orbits of more than two runes (K k K, S s ſ, ...), each rune to the next.
_CASE_ORBIT = dict((
    (0x004B, 0x006B), (0x0053, 0x0073), (0x006B, 0x212A), (0x0073, 0x017F), (0x00B5, 0x039C), (0x00C5, 0x00E5),
    (0x00DF, 0x1E9E), (0x00E5, 0x212B), (0x0130, 0x0130), (0x0131, 0x0131), (0x017F, 0x0053), (0x01C4, 0x01C5),
    (0x01C5, 0x01C6), (0x01C6, 0x01C4), (0x01C7, 0x01C8), (0x01C8, 0x01C9), (0x01C9, 0x01C7), (0x01CA, 0x01CB),
    (0x01CB, 0x01CC), (0x01CC, 0x01CA), (0x01F1, 0x01F2), (0x01F2, 0x01F3), (0x01F3, 0x01F1), (0x0345, 0x0399),
    (0x0392, 0x03B2), (0x0395, 0x03B5), (0x0398, 0x03B8), (0x0399, 0x03B9), (0x039A, 0x03BA), (0x039C, 0x03BC),
    (0x03A0, 0x03C0), (0x03A1, 0x03C1), (0x03A3, 0x03C2), (0x03A6, 0x03C6), (0x03A9, 0x03C9), (0x03B2, 0x03D0),
    (0x03B5, 0x03F5), (0x03B8, 0x03D1), (0x03B9, 0x1FBE), (0x03BA, 0x03F0), (0x03BC, 0x00B5), (0x03C0, 0x03D6),
    (0x03C1, 0x03F1), (0x03C2, 0x03C3), (0x03C3, 0x03A3), (0x03C6, 0x03D5), (0x03C9, 0x2126), (0x03D0, 0x0392),
    (0x03D1, 0x03F4), (0x03D5, 0x03A6), (0x03D6, 0x03A0), (0x03F0, 0x039A), (0x03F1, 0x03A1), (0x03F4, 0x0398),
    (0x03F5, 0x0395), (0x0412, 0x0432), (0x0414, 0x0434), (0x041E, 0x043E), (0x0421, 0x0441), (0x0422, 0x0442),
    (0x042A, 0x044A), (0x0432, 0x1C80), (0x0434, 0x1C81), (0x043E, 0x1C82), (0x0441, 0x1C83), (0x0442, 0x1C84),
    (0x044A, 0x1C86), (0x0462, 0x0463), (0x0463, 0x1C87), (0x1C80, 0x0412), (0x1C81, 0x0414), (0x1C82, 0x041E),
    (0x1C83, 0x0421), (0x1C84, 0x1C85), (0x1C85, 0x0422), (0x1C86, 0x042A), (0x1C87, 0x0462), (0x1C88, 0xA64A),
    (0x1E60, 0x1E61), (0x1E61, 0x1E9B), (0x1E9B, 0x1E60), (0x1E9E, 0x00DF), (0x1FBE, 0x0345), (0x2126, 0x03A9),
    (0x212A, 0x004B), (0x212B, 0x00C5), (0xA64A, 0xA64B), (0xA64B, 0x1C88),
))


def simple_fold(r: int) -> int:
    """unicode.SimpleFold: the next rune, upwards and round, that folds to the same as r."""
    if not 0 <= r <= 0x10FFFF:
        return r
    if r in _CASE_ORBIT:
        return _CASE_ORBIT[r]
    if 0xD800 <= r <= 0xDFFF:
        return r
    ch = chr(r)
    low = to_lower(ch)
    return ord(low) if low != ch else ord(to_upper(ch))


def rune_of(ch: str) -> int:
    """The rune Go reads for one character of a string: a byte that is not UTF-8 reads as U+FFFD."""
    return 0xFFFD if "\udc80" <= ch <= "\udcff" else ord(ch)


def rune_set(s: str) -> frozenset:
    return frozenset(rune_of(ch) for ch in s)


def rune_str_of(ch: str) -> str:
    """string(r) for the rune one character reads as."""
    return "\ufffd" if "\udc80" <= ch <= "\udcff" else ch


def _runes(s: str):
    """A Go string's runes: a byte that is not UTF-8 (held as a lone surrogate) reads as U+FFFD."""
    return [0xFFFD if "\udc80" <= ch <= "\udcff" else ord(ch) for ch in s]


def equal_fold(s: str, t: str) -> bool:
    """strings.EqualFold: rune by rune under simple case folding (Go's loop over SimpleFold)."""
    a, b = _runes(s), _runes(t)
    if len(a) != len(b):
        return False
    for sr, tr in zip(a, b):
        if sr == tr:
            continue
        if tr < sr:
            sr, tr = tr, sr
        if tr < 0x80:
            if 0x41 <= sr <= 0x5A and tr == sr + 0x20:
                continue
            return False
        r = simple_fold(sr)
        while r != sr and r < tr:
            r = simple_fold(r)
        if r != tr:
            return False
    return True


def map_runes(s: str, f) -> str:
    """strings.Map with f: a byte that is not UTF-8 (held as a lone surrogate) becomes U+FFFD, as in Go."""
    return "".join(f("\ufffd" if "\udc80" <= ch <= "\udcff" else ch) for ch in s)


def is_upper(ch: str) -> bool:
    """Category Lu (Python's isupper() also takes Other_Uppercase symbols such as Ⓐ)."""
    return category(ch) == "Lu"


def is_lower(ch: str) -> bool:
    return category(ch) == "Ll"


def is_number(ch: str) -> bool:
    """Category N (Python's isnumeric() also takes ideographs with a numeric value, such as 一)."""
    return category(ch).startswith("N")


def fields(s: str) -> list[str]:
    """strings.Fields: the runs of non-space runes."""
    out, start = [], -1
    for i, ch in enumerate(s):
        if ch in SPACE:
            if start >= 0:
                out.append(s[start:i])
                start = -1
        elif start < 0:
            start = i
    if start >= 0:
        out.append(s[start:])
    return out


def trim_space(s: str) -> str:
    i, j = 0, len(s)
    while i < j and s[i] in SPACE:
        i += 1
    while j > i and s[j - 1] in SPACE:
        j -= 1
    return s[i:j]
