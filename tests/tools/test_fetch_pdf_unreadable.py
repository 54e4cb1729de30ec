"""url_fetch of a PDF some of whose pages cannot be read (fonts without a Unicode map) tells the model which
pages were left out, as ``kb add`` says it: they were dropped unsaid, and the model took the rest for the
whole document."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kb.test_pdf_unmapped import HARBOUR, _pdf
from tinyrag_desktop.tools.readable import UnreadableContent
from tinyrag_desktop.tools.registry import ToolContext
from tinyrag_desktop.tools.web import url_fetch

from .conftest import LoopbackServer

TIDES = "Tide tables for the harbour."
WHY = ('the fonts there do not say which letters they show, so the text read from them would be gibberish like '
       '"$HGH$HGH"')


def _ctx(data_dir: Path, **settings: object) -> ToolContext:
    return ToolContext(settings={"url_fetch_allow_private": True, **settings}, data_dir=data_dir)


async def test_the_pages_left_out_are_named(server: LoopbackServer, data_dir: Path) -> None:
    pdf = _pdf([("helvetica", TIDES), ("type0", HARBOUR), ("helvetica", "Moorings are free in winter."),
                ("type0", HARBOUR)])
    url = server.static("/harbour.pdf", pdf, "application/pdf")
    result = await url_fetch(url, _ctx(data_dir))
    assert TIDES in result.text and "Moorings are free in winter." in result.text
    assert result.text.endswith(f"\n\n[2 of the 4 pages were left out (pages 2, 4): {WHY}. They are not in the "
                                "text above.]")
    assert result.source == url


async def test_one_page_left_out_is_named(server: LoopbackServer, data_dir: Path) -> None:
    url = server.static("/harbour.pdf", _pdf([("helvetica", TIDES), ("type0", HARBOUR)]), "application/pdf")
    result = await url_fetch(url, _ctx(data_dir))
    assert result.text.endswith(f"[Page 2 of 2 was left out: {WHY}. It is not in the text above.]")


async def test_many_pages_left_out_are_counted_and_the_first_named(server: LoopbackServer, data_dir: Path) -> None:
    pdf = _pdf([("helvetica", TIDES)] + [("type0", HARBOUR)] * 12)
    url = server.static("/harbour.pdf", pdf, "application/pdf")
    result = await url_fetch(url, _ctx(data_dir))
    assert "[12 of the 13 pages were left out (pages 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 2 more)" in result.text


async def test_a_pdf_of_unreadable_pages_only_says_why(server: LoopbackServer, data_dir: Path) -> None:
    url = server.static("/printed.pdf", _pdf([("type0", HARBOUR)] * 2), "application/pdf")
    with pytest.raises(UnreadableContent) as caught:
        await url_fetch(url, _ctx(data_dir))
    # it said "no text layer (it may be scanned images)"
    assert str(caught.value) == f"The PDF's text cannot be read: {WHY}. Text recognition (OCR) would read it."


async def test_a_readable_pdf_has_no_note(server: LoopbackServer, data_dir: Path) -> None:
    url = server.static("/tides.pdf", _pdf([("helvetica", TIDES)]), "application/pdf")
    result = await url_fetch(url, _ctx(data_dir))
    assert result.text.endswith(f"[page 1]\n{TIDES}")


async def test_pages_left_out_of_a_pdf_read_in_part_are_counted_among_those_read(
        server: LoopbackServer, data_dir: Path) -> None:
    # reading stops once the text wanted is in hand (200 characters here), on page 4 of 10: it said "[2 of the
    # 10 pages were left out …]", as though the other six had been read and kept
    first, fourth = "Tides. " * 9, "Moorings are free in winter. " * 6
    pdf = _pdf([("helvetica", first), ("type0", HARBOUR), ("type0", HARBOUR), ("helvetica", fourth)]
               + [("helvetica", "Buoys are red to port.")] * 6)
    url = server.static("/harbour.pdf", pdf, "application/pdf")
    result = await url_fetch(url, _ctx(data_dir, result_max_chars=200))
    assert result.text.endswith(f"[2 of the 4 pages read (of 10) were left out (pages 2, 3): {WHY}. They are not "
                                "in the text above.]")
    assert "Buoys" not in result.text


async def test_one_page_left_out_of_a_pdf_read_in_part_is_counted_among_those_read(
        server: LoopbackServer, data_dir: Path) -> None:
    pdf = _pdf([("type0", HARBOUR), ("helvetica", "Tides. " * 40)] + [("helvetica", "Buoys are red to port.")] * 3)
    url = server.static("/harbour.pdf", pdf, "application/pdf")
    result = await url_fetch(url, _ctx(data_dir, result_max_chars=200))
    assert result.text.endswith(f"[Page 1 of the 2 pages read (of 5) was left out: {WHY}. It is not in the text "
                                "above.]")
