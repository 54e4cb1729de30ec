"""A Go program that prints a flood: its output is cut at a line's end, with a muted note, not a red one."""

from __future__ import annotations

import re

from PySide6.QtGui import QColor

from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui.answer import AnswerWidget
from tinyrag_desktop.ui.markdown_render import LIGHT, OUTPUT_SHOWN, RunView, render

FLOOD = ('A flood:\n\n```go\npackage main\n\nimport "fmt"\n\nfunc main() {\n\tfor i := 0; i < 5000; i++ {\n'
         '\t\tfmt.Println("number", i)\n\t}\n}\n```\n')


def _colour_of(seg, words: str) -> QColor:
    block = seg.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            if words in frag.text():
                return frag.charFormat().foreground().color()
            it += 1
        block = block.next()
    raise AssertionError(f"{words!r} is not in the segment")


def test_a_flood_is_cut_at_a_line_end_and_the_note_is_muted(qloop, qtbot):
    # It ended in the middle of a line ("number 918\nn"), then said in red, as if the program had failed,
    # "… 48,890 more characters not shown".
    settings = defaults().replace(allow_nanogo=True)
    answer = AnswerWidget(settings=lambda: settings)
    qtbot.add_widget(answer)
    answer.resize(700, 500)
    answer.append_text(FLOOD)
    answer.flush()
    [seg] = [s for s in answer.segments() if s.code_blocks()]
    qloop.run(seg.run_go(0), timeout=60)

    text = seg.toPlainText()
    assert "Output · exit 0" in text
    shown = re.findall(r"^number (\d+)$", text, re.M)
    last = int(shown[-1])
    assert [int(n) for n in shown] == list(range(last + 1))  # whole lines, in order, none cut
    after = text.split(f"number {last}\n", 1)[1]
    rest = "".join(f"number {i}\n" for i in range(last + 1, 5000))  # the newline after the last shown, too
    assert after.startswith(f"… {len(rest):,} more characters not shown")
    assert _colour_of(seg, "more characters not shown") == QColor(LIGHT.muted)
    answer.show()
    qtbot.waitUntil(lambda: seg.width() > 600 and seg.height() > 1000)


def test_the_error_after_a_flood_keeps_its_place_and_its_colour():
    # A panic after a flood of output was cut off altogether: the flood took all the room.
    out = "".join(f"row {i}\n" for i in range(20000))
    row = render("```go\nx\n```\n", run_go=True, runs={0: RunView("x\n", status="panic", output=out,
                                                                   error="panic: boom")}).html
    assert f'<span style="color:{LIGHT.error}">panic: boom</span>' in row
    assert f'<span style="color:{LIGHT.muted}">… ' in row and "more characters not shown" in row
    assert len(row) < OUTPUT_SHOWN * 2


def test_one_endless_line_is_cut_where_it_must_be_and_says_in_characters():
    row = render("```go\nx\n```\n", run_go=True,
                 runs={0: RunView("x\n", status="exit 0", output="y" * (OUTPUT_SHOWN + 5))}).html
    assert "… 5 more characters not shown" in row
