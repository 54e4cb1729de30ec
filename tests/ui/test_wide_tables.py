"""A table wider than the answer: its bar is drawn inside its segment (also when the table ends it, as it
does where the streaming view cuts), and Tab stops on it so that Left and Right scroll it, as a code block's
Copy code link lets them scroll the code."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit, QVBoxLayout, QWidget

from tests.sse_server import Stream
from tinyrag_desktop.ui.segments import MarkdownSegment

from .conftest import ask_and_wait, tokens, wait_signal, wait_until

WIDE = ("| " + " | ".join(f"Column {i}" for i in range(30)) + " |\n|" + "---|" * 30 + "\n"
        + "".join("| " + " | ".join(f"r{r}c{i}" for i in range(30)) + " |\n" for r in range(5)))


def _bar_inside(seg: MarkdownSegment) -> bool:
    return all(seg._bar_rects(i)[0].bottom() <= seg.viewport().height() for i in range(len(seg.wide_blocks())))


def test_the_bar_under_a_table_that_ends_its_segment_is_drawn_inside_it(qtbot):
    # The segment was as tall as its text (196 px) and the bar was painted at 199.5-204.5: never seen.
    seg = MarkdownSegment()
    qtbot.add_widget(seg)
    seg.resize(614, 100)
    seg.show()
    seg.set_markdown("Here is a wide table:\n\n" + WIDE)
    assert len(seg.wide_blocks()) == 1
    assert _bar_inside(seg)
    seg.set_markdown("Wide code:\n\n```python\n" + "x = 1  # " + "a" * 300 + "\n```\n")  # a code block too
    assert len(seg.wide_blocks()) == 1 and _bar_inside(seg)
    seg.resize(2400, 100)  # wide enough: no bar, the segment as tall as its text again
    assert not seg.wide_blocks()
    assert seg.height() <= int(seg.document().size().height() + 0.999) + 2


def _keys_around(qtbot, markdown: str):
    host = QWidget()
    qtbot.add_widget(host)
    column = QVBoxLayout(host)
    before, seg, after = QLineEdit(), MarkdownSegment(), QLineEdit()
    for widget in (before, seg, after):
        column.addWidget(widget)
    host.resize(614, 700)
    host.show()
    seg.set_markdown(markdown)
    host.activateWindow()
    qtbot.waitUntil(host.isActiveWindow)
    before.setFocus()
    assert QApplication.focusWidget() is before
    return host, before, seg, after


def _walk(seg, key, steps: int) -> list[str]:
    """Where each press of ``key`` puts the focus: a link's words, "table N", or "out"."""
    seen = []
    for _ in range(steps):
        QTest.keyClick(QApplication.focusWidget(), key)
        if QApplication.focusWidget() is not seg:
            seen.append("out")
        elif seg.key_wide() is not None:
            seen.append(f"table {seg.key_wide()}")
        else:
            seen.append(seg.textCursor().selectedText())
    return seen


def test_tab_stops_on_each_wide_table_between_the_links_and_left_and_right_scroll_it(qtbot):
    _host, _before, seg, _after = _keys_around(
        qtbot, "See [the guide](https://a.org) then:\n\n" + WIDE + "\nAnd [more](https://b.org)\n\n"
        "```python\nprint(1)\n```\n\n" + WIDE)
    assert seg.focusPolicy() == Qt.FocusPolicy.StrongFocus
    assert _walk(seg, Qt.Key.Key_Tab, 6) == ["the guide", "table 0", "more", "Copy code", "table 1", "out"]
    assert _walk(seg, Qt.Key.Key_Backtab, 6) == ["table 1", "Copy code", "more", "table 0", "the guide", "out"]
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    QTest.keyClick(seg, Qt.Key.Key_Tab)
    assert seg.key_wide() == 0
    QTest.keyClick(seg, Qt.Key.Key_Right)
    QTest.keyClick(seg, Qt.Key.Key_Right)
    moved = seg.wide_blocks()[0][2]
    assert moved > 0 and seg.wide_blocks()[1][2] == 0  # only the table Tab stopped on
    QTest.keyClick(seg, Qt.Key.Key_Left)
    assert 0 < seg.wide_blocks()[0][2] < moved
    QTest.keyClick(seg, Qt.Key.Key_End)
    assert seg.wide_blocks()[0][2] == seg._most(seg._wide[0])
    QTest.keyClick(seg, Qt.Key.Key_Home)
    assert seg.wide_blocks()[0][2] == 0


def test_a_segment_with_only_a_table_that_fits_is_no_tab_stop(qtbot):
    _host, before, seg, after = _keys_around(qtbot, "| a | b |\n|---|---|\n| 1 | 2 |\n")
    assert seg.focusPolicy() == Qt.FocusPolicy.ClickFocus
    QTest.keyClick(before, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is after


def _table_segment(answer) -> MarkdownSegment:
    return next(seg for seg in answer.segments() if seg.wide_blocks())


def _tab_to_table_and_scroll(qloop, win) -> int:
    answer = win.view.answers()[-1]
    seg = _table_segment(answer)
    assert _bar_inside(seg)
    win.view.setFocus()
    qloop.run(wait_until(win.view.hasFocus))
    QTest.keyClick(win.view, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is win.view.questions()[-1].text_view  # the question's words
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    # the answer's words (its caret at their start, see test_reading_answers), then the table in them
    assert QApplication.focusWidget() is seg and seg.key_wide() is None and seg.textCursor().position() == 0
    QTest.keyClick(seg, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is seg and seg.key_wide() == 0  # the table, before Copy and Regenerate
    for _ in range(5):
        QTest.keyClick(seg, Qt.Key.Key_Right)
    shift = seg.wide_blocks()[0][2]
    QTest.keyClick(seg, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is answer.copy_button
    return shift


def test_a_wide_table_in_an_answer_shows_its_bar_while_streaming_after_and_when_reopened(make_window, server, qloop):
    text = "Here is a wide table:\n\n" + WIDE + "\nAfter the table.\n"
    server.queue(Stream(tokens(text, 40), delay=0.02))
    win = make_window(server.base_url)
    win.resize(900, 700)
    live = []

    async def ask():  # one run of the loop: stopped mid-stream, it left the stream a task to end outside it
        answered = wait_signal(win.answerFinished)
        win.composer.setPlainText("a 30-column table")
        assert win.send()
        answer = win.view.answers()[-1]
        await wait_until(lambda: any(seg.wide_blocks() for seg in answer.segments()))
        live.append((answer.streaming, all(_bar_inside(seg) for seg in answer.segments())))
        return await answered

    assert qloop.run(ask()) == "done"
    assert live == [(True, True)]  # live: the table, still growing, has its bar in view
    assert _tab_to_table_and_scroll(qloop, win) > 0
    chat = win.chat_id
    win.new_chat()
    win.open_chat(chat)
    qloop.run(wait_until(lambda: not win.loading and win.view.answers()))
    assert _tab_to_table_and_scroll(qloop, win) > 0


def test_an_answer_with_a_wide_table_asked_in_a_chat_tabs_to_it(make_window, server, qloop):
    server.queue(Stream(tokens("Here:\n\n" + WIDE)))
    win = make_window(server.base_url)
    win.resize(900, 700)
    assert qloop.run(ask_and_wait(win, "a wide table")) == "done"
    assert _tab_to_table_and_scroll(qloop, win) > 0


def _far_from(colour, background) -> int:
    return max(abs(colour.red() - background.red()), abs(colour.green() - background.green()),
               abs(colour.blue() - background.blue()))


def _edge_columns(seg: MarkdownSegment, xs) -> list[int]:
    """How far from the conversation's background each pixel column ``xs`` of the wide table gets, at most."""
    from tinyrag_desktop.ui.theme import colors

    image, wide = seg.viewport().grab().toImage(), seg._wide[0]
    rows = range(int(wide.top) + 1, int(wide.bar) - 1)  # the table, not its bar
    return [max(_far_from(image.pixelColor(x, y), colors().bg) for y in rows) for x in xs]


def test_a_table_cut_at_the_answers_edge_fades_out_where_more_of_it_is(qtbot, make_window, server, qloop):
    # Its columns beyond the edge looked like none, the last one seen cut mid-letter at the edge
    seg = MarkdownSegment()
    qtbot.add_widget(seg)
    seg.resize(614, 100)
    seg.show()
    seg.set_markdown("Here is a wide table:\n\n" + WIDE)
    width = seg.viewport().width()
    assert len(seg.wide_blocks()) == 1
    assert max(_edge_columns(seg, [width - 1])) <= 12  # faded out at the right: more is there
    assert max(_edge_columns(seg, range(0, 3))) >= 40  # its left border, where it starts, is not
    seg.scroll_wide(0, 10_000)  # at its end: its right border shows, the columns it left fade at the left
    assert max(_edge_columns(seg, range(width - 6, width))) >= 40
    assert max(_edge_columns(seg, [0])) <= 12
    seg.scroll_wide(0, 300)  # in the middle: both
    assert max(_edge_columns(seg, [0, width - 1])) <= 12
    # the whole table is still what Copy gives, its last column too
    server.queue(Stream(tokens("Here:\n\n" + WIDE)))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "a wide table")) == "done"
    copied = win.view.answers()[-1].copy_markdown()
    assert "Column 29" in copied and "r4c29" in copied
