"""Unsent text typed while the disk is full is not lost without a word at close: the window asks first, Keep
the window open the default. Before, the drafts' write failed into the log and the window closed."""

from __future__ import annotations

import errno
import json

import pytest

import tinyrag_desktop.ui.composer as composer
from tinyrag_desktop.ui.composer import DRAFTS_FILE


def _full(*_args, **_kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.fixture
def typed_on_full_disk(make_window, server, qtbot, tmp_path, monkeypatch):
    """A window on the chat “Plans”, the disk full (each write of the drafts fails), a question typed."""
    win = make_window(server.base_url, data_dir=tmp_path / "data", reopen_last=True)
    chat = win.store.new_chat("Plans")
    win._refresh_chats()
    win.open_chat(chat.id)
    monkeypatch.setattr(composer, "write_whole", _full)
    win.composer.setPlainText("a long question I was still writing")
    win.composer.save_drafts()  # (the write a second after typing stops: it fails)
    return win


def _asked(win, qtbot):
    win.close()
    qtbot.waitUntil(lambda: win.drafts_at_close.box is not None and win.drafts_at_close.box.isVisible())
    return win.drafts_at_close.box


def test_closing_with_unsent_text_that_could_not_be_saved_asks_and_keep_keeps_the_window(
        typed_on_full_disk, qtbot, tmp_path, monkeypatch):
    win = typed_on_full_disk
    box = _asked(win, qtbot)
    assert box.text() == "Your unsent text in “Plans” could not be saved: the disk is full. Close anyway?"
    assert box.defaultButton().text() == "&Keep the window open" and box.escapeButton() is box.defaultButton()
    assert win.isVisible()
    box.defaultButton().click()
    qtbot.waitUntil(lambda: win.drafts_at_close.box is None)
    assert win.isVisible() and win.composer.toPlainText() == "a long question I was still writing"
    monkeypatch.undo()  # space freed: the next close saves the text, and asks nothing
    win.close()
    assert not win.isVisible() and win.drafts_at_close.box is None
    drafts = json.loads((tmp_path / "data" / DRAFTS_FILE).read_text(encoding="utf-8"))
    assert drafts == {win.chat_id: "a long question I was still writing"}


def test_close_anyway_closes_the_window(typed_on_full_disk, qtbot, tmp_path):
    win = typed_on_full_disk
    win.composer.switch_draft(win.chat_id, None)  # a second draft, in a new chat
    win.composer.setPlainText("and another one")
    box = _asked(win, qtbot)
    assert "in “Plans” and 1 other chat could not be saved" in box.text()
    win.drafts_at_close.close_button.click()
    qtbot.waitUntil(lambda: not win.isVisible())
    assert not (tmp_path / "data" / DRAFTS_FILE).exists()


def test_text_saved_before_the_disk_filled_closes_without_a_question(make_window, server, qtbot, tmp_path,
                                                                     monkeypatch):
    win = make_window(server.base_url, data_dir=tmp_path / "data", reopen_last=True)
    win.composer.setPlainText("saved in time")
    assert win.composer.save_drafts() is None
    monkeypatch.setattr(composer, "write_whole", _full)
    win.close()
    assert not win.isVisible() and win.drafts_at_close.box is None


def test_ctrl_c_or_sigterm_closes_without_asking(typed_on_full_disk, qtbot):
    win = typed_on_full_disk
    win.close_unasked()
    assert not win.isVisible() and win.drafts_at_close.box is None


def test_the_question_goes_with_the_window_closed_meanwhile(typed_on_full_disk, qtbot):
    # The question stayed on screen, over nothing, until the process ended.
    win = typed_on_full_disk
    box = _asked(win, qtbot)
    win.close_unasked()  # SIGTERM while it is asked
    assert not win.isVisible() and not box.isVisible() and win.drafts_at_close.box is None


def test_a_minimized_window_is_shown_again_with_its_question(typed_on_full_disk, qtbot):
    # Asked on a minimized window, the question was out of sight, and a logout was held up with nothing shown.
    win = typed_on_full_disk
    win.showMinimized()
    qtbot.waitUntil(win.isMinimized)
    _asked(win, qtbot)
    assert not win.isMinimized()


def test_a_deleted_chats_unsent_text_is_not_asked_about(typed_on_full_disk, qtbot):
    # Its draft goes with it: the question named "a new chat" for it, and held the close for nothing.
    win = typed_on_full_disk
    deleted = win.chat_id
    win.new_chat()
    win.delete_chat(deleted)
    win.close()
    assert not win.isVisible() and win.drafts_at_close.box is None


def test_a_history_that_cannot_be_read_at_close_lets_the_window_close(typed_on_full_disk, qtbot, monkeypatch):
    # Naming the chat raised SQLite's error in closeEvent: the window could no longer be closed at all.
    import sqlite3
    win = typed_on_full_disk

    def unreadable(*_args):
        raise sqlite3.OperationalError("disk I/O error")
    monkeypatch.setattr(win.store, "get_chat", unreadable)
    win.close()
    assert not win.isVisible()


def test_a_draft_kept_as_written_by_hand_is_not_taken_for_unsaved(make_window, server, tmp_path, monkeypatch):
    # The box gives "\r\n" back as "\n" and a no-break space as a space: that draft, unchanged, was listed.
    data = tmp_path / "data"
    data.mkdir()
    (data / DRAFTS_FILE).write_text(json.dumps({"": "a\u00a0b\r\nc\u2028d"}), encoding="utf-8")
    win = make_window(server.base_url, data_dir=data, reopen_last=True)
    assert win.composer._chat is None
    win.composer.setPlainText("a\u00a0b\r\nc\u2028d")  # the draft, shown in the box: as the box reads it
    assert win.composer.toPlainText() == "a b\nc\nd"
    assert win.composer.unsaved() == []
    win.composer.setPlainText("a b\nc\nd, and more")
    assert win.composer.unsaved() == [None]
