"""A shell command the user denied: its card has the ✗ of an error, as the engine's tool_result says (spec: ✓ or
✗), with "denied" and the user's choice in words; the answer's footer says it was not run, not that it failed."""

from __future__ import annotations

import asyncio

import pytest

from tests.sse_server import Stream
from tinyrag_desktop.chats import ChatStore
from tinyrag_desktop.engine.events import Done, ToolFinished, ToolStarted
from tinyrag_desktop.tools.shell import DENIED
from tinyrag_desktop.ui.answer import AnswerWidget, footer_text

from .conftest import ask_and_wait, tokens, wait_until


def _shell(command: str) -> str:
    return f'<tool name="shell"><query>{command}</query></tool>'


async def _ask_and_answer(win, question: str, buttons: list[str]) -> str:
    """Ask ``question`` and press Run or Deny in each confirm dialog that comes, in turn."""
    task = asyncio.ensure_future(ask_and_wait(win, question))
    for button in buttons:
        await wait_until(lambda: win.confirmer.current is not None and win.confirmer.current.isVisible())
        dialog = win.confirmer.current
        (dialog.run_button if button == "run" else dialog.deny_button).click()
        await wait_until(lambda: win.confirmer.current is not dialog)
    return await task


def test_a_denied_command_is_not_counted_as_run_nor_shown_as_failed(make_window, server, qloop, qtbot):
    # It read "2 rounds · 1 tool run · 0.4 s" under a red ✗ card saying "The user denied running this
    # command.": nothing ran, and the user's own choice looked like a failure of the tool. Then it showed
    # the – of skipped, a third state where the spec has ✓ or ✗: now ✗, its words the user's.
    server.queue(Stream(tokens("Let me look. " + _shell("ls -la"))), Stream(tokens("I was not allowed.")))
    win = make_window(server.base_url, allow_shell_exec=True)

    assert qloop.run(_ask_and_answer(win, "List the files", ["deny"])) == "done"
    answer = win.view.answers()[-1]
    [card] = answer.cards()
    assert card.denied and (card.status, card.badge, card.meta) == ("error", "error", "denied")
    assert card.note == "You chose not to run this command."
    assert "denied" in card.toolTip() and card.accessibleName() == "Tool: Shell command, denied"
    assert "Reason: You chose not to run this command." in card.accessibleDescription()
    assert card.details_text().endswith("Reason: You chose not to run this command.")  # not "Error"
    assert answer.footer().startswith("2 rounds · 1 command denied · ")
    assert "tool run" not in answer.footer()
    # reopened, the chat says the same
    stored = ChatStore(win.data_dir).messages(win.chat_id)[-1]
    again = AnswerWidget.from_stored(stored)
    qtbot.addWidget(again)
    assert again.footer() == answer.footer() and again.cards()[0].denied and again.cards()[0].badge == "error"


def test_one_command_run_and_one_denied_are_counted_apart(make_window, server, qloop):
    server.queue(Stream(tokens(_shell("echo tinyrag-ran") + "\n" + _shell("echo tinyrag-denied"))),
                 Stream(tokens("One of them ran.")))
    win = make_window(server.base_url, allow_shell_exec=True)

    assert qloop.run(_ask_and_answer(win, "Run two", ["run", "deny"])) == "done"
    answer = win.view.answers()[-1]
    assert [(c.status, c.denied) for c in answer.cards()] == [("done", False), ("error", True)]
    assert " · 1 tool run · 1 command denied · " in answer.footer()


def test_an_answer_stopped_after_a_denial_keeps_both_counts(qtbot):
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.tool_started(ToolStarted("s1", "shell", "ls"))
    answer.tool_finished(ToolFinished("s1", "shell", "ls", "", DENIED, 0, "error", 2400))
    answer.tool_started(ToolStarted("c1", "calculate", "1+1"))
    answer.stop(3000)
    assert answer.stats["tools_run"] == 2 and answer.stats["tools_denied"] == 1
    assert answer.footer() == "1 round · 1 tool stopped · 1 command denied · 3.0 s · stopped"


def test_a_denied_card_shows_no_time_and_no_error(qtbot):
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.tool_started(ToolStarted("s1", "shell", "rm -rf build"))
    card = answer.tool_finished(ToolFinished("s1", "shell", "rm -rf build", "", DENIED, 0, "error", 2400))
    answer.finish(Done(2, 1, 3000))
    assert card.meta == "denied"  # not "2.4 s": that was the time the question stayed open
    assert "Error" not in card.details_text() and "You chose not to run this command." in card.details_text()
    assert "failed" not in card.accessibleName()


@pytest.mark.parametrize(("stats", "said"), [
    ({"tools_run": 1, "tools_denied": 1}, "1 command denied"),
    ({"tools_run": 3, "tools_denied": 2}, "1 tool run · 2 commands denied"),
    ({"tools_run": 3, "tools_denied": 1, "tools_stopped": 1}, "2 tools run (1 stopped) · 1 command denied"),
    ({"tools_run": 2}, "2 tools run"),
])
def test_the_footer_counts_denied_commands_apart(stats, said):
    assert footer_text({"rounds": 1, "elapsed_ms": 1200, **stats}) == f"1 round · {said} · 1.2 s"


def test_two_commands_at_once_are_asked_about_one_after_the_other_in_order(make_window, server, qloop):
    # Both blocks came in one piece: both calls started together and two dialogs opened on top of each other,
    # the second command over the first, and the window knew only of the last one.
    from PySide6.QtWidgets import QApplication

    from tinyrag_desktop.ui.confirm_dialog import ConfirmDialog

    server.queue(Stream([_shell("echo tinyrag-first") + "\n" + _shell("echo tinyrag-second")]),
                 Stream(tokens("Done.")))
    win = make_window(server.base_url, allow_shell_exec=True)
    asked = []

    async def go():
        task = asyncio.ensure_future(ask_and_wait(win, "Run two at once"))
        for button, waiting in (("deny", 1), ("run", 0)):
            await wait_until(lambda: win.confirmer.current is not None and win.confirmer.current.isVisible())
            await wait_until(lambda waiting=waiting: win.confirmer.waiting == waiting)  # the other call: asking
            shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, ConfirmDialog) and w.isVisible()]
            assert shown == [win.confirmer.current]
            dialog = win.confirmer.current
            asked.append(dialog.command.toPlainText())
            (dialog.run_button if button == "run" else dialog.deny_button).click()
            await wait_until(lambda: win.confirmer.current is not dialog)
        return await task

    assert qloop.run(go()) == "done"
    assert asked == ["echo tinyrag-first", "echo tinyrag-second"]
    answer = win.view.answers()[-1]
    assert [(c.status, c.denied) for c in answer.cards()] == [("error", True), ("done", False)]
    assert " · 1 tool run · 1 command denied · " in answer.footer()


def test_allow_for_this_chat_in_the_first_question_answers_the_one_waiting(qloop, qtbot):
    from PySide6.QtWidgets import QWidget

    from tinyrag_desktop.ui.confirm_dialog import Confirmer

    parent = QWidget()
    qtbot.addWidget(parent)
    confirmer = Confirmer(parent)

    async def go():
        first = asyncio.ensure_future(confirmer.confirm("shell", "echo 1", "chat-1"))
        second = asyncio.ensure_future(confirmer.confirm("shell", "echo 2", "chat-1"))
        await wait_until(lambda: confirmer.current is not None and confirmer.waiting == 1)
        dialog = confirmer.current
        dialog.allow_chat.setChecked(True)
        dialog.run_button.click()
        return await first, await second, confirmer.current

    assert qloop.run(go()) == (True, True, None)  # no second dialog
