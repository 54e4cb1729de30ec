"""A tool call written in a table's cell is no call (spec rule 5): the table stays whole, the call in it as text."""

from __future__ import annotations

from PySide6.QtGui import QTextTable

from tests.sse_server import Stream

from .conftest import ask_and_wait, tokens

CALL = '<tool name="calculate"><query>1+1</query></tool>'
TEXT = f"Results:\n\n| step | value |\n|---|---|\n| {CALL} | 2 |\n| next | 3 |\n\nDone."


def _tables(segment) -> list[QTextTable]:
    frames = segment.document().rootFrame().childFrames()
    return [frame for frame in frames if isinstance(frame, QTextTable)]


def test_a_call_in_a_table_cell_is_shown_in_the_table_not_run_as_a_card(make_window, server, qloop):
    # It ran: its card split the table in two, the row's other cell under the card.
    server.queue(Stream(tokens(TEXT, 5)), Stream(["never asked"]))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "show me")) == "done"
    answer = win.view.answers()[-1]
    assert answer.cards() == []
    (table,) = [table for seg in answer.segments() for table in _tables(seg)]
    assert (table.rows(), table.columns()) == (3, 2)
    cell = table.cellAt(1, 0)
    words = cell.firstCursorPosition()
    words.setPosition(cell.lastCursorPosition().position(), words.MoveMode.KeepAnchor)
    assert CALL in words.selectedText()
    assert "(a tool call not run: it is inside a table row, its line starting with |)" in words.selectedText()
    assert len(server.requests) == 1
