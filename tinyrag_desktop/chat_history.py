"""A chat as the model reads it again: its questions, and each answer as the model saw it while answering.

An answer that called tools is given back round by round: its words up to and including that round's calls
(an assistant message), the round's results in a user-role ``<tool_results>`` message, as the engine sent
them (each cut to HISTORY_RESULT_CHARS), then the rest of the answer. Given back as its transcript alone,
bare tool blocks and no results, a follow-up ("what was 2**200 again?") found nothing to answer from: the
model ran every tool again or made the answer up. The results never go into the assistant's own words: a
model copies what it sees, and would start writing results of its own.

An answer is split by its stored tools, which must match the transcript's blocks one for one, with the round
each was called in; one that cannot be split so (stored before rounds were kept, or odd) is given back as
its transcript, as before. No Qt here.
"""

from __future__ import annotations

from typing import Iterable, Protocol, Sequence

from .engine.prompts import results_message
from .protocol import ToolCall, parse_all

# The most of each result an earlier answer gives back (the engine's own rounds give up to result_max_chars):
# enough for a value, a program's output or a page's paragraph; a whole page again in every later request
# would crowd the chat out of the model's context.
HISTORY_RESULT_CHARS = 1500
# What stands for the rest of an answer that ended on its calls (stopped while they ran, or cut off), after
# their results: without it the next question would follow a user-role message, two in a row.
ENDED_ON_CALLS = "(The answer ended here.)"
# What stands for the answer a question never got (the server failed, the app closed, the user stopped it
# before a word), between it and the next question. Two questions in a row broke every later turn of the
# chat on servers whose chat template wants user and assistant turns in turn (llama.cpp's and vLLM's
# Jinja templates for Mistral or Gemma: "Conversation roles must alternate user/assistant/user/...").
UNANSWERED = "(This question was not answered.)"
# What follows an answer stopped before it was finished (by the user, or the app closing): given back as it
# was, half a sentence read as the model's settled answer, and a model may go on from its last word.
STOPPED_HERE = "(The answer was stopped here, unfinished.)"
_STOPPED = "Stopped before the tool finished: the answer was stopped."


class Tool(Protocol):
    """What of a stored tool call (chats.StoredTool) an answer is given back with."""

    call_id: str
    tool: str
    query: str
    status: str
    param: str
    source: str
    error: str | None
    result: str
    elapsed_ms: int
    position: int
    round: int


def history_messages(rows: Iterable[tuple[str, str, str, Sequence[Tool], str]]) -> list[dict[str, str]]:
    """The engine's messages for a chat's stored ``rows`` (role, content, transcript, tool calls, status), in
    order: questions as asked, answers as the model saw them (see answer_turns), and user and assistant in
    turn; a stopped answer marked so at its end."""
    out: list[dict[str, str]] = []
    question = ""
    for role, content, transcript, tools, status in rows:
        if role == "assistant":
            text = transcript or content
            if not text.strip():  # failed or stopped before a word, or blank: nothing was said (an empty
                continue  # assistant turn is refused by strict chat templates, and teaches saying nothing)
            turns = answer_turns(text, tools, question) or [{"role": "assistant", "content": text}]
            if status == "stopped":
                last = turns[-1]["content"]
                turns[-1] = {"role": "assistant", "content": STOPPED_HERE if last == ENDED_ON_CALLS else
                             f"{last.rstrip()}\n\n{STOPPED_HERE}"}
            out += turns
            continue
        if out and out[-1]["role"] == "user":
            if _same_words(out[-1]["content"], content):  # asked again as it was: once is enough
                out.pop()
            else:
                out.append({"role": "assistant", "content": UNANSWERED})
        out.append({"role": "user", "content": content})
        question = content
    return out


def answer_turns(transcript: str, tools: Sequence[Tool], question: str = "") -> list[dict[str, str]] | None:
    """An answer that called tools as the model saw it: for each round, its words up to and including the
    round's calls, then the round's results; then the rest. None when the answer made no call, or cannot be
    split reliably: its blocks and its stored tools differ, or a tool's round is not known (0)."""
    if not tools or any(t.round < 1 for t in tools):
        return None
    ends = _call_ends(transcript, tools)
    if ends is None:
        return None
    out: list[dict[str, str]] = []
    at = 0
    for n, tool in enumerate(tools):
        if n + 1 < len(tools) and tools[n + 1].round == tool.round:
            continue  # the round goes on: its results come after its last call
        said = transcript[at:ends[n]]
        out.append({"role": "assistant", "content": said.lstrip() if at else said})
        done = [t for t in tools if t.round == tool.round]
        out.append({"role": "user", "content": results_message([_result(t) for t in done], HISTORY_RESULT_CHARS,
                                                               question)})
        at = ends[n]
    rest = transcript[at:].strip()
    out.append({"role": "assistant", "content": rest or ENDED_ON_CALLS})
    return out


def _call_ends(transcript: str, tools: Sequence[Tool]) -> list[int] | None:
    """Where each of ``tools``' blocks ends in ``transcript``, or None when the blocks are not the tools
    one for one, in order (the same element and input), or the tools' rounds and places go backwards."""
    ends: list[int] = []
    at = 0
    for event in parse_all(transcript):
        raw = event.raw if hasattr(event, "raw") else event.text
        at += len(raw)
        if isinstance(event, ToolCall):
            if len(ends) == len(tools):
                return None
            tool = tools[len(ends)]
            if (event.content, event.param) != (tool.query, tool.param):
                return None
            ends.append(at)
    if len(ends) != len(tools) or at != len(transcript):
        return None
    if any(a.round > b.round or a.position > b.position for a, b in zip(tools, tools[1:])):
        return None
    return ends


def _result(tool: Tool) -> tuple[str, str, str, str, str]:
    """A stored call as its round's results message gives it: (id, tool, status, source, text), with the
    engine's statuses (the window stores ``done`` for ok) and the reason for a call that gave no result."""
    if tool.status in ("done", "ok"):
        return tool.call_id, tool.tool, "ok", tool.source, tool.result
    if tool.status == "running":  # stored while it ran: the answer was stopped
        return tool.call_id, tool.tool, "stopped", tool.source, _STOPPED
    reason = tool.error or ""
    if tool.status == "error" and tool.elapsed_ms >= 0 and not reason.startswith("Error:"):
        reason = f"Error: {reason}"  # as the engine said a call that ran and failed
    return tool.call_id, tool.tool, tool.status, tool.source, reason


def _same_words(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()
