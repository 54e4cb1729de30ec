"""The status bar says what the answer being written is doing: it said "Answering…" from the question to the
end, also while a search ran or the model wrote a Go program."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from tests.sse_server import Stream
from tinyrag_desktop.ui.activity import ANSWERING, THINKING, WAITING, AnswerActivity

from .conftest import ask_and_wait, held_answer, tokens, wait_until

SEARCH = '<tool name="rag_knowledge"><query>vacation days for new staff</query></tool>'
PROGRAM = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(6 * 7)\n}\n"
GO = f'<tool name="nanogo"><source>{PROGRAM}</source></tool>'


def _said(win) -> list[str]:
    """What the status bar says after each of the answer's events (connected after the status bar's own)."""
    said: list[str] = []
    b = win.bridge
    for signal in (b.text, b.reasoning, b.toolWriting, b.toolStarted, b.toolFinished):
        signal.connect(lambda *_: said.append(win.status.busy.text()))
    return said


def _changes(said: list[str]) -> list[str]:
    return [w for i, w in enumerate(said) if i == 0 or said[i - 1] != w]


def test_the_status_bar_follows_the_answer_from_thinking_to_searching_to_running_go(make_window, server, qloop):
    server.queue(Stream(tokens("<think>They ask about leave. I should search.</think>Let me look. " + SEARCH, 5),
                        delay=0.002),
                 Stream(tokens("Now the sum: " + GO, 5), delay=0.002),
                 Stream(tokens("It is 42.")))
    win = make_window(server.base_url, allow_nanogo=True)
    said = _said(win)
    assert qloop.run(ask_and_wait(win, "How many vacation days, times 42?"), timeout=30) == "done"
    assert _changes(said) == [THINKING, ANSWERING, "Writing a knowledge base search…", "Searching the knowledge base…",
                              ANSWERING, "Writing Go code…", "Running Go code…", ANSWERING]
    assert win.status.busy.text() == ""  # done: nothing is said


def test_the_status_bar_says_waiting_as_the_chat_does_until_the_first_words(make_window, server, qloop):
    # It said "Answering…" beside the chat's "Waiting for the model…" while a slow model loaded.
    win = make_window(server.base_url)
    gate, finished = held_answer(win, server, "Hi")
    waiting = win.view.answers()[-1].findChild(QLabel, "waiting")
    assert waiting is not None and waiting.text() == WAITING
    assert win.status.busy.text() == WAITING
    qloop.run(wait_until(lambda: win.view.answers()[-1].content()))
    assert win.status.busy.text() == ANSWERING
    gate.opened.set()
    assert qloop.run(finished) == "done"


def test_the_words_for_each_event():
    activity = AnswerActivity()
    assert activity.words() == WAITING
    assert AnswerActivity().text("\n") == ANSWERING  # the first words, though blank: the chat shows them
    assert activity.reasoning("hm") == THINKING
    assert activity.text("\n\n") == THINKING  # the line breaks after </think>: not yet the answer
    assert activity.text("It") == ANSWERING
    assert activity.tool_writing("c1", "calculate", False) == "Writing a calculation…"
    assert activity.tool_writing("c1", "calculate", True) == ANSWERING  # no call after all: shown as text
    assert activity.tool_writing("c2", "websearch", False) == "Writing a web search…"
    assert activity.tool_started("c2", "websearch") == "Searching the web…"
    # a call being written while another runs: the one running is said until it ends
    assert activity.tool_writing("c3", "url_fetch", False) == "Searching the web…"
    assert activity.tool_started("c3", "url_fetch") == "Running 2 tools…"
    assert activity.tool_finished("c2") == "Reading a web page…"
    assert activity.tool_finished("c3") == ANSWERING
    assert activity.tool_finished("c9") == ANSWERING  # refused before it ran: its result alone comes
    assert activity.tool_started("c4", "frobnicate") == "Running frobnicate…"  # a tool this version does not know


def test_longer_words_do_not_widen_the_narrowest_window(make_window, server, qloop):
    # A plain label is as wide as its words at the least: "Searching the knowledge base…" made the window at
    # its narrowest (with the chats list folded) 591 px wide instead of 515. Cut with "…", its tooltip says it.
    win = make_window(server.base_url)
    win.status.set_busy(True)
    least = win.status.busy.minimumSizeHint().width()
    win.status._say("Searching the knowledge base…")
    assert win.status.busy.minimumSizeHint().width() == least
    assert win.status.busy.fontMetrics().horizontalAdvance(ANSWERING) < least  # "Answering…" is never cut


def test_what_the_answer_does_stands_apart_from_the_servers_address(make_window, server, qtbot):
    # "Reading a web page…Server: http://…": the words ran into the address, 7 px apart
    win = make_window(server.base_url)
    win.resize(1180, 780)
    win.status.set_busy(True)
    win.status._say("Reading a web page…")
    busy, address = win.status.busy, win.status.server
    qtbot.waitUntil(lambda: address.isVisible() and 0 < busy.x() + busy.width() <= address.x())
    room = busy.contentsRect()
    text_end = busy.x() + room.left() + min(room.width(), busy.fontMetrics().horizontalAdvance(busy.text()))
    assert address.x() - text_end >= 12, (address.x(), text_end)
    win.status.set_busy(False)
    qtbot.waitUntil(lambda: busy.width() <= busy.contentsMargins().left() + busy.contentsMargins().right())
    assert busy.contentsMargins().right() == 0  # no answer: no room kept
