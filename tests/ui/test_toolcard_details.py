"""What an expanded tool card shows: every character of long inputs and results, in readable words."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTextBrowser, QVBoxLayout, QWidget

from tinyrag_desktop.ui.toolcard import ToolCard

from .conftest import block_directions


def _expanded(qtbot, card: ToolCard, width: int = 420, tall: int = 100) -> tuple[QWidget, QTextBrowser]:
    column = QWidget()  # as in an answer: the card in a column, as tall as it asks to be
    qtbot.addWidget(column)
    layout = QVBoxLayout(column)
    layout.addWidget(card)
    layout.addStretch(1)
    column.resize(width, 3000)
    column.show()
    qtbot.waitExposed(column)
    card.set_expanded(True)
    details = card.findChild(QTextBrowser, "toolDetails")
    qtbot.waitUntil(lambda: details.height() > tall)
    return column, details  # the column too: it owns the card


def test_a_long_line_with_no_space_wraps_inside_the_card_instead_of_being_cut_off(qtbot):
    # A URL, a Go line or a result with no space in it: a label wraps only between words, so the rest of
    # the line ran past the card's right edge and could not be read.
    query = "1+" * 400 + "1"
    card = ToolCard("t1", "calculate", query)
    card.finish("ok", source="calculator", result=f"{query} = 401", result_bytes=807, elapsed_ms=2)
    _column, details = _expanded(qtbot, card)
    doc = details.document()
    assert doc.size().width() <= details.viewport().width() + 1  # laid out within the card's width
    assert details.geometry().right() <= card.width()
    assert details.height() >= doc.size().height()  # and all of it shown: the card grows instead
    qtbot.waitUntil(lambda: card.height() >= details.geometry().bottom())


HEBREW_FIRST = "“ש” is not something the calculator understands (at position 1)."


def _note_picture(qtbot, error: str):
    card = ToolCard("t1", "calculate", "שלום + 1")
    card.finish("error", error=error, elapsed_ms=1)
    qtbot.addWidget(card)
    card.resize(520, 60)
    card.show()
    qtbot.waitExposed(card)
    return card.grab().toImage()


def test_an_error_that_starts_with_a_hebrew_word_still_reads_left_to_right(qtbot):
    # The error is the app's English sentence quoting the model's input. Laid out by its first letter it
    # read right to left: ".is not something the calculator understands (at position 1) ”ש“".
    # A left-to-right mark in front makes the old layout left to right too: both must look the same.
    assert _note_picture(qtbot, HEBREW_FIRST) == _note_picture(qtbot, "\u200e" + HEBREW_FIRST)
    card = ToolCard("t2", "calculate", "שלום + 1")
    qtbot.addWidget(card)
    card.finish("error", error=HEBREW_FIRST, elapsed_ms=1)
    card.set_expanded(True)
    directions = block_directions(card.findChild(QTextBrowser, "toolDetails").document())
    assert directions[HEBREW_FIRST] == Qt.LayoutDirection.LeftToRight
    assert directions["שלום + 1"] == Qt.LayoutDirection.RightToLeft  # the model's own input keeps its own


def test_each_heading_says_what_it_is_over(qtbot):
    # nanogo's <source> was headed "Source" right above "Source: nanoGo" (where the output came from),
    # and url_fetch's <url> "Url".
    go = ToolCard("t1", "nanogo", 'fmt.Println("hi")', "source")
    qtbot.addWidget(go)
    go.finish("ok", source="nanoGo", result="hi\n", result_bytes=3, elapsed_ms=120)
    assert go.details_text().startswith('Code:\nfmt.Println("hi")')
    assert go.details_text().count("Source") == 1 and "Source: nanoGo" in go.details_text()
    assert go.accessibleDescription().startswith('done. Code: fmt.Println("hi"). Source: nanoGo')
    page = ToolCard("t2", "url_fetch", "https://example.org/", "url")
    qtbot.addWidget(page)
    assert page.details_text().startswith("URL:\nhttps://example.org/")


def test_an_open_failed_card_says_its_error_once(qtbot):
    # The error was under the header and again under "Error" in the details, one above the other.
    error = "Division by zero in 1/0 (at position 2)."
    failed = ToolCard("t1", "calculate", "1/0")
    failed.finish("error", error=error, elapsed_ms=1)
    ok = ToolCard("t2", "calculate", "1/0")
    ok.finish("ok", source="calculator", result="1", result_bytes=1, elapsed_ms=1)
    _c1, failed_details = _expanded(qtbot, failed, tall=40)
    _c2, ok_details = _expanded(qtbot, ok, tall=40)
    # the details start right under the header row, as an ok card's do: no note line between them
    qtbot.waitUntil(lambda: failed_details.geometry().top() == ok_details.geometry().top())
    assert failed_details.toPlainText().count(error) == 1 and "Error" in failed_details.toPlainText()
    failed.set_expanded(False)  # closed, the note says it under the header again
    assert failed.minimumSizeHint().height() > ok.minimumSizeHint().height()
