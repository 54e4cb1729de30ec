"""A long code block that the streaming view cut into pieces (to keep each render cheap) is one box once the
answer is whole: one header, one Copy code for all of it, one sideways scroll; also when stopped and when
the chat is opened again. A block with a Go run in a piece, or too long to render again at once, stays cut."""

from __future__ import annotations

from tinyrag_desktop.chats import StoredMessage
from tinyrag_desktop.engine.events import Done
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui import answer_cuts
from tinyrag_desktop.ui.answer import AnswerWidget

from .conftest import tokens

CODE = "".join(f"    result_{i} = compute(argument_one_{i}, argument_two_{i}, argument_three_{i})  # {i}\n"
               for i in range(115))  # about 10,000 characters: cut in three while it streams
TEXT = f"Here it is:\n\n```python\n{CODE}```\n\nThat is all.\n"


def streamed(qtbot, text: str = TEXT, size: int = 80, **kwargs) -> AnswerWidget:
    """An AnswerWidget that was given ``text`` in pieces of ``size`` characters, each rendered."""
    answer = AnswerWidget(**kwargs)
    qtbot.add_widget(answer)
    answer.resize(600, 800)
    answer.begin()
    for piece in tokens(text, size):
        answer.append_text(piece)
        answer.flush()
    return answer


def code_segments(answer: AnswerWidget):
    return [s for s in answer.segments() if s.code_blocks()]


def test_the_pieces_are_one_block_when_the_answer_is_done(qtbot) -> None:
    answer = streamed(qtbot)
    assert len(code_segments(answer)) >= 3  # cut while streaming
    answer.finish(Done(1, 0, 10))
    (seg,) = code_segments(answer)
    assert seg.code_blocks() == (CODE,)
    assert seg.toPlainText().count("Copy code") == 1
    assert seg.copy_code(0) == CODE
    assert seg.toPlainText().count("Copied ✓") == 1 and "Copy code" not in seg.toPlainText()  # the one link says so
    assert answer.content() == TEXT
    assert [s.markdown() for s in answer.segments() if s.isVisibleTo(answer)][-1].endswith("That is all.\n")


def test_a_stopped_answer_and_a_stored_one_join_too(qtbot) -> None:
    answer = streamed(qtbot, TEXT[: len(TEXT) // 2 + 3000])
    answer.stop(100)
    (seg,) = code_segments(answer)
    shown = seg.code_blocks()[0].rstrip()
    assert CODE.startswith(shown) and len(shown) > 6000
    stored = AnswerWidget.from_stored(StoredMessage(1, "assistant", TEXT, stats={"rounds": 1}))
    qtbot.add_widget(stored)
    assert [s.code_blocks() for s in code_segments(stored)] == [(CODE,)]


def test_a_block_with_a_go_run_or_too_long_to_render_again_stays_cut(qtbot, monkeypatch) -> None:
    monkeypatch.setattr(answer_cuts, "JOIN_MOST", 5000)
    answer = streamed(qtbot)
    pieces = len(code_segments(answer))
    answer.finish(Done(1, 0, 10))
    assert len(code_segments(answer)) == pieces
    monkeypatch.undo()
    settings = defaults().replace(allow_nanogo=True)
    go = streamed(qtbot, TEXT.replace("```python", "```go"), settings=lambda: settings)
    cut = code_segments(go)
    cut[-1]._runs = object()  # as run_go leaves it: the run's output is shown under that piece
    go.finish(Done(1, 0, 10))
    assert code_segments(go) == cut


def test_a_block_whose_first_line_is_longer_than_a_piece_has_no_empty_box_above_it(qtbot) -> None:
    # A minified script's one line: the cut went right after the block's fence, an empty box with its own
    # "js Copy code" above the block, streamed or stored (too long to be joined again).
    line = "const x = [" + ",".join(str(i) for i in range(3000)) + "];"
    text = f"A long code line:\n\n```js\n{line}\nconsole.log(x)\n```\n\nEnd."
    live = streamed(qtbot, text, size=25)
    live.finish(Done(1, 0, 10))
    stored = AnswerWidget.from_stored(StoredMessage(1, "assistant", text, stats={"rounds": 1}))
    qtbot.add_widget(stored)
    for answer in (live, stored):
        blocks = [block for seg in code_segments(answer) for block in seg.code_blocks()]
        assert blocks[0].startswith("const x = [0,1,2") and "" not in blocks
        assert "".join(blocks) == f"{line}\nconsole.log(x)\n"
