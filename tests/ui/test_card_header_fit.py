"""A tool card in a narrow window keeps its title whole (its input is cut first), and its code's tabs are four
spaces wide, as in the answer's code blocks."""

from __future__ import annotations

from PySide6.QtGui import QFontMetricsF, QPainter, QTextCursor

from tests.sse_server import Stream
from tests.ui.conftest import ask_and_wait, keep_picture, tokens, wait_until
from tinyrag_desktop.ui import toolcard_header

PROGRAM = 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("tabbed")\n}\n'


class RecordingPainter(QPainter):
    """A QPainter that keeps the words it draws."""

    drawn: list[str] = []

    def drawText(self, *args) -> None:  # noqa: N802
        if isinstance(args[-1], str):
            RecordingPainter.drawn.append(args[-1])
        super().drawText(*args)


def test_a_narrow_card_keeps_its_title_and_cuts_its_query(make_window, server, qloop, monkeypatch):
    # At 640 pixels the title was cut ("Knowledge ba…") while the query kept its room.
    server.queue(Stream(tokens('Also <tool name="rag_knowledge"><query>nonexistent topic zzz and more words'
                               '</query></tool>')), Stream(["Nothing."]))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "look it up")) == "done"
    [card] = win.view.answers()[-1].cards()
    win.resize(640, 520)
    qloop.run(wait_until(lambda: card.isVisible() and card.width() < 420))
    monkeypatch.setattr(toolcard_header, "QPainter", RecordingPainter)
    RecordingPainter.drawn = []
    card.grab()
    drawn = RecordingPainter.drawn
    assert "Knowledge base" in drawn and "nothing found" in drawn  # its time gave way
    [query] = [text for text in drawn if text.startswith("nonex")]
    assert query.endswith("…") and len(query) > 3
    keep_picture(win, "narrow_card.png")


def test_tabs_in_an_open_cards_code_are_four_spaces_wide(make_window, server, qloop):
    # They were Qt's 80 pixels, about ten characters.
    server.queue(Stream(tokens(f'Run: <tool name="nanogo"><source>{PROGRAM}</source></tool>')), Stream(["Done."]))
    win = make_window(server.base_url, allow_nanogo=True)
    assert qloop.run(ask_and_wait(win, "run it", timeout=30), timeout=40) == "done"
    [card] = win.view.answers()[-1].cards()
    closed = card.height()
    card.set_expanded(True)
    qloop.run(wait_until(lambda: card.height() > closed))
    doc = card._details.document()
    block = doc.begin()
    while "\tfmt" not in block.text():
        block = block.next()
    at = block.text().index("\tfmt")
    line = block.layout().lineForTextPosition(at)
    width = line.cursorToX(at + 1)[0] - line.cursorToX(at)[0]
    cursor = QTextCursor(doc)
    cursor.setPosition(block.position() + at + 1)
    space = QFontMetricsF(cursor.charFormat().font()).horizontalAdvance(" ")
    assert abs(width - 4 * space) < 1  # the tab is at the line's start: one stop wide
    keep_picture(win, "card_tabs.png")
