"""A Go program or a shell command stopped with its answer keeps what it printed, as one stopped at the time
limit does."""

from __future__ import annotations

import asyncio
import sys

import pytest

from tests.sse_server import Stream
from tests.ui.conftest import ask_then_stop, tokens, wait_until
from tinyrag_desktop.chats import ChatStore

PROGRAM = 'fmt.Println("first line printed")\nfmt.Println("second line printed")\nfor {\n}'
CALL = f'<tool name="nanogo"><source>{PROGRAM}</source></tool>'


def test_a_program_stopped_with_the_answer_keeps_its_output(make_window, server, qloop):
    # The card said only "Reason: Stopped before the tool finished.": the printed lines were gone.
    server.queue(Stream(tokens("Running it. " + CALL)))
    win = make_window(server.base_url, allow_nanogo=True)

    def printed(answer) -> bool:
        return bool(answer.cards()) and "second line printed" in answer.cards()[0].printed_so_far()

    assert qloop.run(ask_then_stop(win, "run it", printed, timeout=30)) == "stopped"
    answer = win.view.answers()[-1]
    [card] = answer.cards()
    assert card.stopped and card.meta == "stopped" and answer.footer().startswith("1 round · 1 tool stopped")
    output = "first line printed\nsecond line printed\n"
    assert card.details_text().endswith("Reason: Stopped before the tool finished.\n\n"
                                        f"Output before it was stopped:\n{output}")
    assert card.note == "Stopped before the tool finished."  # the closed card: the output is in the open one
    closed = card.height()
    card.set_expanded(True)
    qloop.run(wait_until(lambda: card.height() > closed))
    copied = answer.copy_markdown()
    assert "> Output before it was stopped:" in copied and "> second line printed" in copied
    [stored] = ChatStore(win.data_dir).messages(win.chat_id)[-1].tools
    assert stored.status == "running" and stored.error.endswith(output)  # stored as it was left: stopped
    win.open_chat(win.chat_id, rebuild=True)  # opened again, it says the same
    win.finish_loading()
    [again] = win.view.answers()[-1].cards()
    assert again.stopped and again.details_text() == card.details_text()
    qloop.run(wait_until(again.isVisible))


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell command")
def test_a_command_stopped_with_the_answer_keeps_its_output(make_window, server, qloop):
    # It lost what it had printed: only "Stopped before the tool finished." was left.
    command = "echo first line printed; echo second line printed >&2; sleep 60"
    server.queue(Stream(tokens(f'Running it. <tool name="shell"><query>{command}</query></tool>')))
    win = make_window(server.base_url, allow_shell_exec=True)

    def printed(answer) -> bool:
        text = answer.cards()[0].printed_so_far() if answer.cards() else ""
        return "first line printed" in text and "second line printed" in text

    async def run_then_stop() -> str:
        task = asyncio.ensure_future(ask_then_stop(win, "run it", printed, timeout=30))
        await wait_until(lambda: win.confirmer.current is not None and win.confirmer.current.isVisible())
        win.confirmer.current.run_button.click()
        return await task

    assert qloop.run(run_then_stop()) == "stopped"
    answer = win.view.answers()[-1]
    [card] = answer.cards()
    assert card.stopped and card.meta == "stopped"
    details = card.details_text()
    assert "Reason: Stopped before the tool finished.\n\nOutput before it was stopped:\n" in details
    assert "first line printed\n" in details and "second line printed\n" in details
    copied = answer.copy_markdown()
    assert "> Output before it was stopped:" in copied and "> first line printed" in copied
    [stored] = ChatStore(win.data_dir).messages(win.chat_id)[-1].tools
    assert "second line printed" in stored.error
