"""A call to a tool switched off in Settings: its card is an error with ✗, as the engine's tool_result says,
and reads "off", naming the setting that turns it on."""

from __future__ import annotations

import pytest

from tests.sse_server import Stream
from tinyrag_desktop.chats import ChatStore, StoredTool
from tinyrag_desktop.ui.answer import AnswerWidget

from .conftest import ask_and_wait, tokens


@pytest.mark.parametrize(("block", "setting"), [
    ('<tool name="shell"><query>ls</query></tool>', "Allow shell commands"),
    ('<tool name="nanogo"><source>fmt.Println(1)</source></tool>', "Allow Go code (nanoGo)"),
    ('<tool name="websearch"><query>weather</query></tool>', "Network tools"),
], ids=["shell", "nanogo", "websearch"])
def test_a_tool_that_is_off_reads_off_and_says_which_setting_turns_it_on(make_window, server, qloop, qtbot,
                                                                         block, setting):
    # Its card was a red failure, ✗ "The tool shell is disabled: enable 'Allow shell commands' in Settings or
    # pass --allow-shell-exec.": the user's own setting shown as an error, with a flag the window cannot take.
    server.queue(Stream(tokens("Let me see. " + block)), Stream(tokens("That tool is off here.")))
    win = make_window(server.base_url, allow_shell_exec=False, allow_nanogo=False, network_tools=False)
    results = []
    win.bridge.toolFinished.connect(results.append)
    assert qloop.run(ask_and_wait(win, "Try it")) == "done"
    answer = win.view.answers()[-1]
    [card] = answer.cards()
    said = f"This tool is off. Turn on “{setting}” in Settings to use it."
    # It was "skipped" with a "–" badge while the engine (ask --jsonl) said "error": the badge follows the event.
    [result] = results
    assert card.off and card.status == card.phase == result.status == "error" and card.meta == "off"
    assert card.note == said and f"Reason: {said}" in card.details_text()
    assert card.accessibleName().endswith(", off") and "failed" not in card.accessibleDescription()
    for words in (card.note, card.details_text(), card.toolTip(), card.accessibleDescription()):
        assert "--" not in words and "disabled" not in words
    # and the model, asked in the window, was told of the Settings switch, not of a flag it cannot take
    told = server.requests[-1]["messages"][-1]["content"]
    assert f"'{setting}' in Settings" in told and "--" not in told
    assert " tool run" not in answer.footer() or "0 tools run" in answer.footer()  # nothing ran
    # reopened, the chat says the same
    stored = ChatStore(win.data_dir).messages(win.chat_id)[-1]
    again = AnswerWidget.from_stored(stored)
    qtbot.addWidget(again)
    assert again.cards()[0].off and again.cards()[0].note == said and again.cards()[0].status == "error"


def test_a_call_to_a_tool_that_was_off_stored_as_skipped_reads_as_an_error_too(tmp_path, qtbot):
    # Chats stored before kept such a card as "skipped": reopened, it agrees with the engine's status now.
    store = ChatStore(tmp_path)
    chat = store.new_chat("Off")
    reason = "The tool shell is disabled: enable 'Allow shell commands' in Settings or pass --allow-shell-exec."
    store.add_user_message(chat.id, "List it")
    store.add_assistant_message(chat.id, "Let me see. ", tools=[StoredTool("s1", "shell", "ls", "skipped",
                                                                           error=reason, position=12)])
    again = AnswerWidget.from_stored(store.messages(chat.id)[-1])
    qtbot.addWidget(again)
    [card] = again.cards()
    assert card.off and card.status == "error" and card.meta == "off"
    copied = again.to_markdown()  # Copy and Export say it as the card does: ✗, and "off"
    assert "✗ **Shell command** `ls` (off)" in copied and "This tool is off." in copied


def test_a_failure_is_still_a_failure(qtbot):
    from tinyrag_desktop.engine.events import ToolFinished

    answer = AnswerWidget()
    qtbot.addWidget(answer)
    card = answer.tool_finished(ToolFinished("c1", "shell", "ls", "", "The tool nanogo is disabled: x.", 0,
                                             "error", 0))
    assert not card.off and card.status == "error"  # another tool's reason, quoted: not this tool's setting
