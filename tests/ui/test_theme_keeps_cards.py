"""The theme changed with a chat open: the tool cards and Thinking sections the user opened stay open in the chat
built again, at once and once an answer streaming there ends (folded by each rebuild, the user had to open them
again)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from tests.sse_server import Gate, Stream
from tests.ui.conftest import ask_and_wait, tokens, wait_signal, wait_until


def _with_card(n: int) -> tuple[Stream, Stream]:
    return (Stream(tokens(f'Working {n}. <tool name="calculate"><query>{n}+1</query></tool>', 8)),
            Stream(tokens(f"It is {n + 1}.", 8)))


def _opened(win) -> list[list[bool]]:
    return [[card.expanded for card in answer.cards()] for answer in win.view.answers()]


def test_cards_opened_stay_open_when_the_theme_changes_and_when_the_answer_streaming_ends(
        make_window, server, qloop):
    win = make_window(server.base_url)
    for n in range(2):
        server.queue(*_with_card(n))
        assert qloop.run(ask_and_wait(win, f"Question {n}")) == "done"
    win.view.answers()[0].cards()[0].set_expanded(True)
    opened = wait_signal(win.chatOpened)
    win.apply_settings(win.settings.replace(theme="dark"))
    qloop.run(opened)
    assert _opened(win) == [[True], [False]]

    gate = Gate()
    first, second = _with_card(2)
    server.queue(first, Stream(second.tokens, gate=gate))
    finished = wait_signal(win.answerFinished)
    win.composer.setPlainText("Question 2")
    assert win.send()
    qloop.run(wait_until(lambda: len(win.view.answers()) == 3 and win.view.answers()[-1].cards()))
    opened = wait_signal(win.chatOpened)
    win.apply_settings(win.settings.replace(theme="light"))  # while it streams: built again now and at its end
    qloop.run(opened)
    assert _opened(win) == [[True], [False], [False]]
    win.view.answers()[1].cards()[0].set_expanded(True)  # opened after the theme changed
    win.view.answers()[2].cards()[0].set_expanded(True)  # in the answer streaming
    assert _opened(win) == [[True], [True], [True]]
    rebuilt = wait_signal(win.chatOpened)
    gate.opened.set()
    assert qloop.run(finished) == "done"
    qloop.run(rebuilt)
    qloop.run(wait_until(lambda: not win.loading))
    assert _opened(win) == [[True], [True], [True]]


def _thinking_opened(win) -> list[bool]:
    return [answer.thinking().toggle.expanded for answer in win.view.answers()]


def test_a_thinking_opened_stays_open_when_the_theme_changes_and_when_the_answer_streaming_ends(
        make_window, server, qloop):
    win = make_window(server.base_url)
    for n in range(2):
        server.queue(Stream(tokens(f"It is {n}."), reasoning=tokens(f"Think about {n}.")))
        assert qloop.run(ask_and_wait(win, f"Question {n}")) == "done"
    win.view.answers()[1].thinking().toggle.click()
    opened = wait_signal(win.chatOpened)
    win.apply_settings(win.settings.replace(theme="dark"))
    qloop.run(opened)
    assert _thinking_opened(win) == [False, True]
    assert win.view.answers()[1].thinking().body.isVisibleTo(win.view)  # its reasoning shown, not only the arrow

    gate = Gate()
    server.queue(Stream(tokens("It is 2."), reasoning=tokens("Think about 2."), gate=gate))
    finished = wait_signal(win.answerFinished)
    win.composer.setPlainText("Question 2")
    assert win.send()
    qloop.run(wait_until(lambda: len(win.view.answers()) == 3 and win.view.answers()[-1].thinking()))
    win.view.answers()[2].thinking().toggle.click()  # in the answer streaming
    opened = wait_signal(win.chatOpened)
    win.apply_settings(win.settings.replace(theme="light"))  # while it streams: built again now and at its end
    qloop.run(opened)
    assert _thinking_opened(win) == [False, True, True]
    rebuilt = wait_signal(win.chatOpened)
    gate.opened.set()
    assert qloop.run(finished) == "done"
    qloop.run(rebuilt)
    qloop.run(wait_until(lambda: not win.loading))
    assert _thinking_opened(win) == [False, True, True]


def test_the_chat_shows_as_it_was_until_it_is_built_again_in_the_new_colours(
        make_window, server, qloop, monkeypatch):
    from tinyrag_desktop.ui import window_chats

    monkeypatch.setattr(window_chats, "LOAD_BUDGET", 0.0)  # a message a turn: the building is seen
    win = make_window(server.base_url)
    for n in range(3):
        server.queue(*_with_card(n))
        assert qloop.run(ask_and_wait(win, f"Question {n}")) == "done"
    win.view.answers()[-1].cards()[0].set_expanded(True)
    qloop.run(wait_until(lambda: not win.loading))
    before = win.view.grab().toImage()
    opened = wait_signal(win.chatOpened)
    win.apply_settings(win.settings.replace(theme="dark"))
    assert win.loading
    while win.loading:  # each slice built under the picture of the chat as it was
        assert win.view.grab().toImage() == before
        placed = len(win.view._widgets())
        qloop.run(wait_until(lambda: len(win.view._widgets()) != placed or not win.loading))
    qloop.run(opened)
    qloop.run(wait_until(lambda: win.view.grab().toImage() != before))  # then the chat in the new colours
    assert _opened(win) == [[False], [False], [True]]
    assert not _covers(win)

    win.apply_settings(win.settings.replace(theme="light"))
    assert win.loading and _covers(win)
    win.new_chat()  # while it is built again: the new chat is seen, not the picture
    qloop.run(wait_until(lambda: not _covers(win)))


def _covers(win) -> list:
    return win.view.findChildren(QLabel, "chatCover")

