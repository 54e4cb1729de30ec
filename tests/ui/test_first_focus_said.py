"""An empty box's first focus is said by a screen reader: Qt placed its caret as it took the focus, and told of
that before of the focus; Orca 43 then took the box for the focus already and said nothing (Ctrl+F the first
time, the knowledge panel's search box, Settings' API key). The caret is placed when the box is made."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QTabWidget

from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui.settings_dialog import SettingsDialog


def _caret_moves_at_first_focus(qtbot, box: QLineEdit, show=lambda: None) -> list[tuple[int, int]]:
    """The caret moves ``box`` tells of as it is shown (``show``) and takes the focus for the first time."""
    moves: list[tuple[int, int]] = []
    box.cursorPositionChanged.connect(lambda old, new: moves.append((old, new)))
    show()
    qtbot.waitUntil(box.isVisible)
    box.setFocus(Qt.FocusReason.ShortcutFocusReason)
    assert box.hasFocus()
    return moves


def test_the_find_chats_and_knowledge_search_boxes_say_their_first_focus(make_window, server, qtbot):
    win = make_window(server.base_url)
    with qtbot.waitActive(win):
        win.activateWindow()
    assert _caret_moves_at_first_focus(qtbot, win.find_bar.box, win.find_bar.show) == []
    assert _caret_moves_at_first_focus(qtbot, win.sidebar.search) == []
    panel = win.kb_dock.widget()
    query = panel.findChild(QLineEdit, "kbQuery")

    def search_tab():
        win.kb_dock.show()
        panel.findChild(QTabWidget).setCurrentIndex(1)

    assert _caret_moves_at_first_focus(qtbot, query, search_tab) == []


def test_settings_empty_fields_say_their_first_focus(qtbot):
    dialog = SettingsDialog(defaults())
    qtbot.add_widget(dialog)
    dialog.show()
    with qtbot.waitActive(dialog):
        dialog.activateWindow()
    key = dialog.findChild(QLineEdit, "setting_api_key")
    assert key is not None and key.text() == ""
    assert _caret_moves_at_first_focus(qtbot, key) == []
