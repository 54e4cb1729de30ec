"""Reasoning with a line too long to lay out at each piece (200,000 characters streamed in pieces of 25 took
192 s): the Thinking section shows its start and how much more there is, and a selection copied keeps all."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor

from tinyrag_desktop.ui.thinking import LINE_SHOWN, ThinkingSection

PIECE = "reasoning goes on and on "  # 25 characters


def _streamed(qtbot, text: str) -> ThinkingSection:
    section = ThinkingSection()
    qtbot.add_widget(section)
    section.resize(600, 300)
    section.show()
    section.toggle.setChecked(True)
    for i in range(0, len(text), 25):
        section.append(text[i:i + 25])
    return section


def _copied(section: ThinkingSection, start: int, end: int) -> str:
    cursor = section.body.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    section.body.setTextCursor(cursor)
    return section.body.createMimeDataFromSelection().text()


def test_a_long_line_of_reasoning_shows_its_start_and_how_much_more_and_copying_keeps_all(qtbot):
    line = PIECE * 1_600  # 40,000 characters with no line break
    whole = f"{line}\nA short line.\n{line}"
    section = _streamed(qtbot, whole)
    qtbot.waitUntil(lambda: section.body.toPlainText().endswith("keeps all)"))  # written as it is seen
    note = " … (30,000 more characters, Copy keeps all)"
    assert section.body.toPlainText() == f"{line[:LINE_SHOWN]}{note}\nA short line.\n{line[:LINE_SHOWN]}{note}"
    assert section.text() == whole  # stored whole
    shown = section.body.toPlainText()
    assert _copied(section, 0, len(shown)) == whole
    second = shown.index("A short")
    assert _copied(section, second, len(shown)) == whole[whole.index("A short"):]
    assert _copied(section, 0, 30) == line[:30]  # no note in the selection: what it shows
    assert section.take_back(f"\n{line}") == f"{line}\nA short line."
    assert section.body.toPlainText() == f"{line[:LINE_SHOWN]}{note}\nA short line."
