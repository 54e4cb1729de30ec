"""The message box's hint stays on one line: the whole of it where it fits, "Ask anything…" where it would wrap."""

from __future__ import annotations

from tinyrag_desktop.ui.composer import PLACEHOLDER, SHORT_PLACEHOLDER


def _one_line(box) -> bool:
    room = box.viewport().width() - 2 * box.document().documentMargin()
    return box.fontMetrics().horizontalAdvance(box.placeholderText()) < room


def test_at_700_px_the_hint_is_short_and_wide_it_is_whole(make_window, server, qtbot):
    win = make_window(server.base_url)
    win.resize(1180, 780)
    qtbot.waitUntil(lambda: win.composer.placeholderText() == PLACEHOLDER)
    assert _one_line(win.composer)
    win.resize(700, 700)  # it wrapped here: "(Enter sends, Shift+Enter for a new | line)"
    qtbot.waitUntil(lambda: win.composer.placeholderText() == SHORT_PLACEHOLDER)
    assert _one_line(win.composer)
    win.resize(1180, 780)
    qtbot.waitUntil(lambda: win.composer.placeholderText() == PLACEHOLDER)


def test_the_empty_chat_and_the_message_box_word_the_new_line_key_alike(make_window, server, qtbot):
    # The empty chat said "Shift+Enter adds a line", the box under it "Shift+Enter for a new line"
    from PySide6.QtWidgets import QLabel

    win = make_window(server.base_url)
    win.resize(1180, 780)
    qtbot.waitUntil(lambda: win.composer.placeholderText() == PLACEHOLDER)
    hints = [label.text().replace("\N{NO-BREAK SPACE}", " ") for label in win.view.findChildren(QLabel)
             if "Enter sends" in label.text().replace("\N{NO-BREAK SPACE}", " ")]
    assert len(hints) == 1
    said = [hint for hint in hints[0].split(" · ") + PLACEHOLDER.strip(")").split(", ") if "Shift+Enter" in hint]
    assert said == ["Shift+Enter for a new line"] * 2
