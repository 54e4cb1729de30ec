"""A round's tool calls: shown as they are written, admitted or refused, run within the tool timeout."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from ..protocol import InvalidBlock, ParseEvent, TextChunk, ToolCall, XMLParseState, cut_at_limit
from ..tool_words import DISABLED
from ..tools.errors import ToolError
from ..tools.registry import ToolContext, ToolRegistry, ToolSpec
from . import advice, prompts
from .config import EngineConfig
from .events import EngineEvent, Text, ToolFinished, ToolOutput, ToolStarted, ToolWriting

log = logging.getLogger("tinyrag_desktop.engine.engine")  # the name the engine's log lines had before this module


@dataclass
class Request:
    """Per-request bookkeeping: the seen map, the counters, the transcript."""

    config: EngineConfig
    seen: set[tuple[str, str, str]] = field(default_factory=set)  # (tool, element, content)
    denied: set[tuple[str, str, str]] = field(default_factory=set)  # of the seen: calls the user said no to
    refused: dict[tuple[str, str, str], str] = field(default_factory=dict)  # of the seen: never run, and why
    tools_run: int = 0  # calls that ran: a command the user denied is given back (see _run_tool)
    next_id: int = 0
    transcript: list[str] = field(default_factory=list)
    told: set[str] = field(default_factory=set)  # the notes given the model in this answer
    words: bool = False  # an ended round showed words of the answer (see Round.words)

    def new_id(self) -> str:
        self.next_id += 1
        return f"call_{self.next_id}"

    def ended(self, rnd: "Round") -> None:
        """Keep what ``rnd`` wrote (also when it failed: what arrived is kept)."""
        self.transcript.append("".join(rnd.text))
        self.words = self.words or rnd.words

    def begun(self, rnd: "Round | None" = None) -> bool:
        """Whether the answer's words are on screen: an earlier round's, or ``rnd``'s. A failure in a later round
        said "none of it came" of an answer whose first round was on screen; and the transcript's text, which
        holds the tool blocks, said "the text so far is kept" of a round that showed only a tool's card."""
        return self.words or (rnd is not None and rnd.words)

    def upcoming_id(self) -> str:
        """The id ``new_id`` gives next: the block being written gets it when it is whole."""
        return f"call_{self.next_id + 1}"


@dataclass
class Round:
    """One round's bookkeeping: its text, its calls and their results, the tools still running."""

    number: int
    run: int = 0
    text: list[str] = field(default_factory=list)
    results: list[tuple[str, str, str, str, str]] = field(default_factory=list)
    running: set[asyncio.Task[None]] = field(default_factory=set)
    advice: list[str] = field(default_factory=list)  # our own corrections: trusted, sent outside the results
    outstanding: int = 0  # started calls whose result has not been yielded yet
    after_call: str | None = None  # the text since the round's last valid block; None before the first
    invalid_at_end: str = ""  # why the invalid block the round's text ends with (but spaces) was not run
    after_invalid: str = ""  # the text after that block: spaces, or what closes a construct around it ("**")
    invalid_goes_on: bool = False  # that block was cut at the parser's limit: the rest of it, to its </tool>, follows
    writing: ToolWriting | None = None  # the last tool_writing sent of the block being written
    writing_at: float = 0.0  # when (time.monotonic)
    reasoning: list[str] = field(default_factory=list)  # what the model reasoned in this round
    finish_reason: str | None = None  # how the server said the reply ended
    words: bool = False  # text was shown, not blanks nor only tool blocks (cards)

    def take_back(self, start: int) -> None:
        """Take back the text from ``start`` on (it was reasoning): the words it showed are gone."""
        del self.text[start:]
        self.words = False

    def in_call_order(self) -> None:
        """Put the results in the order their calls were written: a refused call's is in as soon as it is
        parsed, a run call's when it finishes, and the model matched "call_2, call_3, call_4, call_1" to
        its calls with difficulty. (The cards still finished when their tools did.)"""
        self.results.sort(key=lambda result: int(result[0].rpartition("_")[2]))

    def waiting(self) -> bool:
        """The model stopped right after a tool block: it wrote no answer, it waits for the results."""
        return self.after_call is not None and not self.after_call.strip()


class ToolCalls:
    """The part of ``Engine`` that turns the parser's events into calls and runs them; ``Engine`` inherits it."""

    settings: Mapping[str, Any]
    data_dir: Path
    registry: ToolRegistry

    def _parsed(
        self,
        events: Iterable[ParseEvent],
        parser: XMLParseState,
        rnd: Round,
        req: Request,
        ctx: ToolContext,
        queue: asyncio.Queue[tuple[str, Any]],
    ) -> Iterator[EngineEvent]:
        """The engine's events for what the parser gave, then for the block it is in the middle of, if any."""
        for event in events:
            yield from self._on_parse_event(event, rnd, req, ctx, queue)
        yield from self._writing(parser, rnd, req)

    def _writing(self, parser: XMLParseState, rnd: Round, req: Request) -> list[EngineEvent]:
        """Say that a block is being written: as its start tag comes, then as it grows (at most every
        writing_interval seconds), and that it was dropped when it can no longer be a call. A block that
        ends (a call or text) was settled already by _on_parse_event, before the next one opens."""
        shown, block = rnd.writing, parser.open_block
        if block is None:
            return self._dropped(rnd) if shown is not None else []
        now = time.monotonic()
        if shown is not None and ((block.input_chars, block.param) == (shown.chars, shown.param)
                                  or now - rnd.writing_at < req.config.writing_interval):
            return []
        if shown is None:
            spec = self.registry.get(block.name) or self._by_folded_name(block.name)
            call_id, tool = req.upcoming_id(), spec.name if spec is not None else block.name
        else:
            call_id, tool = shown.id, shown.tool
        rnd.writing = ToolWriting(call_id, tool, block.param, block.input_chars, block.input_lines, False, rnd.number,
                                  parser.open_raw())
        rnd.writing_at = now
        return [rnd.writing]

    @staticmethod
    def _dropped(rnd: Round) -> list[EngineEvent]:
        """The block being written turned out no call: its card goes (its text comes next, as text)."""
        shown, rnd.writing = rnd.writing, None
        return [dataclasses.replace(shown, dropped=True)] if shown is not None else []

    def _on_parse_event(
        self,
        event: TextChunk | ToolCall | InvalidBlock,
        rnd: Round,
        req: Request,
        ctx: ToolContext,
        queue: asyncio.Queue[tuple[str, Any]],
    ) -> list[EngineEvent]:
        if isinstance(event, TextChunk):
            rnd.text.append(event.text)
            rnd.words = rnd.words or bool(event.text.strip())
            if rnd.invalid_at_end and event.text.strip():  # more words, or the end of a construct around it
                rnd.after_invalid += event.text
                if rnd.invalid_goes_on:  # the block's own end is no text after it
                    rnd.after_invalid, rnd.invalid_goes_on = advice.past_close(rnd.after_invalid)
                if len(rnd.after_invalid) > advice.CLOSING_CHARS:
                    rnd.invalid_at_end = ""
            if rnd.after_call is not None:
                rnd.after_call += event.text
            return [Text(event.text, rnd.number)]
        rnd.text.append(event.raw)
        if isinstance(event, InvalidBlock):
            log.warning("invalid tool block shown as text (%s): %.200r", event.reason, event.raw)
            rnd.invalid_at_end, rnd.after_invalid, rnd.words = event.reason, "", True  # shown as written
            rnd.invalid_goes_on = cut_at_limit(event)
            if rnd.after_call is not None:
                rnd.after_call += event.raw
            return [*self._dropped(rnd), Text(event.raw, rnd.number)]
        rnd.writing = None  # its tool_start or tool_result, with the id it was written under, follows
        rnd.after_call = ""
        rnd.invalid_at_end = ""
        return [self._admit(event, rnd, req, ctx, queue)]

    def _admit(
        self,
        call: ToolCall,
        rnd: Round,
        req: Request,
        ctx: ToolContext,
        queue: asyncio.Queue[tuple[str, Any]],
    ) -> EngineEvent:
        """Start ``call`` or say why not: duplicate, unknown, disabled, wrong element, over a limit."""
        cfg = req.config
        call_id = req.new_id()
        spec = self.registry.get(call.name) or self._by_folded_name(call.name)
        # The same tool however the model spells it ("websearch", "WebSearch"): a new spelling is no new call.
        # The element is part of the call: <url> after a refused <query> is the correction the note asked for.
        tool = spec.name if spec is not None else call.name
        key = (tool, call.param, call.content)
        if spec is not None and advice.folded(spec.name) != advice.folded(call.name):  # "calculator"
            rnd.advice.append(advice.renamed(call.name, spec))
        status, reason = "error", ""
        if key in req.seen:
            if key in req.refused:  # it never ran: say why it was refused, not that it "already ran"
                why = f"duplicate call: the same call was refused earlier in this answer ({req.refused[key]})"
            elif key in req.denied:
                why = "duplicate call: the user already denied this command in this answer"
            else:
                why = "duplicate call: the same tool with the same input already ran in this answer"
            status, reason = "skipped", why
        elif spec is None:
            reason = self._unknown_tool(call.name)
        elif not spec.enabled(self.settings):
            reason = DISABLED.format(tool=spec.name) + f"{spec.disabled_reason or 'turn it on in Settings'}."
        elif call.param != spec.element:
            reason = (
                f"{spec.name} takes <{spec.element}>, not <{call.param}>. Write: "
                f"{prompts.block_example(spec)}"
            )
        elif req.tools_run >= cfg.max_tools_total:
            status, reason = "skipped", f"limit reached: {advice.calls(cfg.max_tools_total)} per answer"
        elif rnd.run >= cfg.max_tools_per_round:
            status, reason = "skipped", f"limit reached: {advice.calls(cfg.max_tools_per_round)} per round"
        else:
            req.seen.add(key)
            req.tools_run += 1
            rnd.run += 1
            task = asyncio.create_task(self._run_tool(spec, call, call_id, rnd, req, ctx, queue))
            rnd.running.add(task)
            rnd.outstanding += 1
            return ToolStarted(call_id, spec.name, call.content, call.param, rnd.number, call.raw)
        if status == "error":
            req.seen.add(key)
            req.refused[key] = reason.rstrip(".")
            rnd.advice.append(reason)
        rnd.results.append((call_id, tool, status, "", reason))
        return ToolFinished(call_id, tool, call.content, "", reason, 0, status, 0, "", call.param, rnd.number,
                            call.raw)

    def _by_folded_name(self, name: str) -> ToolSpec | None:
        """``Wikipedia`` or ``web-search`` for ``wikipedia``/``websearch``: models vary the case and dashes;
        ``calculator`` or ``wiki`` (advice.ALIASES) for the tool other apps give that name, an enabled one first."""
        key = advice.folded(name)
        for spec in self.registry.all():
            if spec.name.replace("_", "") == key:
                return spec
        meant = [spec for target in advice.ALIASES.get(key, ()) if (spec := self.registry.get(target)) is not None]
        return next((spec for spec in meant if spec.enabled(self.settings)), meant[0] if meant else None)

    def _unknown_tool(self, name: str) -> str:
        enabled = self.registry.enabled(self.settings)
        listed = "; ".join(f"{t.name} (<{t.element}>)" for t in enabled) or "none"
        example = prompts.block_example(enabled[0]) if enabled else ""
        shown = prompts.neutralise(name[:100].replace("\n", " "))  # the model's own words, in our note
        return f"There is no tool called “{shown}”. Available tools: {listed}. Write for example: {example}"

    async def _run_tool(
        self,
        spec: ToolSpec,
        call: ToolCall,
        call_id: str,
        rnd: Round,
        req: Request,
        ctx: ToolContext,
        queue: asyncio.Queue[tuple[str, Any]],
    ) -> None:
        timeout = req.config.tool_timeout
        started = time.monotonic()
        asked = _Asked()
        text, source, error, anchors = "", "", None, ()

        def printed(more: str) -> None:
            if more:
                queue.put_nowait(("output", ToolOutput(call_id, spec.name, more, rnd.number)))

        ctx = dataclasses.replace(ctx, output=printed)
        try:
            # The tools that keep time themselves (nanoGo, the shell, url_fetch) stop at the timeout the user
            # set and say so in their own words; the engine's stop, a little later, is for those that do not.
            # (They stopped a little early, and a card said "4.8 s" beside "within the 5-second timeout".)
            async with asyncio.timeout(timeout + (tool_grace(timeout) if spec.keeps_time else 0)) as deadline:
                result = await spec.run(call.content, _paused_while_asking(ctx, deadline, asked))
            text, source, anchors = result.text, result.source, result.anchors
        except TimeoutError:
            error = f"{spec.name} did not finish within the {timeout:g}-second tool timeout and was stopped."
        except ToolError as exc:
            error = str(exc)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a tool's bug must not end the answer: the model reads what happened
            log.exception("tool %s failed", spec.name)
            error = f"{spec.name} failed unexpectedly: {type(exc).__name__}: {exc}"
        finally:
            rnd.running.discard(asyncio.current_task())  # type: ignore[arg-type]
        if asked.denied and error is not None:
            # The user said no: nothing ran, and the limits count calls that run (DESIGN), so the call gives
            # its place back. It stays seen: the same command is not put to the user again in this answer.
            req.tools_run -= 1
            rnd.run -= 1
            req.denied.add((spec.name, call.param, call.content))
        status = "ok" if error is None else "error"
        rnd.results.append((call_id, spec.name, status, source, text if error is None else f"Error: {error}"))
        # How long the tool worked: the time the user took to answer its question is theirs, not the tool's.
        elapsed = max(0, elapsed_ms(started) - int(asked.seconds * 1000))
        queue.put_nowait(("result", ToolFinished(
            call_id, spec.name, call.content, source, error, len(text.encode("utf-8", "surrogatepass")), status,
            elapsed, text, call.param, rnd.number, call.raw, anchors,
        )))


@dataclass
class _Asked:
    """What asking the user cost one call: how long the question was open, and whether they said no."""

    seconds: float = 0.0
    denied: bool = False


def _paused_while_asking(ctx: ToolContext, deadline: asyncio.Timeout, asked: _Asked) -> ToolContext:
    """The tool's time does not run while the user is deciding (the shell tool's Run / Deny); ``asked``
    records that time and the answer."""
    if ctx.confirm is None:
        return ctx
    ask = ctx.confirm

    async def confirm(tool: str, text: str) -> bool:
        loop = asyncio.get_running_loop()
        when = deadline.when()
        left = None if when is None else when - loop.time()
        deadline.reschedule(None)
        since = time.monotonic()
        try:
            yes = await ask(tool, text)
            asked.denied = asked.denied or not yes
            return yes
        finally:
            asked.seconds += time.monotonic() - since
            deadline.reschedule(None if left is None else loop.time() + left)

    return dataclasses.replace(ctx, confirm=confirm)


def tool_grace(timeout: float) -> float:
    """How long after the tool timeout the engine stops a call whose tool did not stop itself."""
    return min(2.0, max(0.5, timeout * 0.1))


def elapsed_ms(since: float) -> int:
    return int((time.monotonic() - since) * 1000)
