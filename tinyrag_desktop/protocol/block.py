"""The inside of one ``<tool name="…"><query>…</query></tool>`` block, read as its text arrives: the
parser's BLOCK mode (protocol/parser.py), whose Markdown around the block this module knows nothing of.

``BlockPhases`` is the part of ``XMLParseState`` that reads the block held in ``_buf`` (its earlier text moved
to ``_parts``, ``_base`` characters of it): ``_scan_block`` advances its phases as far as the text goes and
says where the block ends, ``_finish_block`` makes its event.
"""

from __future__ import annotations

import re

from .events import InvalidBlock, ParseEvent, ToolCall
from .xmltext import decode_content, parse_start_tag

OPEN = "<tool "
CLOSE = "</tool>"
PARAMS = ("query", "url", "source")
_WS = " \t\r\n"

# Block phases. P_FAILED: a block known invalid early (an unquoted name=, text with no <query> around it)
# that runs on to its </tool> if one follows within _FAILED_REACH characters of its start, with no other
# "<tool " and no blank line before it; else it ends where it failed, and the rest is text again. (Prose that
# mentions <tool name="x"> waits so until its paragraph ends; the model and the window are told the real
# reason a call was not run, not "written other than exactly <tool …>" for its stray </tool>.)
P_TAG, P_BEFORE, P_CONTENT, P_CDATA, P_AFTER, P_SKIP, P_FAILED = range(7)
_FAILED_REACH = 2000
_UNQUOTED = "attribute values must be quoted"
_NO_ELEMENT = "the block has no content element: its text must be inside <query>, <url> or <source>"
NOT_CLOSED = "the block was not closed with </tool> before the end"
SPACED_CLOSE = "its end tag has a space in it; it must be exactly </tool>"
_SPACED_CLOSE_TAG = re.compile(r"</tool[ \t\r\n]+(>)?")
_MAX_START_TAG = 512
_INNER_OPEN = re.compile(r"<([A-Za-z_][-\w.]*)\s*(/?)>")
_INNER_OPEN_PREFIX = re.compile(r"<(?:[A-Za-z_][-\w.]*\s*/?)?\Z")
# The first character after "<tool " and its spaces, of which no tag holds more than _MOST_SPACES.
_MOST_SPACES = 64
_AFTER_OPEN = re.compile(rf"[ \t\r\n]{{0,{_MOST_SPACES}}}([^ \t\r\n])")


class BlockPhases:
    """The block's phases, for ``XMLParseState`` to inherit; its state lives there."""

    max_block_chars: int
    _buf: str
    _parts: list[str]
    _base: int
    _pos: int
    _phase: int
    _name: str
    _param: str
    _content_start: int
    _content_parts: list[str]
    _error: str
    _fail_at: int
    _depth: int
    _newlines: int
    _input_at: int
    _input_newlines: int
    _input_end: int
    _input_end_newlines: int

    def _raw(self, end: int) -> str:
        return "".join(self._parts) + self._buf[:end]

    def _compact(self) -> None:
        """Move the scanned part of the block out of the working buffer, so appends stay cheap."""
        if self._phase in (P_TAG, P_FAILED):
            return  # the start tag is re-read whole, it is short; a failed block is read to a short reach
        cut = self._pos
        if self._phase in (P_CONTENT, P_CDATA) and cut > self._content_start:
            text = self._buf[self._content_start : cut]
            self._content_parts.append(_Literal(text) if self._phase == P_CDATA else text)
            self._content_start = cut
        if cut <= 0:
            return
        self._parts.append(self._buf[:cut])
        self._buf = self._buf[cut:]
        self._base += cut
        self._pos -= cut
        self._content_start -= cut

    def _fail(self, at: int, reason: str) -> int:
        self._error = reason
        return -(at + 2)

    def _pend(self, at: int, reason: str) -> None:
        """Failed at ``at``: look on for its </tool> (see P_FAILED)."""
        self._error = reason
        self._fail_at = self._pos = at
        self._phase = P_FAILED

    def _skip(self, reason: str) -> None:
        if not self._error:
            self._error = reason
        self._phase = P_SKIP

    def _scan_block(self) -> int:
        buf = self._buf
        n = len(buf)
        while True:
            phase = self._phase
            pos = self._pos
            if phase == P_TAG:
                gt = buf.find(">", pos, _MAX_START_TAG)
                stop = min(n, _MAX_START_TAG) if gt < 0 else gt + 1
                tag = parse_start_tag(buf[:stop], complete=gt >= 0)
                if tag.error == _UNQUOTED:  # <tool name=calculate>: a call, written wrong
                    self._pend(tag.error_at, tag.error)
                    continue
                if tag.error:
                    return self._fail(tag.error_at, tag.error)
                if gt < 0:
                    if n >= _MAX_START_TAG:
                        return self._fail(_MAX_START_TAG, "the <tool ...> start tag is too long")
                    self._pos = n
                    return -1
                self._name = tag.name
                if not tag.name:
                    self._error = 'the block has no name="…" attribute, or it is empty'
                self._error = self._error or tag.problem
                if tag.self_closing:
                    self._error = self._error or "the block has no content element"
                    return stop
                self._pos = stop
                self._phase = P_BEFORE
            elif phase == P_BEFORE:
                while pos < n and buf[pos] in _WS:
                    pos += 1
                self._pos = pos
                if pos == n:
                    return -1
                if buf[pos] != "<":  # <tool name="calculate">2+2</tool>
                    self._pend(pos, _NO_ELEMENT)
                    continue
                rest = buf[pos : pos + len(CLOSE)]
                if rest == CLOSE:
                    self._error = self._error or "the block has no content element"
                    return pos + len(CLOSE)
                if buf.startswith(OPEN, pos) and (tag := _opens_tag(buf, pos)) is not False:
                    if tag is None:
                        return -1
                    self._depth = 2
                    self._pos = pos + len(OPEN)
                    self._skip("nested <tool> blocks are not supported")
                    continue
                m = _INNER_OPEN.match(buf, pos)
                if m is None:
                    if CLOSE.startswith(buf[pos:]) or _INNER_OPEN_PREFIX.match(buf, pos):
                        return -1
                    self._skip("expected <query>, <url> or <source> inside the block")
                    continue
                self._param = m.group(1)
                if self._param not in PARAMS:
                    self._error = self._error or (
                        f"unknown inner element <{self._param}>; use <query>, <url> or <source>"
                    )
                self._pos = m.end()
                if m.group(2):  # <query/>
                    self._phase = P_AFTER
                else:
                    self._content_start = m.end()
                    self._phase = P_CONTENT
                    self._input_at = self._base + m.end()
                    self._input_newlines = sum(p.count("\n") for p in self._parts) + buf.count("\n", 0, m.end())
            elif phase == P_CONTENT:
                close_inner = f"</{self._param}>"
                hit, which = _find_first(buf, pos, (close_inner, OPEN, CLOSE, "<![CDATA["))
                if hit < 0:
                    self._pos = max(pos, n - len(close_inner) - 8)
                    return -1
                if which == 3:
                    self._content_parts.append(buf[self._content_start : hit])
                    self._pos = hit + 9
                    self._content_start = hit + 9
                    self._phase = P_CDATA
                    continue
                if which == 0:
                    self._content_parts.append(buf[self._content_start : hit])
                    self._pos = hit + len(close_inner)
                    self._phase = P_AFTER
                    self._input_end = self._base + hit
                    self._input_end_newlines = self._newlines - buf.count("\n", hit)
                elif which == 1:
                    tag = _opens_tag(buf, hit)
                    if tag is None:  # what follows "<tool " says whether a tag starts there
                        self._pos = hit
                        return -1
                    self._pos = hit + len(OPEN)
                    if tag:
                        self._depth = 2
                        self._skip("nested <tool> blocks are not supported")
                else:
                    self._error = self._error or f"the <{self._param}> element is not closed"
                    return hit + len(CLOSE)
            elif phase == P_CDATA:
                hit = buf.find("]]>", pos)
                if hit < 0:
                    self._pos = max(pos, n - 2)
                    return -1
                # Keep CDATA literal: mark it so decoding leaves it alone.
                self._content_parts.append(_Literal(buf[self._content_start : hit]))
                self._pos = hit + 3
                self._content_start = hit + 3
                self._phase = P_CONTENT
            elif phase == P_AFTER:
                while pos < n and buf[pos] in _WS:
                    pos += 1
                self._pos = pos
                if pos == n:
                    return -1
                rest = buf[pos : pos + len(CLOSE)]
                if rest == CLOSE:
                    return pos + len(CLOSE)
                if CLOSE.startswith(rest):
                    return -1
                spaced = _SPACED_CLOSE_TAG.match(buf, pos)
                if spaced is not None and spaced.group(1) is None and spaced.end() == n and n - pos < _MOST_SPACES:
                    return -1  # "</tool  ": a ">" may follow
                self._skip(SPACED_CLOSE if spaced is not None and spaced.group(1) else
                           f"unexpected text after </{self._param}>; a block holds one element")
            elif phase == P_FAILED:
                reach = min(_FAILED_REACH, self.max_block_chars) - self._base
                hit, which = _find_first(buf, pos, (OPEN, CLOSE, "\n\n"))
                if which == 1 and hit + len(CLOSE) <= reach:
                    return hit + len(CLOSE)
                if hit >= 0 or n >= reach:
                    return self._fail(self._fail_at, self._error)
                self._pos = max(pos, n - len(CLOSE))
                return -1
            else:  # P_SKIP: find the matching </tool>, counting nested openings
                hit, which = _find_first(buf, pos, (OPEN, CLOSE))
                if hit < 0:
                    self._pos = max(pos, n - len(CLOSE))
                    return -1
                if which == 0:
                    tag = _opens_tag(buf, hit)
                    if tag is None:
                        self._pos = hit
                        return -1
                    self._depth += tag
                    self._pos = hit + len(OPEN)
                else:
                    self._depth -= 1
                    self._pos = hit + len(CLOSE)
                    if self._depth == 0:
                        return self._pos

    def _finish_block(self, raw: str) -> ParseEvent:
        if self._error:
            return InvalidBlock(raw, self._error)
        if self._wrapped:
            return InvalidBlock(raw, f"it is inside {self._wrapped}")
        pieces: list[str] = []
        run: list[str] = []
        for part in self._content_parts:  # decode runs of ordinary text whole: entities may span parts
            if isinstance(part, _Literal):
                pieces.append(decode_content("".join(run)))
                pieces.append(part)
                run = []
            else:
                run.append(part)
        pieces.append(decode_content("".join(run)))
        content = "".join(pieces).strip()
        if not content:
            return InvalidBlock(raw, f"the <{self._param}> element is empty")
        return ToolCall(self._name, self._param, content, raw)


class _Literal(str):
    """CDATA text: taken as it is, without entity decoding."""

    __slots__ = ()


def _opens_tag(buf: str, at: int) -> bool | None:
    """Whether the "<tool " at ``at``, inside a block, opens a nested tag (a name, ">" or "/" after it) or is
    the block's text ('fmt.Println("<tool ")' in a Go program: counted as a nested block, it made the rest of
    the answer, later calls and all, one block never closed); None while only spaces follow it."""
    m = _AFTER_OPEN.match(buf, at + len(OPEN))
    if m is None:  # no tag holds more spaces than that: waiting on, each chunk looked through them again
        return None if len(buf) - at - len(OPEN) <= _MOST_SPACES else False
    return m.group(1).isalpha() or m.group(1) in "_:>/"


def _find_first(buf: str, pos: int, needles: tuple[str, ...]) -> tuple[int, int]:
    best, which = -1, -1
    for k, needle in enumerate(needles):
        hit = buf.find(needle, pos) if best < 0 else buf.find(needle, pos, best + len(needle) - 1)
        if hit >= 0 and (best < 0 or hit < best):
            best, which = hit, k
    return best, which
