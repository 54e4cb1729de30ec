"""The chats list's search runs in a worker thread: newest words win, clearing is instant, closing is clean."""

from __future__ import annotations

import logging
import sqlite3
import threading

import pytest

from tests.sse_server import Stream
from tinyrag_desktop import chat_find
from tinyrag_desktop.chat_find import ChatSearcher
from tinyrag_desktop.chats import ChatStore, ChatStoreError

from .conftest import ask_and_wait, tokens, wait_until

ENDLESS = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n"


@pytest.fixture
def history(tmp_path):
    """A data folder with three chats (newest last): apple pie, banana bread, sourdough bread."""
    data = tmp_path / "chats"
    store = ChatStore(data)
    ids = {}
    for name, question in (("apple", "An apple pie recipe"), ("banana", "How to bake banana bread"),
                           ("sourdough", "Feeding a sourdough starter for bread")):
        ids[name] = store.new_chat().id
        store.add_user_message(ids[name], question)
    store.close()
    return data, ids


def _searching(monkeypatch, word: str) -> threading.Event:
    """Make the search for ``word`` endless (an SQL query that only the search's own stop can end); the
    event is set once it runs."""
    started, real = threading.Event(), chat_find.find_chats

    def search(db, text):
        if text == word:
            started.set()
            db.execute(ENDLESS).fetchone()
        return real(db, text)

    monkeypatch.setattr(chat_find, "find_chats", search)
    return started


def _held(monkeypatch, word: str) -> tuple[threading.Event, threading.Event, list]:
    """Make the search for ``word`` find its chats, then hold them until released (as a search that ends
    late would): the events say it is holding them, and let it go; the list gets what it handed over."""
    started, release, returned = threading.Event(), threading.Event(), []
    real = ChatSearcher.search

    def slow(self, text):
        found = real(self, text)
        if text == word:
            started.set()
            release.wait(10)
            returned.append(found)
        return found

    monkeypatch.setattr(ChatSearcher, "search", slow)
    return started, release, returned


def _type(qtbot, win, text: str) -> None:
    """Type ``text`` into the search box and wait until its chats are shown."""
    with qtbot.waitSignal(win.chat_search.found, timeout=10000,
                          check_params_cb=lambda words, _chats: words == text):
        win.sidebar.search.setText(text)


def test_an_overtaken_search_is_given_up_and_the_newest_words_are_shown(make_window, server, qtbot, history,
                                                                        monkeypatch):
    data, ids = history
    started = _searching(monkeypatch, "apple")
    win = make_window(server.base_url, data_dir=data)
    shown = []
    win.chat_search.found.connect(lambda words, _chats: shown.append(words))
    win.sidebar.search.setText("apple")
    qtbot.waitUntil(started.is_set)  # an SQL query that would never end by itself
    _type(qtbot, win, "banana")
    assert win.sidebar.titles() == ["How to bake banana bread"] and shown == ["banana"]


def test_a_slow_older_result_never_replaces_a_newer_one(make_window, server, qtbot, history, monkeypatch):
    data, ids = history
    started, release, returned = _held(monkeypatch, "apple")
    win = make_window(server.base_url, data_dir=data)
    shown = []
    win.chat_search.found.connect(lambda words, _chats: shown.append(words))
    asked = []
    win.sidebar.searchChanged.connect(asked.append)
    win.sidebar.search.setText("apple")
    qtbot.waitUntil(started.is_set)
    win.sidebar.search.setText("bread")
    qtbot.waitUntil(lambda: asked == ["apple", "bread"])
    with qtbot.waitSignal(win.chat_search.found, timeout=10000):
        release.set()  # apple's result comes back now, after "bread" was asked for
    assert [c.id for c in returned[0]] == [ids["apple"]]  # it did come back, with chats
    assert shown == ["bread"]
    assert win.sidebar.ids() == [ids["sourdough"], ids["banana"]]


def test_clearing_the_box_lists_every_chat_at_once_even_during_a_search(make_window, server, qtbot, history,
                                                                      monkeypatch):
    data, ids = history
    win = make_window(server.base_url, data_dir=data)
    everything = win.sidebar.ids()
    _type(qtbot, win, "bread")
    assert win.sidebar.ids() == [ids["sourdough"], ids["banana"]] and win.sidebar.headings() == []
    win.sidebar.search.setText("")  # no waiting for a pause in typing, nor for a search
    assert win.sidebar.ids() == everything and win.sidebar.headings() == ["Today"]
    # cleared while a search runs: its chats, handed over after, never replace the full list
    started, release, returned = _held(monkeypatch, "pie")
    shown = []
    win.chat_search.found.connect(lambda words, _chats: shown.append(words))
    win.sidebar.search.setText("pie")
    qtbot.waitUntil(started.is_set)
    win.sidebar.search.setText("")
    assert win.sidebar.ids() == everything
    release.set()
    qtbot.waitUntil(lambda: bool(returned))
    _type(qtbot, win, "apple")  # after pie's result, were it sent on
    assert [c.id for c in returned[0]] == [ids["apple"]] and shown == ["apple"]
    assert win.sidebar.ids() == [ids["apple"]]


def test_chats_made_deleted_or_renamed_during_a_search_keep_the_list_right(make_window, server, qloop, qtbot,
                                                                           history):
    data, ids = history
    server.queue(Stream(tokens("Rye keeps well.")))
    win = make_window(server.base_url, data_dir=data)
    _type(qtbot, win, "bread")
    assert win.sidebar.ids() == [ids["sourdough"], ids["banana"]]
    # deleted: its row goes at once, and the search that follows does not bring it back
    with qtbot.waitSignal(win.chat_search.found, timeout=10000):
        win.delete_chat(ids["banana"])
        assert win.sidebar.ids() == [ids["sourdough"]]
    assert win.sidebar.ids() == [ids["sourdough"]] and win.sidebar.undo_bar.isVisible()
    with qtbot.waitSignal(win.chat_search.found, timeout=10000):
        win.sidebar.undo_button.click()
    assert win.sidebar.ids() == [ids["sourdough"], ids["banana"]]
    assert win.sidebar.current_id() == ids["banana"] == win.chat_id  # Undo opened it, and the list says so
    # renamed: the search finds it under its new title (it still holds the words)
    with qtbot.waitSignal(win.chat_search.found, timeout=10000):
        win.rename_chat(ids["sourdough"], "Starter notes")
    assert win.sidebar.titles() == ["How to bake banana bread", "Starter notes"]  # its title holds the word
    # a new chat whose question holds the words: listed first, as the open chat
    win.new_chat()
    assert qloop.run(ask_and_wait(win, "Is rye bread good?")) == "done"
    qtbot.waitUntil(lambda: len(win.sidebar.ids()) == 3)
    assert win.sidebar.ids()[0] == win.chat_id == win.sidebar.current_id()
    assert win.sidebar.titles()[0] == "Is rye bread good?"
    win.sidebar.search.setText("")
    assert len(win.sidebar.ids()) == 4


def test_a_search_that_fails_lists_every_chat_and_says_why(make_window, server, qtbot, history, monkeypatch,
                                                           caplog):
    data, ids = history
    win = make_window(server.base_url, data_dir=data)

    def locked(db, text):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(chat_find, "find_chats", locked)
    with caplog.at_level(logging.WARNING), qtbot.waitSignal(win.chat_search.failed, timeout=10000):
        win.sidebar.search.setText("bread")
    assert len(win.sidebar.ids()) == 3  # unfiltered, rather than an empty list or the stale one
    message = win.statusBar().currentMessage()
    assert "database is locked" in message and "Every chat is listed instead." in message
    assert any("database is locked" in r.getMessage() and not r.exc_info for r in caplog.records)


def test_closing_the_window_during_a_search_ends_its_thread(make_window, server, qloop, qtbot, history,
                                                           monkeypatch, capfd):
    data, _ids = history
    started = _searching(monkeypatch, "bread")
    win = make_window(server.base_url, data_dir=data)
    shown = []
    win.chat_search.found.connect(lambda words, _chats: shown.append(words))
    win.sidebar.search.setText("bread")
    qtbot.waitUntil(started.is_set)
    win.close()
    qloop.run(win.aclose(), timeout=10)
    assert [t for t in threading.enumerate() if t.name.startswith("chat-search")] == []
    assert shown == [] and win.store.closed
    assert not (data / "chats.sqlite3-wal").exists()  # the search's connection closed before the store's
    assert "QThread" not in capfd.readouterr().err


def test_the_searcher_gives_up_when_told_and_says_why_it_cannot_read(tmp_path, monkeypatch):
    store = ChatStore(tmp_path)
    store.add_user_message(store.new_chat().id, "Pumpkin soup")
    stop = threading.Event()
    searcher = ChatSearcher(store.path, stop=stop.is_set)
    assert [c.title for c in searcher.search("pumpkin")] == ["Pumpkin soup"]
    started = _searching(monkeypatch, "soup")
    threading.Thread(target=lambda: started.wait(10) and stop.set()).start()
    assert searcher.search("soup") is None  # the endless query, given up halfway
    searcher.close()
    missing = ChatSearcher(tmp_path / "gone" / "chats.sqlite3")
    with pytest.raises(ChatStoreError, match="Could not search the chat history .*gone"):
        missing.search("pumpkin")
    store.close()


def test_a_long_list_is_filled_a_slice_per_turn_and_a_new_fill_stops_the_last(qtbot):
    from PySide6.QtCore import QTimer

    from tinyrag_desktop.chats import ChatInfo
    from tinyrag_desktop.ui.sidebar import FILL_AT_ONCE, ChatsSidebar

    side = ChatsSidebar()
    qtbot.add_widget(side)
    side.resize(260, 400)
    side.show()
    at = 1_700_000_000.0
    many = [ChatInfo(f"c{n}", f"Chat {n}", "", at - n, at - n) for n in range(FILL_AT_ONCE * 2 + 50)]
    side.set_chats(many, "c420")  # the open chat comes in the third slice
    assert side.ids() == [c.id for c in many[:FILL_AT_ONCE]] and side.current_id() is None
    side.remove("c300")  # deleted before its row came
    qtbot.waitUntil(lambda: len(side.ids()) == len(many) - 1)
    assert "c300" not in side.ids() and side.current_id() == "c420"
    shown = side.list.visualItemRect(side.item_for("c420"))  # scrolled into view, as the open chat
    assert side.list.viewport().rect().contains(shown.center())
    assert side.headings() == [side.headings()[0]]  # one day: one heading, not one per slice
    side.set_chats(many, "c5")
    side.mark_current("c410")  # opened (as Undo does) before its row came
    assert side.current_id() is None  # c5 is no longer the open chat
    qtbot.waitUntil(lambda: len(side.ids()) == len(many))
    assert side.current_id() == "c410"
    side.set_chats(many, None)
    side.set_chats(many[:3], "c1")  # before the first had its second slice
    turned = []
    QTimer.singleShot(0, lambda: turned.append(True))  # after the first fill's next slice, had it one
    qtbot.waitUntil(lambda: bool(turned))
    assert side.ids() == ["c0", "c1", "c2"] and side.current_id() == "c1"


def test_the_keyboard_goes_from_the_search_to_its_hits(make_window, server, qloop, qtbot, history):
    # Down and Enter did nothing in the search box, and Esc neither emptied it nor left it: the hits
    # could only be reached by Tab, and Down from there opened the second.
    from PySide6.QtCore import Qt

    data, ids = history
    win = make_window(server.base_url, data_dir=data)
    with qtbot.waitActive(win):
        win.activateWindow()
    win.sidebar.search.setFocus()
    qtbot.keyClicks(win.sidebar.search, "bread")
    qtbot.keyClick(win.sidebar.search, Qt.Key.Key_Return)  # before the hits came: opened once they do
    qloop.run(wait_until(lambda: win.chat_id == ids["sourdough"] and not win.loading))
    assert win.sidebar.titles() == ["Feeding a sourdough starter for bread", "How to bake banana bread"]
    assert win.sidebar.list.hasFocus() and win.sidebar.current_id() == ids["sourdough"]

    win.new_chat()
    win.sidebar.search.setFocus()
    qtbot.keyClick(win.sidebar.search, Qt.Key.Key_Down)  # to the first hit, shown, not opened
    assert win.sidebar.list.hasFocus() and win.sidebar.current_id() == ids["sourdough"] and win.chat_id is None
    qtbot.keyClick(win.sidebar.list, Qt.Key.Key_Return)
    qloop.run(wait_until(lambda: win.chat_id == ids["sourdough"]))

    win.sidebar.search.setFocus()
    qtbot.keyClick(win.sidebar.search, Qt.Key.Key_Escape)  # empties the box: every chat is listed
    assert win.sidebar.search.text() == "" and len(win.sidebar.titles()) == 3
    assert win.sidebar.search.hasFocus()
    qtbot.keyClick(win.sidebar.search, Qt.Key.Key_Escape)  # empty: back to the message box
    assert win.composer.hasFocus()


def test_enter_after_the_search_was_sent_but_before_its_hits_came_opens_the_first_hit(make_window, server, qloop,
                                                                                       qtbot, history, monkeypatch):
    # Enter once the typing pause had passed but the search was still running opened the first row of the
    # list as it was: every chat, newest first, not a hit.
    from PySide6.QtCore import Qt

    data, ids = history
    started, release, _returned = _held(monkeypatch, "apple")
    win = make_window(server.base_url, data_dir=data)
    with qtbot.waitActive(win):
        win.activateWindow()
    win.sidebar.search.setFocus()
    qtbot.keyClicks(win.sidebar.search, "apple")
    qtbot.waitUntil(started.is_set)  # searched, not found yet
    qtbot.keyClick(win.sidebar.search, Qt.Key.Key_Return)
    assert win.chat_id is None  # not the newest chat, sourdough
    release.set()
    qloop.run(wait_until(lambda: win.chat_id == ids["apple"]))


def test_a_hits_words_found_are_drawn_under_its_title_in_the_muted_colour(make_window, server, qtbot, history):
    # The words found were drawn as a second title, in the title's colour and weight.
    from tinyrag_desktop.ui.theme import colors

    data, ids = history
    store = ChatStore(data)
    store.add_assistant_message(ids["sourdough"], "Feed it twice a day with **rye** flour.")
    store.close()
    win = make_window(server.base_url, data_dir=data)
    _type(qtbot, win, "rye")
    item = win.sidebar.item_for(ids["sourdough"])
    assert item.text() == "Feeding a sourdough starter for bread\nFeed it twice a day with rye flour."  # short: whole
    view = win.sidebar.list
    image = view.viewport().grab(view.visualItemRect(item)).toImage()

    def darkest(top: int, bottom: int):
        pixels = (image.pixelColor(x, y) for y in range(top, bottom) for x in range(image.width()))
        return min(pixels, key=lambda c: c.lightness())

    def near(a, b) -> bool:
        return max(abs(a.red() - b.red()), abs(a.green() - b.green()), abs(a.blue() - b.blue())) <= 40

    half = image.height() // 2
    assert near(darkest(0, half), colors().text) and near(darkest(half, image.height()), colors().muted)
