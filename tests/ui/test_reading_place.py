"""A chat left scrolled up opens again where it was being read: when it is opened again, and after a restart
(in a window of another width too). It opened at its end both times. A chat left at its end still opens there,
following what comes."""

from __future__ import annotations

import json

from tinyrag_desktop.chats import ChatStore
from tinyrag_desktop.ui import window_chats

from .conftest import held_answer, keep_picture, wait_until

PARAGRAPHS = 6
PLACES_FILE = "places.json"  # in the data folder


def _answer(n: int) -> str:
    return "\n\n".join(f"Answer {n}, paragraph {p}: " + "the tide comes in and goes out again. " * 12
                       for p in range(PARAGRAPHS))


def _chats(data, exchanges: int = 12) -> tuple[str, str]:
    """A long chat (12 exchanges, built 6 messages a page) and a short one."""
    store = ChatStore(data)
    short = store.new_chat()
    store.add_user_message(short.id, "A short one")
    store.add_assistant_message(short.id, "Short.")
    long = store.new_chat()
    for n in range(exchanges):
        store.add_user_message(long.id, f"Question {n}")
        store.add_assistant_message(long.id, _answer(n))
    store.close()
    return long.id, short.id


def _kept(data) -> dict:
    """The places file as it is now."""
    path = data / PLACES_FILE
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def _built(win, qloop) -> None:
    qloop.run(wait_until(lambda: not win.loading, timeout=15))


def _where(win) -> tuple[int, float] | None:
    """The message at the top of the view, by its number from the chat's first, and the share down it."""
    place = win.view.place()
    if place is None:
        return None
    height = win.view._widgets()[place[0]].height()
    return _before(win) + place[0], -place[1] / height


def _before(win) -> int:
    """How many of the chat's messages are above those built."""
    first = win.first_shown
    return 0 if first is None else sum(m.id < first for m in win.store.messages(win.chat_id))


def _scroll_up_to(win, qloop, number: int, share: float) -> None:
    """Scroll up (building earlier pages on the way, as the user does) until message ``number`` of the chat
    is at the top of the view, ``share`` of the way down it."""
    bar = win.view.verticalScrollBar()
    while _before(win) > number:
        bar.setValue(0)  # the top: the page before is built
        _built(win, qloop)
    index = number - _before(win)
    item = win.view._widgets()[index]
    bar.setValue(item.mapTo(win.view.widget(), item.rect().topLeft()).y() + round(share * item.height()))
    qloop.run(wait_until(lambda: _where(win) is not None))


def _long_chat_open(make_window, server, qloop, monkeypatch, tmp_path):
    """A window on a data folder holding _chats, the long one open and built: (window, folder, long, short)."""
    monkeypatch.setattr(window_chats, "HISTORY_PAGE", 6)
    data = tmp_path / "data"
    data.mkdir()
    long, short = _chats(data)
    win = make_window(server.base_url, data_dir=data, reopen_last=True)
    win.open_chat(long)
    _built(win, qloop)
    return win, data, long, short


def test_a_chat_left_scrolled_up_opens_where_it_was_read_again_and_after_a_restart(
        make_window, server, qloop, qtbot, monkeypatch, tmp_path):
    win, data, long, short = _long_chat_open(make_window, server, qloop, monkeypatch, tmp_path)
    assert win.view.following()
    _scroll_up_to(win, qloop, 9, 0.5)  # the middle of answer 4, two pages up
    number, share = _where(win)
    assert number == 9 and abs(share - 0.5) < 0.02
    keep_picture(win, "reading49_left.png")

    win.open_chat(short)
    _built(win, qloop)
    assert win.view.following()
    win.open_chat(long)
    _built(win, qloop)
    qloop.run(wait_until(lambda: _where(win) is not None))
    number, share = _where(win)
    assert number == 9 and abs(share - 0.5) < 0.02, (number, share)
    assert not win.view.following() and win.view.latest.isVisible()  # "Latest" says there is more below
    keep_picture(win, "reading49_back.png")

    _scroll_up_to(win, qloop, 7, 0.25)  # further up, then nothing more: no chat left, no window closed
    qtbot.waitUntil(lambda: _kept(data).get(long, [0])[0] == 7, timeout=5000)
    again = make_window(server.base_url, data_dir=data, reopen_last=True)  # as after a crash
    again.resize(700, 700)  # narrower: the messages are taller, the place is still the same paragraph
    assert again.chat_id == long
    _built(again, qloop)
    qloop.run(wait_until(lambda: _where(again) is not None))
    number, share = _where(again)
    assert number == 7 and abs(share - 0.25) < 0.05, (number, share)
    keep_picture(again, "reading49_restart.png")


def test_a_chat_left_at_its_end_opens_at_its_end(make_window, server, qloop, monkeypatch, tmp_path):
    win, data, long, short = _long_chat_open(make_window, server, qloop, monkeypatch, tmp_path)
    _scroll_up_to(win, qloop, 9, 0.5)
    qloop.run(wait_until(lambda: long in _kept(data), timeout=5))
    win.view.scroll_to_bottom()  # read down to its end again
    win.open_chat(short)
    _built(win, qloop)
    win.open_chat(long)
    _built(win, qloop)
    bar = win.view.verticalScrollBar()
    assert win.view.following() and bar.value() == bar.maximum()
    assert long not in _kept(data)


def test_an_answer_that_ends_while_its_chat_is_away_leaves_the_place_read_above_it(
        make_window, server, qloop, monkeypatch, tmp_path):
    win, _data, long, short = _long_chat_open(make_window, server, qloop, monkeypatch, tmp_path)
    gate, finished = held_answer(win, server, "And the moon?")
    qloop.run(wait_until(lambda: win.view.answers()[-1].content()))
    _scroll_up_to(win, qloop, 9, 0.5)  # reading an earlier answer while this one is written
    win.open_chat(short)
    _built(win, qloop)
    gate.opened.set()
    assert qloop.run(finished) == "done"  # out of sight
    win.open_chat(long)
    _built(win, qloop)
    qloop.run(wait_until(lambda: _where(win) is not None))
    number, share = _where(win)
    assert number == 9 and abs(share - 0.5) < 0.02, (number, share)
    assert win.view.latest.isVisible()
    win.view.latest.click()  # the answer that ended, below
    assert win.view.following()
    assert win.view.answers()[-1].content() == "Hello there, this is a long answer."


def test_a_place_far_above_the_end_opens_the_chat_at_its_end(make_window, server, qloop, monkeypatch, tmp_path):
    """A place near the top of a long chat had every message below it built as the chat opened: 15 s for a
    chat of 200 exchanges, and a question asked meanwhile froze the window for 3 s."""
    monkeypatch.setattr(window_chats, "HISTORY_PAGE", 6)
    data = tmp_path / "data"
    data.mkdir()
    long, short = _chats(data, 40)  # 80 messages, 6 built a page
    (data / PLACES_FILE).write_text(json.dumps({long: [2, 0.5]}), encoding="utf-8")  # read near its top
    win = make_window(server.base_url, data_dir=data, reopen_last=True)
    win.open_chat(long)
    _built(win, qloop)
    assert len(win.view._widgets()) <= 4 * 6  # not the 78 below the place
    assert win.view.following()  # at its end, following what comes
    win.open_chat(short)
    _built(win, qloop)
    assert long not in _kept(data)  # left at its end: no place kept
