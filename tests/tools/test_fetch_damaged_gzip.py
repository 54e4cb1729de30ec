"""url_fetch on a page the server sends compressed and damaged: it says so, not the decoder's words
("DecodingError: Error -3 while decompressing data: invalid code lengths set")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tinyrag_desktop.tools.errors import ToolError
from tinyrag_desktop.tools.registry import ToolContext
from tinyrag_desktop.tools.web import url_fetch

from .conftest import LoopbackServer


def ctx(data_dir: Path) -> ToolContext:
    return ToolContext(settings={"url_fetch_allow_private": True}, data_dir=data_dir)


@pytest.mark.parametrize("encoding, body", [
    ("gzip", b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + b"\xff" * 300),  # a gzip header, then garbage
    ("gzip", b"this was never compressed at all, whatever the server says" * 10),
    ("deflate", b"\xff\xfe\xfd" * 100),
])
async def test_a_damaged_compressed_page_says_so(server: LoopbackServer, data_dir: Path, encoding: str,
                                                 body: bytes) -> None:
    url = server.static("/article", body, "text/html; charset=utf-8", headers={"Content-Encoding": encoding})
    with pytest.raises(ToolError) as info:
        await url_fetch(url, ctx(data_dir))
    assert str(info.value) == ("127.0.0.1 sent a compressed page that could not be decompressed: "
                                 "the page it sent is damaged.")


async def test_a_sound_compressed_page_still_reads(server: LoopbackServer, data_dir: Path) -> None:
    url = server.gzip("/packed.txt", b"the harbour closes at dusk")
    assert (await url_fetch(url, ctx(data_dir))).text.endswith("the harbour closes at dusk")
