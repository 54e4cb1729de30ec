"""A response body's Content-Encoding undone here, a piece at a time, never past the bytes the caller has room for.

httpx unpacks each piece of a body whole, and with two codings (``Content-Encoding: gzip, gzip``) the outer
one hands the inner one the whole inner bomb at once: 1.8 KB on the wire became 1 GB, then 2 GB of memory,
before url_fetch's 5 MB cap was looked at. So url_fetch and the knowledge base's web import read the raw
body (``iter_raw``) and unpack it with :class:`BodyDecoder`, which is pure (bytes in, bytes out, no I/O):

- one coding at most: ``gzip`` (or ``x-gzip``), ``deflate`` (zlib, or raw deflate as some servers send it),
  or none (``identity``). Two or more, or one tinyRAG does not unpack (``br``, ``zstd``, ``compress``), are
  refused with :class:`RefusedCoding` before a byte is read;
- :meth:`BodyDecoder.decode` gives at most ``most`` bytes; what more the input holds stays packed in the
  decoder until asked for. A caller that wants to know whether a body passes a cap asks for one byte more
  than the cap allows.
- a body that does not unpack raises :class:`DamagedBody`.
"""

from __future__ import annotations

import zlib

# What the web tools tell servers they take: exactly what BodyDecoder unpacks.
ACCEPT_ENCODING = "gzip, deflate"
_GZIP = ("gzip", "x-gzip")


class Error(Exception):
    """A body that cannot be unpacked here; the message says why, in words."""


class RefusedCoding(Error):
    """The server packed the body in a way this module does not unpack (two codings, or an unknown one)."""


class DamagedBody(Error):
    """The body does not unpack as its Content-Encoding says."""


def codings(header: str) -> list[str]:
    """The codings a Content-Encoding header names, in the order they were applied, without ``identity``."""
    return [c for c in (part.strip().lower() for part in header.split(",")) if c and c != "identity"]


class BodyDecoder:
    """A body's Content-Encoding (the header's value, ``""`` for none) undone as its raw bytes come."""

    def __init__(self, content_encoding: str) -> None:
        found = codings(content_encoding)
        if len(found) > 1:
            times = "twice" if len(found) == 2 else f"{len(found)} times over"
            raise RefusedCoding(f"the server packed the page {times} "
                                f"(Content-Encoding: {content_encoding.strip()}), which is refused: "
                                "a small download could unpack to gigabytes")
        self.coding = found[0] if found else ""
        if self.coding and self.coding not in _GZIP and self.coding != "deflate":
            raise RefusedCoding(f"the server packed the page as {self.coding!r}, which tinyRAG does not unpack "
                                f"(only gzip and deflate)")
        self._zlib: "zlib._Decompress | None" = None
        if self.coding in _GZIP:
            self._zlib = zlib.decompressobj(zlib.MAX_WBITS | 16)
        elif self.coding == "deflate":
            self._zlib = zlib.decompressobj()
        # deflate: the first bytes, until there are two (a zlib header's length); when they turn out not
        # to be zlib, they are read again as raw deflate
        self._start: bytes | None = b""
        self._held = b""  # input not yet unpacked (identity: bytes not yet given)

    def decode(self, raw: bytes, most: int) -> bytes:
        """``raw`` (the next piece of the body as it came) unpacked, at most ``most`` bytes of it; what more
        it holds waits for the next call (with ``raw=b""`` to ask for it alone). Raises DamagedBody."""
        data = self._held + raw if self._held else raw
        self._held = b""
        if self._zlib is None:
            self._held = data[most:]
            return data[:most]
        if not data or most <= 0:
            self._held = data
            return b""
        try:
            out = self._zlib.decompress(data, most)
        except zlib.error as exc:
            if not (self._start is not None and self.coding == "deflate"):
                raise DamagedBody(f"the page does not unpack ({exc})") from None
            self._zlib = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate, with no zlib header
            data, self._start = self._start + data, None
            return self.decode(data, most)
        if self._start is not None:  # a zlib header is two bytes: past them, it is zlib
            self._start = self._start + data if len(self._start) + len(data) < 2 else None
        self._held = self._zlib.unconsumed_tail
        return out

    def pending(self) -> bool:
        """Whether bytes remain that :meth:`decode` has not given yet (it was asked for fewer)."""
        return bool(self._held)

    def finish(self, most: int) -> bytes:
        """What the decoder still holds at the end of the body, at most ``most`` bytes."""
        out = self.decode(b"", most) if self._held else b""
        if self._zlib is not None and not self._held and len(out) < most:
            try:
                out += self._zlib.flush()[: most - len(out)]
            except zlib.error as exc:
                raise DamagedBody(f"the page does not unpack ({exc})") from None
        return out
