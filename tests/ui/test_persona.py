"""ux31: a long persona name no longer takes the chat header's room, and Alt+P goes to the persona box."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QStatusBar, QToolButton

from tests.sse_server import Stream
from tinyrag_desktop.ui.main_window import MIN_WIDTH

from .conftest import ask_and_wait, tokens, wait_until

LONG = "Senior financial analyst for the northern region quarterly reporting team (detailed)"


def test_a_long_persona_name_is_cut_and_leaves_the_title_its_room(make_window, server, qloop):
    # An 80-character name made the box 525 px wide; at 1024 px the title read "Please explain in …".
    server.queue(Stream(tokens("ok")))
    win = make_window(server.base_url, personas={"Assistant": "x", LONG: "z"})
    win.resize(1024, 600)
    win._select_persona(LONG)
    assert qloop.run(ask_and_wait(win, "Please explain in detail how the quarterly reports are assembled")) == "done"
    qloop.run(wait_until(lambda: win.persona.width() > 0))
    assert win.persona.currentText() == LONG
    assert win.persona.width() <= 40 * win.persona.fontMetrics().averageCharWidth()
    assert win.title_label.width() > 2 * win.persona.width() - 100
    assert LONG in win.persona.toolTip()  # the whole name, where the box shows its start


def test_alt_p_goes_to_the_persona_box(make_window, server, qloop, qtbot):
    win = make_window(server.base_url)
    win.activateWindow()
    qloop.run(wait_until(win.isActiveWindow))
    win.composer.setFocus()
    qtbot.keyClick(win.composer, Qt.Key.Key_P, Qt.KeyboardModifier.AltModifier)
    qloop.run(wait_until(lambda: QApplication.focusWidget() is win.persona, timeout=2))


def test_removing_the_open_chats_persona_in_settings_says_what_the_chat_now_answers_as(make_window, server, qloop):
    # The header switched to "Assistant" in silence: the status bar said only "Settings saved…".
    server.queue(Stream(tokens("Arr.")))
    win = make_window(server.base_url, personas={"Assistant": "x", "Pirate": "Talk like a pirate."})
    win._select_persona("Pirate")
    assert qloop.run(ask_and_wait(win, "Hello")) == "done"
    personas = {"Assistant": "x"}
    win.apply_settings(win.settings.replace(personas=personas), save=False, said=True)  # as Settings' Save
    assert win.persona.currentText() == "Assistant"
    # said first: a narrow window shortens the end of a long message
    said = "Persona “Pirate” removed: this chat uses “Assistant”. Settings saved."
    assert win.statusBar().currentMessage() == said
    # whole in an 800-pixel window (it was cut after "this chat now answers as")
    win.resize(800, 600)
    qloop.run(wait_until(lambda: win.width() == 800))
    qloop.run(wait_until(lambda: QStatusBar.currentMessage(win.statusBar()) == said))  # as drawn
    win.apply_settings(win.settings.replace(personas={**personas, "Poet": "y"}), save=False, said=True)
    assert win.statusBar().currentMessage() == "Settings saved; they apply to the next question."


def _chat_whose_persona_goes(win, qloop, persona: str) -> str:
    """A chat answered as ``persona``, which Settings then removes; a new chat is shown."""
    win._select_persona(persona)
    assert qloop.run(ask_and_wait(win, "Explain RAG")) == "done"
    chat = win.chat_id
    win.new_chat()
    personas = {name: prompt for name, prompt in win.settings["personas"].items() if name != persona}
    win.apply_settings(win.settings.replace(personas=personas), save=False)
    qloop.run(wait_until(lambda: win.status._check is not None and win.status._check.done()))  # reachable
    win.statusBar().clearMessage()
    return chat


@pytest.mark.parametrize("names", [("Assistant", "Teacher"), (LONG, "Teacher of mathematics and physics")])
def test_opening_a_chat_whose_persona_was_removed_says_so_whole_in_an_800_px_window(make_window, server, qloop,
                                                                                   names, tmp_path):
    # At 800 × 600 it read "This chat's persona “Teacher” was removed; it now answers as “Assista…", and the
    # Edit… button beside the persona box was hidden (shown from a 560 px header; this one is 546).
    first, gone = names
    server.queue(Stream(tokens("Step one…")))
    win = make_window(server.base_url, personas={first: "x", gone: "Explain step by step."})
    win.resize(800, 600)
    chat = _chat_whose_persona_goes(win, qloop, gone)
    win.open_chat(chat)
    bar = win.statusBar()
    assert gone[:10] in bar.currentMessage() and first[:10] in bar.currentMessage()
    qloop.run(wait_until(lambda: not win.loading and not bar.isHidden()))
    win.grab().save(str(tmp_path / "persona_gone_800.png"))
    assert QStatusBar.currentMessage(bar) == bar.currentMessage()  # drawn whole, not cut with "…"
    assert bar.fontMetrics().horizontalAdvance(bar.currentMessage()) <= bar.message_room()
    edit = win.findChild(QToolButton, "editPersonas")
    assert edit.isVisible() and win.title_label.width() >= 150
    assert edit.geometry().right() <= edit.parentWidget().width()  # whole, inside the header


def test_the_edit_button_gives_way_to_the_title_in_the_narrowest_window(make_window, server, qloop):
    win = make_window(server.base_url)
    edit = win.findChild(QToolButton, "editPersonas")
    for width, shown in ((800, True), (MIN_WIDTH, False), (1000, True)):
        win.resize(width, 600)  # narrowed, the chats list folds away, and then the window narrows further
        qloop.run(wait_until(lambda: win.minimumWidth() <= width))
        win.resize(width, 600)
        qloop.run(wait_until(lambda: win.width() == width and edit.isVisible() == shown))
        assert win.title_label.width() >= 150
