"""A focus ring's event filter outlives its Python attributes: a window collected as a reference cycle (as the
interpreter's teardown collects the last ones, seen under cProfile) clears the ring's attributes first, then
its widgets' destruction still sends the ring Hide and FocusOut events. Each printed "'FocusRing' object has no
attribute '_watched'"."""

from __future__ import annotations

import gc

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTextEdit, QVBoxLayout, QWidget

from tinyrag_desktop.ui.focus_ring import FocusRing, RingAround


class _Window(QWidget):
    """A window holding its rings, as the app's do (self._ring = FocusRing(self, …)): a reference cycle."""


def test_rings_of_a_window_collected_as_a_cycle_let_its_destruction_pass(qtbot):
    window = _Window()
    edit = QTextEdit()
    QVBoxLayout(window).addWidget(edit)
    window.rings = [FocusRing(window, edit), FocusRing(edit, edit), RingAround(edit)]
    window.show()
    qtbot.waitExposed(window)
    with qtbot.waitActive(window):
        window.activateWindow()
    edit.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(lambda: window.rings[0].isVisible())
    window.rings[2].set_shown(True)
    del window, edit
    gc.collect()  # pytest-qt fails the test on an exception raised in a Qt virtual such as eventFilter


def test_a_ring_around_held_in_a_cycle_lets_its_window_be_destroyed(qtbot):
    """An answer holds its RingAround and the ring its answer (as segment links do): collected as a cycle, the
    ring's attributes go before the answer's Hide reaches its filter."""
    window = _Window()
    edit = QTextEdit()
    QVBoxLayout(window).addWidget(edit)
    window.ring = RingAround(edit)
    window.ring.owner = window
    window.edit = edit
    window.show()
    qtbot.waitExposed(window)
    window.ring.set_shown(True)
    assert window.ring.isVisible()
    del window, edit
    gc.collect()
