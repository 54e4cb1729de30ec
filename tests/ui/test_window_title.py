"""The window's title names the open chat; an answer that ends while the window is in the background asks
for attention."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from tests.sse_server import Stream

from .conftest import ask_and_wait, tokens


def test_the_window_title_names_the_open_chat(make_window, server, qloop):
    win = make_window(server.base_url)
    assert win.windowTitle() == "tinyRAG Desktop"
    server.queue(Stream(tokens("It rains in spring.")))
    assert qloop.run(ask_and_wait(win, "When does it rain\nin Paris?")) == "done"
    assert win.windowTitle() == "When does it rain in Paris? — tinyRAG Desktop"
    win.new_chat()
    assert win.windowTitle() == "tinyRAG Desktop"


def test_an_answer_that_ends_in_the_background_asks_for_attention(make_window, server, qloop, monkeypatch):
    alerted = []
    monkeypatch.setattr(QApplication, "alert", staticmethod(lambda widget, msec=0: alerted.append(widget)))
    win = make_window(server.base_url)
    server.queue(Stream(tokens("Ready.")))
    assert qloop.run(ask_and_wait(win, "Anything?")) == "done"
    assert alerted == ([] if win.isActiveWindow() else [win])  # in front: nothing to call attention to
    alerted.clear()
    monkeypatch.setattr(win, "isActiveWindow", lambda: False)  # another window was brought in front
    server.queue(Stream(tokens("Ready again.")))
    assert qloop.run(ask_and_wait(win, "And now?")) == "done"
    assert alerted == [win]


def test_edit_beside_the_persona_box_opens_settings_at_the_personas(make_window, server, qtbot):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QToolButton

    win = make_window(server.base_url)
    button = win.findChild(QToolButton, "editPersonas")
    assert button is not None and button.isVisible()
    from tinyrag_desktop.ui.settings_dialog import SettingsDialog

    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    [dialog] = [d for d in win.findChildren(SettingsDialog) if d.isVisible()]
    assert dialog._tabs.tabText(dialog._tabs.currentIndex()).replace("&", "") == "Personas"
    dialog.reject()


def test_edit_beside_the_persona_box_selects_the_persona_in_use(make_window, server, qtbot, tmp_path):
    # It opened Settings on the first persona ("Assistant") whichever was in use.
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QToolButton

    from tinyrag_desktop.ui.settings_dialog import SettingsDialog

    win = make_window(server.base_url)
    names = [win.persona.itemText(i) for i in range(win.persona.count())]
    assert len(names) >= 2
    win.persona.setCurrentText(names[1])
    qtbot.mouseClick(win.findChild(QToolButton, "editPersonas"), Qt.MouseButton.LeftButton)
    [dialog] = [d for d in win.findChildren(SettingsDialog) if d.isVisible()]
    assert dialog.persona_list.currentItem().text() == names[1]
    assert dialog.persona_prompt.toPlainText() == win.settings["personas"][names[1]]
    qtbot.waitUntil(dialog.persona_list.hasFocus)  # the keyboard on it, not on a field of a hidden tab
    dialog.grab().save(str(tmp_path / "personas.png"))
    dialog.reject()
