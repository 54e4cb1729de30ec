"""The shell command's question has no empty band: not above its question, not when it opens, not made taller."""

from __future__ import annotations

from PySide6.QtCore import QPoint

from tinyrag_desktop.ui.confirm_dialog import ConfirmDialog

from .test_confirm_keys import _shown


def _blank_rows(dialog: ConfirmDialog) -> list[bool]:
    """For each row of pixels of the dialog as drawn, whether it is all background (nothing written on it)."""
    image = dialog.grab().toImage()
    background = image.pixelColor(1, 1).lightness()  # the corner, inside the layout's margin
    return [all(abs(image.pixelColor(x, y).lightness() - background) < 40 for x in range(0, image.width(), 2))
            for y in range(image.height())]


def _text_top(dialog: ConfirmDialog) -> int:
    """How far below the dialog's top its first written pixels are: the question's first line."""
    return _blank_rows(dialog).index(False)


def _widest_band(dialog: ConfirmDialog) -> int:
    """The most rows of background in a row between the first written pixels and the last."""
    rows = _blank_rows(dialog)
    first, last = rows.index(False), len(rows) - rows[::-1].index(False)
    widest = run = 0
    for blank in rows[first:last]:
        run = run + 1 if blank else 0
        widest = max(widest, run)
    return widest


def test_the_question_starts_at_the_dialogs_top_when_it_is_made_taller(qtbot):
    # The question, a word-wrapped label, was the one part that grew, its text centred in it: half of the
    # height over the content was empty above it (57 px when it opened at its first height).
    dialog = _shown(qtbot, "ls -la")
    margin = dialog.layout().contentsMargins().top()
    line = dialog.fontMetrics().height()
    fitted = dialog.layout().totalHeightForWidth(dialog.width())
    qtbot.waitUntil(lambda: dialog.height() == fitted)
    assert _text_top(dialog) < margin + line
    dialog.resize(dialog.width(), fitted + 150)
    qtbot.waitUntil(lambda: dialog.height() == fitted + 150)
    assert _text_top(dialog) < margin + line  # was 87: the margin, then half of the 150 px added
    assert dialog.deny_button.mapTo(dialog, QPoint(0, 0)).y() > fitted + 100  # the room went above the buttons


def test_the_dialog_opens_as_tall_as_its_content(qtbot):
    # It opened as tall as a box of a long command (249 px for "ls -la", 135 needed), and shrank only at the
    # next turn of the event loop, where the window system allowed it: its first frame had a 114 px band.
    dialog = ConfirmDialog("shell", "ls -la")
    qtbot.addWidget(dialog)
    dialog.show()  # measured before any event is handled
    assert dialog.height() == dialog.layout().totalHeightForWidth(dialog.width())
    assert _widest_band(dialog) < 2 * dialog.fontMetrics().height()
    assert _text_top(dialog) < dialog.layout().contentsMargins().top() + dialog.fontMetrics().height()


def test_a_long_command_opens_with_its_note_and_no_band(qtbot):
    dialog = ConfirmDialog("shell", "\n".join(f"echo line {n}" for n in range(40)), elsewhere="Trip plans")
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.scroll_note.isVisible()
    qtbot.waitUntil(lambda: dialog.height() == dialog.layout().totalHeightForWidth(dialog.width()))
    assert _widest_band(dialog) < 2 * dialog.fontMetrics().height()
    assert _text_top(dialog) < dialog.layout().contentsMargins().top() + dialog.fontMetrics().height()
