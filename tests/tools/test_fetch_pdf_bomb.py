"""url_fetch of a PDF whose page unpacks past the PDF reader's memory cap: refused with the reason, read in a
helper process, not in the window's (it took the app to 2 GB for a 1 MB PDF)."""

from __future__ import annotations

import asyncio
import signal
import sys
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


async def test_stopping_url_fetch_of_a_pdf_ends_its_reading(server: LoopbackServer, data_dir: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop (or the tool's timeout) cancels url_fetch while a PDF is read in a thread: the helper reading it
    is killed, and the one PDF reader is free again (an import waited for it, with no way to cancel)."""
    pdf_apart._stop()
    monkeypatch.setattr(pdf_apart, "_CANNOT", [])
    reading = ("import sys, threading\n"  # the real helper, whose url_fetch reading never ends
               "from tinyrag_desktop.kb import pdf, pdf_apart\n"
               "pdf.pdf_pages = lambda data, most: threading.Event().wait()\n"
               "sys.exit(pdf_apart.main())\n")
    monkeypatch.setattr(pdf_apart, "_command", lambda: [sys.executable, "-c", reading])
    context = ToolContext(settings={"url_fetch_allow_private": True}, data_dir=data_dir)
    fetching = asyncio.create_task(url_fetch(server.static("/long.pdf", pdf_bomb(8), "application/pdf"), context))
    try:
        for _ in range(1200):  # the helper starts in well under a second
            if pdf_apart._LOCK.locked() and pdf_apart._HELPER is not None:
                break
            await asyncio.sleep(0.05)
        helper = pdf_apart._HELPER
        assert helper is not None
        fetching.cancel()
        with pytest.raises(asyncio.CancelledError):
            await fetching
        assert await asyncio.to_thread(helper.process.wait, 60) == -signal.SIGKILL
        assert await asyncio.to_thread(pdf_apart._LOCK.acquire, True, 60)
        pdf_apart._LOCK.release()
    finally:
        pdf_apart._stop()
