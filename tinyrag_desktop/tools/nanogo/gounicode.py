"""Go's rune classes and case mappings, from Python's Unicode tables.

Go maps case one rune to one rune (UnicodeData.txt's simple mappings); Python's str.upper() and
str.lower() use the full mappings, which can give several characters ("ß".upper() is "SS", "İ".lower()
is "i̇"). Where they differ, Go's simple mapping is taken: the few runes whose full mapping is longer
either have no simple mapping (Go leaves them alone) or are listed below.

Go's white space (unicode.IsSpace, used by strings.TrimSpace and strings.Fields) is Unicode's White_Space
property; Python's str.isspace() and str.split() also count U+001C..U+001F, which Go does not.
"""

from __future__ import annotations

import unicodedata

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
    m = ch.lower()
    return m if len(m) == 1 else _LOWER.get(ch, ch)


def to_upper(ch: str) -> str:
    m = ch.upper()
    return m if len(m) == 1 else _UPPER.get(ch, ch)


def to_title(ch: str) -> str:
    m = ch.title()  # one character: its title-case mapping (ǆ -> ǅ)
    return m if len(m) == 1 else ch


def map_runes(s: str, f) -> str:
    """strings.Map with f: a byte that is not UTF-8 (held as a lone surrogate) becomes U+FFFD, as in Go."""
    return "".join(f("\ufffd" if "\udc80" <= ch <= "\udcff" else ch) for ch in s)


def is_upper(ch: str) -> bool:
    """Category Lu (Python's isupper() also takes Other_Uppercase symbols such as Ⓐ)."""
    return unicodedata.category(ch) == "Lu"


def is_lower(ch: str) -> bool:
    return unicodedata.category(ch) == "Ll"


def is_number(ch: str) -> bool:
    """Category N (Python's isnumeric() also takes ideographs with a numeric value, such as 一)."""
    return unicodedata.category(ch).startswith("N")


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
