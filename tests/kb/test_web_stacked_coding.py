"""Importing a page packed twice over (``Content-Encoding: gzip, gzip``): refused with a reason, before it is
unpacked (a 980-byte answer took kb add to 1.09 GB). One coding still reads, within the page's limit."""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

import pytest

from tests.loopback import coded_pages, serving
from tinyrag_desktop.kb import ImportItem, Importer, open_store
from tinyrag_desktop.kb.errors import FetchError
from tinyrag_desktop.kb.web import fetch_url

PAGE = b"<html><head><title>Tides</title></head><body><p>Spring tides rise six metres in the estuary.</p></body></html>"


def _zeros(megabytes: int) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = b"\0" * (1 << 20)
    return b"".join([packer.compress(zeros) for _ in range(megabytes)] + [packer.flush()])


_BODIES = {
    "/twice": ("gzip, gzip", gzip.compress(_zeros(64))),
    "/br": ("br", b"\x0b\x02\x80hello\x03"),
    "/bomb": ("gzip", _zeros(4)),
    "/sound": ("gzip", gzip.compress(PAGE)),
    "/raw-deflate": ("deflate", zlib.compress(PAGE, wbits=-15)),
}


@pytest.fixture
def server():
    with serving(coded_pages(_BODIES)) as url:
        yield url


@pytest.mark.parametrize("cancelled", [None, lambda: False])
def test_a_page_gzipped_twice_is_refused(server, cancelled):
    with pytest.raises(FetchError) as info:
        fetch_url(f"{server}/twice", 1 << 20, cancelled=cancelled)
    assert str(info.value) == ("the server packed the page twice (Content-Encoding: gzip, gzip), which is refused: "
                               "a small download could unpack to gigabytes")


def test_a_coding_it_does_not_unpack_is_refused(server):
    with pytest.raises(FetchError, match="packed the page as 'br', which tinyRAG does not unpack"):
        fetch_url(f"{server}/br", 1 << 20)


def test_a_gzip_bomb_past_the_limit_is_too_large(server):
    with pytest.raises(FetchError, match=r"^the page is too large \(over 1 MB; the limit is 1 MB\)$"):
        fetch_url(f"{server}/bomb", 1 << 20)


@pytest.mark.parametrize("path", ["/sound", "/raw-deflate"])
def test_one_coding_still_reads(server, path):
    assert fetch_url(f"{server}{path}", len(PAGE)).data == PAGE


def test_kb_add_goes_on_past_a_page_packed_twice(server, tmp_path: Path):
    kb = open_store(tmp_path / "data")
    try:
        report = Importer(kb).run([ImportItem("url", f"{server}/twice"), ImportItem("url", f"{server}/sound")])
    finally:
        kb.close()
    assert [f.reason for f in report.failed] == [
        "the server packed the page twice (Content-Encoding: gzip, gzip), which is refused: "
        "a small download could unpack to gigabytes"]
    assert report.added == [f"{server}/sound"]
