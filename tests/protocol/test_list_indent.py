"""Indented code and list items, as CommonMark reads them: a line is code four columns past the content of the
innermost list item it is in, or past the margin in none. A block written in a nested item four spaces in runs;
one in a true indented code block stays text; the think splitter reads a bare </think> in the same places."""

from __future__ import annotations

import re

import pytest

from tinyrag_desktop.protocol import ThinkSplitter, XMLParseState, markdown_context, parse_all
from tinyrag_desktop.protocol.markdown_context import UNLISTED_MOST, WINDOW
from tinyrag_desktop.protocol.think import CLOSED

from .test_parser import calls, invalid, normal, parse_every_way

CALC = '<tool name="calculate"><query>1+1</query></tool>'
LONG = "word " * (WINDOW // 4)  # an item's text longer than the parser once read back: its marker out of sight

RUNS = [
    # a nested item four spaces in, its item's text too long to see its marker (it was read as indented code)
    f"- {LONG}\n\n    - b\n\n      {{x}}",
    f"1. {LONG}\n\n    - b\n\n      {{x}}",
    f"- a\n\n  {LONG}\n\n    - b\n\n      {{x}}",  # the item's second paragraph is the long one
    "- - a\n\n      {x}",  # two items opened on one line: in the inner one's text
    "1. - a\n\n       {x}",
    # in a numbered item, after a long list nested in it: its marker more than 32 lines up (was read as code)
    "1. Sources:\n" + "    - s\n" * 31 + "\n    {x}",
    "".join(f"{n}. Step {n}\n    - a\n    - b\n    - c\n" for n in range(1, 10)) + "10. Look it up:\n\n    {x}",
    "text\n       ~~~\n   {x}",  # a run of tildes far in continues the paragraph: it opens no fence
]
CODE = [
    "  1. a\n\n    {x}",  # less far in than the item's text, after a blank line: the list ended, this is code
    "   - a\n\n    {x}",
    "* a\n# Heading\n    {x}",  # a heading ends the list, and is no paragraph
    "- a\n\n  ```\n  x\n  ```\n      {x}",  # a fence's closing line is no paragraph either: code in the item
    "- b\n      * a\n\n        {x}",  # "* a" six columns in is the item's text, not an item: this is code in it
    f"{LONG}\n\n    {{x}}",  # a paragraph, however long, then indented code
    "Para.\n\n    - b\n\n      {x}",  # (one that looks like a list)
    "- a\n\nPara.\n\n    - b\n\n      {x}",
    # the same past a paragraph longer than the parser read back (it was taken for a nested item, and ran)
    "word " * 210 + "\n\n    1. x\n    {x}",
    "line  \n" * 33 + "\n    - x\n    {x}",
    " -\n    -\n\n\n       > q\n===\n\n      {x}",  # an item begins with one blank line at most: "-", two ended it
]


@pytest.mark.parametrize("text", RUNS)
def test_a_block_in_a_nested_list_items_text_runs(text: str) -> None:
    events = parse_every_way(text.format(x=CALC))
    assert calls(events) == [("calculate", "query", "1+1")] and invalid(events) == []


@pytest.mark.parametrize("text", CODE)
def test_a_block_in_indented_code_out_of_a_list_or_past_its_items_text_is_text(text: str) -> None:
    events = parse_every_way(text.format(x=CALC))
    assert calls(events) == [] and invalid(events) == []


@pytest.mark.parametrize("text", RUNS + CODE)
def test_the_think_splitter_reads_a_bare_close_where_a_block_would_run(text: str) -> None:
    runs = text in RUNS
    for size in (1, 7, 1000):
        reply = "x\n" + text.format(x="so 4.</think>It is 4.")
        splitter = ThinkSplitter()
        pieces = [p for i in range(0, len(reply), size) for p in splitter.feed(reply[i : i + size])]
        assert ((CLOSED, "") in pieces + splitter.finish()) == runs, size


@pytest.mark.parametrize("underline", ["===", "--", "  ="])
def test_an_underline_with_no_paragraph_above_is_a_paragraph_and_the_next_line_continues_it(underline: str) -> None:
    # "===" was read as a heading's underline (no paragraph to underline): the call after it was taken for code
    text = f"{underline}\n    {{x}}"
    events = parse_every_way(text.format(x=CALC))
    assert calls(events) == [("calculate", "query", "1+1")] and invalid(events) == []
    for size in (1, 7, 1000):
        reply = text.format(x="so 4.</think>It is 4.")
        splitter = ThinkSplitter()
        pieces = [p for i in range(0, len(reply), size) for p in splitter.feed(reply[i : i + size])]
        assert (CLOSED, "") in pieces + splitter.finish(), size


class _CountedMatches:
    """A compiled pattern whose ``match`` calls are counted: the work a reader does, line by line."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern, self.calls = pattern, 0

    def match(self, *args: object) -> re.Match[str] | None:
        self.calls += 1
        return self.pattern.match(*args)


def _list_markers_matched(items: _CountedMatches, text: str) -> int:
    """How many times the parser and the think splitter, fed ``text`` in pieces, match a line for list markers."""
    items.calls = 0
    state = XMLParseState()
    splitter = ThinkSplitter()
    for i in range(0, len(text), 64):
        state.feed(text[i : i + 64])
        splitter.feed(text[i : i + 64])
    state.finish()
    splitter.finish()
    return items.calls


def test_deeply_nested_lists_are_read_in_linear_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # each line four columns in read back up to 32 lines, each with hundreds of items open: a 200 kB answer
    # took seconds to parse, the window frozen meanwhile. Each line is read once: a line more under the list
    # items costs a match or two, not one for each item above it.
    items = _CountedMatches(markdown_context._ITEM)
    monkeypatch.setattr(markdown_context, "_ITEM", items)
    matched = {}
    for read_back in (1, 30, 60):
        matched[read_back] = _list_markers_matched(items, ("- " * 450 + "x\n" + "    x\n" * read_back) * 20)
    assert matched[1] >= 20 * 100, matched  # each line of items is read
    assert matched[30] - matched[1] <= 2 * 20 * 29 and matched[60] - matched[30] <= 2 * 20 * 30, matched


def test_a_long_list_is_read_for_its_state_as_it_comes_not_kept_whole() -> None:
    # 1 MB of list items, no line four columns in to ask for the list state: each was kept whole till the end
    items = "".join(f"- item {i} with some words\n" for i in range(40000))
    text = items + "\n    " + CALC + "\n"  # then the last item's second paragraph (not code, as out of a list)
    think = items + "\n    so 4.</think>It is 4."
    parser, splitter, events, pieces = XMLParseState(), ThinkSplitter(), [], []
    for i in range(0, len(items), 4):
        events += parser.feed(items[i : i + 4])
        pieces += splitter.feed(items[i : i + 4])
        if i % 4096 == 0:
            assert sum(map(len, parser._unlisted)) + sum(map(len, parser._fresh)) < 2 * UNLISTED_MOST, i
            assert sum(map(len, splitter._unlisted)) < 2 * UNLISTED_MOST, i
    events += parser.feed(text[len(items) :]) + parser.finish()
    pieces += splitter.feed(think[len(items) :]) + splitter.finish()
    assert normal(events) == normal(parse_all(text)) and calls(events) == [("calculate", "query", "1+1")]
    assert (CLOSED, "") in pieces
