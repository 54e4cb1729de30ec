"""A window left open overnight: the chats list's headings move on with the calendar ("Today" becomes
"Yesterday") at midnight, without a click, and a question asked then does not join yesterday's chats."""

from __future__ import annotations

import datetime
import time

from tinyrag_desktop.chats import ChatStore
from tinyrag_desktop.ui.window_chats import DAY_CHECK_MS, ms_to_next_day

from .conftest import wait_until


def test_ms_to_next_day_is_a_second_past_the_next_local_midnight():
    now = datetime.datetime(2026, 12, 4, 23, 59, 0).timestamp()
    assert ms_to_next_day(now) == 61_000
    assert ms_to_next_day(datetime.datetime(2026, 12, 4, 0, 0, 0).timestamp()) == 86_401_000
    assert ms_to_next_day(datetime.datetime(2026, 12, 4, 23, 59, 59, 999000).timestamp()) == 1001


def test_the_headings_move_on_at_midnight(make_window, server, qloop, tmp_path, monkeypatch):
    data = tmp_path / "data"
    store = ChatStore(data)
    try:
        for title in ("planned the trip", "asked about Go"):
            store.add_user_message(store.new_chat(title=title).id, title)
    finally:
        store.close()
    win = make_window(server.base_url, data_dir=data)
    assert win.sidebar.headings() == ["Today"]
    timer = win._day_timer
    assert timer.isActive() and 0 < timer.interval() <= DAY_CHECK_MS
    # the night passes: the clock is a day on, and the timer set for midnight fires
    tomorrow = time.time() + 86400
    monkeypatch.setattr(time, "time", lambda: tomorrow)  # the calendar the window and its list read
    timer.setInterval(1)
    timer.start()
    qloop.run(wait_until(lambda: win.sidebar.headings() == ["Yesterday"]))
    assert set(win.sidebar.titles()) == {"planned the trip", "asked about Go"}
    assert win._day_timer.isActive()  # and it looks again for the next night


def test_before_midnight_the_list_is_not_read_again(make_window, server, qloop, tmp_path, monkeypatch):
    win = make_window(server.base_url, data_dir=tmp_path / "data")
    reads = []
    refresh = win._refresh_chats
    monkeypatch.setattr(win, "_refresh_chats", lambda **kw: (reads.append(1), refresh(**kw))[1])
    win._day_timer.setInterval(1)
    win._day_timer.start()
    qloop.run(wait_until(lambda: win._day_timer.interval() > 1))  # fired, nothing changed: armed again
    assert reads == []


def test_a_list_that_cannot_be_read_at_midnight_stays_as_it_was(make_window, server, qloop, tmp_path,
                                                                 monkeypatch):
    # The timer's read of the list raised SQLite's error out of the slot: a traceback on the console.
    import sqlite3
    win = make_window(server.base_url, data_dir=tmp_path / "data")

    def locked():
        raise sqlite3.OperationalError("database is locked")
    monkeypatch.setattr(win.store, "list_chats", locked)
    tomorrow = time.time() + 86400
    monkeypatch.setattr(time, "time", lambda: tomorrow)
    assert win.catch_up_chats() is False  # the day changed: read again, which failed, so it is not read
    assert win._listed_day is None  # so the calendar's next look reads it again
