"""A chat deleted takes its unsent words with it: once it is purged (as the window closes), its draft, its edit and
its reading place go from drafts.json and places.json too. They stayed there for good, shown nowhere."""
from __future__ import annotations

import json

from PySide6.QtCore import Qt

from tinyrag_desktop.chats import ChatStore
from tinyrag_desktop.ui.composer import DRAFTS_FILE, EDITS_KEY
from tinyrag_desktop.ui.reading_places import PLACES_FILE

from tests.ui.conftest import wait_until


def test_a_purged_chats_draft_is_not_kept_on_disk(make_window, server, qloop, qtbot, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    store = ChatStore(data)
    chat = store.new_chat()
    store.add_user_message(chat.id, "What is a tide?")
    store.add_assistant_message(chat.id, "The sea rising and falling.")
    store.close()
    win = make_window(server.base_url, data_dir=data, reopen_last=True)
    win.open_chat(chat.id)
    qloop.run(wait_until(lambda: not win.loading))
    win.composer.setPlainText("my secret follow-up")
    win.composer.setFocus()
    qtbot.waitUntil(win.composer.hasFocus)
    qtbot.keyClick(win.composer, Qt.Key.Key_Backspace,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert win.chat_id is None
    win.close()  # saves the drafts
    qloop.run(win.aclose())  # purges this window's deletions
    store = ChatStore(data)
    assert store.get_chat(chat.id) is None  # gone for good
    store.close()
    drafts = json.loads((data / DRAFTS_FILE).read_text(encoding="utf-8"))
    assert chat.id not in drafts, drafts  # kept for a chat that no longer exists, shown nowhere


def test_drafts_and_places_of_chats_purged_elsewhere_go_at_the_next_start(make_window, server, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    store = ChatStore(data)
    kept = store.new_chat()
    store.add_user_message(kept.id, "Still here")
    store.close()
    (data / DRAFTS_FILE).write_text(json.dumps({kept.id: "mine", "purged-chat": "a secret",
                                                EDITS_KEY: {"purged-chat": 7}}), encoding="utf-8")
    (data / PLACES_FILE).write_text(json.dumps({kept.id: [0, 0.5], "purged-chat": [3, 0.25]}), encoding="utf-8")
    make_window(server.base_url, data_dir=data, reopen_last=True)
    assert json.loads((data / DRAFTS_FILE).read_text(encoding="utf-8")) == {kept.id: "mine"}
    assert json.loads((data / PLACES_FILE).read_text(encoding="utf-8")) == {kept.id: [0, 0.5]}
