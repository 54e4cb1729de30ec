"""A round's results go back to the model in the order its calls were written, whatever order they finished in.

A reply with nanogo, then `1+1`, `1/0`, `1+1` sent the results as call_2, call_3, call_4, call_1: a refused or
skipped call's result was added as soon as it was parsed, a run call's when it finished. The cards still
finish when their tools do."""

from __future__ import annotations

import asyncio
import re

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.conftest import collect
from tests.sse_server import Stream
from tinyrag_desktop.engine import Engine, EngineConfig
from tinyrag_desktop.engine.events import ToolFinished
from tinyrag_desktop.tools import ToolContext, ToolError, ToolRegistry, ToolResult, ToolSpec

KINDS = ("run", "fail", "dup", "unknown", "off", "wrong")


class InTurn:
    """Tools that finish in a set order: each waits for the one before it in ``order`` to finish first."""

    def __init__(self, order: list[str]) -> None:
        self.order = order
        self.turns: dict[str, asyncio.Event] = {}
        self.finished: list[str] = []

    def turn(self, content: str) -> asyncio.Event:
        return self.turns.setdefault(content, asyncio.Event())

    async def __call__(self, content: str, ctx: ToolContext) -> ToolResult:
        if self.order and self.order[0] == content:
            self.turn(content).set()
        await self.turn(content).wait()
        self.finished.append(content)
        later = self.order[len(self.finished):]
        if later:  # it wakes only after this call's result is in: this task does not wait again
            self.turn(later[0]).set()
        if content.startswith("fail"):
            raise ToolError(f"cannot do {content}")
        return ToolResult(f"done: {content}")


def _registry(tool: InTurn) -> ToolRegistry:
    reg = ToolRegistry()
    reg.register(ToolSpec("work", "query", "Works in turn.", tool, "x"))
    reg.register(ToolSpec("off", "query", "Disabled.", tool, "x", enabled=lambda s: False,
                          disabled_reason="turn it on"))
    return reg


def _written(kinds: list[str], limit: int = 10) -> tuple[str, list[str]]:
    """The reply's calls for ``kinds``, and the inputs of the calls that run (``limit`` of them at most, the
    rest skipped), in the order written."""
    blocks, runs = [], []
    for n, kind in enumerate(kinds):
        if kind == "dup" and runs:
            blocks.append(f'<tool name="work"><query>{runs[0]}</query></tool>')
        elif kind in ("run", "fail", "dup"):
            content = f"{'fail' if kind == 'fail' else 'job'}{n}"
            if len(runs) < limit:
                runs.append(content)
            blocks.append(f'<tool name="work"><query>{content}</query></tool>')
        elif kind == "unknown":
            blocks.append(f'<tool name="nosuch"><query>x{n}</query></tool>')
        elif kind == "off":
            blocks.append(f'<tool name="off"><query>x{n}</query></tool>')
        else:
            blocks.append(f'<tool name="work"><url>x{n}</url></tool>')
    return "Working. " + " ".join(blocks), runs


async def _answer(llm, settings, tmp_path, reply: str, order: list[str], limit: int = 10):
    tool = InTurn(order)
    llm.queue(Stream([reply[i:i + 7] for i in range(0, len(reply), 7)]), Stream(["All done."]))
    config = EngineConfig(max_tools_per_round=limit, max_tools_total=10, max_continuations=1)
    async with httpx.AsyncClient() as http:
        engine = Engine(settings=settings, data_dir=tmp_path, http=http, registry=_registry(tool), config=config)
        events = await collect(engine)
    sent = llm.requests[-1]["messages"][-1]["content"]
    return tool, events, re.findall(r'<result id="(call_\d+)"', sent)


def test_results_go_back_in_the_order_the_calls_were_written(llm, settings, tmp_path) -> None:
    # the reviewer's reply: a slow call first, then a sum, a failure and a repeat of the sum
    reply, runs = _written(["run", "run", "fail", "dup"])
    tool, events, ids = asyncio.run(_answer(llm, settings, tmp_path, reply, [runs[1], runs[2], runs[0]]))
    assert ids == ["call_1", "call_2", "call_3", "call_4"]
    finished = [e.id for e in events if isinstance(e, ToolFinished) and e.status != "skipped"]
    assert finished == ["call_2", "call_3", "call_1"]  # the cards finish as their tools did


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=6), data=st.data())
def test_any_mix_of_calls_finishing_in_any_order_goes_back_in_call_order(llm, settings, tmp_path, kinds,
                                                                         data) -> None:
    limit = data.draw(st.integers(1, 6), label="per-round limit")
    reply, runs = _written(kinds, limit)
    order = data.draw(st.permutations(runs), label="finishing order")
    tool, events, ids = asyncio.run(_answer(llm, settings, tmp_path, reply, list(order), limit))
    assert tool.finished == list(order)
    assert ids == [f"call_{n}" for n in range(1, len(kinds) + 1)]
    # the cards of the calls that ran finished when their tools did
    ran = [e.query for e in events if isinstance(e, ToolFinished) and e.tool == "work" and e.param == "query"
           and e.status != "skipped"]
    assert ran == list(order)
