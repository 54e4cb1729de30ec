"""Indented code and list items, as CommonMark reads them: a line is code four columns past the content of the
innermost list item it is in, or past the margin in none. A block written in a nested item four spaces in runs;
one in a true indented code block stays text; the think splitter reads a bare </think> in the same places."""

from __future__ import annotations

import pytest

from tinyrag_desktop.protocol import ThinkSplitter
from tinyrag_desktop.protocol.markdown_context import WINDOW
from tinyrag_desktop.protocol.think import CLOSED

from .test_parser import calls, invalid, parse_every_way

CALC = '<tool name="calculate"><query>1+1</query></tool>'
LONG = "word " * (WINDOW // 4)  # an item's text longer than the parser reads back: its marker is out of sight

RUNS = [
    # a nested item four spaces in, its item's text too long to see its marker (it was read as indented code)
    f"- {LONG}\n\n    - b\n\n      {{x}}",
    f"1. {LONG}\n\n    - b\n\n      {{x}}",
    f"- a\n\n  {LONG}\n\n    - b\n\n      {{x}}",  # the item's second paragraph is the long one
    "- - a\n\n      {x}",  # two items opened on one line: in the inner one's text
    "1. - a\n\n       {x}",
]
CODE = [
    "  1. a\n\n    {x}",  # less far in than the item's text, after a blank line: the list ended, this is code
    "   - a\n\n    {x}",
    "* a\n# Heading\n    {x}",  # a heading ends the list, and is no paragraph
    "- a\n\n  ```\n  x\n  ```\n      {x}",  # a fence's closing line is no paragraph either: code in the item
    "- b\n      * a\n\n        {x}",  # "* a" six columns in is the item's text, not an item: this is code in it
    f"{LONG}\n\n    {{x}}",  # a paragraph, however long, then indented code
    "Para.\n\n    - b\n\n      {x}",  # (one that looks like a list; past a paragraph longer than the parser
    "- a\n\nPara.\n\n    - b\n\n      {x}",  # reads back, it is taken for a nested item)
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
