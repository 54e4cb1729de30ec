"""Character references (``&amp;``, ``&#233;``) in outside text decoded as ``html.unescape`` does, for any text.

``html.unescape`` turns a decimal reference into a Python int, and Python refuses to read a number of more
than 4,300 digits: a page, an error body or a model's reply holding ``&#`` and 5,000 digits raised a
ValueError wherever its text was decoded. Such a number is past the last character (U+10FFFF) whatever its
digits, and decodes to U+FFFD, as a browser shows it; the leading zeros of a long one are dropped first.
"""

from __future__ import annotations

import html
import re

# Decimal references of more than 7 digits: after their leading zeros, the number may still be a character.
_LONG_DECIMAL = re.compile(r"&#(\d{8,})")
_PAST_LAST = "9999999"  # any number past 0x10FFFF decodes to U+FFFD


def _shortened(match: re.Match[str]) -> str:
    digits = match.group(1).lstrip("0") or "0"
    return "&#" + (digits if len(digits) <= 7 else _PAST_LAST)


def unescape(text: str) -> str:
    """``text`` with its character references decoded, as ``html.unescape``; never raises."""
    return html.unescape(_LONG_DECIMAL.sub(_shortened, text) if "&#" in text else text)
