"""An answer whose text came faster than it could be shown renders what is left at its end a step a turn of
the event loop, not all at once: a 470 KB answer with a wide table froze the window 12 s when it ended. Once
all of it is shown it looks as it did when the end rendered everything at once, its cut code block joined."""

from __future__ import annotations

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
