"""Chats written by another program beside the window (an ``--ask`` run, a script), through a connection of
its own to the history, for the tests of the chats list catching up with them."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from PySide6.QtCore import QPoint, Qt

from tinyrag_desktop.chats import ChatStore


def saved_elsewhere(data: Path, *titles: str) -> list[str]:
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


def many_chats(data: Path, count: int) -> list[str]:
    """``count`` chats, the first the newest, a minute apart, all earlier today or yesterday."""
    store = ChatStore(data)
    ids = [store.new_chat(title=f"chat {n}").id for n in range(count)]
    store.close()
    start = time.time() - 60
    with sqlite3.connect(data / "chats.sqlite3") as db:
        for n, chat_id in enumerate(ids):
            db.execute("UPDATE chats SET updated=? WHERE id=?", (start - 60 * n, chat_id))
    return ids


def first_in_sight(side) -> tuple[str, int]:
    """The first chat row the sidebar's list shows, and how far below its top."""
    for row in range(side.list.indexAt(QPoint(1, 1)).row(), side.list.count()):
        item = side.list.item(row)
        if item.data(Qt.ItemDataRole.UserRole):
            return item.text(), side.list.visualItemRect(item).top()
    raise AssertionError("no chat in sight")


def scrolled_away(make_window, server, qloop, data: Path):
    """A window on 900 chats (more rows than are put in at once), chat 500 open, the list scrolled to chat
    480's row less a pixel (a heading may show): the window, the chats' ids and what first_in_sight says."""
    from .conftest import wait_until

    ids = many_chats(data, 900)
    win = make_window(server.base_url, data_dir=data)
    side = win.sidebar
    qloop.run(wait_until(lambda: len(side.titles()) == 900))
    win.open_chat(ids[500])
    side.list.scrollToItem(side.item_for(ids[480]), side.list.ScrollHint.PositionAtTop)
    side.list.verticalScrollBar().setValue(side.list.verticalScrollBar().value() - 1)
    return win, ids, first_in_sight(side)


def searched(make_window, server, qloop, data: Path):
    """A window on "pumpkin soup" and "leek tart", "pumpkin" searched for: the window and the soup's id."""
    from .conftest import wait_signal

    soup, _tart = saved_elsewhere(data, "pumpkin soup", "leek tart")
    win = make_window(server.base_url, data_dir=data)
    found = wait_signal(win.chat_search.found)
    win.sidebar.search.setText("pumpkin")
    qloop.run(found)
    assert win.sidebar.titles() == ["pumpkin soup"]
    return win, soup
