"""A copied or exported answer says a denied command was denied, as its card does."""

from __future__ import annotations

import pytest

from tinyrag_desktop.chat_export import export_markdown, tool_markdown
from tinyrag_desktop.chats import ChatStore, StoredTool
from tinyrag_desktop.engine.events import Done, ToolFinished, ToolStarted
from tinyrag_desktop.tools.shell import DENIED
from tinyrag_desktop.ui.answer import AnswerWidget


def test_copy_answer_says_the_command_was_denied(qtbot):
    # It read "> – **Shell command** `rm -rf build` (skipped)": the card beside it said "denied". The mark is
    # the card's ✗ (the engine's error), the words the user's choice.
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.append_text("Let me clean up. ")
    answer.tool_started(ToolStarted("s1", "shell", "rm -rf build"))
    card = answer.tool_finished(ToolFinished("s1", "shell", "rm -rf build", "", DENIED, 0, "error", 0))
    answer.finish(Done(2, 0, 1200))
    assert card.meta == "denied"
    copied = answer.to_markdown()
    assert "> ✗ **Shell command** `rm -rf build` (denied)\n> You chose not to run this command." in copied  # as the card
    assert "(skipped)" not in copied and "(failed)" not in copied


@pytest.mark.parametrize("status", ["skipped", "error"])  # as the card stores it; as the engine sends it
def test_an_exported_chat_says_the_command_was_denied(tmp_path, status):
    store = ChatStore(tmp_path)
    chat = store.new_chat("Cleaning")
    store.add_user_message(chat.id, "Clean the build folder")
    store.add_assistant_message(chat.id, "Let me clean up. ", tools=[StoredTool(
        "s1", "shell", "rm -rf build", status, error=DENIED, position=len("Let me clean up. "))])
    exported = export_markdown(store.get_chat(chat.id), store.messages(chat.id))
    assert "**Shell command** `rm -rf build` (denied)" in exported and "(skipped)" not in exported
    assert "You chose not to run this command." in exported


def test_other_skipped_calls_still_say_skipped():
    line = tool_markdown(StoredTool("c2", "calculate", "2+2", "skipped", error="duplicate call: …"))
    assert line.startswith("> – **Calculator** `2+2` (skipped)")


def test_an_html_export_says_denied_and_not_in_the_error_colour(tmp_path):
    from tinyrag_desktop.chat_export import export_html

    store = ChatStore(tmp_path)
    chat = store.new_chat("Cleaning")
    store.add_user_message(chat.id, "Clean the build folder")
    store.add_assistant_message(chat.id, "", tools=[StoredTool("s1", "shell", "rm -rf build", "error", error=DENIED)])
    page = export_html(store.get_chat(chat.id), store.messages(chat.id))
    assert "</span> (denied)" in page and 'class="tool error"' not in page and 'class="err"' not in page
