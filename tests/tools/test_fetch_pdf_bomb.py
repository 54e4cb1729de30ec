"""url_fetch of a PDF whose page unpacks past the PDF reader's memory cap: refused with the reason, read in a
helper process, not in the window's (it took the app to 2 GB for a 1 MB PDF)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pdf_bomb import pdf_bomb
from tinyrag_desktop.kb import pdf_apart
from tinyrag_desktop.tools.errors import ToolError
from tinyrag_desktop.tools.registry import ToolContext
from tinyrag_desktop.tools.web import url_fetch

from .conftest import LoopbackServer

pytestmark = pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="the memory cap is Linux's")


async def test_a_pdf_bomb_is_refused_with_the_reason(server: LoopbackServer, data_dir: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdf_apart, "MOST_MB", 32)
    context = ToolContext(settings={"url_fetch_allow_private": True}, data_dir=data_dir)
    url = server.static("/bomb.pdf", pdf_bomb(128), "application/pdf")
    with pytest.raises(ToolError) as info:
        await url_fetch(url, context)
    assert str(info.value) == f"The PDF could not be read: {pdf_apart.TOO_LARGE.format(mb=32)}."
    small = server.static("/small.pdf", pdf_bomb(8, "the tide tables"), "application/pdf")
    assert "the tide tables" in (await url_fetch(small, context)).text
