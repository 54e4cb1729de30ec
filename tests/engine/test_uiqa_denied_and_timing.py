"""A command the user denied uses up no tool budget, and a card's time leaves out the user's thinking."""

from __future__ import annotations

import time as real_time
from types import SimpleNamespace

import httpx

from tests.sse_server import Stream
from tinyrag_desktop.engine import Engine, EngineConfig
from tinyrag_desktop.engine import calls as calls_module
from tinyrag_desktop.engine import engine as engine_module
from tinyrag_desktop.engine.events import Done, ToolFinished
from tinyrag_desktop.tools import ToolRegistry
from tinyrag_desktop.tools.calculate import TOOLS as CALC_TOOLS
from tinyrag_desktop.tools.shell import DENIED
from tinyrag_desktop.tools.shell import TOOLS as SHELL_TOOLS

from .test_engine import block, of, tokens


def _registry() -> ToolRegistry:
    reg = ToolRegistry()
    reg.extend(CALC_TOOLS)
    reg.extend(SHELL_TOOLS)
    return reg


async def _ask(settings, tmp_path, confirm, config: EngineConfig) -> list:
    async with httpx.AsyncClient() as http:
        engine = Engine(settings=settings.replace(allow_shell_exec=True), data_dir=tmp_path, http=http,
                        registry=_registry(), confirm=confirm, config=config)
        return [ev async for ev in engine.run([{"role": "user", "content": "question"}])]


async def test_a_denied_command_leaves_the_answer_its_tool_calls(llm, settings, tmp_path) -> None:
    # With one call per answer, the denied command used it up: the model's next call, the one the user
    # could have wanted, was refused with "limit reached: at most 1 tool calls per answer" (sic).
    asked = []

    async def deny(tool: str, text: str) -> bool:
        asked.append(text)
        return False

    llm.queue(Stream(tokens(block("shell", "rm -rf build"))), Stream(tokens(block("calculate", "6 * 7"))),
              Stream(tokens("It is 42.")))
    events = await _ask(settings, tmp_path, deny, EngineConfig(max_tools_total=1))
    denied, calc = of(events, ToolFinished)
    assert asked == ["rm -rf build"] and denied.error == DENIED
    assert calc.status == "ok" and calc.result.endswith("= 42"), calc.error
    assert isinstance(events[-1], Done) and events[-1].tools_run == 1  # the calculation; nothing else ran


async def test_a_denied_command_asked_for_again_is_not_put_to_the_user_again(llm, settings, tmp_path) -> None:
    asked = []

    async def deny(tool: str, text: str) -> bool:
        asked.append(text)
        return False

    llm.queue(Stream(tokens(block("shell", "ls"))), Stream(tokens(block("shell", "ls"))), Stream(["Fine."]))
    events = await _ask(settings, tmp_path, deny, EngineConfig())
    first, again = of(events, ToolFinished)
    assert asked == ["ls"] and first.error == DENIED
    # "already ran in this answer" said of a command that never ran
    assert again.status == "skipped" and again.error == "duplicate call: the user already denied this command in this answer"
    assert events[-1].tools_run == 0


async def test_the_time_a_command_ran_leaves_out_the_time_the_question_was_open(
        llm, settings, tmp_path, monkeypatch) -> None:
    # The card read "60.0 s" for an echo: the minute the user looked at the command before pressing Run.
    thinking = [0.0]
    clock = SimpleNamespace(monotonic=lambda: real_time.monotonic() + thinking[0])
    monkeypatch.setattr(engine_module, "time", clock)  # the answer's time
    monkeypatch.setattr(calls_module, "time", clock)  # the tool's

    async def slow_yes(tool: str, text: str) -> bool:
        thinking[0] += 60.0  # the user read the command for a minute
        return True

    llm.queue(Stream(tokens(block("shell", "echo tinyrag"))), Stream(["Done."]))
    events = await _ask(settings, tmp_path, slow_yes, EngineConfig())
    (result,) = of(events, ToolFinished)
    assert result.status == "ok" and "tinyrag" in result.result
    assert 0 <= result.elapsed_ms < 30_000
    assert events[-1].elapsed_ms >= 60_000  # the answer's own time is the user's too: it did take that long
