"""Go literal syntax: string and rune literals with their escapes."""

from __future__ import annotations

_SIMPLE = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92, "'": 39, '"': 34}


def _escapes(body: str):
    """Yield ("b", byte) for \\x and octal escapes and ("r", rune) for everything else."""
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch != "\\":
            yield "r", ord(ch)
            i += 1
            continue
        e = body[i + 1]
        if e in _SIMPLE:
            yield "r", _SIMPLE[e]
            i += 2
        elif e == "x":
            yield "b", int(body[i + 2:i + 4], 16)
            i += 4
        elif e == "u":
            yield "r", int(body[i + 2:i + 6], 16)
            i += 6
        elif e == "U":
            yield "r", int(body[i + 2:i + 10], 16)
            i += 10
        elif e in "01234567":
            yield "b", int(body[i + 1:i + 4], 8)
            i += 4
        else:
            raise ValueError(f"unknown escape sequence \\{e}")


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
    for kind, v in _escapes(body):
        return v
    raise ValueError("empty rune literal")
