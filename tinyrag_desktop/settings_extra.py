"""The settings.json keys outside the schema that the web tools read (README: "Two more keys"), checked as
every other key is: a value of the wrong kind is said in words, naming the key and what it should be, and
the default is used. Written by hand, they failed as Python errors ("'int' object is not iterable")."""

from __future__ import annotations

import ipaddress
from typing import Any, Mapping

from .settings import Option, SettingsError, shown

WIKIPEDIA_API_URL = "wikipedia_api_url"
TRUSTED_NETWORKS = "url_fetch_trusted_networks"
READ_AS_EXTRA = frozenset({WIKIPEDIA_API_URL, TRUSTED_NETWORKS})
_DEFAULT_WORDS = {WIKIPEDIA_API_URL: "Wikipedia's own address", TRUSTED_NETWORKS: "none"}
# Checked as the schema's addresses are; "{lang}" stands for the edition (wikipedia_api.api_url_for).
_WIKIPEDIA_API = Option(WIKIPEDIA_API_URL, str, "", "", form="url or empty",
                        example="https://{lang}.wikipedia.org/w/api.php")
_NETWORKS_SHAPE = f'{TRUSTED_NETWORKS} must be a list of networks, such as ["10.20.0.0/16", "127.0.0.1/32"]'

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def wikipedia_api_url(value: Any) -> str | None:
    """The MediaWiki API address ``value`` names (None: Wikipedia's own); raises SettingsError saying why a
    value is no such address."""
    if value is None:
        return None
    return _WIKIPEDIA_API.check(value) or None


def trusted_networks(value: Any) -> tuple[tuple[Network, ...], list[str]]:
    """The networks ``value`` lists, and the entries that are no network (left out: a typo must not open
    more than was meant). One network written as text ("127.0.0.1/32") is taken as a list of that one;
    raises SettingsError for a value that is neither a list nor text (5, true, {})."""
    if value is None:
        return (), []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise SettingsError(f"{_NETWORKS_SHAPE}, not {shown(value)}.")
    networks: list[Network] = []
    bad: list[str] = []
    for item in value:
        try:
            if not isinstance(item, str):
                raise ValueError(item)
            networks.append(ipaddress.ip_network(item.strip(), strict=False))
        except ValueError:
            bad.append(shown(item, 40))
    return tuple(networks), bad


def checked(key: str, value: Any) -> tuple[Any, str | None]:
    """``value`` of the extra setting ``key`` as the tools are to read it (None: its default), and what is
    wrong with it, in words (None: nothing)."""
    try:
        if key == WIKIPEDIA_API_URL:
            return wikipedia_api_url(value), None
        networks, bad = trusted_networks(value)
    except SettingsError as exc:
        return None, f"{exc} Using the default, {_DEFAULT_WORDS[key]}."
    kept = [str(net) for net in networks]
    if not bad:
        return kept, None
    left_out = ", ".join(bad[:10]) + (f" and {len(bad) - 10:,} more" if len(bad) > 10 else "")
    what = "is no network" if len(bad) == 1 else "are no networks"
    return kept, (f"{TRUSTED_NETWORKS}: {left_out} {what} (a network is written like “10.20.0.0/16” or "
                  f"“127.0.0.1/32”), left out." + (" No network is trusted." if not kept else ""))


def usable_api_url(value: Any) -> str | None:
    """The wikipedia_api_url the tools ask (None: Wikipedia's own): ``value`` as settings read by
    load_settings hold it (checked there, which said what was wrong) or as a plain mapping gives it; a
    value that is no address is not used."""
    try:
        return wikipedia_api_url(value)
    except SettingsError:
        return None


def usable_networks(value: Any) -> tuple[Network, ...]:
    """The networks url_fetch may reach though private addresses are off (see usable_api_url)."""
    try:
        return trusted_networks(value)[0]
    except SettingsError:
        return ()
