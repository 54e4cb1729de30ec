"""tool_writing: a call is said as being written from its start tag on, and ends as its card or as text."""

from __future__ import annotations

import asyncio
import io

import httpx
from hypothesis import HealthCheck, given, settings as hyp_settings, strategies as st

from tests.engine.conftest import collect
from tests.sse_server import ScriptedLLMServer, Stream
from tinyrag_desktop.cliprint import JsonPrinter, TextPrinter
from tinyrag_desktop.engine import Engine, EngineConfig
from tinyrag_desktop.engine.events import Text, ToolFinished, ToolStarted, ToolWriting

PROGRAM = "".join(f"line {i} of the query\n" for i in range(20))
LONG = f'<tool name="echo"><query>{PROGRAM}</query></tool>'


def tokens(text: str, size: int = 4) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def of(events: list, kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def every_change() -> EngineConfig:
    return EngineConfig(writing_interval=0.0)


async def test_a_long_block_is_said_as_being_written_before_its_card(llm, make_engine) -> None:
    llm.queue(Stream(tokens("I will check. " + LONG + " Done.")), Stream(["fin"]))
    events = await collect(make_engine(every_change()))
    writing = of(events, ToolWriting)
    (start,) = of(events, ToolStarted)
    assert writing and {w.id for w in writing} == {start.id} and {w.tool for w in writing} == {"echo"}
    assert events.index(writing[-1]) < events.index(start)
    assert not any(w.dropped for w in writing)
    # it grows as it comes: the input's characters and lines so far (not the tags around it: it said
    # "34 characters so far" of a search before a word of it), the element once it has come
    assert [w.chars for w in writing] == sorted(w.chars for w in writing)
    assert (writing[0].chars, writing[0].lines) == (0, 0)
    assert len(PROGRAM) - 4 <= writing[-1].chars <= len(PROGRAM) + len("</quer")
    assert writing[-1].lines == PROGRAM.count("\n") + 1
    assert writing[-1].param == "query"
    # the text before it came before it; the raw block is still no text, and the transcript keeps it
    text_before = "".join(e.text for e in of(events[: events.index(writing[0])], Text))
    assert text_before == "I will check. " and LONG in events[-1].transcript
    assert LONG not in "".join(e.text for e in of(events, Text))


async def test_each_update_carries_the_block_so_far_for_a_stopped_answer_to_keep(llm, make_engine) -> None:
    # A stopped answer ends the block with no event: the window keeps the block from its last update.
    llm.queue(Stream(tokens("I will check. " + LONG + " Done.")), Stream(["fin"]))
    writing = of(await collect(make_engine(every_change())), ToolWriting)
    assert all(LONG.startswith(w.raw) and w.raw.startswith('<tool name="echo">') for w in writing)
    assert [len(w.raw) for w in writing] == sorted(len(w.raw) for w in writing)
    assert writing[-1].raw.startswith(f'<tool name="echo"><query>{PROGRAM}')
    assert "raw" not in writing[-1].payload()  # `ask --jsonl` says its size, not the block again and again


async def test_updates_come_at_most_every_writing_interval(llm, make_engine) -> None:
    llm.queue(Stream(tokens(LONG)), Stream(["fin"]))
    events = await collect(make_engine(EngineConfig(writing_interval=3600.0)))
    (writing,) = of(events, ToolWriting)  # said when its tag came; no update within the hour
    assert writing.id == of(events, ToolStarted)[0].id


async def test_a_block_that_turns_invalid_is_dropped_before_its_text(llm, make_engine) -> None:
    bad = '<tool name="echo"><expr>1 + 1</expr></tool>'
    llm.queue(Stream(tokens("See " + bad + " then " + LONG)), Stream(["fin"]))
    events = await collect(make_engine(every_change()))
    first, *rest = of(events, ToolWriting)
    dropped = [w for w in rest if w.dropped]
    assert len(dropped) == 1 and dropped[0].id == first.id
    after = events[events.index(dropped[0]) + 1]
    assert isinstance(after, Text) and after.text.startswith("<tool ")  # its raw text comes next, as text
    # no id was used up by it: the valid block after it is written, and run, under the same one
    (start,) = of(events, ToolStarted)
    assert start.id == first.id == "call_1"
    assert [w.id for w in rest if not w.dropped] and all(w.id == "call_1" for w in rest)


async def test_a_stream_that_ends_inside_a_block_drops_it(llm, make_engine) -> None:
    llm.queue(Stream(tokens('Let me run <tool name="echo"><query>' + PROGRAM)))
    events = await collect(make_engine(every_change()))
    writing = of(events, ToolWriting)
    assert writing[-1].dropped and not any(w.dropped for w in writing[:-1])
    assert not of(events, ToolStarted)
    after = events[events.index(writing[-1]) + 1]
    assert isinstance(after, Text) and after.text.startswith('<tool name="echo">')


async def test_a_call_not_run_ends_as_its_result_under_the_same_id(llm, make_engine) -> None:
    # spelt as the model likes (the card shows the registry's name), and a tool switched off
    text = '<tool name="Echo"><query>' + PROGRAM + '</query></tool> and <tool name="off"><query>x y z</query></tool>'
    llm.queue(Stream(tokens(text, 3)), Stream(["fin"]))
    events = await collect(make_engine(every_change()))
    writing = of(events, ToolWriting)
    assert [w.tool for w in writing if w.id == "call_1"][0] == "echo"
    off = [w for w in writing if w.tool == "off"]
    (refused,) = [r for r in of(events, ToolFinished) if r.tool == "off"]
    assert off and {w.id for w in off} == {refused.id} and refused.status == "error"
    assert events.index(off[-1]) < events.index(refused)


def test_the_command_line_says_it_on_a_terminal_and_leaves_it_out_of_jsonl() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    events = [ToolWriting("call_1", "nanogo", "source", 40, 2), ToolWriting("call_1", "nanogo", "source", 80, 4),
              ToolStarted("call_1", "nanogo", "fmt.Println(1)", "source")]
    out, err = Terminal(), Terminal()
    printer = TextPrinter(out, err)
    for ev in events:
        printer.show(ev)
    assert err.getvalue().splitlines()[0] == "⟳ writing nanogo call…"  # once, however often it grows
    assert err.getvalue().count("writing") == 1 and "⟳ nanogo:" in err.getvalue()
    piped_out, piped_err = io.StringIO(), io.StringIO()  # a log or a file stays as it was
    printer = TextPrinter(piped_out, piped_err)
    for ev in events:
        printer.show(ev)
    assert "writing" not in piped_err.getvalue()
    lines = io.StringIO()
    printer = JsonPrinter(lines)
    for ev in events:
        printer.show(ev)
    assert [line.count('"event": "tool_start"') for line in lines.getvalue().splitlines()] == [1]


# -- however the stream is cut ------------------------------------------------------------------------

PIECES = st.sampled_from([
    "Some text. ", "\n\n", LONG, '<tool name="echo"><query>short</query></tool>',
    '<tool name="Echo"><query>a\nb\nc</query></tool>', '<tool name="echo"><bogus>x</bogus></tool>',
    '<tool name="echo"><query></query></tool>', '<tool name="nope"><query>q</query></tool>',
    '```\n<tool name="echo"><query>fenced</query></tool>\n```\n', "`<tool name=\"echo\">` ",
])


CALLS = (LONG, '<tool name="echo"><query>short</query></tool>', '<tool name="Echo"><query>a\nb\nc</query></tool>',
         '<tool name="nope"><query>q</query></tool>')  # the pieces that are calls (run, refused or skipped)


async def _run(tokens_: list[str], registry, tmp_path) -> list:
    with ScriptedLLMServer() as server:
        server.queue(Stream(tokens_), Stream(["fin"]))
        from tinyrag_desktop.settings import defaults

        settings = defaults().replace(base_url=server.base_url, chat_model="scripted", connect_timeout=2.0,
                                      first_token_timeout=5.0)
        async with httpx.AsyncClient() as http:
            engine = Engine(settings=settings, data_dir=tmp_path, http=http, registry=registry,
                            config=EngineConfig(writing_interval=0.0, max_tools_per_round=20, max_tools_total=20))
            return await collect(engine)


@hyp_settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(PIECES, min_size=1, max_size=6), tail=st.sampled_from(["", '<tool name="echo"><query>cut']),
       points=st.lists(st.integers(0, 10_000), max_size=25))
def test_however_the_stream_is_cut_each_block_written_ends_as_its_card_or_its_text(
        parts, tail, points, registry, tmp_path) -> None:
    text = "".join(parts) + tail
    cuts = sorted({p % (len(text) + 1) for p in points} | {0, len(text)})
    pieces = [text[a:b] for a, b in zip(cuts, cuts[1:]) if b > a]
    events = asyncio.run(_run(pieces, registry, tmp_path))
    whole = asyncio.run(_run([text], registry, tmp_path))
    # the same answer, cards and results as when the text came in one piece: tool_writing only adds
    def outcome(evs: list) -> tuple:
        return ("".join(e.text for e in of(evs, Text)),
                [(e.id, e.tool, e.query) for e in of(evs, ToolStarted)],
                sorted((e.id, e.tool, e.status) for e in of(evs, ToolFinished)))
    assert outcome(events) == outcome(whole)
    open_id = None  # the block being written, and what it must end in
    for ev in events:
        if isinstance(ev, ToolWriting):
            assert open_id in (None, ev.id)
            open_id = None if ev.dropped else ev.id
            if ev.dropped:
                nxt = events[events.index(ev) + 1]
                assert isinstance(nxt, Text) and nxt.text.startswith("<tool ")
        elif isinstance(ev, Text):
            assert open_id is None, "text came while a block was being written"
        elif isinstance(ev, (ToolStarted, ToolFinished)) and open_id is not None and ev.id == open_id:
            open_id = None
    assert open_id is None
    # a block cut between its start tag and its </query> is said as being written, under its call's id
    started = {e.id for e in of(events, ToolStarted)}
    placed = iter([e for e in events if isinstance(e, ToolStarted)
                   or isinstance(e, ToolFinished) and e.id not in started])  # each valid block, in order
    seen = {e.id for e in of(events, ToolWriting)}
    at = 0
    for part in parts:
        if part in CALLS:
            call = next(placed)
            assert call.raw == part
            tag_end, inner_end = at + part.index(">") + 1, at + part.rindex("</query>")
            if any(tag_end <= c < inner_end for c in cuts):
                assert call.id in seen, (part, cuts)
        at += len(part)
