"""ThinkSplitter: inline reasoning at the start of a reply is its own channel; a later <think> is text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.protocol.test_parser_properties import cut
from tinyrag_desktop.protocol import ThinkSplitter


def split(pieces: list[str]) -> list[tuple[str, str]]:
    """Run the splitter over ``pieces``; adjacent pieces of one channel are merged."""
    s = ThinkSplitter()
    out: list[tuple[str, str]] = []
    for channel, text in [p for piece in pieces for p in s.feed(piece)] + s.finish():
        if out and out[-1][0] == channel:
            out[-1] = (channel, out[-1][1] + text)
        elif text:
            out.append((channel, text))
    return out


@pytest.mark.parametrize(
    "text, expected",
    [
        ("<think>hm</think>Answer.", [("reasoning", "hm"), ("text", "Answer.")]),
        (" \n<think>hm</think>Answer.", [("text", " \n"), ("reasoning", "hm"), ("text", "Answer.")]),
        ("<think>never closed", [("reasoning", "never closed")]),
        # Later, <think> is the answer talking about the tag: shown, and a block after it still runs.
        ("Use `<think>` tags. <tool ", [("text", "Use `<think>` tags. <tool ")]),
        ('<tool name="nanogo"><source>s := "<think>"</source></tool>',
         [("text", '<tool name="nanogo"><source>s := "<think>"</source></tool>')]),
        ("<think>a</think>b<think>c</think>", [("reasoning", "a"), ("text", "b<think>c</think>")]),
        ("<thinking>x</thinking>", [("text", "<thinking>x</thinking>")]),
        ("<thin", [("text", "<thin")]),
    ],
)
def test_only_a_think_that_opens_the_reply_is_reasoning(text: str, expected: list) -> None:
    for size in (1, 2, 3, 1000):
        assert split([text[i : i + size] for i in range(0, len(text), size)]) == expected, size


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=" \n<>/thinkab", max_size=40), points=st.lists(st.integers(0, 1000), max_size=8))
def test_lossless_and_independent_of_cutting(text: str, points: list[int]) -> None:
    whole = split([text])
    assert split(cut(text, points)) == whole
    rebuilt = "".join(t for _, t in whole)
    if text.lstrip(" \n").startswith("<think>"):
        assert rebuilt == text.replace("<think>", "", 1).replace("</think>", "", 1)
    else:
        assert rebuilt == text
