"""Values the knowledge base passes around: documents read from files, chunks, sources and search hits."""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class Document:
    """What a reader makes of a file or page: a title, the kind of source, its blocks in order, and the
    links in its running text (for the link index; readers of formats without links leave it empty)."""

    title: str
    type: str
    blocks: tuple[Block, ...]
    links: tuple[Link, ...] = ()


@dataclass(frozen=True, slots=True)
class Chunk:
    """A passage to index: its heading path ("Page > Section > Subsection") and its text."""

    heading: str
    text: str


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
    """A search result: the chunk, the source it came from, and its score (higher is better)."""

    chunk_id: int
    source_id: int
    title: str
    location: str
    heading: str
    text: str
    score: float

    def to_json(self) -> dict[str, object]:
        return {
            "source_id": self.source_id,
            "title": self.title,
            "location": self.location,
            "heading": self.heading,
            "score": round(self.score, 4),
            "text": self.text,
        }
