"""Right-to-left and mixed scripts in painted text, code blocks and card details; crisp icons when scaled."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QTextBrowser

from tinyrag_desktop.ui.bidi import is_right_to_left
from tinyrag_desktop.ui.elided_label import ElidedLabel
from tinyrag_desktop.ui.icons import dot_pixmap
from tinyrag_desktop.ui.segments import MarkdownSegment
from tinyrag_desktop.ui.status import ServerStatus
from tinyrag_desktop.ui.toolcard import ToolCard

from .conftest import block_directions

ARABIC = "حلقات التكرار"


def _grab(qtbot, widget, width=320, height=30):
    qtbot.addWidget(widget)
    widget.resize(width, height)
    widget.show()
    qtbot.waitExposed(widget)
    return widget.grab().toImage()


def _same_picture(a, b, slack: int = 40) -> bool:
    """The two grabs show the same thing: at most ``slack`` pixels differ. Text shaped in two runs can
    land a space a fraction of a pixel apart (21 pixels here); words in the wrong order move hundreds."""
    if a.size() != b.size():
        return False
    differ = sum(a.pixel(x, y) != b.pixel(x, y) for y in range(a.height()) for x in range(a.width()))
    return differ <= slack


def test_the_direction_of_a_text_is_that_of_its_first_letter():
    assert is_right_to_left("حلقات Go") and is_right_to_left("  (2) שלום world")
    assert not is_right_to_left("Go حلقات") and not is_right_to_left("123 ...") and not is_right_to_left("")


def test_an_arabic_chat_title_with_a_latin_word_keeps_its_word_order(qtbot):
    # Right to left, "حلقات WWWW" shows WWWW on the left: exactly as "WWWW حلقات" written left to right.
    # Painted left to right (the bug), the Arabic came first on the left and the order read backwards.
    rtl = _grab(qtbot, ElidedLabel(f"{ARABIC} WWWW"))
    ltr = _grab(qtbot, ElidedLabel(f"WWWW {ARABIC}"))
    assert _same_picture(rtl, ltr)


def test_a_tool_query_in_arabic_keeps_its_word_order_in_the_card_header(qtbot):
    def card(query):
        c = ToolCard("t1", "rag_knowledge", query)
        c.finish("ok", elapsed_ms=5)
        return _grab(qtbot, c, 420, 40)

    assert _same_picture(card(f"{ARABIC} WWWW"), card(f"WWWW {ARABIC}"))


def test_card_details_show_an_arabic_query_and_result_right_to_left(qtbot):
    card = ToolCard("t1", "rag_knowledge", f"{ARABIC} في Go")
    qtbot.addWidget(card)
    card.finish("ok", result="لإعادة تعيين كلمة المرور افتح Settings.", result_bytes=60, elapsed_ms=5)
    card.set_expanded(True)
    directions = block_directions(card.findChild(QTextBrowser, "toolDetails").document())
    rtl = Qt.LayoutDirection.RightToLeft
    assert directions[f"{ARABIC} في Go"] == rtl
    assert directions["لإعادة تعيين كلمة المرور افتح Settings."] == rtl
    assert directions["Query"] == Qt.LayoutDirection.LeftToRight  # the headings stay as they are


def test_code_runs_left_to_right_even_when_its_first_line_is_arabic(qtbot):
    seg = MarkdownSegment()
    qtbot.addWidget(seg)
    seg.set_markdown("مرحبا بالعالم\n\n```python\n# تعليق بالعربية\nx = 1\n```\n")
    blocks = {}
    block = seg.document().begin()
    while block.isValid():
        blocks[block.text()] = block.textDirection()
        block = block.next()
    assert blocks["مرحبا بالعالم"] == Qt.LayoutDirection.RightToLeft  # the prose follows its script
    assert blocks["# تعليق بالعربية"] == Qt.LayoutDirection.LeftToRight
    assert blocks["x = 1"] == Qt.LayoutDirection.LeftToRight


def test_arabic_after_a_code_block_still_runs_right_to_left(qtbot):
    # Qt carried the code's left-to-right direction over to the paragraph after its box.
    seg = MarkdownSegment()
    qtbot.addWidget(seg)
    seg.set_markdown("```go\nx := 1\n```\n\nبعد الكود Go\n\n- عنصر أول\n")
    blocks = {}
    block = seg.document().begin()
    while block.isValid():
        blocks[block.text()] = block.textDirection()
        block = block.next()
    assert blocks["بعد الكود Go"] == Qt.LayoutDirection.RightToLeft
    assert blocks["عنصر أول"] == Qt.LayoutDirection.RightToLeft
    assert blocks["x := 1"] == Qt.LayoutDirection.LeftToRight


def test_the_status_light_is_drawn_at_the_screen_pixel_ratio(qtbot, monkeypatch):
    px = dot_pixmap(QColor("#16a34a"), 10, 2.0)
    assert px.devicePixelRatio() == 2.0 and px.width() == 20  # 10 logical pixels, 20 device pixels
    from PySide6.QtWidgets import QStatusBar

    bar = QStatusBar()
    qtbot.addWidget(bar)
    status = ServerStatus(bar)
    monkeypatch.setattr(status.dot, "devicePixelRatioF", lambda: 1.5)  # as on a 150% display
    drawn = []
    monkeypatch.setattr("tinyrag_desktop.ui.status.dot_pixmap",
                        lambda *args: drawn.append(dot_pixmap(*args)) or drawn[-1])
    status._set("ok", "reachable")
    assert [px.devicePixelRatio() for px in drawn] == [1.5]  # (QLabel.pixmap() hands back a 1x copy)


def test_a_large_desktop_font_grows_the_card_header_and_its_query_text(qtbot):
    from PySide6.QtGui import QFont, QFontMetrics
    from PySide6.QtWidgets import QWidget

    column = QWidget()  # the card takes its fonts from where it sits, as from the desktop's settings
    qtbot.addWidget(column)
    big = QFont(column.font())
    big.setPointSizeF(16)
    column.setFont(big)
    card = ToolCard("t1", "calculate", "2+2", parent=column)
    card.finish("ok", elapsed_ms=3)
    bold = QFont(big)
    bold.setBold(True)
    assert card.minimumSizeHint().height() >= QFontMetrics(bold).height() + 2 * 7  # was a fixed 22-pixel row
    assert card._mono.pointSizeF() >= 15  # the query was shown in the system's 9-point fixed font


def test_the_chat_title_is_larger_than_the_text_under_any_desktop_font(make_window, server):
    from PySide6.QtGui import QFont
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    before = QFont(app.font())
    try:
        for size in (9.0, 16.0):
            font = QFont(before)
            font.setPointSizeF(size)
            app.setFont(font)
            win = make_window(server.base_url)
            win.title_label.ensurePolished()
            # the stylesheet once fixed it at 15 px: smaller than a 16-point text
            assert win.title_label.fontInfo().pointSizeF() > size
            assert win.title_label.fontInfo().bold()
    finally:
        app.setFont(before)
