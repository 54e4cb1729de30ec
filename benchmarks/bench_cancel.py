"""Cancel latency: from cancelling a request to its stream and running tool being stopped (target 200 ms).

A loopback server streams slowly while a tool that never finishes is running; the task iterating
``Engine.run`` is cancelled and the time until it has finished (stream closed, tool cancelled) is measured.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402

from tests.sse_server import ScriptedLLMServer, Stream  # noqa: E402
from tinyrag_desktop.engine import Engine  # noqa: E402
from tinyrag_desktop.settings import defaults  # noqa: E402
from tinyrag_desktop.tools import ToolContext, ToolRegistry, ToolResult, ToolSpec  # noqa: E402

TRIALS = 20


async def trial(server: ScriptedLLMServer, http: httpx.AsyncClient, data_dir: Path) -> float:
    started = asyncio.Event()
    cancelled = asyncio.Event()

    async def hang(content: str, ctx: ToolContext) -> ToolResult:
        started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return ToolResult("never")

    registry = ToolRegistry()
    registry.register(ToolSpec("hang", "query", "Never finishes.", hang, "x"))
    block = '<tool name="hang"><query>x</query></tool>'
    server.queue(Stream([block[i:i + 3] for i in range(0, len(block), 3)] + [" slow tail"] * 200, delay=0.02))
    settings = defaults().replace(base_url=server.base_url, chat_model="scripted")
    engine = Engine(settings=settings, data_dir=data_dir, http=http, registry=registry)

    async def consume() -> None:
        async for _ in engine.run([{"role": "user", "content": "q"}]):
            pass

    task = asyncio.create_task(consume())
    await asyncio.wait_for(started.wait(), 10)
    t0 = time.perf_counter()
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
    elapsed = time.perf_counter() - t0
    assert cancelled.is_set(), "the running tool was not cancelled"
    return elapsed


async def main() -> None:
    with ScriptedLLMServer() as server, tempfile.TemporaryDirectory() as tmp:
        async with httpx.AsyncClient() as http:
            times = [await trial(server, http, Path(tmp)) for _ in range(TRIALS)]
    ms = sorted(t * 1000 for t in times)
    print(f"cancel latency over {TRIALS} requests (stream + running tool stopped): "
          f"median {statistics.median(ms):.1f} ms, max {ms[-1]:.1f} ms (target <= 200 ms): "
          f"{'meets' if ms[-1] <= 200 else 'MISSES'}")


if __name__ == "__main__":
    asyncio.run(main())
