"""The small pieces of XML the protocol needs: a tolerant start-tag reader and entity decoding."""

from __future__ import annotations

import re
from dataclasses import dataclass

_ENTITY = re.compile(r"&(?:(lt|gt|amp|quot|apos)|#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6}));")
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}


def _entity(m: re.Match[str]) -> str:
    named, dec, hexa = m.groups()
    if named:
        return _NAMED[named]
    code = int(dec) if dec else int(hexa, 16)
    if code == 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        return m.group(0)  # not a character: keep the text as written
    return chr(code)


def decode_content(text: str) -> str:
    """Decode XML character and entity references; anything else (a lone ``&``, ``&&``) stays as written."""
    if "&" not in text:
        return text
    return _ENTITY.sub(_entity, text)


@dataclass(frozen=True, slots=True)
class StartTag:
    """What ``parse_start_tag`` read. ``error`` is set when the text cannot be (the start of) a start tag;
    ``error_at`` is then the index of the first character that rules it out. ``problem`` is set when a
    whole start tag was read but is not well-formed XML (an attribute given twice): the block is invalid."""

    name: str = ""
    self_closing: bool = False
    error: str = ""
    error_at: int = 0
    problem: str = ""


_NAME_START = re.compile(r"[A-Za-z_:]")
_NAME_CHAR = re.compile(r"[-\w.:]")
_WS = " \t\r\n"

# Reader states.
_S_WS, _S_ATTR, _S_NAME, _S_AFTER_NAME, _S_AFTER_EQ, _S_VALUE, _S_AFTER_VALUE, _S_SLASH = range(8)


def parse_start_tag(text: str, *, complete: bool) -> StartTag:
    """Read ``<tool attr="v" ...>`` from ``text`` (which starts with ``"<tool "``).

    With ``complete`` the text ends with the tag's ``>``; without it, the text is a prefix and only an
    error that no continuation could mend is reported.
    """
    attrs: dict[str, str] = {}
    repeated = ""
    state = _S_WS
    attr_name_start = 0
    attr_name = ""
    quote = ""
    value_start = 0
    i = len("<tool")
    n = len(text)
    while i < n:
        c = text[i]
        if state in (_S_WS, _S_ATTR, _S_AFTER_VALUE):
            if c in _WS:
                state = _S_ATTR
            elif c == ">":
                break
            elif c == "/":
                state = _S_SLASH
            elif state == _S_AFTER_VALUE:
                return StartTag(error="attributes must be separated by spaces", error_at=i)
            elif _NAME_START.match(c):
                attr_name_start = i
                state = _S_NAME
            else:
                return StartTag(error=f"unexpected {c!r} in the <tool ...> start tag", error_at=i)
        elif state == _S_NAME:
            if _NAME_CHAR.match(c):
                pass
            elif c in _WS or c == "=":
                attr_name = text[attr_name_start:i]
                state = _S_AFTER_EQ if c == "=" else _S_AFTER_NAME
            else:
                return StartTag(error=f"unexpected {c!r} in an attribute name", error_at=i)
        elif state == _S_AFTER_NAME:
            if c == "=":
                state = _S_AFTER_EQ
            elif c not in _WS:
                return StartTag(error='an attribute needs ="value"', error_at=i)
        elif state == _S_AFTER_EQ:
            if c in "\"'":
                quote, value_start, state = c, i + 1, _S_VALUE
            elif c not in _WS:
                return StartTag(error="attribute values must be quoted", error_at=i)
        elif state == _S_VALUE:
            if c == quote:
                if attr_name in attrs:
                    repeated = repeated or attr_name
                attrs.setdefault(attr_name, text[value_start:i])
                state = _S_AFTER_VALUE
            elif c in "<>":
                return StartTag(error=f"{c!r} inside an attribute value", error_at=i)
        elif state == _S_SLASH:
            if c != ">":
                return StartTag(error="'/' must be followed by '>'", error_at=i)
            break
        i += 1
    if not complete:
        return StartTag()
    name = decode_content(attrs.get("name", "")).strip()
    problem = f"the attribute {repeated}= is given twice" if repeated else ""
    return StartTag(name=name, self_closing=state == _S_SLASH, problem=problem)
