"""A sans-I/O decoder of Server-Sent Events as OpenAI-compatible servers stream them."""

from __future__ import annotations

import re
from dataclasses import dataclass

_LINE = re.compile(r"\r\n|\r|\n")  # the format's only line ends (not str.splitlines' many)
# The most one line, or one message's data, may hold. A model's delta is a few characters, a whole reply
# sent as one message a few hundred thousand; a server that never ends a line (or a message) grew the
# process by gigabytes while bytes kept coming, which no timeout stops.
MAX_HELD = 16 * 1024 * 1024


class TooLong(ValueError):
    """A line or a message went past MAX_HELD characters without ending."""


@dataclass(frozen=True, slots=True)
class SSEMessage:
    """One dispatched event: ``data`` is its data lines joined with newlines."""

    data: str
    event: str = "message"


class SSEDecoder:
    """Feed text as it arrives; get whole messages. Handles CRLF, comments (keep-alives) and
    multi-line data, per the WHATWG event-stream format.

    One field the format does not have is read too: llama.cpp's server writes an error in the stream as
    ``error: {"code": 500, "message": …}`` (its own field, not ``data``). It comes as a message of event
    ``error``, after the message's data if it had any; the format would drop it, and the answer was cut
    short with nothing said. So is an ``event: error`` with no data, which the format drops too: the answer
    ended as if whole, or was said to be cut off, where the server had said that it failed. And a line that is
    a JSON object by itself, without ``data:`` (Ollama's server writes an error so once a stream has begun),
    comes as a message of its own, after the message being read (an ``event:`` line just before it names it)."""

    def __init__(self) -> None:
        self._partial = ""
        self._pieces: list[str] = []  # the rest of a long line, while no line end has come
        self._held = 0  # characters in _pieces
        self._data: list[str] = []
        self._data_size = 0
        self._event = ""
        self._error: list[str] = []  # the message's ``error`` lines (llama.cpp's)
        self._begun = False  # text has come

    def feed(self, text: str) -> list[SSEMessage]:
        if text and not self._begun:  # the format's byte-order mark, which a stream may start with: dropped, as
            self._begun = True        # "\ufeffdata" was no field and the first message was lost
            text = text.removeprefix("\ufeff")
        if "\n" not in text and "\r" not in text:
            # Still inside one line: keep the piece, and join once when the line ends. Joining and
            # scanning the whole line at every piece made a 4 MB line cost 20 s.
            self._pieces.append(text)
            self._held += len(text)
            if self._held + len(self._partial) > MAX_HELD:
                raise TooLong(f"a line of over {MAX_HELD // (1024 * 1024)} MB")
            return []
        buf = self._partial + "".join(self._pieces) + text
        self._pieces.clear()
        self._held = 0
        out: list[SSEMessage] = []
        start = 0
        for m in _LINE.finditer(buf):
            if m.group() == "\r" and m.end() == len(buf):
                break  # maybe the first half of "\r\n": wait for the next chunk
            self._line(buf[start : m.start()], out)
            start = m.end()
        self._partial = buf[start:]
        if len(self._partial) > MAX_HELD:
            raise TooLong(f"a line of over {MAX_HELD // (1024 * 1024)} MB")
        return out

    def finish(self) -> list[SSEMessage]:
        """End of stream: a last message not followed by a blank line still counts."""
        out: list[SSEMessage] = []
        self._partial += "".join(self._pieces)
        self._pieces.clear()
        if self._partial:
            self._line(self._partial.rstrip("\r\n"), out)
            self._partial = ""
        self._line("", out)
        return out

    def _line(self, line: str, out: list[SSEMessage]) -> None:
        if not line:
            if self._data or (self._event == "error" and not self._error):
                out.append(SSEMessage("\n".join(self._data), self._event or "message"))
            if self._error:
                out.append(SSEMessage("\n".join(self._error), "error"))
            self._data, self._data_size, self._event, self._error = [], 0, "", []
            return
        if line.startswith(":"):
            return  # a comment, used as keep-alive
        if line.startswith("{") and line.rstrip().endswith("}"):  # an object on one line, without "data:"
            if self._data or self._error:  # the message being read came first: it went after, or was lost
                self._line("", out)
            out.append(SSEMessage(line, self._event or "message"))  # "event: error" announcing the object
            self._event = ""
            return
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field in ("data", "error"):
            (self._data if field == "data" else self._error).append(value)
            self._data_size += len(value) + 1
            if self._data_size > MAX_HELD:
                raise TooLong(f"a message of over {MAX_HELD // (1024 * 1024)} MB")
        elif field == "event":
            self._event = value
