"""A web address typed into the Knowledge panel's URL dialog: what it means, and what keeps it from being one."""

from __future__ import annotations

from ..kb.errors import FetchError
from ..kb.web import normalize_url


def with_scheme(text: str) -> str:
    """``example.org/guide.html`` as the address meant, ``https://example.org/guide.html``."""
    return text if "://" in text else f"https://{text}"


def web_address_problem(text: str) -> str:
    """What keeps ``text`` from being a web address to import, in words ("" when it is one); a name with a
    dot and no scheme ("example.org/guide") is taken as https."""
    if " " in text:
        return "An address has no spaces."
    if "://" not in text and "." not in text.split("/", 1)[0]:
        return "Type a web address, like https://example.org/guide.html."
    try:
        normalize_url(with_scheme(text))
    except FetchError as exc:
        reason = str(exc)
        return reason[0].upper() + reason[1:] + "."
    return ""
