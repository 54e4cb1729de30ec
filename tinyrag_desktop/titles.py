"""A chat's title from its first question: its words as read, without the Markdown that marks them up.

A question pasted with code ("Please review this function: ```python def f(x): …") named its chat with the
fence and its backticks, in the sidebar, the header and the window's title. The title is the question's prose:
fenced code is left out (its words are the title only when the question is nothing else), and the marks of
inline code, headings, lists, quotes, links and emphasis are taken off their words. No Qt, no Markdown parser:
a title is one short line, and a question that is not Markdown at all must read as it was typed.
"""

from __future__ import annotations

import re

from .markdown_prep import code_spans

TITLE_MAX = 60  # characters; a longer title is cut at a word, with "…"
_PROSE_READ = 1000  # characters of a question's prose read for its title
UNTITLED = "New chat"

# Code between backtick fences over more than one line, wherever its fences are ("Review this: ```python" and
# the code on the next lines): a code block, as it was meant, though Markdown reads a fence after words as code
# in the line. The words after the opening fence are its language.
_TICKS = re.compile(r"(?<!`)(?P<fence>`{3,})(?P<info>[^`\n]*)\n(?P<code>.*?)(?<!`)(?P=fence)(?!`)", re.S)
# A fenced code block left: one of tildes (``` or ~~~ up to three spaces in, its lines, its closing fence), or
# one whose fence is never closed (it goes on to the end, as Markdown reads it). A backtick fence's words may
# hold no backtick: "```python def f(x): …```" on one line is inline code.
_FENCE = re.compile(r"^ {0,3}(?P<fence>`{3,}(?=[^`\n]*$)|~{3,})[^\n]*(?:\n|\Z)(?P<code>.*?)"
                    r"(?:^ {0,3}(?P=fence)[`~]*[ \t]*$|\Z)", re.M | re.S)
_LINE_MARKS = [
    re.compile(r"^ {0,3}#{1,6}(?:[ \t]+|$)"),  # a heading's #s...
    re.compile(r"[ \t]+#+[ \t]*$"),  # ...and its closing ones
    re.compile(r"^ {0,3}(?:>[ \t]?)+"),  # a quote
    re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?"),  # a list item (a task's box too)
    re.compile(r"^[ \t]*(?:[-*_][ \t]*){3,}$"),  # a rule
    re.compile(r"^[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+[ \t]*(?::?-{3,}:?)?[ \t]*$"),  # a table's rule row
]
_TABLE_ROW = re.compile(r"^[ \t]*\|(.*?)\|?[ \t]*$")  # its outer pipes go; the inner ones part its cells
_IMAGE_OR_LINK = re.compile(r"!?\[([^\]\n]*)\]\((?:[^()\s]+|<[^>\n]*>)(?:[ \t]+\"[^\"\n]*\")?\)")
_AUTOLINK = re.compile(r"<((?:https?|mailto|ftp):[^>\s]+)>", re.I)
_EMPHASIS = [
    re.compile(r"(\*\*)(?=\S)(.+?)(?<=\S)\*\*"),  # **strong**
    # __strong__, but not a name such as __init__
    re.compile(r"(?<![\w_])(__)(?=[^\s_])(?!\w+__(?![\w_]))(.+?)(?<=[^\s_])__(?![\w_])"),
    re.compile(r"(?<![\w*])(\*)(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])"),  # *emphasis*, not 2 * 3 * 4 or a*b
    re.compile(r"(?<![\w_])(_)(?=[^\s_])(.+?)(?<=[^\s_])_(?![\w_])"),  # _emphasis_, not snake_case_words
    re.compile(r"(~~)(?=\S)(.+?)(?<=\S)~~"),  # ~~struck~~
]
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|~>])")
_KEPT = 0xF0000  # an escaped mark stands in Unicode's private use plane while the marks are taken off


def title_from(text: str) -> str:
    """A chat title from its first question: its prose on one line, without Markdown's marks, cut at a word
    near 60 characters; the code's words when the question is only code; "New chat" when it is empty."""
    codes: list[str] = []

    def fenced(match: re.Match[str]) -> str:
        info = match.groupdict().get("info", "").strip()
        codes.append(f"{info if ' ' in info else ''} {match.group('code')}")  # a language is no word of it
        return "\n"

    text = text.replace("\r\n", "\n").replace("\r", "\n")
    # The title's words are the prose's first ones: the rest of a long question is not looked through for
    # marks (a mark never closed is looked for to the end from each of its places: 9 KB of "*a " took 2 s).
    prose = _words(_FENCE.sub(fenced, _TICKS.sub(fenced, text))[:_PROSE_READ])
    if codes and prose.endswith(":"):  # "Please review this function:", its code left out
        prose = prose[:-1].rstrip()
    if prose or any(code.strip() for code in codes):
        return _cut(prose or " ".join(" ".join(codes).split()))
    return plain_title(text)  # marks and no words ("***"): as typed


def plain_title(text: str) -> str:
    """The title earlier versions made of a question, as it was typed (Markdown marks and all): what a stored
    chat named by its first question may be called."""
    return _cut(" ".join(text.strip().split()) or UNTITLED)


def _cut(line: str) -> str:
    if len(line) <= TITLE_MAX:
        return line
    cut = line[:TITLE_MAX].rsplit(" ", 1)[0] or line[:TITLE_MAX]
    return cut + "…"


def _words(text: str) -> str:
    """``text`` (Markdown with no fenced code) as the words it shows, on one line."""
    lines = []
    for line in text.split("\n"):
        for mark in _LINE_MARKS:
            line = mark.sub("", line)
        lines.append(_TABLE_ROW.sub(r"\1", line))
    text, out, at = "\n".join(lines), [], 0
    for start, end, ticks in code_spans(text):  # `x`, ``a ` b``
        out += (_unmarked(text[at:start]), text[start + ticks : end - ticks])  # code keeps its words as written
        at = end
    out.append(_unmarked(text[at:]))
    return " ".join("".join(out).split())


def _unmarked(prose: str) -> str:
    """Prose without its links' and emphasis' marks; a mark escaped with a backslash is a letter."""
    prose = _ESCAPE.sub(lambda m: chr(_KEPT + ord(m.group(1))), prose)  # kept from the marks' patterns
    prose = _IMAGE_OR_LINK.sub(r"\1", prose)
    prose = _AUTOLINK.sub(r"\1", prose)
    for _ in range(2):  # ***both***, **_both_**
        for mark in _EMPHASIS:
            prose = mark.sub(r"\2", prose)
    return "".join(chr(ord(c) - _KEPT) if _KEPT <= ord(c) < _KEPT + 128 else c for c in prose)
