"""The Sources line comes once the answer is complete, not while a call of it still waits for the user."""

from __future__ import annotations

import asyncio

from tests.sse_server import Stream

from .conftest import ask_and_wait, tokens, wait_until
from .test_denied_command import _shell


def test_no_sources_line_while_a_command_waits_for_approval(make_window, server, qloop):
    # A page read before a command showed its Sources line while the Run / Deny question was still open.
    server.pages["/notes.json"] = {"note": "the tea is in the second cupboard"}
    page = f"{server.base_url.rsplit('/v1', 1)[0]}/notes.json"
    server.queue(Stream(tokens(f'<tool name="url_fetch"><url>{page}</url></tool>\n' + _shell("echo hi"))),
                 Stream(tokens("The tea is in the second cupboard.")))
    win = make_window(server.base_url, allow_shell_exec=True, network_tools=True, url_fetch_allow_private=True)

    async def asked_then_answered():
        task = asyncio.ensure_future(ask_and_wait(win, "where is the tea?"))
        await wait_until(lambda: win.confirmer.current is not None and win.confirmer.current.isVisible())
        answer = win.view.answers()[-1]
        assert answer.cards()[0].status == "done"  # the page was read
        row = answer._sources
        assert row is None or not row.isVisible(), "Sources shown while the command waits"
        assert answer.sources() == []
        win.confirmer.current.run_button.click()
        return await task

    assert qloop.run(asked_then_answered(), timeout=40) == "done"
    answer = win.view.answers()[-1]
    assert answer.sources() == [page] and answer.sources_row.isVisible()
