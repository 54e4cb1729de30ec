"""A knowledge-base card whose search found several documents: each source on its own line, in the copied
quote and in what a screen reader hears, and each one a link in the open card that opens it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QDesktopServices, QTextCursor
from PySide6.QtWidgets import QTextBrowser, QVBoxLayout, QWidget

from tests.url_handler import OpenedUrls
from tinyrag_desktop.chat_export import answer_markdown, export_html
from tinyrag_desktop.chats import ChatInfo, StoredMessage, StoredTool
from tinyrag_desktop.ui.toolcard import ToolCard

PAGE = "http://127.0.0.1:18770/page.html"
RESULT = "[1] Lighthouse keeping\nThe keeper trimmed the wick.\n\n[2] Page\nFog horns."


def _sources(tmp_path) -> str:
    doc = tmp_path / "lighthouse.md"
    doc.write_text("# Lighthouse keeping\n", encoding="utf-8")
    return f"{doc}\n{PAGE}"


def _quote(text: str) -> list[str]:
    """The lines of the first tool quote in a copied answer, up to the blank line that ends it."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("> ✓"))
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


def test_a_copied_search_with_two_sources_keeps_both_inside_the_quote(tmp_path) -> None:
    source = _sources(tmp_path)
    tool = StoredTool("c1", "rag_knowledge", "lighthouse keeper", "ok", source=source, result=RESULT)
    message = StoredMessage(2, "assistant", "The keeper trimmed the wick [1].", tools=(tool,))
    quote = _quote(answer_markdown(message))
    # "> source: …lighthouse.md" then the address on a line of its own, out of the quote
    assert all(line.startswith(">") for line in quote), quote
    assert f"> - {tmp_path / 'lighthouse.md'}" in quote and f"> - {PAGE}" in quote
    page = export_html(ChatInfo("1", "Keeping", "", "2026-01-01", "2026-01-01"), [message])
    assert f"sources: {tmp_path / 'lighthouse.md'}<br>{PAGE}</div>" in page  # not run together
    one = StoredTool("c2", "rag_knowledge", "wick", "ok", source=f"{PAGE}\n", result=RESULT)
    assert f"> source: {PAGE}\n" in answer_markdown(StoredMessage(2, "assistant", "x", tools=(one,)))


def _card(qtbot, source: str, tool: str = "rag_knowledge") -> tuple[QWidget, ToolCard, QTextBrowser]:
    card = ToolCard("c1", tool, "lighthouse keeper")
    card.finish("ok", source=source, result=RESULT, elapsed_ms=5)
    column = QWidget()
    qtbot.addWidget(column)
    layout = QVBoxLayout(column)
    layout.addWidget(card)
    layout.addStretch(1)
    column.resize(520, 600)
    column.show()
    qtbot.waitExposed(column)
    card.set_expanded(True)
    details = card.findChild(QTextBrowser, "toolDetails")
    qtbot.waitUntil(lambda: details.height() > 60 and card.height() >= details.geometry().bottom())
    return column, card, details


def _click_on(qtbot, details: QTextBrowser, words: str) -> None:
    cursor = details.document().find(words)
    assert not cursor.isNull(), words
    middle = QTextCursor(cursor)
    middle.setPosition((cursor.selectionStart() + cursor.selectionEnd()) // 2)
    where = details.cursorRect(middle).center()
    qtbot.mouseClick(details.viewport(), Qt.MouseButton.LeftButton, pos=where)


def test_a_card_with_two_sources_says_them_apart_and_opens_each(qtbot, tmp_path) -> None:
    source = _sources(tmp_path)
    doc = str(tmp_path / "lighthouse.md")
    column, card, details = _card(qtbot, source)
    description = card.accessibleDescription()
    assert "\n" not in description and f"Sources: {doc}; {PAGE}." in description
    assert card.details_text().split("\n\n")[1] == f"Sources:\n{doc}\n{PAGE}"

    opened = OpenedUrls()
    for scheme in ("file", "http"):
        QDesktopServices.setUrlHandler(scheme, opened, "open")
    failed: list[str] = []
    card.openFailed.connect(failed.append)
    try:
        _click_on(qtbot, details, "lighthouse.md")  # the file was plain text: only the address was a link
        _click_on(qtbot, details, "page.html")
        (tmp_path / "lighthouse.md").unlink()  # moved since it was imported: the status bar says so
        _click_on(qtbot, details, "lighthouse.md")
    finally:
        for scheme in ("file", "http"):
            QDesktopServices.unsetUrlHandler(scheme)
    assert [url.toLocalFile() or url.toString() for url in opened.urls] == [doc, PAGE]
    assert len(failed) == 1 and "“lighthouse.md” is not there any more" in failed[0]


def test_a_calculation_says_where_it_came_from_without_a_link(qtbot) -> None:
    _column, _card_, details = _card(qtbot, "calculator", tool="calculate")
    assert "Source" in details.toPlainText() and "calculator" in details.toPlainText()
    assert "<a " not in details.toHtml()  # "calculator" is no file to open
