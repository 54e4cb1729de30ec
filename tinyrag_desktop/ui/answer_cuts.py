"""Where an answer's text is cut into segments, and whether a cut block is joined again when the answer ends."""

from __future__ import annotations

from dataclasses import dataclass

from .markdown_cuts import Cut, freeze_point
from .segments import MarkdownSegment

# The longest code block (in characters) joined into one box when the answer is whole: one render of it
# costs about a millisecond per 80 to 300 characters (Go's highlighting the dearest; see
# AnswerWidget._join_cut_blocks): at most about 150 ms, once, at the end.
JOIN_MOST = 12_000
# The most cells of a long table whose pieces are joined into one table (see too_long): Qt lays one out whole,
# about 0.04 ms a cell; a stored table of 3,000 rows took 0.6 s, the window stalled, each time its chat opened.
# Longer, its pieces stay, their columns lined up (see table_pieces.CutTable).
JOIN_CELLS = 6_000
# Characters of a long run of text the cutting reads first (see cut): a little more than freeze_point's
# ``hard``. A stored answer of a 1.2 MB list was read whole for each of its 300 cuts, 8 s before the chat showed.
LOOK_AHEAD = 6_000


@dataclass(slots=True)
class Run:
    """Text still to render and the segment it goes into (split segments are inserted after it)."""

    seg: MarkdownSegment
    text: str


def cut(run: Run) -> Cut | None:
    """Where to cut ``run`` (see freeze_point), reading only its first LOOK_AHEAD characters when a cut is
    there: the run's text read as far as a stream would have brought it. A run cut this way renders in
    segments of the same few thousand characters as while streaming, and each cut costs the same, however
    long the text after it (a stored answer's whole text is one run)."""
    opener, look = run.seg._render_prefix, LOOK_AHEAD
    while len(run.text) > look:
        cut = freeze_point(run.text[:look], opener=opener)
        if cut is not None:
            return cut
        look = _further(run.text, look)
    return freeze_point(run.text, opener=opener)


def _further(text: str, look: int) -> int:
    """How much of ``text`` cut reads next when its first ``look`` characters hold no cut: up to the start of the
    line after the one they end in, as a stream brings it, else four times as many. A stream cuts a code block right
    after its first line however long (freeze_point): read only four times as far, a stored block of a
    30,000-character line and 3,000 more was read past its end and rendered in one piece, a 0.3 to 0.6 s stall
    each time its chat opened."""
    if text[look - 1] == "\n":
        return look * 4
    end = text.find("\n", look)
    return len(text) if end < 0 else end + 1


def too_long(first: MarkdownSegment, rest: list[MarkdownSegment]) -> bool:
    """Whether the pieces of a cut block are too long to render again as one (see AnswerWidget._join_cut_blocks): a code
    block of more than JOIN_MOST characters, a table of more than JOIN_CELLS cells. A long table's pieces
    are otherwise always joined: each sized to its own rows, they were not one table."""
    if any(s._render_prefix.startswith("|") for s in rest):
        header = rest[0]._render_prefix.split("\n", 1)[0]
        rows = sum(s.markdown().count("\n") for s in (first, *rest))  # (and the lines above it: a count)
        return rows * (header.strip().strip("|").count("|") + 1) > JOIN_CELLS
    return sum(len(s.markdown()) for s in (first, *rest)) > JOIN_MOST
