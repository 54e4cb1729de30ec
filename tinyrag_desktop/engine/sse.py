"""A sans-I/O decoder of Server-Sent Events as OpenAI-compatible servers stream them."""

from __future__ import annotations

import re
from dataclasses import dataclass

_LINE = re.compile(r"\r\n|\r|\n")  # the format's only line ends (not str.splitlines' many)


@dataclass(frozen=True, slots=True)
class SSEMessage:
    """One dispatched event: ``data`` is its data lines joined with newlines."""

    data: str
    event: str = "message"


class SSEDecoder:
    """Feed text as it arrives; get whole messages. Handles CRLF, comments (keep-alives) and
    multi-line data, per the WHATWG event-stream format."""

    def __init__(self) -> None:
        self._partial = ""
        self._pieces: list[str] = []  # the rest of a long line, while no line end has come
        self._data: list[str] = []
        self._event = ""

    def feed(self, text: str) -> list[SSEMessage]:
        if "\n" not in text and "\r" not in text:
            # Still inside one line: keep the piece, and join once when the line ends. Joining and
            # scanning the whole line at every piece made a 4 MB line cost 20 s.
            self._pieces.append(text)
            return []
        buf = self._partial + "".join(self._pieces) + text
        self._pieces.clear()
        out: list[SSEMessage] = []
        start = 0
        for m in _LINE.finditer(buf):
            if m.group() == "\r" and m.end() == len(buf):
                break  # maybe the first half of "\r\n": wait for the next chunk
            self._line(buf[start : m.start()], out)
            start = m.end()
        self._partial = buf[start:]
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
            if self._data:
                out.append(SSEMessage("\n".join(self._data), self._event or "message"))
            self._data, self._event = [], ""
            return
        if line.startswith(":"):
            return  # a comment, used as keep-alive
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "data":
            self._data.append(value)
        elif field == "event":
            self._event = value
