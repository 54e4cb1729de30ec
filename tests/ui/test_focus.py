"""ux31's keyboard findings: Send and Stop pressed from the keyboard keep the focus in sight, and the status
bar's model button shows its focus and names its model."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from tests.sse_server import Stream

from .conftest import tokens, wait_until


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colours."""
    def lum(c: QColor) -> float:
        def f(v: float) -> float:
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        return 0.2126 * f(c.redF()) + 0.7152 * f(c.greenF()) + 0.0722 * f(c.blueF())
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_space_on_send_then_on_stop_leaves_the_focus_on_the_button_in_their_place(make_window, server, qloop,
                                                                                    qtbot):
    # Send hid itself with the focus on it, and Qt gave the focus to the status bar's model button: the
    # next Space opened the model menu, and the focus could not be seen.
    server.queue(Stream(tokens("slow words " * 400), delay=0.005))
    win = make_window(server.base_url)
    win.activateWindow()
    qloop.run(wait_until(win.isActiveWindow))
    win.composer.setPlainText("Talk")
    win.send_button.setFocus()
    qloop.run(wait_until(win.send_button.hasFocus))
    qtbot.keyClick(win.send_button, Qt.Key.Key_Space)
    qloop.run(wait_until(lambda: win.stop_button.isVisible()))
    assert QApplication.focusWidget() is win.stop_button
    outcomes: list[str] = []
    win.answerFinished.connect(outcomes.append)
    qtbot.keyClick(win.stop_button, Qt.Key.Key_Space)
    qloop.run(wait_until(lambda: outcomes))
    assert outcomes == ["stopped"]
    assert QApplication.focusWidget() is win.send_button


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_model_button_shows_its_focus_and_names_its_model(make_window, server, qloop, theme):
    win = make_window(server.base_url, theme=theme)
    model = win.status.model
    assert model.accessibleName() == "Model: scripted"  # it said only "Model"
    win.status.show_settings(win.settings.replace(chat_model=""))
    assert model.accessibleName() == "Model: server default"
    model.setFocus()
    qloop.run(wait_until(model.hasFocus))
    image = model.grab().toImage()
    ring = image.pixelColor(1, image.height() // 2)
    behind = win.statusBar().grab().toImage().pixelColor(2, 2)
    # Fusion's own frame was 1.6:1 against the bar in either theme: seen by no one.
    assert contrast(ring, behind) >= 3.0, (ring.name(), behind.name())
