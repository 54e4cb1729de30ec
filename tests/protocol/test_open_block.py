"""XMLParseState.open_block: the block being written, seen from its start tag on, the same however the stream is cut."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.protocol.test_parser_properties import BROKEN, NOISE, cut, valid_block
from tinyrag_desktop.protocol import PARAMS, InvalidBlock, OpenBlock, ToolCall, XMLParseState

GO = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tif 1 < 2 {\n\t\tfmt.Println(\"<tool \")\n\t}\n}\n"
NANOGO = f'<tool name="nanogo"><source>{GO}</source></tool>'


def states(pieces: list[str]) -> list[OpenBlock | None]:
    """``open_block`` after each piece, and after ``finish``."""
    state = XMLParseState()
    seen = []
    for piece in pieces:
        state.feed(piece)
        seen.append(state.open_block)
    state.finish()
    return seen + [state.open_block]


def test_a_block_is_open_from_its_whole_start_tag_until_its_close() -> None:
    text = "I will check. " + NANOGO + " Done."
    start = text.index("<tool ")
    tag_end = text.index(">", start) + 1
    end = text.index("</tool>") + len("</tool>")
    seen = states(list(text))
    for at, block in enumerate(seen[:-1], start=1):  # after the first `at` characters
        if at < tag_end or at >= end:
            assert block is None, at
            continue
        written = text[start:at]
        param = "source" if "<source>" in written else ""
        program = written.split("<source>", 1)[1].split("</source>")[0] if param else ""  # the call's input so far
        program = program[: program.rfind("<")] if "</source>".startswith(program[program.rfind("<"):]) else program
        lines = program.count("\n") + (program[:1] != "\n") if program else 0
        assert block == OpenBlock("nanogo", param, len(written), written.count("\n") + 1, len(program), lines), at
    assert seen[-1] is None


def test_a_program_of_many_lines_is_counted_as_it_comes() -> None:
    state = XMLParseState()
    state.feed('Here: <tool name="nanogo"><source>')
    assert state.open_block == OpenBlock("nanogo", "source", len('<tool name="nanogo"><source>'), 1)
    state.feed(GO[:30])
    state.feed(GO[30:])
    assert state.open_block.lines == GO.count("\n") + 1
    assert state.open_block.chars == len('<tool name="nanogo"><source>') + len(GO)
    # the program alone: what the card says has been written (it counted the tags too)
    assert (state.open_block.input_chars, state.open_block.input_lines) == (len(GO), GO.count("\n") + 1)
    (call,) = state.feed("</source></tool>")
    assert isinstance(call, ToolCall) and call.name == "nanogo" and state.open_block is None


def test_a_whole_block_in_one_piece_is_never_open() -> None:
    state = XMLParseState()
    state.feed("a " + NANOGO)
    assert state.open_block is None


def test_a_block_that_turns_invalid_is_no_longer_open() -> None:
    state = XMLParseState()
    state.feed('<tool name="calculate">')
    assert state.open_block == OpenBlock("calculate", "", len('<tool name="calculate">'), 1)
    state.feed("<expr>")  # not <query>, <url> or <source>: it will be shown as text
    assert state.open_block is None
    state.feed("1+1</expr></tool>")
    assert state.open_block is None


@pytest.mark.parametrize("text", [
    '<tool name=""><query>',  # no name
    '<tool name="a"><query><tool name="b">',  # nested
    '```\n<tool name="a"><query>x',  # in a fence
    '`<tool name="a"><query>x',  # in a code span
    '<tool name="a" <query>',  # no start tag
    '<tool name="a',  # the start tag not whole yet
    '<tool name="a">text',  # text where an element should be
])
def test_what_is_never_an_open_block(text: str) -> None:
    state = XMLParseState()
    state.feed(text)
    assert state.open_block is None


def test_the_end_of_the_stream_closes_it() -> None:
    state = XMLParseState()
    state.feed('x <tool name="nanogo"><source>package main')
    assert state.open_block is not None
    (*_, invalid) = state.finish()
    assert isinstance(invalid, InvalidBlock) and state.open_block is None


@settings(max_examples=400, deadline=None)
@given(parts=st.lists(st.one_of(NOISE, BROKEN, valid_block().map(lambda b: b[0]), st.just(NANOGO)), max_size=8),
       points=st.lists(st.integers(min_value=0, max_value=10_000), max_size=12))
@example(parts=["a ", NANOGO, " b"], points=list(range(0, 200, 3)))
def test_the_open_block_does_not_depend_on_how_the_stream_is_cut(parts: list[str], points: list[int]) -> None:
    # After any prefix of the stream, however it came, the parser says the same of the block being
    # written as when that prefix came whole; each block seen open ends as a call of the name and element
    # seen, or as text (InvalidBlock), never as plain text or nothing.
    text = "".join(parts)
    state = XMLParseState()
    events: list = []
    seen: dict[int, OpenBlock] = {}  # by where the block starts in the text
    fed = ""
    for piece in cut(text, points):
        events += state.feed(piece)
        fed += piece
        block = state.open_block
        alone = XMLParseState()
        alone.feed(fed)
        assert block == alone.open_block, repr(fed)
        if block is not None:
            start = len(fed) - block.chars
            assert fed.startswith("<tool ", start) and block.lines == fed[start:].count("\n") + 1
            inner = re.search(r"<[A-Za-z_][-\w.]*\s*>", fed[start:].split(">", 1)[1]) if block.param else None
            given = fed[start:].split(">", 1)[1][inner.end():] if inner else ""  # the input so far, to its close
            close = f"</{block.param}>"
            closing = re.compile(rf"</{block.param}[ \t\r\n]*>")  # spaces before ">" allowed, as in XML
            given = closing.split(given, 1)[0] if "<![CDATA[" not in given else given
            tail = given[given.rfind("<"):]
            begun = close.startswith(tail) or re.fullmatch(rf"</{block.param}[ \t\r\n]{{0,63}}", tail)
            if "<" in given and begun and not closing.search(given):
                given = given[: given.rfind("<")]  # its close begun, perhaps
            assert (block.input_chars, block.input_lines) == (
                len(given), given.count("\n") + (given[:1] != "\n") if given else 0)
            assert block.name and block.param in ("", *PARAMS)
            seen[start] = block
    events += state.finish()
    assert state.open_block is None
    assert "".join(e.raw for e in events) == text
    at, ends = 0, {}
    for event in events:
        ends[at] = event
        at += len(event.raw)
    for start, block in seen.items():
        event = ends.get(start)
        assert isinstance(event, (ToolCall, InvalidBlock)), (start, block, events)
        if isinstance(event, ToolCall):
            assert event.name == block.name and block.param in ("", event.param)
