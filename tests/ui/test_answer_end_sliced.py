"""An answer whose text came faster than it could be shown renders what is left at its end a step a turn of
the event loop, not all at once: a 470 KB answer with a wide table froze the window 12 s when it ended. Once
all of it is shown it looks as it did when the end rendered everything at once, its cut code block joined."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tinyrag_desktop.engine.events import Done
from tinyrag_desktop.ui import answer_rendering
from tinyrag_desktop.ui.answer import AnswerWidget

from .conftest import tokens

TABLE = "| id | name | city | score |\n|---|:---|:---:|---:|\n" + "".join(
    f"| {i} | **person** {i} | `town {i % 37}` | {i * 7 % 100} |\n" for i in range(300))
CODE = "".join(f"    result_{i} = compute(argument_one_{i}, argument_two_{i})  # {i}\n" for i in range(150))
TEXT = ("Some words to begin with.\n\n" + TABLE + "\nBetween them.\n\n```python\n" + CODE + "```\n\n"
        + "\n\n".join(f"Paragraph {i}: " + "word " * 60 for i in range(40)) + "\n\nThat is all.\n")


def backlogged(qtbot, text: str = TEXT) -> AnswerWidget:
    """An answer given all of ``text`` before a single render step (it came faster than it was shown)."""
    answer = AnswerWidget()
    qtbot.add_widget(answer)
    answer.resize(700, 800)
    answer.show()
    answer.begin()
    for piece in tokens(text, 64):
        answer.append_text(piece)
    return answer


def shown(answer: AnswerWidget) -> list[tuple[str, str]]:
    return [(s.markdown(), s.document().toPlainText()) for s in answer.segments() if s.isVisibleTo(answer)]


def test_the_end_of_a_backlogged_answer_renders_over_several_loop_turns(qtbot, monkeypatch) -> None:
    monkeypatch.setattr(answer_rendering, "FINISH_BUDGET", float("inf"), raising=False)  # all at once, as the end was
    whole = backlogged(qtbot)
    whole.finish(Done(1, 0, 10))
    assert not whole.building
    expected = shown(whole)
    assert len(expected) > 3  # cut in segments

    monkeypatch.setattr(answer_rendering, "FINISH_BUDGET", 0.0, raising=False)  # finish renders a single step
    answer = backlogged(qtbot)
    answer.render_times = []
    answer.finish(Done(1, 0, 10))
    assert len(answer.render_times) == 1  # the rest on later turns of the loop
    assert answer.building and answer.state == "done"
    assert answer.content() == TEXT  # what Copy, Export and the history read is all there at once
    qtbot.waitUntil(lambda: not answer.building, timeout=20000)
    assert len(answer.render_times) > 3
    assert shown(answer) == expected
    assert sum("```" in md for md, _ in expected) == 1  # the code block one box again


def test_a_slice_ends_before_a_piece_that_would_take_it_past_its_budget(qtbot, monkeypatch) -> None:
    # A slice of 0.1 s and the piece that ended it, some 50 ms of a long code block's, were a step of 0.15 s
    # and more: the window did not answer meanwhile.
    clock = [0.0]
    monkeypatch.setattr(answer_rendering, "time", SimpleNamespace(perf_counter=lambda: clock[0]))
    answer = backlogged(qtbot)
    render = answer._render_step

    def piece() -> None:  # each piece takes 60 ms
        render()
        clock[0] += 0.06

    monkeypatch.setattr(answer, "_render_step", piece)
    assert not answer.build_step(0.1)
    assert clock[0] == pytest.approx(0.06)  # a second piece would have ended at 0.12 s
    assert not answer.build_step(0.13)
    assert clock[0] == pytest.approx(0.18)  # two pieces fit
    assert not answer.build_step(0.0)  # one piece at least, however short the budget
    assert clock[0] == pytest.approx(0.24)
