"""Words searched for as a person reads them: letter case and accents set aside, in any script; no Qt.

"cafe" finds "Café", "ÉTÉ" finds "été", "strasse" finds "Straße", "first" finds "ﬁrst". SQLite's LIKE, which
the chats search used, folds the 26 ASCII letters only. Both the words and the text are folded the same way:
compatibility-decomposed (NFKD), case-folded (``str.casefold``, so "ß" is "ss"), decomposed again, and
stripped of their combining marks (the accents, written apart by NFKD). The folding is done a character at
a time, so :func:`find` can tell where in the text as written the words it found are (a snippet's start, the
marks of Find in chat), even where a letter folds to two ("ß") or a mark to none.

:func:`register` gives an SQLite connection the function ``tinyrag_fold`` for its queries.

Words may be looked for at the start of a word only (``word_start``): "c" finds "C++" and "the C question",
not the "c" inside "topic" (the chats search for "topic C" found every chat about a topic). Words that begin
with a mark ("#tag", ".py"), or in a script written without spaces between words (Chinese, Japanese, Thai),
are found anywhere.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import unicodedata
from functools import lru_cache
from typing import Sequence

SQL_FOLD = "tinyrag_fold"
SQL_WORD_START = "tinyrag_word_start"
# The scripts written without spaces between words, where any letter may start one: Thai, Lao, Myanmar,
# Khmer, the CJK ideographs (with their radicals and extensions), the kana, Bopomofo, half-width katakana.
_SPACELESS = ("\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u2e80-\u2fdf\u3040-\u31ff\u3400-\u4dbf"
              "\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003ffff")
_SPACELESS_CHAR = re.compile(f"[{_SPACELESS}]")


@lru_cache(maxsize=1)
def _marks() -> re.Pattern[str]:
    """The characters of the Basic Multilingual Plane with a combining class (accents, cedillas, tonos,
    vowel points), as one character class: made once, when the first text beyond ASCII is folded (~10 ms).
    The few beyond it are looked at one by one (_ASTRAL): in the class, they made every text 20 times
    slower to fold."""
    marks = "".join(chr(code) for code in range(0x300, 0x10000) if unicodedata.combining(chr(code)))
    return re.compile(f"[{re.escape(marks)}]+")


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")  # emoji, old scripts, mathematical letters, their marks


def _astral_mark(match: re.Match[str]) -> str:
    return "" if unicodedata.combining(match.group()) else match.group()


def fold(text: str) -> str:
    """``text`` folded for searching (see the module's docstring): ``fold(words) in fold(text)``."""
    if text.isascii():  # most text: as fast as SQLite's own LIKE
        return text.lower()
    folded = _marks().sub("", unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold()))
    return _ASTRAL.sub(_astral_mark, folded) if folded and max(folded) > "\uffff" else folded


@lru_cache(maxsize=8192)
def _fold_char(ch: str) -> str:
    return fold(ch)


def fold_map(text: str) -> tuple[str, Sequence[int]]:
    """``fold(text)``, and for each of its characters the index in ``text`` of the character it comes from."""
    if text.isascii():
        return text.lower(), range(len(text))
    pieces, where = [], []
    for i, ch in enumerate(text):
        piece = _fold_char(ch)
        pieces.append(piece)
        where.extend([i] * len(piece))
    return "".join(pieces), where


def span_of(text: str, where: Sequence[int], start: int, end: int) -> tuple[int, int]:
    """The part of ``text`` that folds to ``fold(text)[start:end]`` (``where`` from :func:`fold_map`): from
    the character its first folded one comes from to the one its last comes from, with the marks after it
    (an accent written as a mark of its own is marked with its letter)."""
    first, last = where[start], where[end - 1] + 1
    while last < len(text) and not text[last].isascii() and not _fold_char(text[last]):
        last += 1
    return first, last


def starts_words(folded: str) -> bool:
    """Whether the words that fold to ``folded``, looked for at word starts, are looked for there: they begin
    with a letter or digit of a script that puts spaces between words."""
    return bool(folded) and folded[0].isalnum() and not _SPACELESS_CHAR.match(folded[0])


@lru_cache(maxsize=64)
def _at_word_start(folded: str) -> re.Pattern[str]:
    # Not after a letter or digit, unless that one is of a script without spaces ("東京Tokyo" holds "tokyo").
    # The words first, then what comes before them looked back at: led by the look-behind, the pattern was
    # tried at every place in the text (3 times slower), not only where the words are.
    words = re.escape(folded)
    return re.compile(f"{words}(?<![^\\W_{_SPACELESS}]{words})")


def ends_word(text: str, end: int) -> bool:
    """Whether ``text[:end]`` ends a word: nothing after it is a letter or digit of a script with spaces."""
    return end >= len(text) or not starts_words(text[end])


def _find_folded(folded_text: str, needle: str, word_start: bool) -> int:
    if word_start and starts_words(needle):
        match = _at_word_start(needle).search(folded_text)
        return match.start() if match else -1
    return folded_text.find(needle)


def find(text: str, words: str, *, word_start: bool = False) -> tuple[int, int] | None:
    """Where ``words`` first are in ``text``, case and accents aside: the part of ``text`` as written that
    holds them, or None; with ``word_start``, only where they start a word (see the module's docstring).
    Words that fold to nothing (only marks) are looked for as they are."""
    needle = fold(words)
    if not needle:
        at = text.find(words) if words else -1
        return (at, at + len(words)) if at >= 0 else None
    at = _find_folded(_kept_fold(text), needle, word_start)
    if at < 0:
        return None
    if text.isascii():
        return at, at + len(needle)
    first, length = _source(text, at)  # length: what text[:first] folds to
    last, end = first, at + len(needle)
    while length < end and last < len(text):  # on to the needle's end, a character at a time
        length += len(_fold_char(text[last]))
        last += 1
    while last < len(text) and not text[last].isascii() and not _fold_char(text[last]):
        last += 1  # an accent written as a mark of its own goes with its letter
    return first, last


def _source(text: str, place: int) -> tuple[int, int]:
    """The index of the character of ``text`` that ``fold(text)[place]`` comes from, and the length of what
    the text before it folds to. The folds of the text's prefixes are the folded text's prefixes, so a guess
    is folded at C's speed and moved by what it is off (a character at a time, the snippets of 2,500 hits took
    a second)."""
    i = min(place, len(text) - 1)
    for _ in range(6):  # most text folds a character to one: the first guess, or the second, is right
        length = len(fold(text[:i]))
        if length <= place < length + len(_fold_char(text[i])):
            return i, length
        i = max(0, min(len(text) - 1, i + (place - length or 1)))
    length = 0
    for i, ch in enumerate(text):
        if length + len(_fold_char(ch)) > place:
            return i, length
        length += len(_fold_char(ch))
    return len(text), length  # not reached: place is in fold(text)


def holds(column: str, folded: str, key: str = "", *, word_start: bool = False) -> str:
    """An SQL condition: ``column`` holds the words that fold to ``folded`` (with :func:`holds_args`' values
    for the same ``key``, which tells several such conditions of one query apart); with ``word_start``, at
    the start of a word (see :func:`find`): SQLite's LIKE, or instr, first finds the texts that hold them at
    all, and only those are looked at in Python for where.

    A text of ASCII letters only (most text) is looked in by SQLite's LIKE, which folds those letters the same
    way: folding it in Python too, the benchmark's search of 3,000 chats took 40 ms, not 20 (LIKE alone, which
    found no accents: 15). Words that fold to nothing
    (marks alone: folded, every text would hold them) are looked for as they are."""
    if not folded:
        return f"instr({column}, :n{key}) > 0"
    plain = f"{column} LIKE :p{key} ESCAPE '\\'" if folded.isascii() else "0"  # letters beyond ASCII: not there
    anywhere = (f"CASE WHEN length({column}) = length(CAST({column} AS BLOB)) THEN {plain} "
                f"ELSE instr({SQL_FOLD}({column}), :n{key}) > 0 END")
    if word_start and starts_words(folded):
        return f"({anywhere} AND {SQL_WORD_START}({column}, :n{key}))"
    return anywhere


def holds_args(folded: str, words: str, key: str = "") -> dict[str, str]:
    """The values of :func:`holds`' condition for ``words`` (``folded``: their fold)."""
    escaped = folded.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return {f"n{key}": folded or words, f"p{key}": f"%{escaped}%"}


class _Folds:
    """The folds of the texts beyond ASCII that were searched, kept for the next search: folding them took
    0.5 s a search of a history of 7.3 million characters all beyond ASCII (French, say), 60 ms once kept.
    Known by length and hash, not by the text itself (that would keep the history twice); FOLDS_KEPT
    characters at most, the first folded first kept (a search reads the messages in the same order each
    time: putting the oldest out, every text would be put out before it was read again)."""

    def __init__(self, most: int) -> None:
        self._most = most
        self._kept: dict[tuple[int, int], str] = {}
        self._size = 0
        self._lock = threading.Lock()  # the search thread's connection and the store's may both fold

    def fold(self, text: str) -> str:
        key = (len(text), hash(text))
        folded = self._kept.get(key)
        if folded is None:
            folded = fold(text)
            with self._lock:
                if self._size + len(folded) <= self._most:
                    self._kept[key] = folded
                    self._size += len(folded)
        return folded


FOLDS_KEPT = 16_000_000
_folds = _Folds(FOLDS_KEPT)


def _kept_fold(text: str) -> str:
    return text.lower() if text.isascii() else _folds.fold(text)


def _sql_fold(value: object) -> str | None:
    """``fold`` for SQLite: a value that is not text (NULL, or a blob in a damaged file) is not folded."""
    return _kept_fold(value) if isinstance(value, str) else None


def _sql_word_start(value: object, folded: object) -> bool:
    """For SQLite: whether the text ``value`` holds ``folded`` at the start of a word."""
    if not isinstance(value, str) or not isinstance(folded, str):
        return False
    return _at_word_start(folded).search(_kept_fold(value)) is not None


def register(db: sqlite3.Connection) -> None:
    """Give ``db`` the SQL functions ``tinyrag_fold(text)`` and ``tinyrag_word_start(text, folded)``."""
    db.create_function(SQL_FOLD, 1, _sql_fold, deterministic=True)
    db.create_function(SQL_WORD_START, 2, _sql_word_start, deterministic=True)
