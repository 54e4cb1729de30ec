"""How much of a question a passage covers: the question's words as patterns, and the re-rank by them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from .code_files import CODE_TYPES
from .models import Hit
from .textform import CJK_CHARACTERS, has_cjk, identifier_words, is_cjk, nfkc

# BM25's constants, as FTS5's bm25() uses them.
_K1, _B = 1.2, 0.75


def _stem(word: str) -> str:
    # A crude prefix stem, enough to tell whether a passage mentions a query word in some form
    # ("indexes" / "indexing" / "indexed" share "inde…"); FTS5's porter stemmer is not reachable here.
    return word[: max(4, len(word) - 3)] if len(word) > 4 else word


@dataclass(frozen=True, slots=True)
class _Concepts:
    """The question's words as named groups (``c0``, ``c1``, … in query order), each with what it counts
    for when a passage mentions it (see ``query_words._weighed_terms``).

    Words in letters are found by a pattern each, in the forms that start like them (their ``_stem`` is
    the same); CJK terms, which have no endings, by a plain search for their characters, so that the pairs
    inside a run are found even where the whole run is.

    Each pattern begins with its word's stem as plain letters, which re finds with a fast substring scan,
    and checks the word boundary before it only there: one pattern of all the words, tried at every
    position, cost three times as much, and scanning the candidates was half the time of a search. Two
    words' patterns find the same written word only when one of them is a typo's index stem
    (``roots``); then, as in one pattern of alternatives, the word counts for the earlier of the two.
    """

    patterns: tuple[tuple[str, re.Pattern[str]], ...]  # (group, pattern) of the words in letters
    runs: tuple[tuple[str, str], ...]  # (group, characters) of the CJK terms
    weights: dict[str, float]
    total: float
    overlapping: bool  # whether two patterns can find the same written word

    def seen(self, text: str) -> set[str]:
        if self.overlapping:
            return set(self.counts(text))
        groups = {group for group, chars in self.runs if chars in text}
        groups.update(group for group, pattern in self.patterns if pattern.search(text))
        return groups

    def counts(self, text: str) -> dict[str, int]:
        counts = {group: n for group, chars in self.runs if (n := text.count(chars))}
        if not self.overlapping:
            counts.update((group, n) for group, pattern in self.patterns if (n := len(pattern.findall(text))))
            return counts
        first: dict[int, str] = {}  # where a written word starts → the first group that finds it
        for group, pattern in self.patterns:
            for match in pattern.finditer(text):
                first.setdefault(match.start(), group)
        for group in first.values():
            counts[group] = counts.get(group, 0) + 1
        return counts

    def covered(self, groups: Iterable[str]) -> float:
        return sum(self.weights[g] for g in groups)


def _concepts(terms: Sequence[str], weights: Sequence[float] | None = None,
              roots: dict[int, str] | None = None, plurals: bool = False) -> _Concepts | None:
    """The question's words as concept groups; None for a one-word question. ``weights`` default to 1
    for every word. A word put in place of a typo is found by the words that start with its index stem
    (``roots``, by the word's place; the word was guessed from the stem, and "searche" is as likely as
    "searches", so only the stem is sure). A word with the same stem as an earlier one finds nothing, as
    the earlier one takes its forms."""
    if len(terms) < 2:
        return None
    roots = roots or {}
    patterns: dict[str, tuple[str, re.Pattern[str]]] = {}
    runs = []
    for n, term in enumerate(terms):
        if is_cjk(term[0]):
            runs.append((f"c{n}", term.replace(" ", "")))
            continue
        stem = roots[n] if n in roots else _stem(term)
        rest = r"\w*" if n in roots else _after_stem(stem)
        # the stem, then a look back past it: the letter before the stem must not be part of a word
        source = rf"{re.escape(stem)}(?<!\w.{{{len(stem)}}}){rest}\b"
        if plurals and n not in roots:
            source = rf"{source}|\b(?:{'|'.join(map(re.escape, _singulars(term)))})(?:s|es)?\b"
        if source not in patterns:
            patterns[source] = (f"c{n}", re.compile(source))
    weights = [1.0] * len(terms) if weights is None else list(weights)
    return _Concepts(tuple(patterns.values()), tuple(runs), {f"c{n}": w for n, w in enumerate(weights)},
                     sum(weights), bool(roots) and len(patterns) > 1)


def _singulars(word: str) -> list[str]:
    """``word`` and what it may be the plural of ("pancakes": "pancake"; "classes": "class"; "queries":
    "query"): _stem's prefix counts letters, so "pancakes" (stem "panca", three letters more) does not
    find "pancake" (stem "panc"). English's rules, not any "s" cut off: "notes" is no plural of "not",
    nor "uses" of "us"; a singular has four letters at least ("news" is not "new")."""
    if not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return [word]
    # "-es" may be the plural's or the word's ("classes": "class", "databases": "database"): both are
    # tried; one that is no word ("databas") finds nothing, and a short one is left out.
    singulars = [word[:-1], *([word[:-2]] if word.endswith("es") else []),
                 *([word[:-3] + "y"] if word.endswith("ies") else [])]
    return [word, *(form for form in singulars if len(form) >= 4)]


def _after_stem(stem: str) -> str:
    # What follows ``stem`` in the words whose _stem() it is: a C-level scan per passage finds them all,
    # where stemming every word of a hundred passages in Python would cost more than the SQL query.
    if len(stem) > 4:
        return r"\w{3}"
    if len(stem) == 4:
        return r"\w{0,3}"
    return ""


def _comparable(text: str) -> str:
    # A passage as the question's words are matched against it: in NFKC, as the index and query_terms
    # read it (full-width letters as ordinary ones), lower-cased, as query_terms gives the words, and
    # with a word in letters set apart from CJK characters beside it ("mysql的配置"), as the index sets
    # it apart (the question's pattern cannot say so itself: a character class of the CJK ranges costs
    # a millisecond to compile, and the pattern is compiled for every question).
    if text.isascii():
        return text.lower()
    text = nfkc(text).lower()
    return _LETTER_RUN.sub(_spaced, text) if has_cjk(text) else text


_LETTER_RUN = re.compile(f"[^\\W{CJK_CHARACTERS}]+")


def _spaced(match: re.Match[str]) -> str:
    return f" {match.group()} "


def _rerank_by_coverage(
    hits: Sequence[Hit], concepts: _Concepts | None, common: dict[str, float] | None = None
) -> list[Hit]:
    """BM25 scaled by how many of the question's words a passage covers (½ + share covered, each word
    counted at its weight).

    An OR query lets a passage that repeats one rare word outrank one that answers the whole question;
    preferring passages that mention more of the distinct things asked about fixes most of those.

    ``common`` names the concept groups of words left out of the SQL query as too common (with their
    IDF): leaving "table" or "commit" out keeps searching a big index fast, but those words still tell
    two candidates apart (without them held-out recall at scale fell by 11 points). Their BM25 share is
    added here, from the same scan, with the candidates' mean length for the length normalisation.
    """
    if concepts is None:
        return list(hits)
    mean = (sum(len(h.text) for h in hits) / len(hits) or 1.0) if common and hits else 1.0
    rescored = []
    for hit in hits:
        text = _comparable(_words_of(hit))
        score = hit.score
        if common:
            counts = concepts.counts(text)
            found = concepts.covered(counts)
            norm = _K1 * (1 - _B + _B * len(hit.text) / mean)
            score += sum(idf * tf * (_K1 + 1) / (tf + norm) for group, idf in common.items()
                         if (tf := counts.get(group, 0)))
        else:
            found = concepts.covered(concepts.seen(text))
        rescored.append(_with_score(hit, score * (0.5 + found / concepts.total)))
    rescored.sort(key=lambda h: h.score, reverse=True)
    return rescored


def _words_of(hit: Hit) -> str:
    """What a passage says, for finding the question's words in it; in a program's passage, identifiers
    stand beside their words ("parse_config", "parseConfig": "parse config"), as the index holds them."""
    text = f"{hit.title}\n{hit.heading}\n{hit.text}"
    if hit.type not in CODE_TYPES:
        return text
    return identifier_words(text).replace("_", " ")


def _with_score(hit: Hit, score: float) -> Hit:
    # ``hit`` with another score (search.py uses it too), for every candidate of every search: made directly, as
    # dataclasses.replace took twice as long. Every field of Hit is passed on, in its order.
    return Hit(hit.chunk_id, hit.source_id, hit.title, hit.location, hit.heading, hit.text, score, hit.anchor,
               hit.type, hit.copies)
