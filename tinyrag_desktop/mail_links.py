"""A ``mailto:`` link the model writes, as it may open: its address, subject, body and copies only.

Some mail programs have honoured ``?attach=/path`` (Evolution, KMail and Thunderbird have had such bugs): a
model steered by a page or a document could have a file from this computer attached to a draft the user
sends without looking. Every field but ``to``, ``cc``, ``subject`` and ``body`` is left out, in the window
and in an exported chat.
"""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

MAIL_FIELDS = ("to", "cc", "subject", "body")


def safe_mailto(href: str) -> str:
    """``href`` (a mailto: address) without the fields it should not carry (attach=, bcc=, …); the fields
    kept are written as they were. Any other address is returned as it is."""
    try:
        parts = urlsplit(href.strip())
    except ValueError:
        return href
    if parts.scheme.lower() != "mailto" or "?" not in href:
        return href
    kept = [field for field in parts.query.split("&")
            if unquote(field.partition("=")[0]).strip().lower() in MAIL_FIELDS]
    address = href.strip()[len(parts.scheme) + 1:].partition("?")[0]
    return f"mailto:{address}" + (f"?{'&'.join(kept)}" if kept else "")
