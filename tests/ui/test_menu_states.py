"""The Edit and File items that act on the chat are offered only while they can act (not in an empty new chat)."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction

from tests.sse_server import Stream

from .conftest import ask_and_wait, tokens, wait_signal


def _items(win) -> dict[str, QAction]:
    acts = {}
    for top in win.menuBar().actions():
        for act in top.menu().actions():
            if not act.isSeparator():
                acts[act.text().replace("&", "").split("\t")[0]] = act
    return acts


CHAT_ITEMS = ("Regenerate last answer", "Copy last answer as Markdown", "Edit last question", "Rename chat",
              "Delete chat", "Export chat as Markdown…", "Export chat as HTML…")


def _enabled(win) -> dict[str, bool]:
    items = _items(win)
    return {name: items[name].isEnabled() for name in CHAT_ITEMS}


def test_an_empty_new_chat_offers_none_and_an_answered_one_all(make_window, server, qloop, qtbot):
    win = make_window(server.base_url)
    assert _enabled(win) == dict.fromkeys(CHAT_ITEMS, False)
    # disabled, their keys do nothing, and Ctrl+R says nothing of a chat that is not there
    with qtbot.assertNotEmitted(win.bridge.started):
        qtbot.keyClick(win.composer, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    server.queue(Stream(tokens("An answer.")))
    assert qloop.run(ask_and_wait(win, "A question")) == "done"
    assert _enabled(win) == dict.fromkeys(CHAT_ITEMS, True)
    chat = win.chat_id
    win.new_chat()
    assert _enabled(win) == dict.fromkeys(CHAT_ITEMS, False)
    with qtbot.waitSignal(win.chatOpened):
        win.open_chat(chat)
    assert _enabled(win) == dict.fromkeys(CHAT_ITEMS, True)


def test_a_question_sent_enables_what_acts_on_the_chat_before_its_answer_ends(make_window, server, qloop):
    from tests.sse_server import Hang

    server.queue(Hang(30))
    win = make_window(server.base_url)
    win.composer.setPlainText("Will you answer?")
    assert win.send()
    enabled = _enabled(win)
    assert enabled["Edit last question"] and enabled["Rename chat"] and enabled["Export chat as Markdown…"]
    # Regenerate and Copy are offered as the answer streams: Ctrl+R says "Still answering" in the status bar
    assert enabled["Regenerate last answer"] and enabled["Copy last answer as Markdown"]
    async def stopped():
        finished = asyncio.ensure_future(wait_signal(win.answerFinished))
        await asyncio.sleep(0)  # listening before the stop
        win.stop()
        return await finished

    assert qloop.run(stopped()) == "stopped"


def test_edit_last_question_shows_its_key_without_taking_it(make_window, server, qloop, qtbot):
    win = make_window(server.base_url)
    edit = win.findChild(QAction, "actionEditLast")
    assert edit.text().endswith("\t↑") and edit.shortcut().isEmpty()  # shown in the menu, not a shortcut
    server.queue(Stream(tokens("Yes.")))
    assert qloop.run(ask_and_wait(win, "First question")) == "done"
    win.composer.setFocus()
    qtbot.keyClick(win.composer, Qt.Key.Key_Up)  # still the message box's own key
    assert win.composer.toPlainText() == "First question"
