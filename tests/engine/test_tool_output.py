"""tool_output: what a running Go program prints comes as it comes, so a stopped answer can keep it."""

from __future__ import annotations

import asyncio

from tests.engine.test_engine import block, of, tokens
from tests.sse_server import Stream
from tinyrag_desktop.engine import Engine
from tinyrag_desktop.engine.events import ToolFinished, ToolOutput, ToolStarted
from tinyrag_desktop.tools.nanogo import sandbox
from tinyrag_desktop.tools.nanogo_tool import _teller
from tinyrag_desktop.tools.registry import default_registry

PRINTS_THEN_LOOPS = 'fmt.Println("first line")\nfmt.Println("second line")\nfor {\n}'


async def test_a_stopped_programs_output_came_before_the_stop(llm, settings, http, tmp_path) -> None:
    # Stopped, the call ends with no result: what it printed was lost with it.
    llm.queue(Stream(tokens("Running it. " + block("nanogo", PRINTS_THEN_LOOPS, "source"))))
    engine = Engine(settings=settings.replace(allow_nanogo=True), data_dir=tmp_path, http=http,
                    registry=default_registry())
    events: list = []
    printed = asyncio.Event()

    async def read() -> None:
        async for event in engine.run([{"role": "user", "content": "run it"}]):
            events.append(event)
            if "second line" in "".join(e.text for e in of(events, ToolOutput)):
                printed.set()

    task = asyncio.create_task(read())
    await asyncio.wait_for(printed.wait(), 30)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    if sandbox._REAPING:  # the killed worker reaped within this test's loop, not collected in a later test
        await asyncio.wait(set(sandbox._REAPING), timeout=10)
    (start,) = of(events, ToolStarted)
    outputs = of(events, ToolOutput)
    assert {(o.id, o.tool) for o in outputs} == {(start.id, "nanogo")} and of(events, ToolFinished) == []
    assert "".join(o.text for o in outputs) == "first line\nsecond line\n"
    assert all(events.index(start) < events.index(o) for o in outputs)


async def test_a_finished_programs_output_comes_before_its_result(llm, settings, http, tmp_path) -> None:
    llm.queue(Stream(tokens(block("nanogo", 'fmt.Println("hi")', "source"))), Stream(["It printed hi."]))
    engine = Engine(settings=settings.replace(allow_nanogo=True), data_dir=tmp_path, http=http,
                    registry=default_registry())
    events = [e async for e in engine.run([{"role": "user", "content": "run it"}])]
    (result,) = of(events, ToolFinished)
    outputs = of(events, ToolOutput)
    assert "".join(o.text for o in outputs) == result.result == "hi\n"
    assert events.index(outputs[-1]) < events.index(result)


def test_output_is_told_as_text_whole_characters_and_no_more_than_the_result_keeps() -> None:
    told: list[str] = []
    tell = _teller(told.append)
    for piece in ("é".encode()[:1], "é".encode()[1:] + b"x"):  # a character in two pieces
        tell(piece)
    assert "".join(told) == "éx"
    told.clear()
    tell(b"y" * 70_000)
    tell(b"z")
    assert "".join(told) == "y" * (65536 - 3)  # 3 bytes told already; nothing after the limit
