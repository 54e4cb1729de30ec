"""Bridges between the question's spelling of a word and the documents': compounds and abbreviations.

"time stamp" / "timestamp", "file name" / "filename", "config" / "configuration": the same thing written
two ways, and BM25 only finds the way the question wrote it. Each bridge is read off the index itself:
the other form is searched too when the documents use it at least half as often as the form typed.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from typing import Sequence

from .spelling import stems

# The other form must be in at least this share of the chunks the typed form is in.
MIN_RATIO = 0.5
# A word is split in two only when both parts have at least this many letters.
MIN_PART = 3
# Expansions: only for stems of at least this many letters, to a term at least this many letters longer,
# found in at least EXPANSION_RATIO times the chunks of the typed word, and in chunks with it (at least
# EXPANSION_COOCCUR of the typed word's chunks, when the documents use the typed word at all).
MIN_EXPANDED_STEM = 4
EXPANSION_EXTRA = 3
EXPANSION_RATIO = 2.0
EXPANSION_COOCCUR = 0.3

KINDS = frozenset({"join", "split", "expand"})

_COUNT = "SELECT count(*) FROM (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)"
_RANGE = "SELECT term, doc FROM chunks_fts_vocab WHERE term >= ? AND term < ?"
_CAP = 100_000


@dataclass(frozen=True, slots=True)
class Bridge:
    """Another form of the question's word number ``word``: ``term`` to search (a word or a two-word
    phrase) and ``pattern``, a regular expression for it in a passage's text."""

    word: int
    term: str
    pattern: str


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _count(conn: sqlite3.Connection, expression: str) -> int:
    return conn.execute(_COUNT, (expression, _CAP)).fetchone()[0]


def bridges(conn: sqlite3.Connection, words: Sequence[str], kinds: frozenset[str] = KINDS) -> list[Bridge]:
    found: list[Bridge] = []
    if "join" in kinds:
        for n, (a, b) in enumerate(zip(words, words[1:])):
            if not (a.isalpha() and b.isalpha()):
                continue
            joined = _count(conn, _quoted(a + b))
            if joined and joined >= MIN_RATIO * _count(conn, _quoted(f"{a} {b}")):
                found.append(Bridge(n, a + b, re.escape(a + b)))
    for n, word in enumerate(words):
        if not word.isalpha():
            continue
        if "split" in kinds and len(word) >= 2 * MIN_PART:
            typed = _count(conn, _quoted(word))
            best, best_count = None, 0
            for at in range(MIN_PART, len(word) - MIN_PART + 1):
                phrase = f"{word[:at]} {word[at:]}"
                count = _count(conn, _quoted(phrase))
                if count > best_count:
                    best, best_count = phrase, count
            if best is not None and best_count >= MIN_RATIO * typed:
                left, right = best.split(" ")
                found.append(Bridge(n, best, re.escape(left) + r"[\s-]+" + re.escape(right)))
        if "expand" in kinds and _has_vocabulary(conn):
            expansion = _expansion(conn, word)
            if expansion is not None:
                found.append(Bridge(n, expansion, re.escape(expansion) + r"\w*"))
    return found


def _has_vocabulary(conn: sqlite3.Connection) -> bool:
    has = getattr(conn, "has_vocab", None)
    if has is None:
        has = conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'chunks_fts_vocab'").fetchone()[0] > 0
    return bool(has)


def _expansion(conn: sqlite3.Connection, word: str) -> str | None:
    stem = stems([word]).get(word)
    if stem is None or len(stem) < MIN_EXPANDED_STEM:
        return None
    typed = _count(conn, _quoted(word))
    best, best_count = None, 0
    for term, count in conn.execute(_RANGE, (stem, stem + "\uffff")):
        if len(term) >= len(stem) + EXPANSION_EXTRA and count >= EXPANSION_RATIO * max(typed, 1) and count > best_count:
            if typed and _count(conn, f"{_quoted(word)} {_quoted(term)}") < EXPANSION_COOCCUR * typed:
                continue
            best, best_count = term, count
    if best is None or stems([best]).get(best) != best:
        return None
    return best
