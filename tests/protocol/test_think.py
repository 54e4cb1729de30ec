"""ThinkSplitter: inline reasoning at the start of a reply is its own channel; a later <think> is text."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.protocol.test_parser_properties import cut
from tinyrag_desktop.protocol import ThinkSplitter
from tinyrag_desktop.protocol.think import CLOSED


def split(pieces: list[str], presumed_open: bool = False) -> list[tuple[str, str]]:
    """Run the splitter over ``pieces``; adjacent pieces of one channel are merged."""
    s = ThinkSplitter(presumed_open)
    out: list[tuple[str, str]] = []
    for channel, text in [p for piece in pieces for p in s.feed(piece)] + s.finish():
        if out and out[-1][0] == channel:
            out[-1] = (channel, out[-1][1] + text)
        elif text or channel == CLOSED:
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


@pytest.mark.parametrize(
    "text, expected",
    [
        # The chat template opened <think>: the reply starts inside it, and its </think> ends a line.
        ("Let me see.\n</think>\n\nIt is 4.", [("text", "Let me see.\n"), ("closed", ""), ("text", "\n\nIt is 4.")]),
        ("</think>Hi", [("closed", ""), ("text", "Hi")]),
        ("a\n  </think>b\n</think>c", [("text", "a\n"), ("closed", ""), ("text", "b\n</think>c")]),
        # Not at a line's start, or in a fenced code block: the answer showing the tag.
        ("Use </think> to close.\n", [("text", "Use </think> to close.\n")]),
        ("```xml\n</think>\n```\n", [("text", "```xml\n</think>\n```\n")]),
        ("~~~\nx\n~~~\n</think>y", [("text", "~~~\nx\n~~~\n"), ("closed", ""), ("text", "y")]),
        ("<think>a</think>b\n</think>c", [("reasoning", "a"), ("text", "b\n</think>c")]),
        ("a\n</thin", [("text", "a\n</thin")]),
        # an answer quoting a model's raw output (the reviewer's three): indented code, a longer fence
        # holding a shorter one, a ~~~ line inside a ``` fence
        ("It writes:\n\n    <think>\n    hm\n    </think>\nDone.", [("text", "It writes:\n\n    <think>\n    hm\n    </think>\nDone.")]),
        ("````\n```\n</think>\n```\n````\nok", [("text", "````\n```\n</think>\n```\n````\nok")]),
        ("```\n~~~\n</think>\n```\nok", [("text", "```\n~~~\n</think>\n```\nok")]),
        ("``` x\n```python\n</think>b", [("text", "``` x\n```python\n</think>b")]),  # "```python" closes none
        ("``` x\n```\n</think>b", [("text", "``` x\n```\n"), ("closed", ""), ("text", "b")]),
        ("a\n   </think>x", [("text", "a\n"), ("closed", ""), ("text", "x")]),
    ],
)
def test_a_close_at_a_line_start_ends_reasoning_the_reply_never_opened(text: str, expected: list) -> None:
    for size in (1, 2, 3, 1000):
        assert split([text[i : i + size] for i in range(0, len(text), size)]) == expected, size


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Hmm.\n</think>\nAnswer", [("reasoning", "Hmm.\n"), ("text", "\nAnswer")]),
        ("\n<think>Hmm.</think>Answer", [("reasoning", "\nHmm."), ("text", "Answer")]),
        ("never closed </think", [("reasoning", "never closed </think")]),
        ("Hmm.</think>A\n</think>B", [("reasoning", "Hmm."), ("text", "A\n</think>B")]),
    ],
)
def test_a_reply_presumed_to_start_in_its_reasoning(text: str, expected: list) -> None:
    for size in (1, 2, 3, 1000):
        assert split([text[i : i + size] for i in range(0, len(text), size)], presumed_open=True) == expected


def _bare_close(text: str) -> int | None:
    """Where the first bare </think> of ``text`` starts (its line's start), read line by line as CommonMark
    reads fences: at most three spaces before a run or the tag; a fence closed by a run of its character at
    least as long, with nothing after it; a backtick fence's info string holds no backtick."""
    fence, at = "", 0
    for line in text.splitlines(keepends=True):
        head = line[len(line) - len(line.lstrip(" ")):] if len(line) - len(line.lstrip(" ")) <= 3 else ""
        run = re.match(r"`{3,}|~{3,}", head)
        rest = head[run.end():].rstrip("\n") if run else ""
        if run and line.endswith("\n"):
            if fence:
                if run.group()[0] == fence[0] and len(run.group()) >= len(fence) and not rest.strip():
                    fence = ""
            elif run.group()[0] == "~" or "`" not in rest:
                fence = run.group()
        elif head.startswith("</think>") and not fence:
            return at
        at += len(line)
    return None


@settings(max_examples=400, deadline=None)
@given(text=st.text(alphabet=" \n<>/thinkab`~", max_size=50), points=st.lists(st.integers(0, 1000), max_size=8),
       presumed=st.booleans())
def test_lossless_and_independent_of_cutting(text: str, points: list[int], presumed: bool) -> None:
    whole = split([text], presumed)
    assert split(cut(text, points), presumed) == whole
    rebuilt = "".join(t for _, t in whole)
    opened = text.lstrip(" \n").startswith("<think>")
    if opened or presumed:
        expected = text.replace("<think>", "", 1) if opened else text
        assert rebuilt == expected.replace("</think>", "", 1)
    elif (at := _bare_close(text)) is not None:
        end = text.index("</think>", at) + len("</think>")
        assert rebuilt == text[:at] + text[end:] and (CLOSED, "") in whole
        assert "".join(t for c, t in whole[: whole.index((CLOSED, ""))]) == text[:at]
    else:
        assert rebuilt == text and (CLOSED, "") not in whole
