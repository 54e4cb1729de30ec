"""ThinkSplitter: inline reasoning at the start of a reply is its own channel; a later <think> is text."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.protocol.test_parser_properties import RUNS, _in_code_span, cut
from tinyrag_desktop.protocol import ThinkSplitter, ToolCall, parse_all
from tinyrag_desktop.protocol.markdown_context import code_indent, cols
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
        ("a\n  </think>b\n</think>c", [("text", "a\n  "), ("closed", ""), ("text", "b\n</think>c")]),
        # or in the middle of a line (some models close their reasoning right after its last word)
        ("so the answer is 4.</think>The answer is 4.",
         [("text", "so the answer is 4."), ("closed", ""), ("text", "The answer is 4.")]),
        ("Hm, `x` is 4. </think> It is 4.", [("text", "Hm, `x` is 4. "), ("closed", ""), ("text", " It is 4.")]),
        # In an inline code span, a fenced code block or a tool block: the answer showing the tag.
        ("Use `</think>` to close.\n", [("text", "Use `</think>` to close.\n")]),
        ("Use ``a ` </think>`` or ` </think>", [("text", "Use ``a ` </think>`` or ` </think>")]),
        ('<tool name="nanogo"><source>fmt.Println("</think>")\n</source></tool> Printed.',
         [("text", '<tool name="nanogo"><source>fmt.Println("</think>")\n</source></tool> Printed.')]),
        ('Run <tool name="nanogo"><source>x</source></tool> then.</think>Done.',
         [("text", 'Run <tool name="nanogo"><source>x</source></tool> then.'), ("closed", ""), ("text", "Done.")]),
        ("```x\n</think>```\n", [("text", "```x\n</think>```\n")]),
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
        ("a\n   </think>x", [("text", "a\n   "), ("closed", ""), ("text", "x")]),
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


def _bare_close(text: str, lead: str = "") -> int | None:
    """Where the first bare </think> of ``text`` starts, read line by line and character by character: on a
    line of ordinary text, outside inline code spans (a run of backticks closed by the next run as long, on
    its line) and tool blocks ("<tool " to "</tool>", across lines); no line that starts with a fence run
    (at most three spaces before it), or is in a fenced block, or is indented code (markdown_context), holds one."""
    fence, tool, at, code = "", False, 0, 0
    for line in text.splitlines(keepends=True):
        ended, body = line.endswith("\n"), line.rstrip("\n")
        spaces = len(body) - len(body.lstrip(" "))
        indent = cols(body[: len(body) - len(body.lstrip(" \t"))])
        if code and not tool and (not body.strip() or indent >= code):
            at += len(line)
            continue
        code = 0 if not tool else code
        if not tool and not fence and indent >= 4 and body.strip() and (
                need := code_indent(lead + text[:at], indent)) is not None and indent >= need:
            code = need
            at += len(line)
            continue
        run = re.match(r"`{3,}|~{3,}", body[spaces:]) if spaces <= 3 and not tool else None
        if run:
            rest = body[spaces + run.end():]
            if ended and fence:
                if run.group()[0] == fence[0] and len(run.group()) >= len(fence) and not rest.strip():
                    fence = ""
            elif ended and (run.group()[0] == "~" or "`" not in rest):
                fence = run.group()
            at += len(line)
            code = 0
            continue
        if not tool and fence:
            at += len(line)
            continue
        k, span = 0, 0
        while k < len(body):
            if tool:
                if body.startswith("</tool>", k):
                    tool, k = False, k + 7
                else:
                    k += 1
            elif body[k] == "`":
                n = len(body[k:]) - len(body[k:].lstrip("`"))
                span = 0 if span == n else span or n
                k += n
            elif not span and body.startswith("</think>", k):
                return at + k
            elif not span and body.startswith("<tool ", k):
                tool, k = True, k + 6
            else:
                k += 1
        at += len(line)
    return None


# Random characters, and pieces of what is read (tags, runs, indents), so that each rule is met often.
_PIECES = ("</think>", "<think>", "<tool ", "</tool>", "`", "``", "```", "~~~", "\n", "    ", "\t", " ", "a", "b.",
           "</th", "ink>", "<to", "ol ", "\n\n", "- ", "1. ", "\n\n    ", "    - ", "- - ", "# ")
_replies = st.one_of(st.text(alphabet=" \n<>/thinkabol`~", max_size=60),
                     st.lists(st.sampled_from(_PIECES), max_size=24).map("".join))


@settings(max_examples=600, deadline=None)
@given(text=_replies, points=st.lists(st.integers(0, 1000), max_size=8),
       presumed=st.booleans())
@example(text="\n\n    - \n\n        </think>", points=[4], presumed=False)  # the first line's indent: code
def test_lossless_and_independent_of_cutting(text: str, points: list[int], presumed: bool) -> None:
    whole = split([text], presumed)
    assert split(cut(text, points), presumed) == whole
    rebuilt = "".join(t for _, t in whole)
    blank = len(text) - len(text.lstrip(" \t\r\n"))  # the reply's blank start
    lead = text.rfind("\n", 0, blank) + 1  # its first line starts after its blank lines, indent and all
    opened = text[blank:].startswith("<think>")
    if opened or presumed:
        expected = text.replace("<think>", "", 1) if opened else text
        assert rebuilt == expected.replace("</think>", "", 1)
    elif (at := _bare_close(text[lead:], text[:lead])) is not None:
        at += lead
        end = at + len("</think>")
        assert rebuilt == text[:at] + text[end:] and (CLOSED, "") in whole
        assert "".join(t for c, t in whole[: whole.index((CLOSED, ""))]) == text[:at]
    else:
        assert rebuilt == text and (CLOSED, "") not in whole


@settings(max_examples=400, deadline=None)
@given(before=RUNS, after=RUNS, points=st.lists(st.integers(min_value=0, max_value=10_000), max_size=12))
@example(before="`s: ``", after="`` ok", points=[])  # the parser's case: a later run opens the span
@example(before="`` x ` y ", after=" ` z", points=[])  # a run never closed, and a later one that is
def test_a_close_among_backtick_runs_is_read_as_commonmark_puts_code_spans(before, after, points) -> None:
    # CommonMark's rule, as the parser reads it (each run not closed yet may open a span), from the text before
    # the close alone: a run still open there may close after it, so it is in a span until then. Read so, with
    # every run left open closed at once after it, it is in none exactly when it ends the reasoning.
    text = f"Say {before}</think>{after}"
    at = len(f"Say {before}")
    closers = "".join(f" {'`' * n}" for n in range(1, len(text)))
    closed = (CLOSED, "") in split(cut(text, points))
    assert closed is not _in_code_span(text[:at] + "</think>" + closers, at)
    assert not (closed and _in_code_span(text, at))  # so never one in a span, whatever opened it


@pytest.mark.parametrize("text", [
    "Para.\n\n    {x}", "    {x}", "\t{x}", "Para.\n    {x}", "- a\n\n    {x}", "1. a\n\n       {x}",
    "- a\n\n      {x}",
    "- a\nlazy\n\n    {x}", "Code:\n\n    x\n\n    {x}", "Code:\n\n    x\nback {x}",
])
def test_the_splitter_and_the_parser_read_indented_code_alike(text: str) -> None:
    # One rule (markdown_context.code_indent) for both: a bare </think> is read where a tool block would run.
    block = '<tool name="calculate"><query>1+1</query></tool>'
    runs = any(isinstance(e, ToolCall) for e in parse_all("x\n" + text.format(x=block)))
    closes = (CLOSED, "") in split(list("x\n" + text.format(x="so 4.</think>It is 4.")))
    assert runs == closes
