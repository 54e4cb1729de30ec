"""Inline markup that Markdown, reStructuredText and AsciiDoc share: emphasis taken off its words, code
and addresses kept as written around it, positions inside code spans, links kept with their context.

Split from readers.py with the Markdown (markdown.py) and reStructuredText (rst.py) readers, which both use
it; it imports neither of them.
"""

from __future__ import annotations

import bisect
import re
from typing import Callable, Iterable, Iterator

from ..markdown_prep import code_spans
from .links import MAX_LINKS, Link, context


def inside(spans: list[tuple[int, int]], at: int) -> bool:
    """Whether position ``at`` falls inside one of ``spans`` (in order, not overlapping), not at its ends."""
    n = bisect.bisect_right(spans, (at, at)) - 1
    return n >= 0 and spans[n][0] < at < spans[n][1]


def code_bounds(text: str) -> list[tuple[int, int]]:
    """Where ``text``'s code spans (`x`, ``x`y``) are: shown as written, and no link or emphasis starts
    inside one."""
    return [(start, end) for start, end, _ticks in code_spans(text)]


# Emphasis: *it*, **bold**, ***both***, _it_, __bold__, its marks not shown. Not emphasis, and left as
# written: a star or underscore inside a word or number ("snake_case_name", "2*3*4"), one with a space
# after it ("a * b", a list's "* item"), a glob ("*.txt", "src/**/*.py"), a part of a path or a file's
# name ("__pycache__/", "__init__.py"), one right after code or an address ("https://x.org/a_*b*", see
# outside()). Inside, no run of the same marks that could close it ("__init__.py __a__" is not emphasis
# from "__init"). Emphasis is a few words, so a stray star costs a short look ahead.
_KEPT = "\U000F0000-\U000FFFFD"  # the characters outside() keeps code and addresses in
STAR_EMPHASIS = (rf"(?<![A-Za-z0-9*\\/{_KEPT}])(?P<star>\*{{1,3}})(?=[^\s*./])"
                 rf"(?P<s>(?:(?!(?<=\S)(?P=star)).){{1,400}}?)(?<=[^\s*/\\])(?P=star)(?![A-Za-z0-9*/]|\.[\w{_KEPT}])")
EMPHASIS = re.compile(
    STAR_EMPHASIS + rf"|(?<![\w\\/{_KEPT}])(?P<line>_{{1,3}})(?=[^\s_])(?P<u>(?:(?!(?<=\S)(?P=line)).){{1,400}}?)"
    rf"(?<=[^\s_/\\])(?P=line)(?![\w/]|\.[\w{_KEPT}])",
    re.S,
)
# Python's special names, which READMEs and changelogs write without backticks ("on __getstate__").
_DUNDER = re.compile(r"[a-z][a-z0-9_]*")
_DUNDERS = frozenset(
    "init new del repr str bytes format hash bool getattr getattribute setattr delattr dir get set delete slots "
    "call len getitem setitem delitem missing iter next reversed contains add sub mul truediv floordiv mod pow "
    "and or xor lt le eq ne gt ge enter exit aenter aexit await aiter anext name main file doc dict module "
    "qualname all version author path package spec loader builtins future getstate setstate reduce copy "
    "deepcopy index int float round abs neg invert class mro bases annotations weakref subclasshook "
    "instancecheck fspath sizeof import pycache".split())
# While the text around them is read, each verbatim part waits as one character of a private-use plane.
_SLOT, _SLOTS = 0xF0000, 0xFFFE
_SLOT_CHAR = re.compile(f"[{_KEPT}]")


def outside(verbatim: re.Pattern[str], text: str, shown: Callable[[str], str], *, code: bool = False) -> str:
    """``shown(text)`` but for the parts of ``text`` that ``verbatim`` matches (addresses, code), and with
    ``code`` its backtick code spans, which stay as written. Each of them waits as one character of a
    private-use plane while the rest is read, so markup around it (emphasis over a code span:
    **`--force`**) is read whole."""
    if _SLOT_CHAR.search(text) is not None:
        return text  # the plane is in use (a font's icons?): the text is left as written
    kept: list[str] = []
    pieces, at = [], 0
    for start, end in _verbatim_parts(verbatim, text, code):
        if len(kept) == _SLOTS - 1:
            return text
        pieces += (text[at:start], chr(_SLOT + len(kept)))
        kept.append(text[start:end])
        at = end
    plain = shown("".join(pieces) + text[at:])
    return _SLOT_CHAR.sub(lambda m: kept[ord(m.group(0)) - _SLOT], plain) if kept else plain


def _verbatim_parts(verbatim: re.Pattern[str], text: str, code: bool) -> Iterator[tuple[int, int]]:
    """Where the parts of ``text`` that ``outside`` keeps are, in order: ``verbatim``'s matches and with
    ``code`` the code spans, the first to start winning where they overlap."""
    spans = code_bounds(text) if code else []
    at, k, found = 0, 0, verbatim.search(text)
    while True:
        while k < len(spans) and spans[k][0] < at:
            k += 1
        if found is not None and found.start() < at:
            found = verbatim.search(text, at)
        if k < len(spans) and (found is None or spans[k][0] <= found.start()):
            yield spans[k]
            at = spans[k][1]
        elif found is not None:
            yield found.span()
            at = max(found.end(), found.start() + 1)
        else:
            return


def emphasis_off(emphasis: re.Pattern[str], text: str) -> str:
    for _ in range(3):  # emphasis in emphasis of the same marks, "*a **b** c*": the inner first
        text, count = emphasis.subn(_unemphasized, text)
        if not count:
            break
    return text


def _unemphasized(match: re.Match[str]) -> str:
    inner = match.group("s") or match.group("u")
    if match.group(0)[:3] == "__" + inner[:1] and (inner in _DUNDERS or (_DUNDER.fullmatch(inner) and "_" in inner)):
        return match.group(0)  # Python's __getstate__ or __init_subclass__ written without backticks: a name
    return match.re.sub(_unemphasized, inner) if "*" in inner or "_" in inner else inner


def norm_space(text: str) -> str:
    return " ".join(text.split())


# A link as a reader finds it: its position in the new text, its anchor text, its href.
Found = tuple[int, str, str]


def spliced(text: str, links: Iterable[tuple[re.Match[str], str, str]],
            shown: Callable[[str], str] = str) -> tuple[str, list[Found]]:
    """``text`` with each of ``links`` (the match, in order, its anchor text and href) replaced by its
    anchor text, the text between read by ``shown``; and each link that has an href, as Found."""
    out: list[str] = []
    found: list[Found] = []
    length = last = 0
    for match, anchor, href in links:
        before = shown(text[last : match.start()])
        out += (before, anchor)
        length += len(before)
        if href:
            found.append((length, anchor, href))
        length += len(anchor)
        last = match.end()
    out.append(shown(text[last:]))
    return "".join(out), found


def links_in(text: str, found: list[Found], heading: str, links: list[Link]) -> None:
    """Add to ``links`` those of ``found`` (position, anchor text, href) in ``text`` worth keeping, with
    their context, up to MAX_LINKS."""
    for at, anchor, href in found:
        if len(links) >= MAX_LINKS:
            return
        link = context(text, anchor, href, heading, at)
        if link is not None:
            links.append(Link(link.href, norm_space(link.text)))
