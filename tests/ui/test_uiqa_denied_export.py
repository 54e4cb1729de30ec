"""A copied or exported answer says a denied command was denied, as its card does."""

from __future__ import annotations

import pytest

from tinyrag_desktop.chat_export import export_markdown, tool_markdown
from tinyrag_desktop.chats import ChatStore, StoredTool
from tinyrag_desktop.engine.events import Done, ToolFinished, ToolStarted
from tinyrag_desktop.tool_words import DISABLED
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


def _near(image, color) -> int:
    """The pixels of ``image`` within a little of ``color``."""
    return sum(abs(p.red() - color.red()) + abs(p.green() - color.green()) + abs(p.blue() - color.blue()) < 40
               for p in (image.pixelColor(x, y) for y in range(image.height()) for x in range(image.width())))


@pytest.mark.parametrize("error, red", [(DENIED, False), (DISABLED.format(tool="shell") + " Turn it on in Settings.", False),
                                        ("exit status 1: rm: cannot remove 'build'", True)])
def test_a_denied_commands_card_keeps_its_cross_but_is_not_painted_as_a_failure(qtbot, error, red):
    # Its border and note were red, as a failed command's: the user's own choice read as a failure (and a call
    # to a tool switched off, grey in the HTML export, was red in the window).
    from tinyrag_desktop.ui.theme import colors

    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.resize(700, 300)
    answer.show()
    answer.tool_started(ToolStarted("s1", "shell", "rm -rf build"))
    card = answer.tool_finished(ToolFinished("s1", "shell", "rm -rf build", "", error, 0, "error", 10))
    answer.finish(Done(1, 0, 100))
    qtbot.waitExposed(answer)
    assert card.badge == "error" and card.note  # the ✗, and the note saying why
    image = card.grab().toImage()
    c = colors()
    top = [image.pixelColor(image.width() // 2, y) for y in (0, 1)]  # the border's top edge (antialiased)
    assert any(p.red() - p.green() > 60 for p in top) == red
    note = [image.pixelColor(x, y) for y in range(image.height() // 2, image.height()) for x in range(image.width())]
    assert any(_near(p, c.errortext) for p in note) == red  # the note's words


def _near(a, b) -> bool:
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue()) < 40


@pytest.mark.parametrize("word", ["denied", "off"])
def test_denied_commands_of_an_old_chat_are_copied_one_by_one_as_their_cards_show_them(tmp_path, word):
    # Stored as "skipped" by an earlier version, two in a row were copied and exported as one line, "– … `rm -rf
    # build` · `rm -rf dist` (2 skipped)", beside two ✗ "denied" cards; so were two calls to a tool switched off.
    error = DENIED if word == "denied" else DISABLED.format(tool="shell") + " Turn it on in Settings."
    store = ChatStore(tmp_path)
    chat = store.new_chat("Cleaning")
    store.add_assistant_message(chat.id, "Tried. ", tools=[
        StoredTool("s1", "shell", "rm -rf build", "skipped", error=error, position=7),
        StoredTool("s2", "shell", "rm -rf dist", "skipped", error=error, position=7)])
    stored = store.messages(chat.id)[-1]
    answer = AnswerWidget.from_stored(stored)
    assert [card.meta for card in answer.cards()] == [word, word]
    expected = [f"> ✗ **Shell command** `rm -rf build` ({word})", f"> ✗ **Shell command** `rm -rf dist` ({word})"]
    for copied in (answer.to_markdown(), export_markdown(store.get_chat(chat.id), [stored])):
        assert [line for line in copied.splitlines() if "Shell command" in line] == expected
