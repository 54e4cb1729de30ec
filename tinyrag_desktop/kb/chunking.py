"""Chunking that follows a document's structure: one section at a time, whole blocks where they fit.

Each heading closes the current chunk and updates the heading path ("Page > Section > Subsection"), which
every chunk carries so a passage deep in a long page still says where it belongs. A chunk also carries the
anchor of its first block (an HTML page's id there, see Block.anchor), or the section heading's when it is
the section's first chunk: a page opened there shows the heading it is under. Blocks fill a chunk up to
``size`` characters; a block too long for one chunk is cut at paragraph, line or sentence ends, in that
order of preference; tables and code are cut between lines only.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, Sequence

from .code_files import CODE_TYPES, code_blocks
from .errors import Cancelled
from .models import Block, Chunk, Document

PATH_SEP = " > "
# A chunk smaller than this is merged into the next one of the same section instead of standing alone.
_MIN_FRACTION = 0.25
CANCEL_EVERY = 2000  # chunks made between two looks at Cancel (see chunk_blocks)
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+")


_BLANK_LINE = re.compile(r"\n\s*\n")
_LINE_END = re.compile(r"\n")
_SPACES = re.compile(r"\s+")
# Between a table's cells, and between the words of a line of code or of a table's cell: where a line
# longer than a whole chunk (a cell holding paragraphs, a minified script) is cut, rather than in a word.
_CELL_END = re.compile(r" \| ")
_LINE_SPACES = re.compile(r"[ \t]+")


def _cut_points(kind: str) -> Sequence[re.Pattern[str]]:
    if kind == "table":
        return (_BLANK_LINE, _LINE_END, _CELL_END, _SENTENCE_END, _LINE_SPACES)
    if kind == "code":
        return (_BLANK_LINE, _LINE_END, _LINE_SPACES)
    return (_BLANK_LINE, _LINE_END, _SENTENCE_END, _SPACES)


def split_long(text: str, size: int, kind: str = "text") -> list[str]:
    """Cut ``text`` into pieces of at most ``size`` characters at the best boundary in each window."""
    pieces = []
    patterns = _cut_points(kind)
    keep_indent = kind in ("code", "table")  # code keeps its leading spaces; prose loses any blank
    pos, end = 0, len(text)
    # A moving position, not ``text = text[cut:]``: re-slicing the rest would copy a 50 MB log
    # once per chunk.
    while end - pos > size:
        window = text[pos : pos + size + 1]
        cut, cut_by = size, None  # one endless word or line: a hard cut is all that is left
        for pattern in patterns:
            ends = [m.start() for m in pattern.finditer(window) if m.start() >= size // 3]
            if ends:
                cut, cut_by = ends[-1], pattern
                break
        # cut inside a line of code or of a table: the spaces after the cut are no indent
        within_line = cut_by not in (_BLANK_LINE, _LINE_END)
        head = window[:cut].rstrip()
        if head.strip():
            pieces.append(head)
        pos += cut
        if cut_by is _CELL_END:
            pos += 2  # the next piece starts with the next cell, not with its "| "
        while pos < end and (text[pos] == "\n" if keep_indent and not within_line else text[pos].isspace()):
            pos += 1
    rest = text[pos:]
    if rest.strip():
        pieces.append(rest)
    return pieces


def _table_pieces(text: str, size: int, header: bool = True) -> list[str]:
    """A table too long for one chunk, cut between rows, each piece under the table's first row (its
    header: "Option | Default | Meaning"), so that a piece's cells still say what they are.

    Measured (benchmarks/bench_kb_quality.py): the PostgreSQL manual gives 8,840 chunks instead of
    8,827, and held-out recall@5 is 141/159 instead of 142 (one PostgreSQL question; dev 85/103 either
    way). Kept, at the cost of that question, for what the model reads: rows without their header are
    numbers it cannot tell apart."""
    if not header:  # its first row is data (an HTML table without <th>): nothing to repeat
        return split_long(text, size, "table")
    first, _, rows = text.partition("\n")
    if not rows.strip() or len(first) > size // 4:
        return split_long(text, size, "table")
    return [first + "\n" + piece for piece in split_long(rows, size - len(first) - 1, "table")]


def _holds_words(title: str, name: str) -> bool:
    """Whether ``name`` stands in ``title`` as whole words ("Process" in "Process | Node.js", not in
    "Processing pipelines")."""
    # str.find, not a pattern made for each name: a thousand pages' names overflow re's cache of 512, and
    # compiling them took a tenth of the chunking time
    haystack, needle = title.casefold(), name.casefold()
    start = haystack.find(needle)
    while start >= 0:
        end = start + len(needle)
        if (start == 0 or not _is_word_char(haystack[start - 1])) and (
                end == len(haystack) or not _is_word_char(haystack[end])):
            return True
        start = haystack.find(needle, start + 1)
    return False


def _is_word_char(c: str) -> bool:
    """Whether ``c`` is what ``\\w`` matches in a str pattern."""
    return c.isalnum() or c == "_"


class _Builder:
    def __init__(self, title: str, size: int, cancelled: Callable[[], bool] | None = None,
                 code: bool = False) -> None:
        self.title = title
        self.code = code  # a program's definitions: "config.py > Config" names two things, said both
        self.size = size
        self.cancelled = cancelled
        self.stack: list[tuple[int, str]] = []
        self.parts: list[str] = []
        self.length = 0
        self.chunks: list[Chunk] = []
        self._path: str | None = None  # path()'s answer, until the next heading
        self.anchor: str | None = None  # the anchor of the chunk being filled (of its first part)
        self._heading_anchor: str | None = None  # the last heading's, until its section's first chunk starts

    def path(self) -> str:
        if self._path is None:
            self._path = self._new_path()
        return self._path

    def _new_path(self) -> str:
        names = [self.title] if self.title else []
        for _, name in self.stack:
            if not name:  # an empty heading ends the sections at its level (code_files: the file's own code)
                continue
            # A page's first heading often repeats its title, whole or in part ("Process" under
            # "Process | Node.js Documentation"): the path says it once.
            if not names or self.code or (name.casefold() != names[-1].casefold()
                                          and not (len(names) == 1 and _holds_words(names[0], name))):
                names.append(name)
        return PATH_SEP.join(names)

    def flush(self) -> None:
        # a code block's first line keeps its indent, as split_long keeps that of the lines after it
        text = "\n\n".join(self.parts).strip("\n").rstrip()  # only blanks: rstrip leaves ""
        if text:
            self.chunks.append(Chunk(self.path(), text, self.anchor))
            if self.cancelled is not None and len(self.chunks) % CANCEL_EVERY == 0 and self.cancelled():
                raise Cancelled("the import was cancelled")
        self.parts = []
        self.length = 0

    def heading(self, level: int, text: str, anchor: str | None = None) -> None:
        self.flush()
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        self.stack.append((level, text[:200]))
        self._path = None
        self._heading_anchor = anchor

    def _start(self, anchor: str | None) -> None:
        """A chunk starts with a block whose anchor is ``anchor``."""
        self.anchor = self._heading_anchor or anchor
        self._heading_anchor = None

    def add(self, kind: str, text: str, header: bool = True, anchor: str | None = None) -> None:
        limit = self.size * 0.6 if kind == "term" else self.size - len(text) - 2
        if self.length and self.length > limit:
            # A term belongs with its definition: when the chunk is well filled, start the next with it.
            self.flush()
        if len(text) > self.size:
            pieces = _table_pieces(text, self.size, header) if kind == "table" else split_long(text, self.size, kind)
            for piece in pieces[:-1]:
                if not self.parts:
                    self._start(anchor)
                self.parts.append(piece)
                self.length += len(piece)
                self.flush()
            text = pieces[-1] if pieces else ""
        if text:
            if not self.parts:
                self._start(anchor)
            self.parts.append(text)
            self.length += len(text) + 2


def chunk_blocks(title: str, blocks: Iterable[Block], size: int = 1200,
                 cancelled: Callable[[], bool] | None = None, code: bool = False) -> list[Chunk]:
    """Chunks of at most about ``size`` characters, each with its heading path. ``cancelled()`` turning true
    raises Cancelled: a 60 MB log's 53,000 passages take seconds, which Cancel waited for. It is asked every
    CANCEL_EVERY chunks made, so a short document is chunked whole. ``code``: the blocks are a program's
    (code_files.read_code), whose headings are names that a path keeps even when the title holds them."""
    if code:
        blocks = code_blocks(blocks, max(size, 100))
    builder = _Builder(title, max(size, 100), cancelled, code)
    for block in blocks:
        if block.kind == "heading":
            builder.heading(block.level, block.text, block.anchor)
        else:
            builder.add(block.kind, block.text, block.header, block.anchor)
    builder.flush()
    return _merge_small(builder.chunks, size)


def _merge_small(chunks: list[Chunk], size: int) -> list[Chunk]:
    # A sliver left over at a section's end (a last sentence, one list item) reads better with its
    # neighbour from the same section than alone.
    merged: list[Chunk] = []
    for chunk in chunks:
        if (
            merged
            and merged[-1].heading == chunk.heading
            and len(chunk.text) < size * _MIN_FRACTION
            and len(merged[-1].text) + len(chunk.text) + 2 <= size * 1.25
        ):
            merged[-1] = Chunk(chunk.heading, merged[-1].text + "\n\n" + chunk.text, merged[-1].anchor)
        else:
            merged.append(chunk)
    return merged


class Chunks(list[Chunk]):
    """A document's chunks, carrying the document's links to other pages along to the store.

    The importer hands ``chunk_document``'s result straight to ``KnowledgeBase.replace_source``, which
    indexes ``links`` when it is not given them explicitly; a plain list has none and works as before.
    """

    links: tuple = ()


def chunk_document(doc: Document, size: int = 1200, cancelled: Callable[[], bool] | None = None) -> Chunks:
    chunks = Chunks(chunk_blocks(doc.title, doc.blocks, size, cancelled, code=doc.type in CODE_TYPES))
    chunks.links = doc.links
    return chunks
