"""The open chat deleted from the message box (Edit → Delete chat, Ctrl+Shift+Backspace) takes its unsent
draft with it, and Undo brings both back; the new chat opened in its place keeps its own draft. The draft went
to the new chat instead, over that one's own, and Undo brought the chat back with an empty box. Once the chat
is gone for good (purged as the window closes, or by another window), its draft, its edit and its reading place
go from drafts.json and places.json too: they stayed there for good, shown nowhere."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from tinyrag_desktop.chats import ChatInfo, ChatStore
from tinyrag_desktop.ui.composer import DRAFTS_FILE, EDITS_KEY
from tinyrag_desktop.ui.reading_places import PLACES_FILE

from .conftest import keep_picture, wait_until


def _one_chat(data) -> ChatInfo:
    """A data folder holding one chat of one exchange."""
    data.mkdir()
    store = ChatStore(data)
    chat = store.new_chat()
    store.add_user_message(chat.id, "What is a tide?")
    store.add_assistant_message(chat.id, "The sea rising and falling.")
    store.close()
    return chat


def _delete_from_the_box(win, qtbot) -> None:
    win.composer.setFocus()
    qtbot.waitUntil(win.composer.hasFocus)
    qtbot.keyClick(win.composer, Qt.Key.Key_Backspace,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)


def test_deleting_the_open_chat_from_the_box_keeps_its_draft_for_undo(make_window, server, qtbot, tmp_path):
    data = tmp_path / "data"
    chat = _one_chat(data)
    (data / DRAFTS_FILE).write_text(json.dumps({"": "the new chat's own draft"}), encoding="utf-8")
    win = make_window(server.base_url, data_dir=data, reopen_last=True)
    win.open_chat(chat.id)
    win.composer.setPlainText("a follow-up about the moon")
    _delete_from_the_box(win, qtbot)
    assert win.chat_id is None  # a new chat in its place
    assert win.composer.toPlainText() == "the new chat's own draft"
    keep_picture(win, "draft49_deleted.png")
    win.composer.save_drafts()
    drafts = json.loads((data / DRAFTS_FILE).read_text(encoding="utf-8"))
    assert drafts == {chat.id: "a follow-up about the moon", "": "the new chat's own draft"}
    assert win.sidebar.pending_undo() == chat.id
    win.sidebar.undo_button.click()
    assert win.chat_id == chat.id
    assert win.composer.toPlainText() == "a follow-up about the moon"
    qtbot.waitUntil(lambda: not win.loading and len(win.view.answers()) == 1)
    keep_picture(win, "draft49_undone.png")
    win.new_chat()
    assert win.composer.toPlainText() == "the new chat's own draft"


def test_a_purged_chats_draft_is_not_kept_on_disk(make_window, server, qloop, qtbot, tmp_path):
    data = tmp_path / "data"
    chat = _one_chat(data)
    win = make_window(server.base_url, data_dir=data, reopen_last=True)
    win.open_chat(chat.id)
    qloop.run(wait_until(lambda: not win.loading))
    win.composer.setPlainText("my secret follow-up")
    _delete_from_the_box(win, qtbot)
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
    kept = _one_chat(data)
    (data / DRAFTS_FILE).write_text(json.dumps({kept.id: "mine", "purged-chat": "a secret",
                                                EDITS_KEY: {"purged-chat": 7}}), encoding="utf-8")
    (data / PLACES_FILE).write_text(json.dumps({kept.id: [0, 0.5], "purged-chat": [3, 0.25]}), encoding="utf-8")
    make_window(server.base_url, data_dir=data, reopen_last=True)
    assert json.loads((data / DRAFTS_FILE).read_text(encoding="utf-8")) == {kept.id: "mine"}
    assert json.loads((data / PLACES_FILE).read_text(encoding="utf-8")) == {kept.id: [0, 0.5]}
