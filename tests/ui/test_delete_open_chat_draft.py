"""The open chat deleted from the message box (Edit → Delete chat, Ctrl+Shift+Backspace) takes its unsent
draft with it, and Undo brings both back; the new chat opened in its place keeps its own draft. The draft went
to the new chat instead, over that one's own, and Undo brought the chat back with an empty box."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt

from tinyrag_desktop.chats import ChatStore
from tinyrag_desktop.ui.composer import DRAFTS_FILE

from .conftest import keep_picture


def test_deleting_the_open_chat_from_the_box_keeps_its_draft_for_undo(make_window, server, qtbot, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    store = ChatStore(data)
    chat = store.new_chat()
    store.add_user_message(chat.id, "What is a tide?")
    store.add_assistant_message(chat.id, "The sea rising and falling.")
    store.close()
    (data / DRAFTS_FILE).write_text(json.dumps({"": "the new chat's own draft"}), encoding="utf-8")
    win = make_window(server.base_url, data_dir=data, reopen_last=True)
    win.open_chat(chat.id)
    win.composer.setPlainText("a follow-up about the moon")
    win.composer.setFocus()
    qtbot.waitUntil(win.composer.hasFocus)
    qtbot.keyClick(win.composer, Qt.Key.Key_Backspace,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
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
