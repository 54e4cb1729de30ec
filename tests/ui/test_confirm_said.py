"""The shell's Run / Deny question, as a screen reader says it when it opens: the dialog's labels, then Deny.
The command to run is among them (it was only in the box, said after a Tab)."""

from __future__ import annotations

from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QLabel

from tinyrag_desktop.ui.confirm_dialog import ConfirmDialog


def _labels_said(dialog):
    """What Orca reads of a dialog as it opens: the names of its visible labels that label nothing."""
    return [QAccessible.queryAccessibleInterface(label).text(QAccessible.Text.Name)
            for label in dialog.findChildren(QLabel) if label.isVisible() and label.buddy() is None]


def test_the_command_is_said_with_the_question_as_the_dialog_opens(qtbot):
    dialog = ConfirmDialog("shell", "rm -rf ~/old & echo <done>", elsewhere="Tom & Jerry")
    qtbot.add_widget(dialog)
    dialog.show()
    [said] = _labels_said(dialog)
    # named as its card is ("Shell command"), not by the model's name for the tool ("the shell tool")
    assert said == ("Shell command: the model wants to run this on your computer (in the chat "
                    "“Tom & Jerry”, not the one open): rm -rf ~/old & echo <done>")


def test_a_long_command_is_said_in_part_and_where_the_rest_is(qtbot):
    dialog = ConfirmDialog("shell", "echo " + "x" * 1000)
    qtbot.add_widget(dialog)
    dialog.show()
    said = _labels_said(dialog)[0]
    assert "echo xxx" in said and said.endswith("… (the rest in the box)") and len(said) < 420
