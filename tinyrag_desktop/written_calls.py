"""The tool call the model was writing when the user stopped the answer, shown as a call not run, in plain words.

Stopped in the middle of a call, an answer's text ends with a block never closed. The parser rightly says so
of a stream that ended there by itself ("the block was not closed with </tool> before the end"), but after
a Stop those words were jargon about the user's own act, under the raw ``<tool name="nanogo"><source>…``.
The text keeps the call as it was written (the stored message, the model's history); the window, Copy and
Export show it as a call of its own that says what happened ("stopped while the model was writing it").
No Qt: chat_export.py uses it too.
"""

from __future__ import annotations

import re

from .chats import StoredMessage, StoredTool
from .markdown_prep import guessed_round_starts, invalid_blocks, invalid_mark, not_closed, round_cuts, round_pieces
from .protocol.xmltext import decode_content

STOPPED_WRITING = "Stopped while the model was writing it; not run."
WRITTEN_ID = "written-when-stopped"  # the call id of such a call: the engine never gave it one

_NAME_RE = re.compile(r"""<tool\s+name\s*=\s*(["'])(.*?)\1""", re.S)
_INPUT_RE = re.compile(r"<tool\s[^>]*>\s*<(query|url|source)>", re.S)
# The start of the end tag the call was stopped in ("</too"), after its input was whole: left as text by the
# parser, it is still that call's (nothing ran; the card said "stopped", and the text showed a stray "</tool").
_END_TAG_BEGUN = re.compile(r"\s*</(?:t(?:o(?:ol?)?)?)?\Z")


def stopped_call(text: str) -> int | None:
    """Where in ``text`` the call it ends with, never closed, begins (None when it ends with none). The
    window decides by it too when the answer is stopped (see ui/answer_rendering.py), so that the answer
    shows the same then and reopened."""
    if "<tool" not in text:
        return None
    shown, found = invalid_blocks(text)
    if not found or not not_closed(found[-1][1]):
        return None
    shown, text, mark = shown.rstrip(), text.rstrip(), invalid_mark(len(found) - 1)
    begun = _END_TAG_BEGUN.search(shown)
    if begun is not None and shown[:begun.start()].endswith(mark) and text.endswith(shown[begun.start():]):
        shown, text = shown[:begun.start()], text[:len(text) - (len(shown) - begun.start())]
    raw = found[-1][0]
    if not shown.endswith(mark) or not text.endswith(raw):
        return None
    return len(text) - len(raw)


def written_tool(raw: str, position: int) -> StoredTool:
    """The call ``raw`` (a block never closed) as far as it was written, at ``position`` in its answer's text:
    its tool, and its input so far, without the start of an end tag ("</sour") it was stopped in."""
    name = _NAME_RE.match(raw)
    inner = _INPUT_RE.match(raw)
    param = inner.group(1) if inner else "query"
    written = raw[inner.end():] if inner else ""
    end = f"</{param}>"
    written = written.split(end, 1)[0]
    for cut in range(len(end) - 1, 0, -1):
        if written.endswith(end[:cut]):
            written = written[:-cut]
            break
    return StoredTool(WRITTEN_ID, name.group(2) if name else "tool", decode_content(written).strip("\n"),
                      "skipped", param, error=STOPPED_WRITING, elapsed_ms=-1, position=position)


ROUND_STARTS = "round_starts"  # the key of an answer's stats that says where in its text each round began


def round_starts(message: StoredMessage) -> list[int] | None:
    """Where in ``message.content`` each round after the first began, as the window kept it in the stats; None
    for an answer stored before it was kept (or with a value that is no list of numbers)."""
    starts = (message.stats or {}).get(ROUND_STARTS)
    if not isinstance(starts, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in starts):
        return None
    return starts


def round_segments(message: StoredMessage) -> list[str | StoredTool]:
    """``message.segments()`` with each text also cut where a round began after a call the round before left
    open (round_cuts): each part is parsed on its own, as the engine parsed it (invalid_blocks). Stored before
    the starts were kept, they are guessed (guessed_round_starts)."""
    starts = round_starts(message)
    cuts = None if starts is None else round_cuts(message.content, starts)
    out: list[str | StoredTool] = []
    at = 0  # where the text segment starts in the content: the tools between them take none of it
    for seg in message.segments():
        if not isinstance(seg, str):
            out.append(seg)
            continue
        out += round_pieces(seg, guessed_round_starts(seg) if cuts is None else [cut - at for cut in cuts])
        at += len(seg)
    return out


def shown_segments(message: StoredMessage) -> list[str | StoredTool]:
    """``round_segments(message)``, and for an answer the user stopped while a call was being written, that call
    as a tool of its own at the end (see written_tool) in place of the text it ends with."""
    segments = round_segments(message)
    stopped = message.status == "stopped" or (message.stats or {}).get("outcome") == "stopped"
    if not stopped or not segments or not isinstance(segments[-1], str):
        return segments
    last = segments[-1]
    at = stopped_call(last)
    if at is None:
        return segments
    tool = written_tool(last[at:].rstrip(), len(message.content) - len(last) + at)
    return [*segments[:-1], *([last[:at]] if last[:at] else []), tool]
