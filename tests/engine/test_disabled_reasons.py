"""A call to a tool that is off says so once, and names the setting as the Settings window labels it."""

from __future__ import annotations

import httpx
import pytest

from tests.engine.conftest import collect
from tests.sse_server import Stream
from tinyrag_desktop.engine import Engine
from tinyrag_desktop.engine.events import ToolFinished
from tinyrag_desktop.settings import defaults


@pytest.mark.parametrize(("block", "expected"), [
    ('<tool name="nanogo"><source>fmt.Println(1)</source></tool>',
     "The tool nanogo is disabled: enable 'Allow Go code (nanoGo)' in Settings or pass --allow-nanogo."),
    ('<tool name="shell"><query>ls</query></tool>',
     "The tool shell is disabled: enable 'Allow shell commands' in Settings or pass --allow-shell-exec."),
], ids=["nanogo", "shell"])
async def test_a_disabled_tool_says_it_is_disabled_once(llm, tmp_path, block: str, expected: str) -> None:
    # It read "The tool nanogo is disabled: nanogo is disabled; enable 'Allow nanoGo' in Settings…", and
    # there is no "Allow nanoGo" in Settings.
    llm.queue(Stream([block]), Stream(["I cannot run that here."]))
    settings = defaults().replace(base_url=llm.base_url, chat_model="scripted", network_tools=False)
    async with httpx.AsyncClient() as http:
        events = await collect(Engine(settings=settings, data_dir=tmp_path, http=http))
    [result] = [e for e in events if isinstance(e, ToolFinished)]
    assert result.status == "error" and result.error == expected
