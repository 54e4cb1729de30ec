"""The window on a data folder an older tinyRAG made (tests/fixtures/old_data): its chats open with their tool
cards as they ended, their personas chosen, and a new question is asked and kept beside them."""

from __future__ import annotations

from tests.sse_server import Stream
from tests.test_old_data_folder import CHATS, old_data_folder
from tinyrag_desktop.settings import load_settings
from tinyrag_desktop.ui.toolcard import ToolCard

from .conftest import ask_and_wait, tokens, wait_until


def test_old_chats_show_their_cards_and_persona_and_a_new_chat_is_kept(make_window, server, qloop, tmp_path):
    data = old_data_folder(tmp_path / "data")
    old, _ = load_settings(data)
    win = make_window(server.base_url, data_dir=data, personas=old.personas)
    chats = {chat.title: chat for chat in win.store.list_chats()}
    assert chats.keys() == CHATS.keys()

    def opened(title: str):
        win.open_chat(chats[title].id)
        qloop.run(wait_until(lambda: win.chat_id == chats[title].id and not win.loading))
        return win.view.answers()

    [answer] = opened("Do several sums please")
    cards = answer.cards()
    # the two calls over the per-round limit share one card
    assert [(c.tool_name, c.status) for c in cards if c.isVisible()] == [
        ("calculate", "done"), ("calculate", "error"), ("calculate", "skipped"), ("nanogo", "error")]
    off = cards[-1]
    assert off.off and off.note == "This tool is off. Turn on “Allow Go code (nanoGo)” in Settings to use it."
    assert cards[1].note == "Division by zero."

    [answer] = opened("Search my notes about the widget colour")
    assert [(c.tool_name, c.status, c.query) for c in answer.findChildren(ToolCard)] == [
        ("rag_knowledge", "done", "widget colour")]
    assert [s.rsplit("/", 1)[-1] for s in answer.sources()] == ["widgets.md"]

    [answer] = opened("Tell a story but it will be cut halfway")
    assert answer.content().endswith("cuts it off in the mid") and "cut off" in answer.error

    opened("Just say hello")
    assert win.persona.currentText() == "Pirate"

    win.new_chat()
    server.queue(Stream(tokens("A new answer.")))
    assert qloop.run(ask_and_wait(win, "A new question")) == "done"
    assert len(win.store.list_chats()) == len(CHATS) + 1
