"""A table in a list item renders as a table (it showed as a line of pipes and dashes), whole and streaming."""

from __future__ import annotations

import pytest

from tests.sse_server import Stream
from tinyrag_desktop.ui.answer import AnswerWidget
from tinyrag_desktop.ui.markdown_cuts import freeze_point
from tinyrag_desktop.ui.markdown_render import render

from .conftest import tokens, wait_signal

# As models write them: under the item's text with or without a blank line, indented as far as its text
# (3 spaces under "1. ", 2 under "- ") or not at all.
IN_ITEMS = {
    "blank line, ordered": "1. Compare:\n\n   | a | b |\n   |---|---|\n   | 1 | 2 |\n\n2. next",
    "right under, ordered": "1. Compare:\n   | a | b |\n   |---|---|\n   | 1 | 2 |\n2. next",
    "right under, bullets": "- Compare:\n  | a | b |\n  |---|---|\n  | 1 | 2 |\n- next",
    "at the margin": "1. Compare:\n| a | b |\n|---|---|\n| 1 | 2 |\n2. next",
    "nested item": "- top\n    - Compare:\n      | a | b |\n      |---|---|\n      | 1 | 2 |\n    - next",
}


def _table_cells(html: str) -> list[str]:
    return [cell.split(">", 1)[1].split("</t", 1)[0] for cell in html.split("<t")[1:]
            if cell.startswith(("h ", "h>", "d ", "d>"))]


@pytest.mark.parametrize("text", IN_ITEMS.values(), ids=IN_ITEMS.keys())
def test_a_table_in_a_list_item_renders_as_a_table_and_ends_at_the_next_item(text):
    html = render(text).html
    assert html.count("<table") == 1 and "|" not in html and "---" not in html
    assert _table_cells(html) == ["a", "b", "1", "2"]  # "2. next" is no row of it
    assert "next</li>" in html or "next</p>" in html


def test_tables_outside_lists_and_code_with_bars_are_as_before():
    top = render("Results:\n| a | b |\n|---|---|\n| 1 | 2 |\n\nDone.").html
    assert _table_cells(top) == ["a", "b", "1", "2"] and "<p>Results:</p>" in top
    code = "1. Run:\n\n```sh\nls | wc -l\n|---|---|\n```\n2. next"
    assert render(code).code_blocks == ("ls | wc -l\n|---|---|\n",) and "<table border" not in render(code).html
    in_item = render("1. Run:\n   ```sh\n   ls | wc -l\n   |---|---|\n   ```\n2. next")
    assert "<table border" not in in_item.html  # code in an item: never a table, but a code block
    assert in_item.code_blocks == ("ls | wc -l\n|---|---|\n",)
    # no delimiter row under it: a line with bars in an item is text, as before
    assert "<table" not in render("- a | b\n  c | d\n- next").html


def test_a_long_list_with_tables_in_its_items_is_cut_only_before_an_item():
    item = "{n}. Compare:\n   | a | b |\n   |---|---|\n   | {n} | 2 |\n"
    text = "".join(item.format(n=n) for n in range(1, 200)) + "200. still comi"
    cut = freeze_point(text, soft=1500, hard=4000)
    assert cut is not None and text[cut.at - 1] == "\n"
    number = int(text[cut.at:].split(".", 1)[0])
    assert text[cut.at:].startswith(f"{number}. Compare:")
    assert f'<ol start="{number}">' in render(text[cut.at:]).html


def _shown(answer: AnswerWidget) -> str:
    return "".join(seg.toPlainText() for seg in answer.segments() if seg.isVisibleTo(answer))


@pytest.mark.parametrize("text", IN_ITEMS.values(), ids=IN_ITEMS.keys())
def test_a_table_in_a_list_item_never_shows_as_bars_while_it_streams(qtbot, text):
    # one character at a time, a frame after each: the indent of the next row ("   ") let the header row
    # show as a paragraph for a frame, and a table right under an item's text stayed pipes to the end
    answer = AnswerWidget()
    qtbot.add_widget(answer)
    answer.begin()
    for char in text:
        answer.append_text(char)
        answer._render_step()
        assert "|" not in _shown(answer), repr(answer.content())
    answer.flush()
    assert "|" not in _shown(answer) and any("<table" in seg.toHtml() for seg in answer.segments())


def test_a_table_in_a_list_item_of_a_streamed_answer_is_a_table(make_window, server, qloop):
    text = "Two steps:\n\n" + IN_ITEMS["right under, ordered"] + "\n\nThat is all."
    server.queue(Stream(tokens(text, 2), delay=0.005))
    win = make_window(server.base_url)
    frames: list[str] = []

    async def ask():
        answered = wait_signal(win.answerFinished)
        win.composer.setPlainText("compare them")
        assert win.send()
        answer = win.view.answers()[-1]
        answer.rendered.connect(lambda: frames.append(_shown(answer)))
        return await answered

    assert qloop.run(ask()) == "done"
    answer = win.view.answers()[-1]
    assert frames and not [frame for frame in frames if "|" in frame]
    html = "".join(seg.toHtml() for seg in answer.segments())
    assert "<table" in html and "|" not in _shown(answer) and answer.content() == text
