"""Optional embeddings through the server's OpenAI-compatible ``/embeddings`` endpoint.

When the settings name an ``embed_model``, imports embed every chunk (in batches) and store the unit-length
vectors beside it; searches embed the query and fuse vector ranks with BM25. Without a model nothing here
runs and the knowledge base works fully offline.
"""

from __future__ import annotations

import json
import math
from typing import Any, Callable, Mapping, Sequence
from urllib.parse import urlsplit

import httpx

from ..http_clients import async_client, sync_client
from ..server_said import says_error, server_message
from .errors import Cancelled, FetchError, Unreachable
from .waiting import cancellable

BATCH = 64
TIMEOUT = httpx.Timeout(120.0, connect=10.0)


def _unit(vector: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [x / norm for x in vector]


def _request(settings: Mapping[str, Any]) -> tuple[str, dict[str, str]]:
    url = str(settings.get("base_url", "")).rstrip("/") + "/embeddings"
    key = str(settings.get("api_key", "") or "")
    return url, ({"Authorization": f"Bearer {key}"} if key else {})


def _unreachable(exc: httpx.HTTPError, url: str) -> Unreachable:
    """The error to raise when the request to ``url`` got no answer, in a person's words rather than
    httpx's ("[Errno 111] Connection refused"): "the embedding server could not be reached (nothing
    answers at 127.0.0.1:11434)"."""
    from ..tools.netutil import connect_failure  # only on a failure: the tools package is not needed else

    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2] or url
    if isinstance(exc, httpx.ConnectTimeout):
        why = f"{host} did not answer in time"
    elif isinstance(exc, httpx.TimeoutException):
        why = f"{host} took longer than {TIMEOUT.read:.0f} seconds to answer"
    elif isinstance(exc, httpx.ConnectError):
        why = {"refused": f"nothing answers at {host}",
               "name": f"no server is named {parts.hostname}: check the address in Settings",
               "certificate": f"the certificate of {host} could not be verified",
               "unreachable": f"the network to {host} is unreachable"}.get(connect_failure(exc),
                                                                           f"{host} did not answer")
    else:
        why = f"the connection to {host} broke off before it answered"
    return Unreachable(f"the embedding server could not be reached ({why})")


def _server_said(response: httpx.Response) -> str:
    """What a failed answer says, in its own words (see server_said.server_message), on one line: a JSON error's
    words all (its second line was cut off), the first line of a plain-text answer, an error page's title; ""
    for JSON that says no error ({"object": "list", "data": []} is no reason, and was shown as one)."""
    said = server_message(response.text)
    try:
        body = json.loads(response.text)
    except (ValueError, RecursionError):  # RecursionError: brackets nested thousands deep
        said = next((line for line in said.splitlines() if line.strip()), "")
    else:
        said = said if says_error(body) else ""
    return " ".join(said.split())[:_MOST_SAID]


_MOST_SAID = 200  # characters of the server's own words kept in the message


def _refusal(response: httpx.Response, model: str) -> FetchError:
    """A failed answer in words: what its status means for the import, then what the server said."""
    status = response.status_code
    if status in (401, 403):
        what = f"refused the API key (error {status})"
    elif status == 404:
        what = f"has no embedding model named {model!r}, or no /embeddings address (error 404)"
    elif status >= 500:
        what = f"failed (error {status})"
    else:
        what = f"refused the request (error {status})"
    said = _server_said(response)
    return FetchError(f"the embedding server {what}" + (f": {said}" if said else ""))


def _vectors(response: httpx.Response, count: int, model: str) -> list[list[float]]:
    if response.status_code != 200:
        raise _refusal(response, model)
    try:
        items = sorted(response.json()["data"], key=lambda d: d.get("index", 0))
        vectors = [_unit([float(x) for x in item["embedding"]]) for item in items]
    except (ValueError, KeyError, TypeError) as exc:
        raise FetchError(f"the embedding server's answer is not an embeddings list ({exc})") from exc
    if len(vectors) != count:
        raise FetchError(f"the embedding server returned {len(vectors)} vectors for {count} texts")
    return vectors


class Embedder:
    """Embeds texts with ``settings['embed_model']``, synchronously (imports run off the GUI thread)."""

    def __init__(self, settings: Mapping[str, Any], client: httpx.Client | None = None) -> None:
        self.model = str(settings.get("embed_model", "") or "")
        self.url, self.headers = _request(settings)
        self._owns_client = client is None
        self.client = client or sync_client(timeout=TIMEOUT)

    def close(self) -> None:
        """Close the connection it opened (a client passed in belongs to the caller)."""
        if self._owns_client:
            self.client.close()

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> "Embedder | None":
        return cls(settings) if settings.get("embed_model") else None

    def embed(self, texts: Sequence[str], cancelled: Callable[[], bool] | None = None) -> list[list[float]]:
        """One unit vector per text; ``cancelled`` is asked between batches (a long document's many
        batches can take minutes on a small server), and Cancelled raised when it says so."""
        out: list[list[float]] = []
        for start in range(0, len(texts), BATCH):
            if cancelled is not None and cancelled():
                raise Cancelled("the import was cancelled")
            batch = list(texts[start:start + BATCH])
            out.extend(_vectors(self._post(batch, cancelled), len(batch), self.model))
        return out

    def _post(self, batch: list[str], cancelled: Callable[[], bool] | None) -> httpx.Response:
        """The server's answer for one batch. With ``cancelled``, the request runs on a thread of its own and
        Cancelled is raised as soon as ``cancelled()`` turns true (see waiting.py): a batch the server took
        its time over held Cancel up for its whole time-out, 120 seconds."""
        def post() -> httpx.Response:
            try:
                return self.client.post(self.url, json={"model": self.model, "input": batch},
                                        headers=self.headers)
            except httpx.HTTPError as exc:
                raise _unreachable(exc, self.url) from exc

        return post() if cancelled is None else cancellable(post, cancelled, "kb-embed")


async def embed_query(settings: Mapping[str, Any], query: str,
                      http: httpx.AsyncClient | None = None) -> list[float] | None:
    """The query's vector, or None when no embedding model is set; raises FetchError when the server fails."""
    model = str(settings.get("embed_model", "") or "")
    if not model or not query.strip():
        return None
    url, headers = _request(settings)
    try:
        if http is None:
            async with async_client(timeout=TIMEOUT) as own:
                response = await own.post(url, json={"model": model, "input": [query]}, headers=headers)
        else:
            response = await http.post(url, json={"model": model, "input": [query]}, headers=headers)
    except httpx.HTTPError as exc:
        raise _unreachable(exc, url) from exc
    return _vectors(response, 1, model)[0]


async def query_vector(settings: Mapping[str, Any], query: str,
                       http: httpx.AsyncClient | None = None) -> tuple[list[float] | None, str]:
    """The query's vector for a search (None without an embedding model), and why there is none when
    the server failed: searches then go on with keywords alone rather than fail."""
    try:
        return await embed_query(settings, query, http), ""
    except FetchError as exc:
        return None, str(exc)
