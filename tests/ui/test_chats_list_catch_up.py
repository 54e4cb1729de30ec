"""The chats list catches up, within a tick of its 2-second timer, with what another program writes into the
history while the window stays in sight beside it, never activated again: a chat an ``--ask`` run saves, one
renamed or deleted through another connection (window_chats._look_for_chats, catch_up.py). Before, the list
showed them only once the window was activated again. Nothing here activates the window (one test calls
what activating it calls, with a chat's menu open)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QMenu, QMessageBox

from tests.sse_server import Gate, Stream
from tinyrag_desktop import chat_find, chats
from tinyrag_desktop.chats import ChatStore

from .chats_elsewhere import first_in_sight, saved_elsewhere, scrolled_away, searched
from .conftest import ask_and_wait, tokens, wait_signal, wait_until

TICK = 10.0  # s: the longest a test waits for the list (a tick comes every 2 s)


def _elsewhere(data: Path) -> ChatStore:
    """Another program's connection to the history (an ``--ask`` run, a script)."""
    return ChatStore(data)


def _asked(make_window, server, qloop, data: Path, question: str, *answers: str):
    """A window whose open chat is ``question``, answered; the answers after it are queued."""
    win = make_window(server.base_url, data_dir=data)
    server.queue(*(Stream(tokens(answer)) for answer in ("An answer.", *answers)))
    assert qloop.run(ask_and_wait(win, question)) == "done"
    return win


def _ask_run(server, data: Path, question: str, shot: Path) -> subprocess.CompletedProcess:
    """``python -m tinyrag_desktop --ask QUESTION`` on the same data folder, a process of its own (with
    ``--screenshot``, it ends once the answer has come)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(Path(__file__).parents[2])}
    return subprocess.run([sys.executable, "-m", "tinyrag_desktop", "--ask", question, "--base-url", server.base_url,
                           "--model", "scripted", "--data-dir", str(data), "--screenshot", str(shot)],
                          capture_output=True, text=True, env=env, timeout=90)


@pytest.fixture
def boxes(monkeypatch):
    said: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, _title, text: said.append(text))
    return said


def test_a_chat_added_renamed_and_deleted_elsewhere_shows_in_the_list_without_coming_back_to_it(
        make_window, server, qloop, tmp_path, boxes):
    data = tmp_path / "data"
    saved_elsewhere(data, "kept as it was")
    win = make_window(server.base_url, data_dir=data)
    assert win.sidebar.titles() == ["kept as it was"]

    server.queue(Stream(tokens("Forty-two.")))
    asked = qloop.run(asyncio.to_thread(_ask_run, server, data, "What is six times seven?", tmp_path / "shot.png"),
                      timeout=120)
    assert asked.returncode == 0, asked.stderr
    qloop.run(wait_until(lambda: win.sidebar.titles() == ["What is six times seven?", "kept as it was"], TICK))

    asked_id = win.sidebar.ids()[0]
    other = _elsewhere(data)
    try:
        other.rename(asked_id, "The answer to everything")
        qloop.run(wait_until(lambda: win.sidebar.titles()[0] == "The answer to everything", TICK))
        other.delete(asked_id)
        qloop.run(wait_until(lambda: win.sidebar.titles() == ["kept as it was"], TICK))
    finally:
        other.close()
    assert boxes == []


def test_the_open_chat_and_where_the_list_is_scrolled_stay_as_they_were(make_window, server, qloop, tmp_path):
    data = tmp_path / "data"
    win, ids, before = scrolled_away(make_window, server, qloop, data)
    side = win.sidebar
    saved_elsewhere(data, "from ask")
    qloop.run(wait_until(lambda: side.titles()[:1] == ["from ask"], TICK))
    qloop.run(wait_until(lambda: len(side.titles()) == 901))  # the rest of the rows, a slice a turn
    assert first_in_sight(side) == before
    assert side.current_id() == ids[500] and [i.text() for i in side.list.selectedItems()] == ["chat 500"]
    assert win.chat_id == ids[500]


def test_the_search_words_and_their_chosen_hit_stay_as_they_were(make_window, server, qloop, tmp_path):
    data = tmp_path / "data"
    win, soup = searched(make_window, server, qloop, data)
    side = win.sidebar
    win.open_chat(soup)
    saved_elsewhere(data, "pumpkin pie", "apple pie")
    qloop.run(wait_until(lambda: sorted(side.titles()) == ["pumpkin pie", "pumpkin soup"], TICK))
    assert side.search.text() == "pumpkin"
    assert side.current_id() == soup and [i.text() for i in side.list.selectedItems()] == ["pumpkin soup"]
    assert win.chat_id == soup


def test_the_open_chat_deleted_and_purged_elsewhere_leaves_the_list_and_is_saved_anew_when_asked_in(
        make_window, server, qloop, tmp_path, boxes):
    data = tmp_path / "data"
    win = _asked(make_window, server, qloop, data, "What is the capital of France?", "About two million.")
    chat_id = win.chat_id
    other = _elsewhere(data)
    try:
        other.delete(chat_id)
        qloop.run(wait_until(lambda: win.sidebar.titles() == [], TICK))
        assert win.chat_id == chat_id and win.title_label.text() == "What is the capital of France?"
        other.purge_deleted(chats=[chat_id])
        qloop.run(wait_signal(win._chats_timer.timeout, TICK))  # a tick after the purge: nothing to show
    finally:
        other.close()
    assert qloop.run(ask_and_wait(win, "How many people live there?")) == "done"
    assert win.chat_id == chat_id and win.sidebar.ids() == [chat_id] and boxes == []


def test_the_windows_own_answer_streaming_across_ticks_reads_nothing_again(make_window, server, qloop, tmp_path,
                                                                           monkeypatch):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    listed, searched = [], []
    set_chats, search = win.sidebar.set_chats, win.chat_search.search
    monkeypatch.setattr(win.sidebar, "set_chats", lambda *a, **k: (listed.append(a), set_chats(*a, **k))[1])
    monkeypatch.setattr(win.chat_search, "search", lambda *a: (searched.append(a), search(*a))[1])
    gate = Gate()
    server.queue(Stream(tokens("An answer that goes on while the timer ticks twice."), gate=gate))
    answered = asyncio.ensure_future(ask_and_wait(win, "Tell me a story"), loop=qloop)
    try:
        for _ in range(2):  # the window's own saves, as the answer streams and as it ends
            qloop.run(wait_signal(win._chats_timer.timeout, TICK))
    finally:
        gate.opened.set()
    assert qloop.run(answered) == "done"
    qloop.run(wait_signal(win._chats_timer.timeout, TICK))
    assert listed == [] and searched == []
    assert win.sidebar.titles() == ["Tell me a story"]


def test_the_list_is_read_off_the_gui_thread_and_not_while_the_window_is_minimized(make_window, server, qloop,
                                                                                   qtbot, tmp_path, monkeypatch):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    readers: list[threading.Thread] = []
    chats_in = chats.chats_in

    def noted(db):
        readers.append(threading.current_thread())
        return chats_in(db)

    monkeypatch.setattr(chats, "chats_in", noted)
    monkeypatch.setattr(chat_find, "chats_in", noted)
    win.showMinimized()
    qtbot.waitUntil(win.isMinimized)
    saved_elsewhere(data, "asked while minimized")
    qloop.run(wait_signal(win._chats_timer.timeout, TICK))
    assert win.sidebar.titles() == [] and readers == []
    win.showNormal()
    qloop.run(wait_until(lambda: win.sidebar.titles() == ["asked while minimized"], TICK))
    assert readers and threading.main_thread() not in readers


def test_a_change_elsewhere_that_leaves_the_rows_as_they_are_does_not_fill_the_list_again(make_window, server,
                                                                                         tmp_path):
    # An --ask run closing purges the chats deleted a day before: nothing listed changes, and the list was
    # emptied and filled again all the same (its rows, the open one's highlight, made anew).
    data = tmp_path / "data"
    kept, gone = saved_elsewhere(data, "kept", "deleted a day ago")
    other = _elsewhere(data)
    other.delete(gone)
    other.close()
    win = make_window(server.base_url, data_dir=data)
    win.open_chat(kept)
    row = win.sidebar.item_for(kept)
    other = _elsewhere(data)
    other.purge_deleted(chats=[gone])
    other.close()
    assert win.catch_up_chats()  # read again: the history changed
    assert win.sidebar.item_for(kept) is row and win.sidebar.list.currentItem() is row


def test_a_read_overtaken_by_the_windows_own_question_does_not_put_the_rows_back_as_they_were(
        make_window, server, qloop, tmp_path, monkeypatch):
    data = tmp_path / "data"
    win = _asked(make_window, server, qloop, data, "asked here", "Two.")
    saved_elsewhere(data, "from ask")
    read, release = threading.Event(), threading.Event()
    chats_in = chat_find.chats_in

    def slow(db):  # the list is read, then the window's own question is stored before it comes back
        rows = chats_in(db)
        read.set()
        release.wait(30)
        return rows

    monkeypatch.setattr(chat_find, "chats_in", slow)
    try:
        win._look_for_chats()  # the timer's tick
        assert qloop.run(asyncio.to_thread(read.wait, 30))
        assert qloop.run(ask_and_wait(win, "asked here again")) == "done"
    finally:
        release.set()
    qloop.run(wait_until(lambda: win.sidebar.titles() == ["asked here", "from ask"], TICK))
    for _ in range(2):  # the read that came too late is not shown over it
        qloop.run(wait_signal(win._chats_timer.timeout, TICK))
        assert win.sidebar.titles() == ["asked here", "from ask"]


def test_a_chats_menu_open_keeps_the_rows_under_it_and_its_rename_edits_the_chat_it_was_opened_on(
        make_window, server, qloop, qtbot, tmp_path):
    data = tmp_path / "data"
    (chat_id,) = saved_elsewhere(data, "menu opened on me")
    win = make_window(server.base_url, data_dir=data)
    side = win.sidebar
    row = side.item_for(chat_id)
    side._menu(side.list.visualItemRect(row).center())  # a right click on the row
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu)
    try:
        saved_elsewhere(data, "from ask")
        win._look_for_chats()  # the timer's tick: not under the open menu
        assert not win.chat_search.waiting and side.item_for(chat_id) is row
        win.catch_up_chats(later=True)  # the window activated again (a click elsewhere, back): read again
        qloop.run(wait_until(lambda: side.titles() == ["from ask", "menu opened on me"], TICK))
        next(action for action in menu.actions() if action.text() == "Rename").trigger()
        (editor,) = [box for box in side.list.findChildren(QLineEdit) if box.isVisible()]
    finally:
        menu.close()
    assert editor.text() == "menu opened on me"  # the row it was opened on, listed anew
    editor.setText("renamed from its menu")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qloop.run(wait_until(lambda: side.titles() == ["from ask", "renamed from its menu"], TICK))
    assert win.store.get_chat(chat_id).title == "renamed from its menu"


def _read_held(monkeypatch) -> tuple[threading.Event, threading.Event]:
    """The list's reads in the worker held after reading until ``release`` is set; ``read`` set once one has read."""
    read, release = threading.Event(), threading.Event()
    chats_in = chat_find.chats_in

    def held(db):
        rows = chats_in(db)
        read.set()
        release.wait(30)
        return rows

    monkeypatch.setattr(chat_find, "chats_in", held)
    return read, release


def test_a_title_edited_while_a_read_is_on_its_way_is_kept_and_saved(make_window, server, qloop, qtbot, tmp_path,
                                                                     monkeypatch):
    data = tmp_path / "data"
    (chat_id,) = saved_elsewhere(data, "old title")
    win = make_window(server.base_url, data_dir=data)
    side = win.sidebar
    saved_elsewhere(data, "from ask")
    read, release = _read_held(monkeypatch)
    try:
        win._look_for_chats()  # the timer's tick: read in the worker
        assert qloop.run(asyncio.to_thread(read.wait, 30))
        side.list.setCurrentItem(side.item_for(chat_id))
        side.rename_current()  # F2 meanwhile
        (editor,) = [box for box in side.list.findChildren(QLineEdit) if box.isVisible()]
        editor.setText("new title typed")
    finally:
        release.set()
    qloop.run(wait_until(lambda: not win.chat_search.waiting, TICK))  # the read has come back
    assert side.renaming and editor.isVisible() and editor.text() == "new title typed"  # was closed, lost
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qloop.run(wait_until(lambda: side.titles() == ["from ask", "new title typed"], TICK))  # then read again
    assert win.store.get_chat(chat_id).title == "new title typed"


def test_a_read_overtaken_by_a_question_with_a_space_in_the_search_box_does_not_put_the_rows_back(
        make_window, server, qloop, tmp_path, monkeypatch):
    data = tmp_path / "data"
    win = _asked(make_window, server, qloop, data, "asked here", "Two.")
    win.sidebar.search.setText(" ")  # no words: every chat listed, as with an empty box
    saved_elsewhere(data, "from ask")
    read, release = _read_held(monkeypatch)
    try:
        win._look_for_chats()
        assert qloop.run(asyncio.to_thread(read.wait, 30))
        assert qloop.run(ask_and_wait(win, "asked here again")) == "done"
    finally:
        release.set()
    qloop.run(wait_until(lambda: win.sidebar.titles() == ["asked here", "from ask"], TICK))
    for _ in range(2):
        qloop.run(wait_signal(win._chats_timer.timeout, TICK))
        assert win.sidebar.titles() == ["asked here", "from ask"]


def test_a_list_that_cannot_be_read_is_not_read_again_at_every_tick(make_window, server, qloop, tmp_path,
                                                                    monkeypatch, caplog):
    data = tmp_path / "data"
    saved_elsewhere(data, "kept")
    win = make_window(server.base_url, data_dir=data)
    reads = []

    def unreadable(db):
        reads.append(1)
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(chat_find, "chats_in", unreadable)
    monkeypatch.setattr(win.store, "changes_elsewhere", lambda: None)  # the file locked: not even asked
    win._look_for_chats()
    qloop.run(wait_until(lambda: reads and not win.chat_search.waiting, TICK))
    for _ in range(2):
        qloop.run(wait_signal(win._chats_timer.timeout, TICK))
    assert len(reads) == 1 and win.sidebar.titles() == ["kept"]  # was read (and logged) every 2 s


def test_the_open_chat_renamed_elsewhere_takes_its_new_title_in_the_header_and_the_window_title(
        make_window, server, qloop, tmp_path):
    # Another window (an --ask run's, which stays open) renamed the chat shown here: the list said the new
    # title, the header and the window's title the old one until the chat was opened again.
    data = tmp_path / "data"
    win = _asked(make_window, server, qloop, data, "What is the capital of France?")
    other = _elsewhere(data)
    try:
        other.rename(win.chat_id, "Paris")
    finally:
        other.close()
    qloop.run(wait_until(lambda: win.sidebar.titles() == ["Paris"], TICK))
    assert win.title_label.text() == "Paris"
    assert win.windowTitle() == "Paris — tinyRAG Desktop"


def test_the_open_chat_given_another_persona_elsewhere_answers_as_that_one(make_window, server, qloop, tmp_path):
    data = tmp_path / "data"
    win = _asked(make_window, server, qloop, data, "What is the capital of France?", "Paris.")
    assert win.persona.currentText() == "Assistant"
    other = _elsewhere(data)
    try:
        other.set_persona(win.chat_id, "Concise")
    finally:
        other.close()
    qloop.run(wait_until(lambda: win.persona.currentText() == "Concise", TICK))
    assert qloop.run(ask_and_wait(win, "And of Italy?")) == "done"
    assert server.requests[-1]["messages"][0]["content"].startswith(win.settings["personas"]["Concise"])


def test_a_persona_picked_here_while_a_read_is_on_its_way_is_the_one_the_next_question_is_asked_as(
        make_window, server, qloop, tmp_path, monkeypatch):
    # The read began before the pick: its row said "Assistant", which was put back in the header (the pick
    # stored all the same), and the next question went as Assistant.
    data = tmp_path / "data"
    win = _asked(make_window, server, qloop, data, "What is the capital of France?", "Paris.")
    saved_elsewhere(data, "from ask")
    read, release = _read_held(monkeypatch)
    try:
        win._look_for_chats()  # the timer's tick: read in the worker
        assert qloop.run(asyncio.to_thread(read.wait, 30))
        win.persona.setCurrentText("Concise")
    finally:
        release.set()
    qloop.run(wait_until(lambda: not win.chat_search.waiting, TICK))
    assert win.sidebar.titles() == ["from ask", "What is the capital of France?"]  # the read was shown
    assert win.persona.currentText() == "Concise"
    assert win.store.get_chat(win.chat_id).persona == "Concise"
    assert qloop.run(ask_and_wait(win, "And of Italy?")) == "done"
    assert server.requests[-1]["messages"][0]["content"].startswith(win.settings["personas"]["Concise"])
