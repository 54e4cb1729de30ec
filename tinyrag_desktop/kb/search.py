"""The one search function: BM25 over the FTS5 index, optionally fused with vector ranks.

``kb search``, the ``rag_knowledge`` tool and the engine's ``rag`` route all call :func:`search` on a
read-only connection from :func:`open_readonly`. The user's or model's words never reach SQL as syntax:
:func:`query_terms` keeps only words, drops stop words, and the FTS5 expression quotes every one of them,
so quotes, ``*``, ``NEAR``, ``-``, ``:`` or parentheses can neither fail nor change the meaning.

A search, step by step:

1. words: the question's words less stop words; in a large index, words found in more than a tenth of
   the chunks are left out of the SQL query (they cost the most and weigh the least);
2. candidates: the best 100 chunks by BM25 over title, heading path and text (one OR query); when
   common words were left out, the best 300, each given back those words' BM25 share in Python;
3. coverage: each candidate's score is scaled by the share of the question's words it mentions;
4. with a query vector, the BM25 ranking and the vector ranking are fused (reciprocal rank fusion);
5. links: the same words are searched in the text around links between pages (``links_fts``): a page
   that other pages describe in the question's words gets a share of the credit;
6. sources: a source's rank adds up its best chunks (1, ½, ¼) plus W_LINKS times what links say about it
   (both scaled to the best source's), and the result takes each top source's best chunk first, so one
   long page cannot fill every place.

What was measured (``benchmarks/bench_kb_quality.py``, recall@5 over 159 held-out questions) and kept:
the link index (about +6 points), man pages' header line, no everyday-word table (a hand-made table of
expansions lifted the questions it was written against by 11 points and cost 1 to 2 on held-out ones).
Tried and left out: whole-page BM25 (alone or fused), pseudo-relevance feedback from the top chunks
(RM3-style), a bonus for adjacent query words, IDF-weighted coverage, a prior for much-linked pages,
other column weights, chunk sizes and link weights: each moved the held-out figure by noise or down.

Also tried and left out, as dev / held-out against 85/103 and 142/159 here (81 and 137 with
``--as-large``): a summary of each page (title, lead sentence, section headings) in its own FTS5 table,
added to a source's score as links are: 86/141 at weight 0.1, 85/138 at 0.2, 86/136 at 0.3, no better
fused by rank or kept to pages already found; word associations learned from the knowledge base (PMI
within sentences, heading words against the body under them, a Qiu-Frei-style similarity to the whole
question), their best words searched as a second, low-weight query or counted in coverage: 137 to 142;
Porter stems (as FTS5 uses them) instead of ``_stem`` in the coverage re-rank: 85/141 (82/137 as large);
coverage counted over two adjacent chunks, over a page's best chunks, or within one sentence: 136 to 141;
definition-list terms in the heading path: 85/139; a heading-only ranking fused in: 134 to 139; a page
length prior, other source decays (1, ½, ¼ is best), link contexts of 80 or 250 characters: all lower.
Synonym expansion from WordNet 3.0 (a generated table; synonyms searched as a second query at a lower
weight and counted as covering their word; the code was not kept): expanding every word gave
84-87/103 but 136-141/159; expanding only words absent or rare in the index, 85/103 and 141-142/159;
only towards synonyms the documents use over 3 times as often, 85-87/103 and never more than 142/159.
General English's common senses are rarely a manual's ("server" → "waiter", "query" → "question"), and
each synonym costs an index look-up (p95 114-136 ms at 300,000 chunks with synonyms for every word).
A distributional thesaurus, learned from 15.3 million words of Debian's software manuals (Python, Perl,
bash, Apache, Node.js, the Linux kernel's documentation, man pages; none about databases or git), each
question word's nearest neighbours searched and counted the same way (the code was not kept): word2vec
(window 5 or 2) and PPMI + SVD, 1 to 3 neighbours, similarity thresholds 0.45 to 0.7, weights 0.15 to
0.5, the ratio rule, mutual neighbours only, absent or rare words only: 82-87/103 and 138-142/159 over
40 variants; the best, one neighbour at 0.15 not counted as covering its word, 86/103 and 142/159 (82
and 137 as large; p50 6.1 ms at 15,000 chunks, p95 34 ms at 300,000). Words that share contexts are
related, not the same ("faster" → "slower", "stop" → "start", and in manuals "rights" → "licensed");
the few true bridges ("permission" → "privileges") are outweighed by that noise.
A back-of-book index's entries (DocBook's bookindex: "autocommit, bulk-loading data") filed as link
contexts under the pages they point to: 85/103 and 141/159.
Link-neighbour propagation and other BM25 constants (63 variants; the code, with its knobs, is in commit
63548b5, reverted): the top sources passing alpha times their score, one step, along their links to the
pages they point to (pages new to the candidates shown as links-only pages are, when they mention a
question word), from the top 5 divided by out-degree: 85/142 at 0.1, 84/141 at 0.3; incoming links
84/139-140; both 85/139-141; divided by √degree 85/140-141; undivided 86/131-140; only links whose
context holds a question word 85-87/131-141; from the top 1, 3 or 10 85-86/140-142; boosting only pages
already found 83-86/123-140; as large 116-138. The right page is among the top 5's out-links for 7 of
the dev set's 18 misses, but so are dozens of wrong ones. BM25 re-scored exactly in Python over the 100
candidates (term counts per column from an in-memory FTS5 table with the same tokenizer and fts5vocab,
lengths from chunks_fts_docsize, N and mean length from the index's averages record; at 1.2 and 0.75 it
gives bm25()'s scores to 1e-6): k1 0.6 to 2.0 by b 0.2 to 1.0, 30 pairs, 84-85/138-142 with FTS5's
1.2 and 0.75 the best (80-83/133-138 as large); over 300 candidates 83-85/139-140. It also cost p50
22.6 ms at 15,000 chunks (6.1 without). Recall at 10 and 20 is 145 and 149/159:
the right page is usually not just below the top 5 but absent from the candidates altogether.
The remaining misses are mostly words the right page never uses ("rights" for privileges, "list" for
arrays): a ranking tweak cannot close that gap. An embedding model (optional vectors, below) closes
part of it: with all-MiniLM-L6-v2, fused recall at 5 stayed 142/159 (it won three PostgreSQL questions
and lost three git ones) while recall at 10 rose from 145 to 151 (benchmarks/bench_kb_quality.py
--embed-url, figures in its docstring).
Learning to rank (the code and benchmarks/learn_source_ranker.py, which fits it, are in commit 903bacd,
reverted): a linear score for each candidate source, its weights learned from the development set alone
over 14 generic features (the current score; the 1st to 3rd chunks' BM25 against the question's best;
links; the share of the question's words in the best chunk, in the page's matched chunks, in the title
and in the best chunk's heading path; the share of the title's and last heading's words that are
question words; matched chunks; page length; the best chunk's rank). Pairwise logistic regression, a
softmax (listwise) loss, shrunk towards zero or towards the current ranking, and
coordinate ascent on recall@5, over pools of 100 to 300 chunks, each chosen by 5-fold cross-validation
within the development set (10 shuffles): 84-87/103 fitted, 84-87 cross-validated, against 85 now. The
best two by cross-validation (current score, page coverage, title and heading shares; 87 and 86 fitted,
86.9 and 86.0 cross-validated) gave 137/159 held-out over 200 and over 100 chunks (83/133 as large; p50
8-10 ms at 15,000 chunks); the current ranking over 200 chunks gave 140. A hundred questions over one
manual move the weights by what suits its titles and headings; the gain does not carry to other pages.
The settings kept were chosen by these held-out figures, so 142 flatters them: a change has to win by
more than a question or two before it can be believed.
"""

from __future__ import annotations

import heapq
import math
import re
import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

from .errors import StoreError
from .models import Hit
from .store import DB_NAME, iter_vectors

if TYPE_CHECKING:
    import numpy as np

MAX_TERMS = 24

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
# the best source). Held-out recall@5 is flat from 0.3 to 0.6 and falls without the links (see above).
W_LINKS = 0.3
# How many link contexts (best BM25 first) a search looks at, and how many chunks of a page found only
# through links are read to pick the passage to show.
_LINK_POOL = 100
_PAGE_CHUNKS = 200

# Words that carry no meaning in a question ("how do I …", "what is the …"); dropped unless nothing is left.
STOP_WORDS = frozenset(
    """a about above after again against all am an and any are aren as at be because been before being
    below between both but by can cannot could couldn d did didn do does doesn doing don down during each
    few for from further get gets got had hadn has hasn have haven having he her here hers herself him
    himself his how i if in into is isn it its itself just ll m me might more most must mustn my myself
    need no nor not now o of off on once only or other ought our ours ourselves out over own re s same
    shall shan she should shouldn so some such t than that the their theirs them themselves then there
    these they this those through to too under until up use used using very was wasn way we were weren
    what when where which while who whom why will with won would wouldn y you your yours yourself
    yourselves tell explain show want wants know please thing things something anything one ones also
    make makes give gives take find see write sure new another ways lot lots long quickly""".split()
)

_WORD = re.compile(r"\w+")

# The only statements the read-only connection runs; the model's text is always a bound parameter.
_FTS_QUERY = f"""
WITH top AS (
    SELECT rowid AS id, bm25(chunks_fts, {W_TITLE}, {W_HEADING}, {W_TEXT}) AS score
    FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY score LIMIT ?
)
SELECT c.id, c.source_id, s.title, s.location, c.heading, c.text, top.score
FROM top JOIN chunks c ON c.id = top.id JOIN sources s ON s.id = c.source_id
ORDER BY top.score
"""
# How many chunks a term may match (at most) before it counts as "in nearly everything" and is left out.
_DF_QUERY = "SELECT count(*) FROM (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)"
_SIZE_QUERY = "SELECT max(id) FROM chunks"
# The chunks found by their vectors alone, read _CHUNK_BATCH at a time (one statement, not one per chunk:
# a hundred single reads cost as much as the whole keyword search); unused places are bound to -1.
_CHUNK_BATCH = 100
_CHUNKS_QUERY = """
SELECT c.id, c.source_id, s.title, s.location, c.heading, c.text, 0.0
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
SELECT c.id, c.source_id, s.title, s.location, c.heading, c.text, 0.0
FROM chunks c JOIN sources s ON s.id = c.source_id WHERE c.source_id = ? ORDER BY c.ordinal LIMIT ?
"""

_READABLE = re.compile(r"^(sources|chunks|vectors|links|(chunks|links)_fts(_\w+)?)$")
_FUNCTIONS = frozenset({"match", "bm25", "count", "coalesce", "max", "min"})


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
    db_key: tuple[str, int, int] | None = None


def open_readonly(data_dir: Path) -> sqlite3.Connection | None:
    """A read-only, authorizer-guarded connection to the knowledge base; None when there is none yet."""
    path = Path(data_dir) / DB_NAME
    if not path.is_file():
        return None
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False,
                               factory=ReadOnlyConnection)
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
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"The knowledge base {path} cannot be read: {exc}.") from exc
    conn.set_authorizer(_authorize)
    return conn


def query_terms(text: str) -> list[str]:
    """The words of ``text`` worth searching for, lower-cased, without repeats and stop words."""
    words = []
    for raw in _WORD.findall(text.lower()):
        word = raw.strip("_")
        if word and any(ch.isalnum() for ch in word):
            words.append(word)
    kept = [w for w in words if w not in STOP_WORDS] or words
    return list(dict.fromkeys(kept))[:MAX_TERMS]


def match_expression(terms: Sequence[str]) -> str:
    """An FTS5 expression matching any of ``terms``; each is a quoted string, never an operator."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


@dataclass(frozen=True, slots=True)
class _Pruned:
    """The terms the index is searched for, those left out as too common, and what that means for IDF."""

    kept: list[str]
    common: list[str]
    size: int
    cap: int


def _without_common_terms(conn: sqlite3.Connection, terms: Sequence[str]) -> _Pruned:
    """``terms`` less those found in more than PRUNE_FRACTION of a large index (all of them if all are)."""
    size = conn.execute(_SIZE_QUERY).fetchone()[0] or 0
    cap = max(PRUNE_MIN_ROWS, int(size * PRUNE_FRACTION))
    if size <= cap:
        return _Pruned(list(terms), [], size, cap)
    # Counting stops at cap + 1, so a common term costs a bounded scan, not a full one.
    kept = [t for t in terms if conn.execute(_DF_QUERY, (match_expression([t]), cap + 1)).fetchone()[0] <= cap]
    if not kept:
        return _Pruned(list(terms), [], size, cap)
    return _Pruned(kept, [t for t in terms if t not in kept], size, cap)


# When common terms were left out, this many times more candidates are rescored with them.
_COMMON_POOL = 3
# BM25's constants, as FTS5's bm25() uses them.
_K1, _B = 1.2, 0.75


def _common_groups(pruned: _Pruned, words: Sequence[str]) -> dict[str, float]:
    """The concept groups (see ``_concepts``) of the words left out of the SQL query, each with the IDF
    of a term found in ``cap`` chunks (the most such a term can weigh)."""
    if not pruned.common:
        return {}
    idf = math.log(1 + (pruned.size - pruned.cap + 0.5) / (pruned.cap + 0.5))
    return {f"c{n}": idf for n, word in enumerate(words) if word in pruned.common}


def _fts_hits(conn: sqlite3.Connection, terms: Sequence[str], limit: int) -> list[Hit]:
    rows = conn.execute(_FTS_QUERY, (match_expression(terms), limit)).fetchall()
    return [Hit(cid, sid, title, loc, heading, text, -score) for cid, sid, title, loc, heading, text, score in rows]


# Vectors are scored with numpy, a matrix product over all of them (brute force is exact, and at a few
# hundred thousand chunks still fast). Between searches they are kept in memory, once for the whole
# process (every thread's connection shares them), while that takes at most VECTOR_CACHE_BYTES (about
# 350,000 chunks of 768 numbers; 15,000 take 46 MB), as a flat vector index would; a bigger set is read
# from the database in batches on every search (about 0.5 s per 150,000 chunks). What the sources table
# says of every source (id, content hash, import time, chunks) tells when they are stale: chunk ids alone
# cannot, as a re-imported source's new chunks may get the ids its old ones had.
VECTOR_CACHE_BYTES = 2**30
_VECTOR_BATCH = 16_384
_KEPT_VECTOR_SETS = 1  # so at most VECTOR_CACHE_BYTES in all
_CONTENT_SIGNATURE = "SELECT id, content_hash, imported_at, chunk_count FROM sources"


@dataclass(frozen=True, slots=True)
class _VectorSet:
    """One database's vectors of one model, in batches, as read at content ``version``; ``batches`` is
    None when there were too many to keep (they are read from the database each time)."""

    version: int
    batches: list[tuple["np.ndarray", "np.ndarray"]] | None


_vector_sets: "OrderedDict[tuple, _VectorSet]" = OrderedDict()
_vector_lock = threading.Lock()


def _vector_batches(conn: sqlite3.Connection, model: str, dims: int) -> Iterator[tuple["np.ndarray", "np.ndarray"]]:
    """(chunk ids, unit vectors as rows) in batches; vectors of another length (another model stored
    under this name before it changed) are left out."""
    import numpy as np

    rows = iter_vectors(conn, model)
    while batch := rows.fetchmany(_VECTOR_BATCH):
        good = [(cid, blob) for cid, blob in batch if len(blob) == 4 * dims]
        if good:
            ids = np.fromiter((cid for cid, _ in good), dtype=np.int64, count=len(good))
            matrix = np.frombuffer(b"".join(blob for _, blob in good), dtype="<f4").reshape(len(good), dims)
            yield ids, matrix


def _load_vectors(conn: sqlite3.Connection, model: str, dims: int, version: int) -> _VectorSet:
    batches, size = [], 0
    for ids, matrix in _vector_batches(conn, model, dims):
        size += matrix.nbytes
        if size > VECTOR_CACHE_BYTES:
            return _VectorSet(version, None)
        batches.append((ids, matrix))
    return _VectorSet(version, batches)


def _kept_vectors(conn: sqlite3.Connection, model: str, dims: int) -> list[tuple["np.ndarray", "np.ndarray"]] | None:
    """This database's vectors as kept in memory (read now if they changed), or None to stream them."""
    db = getattr(conn, "db_key", None)
    if db is None:  # a connection not made by open_readonly: nothing identifies its database
        return None
    version = hash(tuple(conn.execute(_CONTENT_SIGNATURE)))  # a few ms for thousands of sources
    key = (db, model, dims)
    with _vector_lock:  # one thread reads them; the others wait and share what it read
        kept = _vector_sets.get(key)
        if kept is None or kept.version != version:
            _vector_sets.pop(key, None)  # let the stale set go before reading the new one
            kept = _vector_sets[key] = _load_vectors(conn, model, dims, version)
        _vector_sets.move_to_end(key)
        while len(_vector_sets) > _KEPT_VECTOR_SETS:
            _vector_sets.popitem(last=False)
    return kept.batches


def warm_vectors(conn: sqlite3.Connection, model: str) -> bool:
    """Read ``model``'s vectors into memory now, so that the first search with them does not wait for
    it (1.5 s at 150,000 chunks); False when there are none, or too many to keep."""
    first = iter_vectors(conn, model).fetchone()
    return first is not None and _kept_vectors(conn, model, len(first[1]) // 4) is not None


def _vector_ids(conn: sqlite3.Connection, model: str, query_vector: Sequence[float], limit: int) -> list[int]:
    """The ``limit`` chunks whose vectors are nearest to ``query_vector`` (cosine: stored vectors are unit
    length)."""
    import numpy as np

    try:
        q = np.asarray(query_vector, dtype=np.float32)
    except (TypeError, ValueError):
        return []
    if q.ndim != 1 or not q.size or not np.isfinite(q).all():
        return []
    q = q / (float(np.linalg.norm(q)) or 1.0)  # a new array: the caller's vector is left as it was
    kept = _kept_vectors(conn, model, q.size)
    batches = _vector_batches(conn, model, q.size) if kept is None else kept
    best_ids, best_scores = [], []
    for ids, matrix in batches:
        scores = matrix @ q
        if len(scores) > limit:
            top = np.argpartition(scores, len(scores) - limit)[-limit:]
            ids, scores = ids[top], scores[top]
        best_ids.append(ids)
        best_scores.append(scores)
    if not best_ids:
        return []
    ids, scores = np.concatenate(best_ids), np.concatenate(best_scores)
    order = np.lexsort((ids, -scores))[:limit]  # best first; ties by chunk id, so results are stable
    return [int(cid) for cid in ids[order]]


def _stem(word: str) -> str:
    # A crude prefix stem, enough to tell whether a passage mentions a query word in some form
    # ("indexes" / "indexing" / "indexed" share "inde…"); FTS5's porter stemmer is not reachable here.
    return word[: max(4, len(word) - 3)] if len(word) > 4 else word


def _concepts(terms: Sequence[str]) -> re.Pattern[str] | None:
    """One pattern for the whole question, a named group per query word: the words that start like it
    (their ``_stem`` is the same). None for a one-word question."""
    if len(terms) < 2:
        return None
    groups = []
    for n, term in enumerate(terms):
        groups.append(f"(?P<c{n}>" + _stem_pattern(_stem(term)) + ")")
    # The look-ahead for the words' first letters lets the scan skip most positions at once (a third
    # faster than trying every alternative at each word boundary).
    first = "".join(sorted({re.escape(term[0]) for term in terms}))
    return re.compile(rf"(?=[{first}])\b(?:" + "|".join(groups) + r")\b")


def _stem_pattern(stem: str) -> str:
    # The words whose _stem() is ``stem``: one C-level scan per passage finds them all, where
    # stemming every word of a hundred passages in Python would cost more than the SQL query.
    if len(stem) > 4:
        return re.escape(stem) + r"\w{3}"
    if len(stem) == 4:
        return re.escape(stem) + r"\w{0,3}"
    return re.escape(stem)


def _rerank_by_coverage(
    hits: Sequence[Hit], concepts: re.Pattern[str] | None, common: dict[str, float] | None = None
) -> list[Hit]:
    """BM25 scaled by how many of the question's words a passage covers (½ + share covered).

    An OR query lets a passage that repeats one rare word outrank one that answers the whole question;
    preferring passages that mention more of the distinct things asked about fixes most of those.

    ``common`` names the concept groups of words left out of the SQL query as too common (with their
    IDF): leaving "table" or "commit" out keeps searching a big index fast, but those words still tell
    two candidates apart (without them held-out recall at scale fell by 11 points). Their BM25 share is
    added here, from the same scan, with the candidates' mean length for the length normalisation.
    """
    if concepts is None:
        return list(hits)
    total = concepts.groups
    mean = (sum(len(h.text) for h in hits) / len(hits) or 1.0) if common and hits else 1.0
    rescored = []
    for hit in hits:
        text = f"{hit.title}\n{hit.heading}\n{hit.text}".lower()
        score = hit.score
        if common:
            counts: dict[str | None, int] = {}
            for match in concepts.finditer(text):
                counts[match.lastgroup] = counts.get(match.lastgroup, 0) + 1
            found = len(counts)
            norm = _K1 * (1 - _B + _B * len(hit.text) / mean)
            score += sum(idf * tf * (_K1 + 1) / (tf + norm) for group, idf in common.items()
                         if (tf := counts.get(group, 0)))
        else:
            seen: set[str | None] = set()
            for match in concepts.finditer(text):
                seen.add(match.lastgroup)
                if len(seen) == total:
                    break
            found = len(seen)
        rescored.append(_with_score(hit, score * (0.5 + found / total)))
    rescored.sort(key=lambda h: h.score, reverse=True)
    return rescored


def _document_key(hit: Hit) -> tuple[str, str]:
    # Copies of one document in several formats (guide.md and guide.html, report.docx and report.pdf)
    # share a title and a file name: they count as one source, so they do not take two places.
    name = hit.location.rstrip("/").rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
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


def _page_hit(conn: sqlite3.Connection, source_id: int, concepts: re.Pattern[str] | None) -> Hit | None:
    """The chunk to show for a page found only through links: the one mentioning most of the question."""
    best, best_found = None, -1
    for row in conn.execute(_PAGE_QUERY, (source_id, _PAGE_CHUNKS)):
        hit = Hit(*row)
        found = 0
        if concepts is not None:
            found = len({m.lastgroup for m in concepts.finditer(f"{hit.heading}\n{hit.text}".lower())})
        if found > best_found:
            best, best_found = hit, found
    return best


def _by_source(
    hits: Sequence[Hit],
    k: int,
    links: dict[int, float] | None = None,
    page_hit: Callable[[int], Hit | None] | None = None,
) -> list[Hit]:
    """The best chunk of each of the ``k`` best sources, then the next best chunks if sources run out.

    A source's score adds its chunks' scores with falling weights (1, ½, ¼): a page that matches in
    several places is more likely the answer than one lucky paragraph, and one page cannot fill all
    ``k`` places while other pages also match. Copies of a document in other formats count as the same.
    With ``links`` (source id → score in [0, 1]) a source also earns W_LINKS times what links to it say;
    ``page_hit`` supplies a passage for a source that only links found. Returned scores are the sources'.
    """
    links = links or {}
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
    chosen = [_with_score(per_source[key][0], score[key]) for key in order[:k]]
    if len(chosen) < k:
        rest = sorted((h for key in order for h in per_source[key][1:]), key=lambda h: h.score, reverse=True)
        chosen += [_with_score(h, h.score / top) for h in rest[: k - len(chosen)]]
    return chosen


def search(
    conn: sqlite3.Connection,
    query: str,
    k: int = 5,
    *,
    query_vector: Sequence[float] | None = None,
    vector_model: str = "",
) -> list[Hit]:
    """The ``k`` chunks that best answer ``query``; any string is a valid query (none match: [])."""
    words = query_terms(query)
    terms = words
    if k <= 0 or (not terms and query_vector is None):
        return []
    pool = max(k * 20, 100)
    try:
        pruned = _without_common_terms(conn, terms)
        terms = pruned.kept
        concepts = _concepts(words)
        fts = _fts_hits(conn, terms, pool * _COMMON_POOL if pruned.common else pool) if terms else []
        fts = _rerank_by_coverage(fts, concepts, _common_groups(pruned, words))
        links = _link_scores(conn, terms)

        def page_hit(source_id: int) -> Hit | None:
            return _page_hit(conn, source_id, concepts)

        if query_vector is None or not vector_model:
            return _by_source(fts, k, links, page_hit)
        vec_ids = _vector_ids(conn, vector_model, query_vector, pool)
        by_id = {h.chunk_id: h for h in fts}
        fused: dict[int, float] = {}
        for ranking in ([h.chunk_id for h in fts], vec_ids):
            for rank, cid in enumerate(ranking):
                fused[cid] = fused.get(cid, 0.0) + 1.0 / (RRF_K + rank + 1)
        by_id.update(_chunks(conn, [cid for cid in fused if cid not in by_id]))
        hits = [_with_score(by_id[cid], fused[cid])
                for cid in sorted(fused, key=fused.__getitem__, reverse=True) if cid in by_id]
        return _by_source(hits, k, links, page_hit)
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"The knowledge base could not be searched: {exc}.") from exc


def _chunks(conn: sqlite3.Connection, ids: Sequence[int]) -> dict[int, Hit]:
    """The chunks with these ids, by id (a chunk deleted since its vector was read is left out)."""
    found: dict[int, Hit] = {}
    for start in range(0, len(ids), _CHUNK_BATCH):
        batch = list(ids[start:start + _CHUNK_BATCH])
        query = _CHUNKS_QUERY.format(places=", ".join("?" * _CHUNK_BATCH))
        for row in conn.execute(query, batch + [-1] * (_CHUNK_BATCH - len(batch))):
            found[row[0]] = Hit(*row)
    return found


def _with_score(hit: Hit, score: float) -> Hit:
    return Hit(hit.chunk_id, hit.source_id, hit.title, hit.location, hit.heading, hit.text, score)
