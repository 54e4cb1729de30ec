"""Where the streaming view cuts an answer into segments, its text is as far apart as in one document: a long
list cut in segments showed a seam of 8 pixels between two items of a tight list, 4 too few in a loose one."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint

from tests.sse_server import Stream
from tinyrag_desktop.ui.answer import AnswerWidget
from tinyrag_desktop.ui.segments import MarkdownSegment

from .conftest import ask_and_wait, tokens, wait_until

ITEMS = [f"{n}. Step number {n}: configure the parser, the renderer and the segment layout." for n in range(1, 140)]
HEADED = [f"{'#' if n % 2 else '###'} Part {n}\n\nParagraph {n}: the parser, the renderer and the layout.\n\n"
          f"```python\nx = {n}\n```\n\n| a | b |\n|---|---|\n| {n} | 2 |" for n in range(1, 60)]
ANSWERS = {
    "tight list": "Steps:\n\n" + "\n".join(ITEMS) + "\n\nThat is all.",
    "loose list": "Steps:\n\n" + "\n\n".join(ITEMS) + "\n\nThat is all.",
    "headings, code and tables": "\n\n".join(HEADED),
}


def _tops(segments, parent) -> list[tuple[str, float]]:
    """Each line of text shown (blocks with words), and how far below the first it is, in pixels."""
    tops = []
    for seg in segments:
        layout, block = seg.document().documentLayout(), seg.document().begin()
        while block.isValid():
            if block.text().strip():
                tops.append((block.text(), seg.mapTo(parent, QPoint(0, 0)).y() + layout.blockBoundingRect(block).top()))
            block = block.next()
    return [(text, top - tops[0][1]) for text, top in tops]


@pytest.mark.parametrize("text", ANSWERS.values(), ids=ANSWERS.keys())
def test_an_answer_cut_into_segments_is_laid_out_as_it_is_uncut(qtbot, text):
    answer = AnswerWidget()
    qtbot.add_widget(answer)
    answer.resize(900, 700)
    answer.show()
    answer.begin()
    for at in range(0, len(text), 8):
        answer.append_text(text[at:at + 8])
        answer._render_step()
    answer.flush()
    answer.layout().activate()
    assert len(answer.segments()) > 2  # cut at least twice
    whole = MarkdownSegment()
    qtbot.add_widget(whole)
    whole.resize(answer.segments()[0].width(), 100)
    whole.show()
    whole.set_markdown(text)
    assert _tops(answer.segments(), answer) == _tops([whole], whole)


def _item_gaps(answer) -> set[float]:
    tops = [top for text, top in _tops(answer.segments(), answer) if text.startswith("Step number")]
    return {round(below - above, 1) for above, below in zip(tops, tops[1:])}


def test_a_long_tight_list_streamed_and_reopened_has_its_items_evenly_apart(make_window, server, qloop):
    server.queue(Stream(tokens(ANSWERS["tight list"], 12)))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "the steps")) == "done"
    answer = win.view.answers()[-1]
    answer.layout().activate()
    gaps = _item_gaps(answer)
    assert len(answer.segments()) > 1 and len(gaps) == 1  # one line apart, at a cut too
    chat = win.chat_id
    win.new_chat()
    win.open_chat(chat)
    qloop.run(wait_until(lambda: not win.loading and win.view.answers()))
    reopened = win.view.answers()[-1]
    reopened.layout().activate()
    assert len(reopened.segments()) > 1 and _item_gaps(reopened) == gaps
