"""Where Find in chat's words are: their matches in the text views of the open chat, top to bottom, and in
the text an answer does not show (the rows of a long table folded, what a cut left out of text too long to lay
out), each of those counted at the note that stands for it. The bar (find_bar.FindBar) marks, steps and says.

A match's start and end are Qt's positions in its view's document (UTF-16 units). Nothing here draws or moves.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from PySide6.QtCore import QRect
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit

from ..entities import unescape
from ..search_text import fold, fold_map, span_of
from .long_text import Cut
from .markdown_render import BREAK_POINT
from .segments import MarkdownSegment
from .thinking import ReasoningText, ThinkingSection

# A match: the number of its message among those shown, its text view's order, the view, its start and end; and
# for a match in text not shown, that text (its start and end are then those of the note that stands for it)
TextView = QTextEdit | QPlainTextEdit  # a question's or an answer's text, or an answer's reasoning (Thinking)
Match = tuple[int, int, TextView, int, int, "Hidden | None"]
_WIDE = re.compile("[\U00010000-\U0010ffff]")  # a character Qt counts as two (its positions are UTF-16's)
# Markdown in text not shown, read as the answer shows it ("a **zebra**" shows "a zebra", "Tom &amp; Jerry" shows
# "Tom & Jerry"): a code span's text as written; a link's words; "**", "__", "~~" gone, and single "*" or "_"
# around emphasis ("_" not inside a word: snake_case is no emphasis); a mark escaped by "\" shown; a character
# reference decoded. Tags are shown as written (the renderer takes no HTML). Not the renderer itself: its
# emphasis takes minutes over a paragraph of 2 MB, and this runs as the first letter is typed. (A code span is
# looked for up to 4,000 characters on: the look for its end, from each run of backticks, stays short.)
_MARKS = re.compile(r"(`++)(.{1,4000}?)\1(?!`)"
                    r"|!?\[([^\]\n]*)\]\([^)\s]*\)"
                    r"|\*\*|__|~~"
                    r"|\*([^\s*](?:[^*\n]*?[^\s*])?)\*"
                    r"|(?<![^\W_])_([^\s_](?:[^_\n]*?[^\s_])?)_(?![^\W_])"
                    r"|\\([\\`*_{}\[\]()#+\-.!~|<>&])"
                    r"|&(?:#\d+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")


class Hidden:
    """Text an answer's segment does not show: the rows of a long table folded (``rows``), or what a cut left out of
    text too long to lay out; ``start`` and ``end``: where the note that stands for it is in the segment (see
    _placed; both 0 when none is there); ``code``: the text is code, looked in as written, not as Markdown."""

    __slots__ = ("start", "end", "rows", "_text", "_folded")

    def __init__(self, start: int, end: int, text: str, rows: bool, code: bool = False) -> None:
        self.start, self.end, self.rows = start, end, rows
        self._text = text if code else _MARKS.sub(_as_shown, text)
        self._folded: str | None = None

    def count(self, words: str, pattern: re.Pattern[str], folding: bool) -> int:
        """How many times ``words``, as ``pattern`` finds them, are in the text (``folding``: in it folded, which is
        done once); a single word is counted as it stands, some 30 times faster (a 2 MB line of 160,000 "e")."""
        if folding and self._folded is None:
            self._folded = fold(self._text)
        text = self._folded if folding else self._text
        return text.count(words) if folding and " " not in words else len(pattern.findall(text))


def find_words(texts: list[tuple[int, TextView]], words: str, left_out: "LeftOut") -> list[Match]:
    """The matches of ``words`` in ``texts`` (each text view with the number of its message), top to bottom,
    paragraph by paragraph (as ``QTextDocument.find`` looks: 50,000 calls of it took two seconds), with those in
    the text each view does not show (``left_out``)."""
    found: list[Match] = []
    if not words:
        return found
    folding = bool(fold(words))  # case and accents aside, as the chats search (words of marks only: as typed)
    needle = fold(words) if folding else words
    pattern = pattern_of(needle)
    for order, (number, view) in enumerate(texts):
        shown = len(found)
        block = view.document().begin()
        while block.isValid():
            text, at = block.text(), block.position()
            wide = _WIDE.search(text) is not None
            folded, where = fold_map(text) if folding else (text, range(len(text)))
            for match in pattern.finditer(folded):
                start, end = span_of(text, where, *match.span()) if folding else match.span()
                if wide:
                    start, end = _utf16(text, start), _utf16(text, end)
                found.append((number, order, view, at + start, at + end, None))
            block = block.next()
        if hidden := left_out.of(view):
            found[shown:] = _with_hidden(found[shown:], (number, order, view), hidden, needle, pattern, folding)
    return found


class LeftOut:
    """Each answer segment's text not shown, read once for what it was read from (its fold, its cuts), and each
    reasoning's lines cut (read again once a line more is cut, or the last one grew)."""

    def __init__(self) -> None:
        self._known: dict[TextView, tuple[object, tuple, list[Hidden]]] = {}

    def of(self, view: TextView) -> list[Hidden]:
        """The text ``view`` does not show, if it is an answer's segment or reasoning that has some (read again
        only once it changed)."""
        if isinstance(view, ReasoningText):
            return self._reasoning(view)
        if not isinstance(view, MarkdownSegment) or (view.fold is None and not view.cuts):
            return []
        known = self._known.get(view)
        if known is not None and known[0] is view.fold and known[1] is view.cuts:
            return known[2]
        if view.fold is not None:
            parts = [Hidden(0, view.document().characterCount() - 1, view.fold.rows, rows=True)]
        else:
            parts = _placed(view.document().toRawText(), view.cuts)
        self._known[view] = (view.fold, view.cuts, parts)
        return parts

    def _reasoning(self, view: ReasoningText) -> list[Hidden]:
        """The reasoning's lines cut (see thinking.LINE_SHOWN), each at its note, read as written."""
        thinking = view.parentWidget()
        cuts = thinking.line_cuts() if isinstance(thinking, ThinkingSection) else ()
        known = self._known.get(view)
        if known is not None and known[1] == cuts:
            return known[2]
        whole = thinking.text() if cuts else ""
        parts = [Hidden(at, end, whole[start:stop], rows=False, code=True) for at, end, start, stop in cuts]
        self._known[view] = (None, cuts, parts)
        return parts

    def clear(self) -> None:
        self._known.clear()


def _with_hidden(found: list[Match], view: tuple[int, int, TextView], hidden: list[Hidden], words: str,
                 pattern: re.Pattern[str], folding: bool) -> list[Match]:
    """The matches ``found`` in a text ``view`` (its message's number, its order, the view) with those of ``words``
    (as ``pattern`` finds them) in its text not shown (``hidden``), each at the note that stands for its text, in
    their order; a match in a note's own words ("more", "Copy") is none."""
    notes = [(part.start, part.end) for part in hidden if part.end > part.start]
    shown = [match for match in found if not any(start <= match[3] < end for start, end in notes)]
    out, i = [], 0
    for part in sorted(hidden, key=lambda part: part.start):
        while i < len(shown) and shown[i][3] <= part.start:
            out.append(shown[i])
            i += 1
        out += [(*view, part.start, part.end, part)] * part.count(words, pattern, folding)
    return out + shown[i:]


def _placed(raw: str, cuts: tuple[Cut, ...]) -> list[Hidden]:
    """Each of ``cuts``' text, where its note is in a segment's text ``raw`` (the first of those that read the
    same not taken yet, else the last), in Qt's places: the pieces of a long table joined show the note of the
    columns they leave out once, in its header. A piece not joined has it in the piece above: they are at its
    first "…" cell (or at the start)."""
    parts, after, last, wide = [], {}, {}, _WIDE.search(raw) is not None
    for cut in filter(lambda cut: cut.left, cuts):
        note = cut.note if cut.note in raw else "…"
        at = raw.find(note, after.get(note, 0))
        at = last.get(note, -1) if at < 0 else at
        if at < 0:
            parts.append(Hidden(0, 0, cut.text(), rows=False, code=cut.code))
            continue
        last[note], end = at, at + len(note)
        after[note] = end
        if wide:
            at, end = _utf16(raw, at), _utf16(raw, end)
        parts.append(Hidden(at, end, cut.text(), rows=False, code=cut.code))
    return parts


def _as_shown(mark: re.Match[str]) -> str:
    """What a match of _MARKS shows."""
    if mark.group(0).startswith("&"):
        return unescape(mark.group(0))
    if mark.group(2) is not None:  # a code span
        return mark.group(2).strip()
    return next((part for part in mark.group(3, 4, 5, 6) if part is not None), "")


def groups(found: list[Match]) -> list[tuple[int, int, TextView]]:
    """The matches of each text view: from, to (one past), the view."""
    out: list[tuple[int, int, TextView]] = []
    first = 0
    while first < len(found):  # (a view's matches are of one order, found in the views' order)
        after = bisect_right(found, found[first][1], first, key=order_key)
        out.append((first, after, found[first][2]))
        first = after
    return out


def order_key(match: Match) -> int:
    return match[1]


def start_key(match: Match) -> int:
    return match[3]


def run_end(found: list[Match], i: int, after: int) -> int:
    """One past the last of the matches from ``i`` at the same place in their view (several, in text not shown:
    at the note that stands for it), the view's matches ending at ``after``."""
    if found[i][5] is None:
        return i + 1
    return bisect_right(found, found[i][3], i, after, key=start_key)


def cursor_of(view: TextView, start: int, end: int) -> QTextCursor:
    """The match from ``start`` to ``end`` selected; kept inside the text (an answer streaming may have
    rendered it again, shorter, since it was found)."""
    last = view.document().characterCount() - 1
    cursor = QTextCursor(view.document())
    cursor.setPosition(min(start, last))
    cursor.setPosition(min(end, last), QTextCursor.MoveMode.KeepAnchor)
    return cursor


def match_rect(view: TextView, start: int) -> QRect:
    """Where a match starting at ``start`` is in its text view: the line it starts on."""
    return view.cursorRect(cursor_of(view, start, start))


def _utf16(text: str, index: int) -> int:
    """Where character ``index`` of ``text`` is in UTF-16 units, as Qt counts."""
    return index + len(_WIDE.findall(text, 0, index))


def same_place(found: list[Match], place: tuple[TextView, int, int, int] | None) -> int:
    """The match in ``found`` at ``place`` (or the next one in its text view); if that view is gone, the
    first one after where it was; -1 without a place."""
    if place is None:
        return -1
    view, start, order, nth = place
    for first, after, other in groups(found):
        if other is view:  # (its order changes as earlier pages are built)
            i = bisect_left(found, start, first, after, key=start_key)
            if i < after:
                return min(i + nth, run_end(found, i, after) - 1)  # the same of those that share a note's place
            break
    return min(bisect_left(found, order, key=order_key), len(found) - 1)


def holds(folded: str, words: str) -> bool:
    """Whether a stored message's ``folded`` text holds ``words`` (words of marks only: as typed; they are
    then looked for in the folded text, which has none, so only the text shown can hold them)."""
    return bool(fold(words)) and fold(words) in folded


def pattern_of(words: str) -> re.Pattern[str]:
    """The words (spaces made single) as a case-insensitive pattern that also finds them across the break
    points long words get (see markdown_render._breakable), and across any run of spaces."""
    parts = [r"\s+" if ch == " " else re.escape(ch) for ch in words]
    return re.compile(f"(?:{BREAK_POINT})?".join(parts), re.IGNORECASE)
