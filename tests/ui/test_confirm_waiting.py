"""While the shell's Run / Deny question is open, the command's card says it waits for the user."""

from __future__ import annotations

import asyncio

from tests.sse_server import Stream

from .conftest import ask_and_wait, tokens, wait_until


def test_the_card_says_it_waits_for_the_user_while_the_question_is_open(make_window, server, qloop):
    # Only its spinner turned, as if the command were already running.
    server.queue(Stream(tokens('<tool name="shell"><query>echo waited</query></tool>')), Stream(tokens("Done.")))
    win = make_window(server.base_url, allow_shell_exec=True)

    async def scenario():
        task = asyncio.ensure_future(ask_and_wait(win, "Run it"))
        await wait_until(lambda: win.confirmer.current is not None and win.confirmer.current.isVisible())
        [card] = win.view.answers()[-1].cards()
        seen = (card.status, card.meta, card.note)
        win.confirmer.current.run_button.click()
        await task
        return seen, card

    seen, card = qloop.run(scenario())
    assert seen == ("running", "waiting for you", "Waiting for you to allow or deny this command.")
    assert card.status == "done" and card.meta != "waiting for you" and card.note == ""
