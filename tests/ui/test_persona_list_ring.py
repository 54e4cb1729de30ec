"""Settings → Personas: the focus ring goes around the selected name, not across its letters."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui.settings_dialog import SettingsDialog
from tinyrag_desktop.ui.theme import colors, style_sheet


def test_each_persona_row_has_room_for_the_focus_ring_above_and_below_its_name(qtbot):
    # The rows were as tall as the text (14 px), and the ring's 2 px, drawn 1 px inside the row, crossed the top
    # and the bottom of "Assistant".
    dialog = SettingsDialog(defaults())
    qtbot.addWidget(dialog)
    dialog.setStyleSheet(style_sheet(colors().dark))  # as the window opens it
    dialog.show()
    qtbot.waitExposed(dialog)
    names = dialog.persona_list
    names.setFocus(Qt.FocusReason.TabFocusReason)
    text_height = names.fontMetrics().height()
    for row in range(names.count()):
        room = names.visualItemRect(names.item(row)).height() - text_height
        assert room >= 2 * 3, (names.item(row).text(), room)  # 1 px inset + 2 px of ring, on each side
