"""Keyboard-only use and accessible names: focus order, shortcuts, the Help list, states in words."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractButton, QApplication, QComboBox, QDialog, QLabel, QLineEdit,
                               QPlainTextEdit)

from tests.sse_server import Stream
from tinyrag_desktop.ui.menus import shortcut_rows
from tinyrag_desktop.ui.toolcard import ToolCard

from .conftest import ask_and_wait, tokens, wait_signal, wait_until
from .test_window import TWO_TOOLS


def _tab_chain(win, start, limit=2000):
    seen, widget = [], start
    for _ in range(limit):
        widget = widget.nextInFocusChain()
        if widget is start:
            break
        if widget.isVisible() and widget.isEnabled() and widget.focusPolicy() & Qt.FocusPolicy.TabFocus:
            seen.append(widget)
    return seen


def test_tab_reaches_cards_and_answer_actions_but_not_every_paragraph(make_window, server, qloop):
    server.queue(Stream(tokens(TWO_TOOLS)), Stream(tokens("Done.\n\nSecond paragraph.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Two sums")) == "done"
    chain = _tab_chain(win, win.composer)
    answer = win.view.answers()[-1]
    cards = answer.cards()
    assert win.send_button in chain and all(c in chain for c in cards)
    assert answer.copy_button in chain and answer.regenerate_button in chain
    assert not any(s in chain for s in answer.segments())  # text is reachable by mouse/screen reader only


def test_space_on_a_focused_card_toggles_it(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens(TWO_TOOLS)), Stream(tokens("ok")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Two sums")) == "done"
    card = win.view.answers()[-1].cards()[0]
    card.setFocus()
    qtbot.keyClick(card, Qt.Key.Key_Space)
    assert card.expanded and "Press Space to hide details" in card.accessibleDescription()


def test_escape_stops_the_answer(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens("slow words " * 800), delay=0.002))
    win = make_window(server.base_url)

    async def scenario():
        fut = wait_signal(win.answerFinished, timeout=10)
        win.composer.setPlainText("Talk")
        win.send()
        await wait_until(lambda: len(win.view.answers()[-1].content()) > 20)
        qtbot.keyClick(win.composer, Qt.Key.Key_Escape)
        return await fut

    assert qloop.run(scenario()) == "stopped"


def test_help_lists_the_shortcuts(make_window, server, qloop):
    win = make_window(server.base_url)
    rows = dict(shortcut_rows(win.menus.all))
    assert rows["New chat"] == "Ctrl+N" and rows["Stop answer"] == "Esc"
    assert rows["Send the question"] == "Enter" and rows["New line in the question"] == "Shift+Enter"
    assert "Copy last answer as Markdown" in rows and "Regenerate last answer" in rows
    win.menus.shortcuts.trigger()
    dialog = win.findChild(QDialog, "shortcutsDialog")
    assert dialog is not None and "Ctrl+N" in dialog.findChild(QLabel).text()


def test_every_control_has_a_name_a_screen_reader_can_read(make_window, server, qloop):
    server.queue(Stream(tokens(TWO_TOOLS)), Stream(tokens("ok")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Two sums")) == "done"
    controls = [w for cls in (QAbstractButton, QLineEdit, QPlainTextEdit, QComboBox, ToolCard)
                for w in win.findChildren(cls) if w.isVisible()]
    assert len(controls) >= 8
    unnamed = [w for w in controls if not (w.accessibleName() or getattr(w, "text", lambda: "")())]
    assert unnamed == []
    card = win.view.answers()[-1].cards()[0]
    assert card.accessibleName() == "Tool calculate, done"  # the state in words, not only a colour


def test_copy_last_answer_shortcut(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens("Copy **me**.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Say it")) == "done"
    win.menus.copy_answer.trigger()
    assert QApplication.clipboard().text().strip() == "Copy **me**."
