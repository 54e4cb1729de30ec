"""A reply read whole instead of as a stream: its deltas, and where it ends while the connection stays open.

A whole JSON reply comes for a streamed question from proxies, labelled as JSON, as a stream, or not at all,
and some follow it with ``data: [DONE]`` and keep the connection open: read until the server hung up, the
answer waited for the read timeout (120 s) and was then said to have broken off. ReplyEnd sees the end come.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from typing import Any

from .llm_stream import Choices, Delta, NativeCalls, message_deltas
from .sse import SSEDecoder

BLANK = re.compile(r"[\s\ufeff]*")  # and a byte-order mark, which some servers start a reply with
_STREAM_FIELD = ("data:", ":", "event:", "error:")  # how the lines of an event stream begin
_SIGNIFICANT = re.compile(r'[{}\[\]"\\]')  # all that tells where a JSON value ends


def whole_deltas(text: str, begun: bool = False) -> list[Delta]:
    """The deltas of a reply read whole: a JSON reply; JSON chunks one after another, without "data:"; an event
    stream; or a JSON reply followed by stream lines ("data: [DONE]", which a proxy adds to whatever it sends).
    Text that is none of these is said to be no JSON (message_deltas raises). ``begun``: the answer's words came
    in an earlier round (an error then says that they are kept)."""
    calls, picked, deltas, at = NativeCalls(), Choices(), [], BLANK.match(text).end()
    answering = False  # this reply's own words came before (an error after them: see message_deltas)

    def read(data: str, event: str = "message") -> None:
        nonlocal answering
        for delta in message_deltas(data, event, calls, begun=begun, answering=answering, picked=picked):
            deltas.append(delta)
            answering = answering or bool(delta and (delta.content or delta.reasoning))

    while at < len(text):
        if text.startswith(_STREAM_FIELD, at):
            decoder = SSEDecoder()
            for message in decoder.feed(text[at:]) + decoder.finish():
                read(message.data, message.event)
            break
        try:
            end = json.JSONDecoder().raw_decode(text, at)[1]
        except (ValueError, RecursionError):
            end = len(text)  # read as a whole by message_deltas, which says what is wrong with it
        read(text[at:end])
        at = BLANK.match(text, end).end()
    return [d for d in deltas if d is not None]


class ReplyEnd:
    """Told a reply's text piece by piece; ``feed`` says when it has ended: at ``[DONE]``, an object with a
    finish_reason, or an error object (at the top level or as an event's data). Linear in the text however it
    is cut: only brackets, quotes and backslashes are looked at, and each value is read once, when it closes."""

    def __init__(self) -> None:
        self._pieces: list[str] = []
        self._starts: list[int] = []  # where each piece starts in the text
        self.size = 0  # characters so far
        self._depth = 0  # brackets open
        self._in_string = False
        self._escaped = -1  # where the character a backslash escapes is
        self._value = -1  # where the open top-level value starts
        self._end = -1  # where the reply ended, once it has

    def feed(self, piece: str) -> bool:
        """Takes the next piece; True once the reply has ended (what comes after its end is not kept)."""
        base = self.size
        self._pieces.append(piece)
        self._starts.append(base)
        self.size += len(piece)
        for match in _SIGNIFICANT.finditer(piece):
            at, char = base + match.start(), match.group()
            if self._in_string:
                if at == self._escaped:
                    continue
                if char == "\\":
                    self._escaped = at + 1
                elif char == '"':
                    self._in_string = False
            elif char == '"':
                self._in_string = True
            elif char in "{[":
                self._value = at if self._depth == 0 else self._value
                self._depth += 1
            elif self._depth:  # "}" or "]"; one that closes nothing is no JSON's, and said when read
                self._depth -= 1
                if not self._depth and _ends(self._slice(self._value, at + 1)):
                    self._end = at + 1
                    return True
        return False

    def text(self) -> str:
        """The reply's text, up to its end when it has one."""
        text = "".join(self._pieces)
        return text[: self._end] if self._end >= 0 else text

    def _slice(self, start: int, end: int) -> str:
        """The text from ``start`` to ``end`` (within the last piece): joined from the pieces it spans only."""
        first, base = bisect_right(self._starts, start) - 1, self._starts[-1]
        if first == len(self._pieces) - 1:  # a piece of many values: each is cut out alone
            return self._pieces[-1][start - base:end - base]
        return "".join([self._pieces[first][start - self._starts[first]:], *self._pieces[first + 1:-1],
                        self._pieces[-1][:end - base]])


def _ends(value: str) -> bool:
    """Whether a JSON value ends the reply: ``[DONE]``, a finish_reason, or an error (said once it is read)."""
    if value == "[DONE]":
        return True
    try:
        obj: Any = json.loads(value)
    except (ValueError, RecursionError):  # not JSON (a comment's brackets): said, if need be, when it is read
        return False
    if not isinstance(obj, dict):
        return False
    if obj.get("error") or obj.get("object") == "error":
        return True
    choices = obj.get("choices")
    return isinstance(choices, list) and any(isinstance(c, dict) and c.get("finish_reason") for c in choices)
