"""Hints naming a Ctrl shortcut take Qt's native words for it: Ctrl+R on Linux and Windows, ⌘R on macOS."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence

from tinyrag_desktop.ui.answer import AnswerWidget
from tinyrag_desktop.ui.answer_saving import not_saved_words
from tinyrag_desktop.ui.menus import shortcut_rows

_NATIVE = QKeySequence.SequenceFormat.NativeText


def _as_on_macos(monkeypatch) -> None:
    """QKeySequence's native text with Ctrl written ⌘, as Qt writes it on macOS. Qt on Linux cannot be made to
    write macOS's text (that is chosen when Qt is built), so this checks that the hints ask Qt for it."""
    portable = QKeySequence.toString

    def native(self, fmt=QKeySequence.SequenceFormat.PortableText):
        text = portable(self, QKeySequence.SequenceFormat.PortableText)
        return text.replace("Ctrl+", "⌘") if fmt == _NATIVE else text

    monkeypatch.setattr(QKeySequence, "toString", native)


def test_the_hints_name_the_ctrl_keys_as_before_on_linux(make_window, server, qtbot):
    win = make_window(server.base_url)
    answer = AnswerWidget()
    qtbot.add_widget(answer)
    assert answer.regenerate_button.toolTip() == "Ask again for a new answer (Ctrl+R)"
    assert win.sidebar.new_button.toolTip() == "Start a new chat (Ctrl+N)"
    assert "copy it (Ctrl+Shift+C) to keep it." in not_saved_words("Disk full.")
    rows = dict(shortcut_rows(win.menus.all))
    assert rows["Go to the start / end of an answer's words"] == "Ctrl+Home / Ctrl+End"
    assert rows["Bring back the chat just deleted, in the chats list"] == "Ctrl+Z"


def test_the_hints_name_the_command_keys_where_qt_writes_them_so(make_window, server, qtbot, monkeypatch):
    _as_on_macos(monkeypatch)
    win = make_window(server.base_url)
    answer = AnswerWidget()
    qtbot.add_widget(answer)
    assert answer.regenerate_button.toolTip() == "Ask again for a new answer (⌘R)"
    assert win.sidebar.new_button.toolTip() == "Start a new chat (⌘N)"
    assert "copy it (⌘Shift+C) to keep it." in not_saved_words("Disk full.")
    rows = shortcut_rows(win.menus.all)
    assert dict(rows)["Go to the start / end of an answer's words"] == "⌘Home / ⌘End"
    assert dict(rows)["Select all of the message you are reading"] == "⌘A"
    assert [row for row in rows if "Ctrl" in row[1]] == []  # the menus' own keys and the places' alike
