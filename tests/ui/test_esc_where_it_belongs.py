"""Esc acts on the chat where it is pressed: in the message box or the conversation it takes a waiting question
back (or stops the answer); in the knowledge panel's search box, the chats list or its filter it does what it
does there, and takes nothing back.

The Edit menu's Stop (Esc) was a window-wide shortcut: Esc pressed to empty the knowledge panel's search box
took the waiting question of the open chat back into the message box, and in the chats list it stopped the
answer.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.sse_server import Stream

from .conftest import keep_picture, tokens, wait_until

LONG = " ".join(f"word{n}" for n in range(1500))


def _waiting(win, qloop, qtbot):
    """A long answer written in one chat, and a question waiting its turn in a second, open chat."""
    with qtbot.waitActive(win):
        win.activateWindow()

    async def start():
        win.new_chat()
        assert win.ask("Tell me a long story")
        await wait_until(lambda: win.view.answers() and len(win.view.answers()[-1].content()) > 100)
        story = win.chat_id
        win.new_chat()
        assert win.ask("What colour are bananas?")
        return story, win.chat_id

    story, bananas = qloop.run(start())
    assert win.waiting.has(bananas) and win.stop_button.text() == "Cancel"
    return story, bananas


def _still_waits(win, bananas) -> bool:
    return win.waiting.has(bananas) and [q.text() for q in win.view.questions()] == ["What colour are bananas?"]


def test_esc_in_the_knowledge_panels_search_box_empties_it_and_takes_nothing_back(make_window, server, qloop,
                                                                                   qtbot):
    server.queue(Stream(tokens(LONG, 16), delay=0.004))
    win = make_window(server.base_url)
    story, bananas = _waiting(win, qloop, qtbot)
    win.kb_dock.show()
    box = win.kb_dock.widget().query_edit
    win.kb_dock.widget().tabs.setCurrentIndex(1)
    box.setFocus()
    qtbot.keyClicks(box, "vacation days")
    QTest.keyClick(box, Qt.Key.Key_Escape)
    assert _still_waits(win, bananas) and win.composer.toPlainText() == ""
    assert box.text() == "" and box.hasFocus()  # Esc empties a search box, as in the chats list's
    QTest.keyClick(box, Qt.Key.Key_Escape)  # empty: still nothing taken back
    assert _still_waits(win, bananas) and win.bridge.is_running()
    keep_picture(win, "esc_kb_box.png")


def test_esc_in_the_chats_list_or_its_filter_takes_nothing_back(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens(LONG, 16), delay=0.004))
    win = make_window(server.base_url)
    story, bananas = _waiting(win, qloop, qtbot)
    win.sidebar.list.setFocus()
    QTest.keyClick(win.sidebar.list, Qt.Key.Key_Escape)
    assert _still_waits(win, bananas)
    win.sidebar.search.setFocus()
    QTest.keyClick(win.sidebar.search, Qt.Key.Key_Escape)
    assert _still_waits(win, bananas) and win.bridge.is_running() and win._stream_chat == story


def test_esc_in_the_message_box_or_the_conversation_takes_the_waiting_question_back(make_window, server, qloop,
                                                                                   qtbot):
    server.queue(Stream(tokens(LONG, 16), delay=0.004))
    win = make_window(server.base_url)
    story, bananas = _waiting(win, qloop, qtbot)
    win.view.setFocus()
    QTest.keyClick(win.view, Qt.Key.Key_Escape)  # the conversation: this chat's question goes back
    assert not win.waiting.has(bananas) and win.composer.toPlainText() == "What colour are bananas?"
    assert win.bridge.is_running() and win._stream_chat == story  # the story goes on
    # and in the message box, Esc stops the answer of the chat it belongs to
    win.open_chat(story)
    qloop.run(wait_until(lambda: not win.loading))
    win.composer.setFocus()
    QTest.keyClick(win.composer, Qt.Key.Key_Escape)
    qloop.run(wait_until(lambda: not win.bridge.is_running()))
