"""A selected search result is drawn in the palette's highlighted-text colour, as the sources list's rows:
its grey location and its black text were hard to read on the selection's blue, in both themes."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from tests.kb.test_panel import _import, _searched_on_screen
from tinyrag_desktop.ui import theme as theme_module
from tinyrag_desktop.ui.theme import apply_theme


@pytest.fixture
def themed(qapp):
    """Apply a theme for one test; the app's look is put back after it."""
    palette, style, current = QApplication.palette(), qapp.style().name(), theme_module._current
    yield lambda name: apply_theme(qapp, name)
    qapp.setStyle(style)
    qapp.setPalette(palette)
    theme_module._current = current


def _distance(a: QColor, b: QColor) -> int:
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue())


def _lines_ink(image, background: QColor) -> list[QColor]:
    """For each line of text drawn on ``background`` (a run of pixel rows with ink), its ink: the pixel
    furthest from the background (a glyph's stem; its edges are blended)."""
    inks, best = [], None
    for y in range(image.height()):
        row_best = None
        for x in range(image.width()):
            c = image.pixelColor(x, y)
            if _distance(c, background) > 40 and (row_best is None or
                                                  _distance(c, background) > _distance(row_best, background)):
                row_best = c
        if row_best is None:
            if best is not None:
                inks.append(best)
            best = None
        elif best is None or _distance(row_best, background) > _distance(best, background):
            best = row_best
    if best is not None:
        inks.append(best)
    return inks


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("focused", [True, False])
def test_a_selected_result_is_drawn_in_the_highlighted_text_colour(qtbot, panel, sample_dir, themed, theme,
                                                                   focused):
    themed(theme)
    _import(qtbot, panel, [str(sample_dir / "guide.md")])
    assert _searched_on_screen(qtbot, panel, "bread", (420, 500)) >= 1
    results = panel.results
    item = next(results.item(i) for i in range(results.count()) if results.item(i).data(Qt.ItemDataRole.UserRole))
    with qtbot.waitActive(panel):
        panel.activateWindow()
    results.setFocus()
    results.setCurrentItem(item)
    if not focused:
        panel.query_edit.setFocus()
    assert item.isSelected()
    group = QPalette.ColorGroup.Active if focused else QPalette.ColorGroup.Inactive
    background = results.palette().color(group, QPalette.ColorRole.Highlight)
    ink = results.palette().color(group, QPalette.ColorRole.HighlightedText)
    rect = results.visualItemRect(item).adjusted(5, 5, -5, -5)  # inside the focus ring, drawn at its edge
    image = results.viewport().grab(rect).toImage()
    inks = _lines_ink(image, background)
    # the heading, the location, and the passage's line(s)
    assert len(inks) >= 3, [c.name() for c in inks]
    assert all(_distance(c, ink) <= 60 for c in inks), (theme, [c.name() for c in inks], ink.name())
