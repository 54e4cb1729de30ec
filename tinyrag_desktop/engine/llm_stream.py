"""What a chat completion's stream carries: text and reasoning deltas, native tool calls, errors in words."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, AsyncIterator

from ..halves import mended
from ..protocol.parser import DEFAULT_MAX_BLOCK_CHARS
from ..server_said import error_of, error_words
from .context import is_refusal, refused_window
from .errors import BadResponse, ContextTooLong, ServerFailed


@dataclass(frozen=True, slots=True)
class Delta:
    """One streamed piece: visible content, reasoning (a separate channel), or the finish reason."""

    content: str = ""
    reasoning: str = ""
    finish_reason: str | None = None
    stop_reason: str = ""  # the stop sequence the server stopped the reply at (vLLM says it beside "stop")


_SURROGATE = re.compile("[\ud800-\udfff]")


async def paired(deltas: AsyncIterator[Delta]) -> AsyncIterator[Delta]:
    """``deltas`` with no half characters in their text.

    JSON writes a character beyond the first 65,536 (an emoji) as two escapes, "\\ud83d\\ude00"; a server that
    sends them in two chunks gives two halves (surrogates), which Python does not join and cannot encode:
    a tool's query holding one stopped the answer for good. A half at a delta's end waits for the next;
    halves that are pairs are joined, and one without its pair becomes U+FFFD (shown as �)."""
    held = {"content": "", "reasoning": ""}

    def whole(channel: str, text: str) -> str:
        text = held[channel] + text
        held[channel] = ""
        if _SURROGATE.search(text) is None:
            return text
        if "\ud800" <= text[-1] <= "\udbff":  # the first half of a pair: its second may come next
            text, held[channel] = text[:-1], text[-1]
        return mended(text)

    async for delta in deltas:
        content, reasoning = whole("content", delta.content), whole("reasoning", delta.reasoning)
        if content or reasoning or delta.finish_reason:
            yield Delta(content, reasoning, delta.finish_reason, delta.stop_reason)
    if held["content"] or held["reasoning"]:  # a first half that never got its second
        yield Delta("\ufffd" if held["content"] else "", "\ufffd" if held["reasoning"] else "")


def message_deltas(data: str, event: str = "message", calls: "NativeCalls | None" = None, *,
            begun: bool = False, answering: bool = False, picked: "Choices | None" = None) -> list[Delta | None]:
    """Deltas in one SSE message (``event``: its event field); ``None`` stands for ``[DONE]``. ``calls``
    gathers native function calls, given back as tool blocks when their reply finishes; ``picked`` tells the
    answer's choice from others, across the reply's messages. ``begun``: the
    answer's words came in an earlier round; ``answering``: this reply's own words have come. Either way an
    error says that they are kept; only this reply's own say a refusal came as the model wrote."""
    data = data.strip()
    kept = begun or answering
    if data == "[DONE]":  # the calls of a server that ends with no finish_reason are given back first
        pending = calls.as_blocks() if calls else ""
        return [*([Delta(pending)] if pending else []), None]
    if not data:  # an error event without words (no data, or blank) is still an error
        if event == "error":
            raise _stream_error("", kept)
        return []
    try:
        obj = json.loads(data)
    except RecursionError as exc:  # brackets inside brackets, thousands deep: Python reads no deeper
        raise BadResponse("The server sent a message nested too deeply to read (brackets inside brackets, "
                          "thousands deep), which is no answer.") from exc
    except ValueError as exc:
        if event == "error":
            raise _stream_error(data[:300], kept) from exc
        raise BadResponse(f"The server sent something that is not JSON in its stream: {data[:80]!r}") from exc
    if not isinstance(obj, dict):  # an error event's words as a JSON text ("out of memory") were dropped
        if event == "error":
            raise _stream_error(error_words(obj), kept)
        return []
    # {"error": …}; an error event's object (llama.cpp's ``error:`` line is one); or vLLM's error object,
    # {"object": "error", "message": …}, which some of its versions send in the stream
    err = obj.get("error") or (obj.get("object") == "error" and obj.get("message"))
    if err or event == "error":  # some proxies send "error": null (or false) in every chunk
        message = error_words(error_of(obj))
        if is_refusal(data):  # llama.cpp and LM Studio may refuse a too long request in the stream itself
            raise context_refusal(message, data, answering=answering, kept=begun)
        raise _stream_error(message, kept)
    choices = obj.get("choices")
    out: list[Delta | None] = []
    calls = calls if calls is not None else NativeCalls()
    for choice in (picked or Choices()).answer(choices):
        # "delta": {} beside a whole "message" (a server's last chunk) is a delta with nothing in it: the
        # message, all the text streamed already, came again after it ("Hello world.Hello world.")
        delta = choice.get("delta")
        if delta is None:  # a whole reply's choice
            delta = choice.get("message") or {}
        if not isinstance(delta, dict):  # not the format's shape ("delta": "Hello"): nothing to read
            continue
        # "text" beside no content: the completions API's chunk ({"text": "Hi"}), which some llama.cpp and
        # koboldcpp builds send on the chat endpoint; its words were dropped, and the answer was empty
        content = _text_of(delta.get("content")) or _text_of(choice.get("text"))
        reasoning = _text_of(delta.get("reasoning_content") or delta.get("reasoning"))
        try:
            calls.add(delta.get("tool_calls"))
            calls.add_legacy(delta.get("function_call"))
        except CallTooLong as exc:
            raise _call_too_long(exc) from exc
        finish = choice.get("finish_reason")
        if finish:
            content += calls.as_blocks()
        if content or reasoning or finish:
            # vLLM's stop_reason: the stop string hit, or the token id (a number) of a stop token
            stopped_at = choice.get("stop_reason") if isinstance(choice.get("stop_reason"), str) else ""
            out.append(Delta(content, reasoning, str(finish) if finish else None, stopped_at))
    return out


class Choices:
    """Which choices of a reply are its answer. A server making several (n > 1, its default or a proxy's) sends
    the others with their index, in the same chunks or their own: they were woven into the answer ("A0 B1 B2
    A3"). Yet some servers give each chunk an index of its own (Foundry Local: 0, 1, 2…; TGI before its change #1648),
    and Gemini's whole reply has index 1 alone: reading index 0 only cut "Whispers." to "Wh". So every choice
    is read until the reply shows it has several: two indexes in one chunk, or an index lower than the last;
    from then on only the lowest index seen."""

    __slots__ = ("lowest", "last", "several")

    def __init__(self) -> None:
        self.lowest: int | None = None
        self.last: int | None = None
        self.several = False

    def answer(self, choices: Any) -> list[dict[str, Any]]:
        """The choices of one message (its ``choices`` field) that belong to the answer."""
        found = [c for c in choices if isinstance(c, dict)] if isinstance(choices, list) else []
        indexes = [c.get("index") if isinstance(c.get("index"), int) else 0 for c in found]
        if not indexes:
            return []
        if len(set(indexes)) > 1 or (self.last is not None and min(indexes) < self.last):
            self.several = True
        self.last = max(indexes)
        self.lowest = min(indexes) if self.lowest is None else min(self.lowest, *indexes)
        if not self.several:
            return found
        return [c for c, index in zip(found, indexes) if index == self.lowest]


def _text_of(value: Any) -> str:
    """A content field's text: a string, a part (``{"type": "text", "text": "Hi"}``) or a list of parts, as some
    proxies send it (they were shown as Python's dict and list); digits a proxy sent as a number. Any other value
    (``true``, an image part) holds no text."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(_text_of(part) for part in value)
    if isinstance(value, dict):
        return value["text"] if isinstance(value.get("text"), str) else ""
    return str(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else ""


class NativeCalls:
    """Function calls a server sent in the format's own ``tool_calls`` (a model or server that turns the
    model's call into one): gathered as they stream, given back as the tool blocks this app runs. They were
    dropped, and the answer ended at "Let me calculate that." or as "an empty answer"."""

    def __init__(self, max_chars: int = DEFAULT_MAX_BLOCK_CHARS) -> None:
        self.max_chars = max_chars  # one call's name and arguments: no more than one tool block may hold
        self._calls: list[_Call] = []  # in the order they came
        self._at: dict[int, int] = {}  # a call's index in the stream: its place in _calls
        self._size = 0

    def add(self, calls: Any) -> None:
        """Gathers the pieces of ``calls`` (a delta's ``tool_calls``); raises CallTooLong when one call passes
        ``max_chars``."""
        for n, call in enumerate(calls if isinstance(calls, list) else []):
            if not isinstance(call, dict):
                continue
            function = call.get("function") if isinstance(call.get("function"), dict) else {}
            index = call.get("index") if isinstance(call.get("index"), int) else n
            ident = str(call.get("id") or "")
            place = self._at.get(index)
            # Ollama sends every call whole, each with index 0 (or none): a new id is a new call, where
            # the two were run together as one ("calculatecalculate")
            if place is None or (ident and self._calls[place].ident and ident != self._calls[place].ident) or (
                    function.get("name") and self._calls[place].name and not ident):
                self._at[index] = place = len(self._calls)
                self._calls.append(_Call())
            entry = self._calls[place]
            entry.ident = entry.ident or ident
            arguments = function.get("arguments")
            # Kept as pieces, joined once: a server streaming them a few characters at a time copied all
            # that had come for each piece, and 12 MB of arguments took a minute and a half
            grown = entry.add(str(function.get("name") or ""),
                              arguments if isinstance(arguments, str) else json.dumps(arguments) if arguments else "")
            self._size += grown
            if entry.size > self.max_chars:
                raise CallTooLong(entry.name.strip()[:80], self.max_chars)

    def add_legacy(self, call: Any) -> None:
        """A ``function_call`` (the format's older single call), gathered as one call of tool_calls."""
        if isinstance(call, dict):
            self.add([{"index": -1, "function": call}])

    def __bool__(self) -> bool:
        return bool(self._calls)

    def size(self) -> int:
        """How much of the calls has come so far (names and arguments): it grows while one streams."""
        return self._size

    def as_blocks(self) -> str:
        """The calls gathered so far as tool blocks (and forgets them)."""
        blocks = [_block(call.name.strip(), call.arguments()) for call in self._calls if call.name.strip()]
        self._calls.clear()
        self._at.clear()
        self._size = 0
        return "".join(blocks)


class CallTooLong(ValueError):
    """A native call's name and arguments passed what one tool block may hold, and had not ended."""

    def __init__(self, name: str, limit: int) -> None:
        super().__init__(name, limit)
        self.name, self.limit = name, limit


class _Call:
    """One native call as it streams: its id, its name, and its arguments' pieces."""

    __slots__ = ("ident", "_names", "_pieces", "size")

    def __init__(self) -> None:
        self.ident = ""
        self._names: list[str] = []
        self._pieces: list[str] = []
        self.size = 0  # characters of name and arguments so far

    def add(self, name: str, arguments: str) -> int:
        """Adds pieces of the name and the arguments; returns how many characters came."""
        if name:
            self._names.append(name)
        if arguments:
            self._pieces.append(arguments)
        self.size += len(name) + len(arguments)
        return len(name) + len(arguments)

    @property
    def name(self) -> str:
        if len(self._names) > 1:
            self._names[:] = ["".join(self._names)]
        return self._names[0] if self._names else ""

    def arguments(self) -> str:
        return "".join(self._pieces)


def _block(name: str, arguments: str) -> str:
    """``<tool name="calculate"><query>2+2</query></tool>`` for a call's name and its JSON arguments."""
    try:
        args = json.loads(arguments) if arguments.strip() else {}
    except (ValueError, RecursionError):  # RecursionError: nested thousands deep; the tool says what is wrong
        args = arguments
    if isinstance(args, dict):
        element = next((k for k in ("query", "url", "source") if isinstance(args.get(k), str)), "")
        value = args[element] if element else next((v for v in args.values() if isinstance(v, str)), None)
        if value is None:  # {"expression": 42}, {"a": 6, "b": 7}: the tool is given them, and says if it cannot
            value = _plain(next(iter(args.values()))) if len(args) == 1 else json.dumps(args, ensure_ascii=False)
        element = element or ("url" if "url" in name.lower() or "fetch" in name.lower() else
                              "source" if "go" in name.lower() else "query")
    else:
        element, value = "query", str(args)
    escaped = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return f'<tool name="{name.replace(chr(34), "")}"><{element}>{escaped}</{element}></tool>'


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _call_too_long(exc: CallTooLong) -> BadResponse:
    """A native call longer than any tool takes, in words: the server was still sending it (one that never
    stopped filled the memory, 273 MB a minute)."""
    call = f"a call of {exc.name!r}" if exc.name else "a tool call"
    return BadResponse(f"The model server sent {call} longer than {exc.limit:,} characters, more than a tool "
                       "takes, and had not ended it: the answer was stopped there.")


def _stream_error(message: str, begun: bool) -> ServerFailed:
    """An error the server sent in its stream, in words (``begun``: after the answer's first words); what the
    server said comes last, after "The server said:", as settings_field reads it: its "API key" names no field."""
    message = message.strip()
    unsaid = "" if message else " without saying what it was"  # it was ": ." or ": {}"
    kept = " The text so far is kept." if begun else ""
    hint = " Check that the Server URL ends with /v1." if "endpoint" in message.lower() else ""
    said = f" The server said: {message}" if message else ""
    return ServerFailed(f"The model server reported an error during the answer{unsaid}.{kept}{hint}{said}")


def context_refusal(message: str, body: str = "", *, answering: bool = False,
                    kept: bool = False) -> ContextTooLong:
    """The server's refusal of a request longer than the model's context, in words (``body``: the whole
    error, which may name the window where its message does not; ``answering``: it came after this reply's
    first words, so the context filled up as the model wrote, llama.cpp's "Context size has been exceeded";
    ``kept``: an earlier round's words are on screen). A later round refused before its first word was said
    to have filled up as it wrote: its request, with the tools' results, did not fit."""
    window = refused_window(body or message)
    holds = f" (its context holds {window:,} tokens)" if window else ""
    said = f" The server said: {message}" if message else ""
    if answering:
        return ContextTooLong(
            f"The answer was cut off: the model's context filled up as it wrote{holds}. The text so far is kept. "
            "Start a new chat, or give the model a larger context (Ollama: OLLAMA_CONTEXT_LENGTH; LM Studio: the "
            f"context length it loads the model with; llama.cpp: -c).{said}", window)
    return ContextTooLong(
        f"The model's context is full{holds}: the question with the chat's latest messages did not fit in it, "
        f"even cut short.{' The text so far is kept.' if kept else ''} Ask for less at a time or start a new "
        "chat, or give the model a "
        "larger context (Ollama: OLLAMA_CONTEXT_LENGTH; LM Studio: the context length it loads the model "
        f"with; llama.cpp: -c).{said}", window)
