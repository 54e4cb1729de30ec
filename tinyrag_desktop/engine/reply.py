"""Reading one reply of the model: its stream pumped into the round's queue, cut at the stop sequences, its
reasoning told from its answer, and what a reply that streamed to its end says when it is no whole answer.

Engine._round uses these; none of them knows the tools or the request's other rounds.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Iterator, Sequence

from ..protocol import TextChunk, ThinkSplitter, ToolCall, parse_all
from . import advice
from .calls import Request, Round
from .errors import BadResponse, LLMError, ReplyCutShort, ReplyFiltered, StreamInterrupted
from .events import EngineEvent, Reasoning, Retract
from .llm import LLMClient

log = logging.getLogger("tinyrag_desktop.engine.engine")  # the name the engine's log lines had before this module

# Where the server stops a reply: results come back in our own <tool_results> message, so a model that
# starts writing one is making its tools' results up (small models copy the format), and what it would
# invent must neither be shown nor read as an answer.
# "<tool_res" stops <tool_results>, <tool_result …> and Hermes' <tool_response> alike; '<result id="call_' a
# model that copies our results without their wrapper. OpenAI takes at most 4 stop sequences. A model writing
# about these tags (in a code block) is stopped too: rare, and far less harm than a made-up result.
STOP_SEQUENCES = ("<tool_res", '<result id="call_')


class StopAt:
    """The stop sequences, kept by the engine too: a server that ignores them (or misses one split across
    tokens) would show the results the model makes up after its call as the answer."""

    def __init__(self, stops: Sequence[str]) -> None:
        self.stops = stops
        self.held = ""  # a suffix that may still become a stop sequence
        self.hit = False

    def feed(self, text: str) -> str:
        """What of ``text`` comes before a stop sequence and cannot begin one; nothing once one was seen."""
        if self.hit:
            return ""
        text, self.held = self.held + text, ""
        found = [at for at in (text.find(s) for s in self.stops) if at >= 0]
        if found:
            self.hit = True
            return text[: min(found)]
        keep = max((k for s in self.stops for k in range(1, len(s)) if text.endswith(s[:k])), default=0)
        if keep:
            text, self.held = text[:-keep], text[-keep:]
        return text

    def finish(self) -> str:
        held, self.held = self.held, ""
        return held


async def stream_into(
    queue: asyncio.Queue[tuple[str, Any]], client: LLMClient, model: str, convo: list[dict[str, str]],
    req: Request, max_tokens: int,
) -> None:
    """Put the model's reply on ``queue``, delta by delta, then its end or its failure."""
    try:
        extra: dict[str, Any] = {"stop": list(STOP_SEQUENCES)}
        if max_tokens:
            extra["max_tokens"] = max_tokens
        async for delta in client.stream_chat(convo, model=model, temperature=req.config.temperature,
                                              begun=req.begun(), **extra):
            queue.put_nowait(("delta", delta))
        queue.put_nowait(("end", None))
    except LLMError as exc:
        queue.put_nowait(("error", exc))
    except Exception as exc:  # a reply shaped in a way nobody foresaw must end the answer, not hang it
        log.exception("reading the model's stream failed")
        problem = BadResponse("The model server sent a reply that could not be read "
                              f"({exc.__class__.__name__}: {exc}). The text so far is kept.")
        queue.put_nowait(("error", problem))


def taken_back(taken: str, own: int, rnd: Round, req: Request) -> Iterator[EngineEvent]:
    """The reply's text so far, ``taken``, shown again as the reasoning it was. Taken back only before any call:
    a card already shown stays, and so does the text around it (the model's next replies start as reasoning)."""
    if taken and not req.next_id:
        rnd.take_back(own)
        yield Retract(taken, "text", rnd.number)
        yield Reasoning(taken, rnd.number)


def answered_in_reasoning(think: ThinkSplitter, presumed: list[str], failure: LLMError | None,
                           finish_reason: str | None, stopped: bool) -> bool:
    """Whether a reply presumed to start inside its reasoning never left it, and ended well: it was the answer.
    ``stopped``: the reply was stopped at a stop sequence, as the engine saw or the server said."""
    return (think.presumed and think.in_reasoning and failure is None and finish_reason != "length"
            and not thought_past_a_call("".join(presumed), stopped))


# How a sentence ends, before any closing quote, bracket or emphasis (the full-width and Arabic, Devanagari ones too)
_SENTENCE_ENDS = tuple(".!?…。！？．｡؟।")
_CLOSERS = "\"')]}*_”’»"


def _after_last_call(text: str) -> str | None:
    """The words after ``text``'s last tool block, stripped; None when it holds none."""
    events = parse_all(text)
    calls = [n for n, event in enumerate(events) if isinstance(event, ToolCall)]
    if not calls:
        return None
    return "".join(e.text for e in events[calls[-1] + 1:] if isinstance(e, TextChunk)).strip()


def thought_past_a_call(text: str, stopped: bool) -> bool:
    """Whether ``text`` goes on after its last tool block as reasoning that imagined the call's results, which
    the server stopped at STOP_SEQUENCES (with no </think>): cut there, its words after the call end mid-sentence
    ("… and would then see "), unless the stop was seen or said (``stopped``). A model that ended its turn on a
    whole sentence after its call ("… Then I will explain.") gave its answer, which waits on the call."""
    after = _after_last_call(text)
    return bool(after) and (stopped or not after.rstrip(_CLOSERS).endswith(_SENTENCE_ENDS))


def surely_no_reasoning(text: str) -> bool:
    """Whether ``text``, a reply presumed to be reasoning that was the answer, shows it for sure: no words after
    a call, which a sentence's end alone told from reasoning stopped at the results it began to imagine ("…
    </tool>\n\nNow let me look at the result.\n"). On that guess alone the model is not noted as one whose
    replies start as answers."""
    return not _after_last_call(text)


async def stop_all(pump_task: asyncio.Task[None], running: set[asyncio.Task[None]]) -> None:
    """Stop the stream and every tool still running, and give them a moment to finish."""
    pump_task.cancel()
    for task in running:
        task.cancel()
    pending = [pump_task, *running]
    await asyncio.wait(pending, timeout=0.15)


def raise_if_not_whole(rnd: Round, req: Request, max_tokens: int, thought: bool, own: int) -> None:
    """Raise when a reply that streamed to its end is no whole answer, as its finish reason says. ``thought``:
    the model reasoned in it; ``own``: where its own text starts in ``rnd.text``."""
    if rnd.finish_reason == "length":  # the stream ended well, the answer did not: it stops mid-sentence
        if thought and not "".join(rnd.text[own:]).strip():  # or never began: the reasoning took it all
            raise ReplyCutShort(advice.only_thought_words(max_tokens, rnd.finish_reason))
        raise ReplyCutShort(advice.cut_short_words(max_tokens))
    if rnd.finish_reason == "content_filter":  # it looked finished, or was "an empty answer" from the model
        raise ReplyFiltered(advice.filtered_words(req.begun(rnd)))
    if rnd.finish_reason in advice.SERVER_STOPPED:  # vLLM's "abort" (a shutdown, a pause), then [DONE]: the same
        raise StreamInterrupted(advice.server_stopped_words(rnd.finish_reason, req.begun(rnd)))
