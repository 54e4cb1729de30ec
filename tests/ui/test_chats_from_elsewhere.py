"""Chats saved by another program (``ask`` in a terminal, another window) appear in the open window's list."""

from __future__ import annotations

import sqlite3
import time

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QWidget

from tests.sse_server import Stream
from tinyrag_desktop.chats import ChatStore

from .conftest import ask_and_wait, tokens, wait_signal, wait_until


def _elsewhere(data, *titles: str) -> list[str]:
    """Chats saved as `ask` saves them, by a program of its own (its own connection to the history)."""
    store = ChatStore(data)
    try:
        ids = []
        for title in titles:
            chat = store.new_chat(title=title)
            store.add_user_message(chat.id, title)
            ids.append(chat.id)
        return ids
    finally:
        store.close()


def _to_terminal_and_back(win, qtbot, then) -> None:
    terminal = QWidget()  # the terminal the user switches to
    qtbot.add_widget(terminal)
    terminal.show()
    with qtbot.waitActive(terminal):
        terminal.activateWindow()
    then()
    with qtbot.waitActive(win):
        win.activateWindow()


def test_chats_asked_in_a_terminal_are_listed_when_the_window_is_activated_again(make_window, server, qloop,
                                                                                  qtbot, tmp_path):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    with qtbot.waitActive(win):
        win.activateWindow()
    assert win.sidebar.titles() == []
    _to_terminal_and_back(win, qtbot, lambda: _elsewhere(data, "first from ask", "second from ask"))
    qloop.run(wait_until(lambda: win.sidebar.titles() == ["second from ask", "first from ask"]))
    assert win.sidebar.headings() == ["Today"]
    _to_terminal_and_back(win, qtbot, lambda: _elsewhere(data, "third from ask"))
    qloop.run(wait_until(lambda: win.sidebar.titles()[:1] == ["third from ask"]))


def test_a_new_chat_lists_the_chats_saved_elsewhere_meanwhile(make_window, server, tmp_path):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    _elsewhere(data, "from ask")
    win.new_chat()  # Ctrl+N, the window never left
    assert win.sidebar.titles() == ["from ask"]


def test_the_windows_own_questions_and_answers_do_not_read_the_list_again(make_window, server, qloop,
                                                                          tmp_path, monkeypatch):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    listed = []
    real = win.sidebar.set_chats
    monkeypatch.setattr(win.sidebar, "set_chats", lambda *a, **k: (listed.append(a), real(*a, **k))[1])
    for question in ("one", "two"):
        server.queue(Stream(tokens("An answer long enough to be saved while it streams.")))
        assert qloop.run(ask_and_wait(win, question)) == "done"
    win.rename_chat(win.chat_id, "renamed here")
    qloop.run(wait_until(lambda: win.sidebar.titles() == ["renamed here"]))
    listed.clear()
    assert not win.catch_up_chats()  # only its own writes since: the list is right as it is
    win.new_chat()
    assert listed == []
    _elsewhere(data, "from ask")
    assert win.catch_up_chats() and len(listed) == 1
    assert win.sidebar.titles() == ["from ask", "renamed here"]
    assert not win.catch_up_chats() and len(listed) == 1


def _many_chats(data, count: int) -> list[str]:
    """``count`` chats, the first the newest, a minute apart, all earlier today or yesterday."""
    store = ChatStore(data)
    ids = [store.new_chat(title=f"chat {n}").id for n in range(count)]
    store.close()
    start = time.time() - 60
    with sqlite3.connect(data / "chats.sqlite3") as db:
        for n, chat_id in enumerate(ids):
            db.execute("UPDATE chats SET updated=? WHERE id=?", (start - 60 * n, chat_id))
    return ids


def _first_in_sight(side) -> tuple[str, int]:
    for row in range(side.list.indexAt(QPoint(1, 1)).row(), side.list.count()):
        item = side.list.item(row)
        if item.data(Qt.ItemDataRole.UserRole):
            return item.text(), side.list.visualItemRect(item).top()
    raise AssertionError("no chat in sight")


def test_the_list_read_again_keeps_the_open_chat_and_where_it_was_scrolled_to(make_window, server, qloop,
                                                                              tmp_path):
    data = tmp_path / "data"
    ids = _many_chats(data, 900)  # more than the rows put in at once
    win = make_window(server.base_url, data_dir=data)
    side = win.sidebar
    qloop.run(wait_until(lambda: len(side.titles()) == 900))
    win.open_chat(ids[500])
    side.list.scrollToItem(side.item_for(ids[480]), side.list.ScrollHint.PositionAtTop)
    side.list.verticalScrollBar().setValue(side.list.verticalScrollBar().value() - 1)  # a heading may show
    before = _first_in_sight(side)
    _elsewhere(data, "from ask")
    assert win.catch_up_chats()
    qloop.run(wait_until(lambda: len(side.titles()) == 901))
    assert side.titles()[0] == "from ask"
    assert _first_in_sight(side) == before
    assert side.current_id() == ids[500] and [i.text() for i in side.list.selectedItems()] == ["chat 500"]
    assert win.chat_id == ids[500]

    # at the top, it stays at the top: the new chat is in sight
    side.list.scrollToTop()
    _elsewhere(data, "another from ask")
    assert win.catch_up_chats()
    qloop.run(wait_until(lambda: len(side.titles()) == 902))
    assert side.list.verticalScrollBar().value() == 0 and side.current_id() == ids[500]


def test_the_list_read_again_keeps_its_search(make_window, server, qloop, tmp_path):
    data = tmp_path / "data"
    _elsewhere(data, "pumpkin soup", "leek tart")
    win = make_window(server.base_url, data_dir=data)
    side = win.sidebar
    found = wait_signal(win.chat_search.found)
    side.search.setText("pumpkin")
    qloop.run(found)
    assert side.titles() == ["pumpkin soup"]
    _elsewhere(data, "pumpkin pie", "apple pie")
    found = wait_signal(win.chat_search.found)
    assert win.catch_up_chats()
    qloop.run(found)
    assert side.search.text() == "pumpkin" and sorted(side.titles()) == ["pumpkin pie", "pumpkin soup"]

