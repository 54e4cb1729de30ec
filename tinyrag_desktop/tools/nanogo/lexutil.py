"""Go literal syntax: string and rune literals with their escapes."""

from __future__ import annotations

_SIMPLE = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92, "'": 39, '"': 34}


class EscapeError(ValueError):
    """A malformed escape, with Go's message and the offset (in the literal's body) Go reports it at."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.offset = offset


_DIGITS = {16: ("0123456789abcdefABCDEF", "hexadecimal"), 8: ("01234567", "octal")}


def _number(body: str, start: int, count: int, base: int, quote: str) -> int:
    digits, name = _DIGITS[base]
    for j in range(start, start + count):
        if j >= len(body) or body[j] not in digits:
            shown = repr(body[j]) if j < len(body) else ("'\\''" if quote == "'" else "'\"'")  # Go's %q
            raise EscapeError(f"invalid character {shown} in {name} escape", j)
    return int(body[start:start + count], base)


def _escapes(body: str, quote: str = '"'):
    """Yield ("b", byte) for \\x and octal escapes and ("r", rune) for everything else."""
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch != "\\":
            yield "r", ord(ch)
            i += 1
            continue
        e = body[i + 1] if i + 1 < n else ""
        if e and e in _SIMPLE:
            yield "r", _SIMPLE[e]
            i += 2
        elif e == "x":
            yield "b", _number(body, i + 2, 2, 16, quote)
            i += 4
        elif e in ("u", "U"):
            width = 4 if e == "u" else 8
            v = _number(body, i + 2, width, 16, quote)
            if v > 0x10FFFF or 0xD800 <= v < 0xE000:
                raise EscapeError(f"escape is invalid Unicode code point U+{v:04X}", i + 2 + width)
            yield "r", v
            i += 2 + width
        elif e and e in "01234567":
            v = _number(body, i + 1, 3, 8, quote)
            if v > 255:
                raise EscapeError(f"octal escape value {v} > 255", i + 4)
            yield "b", v
            i += 4
        else:
            raise EscapeError("unknown escape", i + 1)


def unquote(lit: str) -> str:
    """The value of an interpreted string literal (with quotes), as a surrogateescape str."""
    body = lit[1:-1]
    if "\\" not in body:
        return body
    out = bytearray()
    for kind, v in _escapes(body):
        if kind == "b":
            out.append(v)
        else:
            out.extend(chr(v).encode("utf-8", "surrogatepass"))
    return out.decode("utf-8", "surrogateescape")


def unquote_rune(lit: str) -> int:
    body = lit[1:-1]
    for kind, v in _escapes(body, "'"):
        return v
    raise ValueError("empty rune literal")
