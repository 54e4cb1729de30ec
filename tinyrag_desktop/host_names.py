"""Whether a web address's server name can be one: its parts (labels) present, short enough, and well formed.

httpx takes "www.ex..ample.com", "xn--" and a 70-letter label as they are; the name then failed only when the
connection was made, in codec words ("UnicodeError: encoding with 'idna' codec failed (label empty or too
long)", "IDNAError: Malformed A-label"). Checked here first, so the address check that the command line, the
Knowledge panel and the model's url_fetch share says what is wrong in words (RFC 1035 2.3.4; RFC 5890).
"""

from __future__ import annotations

import ipaddress

import idna

_LABEL_MOST = 63  # octets in one part of the name, as it is sent (punycode for other scripts)
_NAME_MOST = 253  # octets in the whole name
# The full stops Chinese and Japanese input methods type (。．｡), which IDNA reads as dots (UTS 46; RFC 3490
# 3.1): http://日本語。jp/ is http://日本語.jp/.
_DOTS = str.maketrans("\u3002\uff0e\uff61", "...")


def plain_dots(host: str) -> str:
    """``host`` with the full stops other scripts type as name dots written as ASCII dots."""
    return host.translate(_DOTS)


def host_name_problem(host: str) -> str:
    """What keeps ``host`` (a URL's server name, without port or brackets) from being a server's name, in
    words ("" when nothing does). An IP address is one; a name may end in a dot (the root: "example.org.")."""
    if not host or ":" in host:  # none, or an IPv6 address: the URL parser checks those
        return ""
    try:
        ipaddress.IPv4Address(host)
        return ""
    except ValueError:
        pass
    host = plain_dots(host)
    name = host[:-1] if host.endswith(".") else host
    labels = name.split(".")
    if not name or "" in labels:
        return f"the name {host} has an empty part (two dots together, or a dot at its start)"
    encoded = []
    for label in labels:
        try:
            ascii_label = label.encode("ascii") if label.isascii() else idna.alabel(label)
            if ascii_label[:4].lower() == b"xn--":  # said to be punycode: it must decode to a name
                idna.ulabel(ascii_label)
        except (idna.IDNAError, UnicodeError):
            part = f"the part {label!r} of the name {_short(host)}" if len(labels) > 1 else f"the name {host}"
            return f"{part} is not a valid international name"
        if len(ascii_label) > _LABEL_MOST:
            return f"the name {_short(host)} has a part longer than {_LABEL_MOST} letters"
        encoded.append(ascii_label)
    if sum(map(len, encoded)) + len(encoded) - 1 > _NAME_MOST:
        return f"the name {_short(host)} is longer than {_NAME_MOST} letters"
    return ""


def _short(host: str) -> str:
    return host if len(host) <= 60 else host[:30] + "…" + host[-20:]
