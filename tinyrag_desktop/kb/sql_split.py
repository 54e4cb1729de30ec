"""SQL cut at its statements: where each ends (its ";" outside strings, comments and bodies), and the name of
what a CREATE statement makes ("CREATE TABLE users" is "users").

A statement ends at ";" outside quotes ('it''s', "a;b", `a;b`), comments (-- and /* */), PostgreSQL's
dollar-quoted bodies ($$ … $$, $fn$ … $fn$) and BEGIN … END or CASE … END blocks (a trigger's or a
procedure's body, whose own statements end in ";" too); at a line of "GO" (SQL Server's batches) or "/"
(Oracle's); and, after a "DELIMITER //" line (MySQL's dumps of procedures), at that delimiter instead. A file
that never balances (an unclosed quote or BEGIN) is one statement from there to its end: a guess gone wrong
merges, never loses.
"""

from __future__ import annotations

import re
from typing import Iterator

# What a statement's end is looked for past: quotes, comments, dollar-quoted bodies; and what is counted:
# the words that open and close a block, ";", a "GO" line, a "DELIMITER" line. END IF, END LOOP … close
# what no word counted here opened; END CASE closes its CASE (PL/SQL's and PL/pgSQL's CASE statement).
_DELIMITER = r"^[ \t]*(?P<delimiter>delimiter)[ \t]+(?P<mark>\S+)[ \t]*$"
# (A "#" comment is MySQL's; #temp is SQL Server's table.) In a string '' is a quote; a backslash escapes one in
# PostgreSQL's E'it\'s' and in MySQL's 'it\'s', never in standard SQL's 'C:\': a \' is read as the string's end
# where a ",", ")", ";" or the line's end follows it, as an escaped quote elsewhere. The data of a "COPY … FROM
# stdin;" (pg_dump's, psql's) is raw text to its "\." line, apostrophes and all.
_TOKENS = re.compile(
    r"--[^\n]*|#(?![\w#@])[^\n]*|/\*.*?(?:\*/|\Z)|\b[eE]'(?:[^'\\]|''|\\.)*(?:'|\Z)"
    r"|'(?:[^'\\]|''|\\\\|\\'(?![ \t]*(?:[,);]|$))|\\)*(?:'|\Z)|\"(?:[^\"]|\"\")*(?:\"|\Z)"
    r"|(?P<copy>^[ \t]*\\?copy\b[^;\n]*?\bfrom[ \t]+stdin\b[^;\n]*;.*?(?:^\\\.[ \t]*$|\Z))"
    r"|`[^`]*(?:`|\Z)|\$(?P<tag>(?:[A-Za-z_]\w*)?)\$.*?(?:\$(?P=tag)\$|\Z)"
    rf"|{_DELIMITER}|^[ \t]*(?P<go>go|/)[ \t]*(?:--[^\n]*)?$"
    r"|(?P<end>\bend\b(?:[ \t]+case\b)?(?![ \t]+(?:if|loop|while|repeat|for)\b))"
    r"|(?P<open>\bcase\b|\bbegin\b(?![ \t]*(?:;|transaction\b|work\b|tran\b|deferred\b|immediate\b|exclusive\b"
    r"|isolation\b|read\b|distributed\b)))|;",
    re.I | re.S | re.M)
_DELIMITER_LINE = re.compile(_DELIMITER, re.I | re.M)
# Spaces, comments and Oracle's "/" lines (that run the block before them) before a statement's first word.
_BEFORE = re.compile(r"(?:\s+|--[^\n]*|#(?![\w#@])[^\n]*|/\*.*?(?:\*/|\Z)|(?<![^\n])[ \t]*/[ \t]*(?=\n|\Z))*", re.S)
_CREATED = re.compile(
    r"create(?:\s+or\s+(?:replace|alter))?(?:\s+(?:temp|temporary|unique|materialized|recursive|global|local"
    r"|external|virtual|unlogged|clustered|nonclustered|fulltext|spatial|definer\s*=\s*\S+|algorithm\s*=\s*\w+"
    r"|sql\s+security\s+\w+))*\s+(?:table|view|function|procedure|proc|trigger|index|type|schema|sequence"
    r"|package(?:\s+body)?|domain|extension|database|role|user|policy|event|aggregate|macro)"
    r"\s+(?:if\s+not\s+exists\s+)?([\w.\"`\[\]$]{1,200})", re.I)


def statements(text: str) -> Iterator[tuple[int, int, str]]:
    """Where each statement of ``text`` starts and ends (character offsets: its first word, one past its
    ";" or the file's end), and what it creates ("" when it creates nothing)."""
    start = pos = _BEFORE.match(text).end()
    depth, delimiter = 0, ";"
    line, searched = None, False  # the next DELIMITER line: searched for again only once passed
    while True:
        if delimiter != ";":  # to the next delimiter as written, strings or not: as the mysql client reads
            if not searched or (line is not None and line.start() < pos):
                line, searched = _DELIMITER_LINE.search(text, pos), True
            at = text.find(delimiter, pos)
            if line is None and at < 0:
                break
            if line is None or 0 <= at < line.start():
                yield start, at + len(delimiter), _created(text, start)
                start = pos = _BEFORE.match(text, at + len(delimiter)).end()
                continue
            found = line
        else:
            found = _TOKENS.search(text, pos)
            if found is None:
                break
        pos = found.end()
        if found.group("delimiter"):
            if found.start() > start:  # a statement without its end before the line: it ends there
                yield start, found.start(), _created(text, start)
            delimiter, depth = found.group("mark"), 0
            start = pos = _BEFORE.match(text, pos).end()
        elif found.group("open"):
            depth += 1
        elif found.group("end"):
            depth = max(0, depth - 1)
        elif ((found.group() == ";" or found.group("copy")) and depth == 0) or found.group("go"):
            yield start, pos, _created(text, start)
            depth = 0
            start = pos = _BEFORE.match(text, pos).end()
    if start < len(text):
        yield start, len(text), _created(text, start)


def _created(text: str, start: int) -> str:
    found = _CREATED.match(text, start)
    return found.group(1).replace('"', "").replace("`", "").replace("[", "").replace("]", "") if found else ""
