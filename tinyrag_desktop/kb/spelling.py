"""Spelling tolerance: a question word the index has never seen is searched as the nearest word it has.

A typo ("permisions", "confgiure") matches nothing, so the passage that answers the question loses the
word that mattered most. When a word of the question is in no chunk at all, the words one edit away
(a letter deleted, inserted, changed, or two neighbours swapped; two edits for long words) are looked up
in the index's own vocabulary (``chunks_fts_vocab``, FTS5's view of its terms), and the one found in
the most chunks takes the misspelt word's place. Words the index knows are never changed, so a
question without typos searches exactly as before; nor are English words it does not know ("passport"
is not a typo of "password": see words.py). A word cut short ("vacu") is completed first, to the most
frequent indexed word it begins ("vacuum", not "value" one edit away).

The index holds Porter stems ("permiss", "configur"), not words: the neighbours are stemmed with the
same tokenizer (an in-memory FTS5 table) before they are looked up, and the word that replaces the typo
is a real neighbour ("permissions"), so the rest of the search treats it like any typed word. Two edits
away there are too many strings to stem them all, so the stems that start with the typo's first three
letters are read from the vocabulary instead, given back the endings the stemmer removes, and kept when
one of the rebuilt words is two edits from the typo.

Measured (``benchmarks/bench_kb_quality.py --typos``: one seeded random edit per development question,
four seeds): 80, 79, 73 and 70 of 103 without, 83, 86, 81 and 85 with (85 without typos); with two edits
in a word of eight letters or more, 44 → 46 of 56 (52 without typos). Questions without typos, dev and
held-out, search as before (85/103, 142/159). It costs a look-up per word of four letters or more (no
measurable change at 15,000 chunks) and 2-20 ms per misspelt word.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from functools import lru_cache
from typing import Iterable, Sequence

from .store_file import TOKENIZER
from .words import is_word

# Shorter words have too many neighbours one edit away ("cat" → "car", "cut", "hat"…) to guess from.
MIN_LENGTH = 4
# Longer "words" are no misspelt words (a pasted DNA sequence, a hash in letters), and their neighbours grow
# with their length: a 3,000-letter one took 35 s and 3 GB, a 20,000-letter one all the memory there was.
MAX_LENGTH = 40
# From this length a word may be two edits away (long words are the ones people mistype twice).
TWO_EDITS_LENGTH = 8
# At most this many misspelt words are corrected in one question (each costs a few milliseconds).
MAX_CORRECTIONS = 3

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
# Endings the Porter stemmer takes off English words: enough to rebuild a word from an indexed stem.
_ENDINGS = ("", "e", "s", "es", "ed", "ing", "ings", "er", "ers", "ion", "ions", "ation", "ations", "ational",
            "ator", "ators", "al", "ally", "ly", "y", "ies", "ied", "ity", "ities", "ive", "ize", "ized", "izes",
            "ization", "ment", "ments", "ness", "ence", "ences", "ance", "ances", "able", "ible", "ic", "ics",
            "ical", "ous", "ful", "ism", "ist", "ists", "ent", "ant", "ency", "ancy")
_PRESENT = "SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT 1"
_VOCAB_TERMS = "SELECT term, doc FROM chunks_fts_vocab WHERE term IN ({places})"
# As bytes: the porter stemmer can cut a word's last character in half (a letter outside the Basic
# Multilingual Plane after Latin ones), leaving a term that is not UTF-8; such terms are skipped (_text).
_VOCAB_RANGE = "SELECT CAST(term AS BLOB), doc FROM chunks_fts_vocab WHERE term >= ? AND term < ?"


def corrections(conn: sqlite3.Connection, words: Sequence[str], stop_words: Iterable[str] = ()) -> dict[str, str]:
    """Misspelt word → the word to search instead, for the words of ``words`` found in no chunk and in
    no English word list (words.py).

    A typo is never read as one of ``stop_words`` (nor as a word with the same stem): they are in
    nearly every chunk, so they would always be the most frequent neighbour ("orws" → "ores", stem "or").
    """
    if not _has_vocabulary(conn):
        return {}
    absent = absent_words(conn, [w for w in words if _correctable(w)])
    # A real word no passage uses is what the question is about, not a typo (see words.py).
    absent = [w for w in absent if not is_word(w)]
    if not absent:
        return {}
    unwanted = _stop_stems(frozenset(stop_words))
    found = {}
    for word in absent[:MAX_CORRECTIONS]:
        better = _completion(conn, word, unwanted) or _nearest(conn, word, unwanted)
        if better is not None:
            found[word] = better
    return found


def absent_words(conn: sqlite3.Connection, words: Sequence[str]) -> list[str]:
    """The words of ``words`` that no chunk holds (as the index reads them: a stem of theirs, in any column)."""
    return [w for w in words if conn.execute(_PRESENT, (_quoted(w),)).fetchone() is None]


# A word cut short ("vacu", "autovac") is completed to an indexed word at most this many letters longer.
MAX_COMPLETION = 5


def _completion(conn: sqlite3.Connection, word: str, unwanted: frozenset[str]) -> str | None:
    """The indexed stem that ``word`` begins, up to MAX_COMPLETION letters longer, found in the most chunks:
    "vacu" → "vacuum", where its nearest neighbour by one edit is "valu(e)". A typo is seldom the start of
    another word (one typing mistake per development question, four seeds: 82, 86, 79, 85 either way); a
    word cut short, in 97 of those questions, finds its page 76, 75, 77 times instead of 75, 74, 76."""
    upper = word[:-1] + chr(ord(word[-1]) + 1)
    best = None
    for raw, count in conn.execute(_VOCAB_RANGE, (word, upper)):
        term = _text(raw)
        if term is None or term in unwanted or term == word or len(term) > len(word) + MAX_COMPLETION:
            continue
        if best is None or count > best[0]:
            best = (count, term)
    return best[1] if best else None


def _has_vocabulary(conn: sqlite3.Connection) -> bool:
    has = getattr(conn, "has_vocab", None)
    if has is None:  # a connection not made by open_readonly: look (without the authorizer's leave)
        has = conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'chunks_fts_vocab'").fetchone()[0] > 0
    return bool(has)


def _correctable(word: str) -> bool:
    # Letters only: numbers, versions and identifiers ("utf8", "max_wal") are not misspellings of words.
    return MIN_LENGTH <= len(word) <= MAX_LENGTH and word.isalpha()


def _quoted(word: str) -> str:
    return '"' + word.replace('"', '""') + '"'


def edits(word: str) -> set[str]:
    """The strings one edit away from ``word``: a letter deleted, inserted or changed, two swapped."""
    letters = _LETTERS if word.isascii() else _LETTERS + "".join(sorted(set(word)))
    found = set()
    for i in range(len(word) + 1):
        left, right = word[:i], word[i:]
        if right:
            found.add(left + right[1:])
            found.update(left + c + right[1:] for c in letters)
        if len(right) > 1:
            found.add(left + right[1] + right[0] + right[2:])
        found.update(left + c + right for c in letters)
    found.discard(word)
    return found


def stems(words: Sequence[str]) -> dict[str, str]:
    """Word → its stem as the index's tokenizer makes it (words it splits in two are left out)."""
    with closing(sqlite3.connect(":memory:")) as mem:
        mem.execute(f"CREATE VIRTUAL TABLE w USING fts5(word, tokenize='{TOKENIZER}')")
        mem.execute("CREATE VIRTUAL TABLE v USING fts5vocab(w, instance)")
        mem.executemany("INSERT INTO w(rowid, word) VALUES(?, ?)", enumerate(words))
        tokens: dict[int, list[str | None]] = {}
        for doc, term in mem.execute("SELECT doc, CAST(term AS BLOB) FROM v"):
            tokens.setdefault(doc, []).append(_text(term))
    return {words[doc]: terms[0] for doc, terms in tokens.items() if len(terms) == 1 and terms[0] is not None}


def _text(term: bytes) -> str | None:
    """A vocabulary term as text; None for one the stemmer left as broken UTF-8 (nothing can match it)."""
    try:
        return term.decode("utf-8")
    except UnicodeDecodeError:
        return None


@lru_cache(maxsize=4)
def _stop_stems(stop_words: frozenset[str]) -> frozenset[str]:
    return frozenset(stems(sorted(stop_words)).values())


def _nearest(conn: sqlite3.Connection, word: str, unwanted: frozenset[str] = frozenset()) -> str | None:
    """The neighbour of ``word`` whose stem is in the most chunks (None when no neighbour is indexed)."""
    near = edits(word)
    by_stem: dict[str, list[str]] = {}
    for neighbour, stem in stems(sorted(near)).items():
        if stem not in unwanted:
            by_stem.setdefault(stem, []).append(neighbour)
    terms = list(by_stem)
    counts = dict(conn.execute(_VOCAB_TERMS.format(places=",".join("?" * len(terms))), terms)) if terms else {}
    if counts:
        best = max(counts, key=lambda term: (counts[term], term))
        # Several neighbours share a stem ("rows", "rowes"): the shortest that starts with the stem is
        # most likely the plain word, and the rest of the search reads a word by its first letters.
        return min(by_stem[best], key=lambda w: (not w.startswith(best), len(w), w))
    if len(word) >= TWO_EDITS_LENGTH:
        return _two_edits(conn, word, unwanted)
    return None


def _two_edits(conn: sqlite3.Connection, word: str, unwanted: frozenset[str] = frozenset()) -> str | None:
    """The word two edits from ``word`` whose stem is in the most chunks, among the indexed stems that
    share its first three letters (the typos of a long word are seldom all at its start, and the range
    keeps the look-up to a small slice of the vocabulary).

    The index holds stems, and a typo in the ending hides the stem ("replcatoin" is no form of
    "replic"): each nearby stem is given back the endings the stemmer removes, and a rebuilt word counts
    only if it is two edits from the typo and stems to that term again."""
    prefix = word[:3]
    upper = prefix[:-1] + chr(ord(prefix[-1]) + 1)
    rebuilt: dict[str, list[tuple[str, int]]] = {}
    for raw, count in conn.execute(_VOCAB_RANGE, (prefix, upper)):
        term = _text(raw)
        if term is None or term in unwanted or len(term) > len(word) + 2 or distance(word[:len(term)], term) > 2:
            continue
        for ending in _ENDINGS:
            surface = term + ending
            if abs(len(surface) - len(word)) <= 2 and distance(word, surface) <= 2:
                rebuilt.setdefault(surface, []).append((term, count))
    stemmed = stems(sorted(rebuilt)) if rebuilt else {}
    # A word rebuilt from two stems ("express" + "ion", and a stray "expression" indexed as itself)
    # counts once, under the stem the tokenizer really gives it.
    found = [(count, -distance(word, surface), -len(surface), surface)
             for surface, pairs in rebuilt.items() for term, count in pairs if stemmed.get(surface) == term]
    return max(found)[3] if found else None


def distance(a: str, b: str) -> int:
    """Edit distance with swaps of neighbours (optimal string alignment)."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]
