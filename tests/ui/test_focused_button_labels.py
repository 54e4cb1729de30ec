"""Send, Stop and New chat keep their whole label when they have the focus: the ring their border draws
took its room from the label, which was cut to "Senc" with the style's own ring drawn over the letters."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QImage

from .conftest import wait_until


def _inside(button) -> QImage:
    """The button as drawn, without its border and rounded corners: the label and the fill around it."""
    image = button.grab().toImage()
    return image.copy(QRect(0, 0, image.width(), image.height()).adjusted(5, 5, -5, -5))


def _differing(a: QImage, b: QImage) -> int:
    assert a.size() == b.size()
    return sum(a.pixel(x, y) != b.pixel(x, y) for y in range(a.height()) for x in range(a.width()))


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_focused_button_draws_its_label_as_an_unfocused_one(make_window, server, qloop, theme):
    win = make_window(server.base_url, theme=theme)
    win.stop_button.show()  # as while an answer comes
    qloop.run(wait_until(win.stop_button.isVisible))
    for button in (win.send_button, win.stop_button, win.sidebar.new_button):
        win.composer.setFocus()
        qloop.run(wait_until(win.composer.hasFocus))
        hint, plain = button.sizeHint(), _inside(button)
        button.setFocus()
        qloop.run(wait_until(button.hasFocus))
        assert button.sizeHint() == hint
        # Only the border changes: inside it, the focused button is pixel for pixel the unfocused one.
        assert _differing(_inside(button), plain) == 0, button.text()
