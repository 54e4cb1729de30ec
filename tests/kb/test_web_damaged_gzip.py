"""Importing a page whose server sends it compressed, and damaged: the reason says so, not that the
connection broke off (it did not). Against a loopback server only."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from tests.loopback import coded_pages, serving
from tinyrag_desktop.kb import ImportItem, Importer, open_store
from tinyrag_desktop.kb.errors import FetchError
from tinyrag_desktop.kb.web import fetch_url

DAMAGED = ("could not be downloaded: the server sent a compressed page that could not be decompressed "
           "(the page it sent is damaged)")
PAGE = b"<html><head><title>Tides</title></head><body><p>Spring tides rise six metres in the estuary.</p></body></html>"
_BODIES = {
    "/garbage": ("gzip", b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + b"\xff" * 300),  # a gzip header, then junk
    "/plain": ("gzip", PAGE),  # never compressed, whatever the header says
    "/deflate": ("deflate", b"\xff\xfe\xfd" * 100),
    "/sound": ("gzip", gzip.compress(PAGE)),
}


@pytest.fixture
def server():
    with serving(coded_pages(_BODIES)) as url:
        yield url


@pytest.mark.parametrize("path", ["/garbage", "/plain", "/deflate"])
def test_a_damaged_compressed_page_is_named_so(server, path):
    with pytest.raises(FetchError) as info:
        fetch_url(f"{server}{path}", 1 << 20)
    assert str(info.value) == DAMAGED
    with pytest.raises(FetchError) as info:  # the same on the thread an import waits on, with Cancel
        fetch_url(f"{server}{path}", 1 << 20, cancelled=lambda: False)
    assert str(info.value) == DAMAGED


def test_kb_add_of_a_damaged_compressed_page_gives_the_reason(server, tmp_path: Path):
    kb = open_store(tmp_path / "data")
    try:
        report = Importer(kb).run([ImportItem("url", f"{server}/garbage"), ImportItem("url", f"{server}/sound")])
    finally:
        kb.close()
    assert [f.reason for f in report.failed] == [DAMAGED]
    assert report.added == [f"{server}/sound"]
