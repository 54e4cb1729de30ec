"""Property tests: random texts with valid and broken blocks, cut at random places."""

from __future__ import annotations

import json
import re
from pathlib import Path
from unittest.mock import patch

from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from tests.protocol.test_parser import normal
from tinyrag_desktop.protocol import block as block_module
from tinyrag_desktop.protocol import InvalidBlock, TextChunk, ToolCall, XMLParseState, parse_all

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"  # copied from shared/fixtures

NOISE = st.text(alphabet="ab <>/=\"'`~\n&;tolqueryname![]CDAT", max_size=40)
SAFE = st.text(alphabet=st.characters(blacklist_characters="<`~&\r", blacklist_categories=("Cs",)), max_size=30)
# Text that writes no Markdown construct around a block after it (a quote, a list item, emphasis, a table row,
# a heading, a link).
PLAIN = st.text(alphabet=st.characters(blacklist_characters="<`~&\r>*_-+.)|#[", blacklist_categories=("Cs",)),
                max_size=30)
NAMES = st.sampled_from(["calculate", "rag_knowledge", "url_fetch", "nanogo", "x_1"])
PARAMS = st.sampled_from(["query", "url", "source"])
CONTENT = st.text(alphabet=st.characters(blacklist_characters="<&\r", blacklist_categories=("Cs",)), max_size=25)


@st.composite
def valid_block(draw):
    name, param = draw(NAMES), draw(PARAMS)
    content = draw(CONTENT.filter(lambda s: s.strip()))
    encoded = content.replace(">", "&gt;") if draw(st.booleans()) else content
    ws = draw(st.sampled_from(["", " ", "\n"]))
    end_ws = draw(st.sampled_from(["", "", " ", "\n "]))  # XML allows spaces before an end tag's ">"
    raw = f'<tool name="{name}">{ws}<{param}>{encoded}</{param}{end_ws}>{ws}</tool>'
    return raw, (name, param, content.strip())


BROKEN = st.sampled_from([
    '<tool name=""><query>x</query></tool>',
    '<tool name="a"><query></query></tool>',
    '<tool name="a"><q>x</q></tool>',
    '<tool name="a"><query>x</tool>',
    '<tool name="a"><query><tool name="b"><query>y</query></tool></query></tool>',
    "<tool nam",
    "<tool <tool ",
    '<tool name="a">text',
    '<tool name="a"/>',
    '<tool name="a">2+2</tool>',  # no element: the invalid block runs to its </tool>
    '<tool name=a><query>x</query></tool>',  # unquoted: the same
    '<tool name="a">x\n\ny</tool>',  # but not past a blank line
    '<tool name="a"><query>x</query></tool >',
    '<tool name="a"><query>x</query> prose',  # text after its element: it ends there
    '<tool name="a"><query>x</query>\n<tool name="b"><query>y</query></tool>',  # nested, left open
    '<tool name="a">x <tool name="b"><query>y</query></tool></tool>',  # nested in one invalid already
    '<tool name=a><tool name="b"><query>y</query></tool> ',  # held in one invalid, then abandoned
    '<tool name="a">2+2</tool >',  # broken, and closed by an end tag with a space: it ends there
    '<tool name=a><query>x</query></tool\n>',
    '<tool name="a"><query>x</tool  >',  # its element never closed: the same
    '<tool name="a">x <tool name="b"><query>y</query></tool></tool >',  # one block, nested
    '<tool name="a">x</tool',
])


def cut(text: str, points: list[int]) -> list[str]:
    points = sorted({p % (len(text) + 1) for p in points})
    pieces, last = [], 0
    for p in points + [len(text)]:
        pieces.append(text[last:p])
        last = p
    return pieces


def run(pieces: list[str]) -> list:
    state = XMLParseState()
    events = []
    for piece in pieces:
        events += state.feed(piece)
    return events + state.finish()




@settings(max_examples=400, deadline=None)
@given(parts=st.lists(st.one_of(NOISE, BROKEN, valid_block().map(lambda b: b[0])), max_size=8),
       points=st.lists(st.integers(min_value=0, max_value=10_000), max_size=12))
def test_lossless_and_independent_of_cutting(parts: list[str], points: list[int]) -> None:
    text = "".join(parts)
    whole = normal(parse_all(text))
    events = run(cut(text, points))
    assert "".join(e.raw for e in events) == text
    assert normal(events) == whole


# Markdown, line by line: runs of backticks or tildes (fences, their closings, runs too short or with
# text after them), indented by spaces or tabs (as in list items); text with inline spans; blank lines; blocks.
CALC = '<tool name="calculate"><query>1+1</query></tool>'
RUN_LINE = st.builds(
    lambda indent, char, length, after: indent + char * length + after,
    st.sampled_from(["", " ", "   ", "    ", "      ", "\t", " \t", "\t  "]), st.sampled_from("`~"), st.integers(2, 5),
    st.sampled_from(["", " ", "\t", "\r", "go", " x", "`", "x`", "~"]),
)
TEXT_LINE = st.lists(st.sampled_from([
    "a", " b ", "`", "``", "```", "`c`", "``d``", "<b>", "<to", "&lt;", "~", "> ", "**", "_", "<details>", "<br>",
    "<!-- ", " -->", "<!-", "-",
    '<tool name="calculate"><query>1+1</query></tool>', "<tool ", "</tool>",
]), max_size=6).map("".join)
# Lines four columns in or more (indented code, or a paragraph's or a list item's text), list items, headings.
INDENTED_LINE = st.builds(lambda indent, line: indent + line,
                          st.sampled_from(["    ", "\t", "  \t", "      ", "       ", "   "]), TEXT_LINE)
ITEM_LINE = st.builds(lambda marker, line: marker + line, st.sampled_from(
    ["- ", "  - ", "1. ", "10) ", "# ", "    - ", "      * ", "\t1. ", "- - ", "   2. "]), TEXT_LINE)
# A line longer than the parser reads back (markdown_context.WINDOW): a line after it is read without its start.
LONG_LINE = st.builds(lambda marker, line: marker + "word " * 220 + line, st.sampled_from(["", "- ", "    "]),
                      TEXT_LINE)
MARKDOWN = st.builds(
    lambda lines, end: "\n".join(lines) + end,
    st.lists(st.one_of(RUN_LINE, TEXT_LINE, INDENTED_LINE, ITEM_LINE, st.just(""), st.just("  "), LONG_LINE),
             max_size=14),
    st.sampled_from(["", "\n"]),
)


@settings(max_examples=600, deadline=None)
@given(text=MARKDOWN, points=st.lists(st.integers(min_value=0, max_value=10_000), max_size=12))
@example(text=f"x\n```x`\n\n{CALC}\n```\n", points=[])  # a backtick in the info string: no fence
@example(text=f"x\n    ```\n{CALC}\n```\n", points=[])  # four spaces: a fence too (as in a list item)
@example(text=f"x\n```\na\n```\n`b\n````\nc`{CALC}", points=[])  # the first closing line closes it
@example(text=f"x\n~~~~\n~~~\n{CALC}\n~~~~ \r\n{CALC}\n~~~~\n", points=[])  # too short; spaces after
@example(text=f"x\n\n    ```\n{CALC}\n```\n", points=[])  # indented code, then a fence
@example(text=f"- x\n\n    ```\n    {CALC}\n\n      {CALC}", points=[])  # the item's fence
@example(text=f"a ` b {CALC} c\n``d` e\n\n{CALC}`", points=[])  # a span never closed, then one closed
@example(text=f"`{CALC}`", points=[])  # closed on its line, then by a run at the very end
@example(text=f"- <tool \n~~\n- {CALC}", points=[])  # a list item's line after a block broken over lines
@example(text="``\n    ```\n- <b>", points=[])  # a line that may start a block, read at its first backtick or line break
@example(text=f"a ` b\n- <!-- ` --> {CALC} `", points=[])  # (not at a "<" the stream was cut after)
@example(text=f"It`s ```\n```x` {CALC} ```\n~~~\n{CALC}\n", points=[])
@example(text="- ``<tool > ``a", points=[])  # a span closed on its line round a block begun: code at its run
@example(text="``\n``\n- ``<tool > ``a", points=[])
@example(text='a `<tool name="x"><query>` b', points=[])
@example(text=f"- {'word ' * 220}\n\n    - b\n\n      {CALC}", points=[3, 1024, 1110])  # an item past the window
@example(text=f"- b\n      * a\n\n        {CALC}\n- - a\n\n      {CALC}", points=[20])
def test_markdown_reads_the_same_whole_cut_or_a_character_at_a_time(text: str, points: list[int]) -> None:
    # Fed whole, a span closed on its line or a fence closed in the text is passed over at once; a
    # character at a time, every line and run is read on its own. The events must be the same.
    # And where the text leaves the parser (in text, a fence, a span) must be the same too, as that
    # decides what the next piece of the stream is.
    whole = XMLParseState()
    events = whole.feed(text)
    where = _where(whole)
    events = normal(events + whole.finish())
    for pieces in (list(text), cut(text, points)):
        state = XMLParseState()
        parts = [event for piece in pieces for event in state.feed(piece)]
        assert _where(state) == where
        parts += state.finish()
        assert "".join(e.raw for e in parts) == text
        assert normal(parts) == events


def _where(state: XMLParseState) -> tuple:
    mode = state._mode
    fence = (state._fence_char, state._fence_len, state._fence_line) if mode == "FENCE" else ()
    code = state._code_cols if mode == "INDENT" else state._comment_line if mode == "COMMENT" else 0
    span = tuple(length for length, _ in state._spans) if mode == "INLINE" else ()
    return mode, fence, code, span, state._pending_span, state._run_char, state._run_len


def _in_code_span(text: str, at: int) -> bool:
    """Whether ``text[at]`` is in a code span of a one-line paragraph, by CommonMark's rule: a run of backticks
    opens one closed by the next run as long; one no later run closes is literal, and the next run may open."""
    runs = [m.span() for m in re.finditer("`+", text)]
    k = 0
    while k < len(runs):
        start, end = runs[k]
        closing = next((j for j in range(k + 1, len(runs)) if runs[j][1] - runs[j][0] == end - start), None)
        if closing is None:
            k += 1
        elif start < at < runs[closing][0]:
            return True
        else:
            k = closing + 1
    return False


RUNS = st.lists(st.sampled_from(["`", "``", "```", " a ", "b", "x`y"]), max_size=12).map("".join)


@settings(max_examples=400, deadline=None)
@given(before=RUNS, after=RUNS, points=st.lists(st.integers(min_value=0, max_value=10_000), max_size=12))
@example(before="`s: ``", after="`` ok", points=[])
def test_a_block_among_backtick_runs_runs_unless_commonmark_puts_it_in_a_code_span(before, after, points) -> None:
    block = '<tool name="calculate"><query>1+1</query></tool>'
    text = f"Say {before}{block}{after}"
    events = run(cut(text, points))
    expected = [] if _in_code_span(text, text.index(block)) else [("calculate", "query", "1+1")]
    assert [(e.name, e.param, e.content) for e in events if isinstance(e, ToolCall)] == expected
    assert "".join(e.raw for e in events) == text


# Lines of a few paragraphs, each a kind: "text" continues a paragraph (lazily, after a list item or a quote too)
# or starts one; "start" (a list item, a quote) ends the paragraph before it and starts one; "heading" is a block
# of its own line; "break" (a thematic break, a heading's underline), "fence" (a whole fenced block) and a blank
# line end the paragraph. No line is four columns in (no indented code) and no text line starts with ``` (a fence).
LINE = st.one_of(
    st.tuples(st.just("text"), RUNS.map(lambda runs: "Say " + runs)),
    st.tuples(st.just("text"), RUNS.map(lambda runs: "```x`" + runs)),  # a backtick after ```: a run, no fence
    st.tuples(st.just("start"), st.builds(lambda marker, runs: marker + "x" + runs,
                                          st.sampled_from(["- ", "* ", "+ ", "  - ", "1. ", "1) ", "> ", "   > "]), RUNS)),
    st.tuples(st.just("heading"), st.builds(lambda marker, runs: marker + runs, st.sampled_from(["# ", "### "]), RUNS)),
    st.tuples(st.just("break"), st.sampled_from(["---", "***", "_ _ _", "===", "-"])),
    st.tuples(st.just("fence"), st.sampled_from(["```go\necho `date`\n```", "~~~\n`a\n~~~", "``` sh\n``\n```"])),
    st.tuples(st.just("blank"), st.just("")),
)


def _paragraph_with_call(lines: list[tuple[str, str]]) -> tuple[str, int]:
    """The text of the paragraph holding the line "call", and where in it the block starts."""
    paragraph: list[str] = []
    at = -1
    for kind, line in lines:
        if kind in ("start", "heading", "break", "fence", "blank"):
            if at >= 0:
                break
            paragraph = []
        if kind in ("text", "call", "start", "heading"):
            paragraph.append(line)
        if kind == "call":
            at = len("\n".join(paragraph)) - len(line) + line.index(CALC)
        elif kind == "heading":
            paragraph = []
    return "\n".join(paragraph), at


@settings(max_examples=400, deadline=None)
@given(before=st.lists(LINE, max_size=5), call=st.tuples(RUNS, RUNS), after=st.lists(LINE, max_size=4),
       points=st.lists(st.integers(min_value=0, max_value=10_000), max_size=12))
@example(before=[("text", "It`s the ``` marker")], call=("", ""), after=[("fence", "```go\necho `date`\n```")],
         points=[])
@example(before=[("start", "- It`s in ``x"), ("start", "- Next:")], call=("", " and ``y``"), after=[], points=[])
def test_a_block_runs_unless_commonmark_puts_it_in_a_code_span_of_its_paragraph(before, call, after, points) -> None:
    lines = before + [("call", f"Say {call[0]}{CALC}{call[1]}")] + after
    text = "\n".join(line for _, line in lines)
    paragraph, at = _paragraph_with_call(lines)
    events = run(cut(text, points))
    expected = [] if _in_code_span(paragraph, at) else [("calculate", "query", "1+1")]
    assert [(e.name, e.param, e.content) for e in events if isinstance(e, ToolCall)] == expected
    assert "".join(e.raw for e in events) == text


@settings(max_examples=300, deadline=None)
@given(segments=st.lists(st.tuples(PLAIN, valid_block()), max_size=5), tail=SAFE,
       points=st.lists(st.integers(min_value=0, max_value=10_000), max_size=12))
def test_valid_blocks_in_plain_text_are_found_exactly(segments, tail, points) -> None:
    text = "".join(pre + raw for pre, (raw, _) in segments) + tail
    assume(not re.search(r"(?:^|\n)(?: {0,3}\t| {4})", text))  # a line four columns in may be indented code
    events = run(cut(text, points))
    found = [(e.name, e.param, e.content) for e in events if isinstance(e, ToolCall)]
    assert found == [expected for _, (_, expected) in segments]
    assert not [e for e in events if isinstance(e, InvalidBlock)]
    visible = "".join(e.text for e in events if isinstance(e, TextChunk))
    assert visible == "".join(pre for pre, _ in segments) + tail


@settings(max_examples=200, deadline=None)
@given(text=SAFE.filter(lambda s: "\n" not in s), points=st.lists(st.integers(0, 10_000), max_size=10))
def test_text_that_cannot_start_a_block_is_released_at_once(text: str, points: list[int]) -> None:
    state = XMLParseState()
    state.feed("x")
    for piece in cut(text, points):
        assert "".join(e.text for e in state.feed(piece)) == piece


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="ab <!->`\n", max_size=60), points=st.lists(st.integers(0, 10_000), max_size=12))
@example(text="a <!-", points=[])
@example(text="<!-- x --", points=[])
def test_only_a_part_of_a_tool_tag_is_held_back(text: str, points: list[int]) -> None:
    # With no "t", nothing but a "<" at the end may begin "<tool ": a comment's "<!-" or "--" is out at once.
    state = XMLParseState()
    fed = out = ""
    for piece in cut(text, points):
        fed += piece
        out += "".join(e.raw for e in state.feed(piece))
        assert fed[len(out) :] in ("", "<") and fed.startswith(out)


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=200), points=st.lists(st.integers(0, 10_000), max_size=10))
def test_never_raises_on_any_text(text: str, points: list[int]) -> None:
    events = run(cut(text, points))
    assert "".join(e.raw for e in events) == text


def sse_contents(path: Path) -> list[str]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("data: ") and line != "data: [DONE]":
            delta = json.loads(line[6:])["choices"][0]["delta"]
            if delta.get("content"):
                out.append(delta["content"])
    return out


def test_replay_of_the_real_smollm2_tool_call_stream() -> None:
    tokens = sse_contents(FIXTURES / "llamacpp-smollm2-toolcall.sse")
    assert tokens[:3] == ["<", "tool", " name"]  # the split the fixture is about
    events = run(tokens)
    calls = [e for e in events if isinstance(e, ToolCall)]
    assert len(calls) == 1
    assert calls[0].name == "calculate" and calls[0].param == "query"
    assert "".join(e.raw for e in events) == "".join(tokens)


def test_replay_of_the_real_smollm2_plain_stream() -> None:
    tokens = sse_contents(FIXTURES / "llamacpp-smollm2-plain.sse")
    events = run(tokens)
    assert all(isinstance(e, TextChunk) for e in events)
    assert "".join(e.text for e in events) == "".join(tokens)


# Held text: a backtick never closed, a call after it, and text after that going on past the bound the
# held text is kept to (small here, so that random texts reach it, with blocks and runs around it).
HELD_TEXT = st.builds(
    lambda before, rest: before + "`" + rest,
    TEXT_LINE, st.lists(st.one_of(TEXT_LINE, st.just("\n"), st.just(" x y"), st.just(CALC)), max_size=10).map("".join),
)


@settings(max_examples=600, deadline=None)
@given(text=st.one_of(HELD_TEXT, MARKDOWN), held=st.integers(0, 60),
       points=st.lists(st.integers(min_value=0, max_value=10_000), max_size=12))
@example(text=f"a ` {CALC} then ` and {CALC}", held=6, points=[])  # the run at the bound: a new span
@example(text=f"a ` {CALC} t {CALC[:30]}`{CALC[30:]}", held=12, points=[])  # a run in a block past it
@example(text=f"a ` {CALC} t {CALC[:30]}`{CALC[30:]}", held=40, points=[])  # the same, before it: code
@example(text=f"a ` {CALC} t <tool name=\"x\"><query>`", held=9, points=[])  # a block past it never closed
@example(text=f"a ` {CALC}\n   `` `", held=2, points=[])  # a line's spaces, then runs, over the bound
@example(text="``<tool >````<query>``<tool >", held=3, points=[])  # a run on a failed block's line, past the bound
def test_held_text_is_released_at_the_same_place_however_the_stream_is_cut(text, held, points) -> None:
    whole = XMLParseState(max_held_chars=held)
    events = whole.feed(text)
    where = _where(whole), _held_for(whole)
    events = normal(events + whole.finish())
    for pieces in (list(text), cut(text, points)):
        state = XMLParseState(max_held_chars=held)
        parts = [event for piece in pieces for event in state.feed(piece)]
        assert (_where(state), _held_for(state)) == where
        parts += state.finish()
        assert "".join(e.raw for e in parts) == text
        assert normal(parts) == events


def _held_for(state: XMLParseState) -> int:
    """How many more characters the held text may take, past those read (-1: none held, or no bound yet)."""
    return state._held_until - state._fed if state._held_until >= 0 else -1


@settings(max_examples=300, deadline=None)
@given(block=valid_block(), gap=st.sampled_from(["", " ", "\n", "\n\n"]), prose=PLAIN.filter(lambda s: s.strip()),
       after=valid_block(), points=st.lists(st.integers(0, 10_000), max_size=8))
def test_text_after_a_blocks_element_streams_at_once_and_a_call_after_it_runs(block, gap, prose, after, points):
    # Prose where "</tool>" should come held all the text after it, the later call too, to the stream's end.
    raw, _ = block
    opened = raw[: raw.rindex("</tool>")].rstrip()
    prose = gap + prose.lstrip() + " "
    state = XMLParseState()
    events = [event for piece in cut(opened + prose, points) for event in state.feed(piece)]
    assert "".join(e.raw for e in events) == opened + prose
    assert [e.raw for e in events if isinstance(e, InvalidBlock)] == [opened]
    events += state.feed(after[0]) + state.finish()
    assert [(e.name, e.param, e.content) for e in events if isinstance(e, ToolCall)] == [after[1]]


NESTED_PARTS = st.lists(st.one_of(
    st.sampled_from(['<tool name="a"><query>x</query>', '<tool name="a"><source>x\n\ny <tool name="b">',
                     "</tool>", "</source>", "\n\n", "<tool ", "<tool  name='b'>", '<tool name="a">x ',
                     "<tool name=a>", " \n", "</tool >", "</tool", " " * 30, ">", '<tool name="a"><query>x']),
    valid_block().map(lambda b: b[0]), NOISE), max_size=10)


@settings(max_examples=300, deadline=None)
@given(parts=NESTED_PARTS, reach=st.integers(1, 120), failed_reach=st.integers(1, 120),
       points=st.lists(st.integers(0, 10_000), max_size=12))
def test_a_nested_block_ends_at_the_same_place_however_the_stream_is_cut(parts, reach, failed_reach, points) -> None:
    text = "".join(parts)
    with patch.object(block_module, "_NESTED_REACH", reach), patch.object(block_module, "_FAILED_REACH", failed_reach):
        whole = normal(parse_all(text))
        for pieces in (list(text), cut(text, points)):
            events = run(pieces)
            assert "".join(e.raw for e in events) == text
            assert normal(events) == whole


def _run_capped(pieces: list[str], limit: int) -> list:
    state = XMLParseState(max_block_chars=limit)
    events = []
    for piece in pieces:
        events += state.feed(piece)
    return events + state.finish()


@settings(max_examples=300, deadline=None)
@given(parts=NESTED_PARTS, limit=st.integers(20, 200), points=st.lists(st.integers(0, 10_000), max_size=12))
def test_a_block_meets_its_size_limit_at_the_same_place_however_the_stream_is_cut(parts, limit, points) -> None:
    # A block that failed past the limit, read whole, ended where it failed (128 characters over a limit of
    # 100) and cut finer at the limit ("no </tool> within 100 characters"); one that failed just inside it
    # was decided by characters past it, which a finer cut never let it see.
    text = "".join(parts)
    whole = normal(_run_capped([text], limit))
    for pieces in (list(text), cut(text, points)):
        events = _run_capped(pieces, limit)
        assert "".join(e.raw for e in events) == text
        assert normal(events) == whole


@given(tail=st.sampled_from(["", "\n", "\nDone.", " and then I will explain."]),
       points=st.lists(st.integers(0, 200), max_size=6))
def test_a_call_after_a_block_left_open_runs_when_the_answer_ends_soon_after_it(tail, points) -> None:
    # The second block was taken for one nested in the first, which no </tool> closed: at the stream's end
    # within the nesting's reach, all of it was one block "not closed before the end", the valid call not run.
    call = '<tool name="calculate"><query>1+1</query></tool>'
    text = 'Let me see. <tool name="calculate"><query>2*</query>\n' + call + tail
    for pieces in ([text], list(text), cut(text, points)):
        events = run(pieces)
        assert "".join(e.raw for e in events) == text
        assert [e.raw for e in events if isinstance(e, ToolCall)] == [call]
        invalid = [e for e in events if isinstance(e, InvalidBlock)]
        assert [e.raw for e in invalid] == ['<tool name="calculate"><query>2*</query>']
        assert "before the next <tool" in invalid[0].reason
