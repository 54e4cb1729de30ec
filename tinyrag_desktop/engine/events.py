"""The engine's events, one stream per request; names and payloads follow the spec's SSE events."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any, ClassVar

from ..hidden_passwords import hide_passwords


@dataclass(frozen=True, slots=True)
class _Event:
    event: ClassVar[str] = ""
    # Says how far something has come, and is followed by the events that say how it ended: one that a
    # consumer may pass over loses nothing (`ask --jsonl` leaves such events out).
    progress: ClassVar[bool] = False

    def payload(self) -> dict[str, Any]:
        return asdict(self)

    def to_json(self) -> dict[str, Any]:
        """``{"event": NAME, ...payload}``, the shape `ask --jsonl` prints."""
        return {"event": self.event, **self.payload()}


@dataclass(frozen=True, slots=True)
class Route(_Event):
    """The router's decision before the first round: mode is ``direct``, ``rag`` or ``tools``."""

    event: ClassVar[str] = "route"
    mode: str
    reason: str
    hints: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()  # rag mode: where the passages put into the prompt come from
    problem: str = ""  # why the knowledge base could not be read, in words ("" when it could)
    # one per source: where in its page the best passage starts (an HTML id), None for none
    anchors: tuple[str | None, ...] = ()

    def payload(self) -> dict[str, Any]:
        out = {"mode": self.mode, "reason": self.reason, "hints": list(self.hints), "sources": list(self.sources)}
        if any(self.anchors):
            out["anchors"] = list(self.anchors)
        return {**out, "problem": self.problem} if self.problem else out


@dataclass(frozen=True, slots=True)
class ModelChosen(_Event):
    """The model the request asks, once known: the one chosen, else the server's first chat model
    (LLMClient.resolve_model). It comes before the first round: an answer stopped before the model's first
    words names it too (Done names it, and a stopped request yields none). A progress event."""

    event: ClassVar[str] = "model"
    progress: ClassVar[bool] = True
    model: str


@dataclass(frozen=True, slots=True)
class Text(_Event):
    """Visible answer text, in order (an invalid block's raw XML included)."""

    event: ClassVar[str] = "text"
    text: str
    # The round it came in, for a stopped answer's footer: cancelled, the request yields no Done to count
    # them. Not part of the payload (DESIGN fixes it as {text}), nor of equality.
    round: int = field(default=1, compare=False)
    # The engine's own words (the note on an answer that ends at the round limit), not the model's: the
    # window says them without their command-line hint. Not part of the payload either.
    note: bool = field(default=False, compare=False)
    # A note about the text before it, not a part of the answer (why a call shown there did not run): `ask`
    # writes it on stderr with its status lines, so that stdout stays the answer. Not in the payload.
    aside: bool = field(default=False, compare=False)
    # The model that wrote it (the server's first chat model when none was chosen), for a stopped answer's
    # footer as ``round`` is: Done names it, and a stopped request yields none. Not in the payload either.
    model: str = field(default="", compare=False)

    def payload(self) -> dict[str, Any]:
        return {"text": self.text}


@dataclass(frozen=True, slots=True)
class Reasoning(_Event):
    """The model's reasoning; shown collapsed and never parsed for tools."""

    event: ClassVar[str] = "reasoning"
    text: str
    round: int = field(default=1, compare=False)  # as Text's
    model: str = field(default="", compare=False)  # as Text's

    def payload(self) -> dict[str, Any]:
        return {"text": self.text}


@dataclass(frozen=True, slots=True)
class Retract(_Event):
    """Take back the last ``text`` sent on ``channel`` (``text`` or ``reasoning``): it belongs on the other
    channel, where it comes again after this event.

    A model whose chat template opens its ``<think>`` for it starts its reply inside its reasoning, and only
    its ``</think>`` shows that: the text before it, sent as answer text, is taken back and sent again as
    reasoning. Once seen, the model's next replies start as reasoning; one that then never closes it was an
    answer after all, and is taken back from the reasoning and sent as text (its tool blocks run then)."""

    event: ClassVar[str] = "retract"
    text: str
    channel: str
    round: int = field(default=1, compare=False)  # as Text's

    def payload(self) -> dict[str, Any]:
        return {"text": self.text, "channel": self.channel}


@dataclass(frozen=True, slots=True)
class ToolStarted(_Event):
    """A valid block is running. ``query`` is the block's content; ``param`` its element."""

    event: ClassVar[str] = "tool_start"
    id: str
    tool: str
    query: str
    param: str = "query"
    round: int = 1
    raw: str = ""


@dataclass(frozen=True, slots=True)
class ToolWriting(_Event):
    """The model is writing a tool block: its start tag ``<tool name="…">`` has come, its ``</tool>`` not yet
    (see protocol.XMLParseState.open_block). Sent when the tag comes, then as the block grows, at most every
    ``EngineConfig.writing_interval`` seconds; ``chars`` and ``lines`` count its input so far (the program,
    the query: what a person would read; not the tags around it), 0 before the input begins.

    It ends in one of two ways: whole and valid, the block's own ``tool_start`` (or ``tool_result``, when it is
    not run) comes with this ``id``; turned out no call (invalid, or the stream ended inside it), one more
    comes with ``dropped`` set, and the block's raw text follows as ``text``. A stopped answer ends it with
    no event: ``raw``, the block's text as this event was sent, is what a window keeps of it then (shown as
    a block never closed). Not one of DESIGN's events: a progress event (see _Event.progress)."""

    event: ClassVar[str] = "tool_writing"
    progress: ClassVar[bool] = True
    id: str
    tool: str  # as the card and tool_start name it (the registry's spelling), else as the model wrote it
    param: str = ""  # the inner element, once it has come
    chars: int = 0
    lines: int = 0
    dropped: bool = False
    round: int = 1
    # the block's raw text so far (start tag and all); not in the payload, where chars and lines say it
    raw: str = field(default="", compare=False)
    model: str = field(default="", compare=False)  # as Text's

    def payload(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if k not in ("raw", "model")}


@dataclass(frozen=True, slots=True)
class ToolOutput(_Event):
    """More of what a running call has printed (a Go program's output): ``text`` follows the text of the
    call's earlier tool_output events. Its tool_result holds all of it; a stopped answer, which ends the call
    with no result, keeps it from these (its card: the output before it was stopped). A progress event."""

    event: ClassVar[str] = "tool_output"
    progress: ClassVar[bool] = True
    id: str
    tool: str
    text: str
    round: int = 1


@dataclass(frozen=True, slots=True)
class ToolFinished(_Event):
    """The one result of a valid block: status ``ok``, ``error`` or ``skipped`` (error holds the reason)."""

    event: ClassVar[str] = "tool_result"
    id: str
    tool: str
    query: str
    source: str
    error: str | None
    result_bytes: int
    status: str
    elapsed_ms: int
    result: str = ""
    param: str = "query"
    round: int = 1
    raw: str = ""
    anchors: tuple[str | None, ...] = ()  # one per line of source (see tools.registry.ToolResult)

    def payload(self) -> dict[str, Any]:
        out = asdict(self)
        if not any(self.anchors):
            del out["anchors"]
        return out


@dataclass(frozen=True, slots=True)
class Done(_Event):
    event: ClassVar[str] = "done"
    rounds: int
    tools_run: int
    elapsed_ms: int
    transcript: str = ""
    # rag mode: of the route's sources, those the answer drew on (cited, or sharing its words: see
    # tools.rag.used_passages); the others were offered to the model and not used. After an error, all.
    sources: tuple[str, ...] = ()
    # A chat longer than the model's context: how many of its first messages were not sent (see
    # engine/context.py), and the window in tokens they did not fit in; 0 and 0 when all were sent.
    left_out: int = 0
    window: int = 0
    anchors: tuple[str | None, ...] = ()  # one per source, as Route's
    model: str = ""  # the model that answered: the server's first chat model when none was chosen
    shortened: int = 0  # of the earlier answers sent, how many went shorter than stored (context.fit_chat)
    # Where in ``transcript`` each round after the first starts (at the gap before its words): `ask` parses
    # each round's text on its own, as the engine did (a call left open in one took in the next one's words).
    round_starts: tuple[int, ...] = ()

    def payload(self) -> dict[str, Any]:
        out = {**asdict(self), "sources": list(self.sources), "round_starts": list(self.round_starts)}
        if any(self.anchors):
            out["anchors"] = list(self.anchors)
        else:
            del out["anchors"]
        return out


@dataclass(frozen=True, slots=True)
class EngineError(_Event):
    """A failure the user must see: server down, model missing, stream cut, cancelled."""

    event: ClassVar[str] = "error"
    message: str
    kind: str = "error"

    def __post_init__(self) -> None:  # an address's password is never shown, whatever error names it
        object.__setattr__(self, "message", hide_passwords(self.message))


def named(event: EngineEvent, model: str) -> EngineEvent:
    """``event`` with the model that wrote it, where it has room to say so (Text, Reasoning, ToolWriting)."""
    if model and isinstance(event, (Text, Reasoning, ToolWriting)) and not event.model:
        return replace(event, model=model)
    return event


EngineEvent = (Route | ModelChosen | Text | Reasoning | Retract | ToolWriting | ToolStarted | ToolOutput | ToolFinished
               | Done | EngineError)

__all__ = ["Route", "ModelChosen", "Text", "Reasoning", "Retract", "ToolWriting", "ToolStarted", "ToolOutput", "ToolFinished", "Done", "EngineError",
           "EngineEvent"]
