"""Chats saved by another program (``ask`` in a terminal, another window) appear in the open window's list."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from tests.sse_server import Stream

from .chats_elsewhere import first_in_sight, saved_elsewhere, scrolled_away, searched
from .conftest import ask_and_wait, tokens, wait_signal, wait_until


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
    _to_terminal_and_back(win, qtbot, lambda: saved_elsewhere(data, "first from ask", "second from ask"))
    qloop.run(wait_until(lambda: win.sidebar.titles() == ["second from ask", "first from ask"]))
    assert win.sidebar.headings() == ["Today"]
    _to_terminal_and_back(win, qtbot, lambda: saved_elsewhere(data, "third from ask"))
    qloop.run(wait_until(lambda: win.sidebar.titles()[:1] == ["third from ask"]))


def test_a_new_chat_lists_the_chats_saved_elsewhere_meanwhile(make_window, server, tmp_path):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    saved_elsewhere(data, "from ask")
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
    saved_elsewhere(data, "from ask")
    assert win.catch_up_chats() and len(listed) == 1
    assert win.sidebar.titles() == ["from ask", "renamed here"]
    assert not win.catch_up_chats() and len(listed) == 1


def test_the_list_read_again_keeps_the_open_chat_and_where_it_was_scrolled_to(make_window, server, qloop,
                                                                              tmp_path):
    data = tmp_path / "data"
    win, ids, before = scrolled_away(make_window, server, qloop, data)
    side = win.sidebar
    saved_elsewhere(data, "from ask")
    assert win.catch_up_chats()
    qloop.run(wait_until(lambda: len(side.titles()) == 901))
    assert side.titles()[0] == "from ask"
    assert first_in_sight(side) == before
    assert side.current_id() == ids[500] and [i.text() for i in side.list.selectedItems()] == ["chat 500"]
    assert win.chat_id == ids[500]

    # at the top, it stays at the top: the new chat is in sight
    side.list.scrollToTop()
    saved_elsewhere(data, "another from ask")
    assert win.catch_up_chats()
    qloop.run(wait_until(lambda: len(side.titles()) == 902))
    assert side.list.verticalScrollBar().value() == 0 and side.current_id() == ids[500]


def test_the_list_read_again_keeps_its_search(make_window, server, qloop, tmp_path):
    data = tmp_path / "data"
    win, _soup = searched(make_window, server, qloop, data)
    side = win.sidebar
    saved_elsewhere(data, "pumpkin pie", "apple pie")
    found = wait_signal(win.chat_search.found)
    assert win.catch_up_chats()
    qloop.run(found)
    assert side.search.text() == "pumpkin" and sorted(side.titles()) == ["pumpkin pie", "pumpkin soup"]

