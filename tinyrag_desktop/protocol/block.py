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

# Block phases. P_FAILED: a block known invalid early (an unquoted name=, text with no <query> around it, another
# tag where <query> should open) that runs on to its </tool> (or a "</tool >", meant as it) if one follows within
# _FAILED_REACH characters of its start, with no blank line before it; else it ends where it failed, and the rest
# is text again. (Prose that mentions <tool name="x"> waits so until its paragraph ends; the model and the window
# are told the real reason a call was not run, not "written other than exactly <tool …>" for its stray </tool>.)
# A block that opens in it may be nested in it (spec rule 4): P_HELD.
# P_HELD: a block opened inside a failed one, held, not started: '<tool name="echo">hi <tool name="calculate">
# <query>1+1</query></tool></tool>' is one block, nested, whose calculate call must not run. It is read as
# P_SKIP reads a nested block, to the </tool> matching its own (_depth counting the failed one too). The
# failed block's own </tool> right after it (spaces and single line breaks between; or a "</tool >", meant as
# it) makes the whole one nested block. Anything else shows the failed block abandoned (text, a blank line,
# another block, the stream's end): it ends where it failed, and the held block is read again as a block of
# its own, whose call runs, late. Held so within _NESTED_REACH characters of where the failed block failed (the
# held block may be a program). A block held in a held one ('<tool name="a">text <tool A<tool
# name="calculate">…</tool>') must be followed by the latter's </tool> too: anything else shows both
# abandoned, each read again on its own (a block in the held one's element is still nested there, and runs no
# call).
# P_AFTER: past the inner element, where only spaces and </tool> may follow; any other text ends the block at
# once where its element ended (_fail_at), and that text is read as text again: "<query>1+1</query> then
# prose" held the rest of the answer, later calls and all, waiting for a </tool>. So does a "<tool " there:
# the block was left open (its </tool> forgotten) before the next, which runs at once, as a model that forgot
# one means it; a block opened inside the element is nested (spec rule 4): P_SKIP.
# P_SKIP: a nested block. The block runs on to the </tool> matching its own, "<tool " and "</tool>" counted
# ("</tool >" too, meant as one: not counted, the call nested inside ran once the block ended), if that
# comes within _NESTED_REACH characters of where the nesting began (_fail_at), nested no deeper than
# _MOST_DEPTH; else it ends there and the rest is text again (the calls after it run: it was left open, not
# closed around them). Unlike P_FAILED, a blank line does not end it: nanoGo source, in either block, has
# blank lines. The bound says how long the text after a block that never closes is held, nothing streaming:
# 4000 characters, about 1000 tokens or 100 lines of Go, a program longer than any written inside another
# block, and a wait of some 20 seconds at a local model's speed, not the whole answer. The depth keeps the
# cost linear: text read again after such an end is read so at most once for each level.
# In P_CONTENT, a "</tool >" (_spaced_at) may be the element's text (a Go string), as its end tag after it shows:
# within _SPACED_REACH characters of it, the rest of a short program; else (or a block opening, the block's
# </tool>, the limit or the stream's end first) the block ends at it, its element not closed, and the text after
# it streams again, not held to the answer's end.
P_TAG, P_BEFORE, P_CONTENT, P_CDATA, P_AFTER, P_SKIP, P_FAILED, P_HELD = range(8)
_FAILED_REACH = 2000
_NESTED_REACH = 4000
_SPACED_REACH = 1000
_MOST_DEPTH = 8
NESTED = "nested <tool> blocks are not supported"
_UNQUOTED = "attribute values must be quoted"
_NO_ELEMENT = "the block has no content element: its text must be inside <query>, <url> or <source>"
NOT_CLOSED_WITH = "the block was not closed with </tool>"  # how each reason for a block left open starts
NOT_CLOSED = f"{NOT_CLOSED_WITH} before the end"
_OPEN_BEFORE = f"{NOT_CLOSED_WITH} before the next <tool …> block"
SPACED_CLOSE = "its end tag has a space in it; it must be exactly </tool>"
_MAX_START_TAG = 512
_SPACES = re.compile(r"[ \t\r\n]*")
_INNER_OPEN = re.compile(r"<([A-Za-z_][-\w.]*)\s*(/?)>")
_INNER_OPEN_PREFIX = re.compile(r"<(?:[A-Za-z_][-\w.]*\s*/?)?\Z")
# No tag holds more than _MOST_SPACES spaces in a row: one waited on is known no tag after that many, and the
# whole text is read so too, so that where the stream was cut never changes what a block is.
_MOST_SPACES = 64
_FEW_SPACES = rf"[ \t\r\n]{{0,{_MOST_SPACES}}}"
_AFTER_OPEN = re.compile(rf"{_FEW_SPACES}([^ \t\r\n])")  # the first character after "<tool " and its spaces
_END_TAG_REST = re.compile(rf"{_FEW_SPACES}(>)?")  # after "</query"
_SPACED_CLOSE_TAG = re.compile(rf"</tool(?=[ \t\r\n]){_FEW_SPACES}(>)?")


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
    _spaced_at: int  # in its element: where a "</tool >" in its text ends (-1: none), its end if it is never closed
    _depth: int
    _ending: bool
    _newlines: int
    _input_at: int
    _input_newlines: int
    _input_end: int
    _input_end_newlines: int

    def _code_before(self, end: int) -> bool:
        """Whether the block's text before ``_buf[end]`` shows it in code, not a block (the parser's Markdown)."""
        return False

    def _raw(self, end: int) -> str:
        return "".join(self._parts) + self._buf[:end]

    def _compact(self) -> None:
        """Move the scanned part of the block out of the working buffer, so appends stay cheap."""
        if self._phase in (P_TAG, P_FAILED, P_HELD):
            return  # the start tag is re-read whole, it is short; a failed block is read to a short reach
        # past its element or in a nested block, the block may yet end where that began: kept from there
        cut = self._fail_at if self._phase in (P_AFTER, P_SKIP) else self._pos
        if self._phase in (P_CONTENT, P_CDATA) and self._spaced_at >= 0:
            cut = min(cut, self._spaced_at)  # the block may yet end at its "</tool >"
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
        self._fail_at -= cut
        self._content_start -= cut
        self._spaced_at -= cut

    def _spaced_close(self) -> int:
        """The block ends at the "</tool >" in its element's text: the element was never closed (a later block
        opens, the block's </tool> comes, or the answer ends first)."""
        self._error = self._error or f"the <{self._param}> element is not closed"
        return self._spaced_at

    def _past_spaced_reach(self, hit: int, longest: int) -> bool:
        """Whether the element's end tag can no longer come within reach of its "</tool >" (``hit``: where the
        next tag the element's text is looked through for starts, -1: none yet, ``longest`` characters at most)."""
        reach = self._spaced_at + _SPACED_REACH
        return hit > reach or hit < 0 and (self._ending or len(self._buf) >= reach + longest)

    def _fail(self, at: int, reason: str) -> int:
        self._error = reason
        return -(at + 2)

    def _pend(self, at: int, reason: str) -> None:
        """Failed at ``at``: look on for its </tool> (see P_FAILED)."""
        self._error = reason
        self._fail_at = self._pos = at
        self._phase = P_FAILED

    def _nest(self, at: int, fail_at: int) -> None:
        """A nested block opens at ``at``; the block ends at ``fail_at`` if it is not closed (see P_SKIP)."""
        self._error = self._error or NESTED
        self._depth = 2
        self._fail_at = fail_at
        self._pos = at + len(OPEN)
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
                close = _close_end(buf, pos)  # "</tool>", or "</tool >" meant as it
                if close is None:
                    return -1
                if close > 0:
                    self._error = self._error or "the block has no content element"
                    return close
                if buf.startswith(OPEN, pos) and (tag := _opens_tag(buf, pos)) is not False:
                    if tag is None:
                        return -1
                    self._nest(pos, pos)
                    continue
                m = _INNER_OPEN.match(buf, pos)
                if m is None:
                    if CLOSE.startswith(buf[pos:]) or _INNER_OPEN_PREFIX.match(buf, pos):
                        return -1
                    self._pend(pos, "expected <query>, <url> or <source> inside the block")
                    continue
                self._param = m.group(1)
                if self._param not in PARAMS:
                    self._error = self._error or (
                        f"unknown inner element <{self._param}>; use <query>, <url> or <source>"
                    )
                self._pos = m.end()
                if m.group(2):  # <query/>
                    self._phase, self._fail_at = P_AFTER, self._pos
                else:
                    self._content_start = m.end()
                    self._phase, self._spaced_at = P_CONTENT, -1
                    self._input_at = self._base + m.end()
                    self._input_newlines = sum(p.count("\n") for p in self._parts) + buf.count("\n", 0, m.end())
            elif phase == P_CONTENT:
                close_inner = f"</{self._param}"  # and ">", spaces before it allowed (XML's ETag)
                hit, which = _find_first(buf, pos, (close_inner, OPEN, CLOSE[:-1], "<![CDATA["))
                if self._spaced_at >= 0 and self._past_spaced_reach(hit, len(close_inner) + 9):
                    return self._spaced_close()
                if hit < 0:
                    self._pos = max(pos, n - len(close_inner) - 8)
                    return -1
                if which == 0:
                    end_tag = _END_TAG_REST.match(buf, hit + len(close_inner))
                    if end_tag.group(1) is None:
                        if end_tag.end() == n:
                            self._pos = hit  # "</query  ": a ">" may follow
                            return -1
                        self._pos = hit + len(close_inner)  # "</queryx>": the element's text
                        continue
                if which == 3:
                    self._content_parts.append(buf[self._content_start : hit])
                    self._pos = hit + 9
                    self._content_start = hit + 9
                    self._phase = P_CDATA
                    continue
                if which == 0:
                    self._spaced_at = -1  # a "</tool >" before was the element's text
                    self._content_parts.append(buf[self._content_start : hit])
                    self._pos = self._fail_at = end_tag.end()
                    self._phase = P_AFTER
                    self._input_end = self._base + hit
                    self._input_end_newlines = self._newlines - buf.count("\n", hit)
                elif which == 1:
                    tag = _opens_tag(buf, hit)
                    if tag is None:  # what follows "<tool " says whether a tag starts there
                        self._pos = hit
                        return -1
                    if tag and self._spaced_at >= 0:
                        return self._spaced_close()
                    self._pos = hit + len(OPEN)
                    if tag:
                        self._nest(hit, hit)
                else:  # the block's end tag before its element's: it ends there, invalid
                    close = _close_end(buf, hit)
                    if close is None:
                        self._pos = hit
                        return -1
                    if close < 0:  # "</toolbar": the element's text
                        self._pos = hit + len(CLOSE) - 1
                        continue
                    if self._spaced_at >= 0:
                        return self._spaced_close()
                    if close - hit > len(CLOSE):  # "</tool >": perhaps the element's text ("</tool >" in a Go
                        self._spaced_at = self._pos = close  # string), as its </source> after it shows
                        continue
                    self._error = self._error or f"the <{self._param}> element is not closed"
                    return close
            elif phase == P_CDATA:
                hit = buf.find("]]>", pos)
                if self._spaced_at >= 0 and self._past_spaced_reach(hit, 3):
                    return self._spaced_close()
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
                if CLOSE.startswith(rest) or OPEN.startswith(buf[pos : pos + len(OPEN)]) and pos + len(OPEN) > n:
                    return -1  # "</to", "<to": more must come to tell
                spaced = _SPACED_CLOSE_TAG.match(buf, pos)
                if spaced is not None and spaced.group(1) is None and spaced.end() == n:
                    return -1  # "</tool  ": a ">" may follow
                if spaced is not None and spaced.group(1):  # "</tool >": meant as its close, and said to be none
                    self._error = self._error or SPACED_CLOSE
                    return spaced.end()
                if buf.startswith(OPEN, pos) and (tag := _opens_tag(buf, pos)) is not False:
                    if tag is None:
                        return -1
                    # Another block after this one's element: this one was left open (its </tool> forgotten),
                    # not closed around the next, which runs at once (a nested block is one inside the element)
                    return self._fail(self._fail_at, self._error or _OPEN_BEFORE)
                return self._fail(self._fail_at, self._error or f"{NOT_CLOSED_WITH} right after </{self._param}>: "
                                  "text came first (a block holds one element, then its end tag)")
            elif phase == P_FAILED:
                reach = min(_FAILED_REACH, self.max_block_chars) - self._base
                hit, which = _find_first(buf, pos, (OPEN, CLOSE[:-1], "\n\n"))
                if which == 1 and hit + len(CLOSE) <= reach:
                    close = _close_end(buf, hit)  # "</tool>", or "</tool >" meant as it: the block ends there
                    if close is None and n < reach:
                        self._pos = hit
                        return self._wait()
                    if close is not None and 0 < close <= reach:
                        return close
                    if close is not None and close < 0:  # "</toolbar": text
                        self._pos = hit + len(CLOSE) - 1
                        continue
                if which == 0 and hit + len(OPEN) <= reach:
                    tag = _opens_tag(buf, hit)
                    if tag is None:
                        self._pos = hit
                        return self._wait()
                    if tag and not self._code_before(hit):  # perhaps nested in this one: held till known
                        self._depth, self._pos, self._phase = 2, hit + len(OPEN), P_HELD
                        continue
                if hit >= 0 or n >= reach:
                    return self._fail(self._fail_at, self._error)
                self._pos = max(pos, n - len(CLOSE))
                return self._wait()
            elif phase == P_HELD and self._depth == 1:  # past the held block: the failed one's </tool> next?
                end = self._close_next(pos)
                if end >= 0:
                    self._error = f"{NESTED}, and {self._error}"
                    return end
                if end == -1:
                    return self._wait()
                return self._fail(self._fail_at, self._error)  # abandoned: the held block is one of its own
            else:  # P_SKIP, P_HELD: find the matching </tool> (or "</tool >"), counting nested openings, within reach
                reach = self._nested_reach()
                hit, which = _find_first(buf, pos, (OPEN, CLOSE[:-1]))
                if hit < 0 or hit + len(CLOSE) > reach:
                    if n < reach:
                        self._pos = max(pos, n - len(CLOSE))
                        return self._wait()
                    # not nested after all: left open, and other blocks began
                    return self._fail(self._fail_at, _OPEN_BEFORE if self._error == NESTED else self._error)
                if which == 1:
                    close = _close_end(buf, hit)
                    if close is None:
                        self._pos = hit
                        return self._wait()
                    if close < 0:  # "</toolbar": text
                        self._pos = hit + len(CLOSE) - 1
                        continue
                    if phase == P_HELD and self._depth > 2:  # one held in a held block: the latter's </tool> next?
                        follows = self._close_next(close)
                        if follows == -1:
                            self._pos = hit
                            return self._wait()
                        if follows == -2:  # abandoned, and so is the failed one: each is read again on its own
                            return self._fail(self._fail_at, self._error)
                    self._depth -= 1
                    self._pos = close
                    if self._depth == 0:
                        return self._pos
                    continue
                tag = _opens_tag(buf, hit)
                if tag is None:
                    self._pos = hit
                    return self._wait()
                self._depth += tag
                self._pos = hit + len(OPEN)
                if self._depth > _MOST_DEPTH:
                    return self._fail(self._fail_at, self._error)

    def _close_begun(self) -> int:
        """Where in ``_buf`` an end tag of the element it ends in begins ("</sou", "</source  "), as far as
        P_CONTENT would wait on it; else ``len(_buf)``."""
        close, buf = f"</{self._param}", self._buf
        k = buf.rfind("<", max(0, len(buf) - len(close)))
        if k >= 0 and close.startswith(buf[k:]):  # "</sou", "</source"
            return k
        if not buf or buf[-1] not in _WS:
            return len(buf)
        k = buf.rfind("<", max(0, len(buf) - len(close) - _MOST_SPACES))  # "</source  "
        if k >= 0 and buf.startswith(close, k) and not buf[k + len(close) :].strip(_WS):
            return k
        return len(buf)

    def _close_next(self, pos: int) -> int:
        """Past a block held in a failed one (see P_HELD), or in a block held so: where the </tool> that follows
        ``_buf[pos]`` ends (or a "</tool >", meant as it), spaces and single line breaks between, within reach; -1
        while more must come to tell, -2 if none does (the block it was held in was abandoned)."""
        buf, reach = self._buf, self._nested_reach()
        end = _SPACES.match(buf, pos).end()
        if "\n\n" not in buf[pos:end]:
            close = _close_end(buf, end)
            if close is not None and 0 < close <= reach:
                return close
            if close is None and len(buf) < reach:
                return -1
        return -2

    def _nested_reach(self) -> int:
        """Where in ``_buf`` a nested or held block must end by (see P_SKIP and P_HELD)."""
        return min(self._fail_at + _NESTED_REACH, self.max_block_chars - self._base)

    def _wait(self) -> int:
        """Waiting on more text. At the stream's end none comes: a failed block ends where it failed."""
        return self._fail(self._fail_at, self._error) if self._ending and self._phase in (P_FAILED, P_HELD) else -1

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


def _close_end(buf: str, at: int) -> int | None:
    """Where the </tool> at ``at`` ends, one written "</tool >" too (meant as a close, SPACED_CLOSE); -1 when
    none is there; None while more text must come to tell."""
    if buf.startswith(CLOSE, at):
        return at + len(CLOSE)
    spaced = _SPACED_CLOSE_TAG.match(buf, at)
    if spaced is None:
        return None if CLOSE.startswith(buf[at:]) else -1
    if spaced.group(1):
        return spaced.end()
    return None if spaced.end() == len(buf) else -1


def _find_first(buf: str, pos: int, needles: tuple[str, ...]) -> tuple[int, int]:
    best, which = -1, -1
    for k, needle in enumerate(needles):
        hit = buf.find(needle, pos) if best < 0 else buf.find(needle, pos, best + len(needle) - 1)
        if hit >= 0 and (best < 0 or hit < best):
            best, which = hit, k
    return best, which
