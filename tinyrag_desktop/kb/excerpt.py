"""A passage as a search result shows it: from where the search's words are in it, as a search engine's
snippet is (the Search tab's list and ``kb search``'s output), each paragraph a line, a table's or a log's
rows each on a line of their own.

Moved from ui/kb_results.py so that the command line shows the same excerpt: ``kb search`` printed a
passage's first 400 characters, and the log line or CSV row that matched was cut off below them.
"""

from __future__ import annotations

import os
import re
import unicodedata
from functools import lru_cache
from typing import Sequence

from .textform import has_cjk


def preview(text: str, limit: int = 300, most_lines: int = 8, words: Sequence[str] = (),
            keep_lines: bool = False) -> str:
    """A passage as the Search tab lists it: each paragraph a line, its lines as wrapped in its file joined
    (the list wraps them to its own width), but a table's rows each on a line of their own (joined, "Option |
    Default | Meaning `port` | 8080 |…" ran on as one line). Code is joined too: an indent does not tell code
    from a paragraph indented in its file (git's manuals indent with tabs).

    It starts where the search's ``words`` are when its start would not show them, after "…", as a search
    engine's snippet does: a CSV or log passage is fifty rows, and row 99817 of "invoice 99817" was cut off.
    With ``keep_lines`` (a terminal, which does not wrap a paragraph's lines again), each line is kept as
    it is, indent and all; only blank lines are left out."""
    lines: list[str] = []
    for paragraph in text.split("\n\n"):
        rows = [row for row in paragraph.split("\n") if row.strip()]
        if keep_lines:
            lines += [row.rstrip() for row in rows]
        elif len(rows) > 1 and (all(" | " in row for row in rows) or _records(rows)):
            lines += [" ".join(row.split()) for row in rows]
        elif rows:
            lines.append(" ".join(paragraph.split()))
    found = _where(lines, words)
    if found is not None and not _in_sight(lines, found, limit, most_lines):
        row, at = found
        start = 0 if at < _CONTEXT + 20 else lines[row].rfind(" ", 0, at - _CONTEXT) + 1
        lines = [("… " if start == 0 else "…") + lines[row][start:]] + lines[row + 1:]
    shown, used = [], 0
    for line in lines[:most_lines]:
        if used + len(line) > limit:
            shown.append(line[:max(limit - used, 0)].rstrip() + "…")
            break
        shown.append(line)
        used += len(line)
    else:
        if len(lines) > most_lines:
            shown[-1] += " …"
    return "\n".join(shown)


def also_in(location: str, copies: Sequence[str], most: int = 3) -> str:
    """Where else a passage is (``copies``: Hit.copies), as a result says it under its own ``location``
    after "also in:": "b.log, c.log, d.log + 2 other copies". A file is named by its path from
    ``location``'s folder (b.log beside a.log; ../b/README.md for vendor/b/README.md beside
    vendor/a/README.md; ../../README.md for the project's own), a web address (or a file with no folder in
    common but the root) in full."""
    names = [_beside(location, copy) for copy in copies[:most]]
    more = len(copies) - len(names)
    return ", ".join(names) + (f" + {more} other cop{'y' if more == 1 else 'ies'}" if more else "")


def _beside(location: str, copy: str) -> str:
    if not (os.path.isabs(location) and os.path.isabs(copy)):
        return copy
    try:
        shared = os.path.commonpath([location, copy])
    except ValueError:  # on two drives
        return copy
    # in full when only the root is shared: "home/me/x.log" reads as a folder of the other's; else from the
    # shown file's folder ("README.md" for /proj/README.md beside /proj/vendor/lib/README.md read as its own)
    return copy if shared == os.path.dirname(shared) else os.path.relpath(copy, os.path.dirname(location))


_CONTEXT = 40  # characters shown before the words found, when they are far into a line


_LOG_LINE = re.compile(r"\[?\d{1,4}[-/.:]\d|[A-Z][a-z]{2} +\d{1,2} \d\d:")  # 2026-01-01 …, [12:00:01], Dec  2 13:00:


def _records(rows: list[str]) -> bool:
    """Whether ``rows`` are records a line each, as CSV and JSON Lines passages ("id: 7; name: …") and logs
    are: joined, the log line of "request 250" was somewhere in a run of fifty."""
    return all("; " in row and ": " in row for row in rows) or all(_LOG_LINE.match(row) for row in rows)


def _where(lines: Sequence[str], words: Sequence[str]) -> tuple[int, int] | None:
    """The line holding the most of ``words`` (the first such), and where in it the first of them is."""
    patterns = [_pattern(word) for word in words if word.strip()]
    if not patterns:
        return None
    best: tuple[int, int, int] | None = None  # (words found, line, where)
    for row, line in enumerate(lines):
        folded = _fold(line)
        places = [found.start() for found in (pattern.search(folded) for pattern in patterns) if found]
        if places and (best is None or len(places) > best[0]):
            best = (len(places), row, min(places))
            if len(places) == len(patterns):
                break
    return None if best is None else best[1:]


def _in_sight(lines: Sequence[str], found: tuple[int, int], limit: int, most_lines: int) -> bool:
    row, at = found
    return row < most_lines and sum(len(line) for line in lines[:row]) + at + _CONTEXT <= limit


def _pattern(word: str) -> re.Pattern[str]:
    """A search word as it may be written in a passage: a longer word in its other forms ("invoices" finds
    "invoice"), a short word whole or with an s, a number whole; Chinese or Japanese characters anywhere
    ("数 据 库")."""
    word = _fold(word)
    if has_cjk(word):
        return re.compile(re.escape(word.replace(" ", "")))
    if any(ch.isdigit() for ch in word):
        return re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")
    if len(word) <= 4:  # "tea" is not "team", but "teas" is tea
        return re.compile(rf"(?<!\w){re.escape(word)}(?:e?s)?(?!\w)")
    return re.compile(rf"(?<!\w){re.escape(word[:max(4, len(word) - 2)])}\w*")


def _fold(text: str) -> str:
    """``text`` in lower case without accents, a character for a character (places in it are the text's)."""
    return "".join(map(_fold_char, text))


@lru_cache(maxsize=4096)
def _fold_char(ch: str) -> str:
    folded = unicodedata.normalize("NFKD", ch.lower())[:1]
    return folded if len(folded) == 1 else ch
