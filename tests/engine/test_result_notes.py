"""What the model reads of its tools: a result's closing note kept through the result cut, a note said once
per message, and no tools offered when no call may run."""

from __future__ import annotations

import pytest

from tests.engine.conftest import collect
from tests.sse_server import Stream
from tinyrag_desktop.engine import EngineConfig
from tinyrag_desktop.engine.events import Done, Route
from tinyrag_desktop.engine.prompts import cut
from tinyrag_desktop.tools import ToolResult, ToolSpec
from tinyrag_desktop.tools.nanogo_tool import OUTPUT_CUT


def block(tool: str, content: str, param: str = "query") -> str:
    return f'<tool name="{tool}"><{param}>{content}</{param}></tool>'


def _printed(lines: int) -> str:
    return "".join(f"line {n}\n" for n in range(lines))


async def test_a_programs_cut_note_reaches_the_model_through_the_result_cut(llm, make_engine, registry) -> None:
    # nanoGo stopped a program at 64 KB and said so at the end of its output; the engine's cut to
    # result_max_chars took the note away, and the model read "line 900\nl" as a run that went well.
    async def chatty(content, ctx):
        return ToolResult(f"{_printed(5000).rstrip()}\n\n{OUTPUT_CUT}", "nanoGo")

    registry.register(ToolSpec("chatty", "source", "Prints a lot.", chatty, "x"))
    llm.queue(Stream([block("chatty", "x", "source")]), Stream(["It printed a lot."]))
    await collect(make_engine(EngineConfig(result_max_chars=2000)))
    sent = llm.requests[1]["messages"][-1]["content"]
    result = sent.split('status="ok" source="nanoGo">\n', 1)[1].split("\n</result>", 1)[0]
    assert result.endswith(OUTPUT_CUT)
    assert "more characters cut]" in result
    assert len(result) < 2000 + 100
    # the cut falls at the end of a printed line: no half line ("l") passes for the program's last words
    kept = result.split("\n[…", 1)[0]
    assert kept.splitlines()[-1].startswith("line ") and kept.splitlines()[-1] in _printed(5000).splitlines()


def test_cut_keeps_a_closing_note_and_leaves_other_text_as_it_was() -> None:
    from tinyrag_desktop.engine.prompts import closing_note

    text = "x" * 5000
    assert cut(text, 1000) == "x" * 1000 + "\n[… 4000 more characters cut]"
    assert cut("short\n\n[A note.]", 1000) == "short\n\n[A note.]"
    noted = cut(_printed(500) + "\n[The page was still loading; only its start was read.]", 300)
    assert noted.endswith("more characters cut]\n[The page was still loading; only its start was read.]")
    assert closing_note("body\n\n[The note.]\n") == "[The note.]"
    # a text that fits but for its blank lines came back whole, 10,000 characters at a limit of 1,500
    spaced = cut("hello\n" + " \n" * 5000 + "[The note.]", 1500)
    assert spaced == "hello\n[The note.]"
    from hypothesis import given, strategies as st

    @given(st.text(alphabet="ab \n[].", max_size=400), st.integers(min_value=20, max_value=300))
    def never_longer(text, limit):
        assert len(cut(text, limit)) <= limit + len(f"\n[… {len(text)} more characters cut]")

    never_longer()
    assert closing_note("body\n[1] a citation, not a note") == ""


async def test_a_note_about_a_disabled_tool_is_said_once_for_all_its_calls(llm, make_engine) -> None:
    # Offline, three url_fetch calls: the same "Note: The tool url_fetch is disabled…" line was sent three times.
    calls = "".join(block("off", f"page {n}") for n in range(3))
    llm.queue(Stream([calls]), Stream(["Cannot, then."]))
    await collect(make_engine())
    sent = llm.requests[1]["messages"][-1]["content"]
    assert sent.count('tool="off" status="error"') == 3  # each call still has its result
    notes = [line for line in sent.splitlines() if line.startswith("Note: ")]
    assert notes == ["Note: The tool off is disabled: enable it with --allow-off."]


@pytest.mark.parametrize("limits", [{"max_tools_total": 0}, {"max_tools_per_round": 0}], ids=["total", "per-round"])
async def test_no_tools_are_offered_when_no_call_may_run(llm, make_engine, limits) -> None:
    # With --max-tools-total 0 the system prompt still taught the block syntax, the worked examples showed
    # calls and the question named a tool to use: the model called it, and every call was skipped.
    llm.queue(Stream(["Forty-two."]))
    events = await collect(make_engine(EngineConfig(**limits)), "What is 6 * 7?")
    messages = llm.requests[0]["messages"]
    assert "<tool" not in messages[0]["content"] and "You can call tools" not in messages[0]["content"]
    assert [m["role"] for m in messages] == ["system", "user"]  # no worked examples
    assert messages[-1]["content"] == "What is 6 * 7?"  # no "(Tool to use: calculate)"
    route = events[0]
    assert isinstance(route, Route) and route.hints == ()
    assert isinstance(events[-1], Done) and events[-1].transcript == "Forty-two."


async def test_tools_are_offered_when_calls_may_run(llm, make_engine) -> None:
    llm.queue(Stream(["Forty-two."]))
    await collect(make_engine(EngineConfig(max_tools_total=1, max_tools_per_round=1)), "What is 6 * 7?")
    messages = llm.requests[0]["messages"]
    assert "You can call tools" in messages[0]["content"] and "(Tool to use: calculate)" in messages[-1]["content"]
