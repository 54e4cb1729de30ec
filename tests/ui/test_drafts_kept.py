"""What was typed and not sent, and the chat that was open, outlive a crash: both are kept as they change,
not only when the window closes."""

from __future__ import annotations

import json

from tests.sse_server import Stream
from tinyrag_desktop.ui.composer import DRAFTS_FILE

from .conftest import ask_and_wait, tokens


def test_a_draft_and_the_open_chat_come_back_after_a_crash(make_window, server, qloop, qtbot, tmp_path):
    data = tmp_path / "data"
    server.queue(Stream(tokens("An answer.")))
    win = make_window(server.base_url, data_dir=data, reopen_last=True)
    assert qloop.run(ask_and_wait(win, "A first question")) == "done"
    chat_id = win.chat_id
    win.new_chat()
    win.open_chat(chat_id)
    win.composer.setPlainText("a long follow-up I was still writing")
    qtbot.waitUntil(lambda: (data / DRAFTS_FILE).exists()
                    and "still writing" in (data / DRAFTS_FILE).read_text(encoding="utf-8"), timeout=5000)
    # the window is not closed (a crash): a new one on the same folder
    again = make_window(server.base_url, data_dir=data, reopen_last=True)
    assert again.chat_id == chat_id
    assert again.composer.toPlainText() == "a long follow-up I was still writing"


def test_drafts_of_other_chats_are_kept_and_a_sent_question_leaves_none(make_window, server, qloop, qtbot, tmp_path):
    data = tmp_path / "data"
    server.queue(Stream(tokens("One.")), Stream(tokens("Two.")))
    win = make_window(server.base_url, data_dir=data, reopen_last=True)
    assert qloop.run(ask_and_wait(win, "First chat")) == "done"
    first = win.chat_id
    win.composer.setPlainText("draft in the first chat")
    win.new_chat()
    assert qloop.run(ask_and_wait(win, "Second chat")) == "done"
    win.composer.save_drafts()
    drafts = json.loads((data / DRAFTS_FILE).read_text(encoding="utf-8"))
    assert drafts == {first: "draft in the first chat"}  # the sent question is no draft
    win.open_chat(first)
    assert win.composer.toPlainText() == "draft in the first chat"


def test_an_ask_run_keeps_no_drafts(make_window, server, qloop, tmp_path):
    data = tmp_path / "data"
    server.queue(Stream(tokens("Scripted.")))
    win = make_window(server.base_url, data_dir=data)  # as --ask opens it: no chat reopened, no drafts kept
    win.composer.setPlainText("typed in a scripted window")
    win.composer.save_drafts()
    assert not (data / DRAFTS_FILE).exists()


def test_a_chat_begun_in_the_window_is_the_one_reopened_and_its_sent_question_no_draft(make_window, server, qloop,
                                                                                         tmp_path):
    data = tmp_path / "data"
    server.queue(Stream(tokens("An answer.")))
    win = make_window(server.base_url, data_dir=data, reopen_last=True)
    assert qloop.run(ask_and_wait(win, "The first question of a new chat")) == "done"
    drafts = json.loads((data / DRAFTS_FILE).read_text(encoding="utf-8"))
    assert "The first question of a new chat" not in drafts.values()  # written at once, not a second later
    again = make_window(server.base_url, data_dir=data, reopen_last=True)  # after a crash
    assert again.chat_id == win.chat_id and again.composer.toPlainText() == ""


def test_a_drafts_file_nested_past_reading_is_passed_over(make_window, server, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / DRAFTS_FILE).write_text("[" * 200_000)
    win = make_window(server.base_url, data_dir=data, reopen_last=True)
    assert win.composer.toPlainText() == ""
