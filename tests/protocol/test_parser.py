"""The streaming parser: every rule of the spec, fed whole, one character at a time, and in pieces."""

from __future__ import annotations

import pytest

from tinyrag_desktop.protocol import block as block_module
from tinyrag_desktop.protocol.block import CLOSE
from tinyrag_desktop.protocol import (
    InvalidBlock, ParserFinished, TextChunk, ToolCall, XMLParseState, inside_at, parse_all,
)


def feed_in(text: str, size: int) -> list:
    state = XMLParseState()
    events = []
    for i in range(0, len(text), size):
        events += state.feed(text[i : i + size])
    return events + state.finish()


def normal(events: list) -> list:
    """Merge adjacent text so results can be compared across cuttings."""
    out: list = []
    for ev in events:
        if isinstance(ev, TextChunk) and out and isinstance(out[-1], TextChunk):
            out[-1] = TextChunk(out[-1].text + ev.text)
        else:
            out.append(ev)
    return out


def parse_every_way(text: str) -> list:
    whole = normal(parse_all(text))
    for size in (1, 2, 3, 4, 7, 16):
        events = feed_in(text, size)
        assert "".join(e.raw for e in events) == text
        assert normal(events) == whole, f"cut into {size}-character pieces"
    return whole


def calls(events: list) -> list[tuple[str, str, str]]:
    return [(e.name, e.param, e.content) for e in events if isinstance(e, ToolCall)]


def invalid(events: list) -> list[str]:
    return [e.reason for e in events if isinstance(e, InvalidBlock)]


@pytest.mark.parametrize(
    "block, expected",
    [
        ('<tool name="rag_knowledge"><query>product return policy</query></tool>',
         ("rag_knowledge", "query", "product return policy")),
        ('<tool name="url_fetch"><url>https://example.com/docs/api</url></tool>',
         ("url_fetch", "url", "https://example.com/docs/api")),
        ('<tool name="nanogo"><source>fmt.Println(2 + 2)</source></tool>', ("nanogo", "source", "fmt.Println(2 + 2)")),
        ('<tool name="websearch"><query>tinyRAG streaming architecture</query></tool>',
         ("websearch", "query", "tinyRAG streaming architecture")),
        ('<tool name="calculate"><query>3 * (17 + 5) / 2</query></tool>', ("calculate", "query", "3 * (17 + 5) / 2")),
        ('<tool name="wikipedia"><query>Retrieval-augmented generation</query></tool>',
         ("wikipedia", "query", "Retrieval-augmented generation")),
    ],
)
def test_the_spec_examples_are_tool_calls(block: str, expected: tuple) -> None:
    events = parse_every_way(f"Let me check. {block} Done.")
    assert calls(events) == [expected]
    assert [e.raw for e in events if isinstance(e, ToolCall)] == [block]
    assert events[0] == TextChunk("Let me check. ")
    assert events[-1] == TextChunk(" Done.")


def test_whitespace_attributes_and_single_quotes_are_accepted() -> None:
    text = "<tool  name='calculate'  id=\"1\" >\n  <query>\n 1+1 \n</query>\n</tool>"
    assert calls(parse_every_way(text)) == [("calculate", "query", "1+1")]


def test_entities_and_cdata_are_decoded() -> None:
    text = (
        '<tool name="calculate"><query>2 &lt; 3 &amp;&amp; &#65;&#x42; &bogus; &</query></tool>'
        '<tool name="nanogo"><source><![CDATA[if a < b && c > d { x := "&lt;" }]]></source></tool>'
    )
    assert calls(parse_every_way(text)) == [
        ("calculate", "query", "2 < 3 && AB &bogus; &"),
        ("nanogo", "source", 'if a < b && c > d { x := "&lt;" }'),
    ]


def test_raw_less_than_is_allowed_in_source() -> None:
    go = 'for i := 0; i < 3; i++ {\n\tif i<<1 > 2 { fmt.Println("<x>", i) }\n}'
    text = f'<tool name="nanogo"><source>{go}</source></tool>'
    assert calls(parse_every_way(text)) == [("nanogo", "source", go)]


@pytest.mark.parametrize(
    "text, reason",
    [
        ('<tool name=""><query>x</query></tool>', "no name"),
        ('<tool id="1"><query>x</query></tool>', "no name"),
        ('<tool name="calculate"><query>   </query></tool>', "empty"),
        ('<tool name="calculate"></tool>', "no content element"),
        ('<tool name="calculate"/>', "no content element"),
        ('<tool name="calculate"><query/></tool>', "empty"),
        ('<tool name="calculate"><expr>1</expr></tool>', "unknown inner element <expr>"),
        ('<tool name="calculate"><query>1</tool>', "not closed"),
        ('<tool name="a"><query><tool name="b"><query>x</query></tool></query></tool>', "nested"),
        ('<tool name="a"><tool name="b"><query>x</query></tool></tool>', "nested"),
    ],
)
def test_invalid_blocks_are_text_with_a_reason(text: str, reason: str) -> None:
    events = parse_every_way(f"a {text} b")
    assert calls(events) == []
    (bad,) = [e for e in events if isinstance(e, InvalidBlock)]
    assert reason in bad.reason
    assert bad.raw == text


def test_nested_block_does_not_run_the_inner_one() -> None:
    text = '<tool name="a"><query><tool name="calculate"><query>1+1</query></tool></query></tool> after'
    events = parse_every_way(text)
    assert calls(events) == []
    assert events[-1] == TextChunk(" after")


def test_the_words_tool_in_a_programs_text_are_no_nested_block() -> None:
    # 'fmt.Println("ok <tool ")' counted as a nested block: the Go call and the one after it never ran, and
    # the rest of the answer was one block "not closed with </tool>".
    text = ('<tool name="nanogo"><source>fmt.Println("ok <tool ")\nfmt.Println("<tool  \n(")</source></tool> then '
            '<tool name="calculate"><query>2+2</query></tool> end')
    events = parse_every_way(text)
    assert calls(events) == [("nanogo", "source", 'fmt.Println("ok <tool ")\nfmt.Println("<tool  \n(")'),
                             ("calculate", "query", "2+2")]
    assert events[-1] == TextChunk(" end")
    # a tag after it still is one, however it is spaced, and only the block holding it is refused
    for inner in ('<tool  name="b">', '<tool \n>', "<tool />"):
        text = f'<tool name="a"><query>x {inner}<query>y</query></tool> z</query></tool> <tool name="c"><query>1</query></tool>'
        events = parse_every_way(text)
        assert invalid(events) == ["nested <tool> blocks are not supported"], inner
        assert calls(events) == [("c", "query", "1")], inner


def test_spaces_after_an_inner_tool_are_read_the_same_however_the_stream_is_cut() -> None:
    # Cut right after exactly 64 spaces, a nested tag was taken for text (a call ran that whole was refused).
    for spaces in (63, 64, 65):
        text = (f'<tool name="a"><query>x <tool {" " * spaces}name="b"><query>y</query></tool> z</query></tool> '
                '<tool name="c"><query>1</query></tool>')
        events = parse_every_way(text)
        assert calls(events) == [("c", "query", "1")] or spaces > 64, spaces


def test_unterminated_block_is_invalid_at_end_of_stream() -> None:
    text = 'Result: <tool name="calculate"><query>1 + 1</query>'
    events = parse_every_way(text)
    assert calls(events) == []
    assert invalid(events) == ["the block was not closed with </tool> before the end"]


def test_partial_block_never_executes_before_its_close() -> None:
    state = XMLParseState()
    text = '<tool name="calculate"><query>1 + 1</query></tool'
    for ch in text:
        assert not any(isinstance(e, ToolCall) for e in state.feed(ch))
    assert calls(state.feed(">")) == [("calculate", "query", "1 + 1")]


def test_prose_that_mentions_tool_is_released_without_waiting() -> None:
    state = XMLParseState()
    out = state.feed('Use the <tool name="x"> element, then write ')
    # a start tag with no <query> after it may still be a call written wrong, up to its </tool>: it waits
    # only to the end of its paragraph
    out += state.feed("it.\n\nNext")
    assert "".join(e.raw for e in out) == 'Use the <tool name="x"> element, then write it.\n\nNext'
    assert invalid(out) == ["the block has no content element: its text must be inside <query>, <url> or <source>"]
    assert [e.raw for e in out if isinstance(e, InvalidBlock)] == ['<tool name="x"> ']
    state = XMLParseState()
    assert "".join(e.raw for e in state.feed("a <toolbox and <tools")) == "a <toolbox and <tools"


def test_plain_text_is_released_at_once_and_only_a_tool_prefix_is_held() -> None:
    state = XMLParseState()
    assert state.feed("Hello, ") == [TextChunk("Hello, ")]
    assert state.feed("a < b and <t") == [TextChunk("a < b and ")]
    assert state.feed("o") == []
    assert state.feed("p") == [TextChunk("<top")]
    assert state.feed("<") == []
    assert state.finish() == [TextChunk("<")]


def test_a_comments_start_or_end_cut_by_the_stream_is_released_and_still_read() -> None:
    # "<!-" and a comment's "-" were held back like "<to", though they can never become "<tool "
    call = '<tool name="calculate"><query>1+1</query></tool>'
    state = XMLParseState()
    assert state.feed("a <!") == [TextChunk("a <!")]
    assert state.feed("-") == [TextChunk("-")]
    assert state.feed(f"- {call} -") == [TextChunk(f"- {call} -")]  # in the comment: text
    assert state.feed("-") == [TextChunk("-")]
    assert state.feed(f"> {call}") == [TextChunk("> "), ToolCall("calculate", "query", "1+1", call)]
    assert state.feed("<!-") == [TextChunk("<!-")]
    assert state.feed(f"x {call}") == [TextChunk("x "), ToolCall("calculate", "query", "1+1", call)]
    assert state.feed("<!-") == [TextChunk("<!-")]
    assert state.finish() == []


@pytest.mark.parametrize(
    "wrapper",
    [
        "```\n{b}\n```",
        "```xml\n{b}\n```",
        "~~~\n{b}\n~~~",
        "  ````\n```\n{b}\n````",
        "`{b}`",
        "``{b}``",
        "Some `code with {b} inside` here",
        # fences in list items, indented by the item's marker: a blank line in the code ended what was read
        # as an inline span, and the block ran
        "1. Run it:\n\n    ```python\n    x = 1\n\n    {b}\n    ```",
        "10. Run it:\n\n     ```\n     x\n\n     {b}\n     ```",
        "- a\n    - nested:\n\n      ~~~\n      x\n\n      {b}\n      ~~~",
        "\t```\n\tx\n\n\t{b}\n\t```",
        # a fence line the code writes, further in than the opening line, is code, not the fence's end
        '```python\nout = """\n    ```\n"""\nexample = \'{b}\'\n```',
        "```bash\ncat <<EOF\n    ```\nEOF\necho '{b}'\n```",
        "1. x\n\n    ```\n    y\n        ```\n\n    {b}\n    ```",
    ],
)
def test_blocks_in_code_are_text(wrapper: str) -> None:
    block = '<tool name="calculate"><query>1+1</query></tool>'
    events = parse_every_way("Example:\n" + wrapper.format(b=block) + "\n")
    assert calls(events) == []
    assert invalid(events) == []


def test_blocks_after_code_run_again() -> None:
    block = '<tool name="calculate"><query>1+1</query></tool>'
    text = f"```go\nx := `raw`\n```\nThen {block} and `inline` then {block}"
    assert len(calls(parse_every_way(text))) == 2
    listed = f"1. Code:\n\n    ```\n    x\n\n    ```\n\nThen {block}"  # a list item's fence, closed
    assert calls(parse_every_way(listed)) == [("calculate", "query", "1+1")]


@pytest.mark.parametrize("text", [
    "Para.\n\n    {b}\n\nB",  # after a blank line
    "    {b}",  # at the start
    "\t{b}\n",  # a tab is four columns
    "  \t{b}",
    "Code:\n\n    x = 1\n\n    {b}\n",  # the block goes on over a blank line
    "# Heading\n    {b}",  # a heading is no paragraph
    "1. a\n\n       {b}",  # four columns past the item's text: code in the item
    "- a\n\n      {b}",
    "Code:\n\n    ```\n    {b}\n",  # a fence in indented code is code
])
def test_blocks_in_an_indented_code_block_are_text(text: str) -> None:
    block = '<tool name="calculate"><query>1+1</query></tool>'
    events = parse_every_way(text.format(b=block))
    assert calls(events) == [] and invalid(events) == []


@pytest.mark.parametrize("text", [
    "Para.\n    {b}",  # a paragraph's next line, however far in
    "- a\n\n    {b}",  # the list item's second paragraph (CommonMark): no code
    "1. a\n\n    {b}",
    "- a\n  - b\n\n      {b}",  # in the nested item
    "- a\nlazy\n\n    {b}",  # a lazy line is still the item's
    "Code:\n\n    x\nback in text {b}",  # the first line less far in ends the code
    "Code:\n\n    x\n\n   {b}",  # three spaces: no code
])
def test_blocks_indented_but_not_in_code_run(text: str) -> None:
    block = '<tool name="calculate"><query>1+1</query></tool>'
    assert calls(parse_every_way(text.format(b=block))) == [("calculate", "query", "1+1")]


def test_an_indented_block_is_text_and_the_next_one_in_text_runs() -> None:
    block = '<tool name="calculate"><query>1+1</query></tool>'
    text = f"Para.\n\n    {block}\n\nThen {block}"
    events = parse_every_way(text)
    assert calls(events) == [("calculate", "query", "1+1")]
    assert isinstance(events[0], TextChunk) and events[0].text == f"Para.\n\n    {block}\n\nThen "
    indented = "an indented code block (lines four spaces in)"
    assert [inside_at(text, k) for k in (0, 11, text.rindex("<"))] == ["", indented, ""]


def test_an_unclosed_backtick_ends_at_a_blank_line() -> None:
    block = '<tool name="calculate"><query>1+1</query></tool>'
    assert calls(parse_every_way(f"it's a ` tick\n\n{block}")) == [("calculate", "query", "1+1")]
    assert calls(parse_every_way(f"it's a ` tick\nstill code {block} until ` here")) == []


@pytest.mark.parametrize("text, runs", [
    ("Let`s compute {b}", 1),  # the reviewer's j1: never closed, so no span (CommonMark): the call runs
    ("The key ` is unused. Now {b}\n\nDone.", 1),  # j2: its paragraph ends first
    ("a ` b\n{b}\nc", 1),
    ("a `` b {b} ` c", 1),  # a run of another length closes nothing
    ("`{b}`", 0),  # closed after it: code
    ("a ` b {b}\nc ` d", 0),  # closed on a later line of its paragraph
    ("``{b}``", 0),
    ("a ` {b} {b} `", 0),  # all held in it is code
    ("a ` {b} {b}", 2),
    ("a ` {b} ` then {b}", 1),  # closed: what follows is text again
    ('a ` <tool name="nanogo"><source>s := `x`</source></tool>', 0),  # closed inside the block: no block
    ('` <tool name="nanogo"><source>a\n\n`</source></tool>', 1),  # the block's blank line ended the paragraph
    ("a ` <tool nam ` {b}", 1),  # a block that fails in the span is text with it
    ("Let`s see {b} " + "word " * 70 + "` c", 0),  # closed 350 characters after the call: still code
    ("Let`s see {b} " + "word " * 90 + "` c", 1),  # 450: too far, the span was none and the call runs
    ("a ` {b} " + "word " * 90 + "` {b} `", 1),  # the late run opens a span of its own, closed: code
    ("a ` {b} " + "word " * 60 + "{b} `", 0),  # a second call held, its span closed before the bound
    ("a ` {b} " + "word " * 75 + "{b} `", 2),  # the second call ends past it: the run after it is too late
    # A run no later run closes is literal, and a later run may open a span (CommonMark), whatever their lengths.
    ("Here`s the syntax: ``{b}`` ok", 0),
    ("a `` x ` y {b} ` z", 0),  # "``" is never closed: the span is "` y … `"
    ("a ` {b} ``b {b}`` c", 1),  # the first call is in no span, the second in "``b …``"
    ("a ` x ``{b} ` y ``", 0),  # the first run is closed after the call: "``" is in its span
    ("a ` x `` <tool name=\"nanogo\"><source>s := ``y``</source></tool>", 0),  # closed inside the block
])
def test_a_backtick_never_closed_is_no_code_span_and_the_block_after_it_runs(text: str, runs: int) -> None:
    block = '<tool name="calculate"><query>1+1</query></tool>'
    events = parse_every_way(text.format(b=block))
    assert len(calls(events)) == runs and invalid(events) == []


@pytest.mark.parametrize("text, runs", [
    # A line that starts a block ends the paragraph, as a blank line does: the runs before it were literal.
    ("It`s the ``` marker that starts a fence. {b}\n```go\nfmt.Println(2)\n```\n", 1),  # the reviewer's f1
    # ...but a bare ``` line as long as a run kept closes it: a fence begun at the end of a line of text, round a
    # call, is code to the model that wrote it (rule 5), though CommonMark opens a fence at the second ```
    ("Don`t put ``` around a call: {b}\n```\nexample\n```", 0),
    ("Some text. ```\n{b}\n```\n", 0),  # found by tests/engine/test_tool_writing.py's hypothesis test
    ("Some text. ```xml\n{b}\n```\nAfter it: {b}", 1),
    ("Here: ```\n{b}\n   ```  \n{b}", 1),
    ("Here: ````\n{b}\n```\n{b}", 1),  # not as long: a fence, ending the paragraph
    ("Use a ``` fence: {b}\n```go\nx\n```", 1),
    ("- It`s in ``x\n- Next:\n{b} and ``y`` is the result.", 1),  # f1b: another list item
    ("1.``y``\n- ````y``\n- \n{b} ``y``", 1),
    ("# It`s ``x\n{b} and ``y``", 1),  # a heading is one line
    ("> ## It`s ``x\n{b} and ``y``", 1),  # in a quote too
    ("- ## It`s ``x\n{b} and ``y``", 1),  # and in a list item
    ("> 1. # It`s ``x\n{b} and ``y``", 1),
    ("It`s ``x\n# Title\n{b} and ``y``", 1),
    ("It`s ``x\n> quoted\n{b} and ``y``", 1),
    ("It`s ``x\n1) one\n{b} and ``y``", 1),
    ("It`s ``x\n  * two\n{b} and ``y``", 1),
    ("It`s ``x\n* * *\n{b} and ``y``", 1),  # a thematic break
    ("It`s ``x\n===\n{b} and ``y``", 1),  # a heading's underline
    ("It`s ``x\n~~~ sh `q`\na\n~~~\n{b} and ``y``", 1),
    ("Here`s how:\n```sh\necho `date`\n```\nNow {b} and `x` is set.", 1),  # p1 (b)
    ("It`s:\n~~~\n{b}\n~~~\n", 0),  # p1 (a): in the fence (rule 5)
    ("It`s:\n```\n{b}\n```\n", 0),
    ("It`s {b}\n```", 1),  # a fence at the very end
    # Other lines continue the paragraph ("lazily"), and the span may close on them.
    ("It`s ``x\n{b} and ``y``", 0),
    ("It``s x\n```x` {b} ` and", 0),  # a backtick after ```: no fence but runs, the second one opening a span
    ("It ```x {b} and\n```x` done", 0),  # ...or closing the ``` kept
    ("It`s ``x\n    - deep\n{b} and ``y``", 0),  # four columns in: no block starts
    ("It`s ``x\n-no\n#no\n{b} and ``y``", 0),  # no space after the marker
    ("It`s ``x\n2.5 cups\n{b} and ``y``", 0),
    ("- It`s in ``x\n  {b} and ``y``", 0),  # the item's paragraph goes on
    ("# It`s ``x {b} and ``y``\n", 0),  # in the heading's line
])
def test_a_line_that_starts_a_block_ends_what_may_be_a_code_span(text: str, runs: int) -> None:
    block = '<tool name="calculate"><query>1+1</query></tool>'
    events = parse_every_way(text.format(b=block))
    assert len(calls(events)) == runs
    assert "".join(e.raw for e in events) == text.format(b=block)


def test_a_block_in_what_may_be_a_code_span_is_held_until_that_is_known() -> None:
    block = '<tool name="calculate"><query>1+1</query></tool>'
    state = XMLParseState()
    assert state.feed("Let`s compute ") == [TextChunk("Let`s compute ")]
    assert state.feed(block[:-1]) == [] and state.open_block is None  # not shown as a call being written
    assert state.feed(block[-1] + " and more") == []  # whole, but maybe code: held with what follows
    assert state.feed("\n\nNext") == [ToolCall("calculate", "query", "1+1", block), TextChunk(" and more\n\nNext")]
    state = XMLParseState()
    state.feed("Let`s " + block)
    assert state.finish() == [ToolCall("calculate", "query", "1+1", block)]  # the stream's end: no span
    state = XMLParseState()
    state.feed("Let`s " + block)
    assert state.feed("`") == [] and state.finish() == [TextChunk(block + "`")]  # a run at the end closes it


@pytest.mark.parametrize("text", [
    "``<tool > `` is how a call starts, and more text follows.",
    "- ``<tool > `` is how a call starts, and more text follows.",
    'Write `<tool name="calculate"><query>` first, then the query.',
])
def test_a_block_begun_in_a_code_span_closed_on_its_line_is_text_at_the_closing_run(text: str) -> None:
    # Fed in pieces, the block begun in "``<tool > ``" was held until it ended, and the text after the span
    # with it: up to the paragraph's end, or the answer's. Fed whole, the span was passed over at once.
    block = '<tool name="calculate"><query>1+1</query></tool>'
    for size in (1, 3, len(text)):
        state = XMLParseState()
        shown = [e for i in range(0, len(text), size) for e in state.feed(text[i : i + size])]
        assert "".join(e.raw for e in shown) == text and not state.open_raw(), size
        assert state.feed("\n" + block) == [TextChunk("\n"), ToolCall("calculate", "query", "1+1", block)]


def test_text_held_after_a_call_in_what_may_be_a_code_span_streams_again_after_400_characters() -> None:
    # It was held to the paragraph's end: a model writing one long paragraph after "Let`s compute <tool …>"
    # showed nothing more for as long, and the call ran only then.
    block = '<tool name="calculate"><query>1+1</query></tool>'
    words = "and then some more words. " * 60
    text = f"Let`s compute {block} {words}\n\nNext."
    state = XMLParseState()
    fed, events, ran_at, shown = 0, [], -1, []
    for i in range(0, len(text), 4):
        fed += len(text[i : i + 4])
        got = state.feed(text[i : i + 4])
        events += got
        if ran_at < 0 and any(isinstance(e, ToolCall) for e in got):
            ran_at = fed
        if ran_at >= 0:
            shown.append("".join(e.text for e in got if isinstance(e, TextChunk)))
    events += state.finish()
    after = len(f"Let`s compute {block}")
    assert after + 400 <= ran_at <= after + 404  # run once 400 characters followed it, not at the blank line
    assert all(shown[1:-1])  # and from then on each piece of text shows as it comes
    assert normal(events) == parse_every_way(text)
    assert normal(events) == [TextChunk("Let`s compute "), ToolCall("calculate", "query", "1+1", block),
                              TextChunk(f" {words}\n\nNext.")]


def test_a_second_call_held_past_the_bound_is_released_when_it_ends() -> None:
    # The bound comes inside a second held block: it cannot run before its </tool>, so the held text waits
    # for that; a backtick in it past the bound closes no span.
    block = '<tool name="calculate"><query>1+1</query></tool>'
    late = '<tool name="nanogo"><source>s := `x`</source></tool>'
    for size in (1, 5, 1000):
        events = feed_in(f"a ` {block} " + "w" * 380 + f" {late} c", size)
        assert [type(e) for e in events if not isinstance(e, TextChunk)] == [ToolCall, ToolCall], size
    events = parse_every_way(f"a ` {block} " + "w" * 340 + f" {late} c")  # its backtick before the bound
    assert calls(events) == []


def test_a_huge_unterminated_block_is_given_up_at_the_limit() -> None:
    text = '<tool name="nanogo"><source>' + "x" * 300 + "</source></tool>"
    state = XMLParseState(max_block_chars=100)
    events = state.feed(text) + state.finish()
    assert "".join(e.raw for e in events) == text
    assert calls(events) == []
    assert "within 100 characters" in invalid(events)[0]


def test_feed_after_finish_is_an_error() -> None:
    state = XMLParseState()
    state.finish()
    with pytest.raises(ParserFinished):
        state.feed("x")


def test_a_block_cut_right_after_its_inner_tag_is_not_mistaken_for_a_new_one() -> None:
    # Found by hypothesis: the block's buffer was empty after compaction, and the fast path for whole
    # blocks took the nested block that followed for a fresh one, dropping the outer block's text.
    nested = '<tool name="a"><query><tool name="b"><query>y</query></tool></query></tool>'
    text = nested * 4
    for cut in range(len(text) + 1):
        state = XMLParseState()
        events = state.feed(text[:cut]) + state.feed(text[cut:]) + state.finish()
        assert "".join(e.raw for e in events) == text, cut
        assert not [e for e in events if isinstance(e, ToolCall)], cut


class _CountingPattern:
    """A compiled pattern that adds up how many characters its searches went over."""

    def __init__(self, pattern) -> None:
        self.pattern, self.scanned = pattern, 0

    def search(self, text: str, pos: int = 0):
        found = self.pattern.search(text, pos)
        self.scanned += (found.end() if found else len(text)) - pos
        return found


@pytest.mark.parametrize("text", [
    "x\n````\n" + "```\n" * 3000,  # a fence never closed, full of lines too short to close it
    "x\n~~~~\n" + "~~~ not closing\n" * 3000,
    "x\n```\n" + "`` x\n" * 3000 + "```\n",  # closed only at the very end
])
def test_a_fence_is_searched_for_its_closing_line_once_per_piece_of_text(text, monkeypatch):
    # Looking for the closing line again after every line that might have been it went over the rest of
    # the text each time: an answer of 3,000 such lines, given whole, took seconds instead of milliseconds.
    import tinyrag_desktop.protocol.markdown_lines as lines_module

    counting = {c: _CountingPattern(p) for c, p in lines_module._CLOSING_LINE.items()}
    monkeypatch.setattr(lines_module, "_CLOSING_LINE", counting)
    events = parse_all(text)
    assert "".join(e.raw for e in events) == text and not any(isinstance(e, ToolCall) for e in events)
    assert sum(p.scanned for p in counting.values()) <= 2 * len(text)


@pytest.mark.parametrize("text, reason", [
    ('<tool name="calculate">2+2</tool>', "the block has no content element"),
    ('<tool name=calculate><query>2+2</query></tool>', "attribute values must be quoted"),
])
def test_a_call_written_wrong_is_one_invalid_block_to_its_close_with_the_real_reason(text, reason) -> None:
    # It ended at its start tag, the rest was text, and the model was told it wrote "other than exactly
    # <tool name=…>" (for the stray </tool>): the real reason was lost, and the window said none.
    for size in (1, 3, len(text) + 8):
        events = feed_in(f"Let me see. {text}\n\nThen more.", size)
        (block,) = [e for e in events if isinstance(e, InvalidBlock)]
        assert block.raw == text and block.reason.startswith(reason)
        assert "".join(e.raw for e in events) == f"Let me see. {text}\n\nThen more."


def test_a_call_written_wrong_does_not_take_in_a_valid_call_after_it() -> None:
    text = '<tool name=x> or rather <tool name="calculate"><query>1+1</query></tool>'
    for size in (1, 2, 5, len(text)):
        events = feed_in(text, size)
        assert [e.raw for e in events if isinstance(e, InvalidBlock)] == ["<tool name="]
        assert calls(events) == [("calculate", "query", "1+1")]


def test_an_end_tag_with_a_space_is_no_close_and_says_so() -> None:
    # the spec runs a block only once "</tool>" is seen; "</tool >" is not it, and the block ends there: what
    # follows streams and a call after it runs (it waited for a "</tool>" to the end of the answer)
    block = '<tool name="calculate"><query>2+2</query></tool >'
    text = block + ' so, again: <tool name="calculate"><query>3+3</query></tool> end'
    for size in (1, 4, len(block), len(text)):
        events = feed_in(text, size)
        assert calls(events) == [("calculate", "query", "3+3")]
        assert [(e.raw, e.reason) for e in events if isinstance(e, InvalidBlock)] == [
            (block, "its end tag has a space in it; it must be exactly </tool>")]
    assert invalid(parse_every_way(block)) == ["its end tag has a space in it; it must be exactly </tool>"]
    state = XMLParseState()
    state.feed('<tool name="calculate"><query>2+2</query></tool  ')  # a ">" may yet come, or a name
    assert invalid(state.finish()) == ["the block was not closed with </tool> before the end"]


AFTER_ELEMENT = ("the block was not closed with </tool> right after </query>: text came first (a block holds one "
                 "element, then its end tag)")


def test_text_after_a_blocks_element_ends_it_there_and_streams_at_once() -> None:
    # After </query> only spaces and </tool> may come. Prose there sent the block looking for a </tool> with no
    # bound: nothing streamed to the end of the answer, and the valid call later on never ran.
    state = XMLParseState()
    out = state.feed('<tool name="calculate"><query>1+1</query> then some prose')
    assert out == [InvalidBlock('<tool name="calculate"><query>1+1</query>', AFTER_ELEMENT),
                   TextChunk(" then some prose")]
    out = state.feed(', and later a valid <tool name="calculate"><query>2+2</query></tool> done')
    assert calls(out) == [("calculate", "query", "2+2")]
    assert out[-1] == TextChunk(" done")
    text = ('<tool name="calculate"><query>1+1</query>\n\nThen <tool name="calculate"><query>2+2</query></tool>'
            '<tool name="a"><query>1</query><query>2</query></tool> b')
    events = parse_every_way(text)
    assert calls(events) == [("calculate", "query", "2+2")]
    assert [e.raw for e in events if isinstance(e, InvalidBlock)] == [
        '<tool name="calculate"><query>1+1</query>', '<tool name="a"><query>1</query>']
    assert invalid(events) == [AFTER_ELEMENT] * 2
    # spaces and line breaks, then </tool>, close it as before
    spaced = '<tool name="calculate"><query>1+1</query> \n\n\t</tool>'
    assert calls(parse_every_way(spaced + "<to")) == [("calculate", "query", "1+1")]
    # an earlier fault is the reason given
    assert invalid(parse_every_way('<tool name=""><query>x</query> and so')) == [
        'the block has no name="…" attribute, or it is empty']


def test_a_block_left_open_before_another_holds_nothing_after_it() -> None:
    # "<tool " after </query> is no nested block (one inside the element is, spec rule 4): the block was left
    # open, and ends there; the call after it runs at once, and the prose after that streams.
    opened = '<tool name="a"><query>x</query>\n'
    call = '<tool name="calculate"><query>1+1</query></tool>'
    prose = "The sum follows from the rules.\n\n" * 130
    state = XMLParseState()
    events = state.feed(opened + call)
    assert calls(events) == [("calculate", "query", "1+1")]  # at once, not after 4,000 characters
    for k in range(0, len(prose), 50):
        events += state.feed(prose[k : k + 50])
    assert "".join(e.raw for e in events) == opened + call + prose  # all out before the stream ends
    assert [(e.raw, e.reason) for e in events if isinstance(e, InvalidBlock)] == [
        ('<tool name="a"><query>x</query>', "the block was not closed with </tool> before the next <tool …> block")]
    assert calls(events) == [("calculate", "query", "1+1")]
    assert calls(parse_every_way(opened + call + prose)) == [("calculate", "query", "1+1")]


def test_a_nested_block_with_blank_lines_in_its_programs_is_still_one_block() -> None:
    go = "x := 1\n\n\nfmt.Println(x)\n" * 20
    text = (f'<tool name="nanogo"><source>{go}<tool name="nanogo"><source>{go}</source></tool>\n\n{go}</source>'
            f'</tool> after <tool name="calculate"><query>1</query></tool>')
    events = parse_every_way(text)
    assert invalid(events) == ["nested <tool> blocks are not supported"]
    assert calls(events) == [("calculate", "query", "1")]
    (bad,) = [e for e in events if isinstance(e, InvalidBlock)]
    assert bad.raw == text[: text.index(" after")]


def test_a_nested_block_is_held_no_further_than_the_block_limit() -> None:
    text = '<tool name="a"><query>x <tool name="b"><query>y</query></tool>' + "z" * 300
    state = XMLParseState(max_block_chars=100)
    events = state.feed(text)
    assert [e.raw for e in events if isinstance(e, InvalidBlock)] == ['<tool name="a"><query>x ']
    assert calls(events) == [("b", "query", "y")]


def _held_while_fed(text: str) -> list[int]:
    """How many characters fed one at a time were not yet out (held) after each."""
    state, out, held = XMLParseState(), 0, []
    for k, ch in enumerate(text):
        out += sum(len(e.raw) for e in state.feed(ch))
        held.append(k + 1 - out)
    return held


def test_prose_that_mentions_a_start_tag_is_held_no_further_than_the_failed_reach() -> None:
    # No element follows the tag: it may yet be a call written wrong, run on to its </tool> (see P_FAILED), so
    # the text after it waits, but not past _FAILED_REACH characters from the tag, not to the paragraph's end.
    start = "To call a tool, write "
    prose = '<tool name="calculate"> followed by the expression in a query element, ' + "then more words " * 300
    held = _held_while_fed(start + prose)
    reach = len(start) + block_module._FAILED_REACH
    assert max(held[: len(start)]) == 0 and held[reach - 2] == reach - 1 - len(start)  # the tag and after: held
    assert max(held[reach + len(CLOSE) :]) == 0  # then released, and streaming at once
    events = parse_all(start + prose)
    assert [e.raw for e in events if isinstance(e, InvalidBlock)] == ['<tool name="calculate"> ']


def test_a_block_held_in_an_invalid_one_is_held_no_further_than_the_nested_reach() -> None:
    # Held while it may be nested (see P_HELD); a </tool> that never comes holds it no further than
    # _NESTED_REACH characters past where the outer block failed.
    opened = '<tool name="calculate">1+1, or rather <tool name="calculate"><query>1+1</query>'
    text = opened + " which is two" * 400
    held = _held_while_fed(text)
    reach = len('<tool name="calculate">') + block_module._NESTED_REACH
    assert held[reach - len(CLOSE) - 1] == reach - len(CLOSE)  # all of it held so far
    assert max(held[reach + len(CLOSE) :]) == 0
    events = parse_all(text)
    assert [e.raw for e in events if isinstance(e, InvalidBlock)] == [
        '<tool name="calculate">', '<tool name="calculate"><query>1+1</query>']
    assert calls(events) == []


def test_another_tag_where_the_element_should_open_does_not_hold_the_answer() -> None:
    # It looked for the block's </tool> counting "<tool ": a call after it made the rest of the answer one block.
    assert [e.raw for e in parse_every_way('a <tool name="x"><b>2+2</b></tool> b') if isinstance(e, InvalidBlock)] \
        == ['<tool name="x"><b>2+2</b></tool>']
    text = '<tool name="x"><a href="u">the docs</a> say\n\nso: <tool name="calculate"><query>1</query></tool> end'
    events = parse_every_way(text)
    assert invalid(events) == ["expected <query>, <url> or <source> inside the block"]
    assert calls(events) == [("calculate", "query", "1")] and events[-1] == TextChunk(" end")
