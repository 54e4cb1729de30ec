"""Conformance of the parser to spec/xml-tool-protocol.txt, rule by rule, against a hostile model.

Each test names the spec line it proves. The engine's side of the same rules (limits, duplicates,
timeouts, disabled tools, payloads) is in tests/engine/test_conformance.py.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.protocol.test_parser import calls, invalid, parse_every_way
from tests.protocol.test_parser_properties import BROKEN, NOISE, cut, run, valid_block
from tinyrag_desktop.protocol import InvalidBlock, TextChunk, ToolCall, XMLParseState, parse_all
from tinyrag_desktop.protocol.block import NESTED

BLOCK = '<tool name="calculate"><query>1+1</query></tool>'
CALC = ("calculate", "query", "1+1")
CALC0 = '<tool name="calculate"><query>0</query></tool>'

SPEC_EXAMPLES = [  # spec lines 25-40, verbatim
    '<tool name="rag_knowledge"><query>product return policy</query></tool>',
    '<tool name="url_fetch"><url>https://example.com/docs/api</url></tool>',
    '<tool name="nanogo"><source>fmt.Println(2 + 2)</source></tool>',
    '<tool name="websearch"><query>tinyRAG streaming architecture</query></tool>',
    '<tool name="calculate"><query>3 * (17 + 5) / 2</query></tool>',
    '<tool name="wikipedia"><query>Retrieval-augmented generation</query></tool>',
]


def ends(events: list) -> list[tuple[int, object]]:
    """Each event with the offset in the input where it ends."""
    out, at = [], 0
    for ev in events:
        at += len(ev.raw)
        out.append((at, ev))
    return out


# -- rule 1: detection threshold: "<tool " with its trailing space --------------------------------------


@pytest.mark.parametrize(
    "opening", ["<tool>", "<tool\t", "<tool\n", "<tool/", "<TOOL ", "<Tool ", "<toolx ", "< tool ", "＜tool "]
)
def test_rule1_only_tool_with_a_trailing_space_starts_a_block(opening: str) -> None:
    text = f'{opening}name="calculate"><query>1+1</query></tool> after'
    events = parse_every_way(text)
    assert calls(events) == [] and invalid(events) == []
    assert "".join(e.text for e in events) == text


def test_rule1_tool_with_a_space_is_parsed_even_when_it_is_not_a_block() -> None:
    events = parse_every_way("See <tool name=x> and <tool > here")
    assert len(invalid(events)) == 2 and calls(events) == []


def test_rule1_the_threshold_is_found_whatever_the_cut() -> None:
    text = f"a<{BLOCK}<<tool{BLOCK}<to<tool {BLOCK}"
    for k in range(len(text) + 1):
        state = XMLParseState()
        events = state.feed(text[:k]) + state.feed(text[k:]) + state.finish()
        assert "".join(e.raw for e in events) == text, k
        assert calls(events) == [CALC, CALC, CALC], k  # "<tool <tool name=…": the first is broken text


# -- rule 2: completion threshold: nothing runs before </tool>; everything runs as soon as it is seen ------


@pytest.mark.parametrize("example", SPEC_EXAMPLES)
def test_rule2_no_call_before_the_last_character_of_close_tool(example: str) -> None:
    text = "Before " + example + " after"
    end = text.index("</tool>") + len("</tool>")
    for size in (1, 2, 5):
        state = XMLParseState()
        fed = 0
        for i in range(0, len(text), size):
            piece = text[i : i + size]
            got = [e for e in state.feed(piece) if isinstance(e, ToolCall)]
            fed += len(piece)
            # Never early (partial XML runs nothing), never late (the chunk that completes it yields it).
            assert bool(got) == (fed - len(piece) < end <= fed), (size, fed)


def test_rule2_an_almost_complete_block_is_invalid_at_the_end_of_the_stream() -> None:
    for k in range(len("<tool "), len(BLOCK)):
        events = parse_all("x " + BLOCK[:k])
        assert calls(events) == [], k
        assert len(invalid(events)) == 1 and "".join(e.raw for e in events) == "x " + BLOCK[:k]


@pytest.mark.parametrize("close", ["</tool >", "</TOOL>", "</ tool>", "</tool", "<tool/>", "</tools>"])
def test_rule2_only_the_exact_close_tag_completes_a_block(close: str) -> None:
    events = parse_every_way(f'<tool name="calculate"><query>1+1</query>{close} more text')
    assert calls(events) == []


@settings(max_examples=150, deadline=None)
@given(parts=st.lists(st.one_of(NOISE, BROKEN, valid_block().map(lambda b: b[0])), max_size=6),
       points=st.lists(st.integers(min_value=0, max_value=10_000), max_size=10))
# Held in a block held in a failed one ("<tool A" is one too): the next block shows both abandoned, so the first
# runs then, and the next one as it completes (both waited for the end of the stream, up to 4,000 characters).
@example(parts=['<tool name="a">text', "<tool A", CALC0, CALC0, '<tool name=""><query>x</query></tool>'],
         points=[118])
@example(parts=['<tool name="a">text', '<tool name="b">text', CALC0, "ab", CALC0], points=[])
def test_rule2_each_call_comes_out_of_the_very_chunk_that_completes_it(parts, points) -> None:
    text = "".join(parts)
    expected = [(end, ev) for end, ev in ends(parse_all(text)) if isinstance(ev, ToolCall)]
    state = XMLParseState()
    fed = 0
    seen: list[tuple[int, ToolCall]] = []
    for piece in cut(text, points):
        fed += len(piece)
        seen += [(fed, ev) for ev in state.feed(piece) if isinstance(ev, ToolCall)]
    seen += [(fed, ev) for ev in state.finish() if isinstance(ev, ToolCall)]
    # A call is yielded by the feed that brought its last character: the first feed at or past its end (unless
    # it may be in a code span, see test_parser: then later, when the span is known to be none).
    assert [ev for _, ev in seen] == [ev for _, ev in expected]
    bounds = [0]
    for piece in cut(text, points):
        bounds.append(bounds[-1] + len(piece))
    after_invalid, before = {}, None  # by each call's end: whether the block before it is an invalid one
    for end, ev in ends(parse_all(text)):
        if isinstance(ev, ToolCall):
            after_invalid[end] = isinstance(before, InvalidBlock)
        before = ev if not isinstance(ev, TextChunk) else before
    for (at, _), (end, call) in zip(seen, expected):
        assert at >= end  # never before its </tool>
        if "`" not in text[: end - len(call.raw)]:  # a backtick before it may open a code span: held till known
            # after an invalid block, it may be nested in it: held till what follows shows not (see P_HELD;
            # how long: test_parser's test_a_block_held_in_an_invalid_one_is_held_no_further_than_the_nested_reach)
            assert at == min(b for b in bounds if b >= end) or after_invalid[end]


# -- rule 3: strict validation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ('<tool id="7" name="calculate"><query>1+1</query></tool>', CALC),  # attribute order
        ("<tool name='calculate'><query>1+1</query></tool>", CALC),  # single quotes
        ('<tool   name = "calculate"   ><query>1+1</query></tool>', CALC),  # spaces around =
        ('<tool name="calculate" data-x=\'a"b\'><query>1+1</query></tool>', CALC),  # other quote inside
        ('<tool name="calc&#117;late"><query>1+1</query></tool>', CALC),  # entity in the name
        ('<tool name=" calculate "><query>1+1</query></tool>', CALC),
        ('<tool name="calculate">\r\n  <query>\r\n1+1\r\n</query>\r\n</tool>', CALC),
        ('<tool name="calculate"><query><![CDATA[1+1]]></query></tool>', CALC),
        ('<tool name="calculate"><query>1<![CDATA[+]]>1</query></tool>', CALC),
        ('<tool name="calculate"><query>&#49;&#x2B;1</query></tool>', CALC),
    ],
)
def test_rule3_valid_variations_are_calls(text: str, expected: tuple) -> None:
    assert calls(parse_every_way(f"a {text} b")) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        '<tool name="  "><query>1</query></tool>',
        '<tool name="&#32;"><query>1</query></tool>',
        '<tool NAME="calculate"><query>1</query></tool>',  # XML names are case-sensitive
        "<tool name=calculate><query>1</query></tool>",  # unquoted
        '<tool name="calculate><query>1</query></tool>',  # unbalanced quote
        '<tool name="a>b"><query>1</query></tool>',
        '<tool name="calculate"><query>&#32;&#9;</query></tool>',
        '<tool name="calculate"><query>\u00a0\u2003</query></tool>',  # Unicode spaces only
        '<tool name="calculate"><query><![CDATA[   ]]></query></tool>',
        '<tool name="calculate"><query></query></tool>',
        '<tool name="calculate"><Query>1</Query></tool>',
        '<tool name="calculate"><query lang="en">1</query></tool>',
        '<tool name="calculate">compute <query>1</query></tool>',
        '<tool name="calculate"><query>1</query> done</tool>',
        '<tool name="calculate"><query>1</url></tool>',
        '<tool name="calculate"><!-- c --><query>1</query></tool>',
        '<tool name="calculate" name="shell"><query>1</query></tool>',  # not well-formed XML
        '<tool name="calculate" id="1" id="2"><query>1</query></tool>',
    ],
)
def test_rule3_invalid_blocks_are_visible_text_and_never_calls(text: str) -> None:
    full = f"a {text} b {BLOCK}"
    events = parse_every_way(full)
    assert calls(events)[:-1] == [] and len(invalid(events)) >= 1
    # Visible: every character of the input is in a TextChunk or an InvalidBlock, none is lost or hidden.
    assert "".join(e.raw for e in events if not isinstance(e, ToolCall)) == full.removesuffix(BLOCK)
    assert all(isinstance(e, TextChunk | InvalidBlock) for e in events[:-1])


@pytest.mark.parametrize("end_tag", ["</query >", "</query\n>", "</query \t\r\n >"])
def test_rule3_an_elements_end_tag_may_have_spaces_before_its_bracket(end_tag) -> None:
    # XML's end tag is "</" Name S? ">": "</query >" closes the element (it was "the <query> element is not
    # closed"). "</tool >" is still no close: the spec runs a block once "</tool>" is seen (rule 2).
    events = parse_every_way(f'<tool name="calculate"><query>1+1{end_tag}</tool> after')
    assert calls(events) == [CALC] and events[-1] == TextChunk(" after")
    text = '<tool name="calculate"><query>1+1</queryx> </query x> </query</tool> after'
    assert invalid(parse_every_way(text)) == ["the <query> element is not closed"]


def test_rule3_an_unterminated_cdata_section_holds_to_the_end_and_runs_nothing() -> None:
    text = f'<tool name="calculate"><query><![CDATA[1</query></tool> b {BLOCK}'
    events = parse_every_way(text)
    assert calls(events) == [] and len(invalid(events)) == 1


def test_rule3_a_valid_block_after_an_invalid_one_still_runs() -> None:
    text = f'<tool name=""><query>x</query></tool>{BLOCK}<tool name="a">oops {BLOCK}'
    assert calls(parse_every_way(text)) == [CALC, CALC]


def test_rule3_entities_are_decoded_once_and_non_characters_kept() -> None:
    text = '<tool name="calculate"><query>&amp;lt; &#0; &#xD800; &#x110000; &lt;&gt;&quot;&apos;</query></tool>'
    assert calls(parse_every_way(text)) == [("calculate", "query", "&lt; &#0; &#xD800; &#x110000; <>\"'")]


def test_rule3_cdata_keeps_tool_tags_literal() -> None:
    go = 'fmt.Println("<tool name=\\"x\\"><query>q</query></tool>")'
    text = f'<tool name="nanogo"><source><![CDATA[{go}]]></source></tool>'
    assert calls(parse_every_way(text)) == [("nanogo", "source", go)]


@pytest.mark.parametrize(
    "content", ["ünïcödé", "😀 emoji 🧪", "مرحبا بالعالم", "日本語の検索", "e\u0301\u0308", "\u200bx"]
)
def test_rule3_unicode_content_and_names_survive(content: str) -> None:
    text = f'<tool name="wikipedia"><query>{content}</query></tool><tool name="{content}"><query>q</query></tool>'
    assert calls(parse_every_way(text)) == [("wikipedia", "query", content), (content, "query", "q")]


# -- rule 4: no nested tool tags --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        f'<tool name="a">{BLOCK}</tool>',
        f'<tool name="a"><query>{BLOCK}</query></tool>',
        f'<tool name="a"><query>x {BLOCK} y</query></tool>',
        f'<tool name="a"><query><![CDATA[x]]>{BLOCK}</query></tool>',
    ],
)
def test_rule4_nested_blocks_are_one_invalid_block_and_nothing_runs(text: str) -> None:
    events = parse_every_way(f"{text} after")
    assert calls(events) == []
    (bad,) = [e for e in events if isinstance(e, InvalidBlock)]
    assert bad.raw == text and events[-1] == TextChunk(" after")


def test_rule4_a_block_two_deep_in_failed_ones_runs_only_if_both_were_left_open() -> None:
    held = f'<tool name="a">text <tool name="b">more {BLOCK}'
    assert calls(parse_every_way(f"{held}</tool>\n</tool> after")) == []  # closed around it: nested
    assert calls(parse_every_way(f"{held} after")) == [CALC]
    assert calls(parse_every_way(f"{held}{BLOCK}")) == [CALC, CALC]
    # in the held one's element it is nested in that one, whatever the failed one around it
    events = parse_every_way(f'<tool name="a">text <tool name="b"><query>x {BLOCK} y</query></tool></tool> after')
    assert calls(events) == [] and NESTED in invalid(events)[-1]


def test_rule4_a_block_after_anothers_element_is_no_nested_one_the_first_was_left_open() -> None:
    # Its </tool> forgotten, the first block ends where its element does; the next, complete, runs at once
    # (taken for a nested block, it waited for a second </tool>, holding the rest of the answer, and ran
    # never, or thousands of characters later), and a </tool> meant for the first is text.
    events = parse_every_way(f'<tool name="a"><query>x</query>{BLOCK}</tool> after')
    assert calls(events) == [("calculate", "query", "1+1")]
    (bad,) = [e for e in events if isinstance(e, InvalidBlock)]
    assert bad.raw == '<tool name="a"><query>x</query>' and "before the next <tool" in bad.reason
    assert events[-1] == TextChunk("</tool> after")


@pytest.mark.parametrize("outer", [
    '<tool name="echo">hi ',  # text with no element around it
    "<tool name=echo>",  # an unquoted name
    '<tool name="echo"><a href="u">x</a> ',  # another tag where the element should open
])
@pytest.mark.parametrize("gap", ["", " ", "\n"])
def test_rule4_a_block_nested_in_one_already_invalid_is_one_invalid_block_and_nothing_runs(outer, gap) -> None:
    # The outer block failed before the inner "<tool " came: it ended there, and the inner call ran (the
    # window showed '<tool name="echo">hi </tool>', calculate's card between).
    text = f"{outer}{BLOCK}{gap}</tool>"
    events = parse_every_way(f"{text} done")
    assert calls(events) == []
    (bad,) = [e for e in events if isinstance(e, InvalidBlock)]
    assert bad.raw == text and bad.reason.startswith("nested <tool> blocks are not supported, and ")
    assert events[-1] == TextChunk(" done")


@pytest.mark.parametrize("after, shown_by", [
    ("", ""), (" and so on", " a"), ("\n\n</tool>", "\n\n"), (f" {BLOCK}", " <t"), ("\n\nMore words.", "\n\n"),
])
def test_rule4_a_block_after_one_abandoned_invalid_runs_once_what_follows_shows_it_no_nested_one(after, shown_by):
    # Held while it may be nested; anything but the outer's </tool> after it (text, a blank line, another call,
    # the stream's end) shows the outer block abandoned: it ends where it failed, and the call runs.
    opened = f'<tool name="calculate">1+1, or rather {BLOCK}'
    events = parse_every_way(opened + after)
    assert calls(events)[:1] == [CALC]
    assert [e.raw for e in events if isinstance(e, InvalidBlock)] == ['<tool name="calculate">']
    state = XMLParseState()
    streamed = [e for ch in opened + shown_by[:-1] for e in state.feed(ch)]
    assert calls(streamed) == []  # held: it may yet be nested
    streamed += state.feed(shown_by[-1:]) if shown_by else state.finish()
    assert calls(streamed) == [CALC]


@settings(max_examples=200, deadline=None)
@given(outer=st.sampled_from(['<tool name="a">x ', "<tool name=a>", '<tool name="a"><a href="u">x</a>']),
       inner=valid_block(), gap=st.sampled_from(["", " ", "\n", " \n\t"]),
       close=st.sampled_from(["</tool>", "", " then text", "\n\n</tool>"]), tail=NOISE,
       points=st.lists(st.integers(0, 10_000), max_size=8))
def test_rule4_a_block_inside_an_invalid_one_runs_only_if_that_one_was_abandoned(outer, inner, gap, close, tail,
                                                                                   points) -> None:
    text = f"{outer}{inner[0]}{gap}{close}"
    for pieces in ([text + tail], list(text + tail), cut(text + tail, points)):
        events = run(pieces)
        assert "".join(e.raw for e in events) == text + tail
        if close == "</tool>":  # nested: one parse error, nothing run
            assert isinstance(events[0], InvalidBlock) and events[0].raw == text
            assert NESTED in events[0].reason
        else:
            assert calls(events)[:1] == [inner[1]]
            assert isinstance(events[0], InvalidBlock) and NESTED not in events[0].reason


# -- rule 5: no Markdown wrapping: blocks in code are text -----------------------------------------------


@pytest.mark.parametrize(
    "text, runs",
    [
        (f"```\n{BLOCK}\n```\n", 0),
        (f"```xml\n{BLOCK}\n```\n{BLOCK}", 1),
        (f"~~~~\n{BLOCK}\n~~~\n{BLOCK}\n~~~~\n", 0),  # a shorter run does not close it
        (f"``` \n{BLOCK}\n````  \n{BLOCK}", 1),  # a longer one does, trailing spaces allowed
        # CommonMark: a closing fence holds nothing but the run and spaces; "```python" inside is code.
        (f"```\ncode\n```python\n{BLOCK}\n```\n{BLOCK}", 1),
        (f"~~~\ncode\n~~~x\n{BLOCK}\n~~~\n", 0),
        (f"```\ncode\n```\r\n{BLOCK}", 1),
        # CommonMark: a backtick fence's info string cannot hold a backtick; then it is inline code.
        (f"```x``` {BLOCK}\n\nthen {BLOCK}", 2),
        (f"```bash ls``` then {BLOCK}", 1),
        (f"```x` {BLOCK}\nmore ``` {BLOCK}", 1),
        (f"```x` y\n\n{BLOCK}", 1),
        (f"~~~x```\n{BLOCK}\n~~~\n", 0),  # a tilde fence's info string may hold backticks
        (f"`{BLOCK}` and ``{BLOCK}`` and ` `` {BLOCK} `` ` then {BLOCK}", 1),
    ],
)
def test_rule5_blocks_in_fenced_or_inline_code_are_text(text: str, runs: int) -> None:
    events = parse_every_way(text)
    assert calls(events) == [CALC] * runs
    assert invalid(events) == []


def test_rule5_the_fence_decision_does_not_depend_on_the_cut() -> None:
    text = f"```x``` {BLOCK}\n```\nc\n```go\n{BLOCK}\n``` \n{BLOCK}"
    for k in range(len(text) + 1):
        for m in range(k, len(text) + 1, 7):
            state = XMLParseState()
            events = state.feed(text[:k]) + state.feed(text[k:m]) + state.feed(text[m:]) + state.finish()
            assert calls(events) == [CALC, CALC], (k, m)


@pytest.mark.parametrize("text, runs", [
    (f"A <!-- {BLOCK} --> B", 0),
    (f"<!--\n{BLOCK}\n\n{BLOCK}\n-->\n{BLOCK}", 1),  # a comment that starts its line goes on past a blank line
    (f"A <!-- note\n\n{BLOCK}", 1),  # one in a paragraph ends with it
    (f"A <!-- x --> {BLOCK} <!-- y -->", 1),
    (f"A <!- {BLOCK} <! {BLOCK}", 2),  # no comment
    (f"`<!--` {BLOCK}", 1),  # in code, no comment
    (f"A <!-- {BLOCK} - -- ->", 0),
])
def test_rule5_blocks_in_an_html_comment_are_text(text: str, runs: int) -> None:
    # The reader never sees a comment: a call in it must not run (nor be marked as a call not run).
    events = parse_every_way(text)
    assert calls(events) == [CALC] * runs
    assert invalid(events) == []


@pytest.mark.parametrize("text, where", [
    (f"Result:\n\n> {BLOCK}\n\nB", "a quote, its line starting with >"),
    (f"  > > {BLOCK}", "a quote, its line starting with >"),
    (f"- {BLOCK}\n\nB", "a list item, its line starting with a list marker (- or 1.)"),
    (f"Steps:\n1. Add them: {BLOCK}", "a list item, its line starting with a list marker (- or 1.)"),
    (f"- a\n    * {BLOCK}", "a list item, its line starting with a list marker (- or 1.)"),
    (f"A **{BLOCK}** B", "emphasis, * or _ just before it"),
    (f"A _{BLOCK}_", "emphasis, * or _ just before it"),
    (f"**{BLOCK}", "emphasis, * or _ just before it"),
    (f"A <details>{BLOCK}</details> B", "an HTML element, <details> just before it"),
    (f'<div class="call">\n  {BLOCK}\n</div>', "an HTML element, <div> just before it"),
    (f"| a | b |\n|---|---|\n| {BLOCK} | x |", "a table row, its line starting with |"),
    (f"  |x| {BLOCK}", "a table row, its line starting with |"),
    (f"# {BLOCK}", "a heading, its line starting with #"),
    (f"Text\n   ### Result: {BLOCK}", "a heading, its line starting with #"),
    (f"See [{BLOCK}](https://example.com)", "a link's text or an image's alt text, [ just before it"),
    (f"![ {BLOCK}]", "a link's text or an image's alt text, [ just before it"),
    (f"A ~~{BLOCK}~~ B", "strikethrough, ~~ just before it"),
    (f"*{BLOCK}*", "emphasis, * or _ just before it"),  # no space after the "*": no list marker
])
def test_rule5_a_block_in_a_markdown_construct_is_not_run_and_says_where(text: str, where: str) -> None:
    events = parse_every_way(text)
    assert calls(events) == [] and invalid(events) == [f"it is inside {where}"]
    assert "".join(e.raw for e in events) == text
    state = XMLParseState()
    state.feed(text[: text.index("<tool ") + 20])
    assert state.open_block is None  # never shown as a call being written


@pytest.mark.parametrize("text", [
    f"a > b {BLOCK}",  # ">" not at the line's start
    f"- item\n  {BLOCK}",  # on the item's next line (its own line: not "inside" by this rule)
    f"- a\n{BLOCK}",  # at the margin: a lazy line of the item in Markdown, but where models put their call
    f"> quoted\n{BLOCK}",
    f"a | b {BLOCK}",  # "|" not at the line's start
    f"#{BLOCK}",  # no space: no heading
    f"    # x\n{BLOCK}",  # a heading's line before it, not its own
    f"a[1]{BLOCK}",
    f"a~{BLOCK}",
    f"x~~{BLOCK}",  # no strikethrough opens after a letter
    f"Use **bold** then {BLOCK}",
    f"2**{BLOCK}",  # no emphasis opens after a letter
    f"Line<br>{BLOCK}",
    f"<b>Calc</b> {BLOCK}",
    f"1.5 {BLOCK}",
    f"Total:\n-{BLOCK}",  # a list marker needs a space after it (CommonMark): "-<tool" is a paragraph's text
    f"+{BLOCK}",
    f"Steps:\n1.{BLOCK}",
    f"2){BLOCK}",
    f"<tools>\n{BLOCK}\n</tools>",  # a wrapper some models write, no HTML: the call runs
    f'<tool name="a"><query>x <tool \n><query>y</query></tool> z</query></tool> {BLOCK}',  # ">" in a block
])
def test_rule5_a_block_near_but_not_inside_a_construct_runs(text: str) -> None:
    assert calls(parse_every_way(text))[-1:] == [CALC]


@settings(max_examples=200, deadline=None)
@given(above=st.sampled_from(["", "Steps:\n", "Text\n\n", "- a\n"]), indent=st.sampled_from(["", " ", "   "]),
       marker=st.sampled_from(["-", "+", "*", "1.", "2)", "10.", "123456789)"]),
       gap=st.sampled_from(["", " ", "\t", "  ", " \t"]), points=st.lists(st.integers(0, 10_000), max_size=6))
def test_rule5_a_list_marker_makes_a_list_item_only_with_a_space_after_it(above, indent, marker, gap, points) -> None:
    text = f"{above}{indent}{marker}{gap}{BLOCK}"
    events = run(cut(text, points))
    if gap:
        assert calls(events) == []
        assert invalid(events) == ["it is inside a list item, its line starting with a list marker (- or 1.)"]
    elif marker == "*":
        assert calls(events) == [] and invalid(events) == ["it is inside emphasis, * or _ just before it"]
    else:
        assert calls(events) == [CALC] and invalid(events) == []


# -- several blocks, text after blocks, whitespace ------------------------------------------------------


def test_several_blocks_in_one_chunk_with_text_between_and_after() -> None:
    text = f"{BLOCK}{BLOCK}\n{BLOCK} and then some text with < and <to and a final <"
    state = XMLParseState()
    events = state.feed(text)
    assert calls(events) == [CALC] * 3
    assert "".join(e.raw for e in events + state.finish()) == text


# -- a well-formed block means what an XML parser says it means ------------------------------------------

_XML_TEXT = st.text(
    alphabet=st.characters(categories=("L", "N", "Zs", "P", "S"), exclude_characters="<&]\x85\u2028\u2029"),
    max_size=12,
)
_ENTITY = st.sampled_from(["&lt;", "&gt;", "&amp;", "&quot;", "&apos;", "&#60;", "&#x3C;", "&#233;", "&#x1F600;"])
_CDATA = _XML_TEXT.map(lambda s: f"<![CDATA[{s}]]>")  # no "]" in _XML_TEXT, so no "]]>" but the end


@st.composite
def _xml_block(draw):
    name = draw(st.text(alphabet=st.characters(categories=("L", "N"), exclude_characters="\x85"), min_size=1,
                        max_size=10)) + draw(st.sampled_from(["", "_x", "-y", " ", "&amp;b", "&#x41;"]))
    quote = draw(st.sampled_from(['"', "'"]))
    others = draw(st.lists(st.sampled_from(['id="1"', "data-x='a\"b'", 'v="&amp;"']), max_size=2, unique=True))
    attrs = others + [f"name{draw(st.sampled_from(['=', ' = ']))}{quote}{name}{quote}"]
    attrs = draw(st.permutations(attrs))
    param = draw(st.sampled_from(["query", "url", "source"]))
    content = "".join(draw(st.lists(st.one_of(_XML_TEXT, _ENTITY, _CDATA), min_size=1, max_size=5)))
    ws = [draw(st.sampled_from(["", " ", "\n", "\r\n  ", "\t"])) for _ in range(3)]
    return f"<tool {' '.join(attrs)}{ws[0]}>{ws[1]}<{param}>{content}</{param}>{ws[2]}</tool>"


@settings(max_examples=300, deadline=None)
@given(raw=_xml_block(), points=st.lists(st.integers(0, 10_000), max_size=6))
def test_well_formed_blocks_decode_as_an_xml_parser_does(raw: str, points: list[int]) -> None:
    import xml.etree.ElementTree as ET

    root = ET.fromstring(raw)
    (child,) = list(root)
    name, content = root.get("name", "").strip(), (child.text or "").strip()
    # XML turns line ends into \n; the protocol keeps what the model wrote (the strip removes the edges).
    state = XMLParseState()
    events = [ev for piece in cut("x " + raw + " y", points) for ev in state.feed(piece)] + state.finish()
    found = [(e.name, e.param, e.content.replace("\r\n", "\n").replace("\r", "\n")) for e in events
             if isinstance(e, ToolCall)]
    if name and content:
        assert found == [(name, child.tag, content)]
    else:
        assert found == [] and len(invalid(events)) == 1
