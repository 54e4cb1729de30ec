"""Addresses as they are shown and logged: a password written in one (``http://alice:s3cret@host/v1``) is
replaced with "***", so the status bar, an error, the command line's messages and the log never show it.
Requests still use the address as written. Pure: no imports beyond the standard library."""

from __future__ import annotations

import re

MASK = "***"  # as the knowledge base shows a web address's (kb.models)

# scheme://user:password@ — the user info runs to the last "@" before the host's path (a password typed with
# a raw "@" in it is hidden whole); what has no ":" in it is a user name only, shown as it is.
_USER_INFO = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)([^\s/?#@]*(?:@[^\s/?#@]*)*)@(?=[^\s/?#@]*(?:[/?#\s]|$))")


def hide_passwords(text: str) -> str:
    """``text`` with the password of every address in it replaced with :data:`MASK`."""
    if "@" not in text:
        return text
    return _USER_INFO.sub(_hidden, text)


def _hidden(match: re.Match[str]) -> str:
    scheme, user_info = match.group(1), match.group(2)
    user, colon, _ = user_info.partition(":")
    return f"{scheme}{user}:{MASK}@" if colon else match.group(0)
