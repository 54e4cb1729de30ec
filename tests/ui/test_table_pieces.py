"""The pieces of a long table cut while it streams show as one table: their columns line up (each piece sized to
its own rows made the table ragged, and jump as it grew), a wide one scrolls as one with one bar, and when the
pieces are joined at the end the columns stay where they were and the keyboard stays where it was."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st
from PySide6.QtWidgets import QApplication

from tinyrag_desktop.engine.events import Done
from tinyrag_desktop.ui.answer import AnswerWidget
from tinyrag_desktop.ui.markdown_cuts import fix_columns, freeze_point, joined_table
from tinyrag_desktop.ui.markdown_render import render
from tinyrag_desktop.ui.wide_blocks import box_bottom, edge_table, frame_edge

from .test_long_tables import shown, streamed, table_rows

CITIES = ["Oslo", "Rio", "San Francisco de Asís", "Lima", "Ulaanbaatar", "Bo", "Ouagadougou Centre", "Nice"]
HEADER = "| id | name | city | score |\n|---|:---|:---:|---:|\n"


def row(i: int) -> str:
    # the names grow longer row by row: each piece sized to its own rows had its own name column
    return f"| {i} | **person** {'x' * (i % 23)}{i} | `{CITIES[i % 8]}` | {i * 7 % 1000 / 10} |\n"


TABLE = "Here is the data:\n\n" + HEADER + "".join(row(i) for i in range(300))


def wide_table(rows: int, cols: int = 12) -> str:
    head = "| " + " | ".join(f"Column {c}" for c in range(cols)) + " |\n|" + "---|" * cols + "\n"
    return "Wide:\n\n" + head + "".join(
        "| " + " | ".join(f"r{r}c{c}{'w' * ((r * c) % 9)}" for c in range(cols)) + " |\n" for r in range(rows))


def settle(qtbot, answer: AnswerWidget) -> None:
    """Let the pieces take the table's widths (a piece a loop turn, see CutTable._fit_next)."""
    links = {link for seg in answer.segments() for link in (getattr(seg, "link_above", None),
                                                             getattr(seg, "link_below", None)) if link is not None}
    qtbot.waitUntil(lambda: not any(link._timer.isActive() for link in links))


def columns_x(seg, last: bool = False) -> list[float]:
    """Where each column's text starts in the first (``last``) table of ``seg``, and where the table ends."""
    doc = seg.document()  # held: see wide_blocks.box_bottom
    table = edge_table(doc, -1 if last else 0)
    layout = doc.documentLayout()
    xs = [layout.blockBoundingRect(doc.findBlock(table.cellAt(0, c).firstPosition())).left()
          for c in range(table.columns())]
    last_cell = layout.blockBoundingRect(doc.findBlock(table.cellAt(0, table.columns() - 1).firstPosition()))
    return xs + [last_cell.right()]


def test_fix_columns_puts_the_widths_on_the_first_row_of_the_first_or_last_markdown_table():
    html = render(HEADER + row(1) + "\nText\n\n" + HEADER + row(2)).html
    first = fix_columns(html, (10, 20, 30, 40.5))
    assert first.count('width="') == 4 and first.index('width="40.50"') < first.index("Text")
    last = fix_columns(html, (10, 20, 30, 40.5), last=True)
    assert last.count('width="') == 4 and last.index('width="10.00"') > last.index("Text")
    assert fix_columns(html, (10, 20)) == html  # not as many widths as columns: left as it is


def test_while_it_streams_the_columns_of_every_piece_line_up(qtbot):
    answer = streamed(qtbot, TABLE)
    settle(qtbot, answer)
    pieces = shown(answer)
    assert len(pieces) >= 5
    first = columns_x(pieces[0], last=True)
    # each piece's columns where the first piece's are (they were 20 to 60 pixels apart)
    assert [columns_x(seg) for seg in pieces[1:]] == [first] * (len(pieces) - 1)
    # and where one table of all these rows has them: the join at the end moves no column
    answer.finish(Done(1, 0, 10))
    whole = shown(answer)[0]
    assert len(table_rows(whole)) == 301 and columns_x(whole, last=True) == first


def test_a_row_that_widens_a_column_widens_it_in_every_piece(qtbot):
    answer = streamed(qtbot, TABLE)
    settle(qtbot, answer)
    before = columns_x(shown(answer)[0], last=True)
    answer.append_text("| 300 | **person** " + "long name " * 8 + "| `Oslo` | 1 |\n")
    answer._render_step()
    settle(qtbot, answer)
    pieces = shown(answer)
    after = columns_x(pieces[0], last=True)
    assert after[2] > before[2] + 100  # the name column took the long name in
    assert [columns_x(seg) for seg in pieces[1:]] == [after] * (len(pieces) - 1)
    assert table_rows(pieces[-1])[-1][1].startswith("person long name")  # on one line, not wrapped


def test_a_wide_table_streaming_in_pieces_scrolls_as_one_with_one_bar_under_its_last_rows(qtbot):
    answer = streamed(qtbot, wide_table(120), width=600)
    settle(qtbot, answer)
    pieces = shown(answer)
    assert len(pieces) >= 3 and all(len(seg.wide_blocks()) == 1 for seg in pieces)
    # a bar under each piece (and a gap for it between them) read as many tables
    barred = []
    for seg in pieces:
        doc = seg.document()
        barred.append(seg.bars_bottom() > box_bottom(doc, edge_table(doc, -1)) + 1)
    assert barred == [False] * (len(pieces) - 1) + [True]
    for above, below in zip(pieces, pieces[1:]):
        doc = above.document()
        bottom = above.y() + box_bottom(doc, edge_table(doc, -1))
        mine = below.document()
        table = edge_table(mine, 0)
        top = below.y() + mine.documentLayout().blockBoundingRect(mine.findBlock(table.firstPosition())).top() \
            - frame_edge(table)
        assert abs(top - (bottom - 1)) <= 1  # one border between them, as between two rows
    pieces[1].scroll_wide(0, 120)  # shift+wheel, the bar, Left and Right all scroll through scroll_wide
    assert [seg.wide_blocks()[-1 if seg is pieces[0] else 0][2] for seg in pieces] == [120] * len(pieces)
    answer.finish(Done(1, 0, 10))
    whole = shown(answer)[0]
    assert len(whole.wide_blocks()) == 1 and whole.wide_blocks()[0][2] == 120  # scrolled where it was


def _focus(qtbot, seg) -> None:
    with qtbot.waitActive(seg.window()):
        seg.window().activateWindow()
    seg.setFocus()
    qtbot.waitUntil(seg.hasFocus)


def test_the_caret_in_a_piece_stays_in_its_cell_with_the_focus_when_the_pieces_are_joined(qtbot):
    answer = streamed(qtbot, TABLE + "\nAfter it.\n")
    settle(qtbot, answer)
    piece = shown(answer)[3]
    doc = piece.document()
    table = edge_table(doc, 0)
    cell = table.cellAt(5, 1)  # a row of the fourth piece, its name
    name = table_rows(piece)[5][1]
    _focus(qtbot, piece)
    cursor = piece.textCursor()
    cursor.setPosition(cell.firstPosition() + 7)  # in "person xx…", after "person "
    cursor.setPosition(cell.firstPosition() + 9, cursor.MoveMode.KeepAnchor)
    piece.setTextCursor(cursor)
    answer.finish(Done(1, 0, 10))
    whole = shown(answer)[0]
    assert QApplication.focusWidget() is whole  # it was lost with the piece that had it
    caret = whole.textCursor()
    assert caret.currentTable() is not None
    at = caret.currentTable().cellAt(caret.position())
    assert table_rows(whole)[at.row()][at.column()] == name and caret.selectedText() == name[7:9]


def test_a_wide_table_tab_stopped_on_in_a_piece_keeps_the_tab_stop_when_the_pieces_are_joined(qtbot):
    answer = streamed(qtbot, wide_table(120) + "\nAfter it.\n", width=600)
    settle(qtbot, answer)
    piece = shown(answer)[2]
    _focus(qtbot, piece)
    piece._set_key_wide(0)  # Tab stopped on it: Left and Right scroll it
    answer.finish(Done(1, 0, 10))
    whole = shown(answer)[0]
    assert QApplication.focusWidget() is whole and whole.key_wide() == 0


def test_the_joined_table_is_made_of_the_pieces_html_as_the_whole_text_renders(qtbot, monkeypatch):
    # Markdown's conversion of the whole table again was some 70 ms of the join of a thousand rows
    text = TABLE + "\nAfter it, **bold** and a [link](https://example.org).\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    answer = streamed(qtbot, text)
    answer.flush()
    converted = []
    import tinyrag_desktop.ui.segments as segments

    real = segments.render
    monkeypatch.setattr(segments, "render", lambda source, *a, **k: (converted.append(source), real(source, *a, **k))[1])
    answer.finish(Done(1, 0, 10))
    whole = shown(answer)[0]
    assert not any("| 299 |" in source for source in converted)
    assert whole.markdown().startswith(TABLE) and len(table_rows(whole)) == 301
    assert whole.toHtml() == _shown_as(qtbot, whole.markdown(), whole.width())  # as its whole text renders


def _shown_as(qtbot, text: str, width: int) -> str:
    from tinyrag_desktop.ui.segments import MarkdownSegment

    seg = MarkdownSegment()
    qtbot.add_widget(seg)
    seg.setFixedWidth(width)
    seg.set_markdown(text)
    return seg.toHtml()


def test_pieces_that_may_render_otherwise_alone_are_joined_from_the_whole_text():
    html = [render(HEADER + row(0)).html, render(HEADER + row(1), headless=True).html]
    assert joined_table(html, [HEADER + row(0), row(1)], ["", HEADER]) == render(HEADER + row(0) + row(1)).html
    # the table ended where it was cut: the last piece has no row (Python-Markdown gives it an empty one)
    after = "\nAfter it.\n"
    ended = [html[0], render(HEADER + after, headless=True).html]
    assert joined_table(ended, [HEADER + row(0), after], ["", HEADER]) == render(HEADER + row(0) + after).html
    # a link defined in another piece, right-to-left text (a table's direction is its first cell's), a code block
    assert joined_table(html, [HEADER + row(0), row(1) + "\n[1]: https://example.org\n"], ["", HEADER]) is None
    arabic = [html[0], render(HEADER + "| 1 | مرحبا | a | b |\n", headless=True).html]
    assert joined_table(arabic, [HEADER + row(0), row(1)], ["", HEADER]) is None
    code = [render("```go\nx\n```\n\n" + HEADER + row(0)).html, html[1]]
    assert joined_table(code, [HEADER + row(0), row(1)], ["", HEADER]) is None
    # a line of text right under a row is one more row, and the rows under it were cut as a table of their own
    lazy = HEADER + row(0) + "Some text.\n| k | v |\n|---|---|\n"
    assert joined_table([render(lazy).html, render("| k | v |\n|---|---|\n" + row(1), headless=True).html],
                        [lazy, row(1)], ["", "| k | v |\n|---|---|\n"]) is None


def test_a_table_cut_where_its_text_ends_is_joined_from_its_pieces_html():
    # the rows a stored table shows at first end its text there: an empty piece came last, and Markdown's
    # conversion of the whole table again was most of the longest step of opening its chat (1,000 cells: 70 ms)
    html = [render(HEADER + row(0)).html, render(HEADER + row(1), headless=True).html, ""]
    joined = joined_table(html, [HEADER + row(0), row(1), ""], ["", HEADER, HEADER])
    assert joined == render(HEADER + row(0) + row(1)).html


def test_in_a_narrower_window_the_pieces_columns_narrow_together_as_the_whole_table_s(qtbot):
    answer = streamed(qtbot, TABLE)
    settle(qtbot, answer)
    answer.setFixedWidth(420)  # the table's rows wrap: it is no longer as wide as its longest names
    qtbot.waitUntil(lambda: shown(answer)[0].viewport().width() <= 420)
    settle(qtbot, answer)
    pieces = shown(answer)
    first = columns_x(pieces[0], last=True)
    assert first[-1] <= 420 and not any(seg.wide_blocks() for seg in pieces)
    assert [columns_x(seg) for seg in pieces[1:]] == [first] * (len(pieces) - 1)
    answer.finish(Done(1, 0, 10))
    assert columns_x(shown(answer)[0], last=True) == first



_TEXT = st.sampled_from(["", "Some text.", "- item", "1. first", "> quote", "# Title", "After *it*.", "`code` here",
                         "| k | v |\n|---|---|\n| 1 | 2 |", "a [link](https://example.org)"])
_CELL = st.sampled_from(["", "x", "**bold** word", "`a | b`", "3.5", "long words in a cell", "a \\| b", "_i_"])


@st.composite
def _answers(draw) -> str:
    """Text, a long table (its rows of any cells, some with a cell too many or too few), then text."""
    columns = draw(st.integers(1, 4))
    head = "| " + " | ".join(f"h{c}" for c in range(columns)) + " |\n|" + "|".join(
        draw(st.sampled_from(["---", ":--", ":-:", "--:"])) for _ in range(columns)) + "|\n"
    rows = draw(st.lists(st.lists(_CELL, min_size=max(1, columns - 1), max_size=columns + 1), min_size=1,
                         max_size=30))
    before = "\n\n".join(draw(st.lists(_TEXT, max_size=3)))
    after = "\n".join(draw(st.lists(_TEXT, max_size=4)))
    return (before + "\n\n" if before else "") + head + "".join("| " + " | ".join(r) + " |\n" for r in rows) \
        + draw(st.sampled_from(["", "\n"])) + after


@settings(max_examples=300, deadline=None)
@given(_answers(), st.integers(2, 12))
def test_a_table_joined_from_its_pieces_html_is_the_whole_text_s(text, cells):
    sources, headers, rest = [], [""], text
    while (cut := freeze_point(rest, opener=headers[-1], soft=10_000, hard=20_000, cells=cells)) is not None \
            and cut.at:
        sources.append(rest[:cut.at])
        rest = rest[cut.at:]
        headers.append(cut.reopen)
    if not sources:
        return
    sources.append(rest)
    html = [render(h + s, headless=bool(h)).html for h, s in zip(headers, sources)]
    joined = joined_table(html, sources, headers)
    assert joined is None or joined == render("".join(sources)).html
