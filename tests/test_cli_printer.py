"""The `ask` text printer fed engine events directly: any text, cut anywhere, with tool calls ending in any
order (hypothesis)."""

from __future__ import annotations

import io

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tinyrag_desktop.cliprint import TextPrinter
from tinyrag_desktop.engine.events import Done, Text, ToolFinished, ToolStarted

STATUS = ("⟳", "✓")
_pieces = st.text(alphabet="ab .,\n\t", min_size=1, max_size=8)


def _result(call: str) -> ToolFinished:
    return ToolFinished(call, "calculate", "1+1", "calculator", None, 9, "ok", 0, "1+1 = 2")


@st.composite
def answers(draw) -> tuple[list, str]:
    """Events as the engine yields them: text, a block's start where the model wrote it, each call's result
    at some later point; and the text alone."""
    events: list = []
    text: list[str] = []
    waiting: list[str] = []
    for n in range(draw(st.integers(0, 12))):
        if draw(st.booleans()):
            piece = draw(_pieces)
            events.append(Text(piece))
            text.append(piece)
        else:
            events.append(ToolStarted(f"call_{n}", "calculate", "1+1"))
            waiting.append(f"call_{n}")
        while waiting and draw(st.booleans()):
            events.append(_result(waiting.pop(draw(st.integers(0, len(waiting) - 1)))))
    events += [_result(call) for call in waiting]
    return [*events, Done(1, 0, 0)], "".join(text)


@settings(max_examples=300, deadline=None)
@given(answers())
def test_on_one_screen_status_lines_start_lines_and_the_answers_words_stay_whole(answer) -> None:
    events, text = answer
    screen = io.StringIO()
    printer = TextPrinter(screen, screen)
    printer.shared = True  # as a terminal: both streams on one screen
    for event in events:
        printer.show(event)
    lines = screen.getvalue().split("\n")
    assert all(not any(mark in line[1:] for mark in STATUS) for line in lines)
    shown = "\n".join(line for line in lines if not line.startswith(STATUS))
    assert "".join(shown.split()) == "".join(text.split())
    after_status = [lines[n + 1] for n in range(len(lines) - 1) if lines[n].startswith(STATUS)]
    assert all(not line[:1].isspace() for line in after_status)


@settings(max_examples=300, deadline=None)
@given(st.lists(_pieces, min_size=1, max_size=12))
def test_text_without_blocks_reaches_a_file_as_the_model_wrote_it(pieces) -> None:
    # trailing spaces before a line break (a Markdown hard break), indentation, tabs: all kept
    text = "".join(pieces).lstrip("\n") + "x\n"
    out, err = io.StringIO(), io.StringIO()
    printer = TextPrinter(out, err)
    for event in [*(Text(p) for p in [*pieces, "x\n"]), Done(1, 0, 0)]:
        printer.show(event)
    assert out.getvalue() == text and err.getvalue() == ""


def test_a_block_leaves_one_space_and_none_before_a_closing_mark() -> None:
    out, err = io.StringIO(), io.StringIO()
    printer = TextPrinter(out, err)
    events = [Text("It is "), ToolStarted("c1", "calculate", "1+1"), Text(" two, "),
              ToolStarted("c2", "calculate", "2+2"), Text("."), _result("c1"), _result("c2"), Text("  Then\n"),
              Text("  indented "), Done(1, 2, 0)]
    for event in events:
        printer.show(event)
    assert out.getvalue() == "It is two,.  Then\n  indented\n"


@settings(max_examples=200, deadline=None)
@example(width=30, query="ab" * 40, body="x" * 50, note=False, took=2500)
@example(width=36, query="ab" * 40, body="x" * 50, note=True, took=2500)
@example(width=109, query="aaaaaa", body="", note=True, took=2500)  # "→…": its value cut to 3 cells
@example(width=30, query="aaaaaa", body="字x", note=False, took=2500)  # "→…": no room for a wide character
@given(width=st.integers(30, 140), query=st.text(alphabet="ab 漢", min_size=1, max_size=90),
       body=st.text(alphabet="xy 字\n", max_size=300), note=st.booleans(), took=st.sampled_from([0, 2500]))
def test_a_result_line_fits_the_terminal_and_keeps_its_value_and_note(width, query, body, note, took) -> None:
    from tinyrag_desktop.cliprint import _cells

    closing = "[The output was cut at 64 KB: the program printed more, and was stopped there.]"
    result = f"{body}\n\n{closing}" if note else body
    err = io.StringIO()
    printer = TextPrinter(io.StringIO(), err)
    printer.width = width  # as a terminal that wide
    printer.show(ToolStarted("c1", "nanogo", query))
    printer.show(ToolFinished("c1", "nanogo", query, "nanoGo", None, 1, "ok", took, result))
    started, done, *more = err.getvalue().splitlines()
    assert _cells(started) <= width and _cells(done) <= width
    assert done.startswith("✓ nanogo “") and "→ " in done  # the call's input, then its result's start
    assert more == ([f"  {closing}"] if note and closing not in done else [])
