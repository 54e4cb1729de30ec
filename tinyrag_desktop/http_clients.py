"""The HTTP clients the app makes: the environment's proxy for the world, never for this machine.

httpx reads ``HTTP_PROXY``, ``HTTPS_PROXY``, ``ALL_PROXY`` and ``NO_PROXY`` as curl does, and without a
``NO_PROXY`` naming them it sent requests for 127.0.0.1 to the proxy too. On a machine with a proxy set for
the whole session (a company network, ``/etc/environment``), the local model server could not be reached:
"The model server at http://127.0.0.1:11434/v1 cannot be reached", with Ollama running. A proxy cannot
reach this machine's own servers, so the loopback addresses always go direct here; every other address
follows the environment.

A proxy setting httpx cannot use (``HTTP_PROXY=ftp://…``, a port that is no number) raised from the client's
constructor, a traceback before any window or answer. Such a setting is said once in words in the log,
and the client connects directly instead.
"""

from __future__ import annotations

import logging
import os
import urllib.request
from typing import Any
from urllib.parse import urlsplit

import httpx

log = logging.getLogger(__name__)

# The hosts that are this machine (httpx's patterns match them with any port and scheme).
LOOPBACK = ("all://localhost", "all://127.0.0.1", "all://[::1]")
_PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")
_said: set[str] = set()


def async_client(**options: Any) -> httpx.AsyncClient:
    """An ``httpx.AsyncClient`` with ``options``, whose requests to this machine never go through a proxy."""
    return _made(httpx.AsyncClient, options)


def sync_client(**options: Any) -> httpx.Client:
    """An ``httpx.Client`` with ``options``, whose requests to this machine never go through a proxy."""
    return _made(httpx.Client, options)


def proxy_note(url: str) -> str:
    """" Requests to it go through the proxy …" when the environment sends ``url`` to a proxy ("" when not).

    A model server on this network named by a host name ("http://gpu-box:8000/v1", or this machine's own
    name) went through the session's proxy, and failing, was said only to be unreachable."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError:
        return ""
    if not host or host in ("localhost", "127.0.0.1", "::1"):
        return ""  # always asked directly (LOOPBACK)
    proxies = urllib.request.getproxies_environment()
    proxy = proxies.get(parts.scheme.lower()) or proxies.get("all")
    if not proxy or urllib.request.proxy_bypass_environment(host, proxies):
        return ""
    try:
        shown = urlsplit(proxy)
        where = f"{shown.scheme}://{shown.hostname}" + (f":{shown.port}" if shown.port else "")
    except ValueError:
        where = "set in the environment"
    return (f" Requests to it go through the proxy {where} (HTTP_PROXY and the like): if the server is on "
            f"this machine or your network, add {host} to NO_PROXY.")


def _made(kind: Any, options: dict[str, Any]) -> Any:
    if options.get("transport") is not None or options.get("trust_env") is False:
        return kind(**options)  # a transport of the caller's own, or no proxy at all: nothing to route
    direct = {pattern: None for pattern in LOOPBACK}  # None: the client's own transport, with no proxy
    mounts = {**direct, **options.pop("mounts", {})}
    try:
        return kind(mounts=mounts, **options)
    except (ValueError, ImportError, httpx.InvalidURL) as exc:
        _say_unusable(exc)
        return kind(mounts=mounts, trust_env=False, **options)


def _say_unusable(exc: Exception) -> None:
    names = [name for name in _PROXY_VARIABLES if os.environ.get(name) or os.environ.get(name.lower())]
    named = " or ".join(names) or "the environment"
    words = f"The proxy set in {named} cannot be used ({exc}); tinyRAG connects without it."
    if words not in _said:  # once a run, not once a request
        _said.add(words)
        log.warning("%s", words)
