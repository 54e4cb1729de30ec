"""A web address typed into the Knowledge panel's URL dialog: what it means, and what keeps it from being one."""

from __future__ import annotations

from ..kb.errors import FetchError
from ..kb.web import normalize_url, typed_address


def with_scheme(text: str) -> str:
    """``example.org/guide.html`` as the address meant, ``https://example.org/guide.html``;
    ``localhost:8000/notes.html`` as ``http://localhost:8000/notes.html`` (see typed_address)."""
    return typed_address(text) or text


def web_address_problem(text: str) -> str:
    """What keeps ``text`` from being a web address to import, in words ("" when it is one); a name with a
    dot and no scheme ("example.org/guide") is taken as https, a local one ("localhost:8000/notes.html",
    "192.168.1.5/wiki") as http."""
    if " " in text:
        return "An address has no spaces."
    if typed_address(text) is None:
        return "Type a web address, like https://example.org/guide.html."
    try:
        normalize_url(with_scheme(text))
    except FetchError as exc:
        reason = str(exc)
        return reason[0].upper() + reason[1:] + "."
    return ""
