"""A long table streams in pieces: Qt lays out every cell of a table again at each change, and a table of a
thousand rows, drawn whole at each frame, stalled the window a fifth of a second again and again. The rows
written so far are frozen into a segment and the table goes on in the next (its header reopened, not drawn);
when the answer ends, however it ends, the pieces are one table again, as if it had never been cut."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from tinyrag_desktop.chats import StoredMessage
from tinyrag_desktop.engine.events import Done
from tinyrag_desktop.ui.answer import AnswerWidget
from tinyrag_desktop.ui.markdown_cuts import TABLE_CELLS, freeze_point, table_cut
from tinyrag_desktop.ui.markdown_render import render
from tinyrag_desktop.ui.segments import MarkdownSegment, _table_at

from .conftest import tokens

HEADER = "| id | name | city | score |\n|---|:---|:---:|---:|\n"


def rows(start: int, end: int) -> str:
    return "".join(f"| {i} | **person** {i} | `town {i % 37}` | {i * 7 % 100} |\n" for i in range(start, end))


TABLE = "Here is the data:\n\n" + HEADER + rows(0, 400)
TEXT = TABLE + "\nThat was all of it.\n"


def streamed(qtbot, text: str, size: int = 8, every: int = 8, width: int = 900) -> AnswerWidget:
    """An AnswerWidget given ``text`` in tokens of ``size`` characters, a render step after each ``every``."""
    answer = AnswerWidget()
    qtbot.add_widget(answer)
    answer.setFixedWidth(width)
    answer.show()
    answer.begin()
    for n, piece in enumerate(tokens(text, size)):
        answer.append_text(piece)
        if n % every == 0:
            answer._render_step()
    answer._render_step()
    return answer


def shown(answer: AnswerWidget) -> list[MarkdownSegment]:
    return [s for s in answer.segments() if s.isVisibleTo(answer)]


def table_rows(seg: MarkdownSegment) -> list[list[str]]:
    """The cells of each row of the first table of ``seg`` as shown."""
    doc = seg.document()  # held: see wide_blocks.box_bottom
    block = doc.begin()
    while block.isValid() and _frame_table(doc, block) is None:
        block = block.next()
    table = _frame_table(doc, block)
    assert table is not None
    out = []
    for r in range(table.rows()):
        cells = []
        for c in range(table.columns()):
            cell = table.cellAt(r, c)
            cursor = cell.firstCursorPosition()
            cursor.setPosition(cell.lastPosition(), cursor.MoveMode.KeepAnchor)
            cells.append(cursor.selectedText())
        out.append(cells)
    return out


def _frame_table(doc, block):
    from PySide6.QtGui import QTextTable

    frame = doc.frameAt(block.position()) if block.isValid() else None
    while frame is not None and frame.parentFrame() is not None and frame.parentFrame().parentFrame() is not None:
        frame = frame.parentFrame()
    return frame if isinstance(frame, QTextTable) else None


def expected(start: int, end: int) -> list[list[str]]:
    return [[str(i), f"person {i}", f"town {i % 37}", str(i * 7 % 100)] for i in range(start, end)]


# the cut, in pure Python ------------------------------------------------------------------------------------
def test_a_long_table_is_cut_before_the_row_being_written_and_goes_on_under_its_header():
    text = "Intro\n\n" + HEADER + rows(0, 38) + "| 38 | per"  # 38 rows of 4 cells: past TABLE_CELLS
    cut = freeze_point(text)
    assert cut is not None and cut.reopen == HEADER and cut.close == ""
    assert text[cut.at:] == "| 38 | per"
    # the next piece goes on the same way, from its header
    rest = rows(38, 76) + "| 76 |"
    again = freeze_point(rest, opener=cut.reopen)
    assert again is not None and again.reopen == HEADER and rest[again.at:] == "| 76 |"


def test_many_rows_at_once_are_cut_where_a_stream_would_have_cut_them():
    # a burst of rows, or a stored answer's whole table: the piece ends at the row that reached TABLE_CELLS, as
    # streamed; drawn whole, a piece of 200 rows took 80 ms
    text = "Intro\n\n" + HEADER + rows(0, 100) + "| 100 | per"
    cut = freeze_point(text)
    assert cut is not None and cut.reopen == HEADER and text[cut.at:] == rows(38, 100) + "| 100 | per"
    rest = text[cut.at:]
    again = freeze_point(rest, opener=cut.reopen)
    assert again is not None and again.reopen == HEADER and rest[again.at:] == rows(76, 100) + "| 100 | per"


def test_a_short_table_bars_in_code_and_a_table_in_a_list_item_are_not_cut():
    assert freeze_point("Intro\n\n" + HEADER + rows(0, 10) + "| 10 |") is None
    code = "```markdown\n" + HEADER + rows(0, 200) + "| 200 |"
    cut = freeze_point(code)
    assert cut is None or cut.reopen.startswith("```")  # a long code block is cut as code, never as a table
    in_item = "1. Compare:\n\n" + "".join("   " + line + "\n" for line in (HEADER + rows(0, 200)).splitlines())
    assert table_cut(in_item + "   | 200 |") is None


def test_the_cut_comes_at_the_same_number_of_cells_however_the_rows_are_written():
    narrow = "| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * (TABLE_CELLS // 2) + "| 3"
    assert table_cut(narrow) is not None and table_cut(narrow[:narrow.rindex("| 1 | 2 |")] + "| 3") is None


_LINES = st.sampled_from(["", "text line", "| a | b |", "|---|---|", "| 1 | 2 |", "```", "- item", "| x |"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_LINES, max_size=150), st.integers(4, 40))
def test_cutting_tables_as_the_view_does_loses_and_reorders_nothing(lines, cells):
    text = "\n".join(lines)
    pieces, prefix, rest = [], "", text
    while (cut := freeze_point(rest, opener=prefix, soft=200, hard=600, cells=cells)) is not None:
        assert 0 < cut.at <= len(rest) or cut.reopen  # a table's piece may be all of its rows
        if not cut.at:
            break
        pieces.append(rest[:cut.at])
        render(prefix + pieces[-1], headless=prefix.startswith("|"))  # every frozen piece renders on its own
        rest, prefix = rest[cut.at:], cut.reopen
        assert not prefix or prefix.startswith(("|", "`"))
    assert "".join(pieces) + rest == text


def test_the_rows_that_go_on_are_drawn_without_the_header_and_keep_its_alignment():
    html = render(HEADER + rows(5, 7), headless=True).html
    assert "<th" not in html and ">id<" not in html and "person</strong> 5" in html
    assert 'align="right"' in html or "text-align: right" in html  # the score column, as in the header's rule


# the view -------------------------------------------------------------------------------------------------
def test_while_it_streams_no_segment_holds_more_than_a_piece_of_the_table(qtbot):
    # each frame rendered the whole table again: 400 rows in one segment, a thousand in a fifth of a second
    answer = streamed(qtbot, TABLE)
    pieces = shown(answer)
    assert len(pieces) >= 4
    for seg in pieces:
        # its rows, the header in the first, and the rows that came since the render before the cut
        assert len(table_rows(seg)) * 4 <= TABLE_CELLS + 4 * 4
    # one after another, in order, each row once; the header only on the first piece
    got = [row for seg in pieces for row in table_rows(seg)]
    assert got[0] == ["id", "name", "city", "score"] and got[1:] == expected(0, 400)


def test_the_pieces_touch_as_one_table(qtbot):
    answer = streamed(qtbot, TABLE)
    first, second = shown(answer)[:2]
    doc, below = first.document(), second.document()
    from tinyrag_desktop.ui.wide_blocks import box_bottom, frame_edge

    above_table, below_table = _table_at(doc, -1), _table_at(below, 0)
    bottom = first.y() + box_bottom(doc, above_table)
    block = below.findBlock(below_table.firstPosition())
    top = second.y() + below.documentLayout().blockBoundingRect(block).top() - frame_edge(below_table)
    assert abs(top - (bottom - 1)) <= 1  # one border between them, as between two rows (a gap of 30 px was seen)


def test_when_it_is_done_the_table_is_one_table_with_all_rows_in_order_then_the_text_after_it(qtbot):
    answer = streamed(qtbot, TEXT)
    answer.finish(Done(1, 0, 10))
    segs = shown(answer)
    assert table_rows(segs[0]) == [["id", "name", "city", "score"]] + expected(0, 400)
    assert sum(1 for s in segs if _table_at(s.document(), 0) or _table_at(s.document(), -1)) == 1
    assert segs[-1].toPlainText().endswith("That was all of it.")
    assert answer.content() == TEXT and answer.to_markdown().startswith(TEXT)
    assert len(answer.segments()) == len(segs)  # the pieces are gone, not hidden


def test_a_table_stopped_halfway_shows_every_row_that_came_in_one_table(qtbot):
    text = TABLE[:TABLE.index("| 257 |") + 15]  # stopped in the middle of row 257
    answer = streamed(qtbot, text)
    answer.stop(100)
    (seg,) = shown(answer)
    got = table_rows(seg)
    assert got[1:-1] == expected(0, 257) and got[-1][:2] == ["257", "**perso"]  # the half row as it came
    assert answer.content() == text


def test_a_stream_that_ends_without_done_and_a_stored_answer_show_one_table(qtbot):
    answer = streamed(qtbot, TEXT)
    answer.flush()
    answer.streaming = False  # how the window ends an answer whose stream ended with no word why
    assert table_rows(shown(answer)[0])[1:] == expected(0, 400)
    assert sum(1 for s in shown(answer) if _table_at(s.document(), 0) or _table_at(s.document(), -1)) == 1
    assert shown(answer)[-1].toPlainText().endswith("That was all of it.")
    stored = AnswerWidget.from_stored(StoredMessage(1, "assistant", TEXT, stats={"rounds": 1}))
    qtbot.add_widget(stored)
    stored.show_rows(stored.segments()[1])  # its rows past the first thousand cells, asked for (see test_table_folds)
    stored.flush()
    assert [table_rows(s)[1:] == expected(0, 400) for s in shown(stored)[:1]] == [True]


def test_two_long_tables_with_text_between_them_come_out_whole_and_in_order(qtbot):
    second = "| key | value |\n|---|---|\n" + "".join(f"| k{i} | v{i} |\n" for i in range(300))
    text = TABLE + "\nBetween them.\n\n" + second + "\nThe end.\n"
    answer = streamed(qtbot, text, size=5)
    answer.finish(Done(1, 0, 10))
    plain = "\n".join(s.toPlainText() for s in shown(answer))
    assert plain.index("399") < plain.index("Between them.") < plain.index("k0") < plain.index("k299") \
        < plain.index("The end.")
    assert answer.content() == text


def test_a_wide_table_streamed_in_pieces_is_one_wide_block_with_its_bar_inside(qtbot):
    cols = 20
    head = "| " + " | ".join(f"Column {c}" for c in range(cols)) + " |\n|" + "---|" * cols + "\n"
    body = "".join("| " + " | ".join(f"r{r}c{c}" for c in range(cols)) + " |\n" for r in range(120))
    answer = streamed(qtbot, "Wide:\n\n" + head + body + "\nAfter it.\n", width=600)
    assert len(shown(answer)) >= 3
    answer.finish(Done(1, 0, 10))
    seg = shown(answer)[0]
    assert len(seg.wide_blocks()) == 1 and len(table_rows(seg)) == 121
    assert all(seg._bar_rects(i)[0].bottom() <= seg.viewport().height() for i in range(len(seg.wide_blocks())))


def test_a_piece_whose_first_row_is_not_whole_yet_is_hidden(qtbot):
    # its header is drawn by the piece above: shown with no row, it was an empty line in the table's way
    answer = streamed(qtbot, "Here is the data:\n\n" + HEADER)
    for i in range(400):
        count = len(answer.segments())
        answer.append_text(f"| {i} | per")
        answer._render_step()
        if len(answer.segments()) > count:
            break
        answer.append_text(f"son {i} | x | 1 |\n")
    last = answer.segments()[-1]
    assert last.markdown() == f"| {i} | per" and last.shows_nothing() and not last.isVisibleTo(answer)
    answer.append_text(f"son {i} | x | 1 |\n")
    answer._render_step()
    assert last.isVisibleTo(answer) and table_rows(last) == [[str(i), f"person {i}", "x", "1"]]


def test_copying_all_of_a_finished_long_table_gives_its_markdown(qtbot):
    answer = streamed(qtbot, TEXT)
    answer.finish(Done(1, 0, 10))
    seg = shown(answer)[0]
    seg.selectAll()
    assert seg.createMimeDataFromSelection().text() == seg.markdown()
    assert seg.markdown().startswith(TABLE.rstrip("\n"))


def test_a_segment_is_not_rendered_again_for_the_same_text_but_is_for_new_settings(qtbot, monkeypatch):
    # where the view cuts a long table, the rows frozen are the ones shown already: rendered again, the cut
    # cost a second render of the piece in the same step
    seg = MarkdownSegment()
    qtbot.add_widget(seg)
    seg.set_markdown(HEADER + rows(0, 30))
    seg.selectAll()
    calls = []
    real = seg.setHtml
    monkeypatch.setattr(seg, "setHtml", lambda html: (calls.append(html), real(html)))
    seg.set_markdown(HEADER + rows(0, 30))
    assert calls == [] and seg.textCursor().hasSelection()  # as it was, the reader's selection too
    seg.refresh()  # asked for (allow_nanogo, a Go run's output): rendered again
    from tinyrag_desktop.ui.markdown_render import DARK

    seg.set_palette_colours(DARK)
    seg.set_markdown(HEADER + rows(0, 31))
    assert len(calls) == 3
