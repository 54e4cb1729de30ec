"""A table streams in row by row: a row half written, or a header with no rule under it yet, waits."""

from __future__ import annotations

import re

from hypothesis import given, strategies as st

from tinyrag_desktop.ui.answer import AnswerWidget
from tinyrag_desktop.ui.segments import settled

TABLE = "Results:\n\n| Column 0 | Column 1 |\n|---|---|\n| a | b |\n| c | d |\n\nDone."


def test_settled_holds_back_a_half_row_and_a_header_without_its_rule():
    assert settled("Intro\n\n| Column 0 | Co") == "Intro\n\n"  # the header row being written
    assert settled("Intro\n\n| Column 0 | Column 1 |\n") == "Intro\n\n"  # no rule under it yet
    assert settled("Intro\n\n| A | B |\n|---|---|\n| a | b") == "Intro\n\n| A | B |\n|---|---|\n"
    assert settled("Intro\n\n| A | B |\n|---|---|\n| a | b |\n") == "Intro\n\n| A | B |\n|---|---|\n| a | b |\n"
    assert settled("No table here, still wri") == "No table here, still wri"


@given(st.text(alphabet="|-: ab\n", max_size=80))
def test_settled_only_ever_holds_back_an_end_of_the_text(text):
    assert text.startswith(settled(text))


def test_a_row_shows_when_it_is_whole_and_everything_when_the_answer_ends(qtbot):
    # while streaming, "| c | d" showed as a line of plain text ("| Column 0 | Co" at the header)
    answer = AnswerWidget()
    qtbot.add_widget(answer)
    answer.begin()
    cut = TABLE.index("| c |") + 5
    answer.append_text(TABLE[:cut])
    answer._render_step()  # a frame while the row is half written
    shown = answer.segments()[-1].toPlainText()
    assert "a" in shown.split() and "c" not in shown.split() and "|" not in shown
    answer.append_text(TABLE[cut:])
    answer.flush()  # the end of the answer: all of it
    assert "c" in answer.segments()[-1].toPlainText().split() and answer.content() == TABLE


def test_a_list_items_number_or_dash_waits_for_its_words_instead_of_joining_the_item_above(qtbot):
    # "2. second\n3." showed "2. second 3." on one line until the third item's words came; "- b\n-" made "b" a
    # heading for a moment (Markdown reads a lone dash under a line as a heading's rule).
    text = "Steps:\n\n1. first\n2. second\n3. third\n\nItems:\n\n- a\n- b\n- c\n\n10. ten\n11. eleven\n"
    answer = AnswerWidget()
    qtbot.add_widget(answer)
    answer.begin()
    for at, char in enumerate(text):  # a frame after every character the model sends
        answer.append_text(char)
        answer._render_step()
        for segment in answer.segments():
            block = segment.document().begin()
            while block.isValid():
                words = block.text().replace("\u00a0", " ")
                assert not re.search(r"\w \d+[.)]?$|\w -$", words), (text[:at + 1], words)
                assert block.blockFormat().headingLevel() == 0, (text[:at + 1], words)
                block = block.next()
    answer.flush()
    shown = "\n".join(segment.toPlainText() for segment in answer.segments())
    assert all(item in shown.splitlines() for item in ("first", "second", "third", "a", "b", "c", "ten", "eleven"))


def test_lines_of_code_starting_with_a_bar_are_never_held_back(qtbot):
    answer = AnswerWidget()
    qtbot.add_widget(answer)
    answer.begin()
    answer.append_text("```elixir\nlist\n|> Enum.map(&(&1 * 2))\n|> Enum.sum")
    answer._render_step()
    assert "Enum.sum" in answer.segments()[-1].toPlainText()


def test_after_a_slow_render_the_next_waits_so_the_window_keeps_answering(qtbot, monkeypatch):
    # a table of thousands of rows is drawn whole at each render: 2.7 s each, 30 times a second if let
    import time

    from tinyrag_desktop.ui import answer_rendering

    answer = AnswerWidget()
    qtbot.add_widget(answer)
    answer.begin()
    real = answer._render_run

    def slow(run, growing=False):
        time.sleep(0.06)  # stands for a render that took 60 ms
        return real(run, growing)

    monkeypatch.setattr(answer, "_render_run", slow)
    answer.append_text("| a | b |\n|---|---|\n| 1 | 2 |\n")
    answer._render_step()
    assert answer._frame_ms >= 60 * answer_rendering.SLOW_RENDER_GAP
    monkeypatch.setattr(answer, "_render_run", real)
    answer.append_text("| 3 | 4 |\n")
    answer._render_step()  # a cheap one: back to the usual pace
    assert answer._frame_ms == answer_rendering.FRAME_MS
