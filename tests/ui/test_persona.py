"""ux31: a long persona name no longer takes the chat header's room, and Alt+P goes to the persona box."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QStatusBar

from tests.sse_server import Stream

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
    assert win.statusBar().currentMessage() == ("The persona “Pirate” was removed: this chat now answers as "
                                                "“Assistant”. Settings saved; they apply to the next question.")
    qloop.run(wait_until(lambda: "“Assistant”." in QStatusBar.currentMessage(win.statusBar())))  # as drawn
    win.grab().save("/tmp/ui34/persona_removed.png")
    win.apply_settings(win.settings.replace(personas={**personas, "Poet": "y"}), save=False, said=True)
    assert win.statusBar().currentMessage() == "Settings saved; they apply to the next question."
