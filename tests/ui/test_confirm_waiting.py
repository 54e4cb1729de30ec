"""While the shell's Run / Deny question is open, the command's card and the status bar say the answer waits
for the user."""

from __future__ import annotations

import asyncio

from tests.sse_server import Stream

from .conftest import ask_and_wait, tokens, wait_until


def _seen_while_asked(make_window, server, qloop, look, after=None):
    """Ask for a shell command, return ``look(win)`` while its question is open (and ``after(win)`` for what
    the bridge's toolFinished sees, if given), then press Run and let the answer end."""
    server.queue(Stream(tokens('<tool name="shell"><query>echo waited</query></tool>')), Stream(tokens("Done.")))
    win = make_window(server.base_url, allow_shell_exec=True)
    later: list = []

    async def scenario():
        task = asyncio.ensure_future(ask_and_wait(win, "Run it"))
        await wait_until(lambda: win.confirmer.current is not None and win.confirmer.current.isVisible())
        seen = look(win)
        if after is not None:
            win.bridge.toolFinished.connect(lambda _ev: later.append(after(win)))
        win.confirmer.current.run_button.click()
        await task
        return seen

    return win, qloop.run(scenario()), later


def test_the_card_says_it_waits_for_the_user_while_the_question_is_open(make_window, server, qloop):
    # Only its spinner turned, as if the command were already running.
    def card_state(win):
        [card] = win.view.answers()[-1].cards()
        return card.status, card.meta, card.note

    win, seen, _ = _seen_while_asked(make_window, server, qloop, card_state)
    assert seen == ("running", "waiting for you", "Waiting for you to allow or deny this command.")
    [card] = win.view.answers()[-1].cards()
    assert card.status == "done" and card.meta != "waiting for you" and card.note == ""


def test_the_status_bar_says_the_answer_waits_for_the_user_while_the_question_is_open(make_window, server, qloop):
    # It said "Running a shell command…" while the card said "waiting for you".
    def said(win):
        return win.status.busy.text()

    win, asked, later = _seen_while_asked(make_window, server, qloop, said, after=said)
    assert asked == "Waiting for your answer…"
    assert later and later[0] != asked  # answered: no longer said once the command has run
    assert win.status.busy.text() == ""
