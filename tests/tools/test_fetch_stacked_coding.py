"""url_fetch and a body packed twice over (``Content-Encoding: gzip, gzip``): refused before it is unpacked.

httpx unpacked the outer layer's piece whole, so the inner bomb (1 GB of zeros in 1.8 KB) was in memory
before the 5 MB cap was looked at. Now the body is read raw and unpacked within the cap (content_coding.py)."""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

import httpx
import pytest

from tinyrag_desktop.tools import netutil
from tinyrag_desktop.tools.errors import ToolError
from tinyrag_desktop.tools.fetch import FetchLimits, FetchPolicy, fetch
from tinyrag_desktop.tools.netutil import describe_http_error, plain_get
from tinyrag_desktop.tools.registry import ToolContext
from tinyrag_desktop.tools.web import url_fetch

from .conftest import LoopbackServer

PAGE = b"<html><head><title>Tides</title></head><body><p>Spring tides rise six metres here.</p></body></html>"
LOOPBACK = FetchPolicy(allow_private=True)


def ctx(data_dir: Path) -> ToolContext:
    return ToolContext(settings={"url_fetch_allow_private": True}, data_dir=data_dir)


def _zeros_gzipped(megabytes: int) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = b"\0" * (1 << 20)
    return b"".join([packer.compress(zeros) for _ in range(megabytes)] + [packer.flush()])


async def test_a_page_gzipped_twice_is_refused(server: LoopbackServer, data_dir: Path) -> None:
    body = gzip.compress(_zeros_gzipped(64))  # 64 MB of zeros in about 200 bytes
    url = server.static("/bomb", body, "text/plain", headers={"Content-Encoding": "gzip, gzip"})
    with pytest.raises(ToolError) as info:
        await url_fetch(url, ctx(data_dir))
    assert str(info.value) == ("The server packed the page twice (Content-Encoding: gzip, gzip), which is refused: "
                               f"a small download could unpack to gigabytes: {url}")


async def test_a_coding_it_does_not_unpack_is_refused(server: LoopbackServer, data_dir: Path) -> None:
    url = server.static("/br", b"\x0b\x02\x80hello\x03", "text/plain", headers={"Content-Encoding": "br"})
    with pytest.raises(ToolError, match="packed the page as 'br', which tinyRAG does not unpack"):
        await url_fetch(url, ctx(data_dir))


async def test_a_gzip_bomb_stops_at_the_cap(server: LoopbackServer) -> None:
    url = server.static("/one", _zeros_gzipped(8), "text/plain", headers={"Content-Encoding": "gzip"})
    got = await fetch(url, policy=LOOPBACK, limits=FetchLimits(max_bytes=100_000))
    assert (len(got.body), got.truncated, got.cut) == (100_000, True, "size")


@pytest.mark.parametrize("header, packed", [
    ("gzip", gzip.compress(PAGE)), ("deflate", zlib.compress(PAGE)), ("deflate", zlib.compress(PAGE, wbits=-15)),
    ("identity", PAGE), ("gzip, identity", gzip.compress(PAGE)),
])
async def test_one_coding_still_reads(server: LoopbackServer, header: str, packed: bytes) -> None:
    url = server.static("/page", packed, "text/html", headers={"Content-Encoding": header})
    got = await fetch(url, policy=LOOPBACK)
    assert (got.body, got.truncated) == (PAGE, False)


async def test_a_page_exactly_at_the_cap_is_whole(server: LoopbackServer) -> None:
    url = server.static("/exact", gzip.compress(PAGE), "text/html", headers={"Content-Encoding": "gzip"})
    got = await fetch(url, policy=LOOPBACK, limits=FetchLimits(max_bytes=len(PAGE)))
    assert (got.body, got.truncated, got.cut) == (PAGE, False, "")


async def test_an_api_answer_gzipped_twice_is_refused(server: LoopbackServer) -> None:
    """Wikipedia's and SearXNG's answers (plain_get) are unpacked here too, within a cap."""
    body = gzip.compress(_zeros_gzipped(64))
    url = server.static("/api.php", body, "application/json", headers={"Content-Encoding": "gzip, gzip"})
    async with httpx.AsyncClient() as client:
        with pytest.raises(httpx.HTTPError) as info:
            await plain_get(client, url, params={}, headers={}, timeout=httpx.Timeout(5.0))
    assert describe_http_error(info.value, "Wikipedia (en)") == (
        "Wikipedia (en) sent an answer that is refused: the server packed the page twice (Content-Encoding: "
        "gzip, gzip), which is refused: a small download could unpack to gigabytes.")


async def test_an_api_answer_past_the_cap_is_refused(server: LoopbackServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(netutil, "MOST_ANSWER_BYTES", 1 << 20)
    url = server.static("/big", _zeros_gzipped(8), "application/json", headers={"Content-Encoding": "gzip"})
    async with httpx.AsyncClient() as client:
        with pytest.raises(httpx.HTTPError) as info:
            await plain_get(client, url, params={}, headers={}, timeout=httpx.Timeout(5.0))
    assert describe_http_error(info.value, "The SearXNG instance") == (
        "The SearXNG instance sent an answer that is refused: the answer is larger than 1 MB.")


async def test_an_api_answer_gzipped_once_reads(server: LoopbackServer) -> None:
    url = server.static("/ok", gzip.compress(b'{"query": {"pages": []}}'), "application/json",
                        headers={"Content-Encoding": "gzip"})
    async with httpx.AsyncClient() as client:
        response = await plain_get(client, url, params={}, headers={}, timeout=httpx.Timeout(5.0))
    assert response.json() == {"query": {"pages": []}}
    assert server.seen[0].headers["accept-encoding"] == "gzip, deflate"
