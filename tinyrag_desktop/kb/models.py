"""Values the knowledge base passes around: documents read from files, chunks, sources and search hits."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..hidden_passwords import hide_passwords
from .links import Link


@dataclass(frozen=True, slots=True)
class Block:
    """One structural piece of a document: a heading (with its level), text, code or a table."""

    kind: str  # "heading", "text", "code", "table" or "term" (a definition list's term)
    text: str
    level: int = 0
    # A table's first row names its columns: a table too long for one passage repeats it in each.
    # An HTML table whose first row is data (no <th>, no <thead>) has none.
    header: bool = True
    # The HTML id (or <a name>) nearest above the block: a heading's, its section's, a definition term's.
    # None when there is none, and in formats without them. Not compared: blocks equal in all they say are
    # equal, wherever the page lets a browser scroll.
    anchor: str | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Document:
    """What a reader makes of a file or page: a title, the kind of source, its blocks in order, and the
    links in its running text (for the link index; readers of formats without links leave it empty)."""

    title: str
    type: str
    blocks: tuple[Block, ...]
    links: tuple[Link, ...] = ()
    # What the import is to say of how it was read, beside "added": an encoding guessed (decoding.py).
    notes: tuple[str, ...] = field(default=(), compare=False)
    # A page read as its links (link_pages.py): where they lead. Leading to the pages imported with it, it
    # is their navigation (a manual's table of contents), and left out (see ingest).
    link_targets: tuple[str, ...] = field(default=(), compare=False)
    # How many passwords, tokens and keys were stored as "***" (secret_values.py), said in the import's summary.
    hidden: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Chunk:
    """A passage to index: its heading path ("Page > Section > Subsection"), its text, and in an HTML page
    the id of the place the passage starts under (see Block.anchor), where a browser opens the page."""

    heading: str
    text: str
    anchor: str | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class SourceInfo:
    """A row of the sources table, as the list views show it."""

    id: int
    title: str
    location: str
    type: str
    size: int
    content_hash: str
    imported_at: str
    load_id: str
    chunk_count: int


@dataclass(frozen=True, slots=True)
class Hit:
    """A search result: the chunk, the source it came from, and its score (higher is better); ``anchor``,
    the chunk's place in its page (see Chunk.anchor), None when it has none or was stored without; ``type``,
    the source's (Source.type: "code" and "config" passages are shown and compared as code); ``copies``, the
    other sources' locations that hold the same passage (under the same headings, its text the same but for
    whitespace; beyond the candidates, to the byte), best first: one result stands for them all (see
    search._by_source and _all_copies)."""

    chunk_id: int
    source_id: int
    title: str
    location: str
    heading: str
    text: str
    score: float
    anchor: str | None = None
    type: str = ""
    copies: tuple[str, ...] = field(default=(), compare=False)

    def to_json(self) -> dict[str, object]:
        return {
            "source_id": self.source_id,
            "title": self.title,
            "location": self.location,
            "heading": self.heading,
            "score": round(self.score, 4),
            "text": self.text,
            "anchor": self.anchor,
        }


def hide_password(location: str) -> str:
    """``location`` with the password of a URL that holds one (https://me:secret@host/) shown as ***."""
    return hide_passwords(location)
