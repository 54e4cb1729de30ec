"""The shell question's Run and Deny look like the app's buttons, in both themes: Deny, the default, in the
app's blue as Send; Run, which acts on the computer, in the error colours as Stop; the focused one ringed."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from tinyrag_desktop.ui.confirm_dialog import ConfirmDialog
from tinyrag_desktop.ui.theme import _variables, apply_theme

from .test_confirm_keys import _shown


def _near(colour: QColor, name: str) -> bool:
    want = QColor(name)
    return max(abs(colour.red() - want.red()), abs(colour.green() - want.green()),
               abs(colour.blue() - want.blue())) <= 6


def _look(dialog: ConfirmDialog, button) -> tuple[QColor, QColor]:
    """The button's fill (left of its text, half-way down) and its left edge, as drawn in the dialog."""
    image = dialog.grab().toImage()
    box = button.geometry()
    top_left = button.parentWidget().mapTo(dialog, box.topLeft())
    middle = top_left.y() + box.height() // 2
    return image.pixelColor(top_left.x() + 4, middle), image.pixelColor(top_left.x(), middle)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_run_and_deny_are_the_apps_buttons_with_a_ring_where_the_focus_is(qapp, qtbot, theme):
    # They kept Qt's grey buttons, the one part of the app that did: Deny (Enter) looked like any other.
    apply_theme(qapp, theme)
    try:
        v = _variables(theme)
        dialog = _shown(qtbot, "rm -rf build && make -j4 all")
        dialog.activateWindow()
        qtbot.waitUntil(dialog.isActiveWindow)
        assert dialog.focusWidget() is dialog.deny_button
        deny_fill, deny_edge = _look(dialog, dialog.deny_button)
        run_fill, run_edge = _look(dialog, dialog.run_button)
        assert _near(deny_fill, v["@accentfill"]) and _near(run_fill, v["@errorbg"])
        assert _near(deny_edge, v["@text"]) and _near(run_edge, v["@error"])  # the focus ring on Deny
        dialog.run_button.setFocus()
        qtbot.waitUntil(lambda: dialog.focusWidget() is dialog.run_button)
        assert _near(_look(dialog, dialog.run_button)[1], v["@text"])  # the ring went with the focus
        assert not _near(_look(dialog, dialog.deny_button)[1], v["@text"])
    finally:
        apply_theme(qapp, "light")  # as the tests after it expect
