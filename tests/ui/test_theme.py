"""The chrome style sheets: every @colour filled in, every icon they name present."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tinyrag_desktop.ui.theme import style_sheet


@pytest.mark.parametrize("dark", [False, True])
def test_style_sheets_are_complete_and_their_icons_exist(dark):
    sheet = re.sub(r"/\*.*?\*/", "", style_sheet(dark), flags=re.S)  # comments may say "@names"
    assert re.findall(r"@\w+", sheet) == []
    icons = re.findall(r"url\(([^)]*)\)", sheet)
    assert icons and all(Path(icon).is_file() for icon in icons)
    assert all(("-dark." in icon) == dark for icon in icons)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_scroll_bars_of_the_chat_list_and_the_message_box_have_no_black_track(make_window, theme):
    from PySide6.QtGui import QColor

    win = make_window("http://127.0.0.1:9/v1", theme=theme)
    for i in range(80):
        win.store.new_chat(title=f"Chat {i}")
    win._refresh_chats()
    win.composer.setPlainText("a line\n" * 40)
    for area in (win.sidebar.list, win.composer):
        bar = area.verticalScrollBar()
        bar.setValue(bar.minimum())  # the handle at the top: the track is the rest of the bar
        win.repaint()
        image = win.grab().toImage()
        top_left = bar.mapTo(win, bar.rect().topLeft())
        x, y0 = top_left.x() + bar.width() // 2, top_left.y() + bar.height() // 2
        track = [QColor(image.pixel(x, y)) for y in range(y0, y0 + bar.height() // 3)]
        assert bar.isVisible() and all(c.lightness() > 20 for c in track), (area.objectName(), track[0].name())


def _scroll_bar_colours(bar, state=None):
    """The colour in the middle of ``bar``'s handle and of its track below the handle, as the style paints them
    (on the bar itself, or with ``state`` added: the mouse over the handle, or the handle pressed)."""
    from PySide6.QtGui import QColor, QImage, QPainter
    from PySide6.QtWidgets import QStyle, QStyleOptionSlider

    opt = QStyleOptionSlider()
    opt.initFrom(bar)
    opt.orientation, opt.minimum, opt.maximum = bar.orientation(), bar.minimum(), bar.maximum()
    opt.sliderPosition = opt.sliderValue = bar.value()
    opt.pageStep, opt.singleStep = bar.pageStep(), bar.singleStep()
    opt.subControls = QStyle.SubControl.SC_All
    control, style = QStyle.ComplexControl.CC_ScrollBar, bar.style()
    handle = style.subControlRect(control, opt, QStyle.SubControl.SC_ScrollBarSlider, bar)
    page = style.subControlRect(control, opt, QStyle.SubControl.SC_ScrollBarAddPage, bar)
    if state is None:
        image = bar.grab().toImage()
    else:
        opt.state |= state
        opt.activeSubControls = QStyle.SubControl.SC_ScrollBarSlider
        image = QImage(bar.size(), QImage.Format.Format_RGB32)
        painter = QPainter(image)
        style.drawComplexControl(control, opt, painter, bar)
        painter.end()
    assert handle.height() >= 20 and page.height() >= 20
    return QColor(image.pixel(handle.center())), QColor(image.pixel(page.center()))


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_scroll_bars_handle_stands_out_from_its_track(qapp, qtbot, theme):
    # Fusion drew the handle in the sidebar's colour, lighter than the track: in the light theme #fefefe on
    # #ecedee (1.16:1), which read as the track; in the dark theme a handle hardly lighter than its track.
    from PySide6.QtWidgets import QScrollArea, QStyle, QWidget

    from tinyrag_desktop.ui.theme import apply_theme

    from .test_focus import contrast

    apply_theme(qapp, theme)
    try:
        area = QScrollArea()
        qtbot.add_widget(area)
        content = QWidget()
        content.setMinimumSize(200, 1500)
        area.setWidget(content)
        area.resize(240, 400)
        area.show()
        bar = area.verticalScrollBar()
        handle, track = _scroll_bar_colours(bar)
        assert contrast(handle, track) >= 1.5, (handle.name(), track.name())
        assert (handle.lightness() > track.lightness()) == (theme == "dark"), (handle.name(), track.name())
        for state in (QStyle.StateFlag.State_MouseOver, QStyle.StateFlag.State_Sunken):
            lit, lit_track = _scroll_bar_colours(bar, state)
            assert lit_track == track
            assert contrast(lit, track) > contrast(handle, track) + 0.5, (state, lit.name(), handle.name())
    finally:
        apply_theme(qapp, "light")  # as the tests after it expect


def _check_box(qtbot, point_size: float | None = None):
    from PySide6.QtGui import QFont
    from PySide6.QtWidgets import QCheckBox, QStyle, QStyleOptionButton, QWidget

    window = QWidget()
    qtbot.add_widget(window)
    box = QCheckBox("Allow Go code (nanoGo)", window)
    if point_size:
        font = QFont(box.font())
        font.setPointSizeF(point_size)
        box.setFont(font)
    box.adjustSize()
    window.resize(box.width() + 20, box.height() + 20)
    box.move(10, 10)
    window.show()
    opt = QStyleOptionButton()
    box.initStyleOption(opt)
    indicator = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, opt, box).translated(10, 10)
    return window, box, indicator


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_an_unticked_check_box_is_outlined_clearly_in_both_themes(qapp, qtbot, theme):
    # Fusion's border: #18191f on the dark input colour (1.1:1), #c8c8c8 on white (1.7:1)
    from tinyrag_desktop.ui.theme import apply_theme

    from .test_focus import contrast

    apply_theme(qapp, theme)
    try:
        window, box, indicator = _check_box(qtbot)
        image = window.grab().toImage()
        y = indicator.center().y()
        border, inside = image.pixelColor(indicator.left(), y), image.pixelColor(indicator.left() + 3, y)
        outside = image.pixelColor(indicator.left() - 3, y)
        assert contrast(border, inside) >= 3.0, (border.name(), inside.name())
        assert contrast(border, outside) >= 3.0, (border.name(), outside.name())
    finally:
        apply_theme(qapp, "light")


def test_check_boxes_grow_with_the_text_size(qapp, qtbot):
    # At 16 pt the box stayed 14 px beside 24 px high text
    from tinyrag_desktop.ui.theme import apply_theme

    apply_theme(qapp, "light")
    window, normal, small = _check_box(qtbot)
    window_big, big, large = _check_box(qtbot, 16)
    assert small.height() >= 13  # the usual size is kept
    assert large.height() >= 0.75 * big.fontMetrics().height() and large.width() == large.height()
    assert big.sizeHint().width() > normal.sizeHint().width()


def test_a_column_name_is_cut_before_the_sort_arrow_not_under_it(qapp):
    # "Imported" ran 3 px under the arrow of a column sorted by it, narrower than its name and arrow
    from PySide6.QtCore import QRect
    from PySide6.QtWidgets import QStyle, QStyleOptionHeader

    from tinyrag_desktop.ui.theme import apply_theme

    apply_theme(qapp, "light")
    option = QStyleOptionHeader()
    option.rect = QRect(0, 0, 70, 23)
    option.state |= QStyle.StateFlag.State_Horizontal
    option.sortIndicator = QStyleOptionHeader.SortIndicator.SortUp
    style = qapp.style()
    label = style.subElementRect(QStyle.SubElement.SE_HeaderLabel, option, None)
    arrow = style.subElementRect(QStyle.SubElement.SE_HeaderArrow, option, None)
    assert label.right() < arrow.left() and label.width() > 40
