"""Hints naming a Ctrl shortcut take Qt's native words for it: Ctrl+R on Linux and Windows, ⌘R on macOS."""

from __future__ import annotations

import pytest
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


@pytest.mark.parametrize("macos, keys", [
    (False, ("Ctrl+R", "Ctrl+N", "Ctrl+Shift+C", "Ctrl+Home / Ctrl+End", "Ctrl+A")),  # as before, on Linux
    (True, ("⌘R", "⌘N", "⌘Shift+C", "⌘Home / ⌘End", "⌘A")),
])
def test_the_hints_name_the_keys_as_qt_writes_them(make_window, server, qtbot, monkeypatch, macos, keys):
    if macos:
        _as_on_macos(monkeypatch)
    win = make_window(server.base_url)
    answer = AnswerWidget()
    qtbot.add_widget(answer)
    regenerate, new, copy, ends, select_all = keys
    assert answer.regenerate_button.toolTip() == f"Ask again for a new answer ({regenerate})"
    assert win.sidebar.new_button.toolTip() == f"Start a new chat ({new})"
    assert f"copy it ({copy}) to keep it." in not_saved_words("Disk full.")
    rows = dict(shortcut_rows(win.menus.all))
    assert rows["Go to the start / end of an answer's words"] == ends
    assert rows["Select all of the message you are reading"] == select_all
    assert macos == ("Ctrl" not in " ".join(rows.values()))  # the menus' own keys and the places' alike
