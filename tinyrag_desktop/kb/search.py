"""The one search function: BM25 over the FTS5 index, optionally fused with vector ranks.

``kb search``, the ``rag_knowledge`` tool and the engine's ``rag`` route all call :func:`search` on a
read-only connection from :func:`open_readonly`. The user's or model's words never reach SQL as syntax:
:func:`query_terms` (query_words.py) keeps only words, drops stop words, and the FTS5 expression quotes
every one of them, so quotes, ``*``, ``NEAR``, ``-``, ``:`` or parentheses can neither fail nor change
the meaning. How a passage's coverage of the question is measured: coverage.py.

A search, step by step:

1. words: the question's words less stop words (a run of CJK characters gives a phrase of them and its
   pairs of neighbours, see :func:`query_terms`), a word found in no chunk replaced by its most frequent
   neighbour one or two edits away (a typo: see spelling.py); in a large index, words found in more
   than a tenth of the chunks are left out of the SQL query (they cost the most and weigh the least);
   a question of stop words only ("what is it") is not searched (``Hits.common`` says so);
2. candidates: the best 100 chunks by BM25 over title, heading path and text (one OR query); when
   common words were left out, the best 300, each given back those words' BM25 share in Python; when
   they come from fewer than k documents (a log of thousands of alike lines), or hold fewer than k
   passages (one log copied to 150 files), the best three chunks of each other source too, and where
   else the passages found are (see _candidates);
3. coverage: each candidate's score is scaled by the share of the question's words it mentions;
4. with a query vector, the BM25 ranking and the vector ranking are fused (reciprocal rank fusion);
5. links: the same words are searched in the text around links between pages (``links_fts``): a page
   that other pages describe in the question's words gets a share of the credit;
6. sources: a source's rank adds up its best chunks (1, ½, ¼) plus W_LINKS times what links say about it
   (both scaled to the best source's), and the result takes each top source's best chunk first, so one
   long page cannot fill every place; a passage held by several sources (the same text but for whitespace,
   under the same headings) takes one place, which names the others (``Hit.copies``: those among the
   candidates, and when those are not all the matches, the other copies of the same bytes, see _all_copies).

What was measured and kept, and the ~400 ranking experiments tried and left out (other BM25 variants,
synonyms, learned rankers, priors …), with their figures (recall@5, benchmarks/bench_kb_quality.py):
docs/kb-ranking.md. The settings kept were chosen by those held-out figures, so a change has to win by
more than a question or two before it can be believed.
"""

from __future__ import annotations

import heapq
import logging
import math
import os
import re
import sqlite3
from collections import Counter, OrderedDict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Sequence

from .chunking import PATH_SEP
from .coverage import _comparable, _concepts, _Concepts, _rerank_by_coverage, _with_score
from .errors import StoreError
from .models import Hit
from .nearest import nearest_ids
from .query_words import STOP_WORDS, _weighed_terms, match_expression
from .spelling import absent_words, corrections, distance, stems
from .store_file import DB_NAME, open_to_read, refuse_unusable, store_error
from .textform import is_cjk

log = logging.getLogger(__name__)

# Words found in no chunk are searched as their nearest indexed neighbour (see spelling.py).
SPELLING = True

# Column weights for bm25(title, heading, text): words in a page's title and in the heading path say
# much more about what a chunk is about than one more mention in its body.
W_TITLE, W_HEADING, W_TEXT = 4.0, 2.0, 1.0

# A term matching more than this share of a large index is dropped from the query: its BM25 weight is
# close to nothing, yet scoring every chunk that holds it is what makes searches of big indexes slow.
# Indexes smaller than PRUNE_MIN_ROWS are never pruned (searching them is fast anyway).
PRUNE_FRACTION = 0.1
PRUNE_MIN_ROWS = 5_000

# Reciprocal rank fusion's damping constant (Cormack et al. use 60).
RRF_K = 60

# How much a source's 1st, 2nd and 3rd matching chunks (or links pointing to it) count towards its rank.
_SOURCE_DECAY = (1.0, 0.5, 0.25)

# The weight of what other pages' links say about a page, against its own chunks (both scaled to 1 for
# the best source). Held-out recall@5 is flat from 0.3 to 0.6 and falls without the links (docs/kb-ranking.md).
W_LINKS = 0.3
# How many link contexts (best BM25 first) a search looks at, and how many chunks of a page found only
# through links are read to pick the passage to show.
_LINK_POOL = 100
_PAGE_CHUNKS = 200

# The only statements the read-only connection runs; the model's text is always a bound parameter.
_BM25 = f"bm25(chunks_fts, {W_TITLE}, {W_HEADING}, {W_TEXT})"
_TOP_CHUNKS = """
SELECT c.id, c.source_id, s.title, s.location, c.heading, c.text, top.score, c.anchor, s.type
FROM top JOIN chunks c ON c.id = top.id JOIN sources s ON s.id = c.source_id
ORDER BY top.score
"""
_FTS_QUERY = f"""
WITH top AS (
    SELECT rowid AS id, {_BM25} AS score FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY score LIMIT ?
)""" + _TOP_CHUNKS
# The best chunks of the sources not among {places} (bound to the sources found already, unused places to -1),
# at most ? of each. Their chunks are left out by id, from the index on chunks(source_id) (a log's 25,000
# chunks cost 15 ms of a 300,000-chunk search), before they are scored or looked up for their source (three
# times as long). Of those, a chunk whose text is one of ``known`` (the passages found already; unused places
# bound to '', which no chunk is) or of a better one is a copy (the same file imported under another name): it
# takes none of the ? places, but comes back after them, at most ? copies (the best first), to name where the
# passage also is.
# Only run when the query above finds too few sources or passages (see _candidates).
_OTHER_SOURCES = 100
_COPIES = 1000
_OTHER_SOURCES_QUERY = f"""
WITH known(text) AS (VALUES {", ".join(["(?)"] * _OTHER_SOURCES)}), matched AS (
    SELECT rowid AS id, {_BM25} AS score FROM chunks_fts WHERE chunks_fts MATCH ?
    AND rowid NOT IN (SELECT id FROM chunks WHERE source_id IN ({", ".join("?" * _OTHER_SOURCES)}))
), ranked AS (
    SELECT matched.id, matched.score, row_number() OVER (PARTITION BY c.source_id ORDER BY matched.score) AS n
    FROM matched JOIN chunks c ON c.id = matched.id
), best AS (
    SELECT ranked.id, ranked.score,
           c.text IN known OR row_number() OVER (PARTITION BY c.text ORDER BY ranked.score) > 1 AS copy
    FROM ranked JOIN chunks c ON c.id = ranked.id WHERE ranked.n <= ?
), top AS (
    SELECT id, score FROM (SELECT id, score FROM best WHERE NOT copy ORDER BY score LIMIT ?)
    UNION ALL SELECT id, score FROM (SELECT id, score FROM best WHERE copy ORDER BY score LIMIT ?)
)""" + _TOP_CHUNKS
# Whether a chunk holds a term, and the places of the chunks holding a text and terms (see _all_copies).
_HOLDS_QUERY = "SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid = ?"
_COPIES_QUERY = """
SELECT s.title, s.location, c.heading
FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN sources s ON s.id = c.source_id
WHERE chunks_fts MATCH ? AND c.text = ? ORDER BY c.id LIMIT ?
"""
# How many chunks a term may match (at most) before it counts as "in nearly everything" and is left out.
_DF_QUERY = "SELECT count(*) FROM (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)"
_SIZE_QUERY = "SELECT max(id) FROM chunks"
# The chunks found by their vectors alone, read _CHUNK_BATCH at a time (one statement, not one per chunk:
# a hundred single reads cost as much as the whole keyword search); unused places are bound to -1.
_CHUNK_BATCH = 100
_CHUNKS_QUERY = """
SELECT c.id, c.source_id, s.title, s.location, c.heading, c.text, 0.0, c.anchor, s.type
FROM chunks c JOIN sources s ON s.id = c.source_id WHERE c.id IN ({places})
"""
# Link contexts matching the question, filed under the imported source they point to.
_LINK_QUERY = """
WITH top AS (
    SELECT rowid AS id, bm25(links_fts) AS score FROM links_fts WHERE links_fts MATCH ? ORDER BY score LIMIT ?
)
SELECT s.id, top.score FROM top JOIN links l ON l.id = top.id JOIN sources s ON s.location = l.target
ORDER BY top.score
"""
_PAGE_QUERY = """
SELECT c.id, c.source_id, s.title, s.location, c.heading, c.text, 0.0, c.anchor, s.type
FROM chunks c JOIN sources s ON s.id = c.source_id WHERE c.source_id = ? ORDER BY c.ordinal LIMIT ?
"""

# A knowledge base written before schema 5 has no chunks.anchor until a writer opens it: its chunks are
# read with NULL in its place.
_ANCHOR = ", c.anchor, s.type\n"
_NO_ANCHOR = ", NULL, s.type\n"


def _anchored(conn: sqlite3.Connection, query: str) -> str:
    """``query`` as ``conn``'s database can run it: with chunks.anchor, or NULL where its file has none."""
    if getattr(conn, "has_anchors", False):
        return query
    try:  # not known yet, or not there when last asked: a writer may have added it since
        conn.execute("SELECT anchor FROM chunks LIMIT 0").fetchall()
    except sqlite3.OperationalError:
        return query.replace(_ANCHOR, _NO_ANCHOR)
    if isinstance(conn, ReadOnlyConnection):
        conn.has_anchors = True
    return query


_READABLE = re.compile(r"^(sources|chunks|vectors|links|(chunks|links)_fts(_\w+)?)$")
_FUNCTIONS = frozenset({"match", "bm25", "count", "coalesce", "max", "min", "row_number"})


def _authorize(action: int, arg1: str | None, arg2: str | None, db: str | None, trigger: str | None) -> int:
    # Only reading the knowledge tables (and FTS5's own shadow tables) is allowed; everything else,
    # writes, PRAGMAs, ATTACH, other tables, is refused before it can run.
    if action == sqlite3.SQLITE_SELECT:
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_READ and arg1 is not None and _READABLE.match(arg1):
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_PRAGMA and arg1 == "data_version" and arg2 is None:
        return sqlite3.SQLITE_OK  # FTS5 reads it to notice other connections' writes
    if action == sqlite3.SQLITE_FUNCTION and arg2 is not None and arg2.lower() in _FUNCTIONS:
        return sqlite3.SQLITE_OK
    return sqlite3.SQLITE_DENY


class ReadOnlyConnection(sqlite3.Connection):
    """A connection that knows whether its database has the link index (older ones may not, yet), and
    which database file it reads (``db_key``: path, device, inode), under which its vectors are kept."""

    has_links = False
    has_vocab = False
    has_anchors = False  # chunks.anchor is there (see _anchored)
    db_key: tuple[str, int, int] | None = None
    as_it_is = False  # read without its -shm file (see open_readonly)
    # How many chunks hold a term, counted up to a cap (see _term_counts), kept until the index changes.
    term_counts: "OrderedDict[tuple[str, int], int] | None" = None
    counts_version: int | None = None


def open_readonly(data_dir: Path) -> sqlite3.Connection | None:
    """A read-only, authorizer-guarded connection to the knowledge base; None when there is none yet. On a full
    disk with an empty -wal, read as it is (store_file.open_to_read; ``as_it_is``, for one search: kb._reading)."""
    path = Path(data_dir) / DB_NAME
    refuse_unusable(path)
    if not path.is_file() or path.stat().st_size == 0:  # an empty file is an empty database: nothing imported
        return None
    conn, as_it_is = open_to_read(path, lambda uri: _guarded(path, uri))
    conn.as_it_is = as_it_is
    return conn


def _guarded(path: Path, uri: str) -> ReadOnlyConnection:
    conn = None
    try:
        conn = sqlite3.connect(uri, uri=True, check_same_thread=False, factory=ReadOnlyConnection)
        refuse_unusable(path, conn)
        st = path.stat()
        conn.db_key = (str(path.resolve()), st.st_dev, st.st_ino)
        conn.execute("SELECT 1 FROM chunks LIMIT 1")  # fails fast on a file that is not our database
        # Connect the FTS5 tables now: connecting parses their schema, which the authorizer would refuse.
        conn.execute("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH '\"x\"' LIMIT 0").fetchall()
        # A database written before links were indexed has no link tables until a writer opens it.
        conn.has_links = conn.execute(
            "SELECT count(*) FROM sqlite_master WHERE name IN ('links', 'links_fts')"
        ).fetchone()[0] == 2
        if conn.has_links:
            conn.execute("SELECT rowid FROM links_fts WHERE links_fts MATCH '\"x\"' LIMIT 0").fetchall()
        # The vocabulary (for spelling tolerance) is added by the first writer to open an older file; until
        # then this connection makes its own in the temporary schema (a view of the index: nothing stored).
        if not conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'chunks_fts_vocab'").fetchone()[0]:
            conn.execute("CREATE VIRTUAL TABLE temp.chunks_fts_vocab USING fts5vocab(main, chunks_fts, row)")
        conn.execute("SELECT term FROM chunks_fts_vocab WHERE term = 'x'").fetchall()
        conn.has_vocab = True
        conn.term_counts = OrderedDict()
    except (sqlite3.DatabaseError, StoreError) as exc:
        if conn is not None:
            conn.close()
        if isinstance(exc, StoreError):
            raise
        raise store_error(path, exc, f"The knowledge base {path} cannot be read") from exc
    conn.set_authorizer(_authorize)
    return conn


@dataclass(frozen=True, slots=True)
class _Pruned:
    """The terms the index is searched for, those left out as too common, and what that means for IDF."""

    kept: list[str]
    common: list[str]
    size: int
    cap: int
    # How many chunks hold each term, counted up to cap + 1 (only in a large index: a small one is
    # neither pruned nor counted here).
    counts: dict[str, int] = field(default_factory=dict)


def _without_common_terms(conn: sqlite3.Connection, terms: Sequence[str]) -> _Pruned:
    """``terms`` less those found in more than PRUNE_FRACTION of a large index (all of them if all are)."""
    size = conn.execute(_SIZE_QUERY).fetchone()[0] or 0
    cap = max(PRUNE_MIN_ROWS, int(size * PRUNE_FRACTION))
    if size <= cap:
        return _Pruned(list(terms), [], size, cap)
    counts = _term_counts(conn, terms, cap)
    kept = [t for t in terms if counts[t] <= cap]
    if not kept:
        return _Pruned(list(terms), [], size, cap, counts)
    return _Pruned(kept, [t for t in terms if t not in kept], size, cap, counts)


# How many terms' counts a connection keeps (a few hundred kilobytes at most).
_KEPT_COUNTS = 4096


def _term_counts(conn: sqlite3.Connection, terms: Sequence[str], cap: int) -> dict[str, int]:
    """How many chunks hold each of ``terms``, counted up to ``cap + 1``.

    Counting stops at cap + 1, so a common term costs a bounded scan, not a full one; still, counting the
    question's common words was an eighth of a search at 300,000 chunks (5 to 11 ms), and the same
    everyday words come back in question after question. A connection from open_readonly keeps the
    counts until another connection commits a change to the database (``PRAGMA data_version``).
    """
    kept = getattr(conn, "term_counts", None)
    if kept is not None:
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        if version != conn.counts_version:
            kept.clear()
            conn.counts_version = version
    counts: dict[str, int] = {}
    for term in terms:
        key = (term, cap)
        if kept is not None and key in kept:
            kept.move_to_end(key)
            counts[term] = kept[key]
            continue
        counts[term] = conn.execute(_DF_QUERY, (match_expression([term]), cap + 1)).fetchone()[0]
        if kept is not None:
            kept[key] = counts[term]
            if len(kept) > _KEPT_COUNTS:
                kept.popitem(last=False)
    return counts


# When common terms were left out, this many times more candidates are rescored with them.
_COMMON_POOL = 3


def _common_groups(pruned: _Pruned, words: Sequence[str]) -> dict[str, float]:
    """The concept groups (see ``_concepts``) of the words left out of the SQL query, each with the IDF
    of a term found in ``cap`` chunks (the most such a term can weigh)."""
    if not pruned.common:
        return {}
    idf = math.log(1 + (pruned.size - pruned.cap + 0.5) / (pruned.cap + 0.5))
    return {f"c{n}": idf for n, word in enumerate(words) if word in pruned.common}


def _fts_hits(conn: sqlite3.Connection, terms: Sequence[str], limit: int) -> list[Hit]:
    return _hits(conn.execute(_anchored(conn, _FTS_QUERY), (match_expression(terms), limit)))


def _hits(rows: Iterable[tuple]) -> list[Hit]:
    return [Hit(cid, sid, title, loc, heading, text, -score, anchor, kind)
            for cid, sid, title, loc, heading, text, score, anchor, kind in rows]


def _candidates(conn: sqlite3.Connection, terms: Sequence[str], limit: int, k: int,
                keys: dict[int, tuple[str, str]]) -> list[Hit]:
    """The chunks ranked further (search's step 2): the best ``limit`` by BM25; when those come from fewer
    than ``k`` documents once each passage's copies are counted once, with the best few chunks of each other
    source (as many as its rank adds up, see _by_source), up to ``limit`` more, and the copies of the passages
    found among them (see _OTHER_SOURCES_QUERY).

    A log of 100,000 identical lines, or of lines that differ only in their times, makes thousands of chunks
    that match its words alike. They took every candidate's place, and every other source was left out of
    the results: "narwhal" found the log alone, not the five notes that name it. So did a log copied under
    150 names: 150 sources, one passage."""
    hits = _fts_hits(conn, terms, limit)
    if len(hits) < limit:
        return hits
    passages: dict[tuple[str, str], Hit] = {}
    for hit in hits:
        passages.setdefault(_passage_key(hit, keys), hit)
    if len({_document_key(h) for h in passages.values()}) >= k:
        return hits
    found = sorted({h.source_id for h in hits})[:_OTHER_SOURCES]
    found += [-1] * (_OTHER_SOURCES - len(found))
    known = list(dict.fromkeys(h.text for h in hits))[:_OTHER_SOURCES]
    known += [""] * (_OTHER_SOURCES - len(known))
    more = _hits(conn.execute(_anchored(conn, _OTHER_SOURCES_QUERY), (
        *known, match_expression(terms), *found, len(_SOURCE_DECAY), limit, _COPIES)))
    # the query leaves out the chunks of the first _OTHER_SOURCES sources only: 300 logs named app.log (one
    # document, see _document_key) came back twice past the 100th
    ids = {h.chunk_id for h in hits}
    return sorted(hits + [h for h in more if h.chunk_id not in ids], key=lambda h: h.score, reverse=True)


def _passage_key(hit: Hit, keys: dict[int, tuple[str, str]]) -> tuple[str, str]:
    """What a passage says, for telling copies apart: its heading path and its text, each run of spaces, tabs
    and line breaks in the text one space (a copy whose lines end in CR LF, or are wrapped at another width, is
    the same passage). Same words under other headings ("Return value" of open_file and of close_file) are two
    passages; the path's first part is left out where it is the file's name (a file with no title of its own:
    a log copied under 150 names).

    It is asked of every candidate of every search, two or three times (_candidates, the fusion, _by_source):
    ``keys`` (one search's, by chunk id) keeps the answer, so the second time costs a look-up, not 5 µs a
    passage. Replacing them first and splitting only text that then holds two spaces in a row is four times
    as fast as splitting every passage."""
    key = keys.get(hit.chunk_id)
    if key is None:
        flat = hit.text.replace("\n", " ").replace("\r", " ").replace("\t", " ")
        text = " ".join(word for word in flat.split(" ") if word) if "  " in flat else flat.strip(" ")
        key = keys[hit.chunk_id] = (_sections(hit.title, hit.location, hit.heading), text)
    return key


def _sections(title: str, location: str, heading: str) -> str:
    """A passage's heading path, less its first part where that is the file's name (a file with no title)."""
    if title and title == _file_name(location) and (heading == title or heading.startswith(title + PATH_SEP)):
        return heading[len(title):]
    return heading


def _file_name(location: str) -> str:
    return location.rstrip("/").rsplit("/", 1)[-1].rsplit("\\", 1)[-1]


def _document_key(hit: Hit) -> tuple[str, str]:
    # Copies of one document in several formats (guide.md and guide.html, report.docx and report.pdf)
    # share a title and a file name: they count as one source, so they do not take two places.
    name = _file_name(hit.location)
    return hit.title.casefold(), name.rsplit(".", 1)[0].casefold() if "." in name else name.casefold()


def _decayed(scores: Sequence[float]) -> float:
    return sum(w * s for w, s in zip(_SOURCE_DECAY, sorted(scores, reverse=True)))


def _link_scores(conn: sqlite3.Connection, terms: Sequence[str]) -> dict[int, float]:
    """Source id → what the link contexts matching ``terms`` say about it, scaled to 1 for the best."""
    has_links = getattr(conn, "has_links", None)
    if has_links is None:  # a connection not made by open_readonly: look (without the authorizer's leave)
        has_links = conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'links_fts'").fetchone()[0] > 0
    if not has_links or not terms:
        return {}
    found: dict[int, list[float]] = {}
    for source_id, score in conn.execute(_LINK_QUERY, (match_expression(terms), _LINK_POOL)):
        found.setdefault(source_id, []).append(-score)
    scores = {sid: _decayed(values) for sid, values in found.items()}
    top = max(scores.values(), default=0.0)
    return {sid: value / top for sid, value in scores.items()} if top > 0 else {}


def _page_hit(conn: sqlite3.Connection, source_id: int, concepts: _Concepts | None) -> Hit | None:
    """The chunk to show for a page found only through links: the one mentioning most of the question."""
    best, best_found = None, -1
    for row in conn.execute(_anchored(conn, _PAGE_QUERY), (source_id, _PAGE_CHUNKS)):
        hit = Hit(*row)
        found = 0.0
        if concepts is not None:
            text = _comparable(f"{hit.heading}\n{hit.text}")
            found = concepts.covered(concepts.seen(text))
        if found > best_found:
            best, best_found = hit, found
    return best


def _by_source(
    hits: Sequence[Hit],
    k: int,
    links: dict[int, float] | None = None,
    page_hit: Callable[[int], Hit | None] | None = None,
    keys: dict[int, tuple[str, str]] | None = None,
) -> list[Hit]:
    """The best chunk of each of the ``k`` best sources, then the next best chunks if sources run out.

    A source's score adds its chunks' scores with falling weights (1, ½, ¼): a page that matches in
    several places is more likely the answer than one lucky paragraph, and one page cannot fill all
    ``k`` places while other pages also match. Copies of a document in other formats count as the same;
    a passage that several sources hold is given once, naming the others (see _with_copies).
    With ``links`` (source id → score in [0, 1]) a source also earns W_LINKS times what links to it say;
    ``page_hit`` supplies a passage for a source that only links found. Returned scores are the sources'.
    """
    links = links or {}
    keys = {} if keys is None else keys
    per_source: dict[tuple[str, str], list[Hit]] = {}
    for hit in hits:  # hits arrive best first
        per_source.setdefault(_document_key(hit), []).append(hit)
    own = {key: _decayed([h.score for h in group]) for key, group in per_source.items()}
    top = max(own.values(), default=0.0) or 1.0
    score = {key: value / top for key, value in own.items()}
    for key, group in per_source.items():
        score[key] += W_LINKS * max(links.get(sid, 0.0) for sid in {h.source_id for h in group})
    known = {h.source_id for h in hits}
    # Pages that only links found: worth a look when their link score alone could earn a place (at
    # most k of them are read, each place they take raising the bar for the next).
    added = 0
    for sid, value in sorted(links.items(), key=lambda item: item[1], reverse=True):
        floor = heapq.nlargest(k, score.values())[-1] if len(score) >= k else 0.0
        if W_LINKS * value <= floor or page_hit is None or added >= k:
            break
        if sid in known:
            continue
        hit = page_hit(sid)
        if hit is None:
            continue
        known.add(sid)
        key = _document_key(hit)
        if key in per_source:  # another copy of a document already found (in another format)
            continue
        per_source[key] = [hit]
        score[key] = W_LINKS * value
        added += 1
    order = sorted(per_source, key=score.__getitem__, reverse=True)
    # One place for one passage, however many sources hold it: the result names the others (Hit.copies).
    holders: dict[tuple[str, str], list[Hit]] = {}
    for key in order:
        for hit in per_source[key]:
            holders.setdefault(_passage_key(hit, keys), []).append(hit)
    chosen: list[Hit] = []
    shown: set[tuple[str, str]] = set()

    def choose(hit: Hit, value: float) -> None:
        passage = _passage_key(hit, keys)
        if passage not in shown:
            shown.add(passage)
            if _gone(hit.location):
                # shown where a copy's file is still there, else as last imported (older imports stored a moved
                # file under the path it left too, see moves.py)
                held = holders[passage]
                hit = next((h for h in held if not _gone(h.location)), None) or max(held, key=lambda h: h.source_id)
            chosen.append(_with_copies(_with_score(hit, value), holders[passage]))

    for key in order:
        if len(chosen) == k:
            break
        choose(per_source[key][0], score[key])
    if len(chosen) < k:
        rest = sorted((h for key in order for h in per_source[key][1:]), key=lambda h: h.score, reverse=True)
        for hit in rest:
            if len(chosen) == k:
                break
            choose(hit, hit.score / top)
    return chosen


def _all_copies(conn: sqlite3.Connection, terms: Sequence[str], hits: Sequence[Hit]) -> list[Hit]:
    """``hits``, each that has copies among the candidates naming its copies beyond them too (up to _COPIES):
    150 copies of a log line and five notes that rank above them named 111 of the copies, those among the
    best hundred candidates. Its other copies hold the question's words its text holds (found by FTS5, a
    look-up each), and its text (the same to the byte: compared by SQLite, not read into Python), under the
    same headings."""
    found = []
    for hit in hits:
        if hit.copies:
            held = [term for term in terms if conn.execute(_HOLDS_QUERY, (_in_text([term]), hit.chunk_id)).fetchone()]
            named = {hit.location, *hit.copies}
            rows = conn.execute(_COPIES_QUERY, (_in_text(held), hit.text, _COPIES)) if held else []
            heading = _sections(hit.title, hit.location, hit.heading)
            places = dict.fromkeys(place for title, place, path in rows
                                   if place not in named and _sections(title, place, path) == heading)
            hit = replace(hit, copies=hit.copies + tuple(place for place in places if not _gone(place)))
        found.append(hit)
    return found


def _in_text(terms: Sequence[str]) -> str:
    """An FTS5 expression matching the chunks whose text (not title or heading) holds each of ``terms``."""
    return "text : (" + " AND ".join(match_expression([term]) for term in terms) + ")"


def _with_copies(hit: Hit, holders: Sequence[Hit]) -> Hit:
    """``hit`` naming the other places that hold its passage (``holders``, best first): each other source
    once, not a file no longer there (a moved file stored under its old path too)."""
    places = dict.fromkeys(h.location for h in holders if h.location != hit.location)
    copies = tuple(place for place in places if not _gone(place))
    return replace(hit, copies=copies) if copies else hit


def _gone(location: str) -> bool:
    """Whether ``location`` is a file path that names nothing on the disk (a web address is never gone)."""
    return os.path.isabs(location) and not os.path.lexists(location)


class Hits(list):
    """The hits of a search, best first, and ``corrected``: each word of the question that no passage
    uses, with the word searched in its place (a typo's correction), so that what shows the hits can
    say so ("searched for “permissions” instead of “permisions”"); and ``relevance``."""

    def __init__(self, hits: Sequence[Hit] = (), corrected: dict[str, str] | None = None,
                 relevance: float | None = None, missing: Sequence[str] = (), common: Sequence[str] = ()) -> None:
        super().__init__(hits)
        # A question of common words only ("what is it"): its words, which were not searched (see search).
        self.common: tuple[str, ...] = tuple(common)
        self.corrected: dict[str, str] = dict(corrected or {})
        # The question's words that no passage holds (a number, a name the documents never use): the hits
        # match its other words only, and "invoice 99817" must not look found.
        self.missing: tuple[str, ...] = tuple(missing)
        # How much of the question the best hit is about, 0 to 1 (see _relevance); None when it is not
        # measured: vectors took part (a passage found by meaning need not share the question's words),
        # or the question is in Chinese or Japanese.
        self.relevance = relevance

    def note(self, missing: bool = True) -> str:
        """ "Searched for “permissions” instead of “permisions”, which no passage uses." and (with
        ``missing``) "No passage mentions “99817”: these match the other words." ("" if neither); for a
        question not searched, "Only common words (“what”, “is”, “it”): add a word that …"."""
        said = []
        if self.common:
            said.append(f"Only common words ({', '.join(f'“{word}”' for word in self.common)}): add a word that "
                        "says what you are looking for.")
        if self.corrected:
            pairs = ", ".join(f"“{new}” instead of “{old}”" for old, new in self.corrected.items())
            said.append(f"Searched for {pairs}, which no passage uses.")
        if missing and self.missing:
            words = [f"“{word}”" for word in self.missing]
            named = words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" or {words[-1]}"
            said.append(f"No passage mentions {named}: these match the other words.")
        return " ".join(said)


def search(
    conn: sqlite3.Connection,
    query: str,
    k: int = 5,
    *,
    query_vector: Sequence[float] | None = None,
    vector_model: str = "",
    spelling: bool = True,
) -> Hits:
    """The ``k`` chunks that best answer ``query``; any string is a valid query (none match: []).
    ``spelling`` False searches misspelt words as they are (see SPELLING)."""
    weighed = _weighed_terms(query)
    if k <= 0 or (not weighed and query_vector is None):
        return Hits()
    if all(word in STOP_WORDS for word in weighed) and weighed:  # "what is it": its words are in every passage,
        return Hits(common=list(weighed))  # and the passages with most of them are about nothing asked
    fixed: dict[str, str] = {}
    try:
        if SPELLING and spelling and weighed:
            fixed = corrections(conn, list(weighed), STOP_WORDS)
        hits, relevance = _search(conn, weighed, fixed, k, query_vector, vector_model)
        # words no passage holds, and none was searched in place of: the hits match the others only (with
        # vectors, a passage found by meaning need not hold the question's words: nothing is said)
        missing = (absent_words(conn, [w for w in weighed if w not in fixed and " " not in w])
                   if hits and query_vector is None else [])
        # an identifier asked as "loadUserConfig" is there when its words are ("load user config", _weighed_terms)
        spelled = {w.replace(" ", ""): w for w in weighed if " " in w}
        missing = [w for w in missing if w not in spelled or absent_words(conn, [spelled[w]])]
        return Hits(hits, {old: _as_written(old, new, hits) for old, new in fixed.items()}, relevance, missing)
    except sqlite3.DatabaseError as exc:  # pages damaged past the ones opening reads
        key = getattr(conn, "db_key", None)
        path = Path(key[0]) if key else Path(DB_NAME)
        raise store_error(path, exc, f"The knowledge base {path} could not be searched") from exc


def _as_written(typo: str, word: str, hits: Sequence[Hit]) -> str:
    """``word`` as the passages found write it. A correction is a string one edit from the typo whose
    stem the index holds ("volcanic" → "volcanoic", stem "volcano"): right for searching, odd to show,
    so a word of the passages with that stem is shown instead ("volcano"), the closest to ``typo``."""
    stem = stems([word]).get(word)
    if not stem:
        return word
    written = Counter(w.lower() for hit in hits for w in re.findall(rf"\b{re.escape(stem)}\w*",
                                                                      f"{hit.title} {hit.heading} {hit.text}", re.I))
    same = stems(list(written))
    forms = [w for w, _ in written.most_common() if same.get(w) == stem]
    return min(forms, key=lambda w: distance(typo, w)) if forms else word


def _with_fixes(weighed: dict[str, float], fixed: dict[str, str]) -> tuple[dict[str, float], dict[int, str]]:
    """The question's terms with the misspelt ones replaced as ``fixed`` says, and the index stems the
    replacements are found by (by the term's place: see _concepts)."""
    if not fixed:
        return weighed, {}
    replaced: dict[str, float] = {}
    for word, weight in weighed.items():
        word = fixed.get(word, word)
        replaced[word] = max(replaced.get(word, 0.0), weight)
    stemmed = stems(list(fixed.values()))
    return replaced, {n: stemmed[w] for n, w in enumerate(replaced) if w in fixed.values() and w in stemmed}


# IDF is counted as if the index had this many more chunks, holding none of the question's words: in a
# knowledge base of a few notes every word is rare or absent, and raw IDF would weigh a word the notes
# lack ("many") far above the ones they share with the question ("vacation"). With the prior, a small
# index weighs its words nearly alike; a large one, by their IDF.
_PRIOR_CHUNKS = 1_000
def _relevance(conn: sqlite3.Connection, weighed: dict[str, float], roots: dict[int, str],
               hits: Sequence[Hit], pruned: _Pruned) -> float | None:
    """How much of the question the hit that covers most of it mentions, 0 to 1: the share of the
    question's words it has, each word weighed by its IDF in the index (a word in no chunk weighs most).

    The engine puts passages into the prompt unasked only when this is high enough (the rag route): the
    best matches for "why do cats purr?" in a database manual share one common word with it, while a
    question about the manual's subject shares its rarest words with the right passage. Weighing by IDF
    is what separates the two. Of 40 everyday questions asked of the PostgreSQL manual, plain word
    coverage of one half or more still gave 15 passages, and it kept 137 of the 142 held-out questions'
    right pages; IDF-weighted coverage of 0.4 or more gives 10 (39 without a gate) and keeps 140 of 142
    (benchmarks/bench_kb_relevance.py has both manuals and a second set of off-topic questions).

    None for a question with CJK terms: a run of characters rarely stands whole in a passage and its
    pairs share half its weight, so coverage is low for right and wrong passages alike (Debian Reference
    questions: 30 of 48 Japanese and 37 of 49 Chinese ones below 0.4, everyday ones 0 to 0.11).
    """
    if any(is_cjk(word[0]) for word in weighed):
        return None
    if not hits:
        return 0.0
    words = list(weighed)
    if len(words) < 2:
        return 1.0  # one word: every hit has it
    size = pruned.size + _PRIOR_CHUNKS
    # A large index's counts were taken when its common terms were left out (up to a tenth of it: above
    # that a word weighs little either way); a small one's are quick to take here.
    counts = pruned.counts if all(w in pruned.counts for w in words) else _term_counts(conn, words, pruned.cap)
    # A word in no chunk weighs as one in a single chunk: absence says the question is about something
    # else only as much as great rarity does (in a few notes most everyday words are absent).
    weights = [weight * math.log(1 + (size - df + 0.5) / (df + 0.5))
               for word, weight in weighed.items() for df in [max(counts[word], 1)]]
    concepts = _concepts(words, weights, roots, plurals=True)
    if concepts is None or concepts.total <= 0:
        return 1.0
    return max(concepts.covered(concepts.seen(_comparable(f"{h.title}\n{h.heading}\n{h.text}"))) for h in hits) \
        / concepts.total


def _search(conn: sqlite3.Connection, weighed: dict[str, float], fixed: dict[str, str], k: int,
            query_vector: Sequence[float] | None, vector_model: str) -> tuple[list[Hit], float | None]:
    """search()'s steps 1 to 6 for the question's terms and their weights (``weighed``), the misspelt
    ones among them replaced as ``fixed`` says; and the hits' relevance (None with a query vector)."""
    pool = max(k * 20, 100)
    weighed, roots = _with_fixes(weighed, fixed)
    words = list(weighed)
    terms = words
    pruned = _without_common_terms(conn, terms)
    terms = pruned.kept
    concepts = _concepts(words, list(weighed.values()), roots)
    keys: dict[int, tuple[str, str]] = {}  # each chunk's _passage_key, for this search
    limit = pool * _COMMON_POOL if pruned.common else pool
    fts = _candidates(conn, terms, limit, k, keys) if terms else []
    # the candidates are the best ``limit`` matches, not all of them: a passage's other copies may be further
    complete = len(fts) < limit
    fts = _rerank_by_coverage(fts, concepts, _common_groups(pruned, words))
    links = _link_scores(conn, terms)

    def page_hit(source_id: int) -> Hit | None:
        return _page_hit(conn, source_id, concepts)

    if query_vector is None or not vector_model:
        hits = _by_source(fts, k, links, page_hit, keys)
        hits = hits if complete else _all_copies(conn, terms, hits)
        return hits, _relevance(conn, weighed, roots, hits, pruned)
    by_id = {h.chunk_id: h for h in fts}
    vec_ids = _nearest_passages(conn, vector_model, query_vector, pool, by_id, keys)
    # Ranked by passage: a passage's copies (the same file under other names) share its rank, so they do not
    # push the next passages down either ranking (a vector ranking of copies alone found nothing else).
    passage = {cid: _passage_key(hit, keys) for cid, hit in by_id.items()}
    fused: dict[tuple[str, str], float] = {}
    for ranking in ([h.chunk_id for h in fts], vec_ids):
        ranked = dict.fromkeys(passage[cid] for cid in ranking if cid in passage)
        for rank, text in enumerate(ranked):
            fused[text] = fused.get(text, 0.0) + 1.0 / (RRF_K + rank + 1)
    hits = sorted((_with_score(hit, fused[passage[cid]]) for cid, hit in by_id.items()),
                  key=lambda hit: hit.score, reverse=True)
    hits = _by_source(hits, k, links, page_hit, keys)
    return (hits if complete else _all_copies(conn, terms, hits)), None


# How much deeper than the pool the vector ranking is read when copies of a few passages fill it.
_DEEPEST = 16


def _nearest_passages(conn: sqlite3.Connection, model: str, vector: Sequence[float], pool: int,
                      by_id: dict[int, Hit], keys: dict[int, tuple[str, str]]) -> list[int]:
    """The chunks nearest ``vector``, by id: the ``pool`` nearest, or more when over half of them are copies
    of passages nearer still (a file imported under many names), read until ``pool // 2`` passages are
    found or _DEEPEST times the pool is. The vectors are read once, for the deepest ranking (each reading is
    a scan of every vector), and its first ``pool``, 4 × ``pool``, … are looked at in turn; only the chunks
    looked at are read from the table and added to ``by_id`` (a chunk deleted since its vector was read is
    not)."""
    deepest = nearest_ids(conn, model, vector, pool * _DEEPEST)
    limit = pool
    while True:
        ids = deepest[:limit]
        by_id.update(_chunks(conn, [cid for cid in ids if cid not in by_id]))
        passages = {_passage_key(by_id[cid], keys) for cid in ids if cid in by_id}
        if len(passages) >= pool // 2 or len(ids) < limit or limit >= pool * _DEEPEST:
            return ids
        limit *= 4


def _chunks(conn: sqlite3.Connection, ids: Sequence[int]) -> dict[int, Hit]:
    """The chunks with these ids, by id (a chunk deleted since its vector was read is left out)."""
    found: dict[int, Hit] = {}
    for start in range(0, len(ids), _CHUNK_BATCH):
        batch = list(ids[start:start + _CHUNK_BATCH])
        query = _anchored(conn, _CHUNKS_QUERY.format(places=", ".join("?" * _CHUNK_BATCH)))
        for row in conn.execute(query, batch + [-1] * (_CHUNK_BATCH - len(batch))):
            found[row[0]] = Hit(*row)
    return found
