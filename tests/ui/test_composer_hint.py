"""The message box's hint stays on one line: the whole of it where it fits, "Ask anything…" where it would wrap
or while the empty chat's hint above says the keys."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from tests.ui.conftest import ask_and_wait
from tinyrag_desktop.ui.composer import PLACEHOLDER, SHORT_PLACEHOLDER


def _one_line(box) -> bool:
    room = box.viewport().width() - 2 * box.document().documentMargin()
    return box.fontMetrics().horizontalAdvance(box.placeholderText()) < room


def test_at_700_px_the_hint_is_short_and_wide_it_is_whole(make_window, server, qtbot, qloop):
    win = make_window(server.base_url)
    qloop.run(ask_and_wait(win, "hello"))  # the keys in the box once the empty chat's hint is gone
    win.resize(1180, 780)
    qtbot.waitUntil(lambda: win.composer.placeholderText() == PLACEHOLDER)
    assert _one_line(win.composer)
    win.resize(700, 700)  # it wrapped here: "(Enter sends, Shift+Enter for a new | line)"
    qtbot.waitUntil(lambda: win.composer.placeholderText() == SHORT_PLACEHOLDER)
    assert _one_line(win.composer)
    win.resize(1180, 780)
    qtbot.waitUntil(lambda: win.composer.placeholderText() == PLACEHOLDER)


def _keys_said(win) -> list[str]:
    """Every text in sight that says the new-line key: the conversation's labels and the box's hint."""
    texts = [label.text() for label in win.view.findChildren(QLabel) if label.isVisible()]
    texts.append(win.composer.placeholderText())
    return [t for t in (t.replace("\N{NO-BREAK SPACE}", " ") for t in texts) if "Shift+Enter" in t]


def test_the_keys_are_said_once_in_an_empty_chat_and_once_in_a_chat_with_messages(make_window, server, qtbot,
                                                                                   qloop):
    # An empty chat said "Enter sends · Shift+Enter for a new line" in its hint and again in the box under it.
    win = make_window(server.base_url)
    win.resize(1180, 780)
    qtbot.waitUntil(lambda: win.view.findChild(QLabel, "emptyHint").isVisible())
    assert win.composer.placeholderText() == SHORT_PLACEHOLDER
    said = _keys_said(win)
    assert len(said) == 1 and "Enter sends · Shift+Enter for a new line" in said[0], said
    qloop.run(ask_and_wait(win, "hello"))
    qtbot.waitUntil(lambda: win.composer.placeholderText() == PLACEHOLDER)
    assert _keys_said(win) == [PLACEHOLDER]  # the one wording, now in the box
    win.new_chat()  # empty again: the hint has them, the box not
    qtbot.waitUntil(lambda: win.composer.placeholderText() == SHORT_PLACEHOLDER)
    assert len(_keys_said(win)) == 1
