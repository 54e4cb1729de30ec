"""Fixtures for engine tests: a scripted loopback LLM server, settings pointing at it, a tool registry."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import AsyncIterator

import httpx
import pytest

from tests.sse_server import ScriptedLLMServer
from tinyrag_desktop.engine import Engine, EngineConfig
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.tools import ToolContext, ToolError, ToolRegistry, ToolResult, ToolSpec
from tinyrag_desktop.tools.calculate import TOOLS as CALC_TOOLS


@pytest.fixture
def llm() -> ScriptedLLMServer:
    with ScriptedLLMServer() as server:
        yield server


async def _echo(content: str, ctx: ToolContext) -> ToolResult:
    return ToolResult(f"echo: {content}", source="echo-source")


async def _fail(content: str, ctx: ToolContext) -> ToolResult:
    raise ToolError(f"cannot do {content}")


class Hanging:
    """A tool that never finishes; records whether it was cancelled."""

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.cancelled = False

    async def __call__(self, content: str, ctx: ToolContext) -> ToolResult:
        self.started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        return ToolResult("never")


@pytest.fixture
def hanging() -> Hanging:
    return Hanging()


@pytest.fixture
def registry(hanging: Hanging) -> ToolRegistry:
    reg = ToolRegistry()
    reg.extend(CALC_TOOLS)
    reg.register(ToolSpec("echo", "query", "Echoes its input.", _echo, "hello"))
    reg.register(ToolSpec("fail", "query", "Always fails.", _fail, "x"))
    reg.register(ToolSpec("hang", "query", "Never finishes.", hanging, "x"))
    reg.register(ToolSpec("fetch", "url", "Takes a URL.", _echo, "https://example.org"))
    reg.register(ToolSpec("off", "query", "Disabled.", _echo, "x", enabled=lambda s: False,
                          disabled_reason="enable it with --allow-off"))
    return reg


@pytest.fixture
def settings(llm: ScriptedLLMServer):
    return defaults().replace(base_url=llm.base_url, chat_model="scripted", connect_timeout=2.0,
                              first_token_timeout=5.0)


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient() as client:
        yield client


@pytest.fixture
def make_engine(settings, registry, http, tmp_path: Path):
    def make(config: EngineConfig | None = None, **changes) -> Engine:
        return Engine(settings=settings.replace(**changes) if changes else settings, data_dir=tmp_path,
                      http=http, registry=registry, config=config)

    return make


async def collect(engine: Engine, question: str = "question") -> list:
    return [ev async for ev in engine.run([{"role": "user", "content": question}])]
