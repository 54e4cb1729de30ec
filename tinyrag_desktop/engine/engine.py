"""The request loop: stream a round, run each complete block at once, continue with the results.

One request is an async generator of events. Inside a round, the LLM stream and the running tools feed one
queue, so a tool's result appears as soon as it is ready, while the model is still writing. Limits come from
EngineConfig; a call over a limit, a duplicate or an unknown tool is reported, never run. Cancelling the task
that iterates ``run`` stops the stream and every running tool at once.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator, Awaitable, Callable, Mapping, NamedTuple, Sequence

import httpx

from ..protocol import ThinkSplitter, XMLParseState
from ..protocol.think import CLOSED, REASONING
from ..tools.registry import ToolContext, ToolRegistry, ToolSpec, default_registry
from . import advice, prompts
from .calls import Request, Round, ToolCalls, elapsed_ms, tool_grace  # noqa: F401 (tool_grace: importable here)
from .config import EngineConfig
from .context import (MIN_REPLY, MIN_WINDOW, PASSAGE_CHARS, Fitting, Window, ask_window, estimate, tokens,
                      window_for)
from .errors import BadResponse, ContextTooLong, LLMError
from .events import Done, EngineError, EngineEvent, ModelChosen, Reasoning, Retract, Route, Text, named
from .habits import _OPENS_THINKING, _READ_FROM, THINKING_MODELS  # noqa: F401 (tests read them here)
from .habits import learn as _learn, read_habits as _read_habits
from .llm import LLMClient
from .reply import (STOP_SEQUENCES, StopAt, answered_in_reasoning, raise_if_not_whole, stop_all, stream_into,
                    surely_no_reasoning, taken_back)
from .router import Decision, route

if TYPE_CHECKING:
    from ..kb import Hit

log = logging.getLogger(__name__)

KnowledgeLookup = Callable[[str, int], Awaitable[str]]

# (base URL, model) → the context window a refusal named, and when, for the next requests when the server
# cannot say it; forgotten after REFUSAL_KEPT seconds (the server may have been started with a larger one)
_REFUSED_AT: dict[tuple[str, str], tuple[int, float]] = {}
REFUSAL_KEPT = 600.0
# (base URL, model) → the budget a request was taken with after refusals that named no window, and when: the
# next question starts from it (each went through the same three refusals again), for REFUSAL_KEPT seconds
_TAKEN_AFTER: dict[tuple[str, str], tuple[int, float]] = {}
# (base URL, model) → the window the server told, and when; asked again after WINDOW_KEPT seconds (a model
# loaded again may have been given another)
_TOLD: dict[tuple[str, str], tuple[Window, float]] = {}
WINDOW_KEPT = 10.0


class Engine(ToolCalls):
    """Runs requests against one LLM server with the tools the settings enable."""

    def __init__(
        self,
        *,
        settings: Mapping[str, Any],
        data_dir: Path,
        http: httpx.AsyncClient,
        registry: ToolRegistry | None = None,
        confirm: Callable[[str, str], Awaitable[bool]] | None = None,
        config: EngineConfig | None = None,
    ) -> None:
        self.settings = settings
        self.data_dir = Path(data_dir)
        self.http = http
        self.registry = registry if registry is not None else default_registry()
        self.confirm = confirm
        self.config = config

    # -- the request ------------------------------------------------------------------------------

    async def run(
        self, messages: Sequence[Mapping[str, str]], *, system: str | None = None, chat_id: str | None = None
    ) -> AsyncIterator[EngineEvent]:
        """Answer the conversation whose last message is the user's question, as a stream of events: the route,
        the model, then round after round (the model's reply, its calls' results sent back to it) until it
        answers or a limit ends the answer; last Done, after an EngineError when the request failed."""
        started = time.monotonic()
        cfg = self.config or EngineConfig.from_settings(self.settings)
        question = str(messages[-1].get("content", "")) if messages else ""
        offer = self._offer(cfg)
        decision, passages = await self._decide(question, offer)
        yield Route(decision.mode, decision.reason, decision.hints, _locations(passages), decision.problem,
                    _anchors(passages, _locations(passages)))
        fitting = self._fitting(messages, question, system, decision, passages, offer, cfg)
        client = LLMClient(
            self.http, str(self.settings.get("base_url", "")), str(self.settings.get("api_key", "") or ""),
            connect_timeout=cfg.connect_timeout, first_token_timeout=cfg.first_token_timeout,
        )
        ctx = self._tool_context(passages, chat_id)
        answer = _Answer(Request(cfg))
        req, shown = answer.req, answer.shown
        try:
            model = answer.model = await client.resolve_model(str(self.settings.get("chat_model", "") or ""))
            yield ModelChosen(model)
            fitting.ask = lambda: self._window(client, model, cfg)
            for number in range(1, cfg.max_continuations + 2):
                answer.rounds = number
                rnd = Round(number)
                if gap := _paragraph_break(req.transcript, number):
                    yield Text(gap, number)
                    rnd.text.append(gap)
                try:
                    async for event in self._fitted_round(client, model, fitting, rnd, req, ctx):
                        answer.heard_from_model = True
                        if isinstance(event, Reasoning):
                            answer.reasoned = True
                            rnd.reasoning.append(event.text)
                        if isinstance(event, Text):
                            shown.append(event.text)
                        elif isinstance(event, Retract) and event.channel == "text":
                            shown[:] = [_without_end("".join(shown), event.text)]
                        yield named(event, model)
                finally:  # what arrived is kept, even when the round failed
                    req.ended(rnd)
                note, last = self._after_round(rnd, answer, offer)
                if note is not None:
                    yield note
                    shown.append(note.text)
                if last:
                    break
                await _send_results(fitting, rnd, question, cfg)
            answer.check_not_empty(rnd)
        except LLMError as exc:
            log.info("request failed: %s", exc)
            yield EngineError(str(exc), exc.kind)
            answer.failed = True
        yield answer.done(question, passages, fitting, started)

    def _offer(self, cfg: EngineConfig) -> _Offer:
        """The tools the model is taught, and those it may call. With no call allowed to run (a limit of 0), no
        tool is offered: taught the blocks, the model called them, and each call was skipped. The knowledge
        base's passages still go into the prompt. (With no round after the first, calls still run: the user
        reads their results on the cards.)"""
        enabled = self.registry.enabled(self.settings)
        if cfg.max_tools_total > 0 and cfg.max_tools_per_round > 0:
            return _Offer(enabled, {t.name for t in enabled}, calls=True)
        return _Offer([], {t.name for t in enabled} & {"rag_knowledge"}, calls=False)

    async def _decide(self, question: str, offer: _Offer) -> tuple[Decision, Sequence[Hit]]:
        """The route, and the knowledge base's passages for the prompt when the route takes them, with the
        route's reason saying what the knowledge base held."""
        decision = await self._route(question, offer.names)
        passages = await self._rag_passages(question) if decision.mode == "rag" or decision.documents_first else ()
        if decision.documents_first and passages:  # the user's documents before the encyclopedia or the web
            kept = tuple(h for h in decision.hints if h not in decision.weak)
            before = " and ".join(decision.weak)
            decision = Decision("rag", "the knowledge base has passages about the question"
                                + (f" (looked at before {before})" if before else ""), kept or ("rag_knowledge",))
        elif decision.mode == "rag":
            decision = (Decision("rag", "the knowledge base has passages about the question", decision.hints)
                        if passages else
                        Decision("direct", "nothing in the knowledge base is about the question's words "
                                           "(the model can still search it)"))
        if not offer.calls:
            decision = dataclasses.replace(decision, hints=(), weak=())
        return decision, passages

    def _fitting(
        self, messages: Sequence[Mapping[str, str]], question: str, system: str | None, decision: Decision,
        passages: Sequence[Hit], offer: _Offer, cfg: EngineConfig,
    ) -> Fitting:
        """The conversation the rounds send: the system prompt (with the passages) and the example turns, the
        chat, the question; to be cut to the model's window, and to grow by each round's reply and results."""
        context = _context(question, passages)

        def head_with(passage_chars: int = PASSAGE_CHARS) -> list[dict[str, str]]:
            text = _context(question, passages, passage_chars) if passage_chars != PASSAGE_CHARS else context
            return [{"role": "system", "content": prompts.system_prompt(
                persona=system, tools=offer.tools, lang=str(self.settings.get("lang", "en")), context=text)},
                *prompts.example_turns(offer.tools)]

        head = head_with()
        chat = [{"role": str(m["role"]), "content": str(m["content"])} for m in messages]
        if decision.hints and chat and chat[-1]["role"] == "user":
            # Small models pick the right tool far more often when the question names it (and one tool:
            # two names confuse them, so the router hints the knowledge base only when nothing else fits).
            chat[-1] = {"role": "user", "content": f"{chat[-1]['content']}\n{prompts.hint_line(decision.hints[:1])}"}
        tail = chat[-1:]  # the question, then each round's reply and results: never left out
        return Fitting(head, chat[:-1], tail, max_tokens=cfg.max_tokens,
                       setting=max(cfg.context_tokens, MIN_WINDOW) if cfg.context_tokens else 0,
                       smaller_head=head_with if passages else None,
                       persona=estimate(system) if system and system.strip() else 0,
                       tools=[t.name for t in offer.tools])

    def _tool_context(self, passages: Sequence[Hit], chat_id: str | None) -> ToolContext:
        # the prompt's passages are [1]…[n] by document (format_hits): the searches go on from there
        citations = {location: n for n, location in enumerate(_locations(passages), start=1)}
        return ToolContext(settings=self.settings, data_dir=self.data_dir, http=self.http, confirm=self.confirm,
                           chat_id=chat_id, citations=citations)

    async def _route(self, question: str, enabled: set[str]) -> Decision:
        has_kb, problem = (await asyncio.to_thread(_has_documents, self.data_dir) if "rag_knowledge" in enabled
                           else (False, ""))
        decision = route(question, enabled, has_kb=has_kb)
        if problem:  # damaged or locked: not "empty", which sent no one to look at it
            log.warning("the knowledge base could not be read for routing: %s", problem)
            reason = "no tool is likely needed, and the knowledge base could not be read"
            decision = Decision(decision.mode, reason if decision.mode == "direct" else decision.reason,
                                decision.hints, problem)
        return decision

    async def _rag_passages(self, question: str) -> Sequence[Hit]:
        """The best passages for the prompt, when they are about the question. A misspelt word is searched
        as the word it stands for; a real word the documents never use ("cats" in a question about
        something else) is not, as its neighbours ("cast") would bring passages the question is not
        about. Without the English word list that tells the two apart (kb/words.py), nothing is
        corrected here; the model's own rag_knowledge searches still are."""
        from ..kb.words import available as knows_words
        from ..tools.rag import RELEVANT_SHARE, find_passages

        try:
            hits = await find_passages(self.settings, self.data_dir, question, int(self.settings.get("k", 5)),
                                       self.http, spelling=await asyncio.to_thread(knows_words))
            if hits.relevance is not None and hits.relevance < RELEVANT_SHARE:
                # the best match shares only common words with the question: small models would answer
                # from it all the same
                return ()
            return hits
        except Exception as exc:  # the knowledge base is optional help; a failure must not cost the answer
            log.warning("knowledge-base lookup for the rag route failed: %s", exc, exc_info=True)
            return ()

    async def _window(self, client: LLMClient, model: str, cfg: EngineConfig) -> Window | None:
        """The model's context: as the server says it (kept for WINDOW_KEPT seconds: asked at every question
        of a long chat, a slow server cost each its time), else as a refusal said it, else the server's guess."""
        key = (client.base_url, model)
        kept = _TOLD.get(key)
        if kept is not None and time.monotonic() - kept[1] < WINDOW_KEPT:
            return kept[0]
        told = await ask_window(self.http, client.base_url, model, headers=client.auth_headers(),
                                connect_timeout=cfg.connect_timeout, load_timeout=cfg.first_token_timeout)
        if told is not None and told.sure:
            _TOLD[key] = (told, time.monotonic())
            return told
        learned = _REFUSED_AT.get(key)
        if learned is not None and time.monotonic() - learned[1] < REFUSAL_KEPT:
            return Window(learned[0])
        taken = _TAKEN_AFTER.get(key)
        if taken is not None and time.monotonic() - taken[1] < REFUSAL_KEPT:  # a guess, as the server's own
            return Window(window_for(taken[0], cfg.max_tokens), sure=False)
        return told

    # -- between rounds ---------------------------------------------------------------------------

    def _after_round(self, rnd: Round, answer: _Answer, offer: _Offer) -> tuple[Text | None, bool]:
        """Whether the answer ends with ``rnd``, and the engine's note for the reader, if any; ``rnd.advice``
        gets what the next round's results message tells the model."""
        cfg = answer.req.config
        rnd.in_call_order()
        answer.heard += [text for *_, text in rnd.results]
        ran = any(status != "skipped" for _, _, status, _, _ in rnd.results)
        more = rnd.number <= cfg.max_continuations  # a round is left
        note = None
        if not rnd.waiting():
            note, last = self._after_reply(rnd, answer, offer, ran, more)
            if last:
                return note, True
        elif not more:
            # The last round ended on a call whose result the model can never read: without a word,
            # the answer would end on its cards, with no text after them.
            told = advice.REFUSED_ONLY in answer.req.told
            return Text(advice.ended_waiting_note(rnd.results, cfg, told=told), rnd.number, note=True), True
        elif not ran:
            # Only refused calls (a repeat, a limit): the model waits for results that will not come.
            # One more round, within max_continuations, tells it to answer from what it already has.
            rnd.advice.append(advice.REFUSED_ONLY)
            answer.req.told.add(advice.REFUSED_ONLY)
        if rnd.number == cfg.max_continuations:  # the next round is the last: a call in it will not run
            rnd.advice.append(advice.LAST_ROUND)
        return note, False

    def _after_reply(self, rnd: Round, answer: _Answer, offer: _Offer, ran: bool, more: bool
                     ) -> tuple[Text | None, bool]:
        """After a reply that did not stop right after a call: the answer ends there, unless a call in it ran (the
        model reads the results), or the model wrote a call so that it is no call, or nothing to read (once per
        answer), and a round is left to tell it so."""
        req, cfg = answer.req, answer.req.config
        reply = "".join(rnd.text)
        can_call = cfg.max_tools_per_round > 0 and req.tools_run < cfg.max_tools_total
        miswritten, aside = "", ""
        if can_call and not ran and not rnd.results and more:
            invalid = rnd.invalid_at_end if advice.closes_only(rnd.after_invalid) else ""
            miswritten, aside = advice.miswritten_call(reply, invalid, lambda name: self._offered(name, offer))
        blank = not reply.strip() and not rnd.results
        if blank and not miswritten and more and not answer.nudged:
            # Nothing to read: after its calls, the model began by copying the results message
            # (stopped at once) or only reasoned; or it wrote its call in its reasoning only.
            if req.next_id:
                miswritten = advice.ANSWER_NOW
            elif can_call and advice.call_in_reasoning("".join(rnd.reasoning)):
                miswritten = advice.CALL_IN_REASONING
            answer.nudged = bool(miswritten)
        if not ran and not miswritten:  # the model answered (or wrote on after a refused call)
            if blank and req.next_id:  # and the answer would end on its cards, without a word
                return Text(advice.blank_after_tools_note(bool(rnd.reasoning)), rnd.number, note=True), True
            return None, True
        if miswritten:  # it waits for the result of a call it wrote so that it is no call
            rnd.advice.append(miswritten)
        if aside:  # which the answer shows as written: the reader is told why nothing ran
            return Text(f"\n\n*{aside}*\n\n", rnd.number, note=True, aside=True), False
        return None, False

    def _offered(self, name: str, offer: _Offer) -> ToolSpec | None:
        """The offered tool the model means by ``name``, however it spelt it; None for another."""
        spec = self.registry.get(name) or self._by_folded_name(name)
        return spec if spec is not None and spec.name in offer.names else None

    # -- one round --------------------------------------------------------------------------------

    async def _fitted_round(
        self, client: LLMClient, model: str, fitting: Fitting, rnd: Round, req: Request, ctx: ToolContext,
    ) -> AsyncIterator[EngineEvent]:
        """One round with the conversation cut to the model's context; a request the server refuses as too
        long is sent again shorter, while earlier messages are left to leave out (a refusal comes before
        any text: nothing was shown twice)."""
        guessed = False  # refused, in words that named no window
        while True:
            convo = await fitting.convo()
            kept = fitting.kept  # of the chat's messages, sent with the question
            shown = False
            try:
                async for event in self._round(client, model, convo, rnd, req, ctx, fitting.reply_tokens(convo)):
                    shown = True
                    if guessed:  # taken: the next question starts from this budget
                        _TAKEN_AFTER[(client.base_url, model)] = (fitting.budget, time.monotonic())
                        guessed = False
                    yield event
                return
            except ContextTooLong as exc:
                # a refusal after text had come (in the stream) is no refusal of the request's length: sent
                # again, the answer would be on screen twice
                if shown:
                    raise
                if not fitting.refused(exc.window, convo):
                    if kept or exc.window and tokens(convo) + MIN_REPLY <= exc.window:
                        raise  # the chat's latest messages went too, or the estimate was far too low: its words
                    # The question alone (or the persona) did not fit: "the question with the chat's latest
                    # messages … start a new chat" was said of a first question, in a new chat.
                    raise fitting.too_long(exc.window or 0, convo) from exc
                log.info("the server refused %d messages as too long; sending them again cut to %d tokens",
                         len(convo), fitting.budget)
                if exc.window:  # said by the server: for the next question too
                    _REFUSED_AT[(client.base_url, model)] = (exc.window, time.monotonic())
                else:
                    guessed = True

    async def _round(
        self, client: LLMClient, model: str, convo: list[dict[str, str]], rnd: Round, req: Request, ctx: ToolContext,
        max_tokens: int = 0,
    ) -> AsyncIterator[EngineEvent]:
        """One reply as it streams: its reasoning apart, its text through the parser, each complete block started at
        once, and the running tools' output and results as they come. Over when the reply and its calls are;
        raises the stream's failure, or why a reply that streamed to its end is no whole answer.

        The stream and the tools feed one queue (see stream_into). The reply's text goes through the stop
        sequences (StopAt), then the reasoning's tags (ThinkSplitter), then the tool-block parser."""
        queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        parser = XMLParseState()
        habit = (client.base_url, model)
        _read_habits(self.data_dir)
        think = ThinkSplitter(presumed_open=habit in _OPENS_THINKING)
        presumed: list[str] = []  # the reasoning sent while the reply was presumed to start in it
        own = len(rnd.text)  # where this reply's own text starts (after the gap a later round begins with)
        finish_reason: str | None = None
        stopped_at = ""  # the stop sequence the server says it stopped the reply at
        stop = StopAt(STOP_SEQUENCES)
        thought = False  # the model reasoned in this reply
        pump_task = asyncio.create_task(stream_into(queue, client, model, convo, req, max_tokens))
        failure: LLMError | None = None
        streaming = True
        try:
            while streaming or rnd.outstanding:
                kind, item = await queue.get()
                if not streaming and kind in ("delta", "end", "error"):  # after the engine stopped the reply
                    continue
                if kind == "result":
                    rnd.outstanding -= 1
                    yield item
                    continue
                if kind == "output":  # what a running tool printed: its result follows
                    yield item
                    continue
                if kind == "delta":
                    finish_reason = item.finish_reason or finish_reason
                    stopped_at = item.stop_reason or stopped_at
                    if item.reasoning:
                        if think.presumed and not presumed:  # the server parts the reasoning out itself
                            await self._learn(habit, opens_thinking=False)
                            think = ThinkSplitter()
                        thought = True
                        yield Reasoning(item.reasoning, rnd.number)
                    content = stop.feed(item.content) if item.content else ""
                    pieces = think.feed(content) if content else []
                    if stop.hit:  # the server went on past a stop sequence: the reply ends there all the same
                        streaming, finish_reason = False, "stop"
                        pump_task.cancel()
                        pieces += think.finish()
                else:  # end of stream, or a failure: flush what is held
                    streaming = False
                    failure = item
                    held = stop.finish()
                    pieces = [*(think.feed(held) if held else []), *think.finish()]
                for channel, text in pieces:
                    if channel == REASONING:
                        if think.presumed:
                            presumed.append(text)
                        thought = True
                        yield Reasoning(text, rnd.number)
                    elif channel == CLOSED:  # the reply began inside its reasoning: what came so far was that
                        await self._learn(habit, opens_thinking=True)
                        for out in self._parsed(parser.finish(), parser, rnd, req, ctx, queue):
                            yield out
                        parser = XMLParseState()
                        taken = "".join(rnd.text[own:])
                        thought = thought or bool(taken)  # reasoning sent apart (reasoning_content) counts too
                        for out in taken_back(taken, own, rnd, req):
                            yield out
                    else:
                        for out in self._parsed(parser.feed(text), parser, rnd, req, ctx, queue):
                            yield out
                if not streaming:  # the reply is over: its last text, and a block left open, are settled
                    said_stop = stop.hit or stopped_at in STOP_SEQUENCES  # vLLM says which stop it hit
                    if answered_in_reasoning(think, presumed, failure, finish_reason, said_stop):
                        answer = "".join(presumed)
                        if surely_no_reasoning(answer):
                            await self._learn(habit, opens_thinking=False)
                        if answer:
                            yield Retract(answer, "reasoning", rnd.number)
                            for out in self._parsed(parser.feed(answer), parser, rnd, req, ctx, queue):
                                yield out
                    for out in self._parsed(parser.finish(), parser, rnd, req, ctx, queue):
                        yield out
        finally:
            await stop_all(pump_task, rnd.running)
        rnd.finish_reason = finish_reason
        if failure is not None:
            raise failure
        raise_if_not_whole(rnd, req, max_tokens, thought, own)

    async def _learn(self, habit: tuple[str, str], *, opens_thinking: bool) -> None:
        """Note whether the model's replies start inside its reasoning (habits.learn): a file written, so off
        the event loop."""
        await asyncio.to_thread(_learn, self.data_dir, habit, opens_thinking)


class _Offer(NamedTuple):
    """The tools one request teaches the model (``tools``), the names of those it may use (``names``), and
    whether any call may run at all (``calls``)."""

    tools: list[ToolSpec]
    names: set[str]
    calls: bool


@dataclass(slots=True)
class _Answer:
    """One request's answer as the user reads it, across its rounds, and what it drew on: for the notes
    between rounds and for Done."""

    req: Request
    model: str = ""
    rounds: int = 0
    shown: list[str] = field(default_factory=list)  # the answer as the user reads it: no tool blocks
    heard: list[str] = field(default_factory=list)  # what the tools returned: words the answer may have taken from them
    reasoned: bool = False
    heard_from_model: bool = False  # the server took the request and the model wrote something
    nudged: bool = False  # a round more was given for a reply with nothing to read: once per answer
    failed: bool = False

    def check_not_empty(self, last: Round) -> None:
        """Raise when the rounds are over with nothing to show: no text and no call run."""
        if not "".join(self.req.transcript).strip() and not self.req.tools_run:  # "done", with nothing to show
            raise BadResponse(advice.only_thought_words(self.req.config.max_tokens, last.finish_reason)
                              if self.reasoned else
                              "The model sent an empty answer. Try again, or choose another model in Settings "
                              "(or pass --model).")

    def done(self, question: str, passages: Sequence[Hit], fitting: Fitting, started: float) -> Done:
        """The event that ends the request: its counts, its transcript, and the sources the answer drew on."""
        # A failed answer cannot say what it would have drawn on: all that was offered, as the window shows;
        # none when the server refused the request (a wrong model, an error page): no model read them.
        # Words the answer shares with a tool's result prove nothing about the prompt's passages, as the
        # question's do not ("The program printed three lines" after a nanoGo run listed the tools guide)
        if self.failed:
            passages = passages if self.heard_from_model else []
        used = _locations(passages if self.failed or not passages else _used_passages(
            "\n".join([question, *self.heard]), "".join(self.shown), passages))
        cut = fitting.left_out or fitting.shortened
        window = fitting.window.tokens if fitting.window and fitting.window.sure and cut else 0
        transcript = self.req.transcript
        return Done(self.rounds, self.req.tools_run, elapsed_ms(started), "".join(transcript), used,
                    fitting.left_out, window, _anchors(passages, used), self.model, fitting.shortened,
                    tuple(itertools.accumulate(len(text) for text in transcript[:-1])))


def _paragraph_break(transcript: list[str], number: int) -> str:
    """What starts round ``number``'s text on a paragraph of its own ("" for none needed): after a table row,
    a quote or a list item that ends in one newline it would be read as one more of them."""
    if number > 1 and transcript and not transcript[-1].endswith("\n\n"):
        return "\n" if transcript[-1].endswith("\n") else "\n\n"
    return ""


async def _send_results(fitting: Fitting, rnd: Round, question: str, cfg: EngineConfig) -> None:
    """Add ``rnd``'s reply, then its results message (with the round's advice), to the conversation; the
    results cut to the room the window leaves, and written again shorter when a later round needs it."""
    reply = advice.without_long_blocks("".join(rnd.text))
    limit = await fitting.result_chars(reply, [text for *_, text in rnd.results], cfg.result_max_chars)
    fitting.tail.append({"role": "assistant", "content": reply})
    results, notes = list(rnd.results), list(rnd.advice)

    def rewrite(most: int) -> str:
        return prompts.results_message(results, most, question, notes)

    fitting.add_results({"role": "user", "content": rewrite(limit)}, rewrite, limit)


def _without_end(text: str, end: str) -> str:
    return text[: len(text) - len(end)] if end and text.endswith(end) else text


def _has_documents(data_dir: Path) -> tuple[bool, str]:
    """Whether the knowledge base holds documents, and why it could not be read ("" when it could)."""
    try:
        from ..kb import StoreError, has_documents
    except ImportError:
        return False, ""
    try:
        return has_documents(data_dir, strict=True), ""
    except StoreError as exc:
        return False, str(exc)


def _context(question: str, passages: Sequence[Hit], max_chars: int = PASSAGE_CHARS) -> str:
    """The numbered passages as the system prompt shows them, or "" for none; ``max_chars``: the most their
    texts may take together (each is cut to its share, see format_hits)."""
    from ..tools.rag import format_hits

    if not passages:
        return ""
    from ..kb import Hits
    from ..kb.words import available, is_word

    if isinstance(passages, Hits) and passages.missing:
        # "invoice 99817": the number no passage holds is said, or the invoices found pass for it; the
        # question's everyday words that none holds ("quickly") are no news to the model, and are not
        knows = available()
        said = [w for w in passages.missing if any(ch.isdigit() for ch in w) or (knows and not is_word(w))]
        passages = Hits(passages, passages.corrected, passages.relevance, said)
    return format_hits(question, passages, max_chars)


def _used_passages(question: str, answer: str, passages: Sequence[Hit]) -> list[Hit]:
    from ..tools.rag import used_passages

    return used_passages(question, answer, passages)


def _anchors(passages: Sequence[Hit], locations: Sequence[str]) -> tuple[str | None, ...]:
    from ..tools.rag import best_anchors

    return best_anchors(passages, locations)


def _locations(passages: Sequence[Hit]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(h.location for h in passages))
